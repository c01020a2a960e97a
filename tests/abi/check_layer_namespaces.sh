#!/usr/bin/env bash
# Checks that each layer of the library has its own namespace (see lib/CMakeLists.txt):
#   - every namespace inside pgnarc that a file of lib/src/LAYER opens is pgnarc::LAYER or one
#     nested in it (pgnarc::codec::model), whether opened as "namespace pgnarc::X" or as
#     "namespace X" directly inside "namespace pgnarc" (plain pgnarc stays open to the code that
#     implements the public API);
#   - nothing in lib/, tests/ or tools/ opens or names the namespace the layers shared before
#     (pgnarc's "detail", nested or not).
#   check_layer_namespaces.sh SOURCE_DIR  (the project's root)
set -euo pipefail
root="$1"
status=0

for dir in "$root"/lib/src/*/; do
  layer="$(basename "$dir")"
  # A file's namespaces as a stack: "namespace A::B {" opens, "}  // namespace ..." closes (the
  # closing comment clang-format writes). An opening's full name: the stack's top, then A::B.
  wrong="$(find "$dir" -name '*.h' -o -name '*.cpp' | sort | xargs awk -v layer="$layer" '
    FNR == 1 { depth = 0 }
    /^[ \t]*namespace[ \t]+[A-Za-z_][A-Za-z0-9_:]*[ \t]*\{/ {
      name = $0
      sub(/^[ \t]*namespace[ \t]+/, "", name)
      sub(/[ \t]*\{.*/, "", name)
      full = depth > 0 ? stack[depth] "::" name : name
      stack[++depth] = full
      if (full ~ /^pgnarc::/) {
        inner = substr(full, 9)
        if (inner != layer && index(inner, layer "::") != 1)
          printf "%s:%d: namespace %s is not in pgnarc::%s\n", FILENAME, FNR, full, layer
      }
      next
    }
    /^[ \t]*namespace[ \t]*\{/ {
      parent = depth > 0 ? stack[depth] : ""
      stack[++depth] = parent "::(anonymous)"
      next
    }
    /^}[ \t]*\/\/[ \t]*namespace/ { if (depth > 0) depth--; next }
  ')"
  if [ -n "$wrong" ]; then
    echo "check_layer_namespaces: files of lib/src/$layer open another layer's namespace:"
    echo "$wrong"
    status=1
  fi
done

old=detail
left="$(grep -rnE "namespace[ \t]+(pgnarc::)?$old\b|pgnarc::$old\b|\b$old::" "$root"/lib "$root"/tests "$root"/tools \
          --include='*.h' --include='*.cpp' --include='*.in' || true)"
if [ -n "$left" ]; then
  echo "check_layer_namespaces: pgnarc's $old is left:"
  echo "$left"
  status=1
fi

exit $status
