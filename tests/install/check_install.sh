#!/usr/bin/env bash
# Installs the build tree BUILD into a scratch prefix, builds tests/install/consumer against it
# twice (with find_package(pgnarc) and with pkg-config), runs both on a conformance archive and
# checks what they print against the archive's known PGN; also the installed CLI. From a shared
# build, both consumers must load the installed libpgnarc.so (found through LD_LIBRARY_PATH).
#   check_install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"
build="$2"
scratch="$(mktemp -d)"
trap 'echo "check_install: failed at line $LINENO" >&2; rm -rf "$scratch"' ERR
trap 'rm -rf "$scratch"' EXIT
prefix="$scratch/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
# (The tree is moved after installing: both packages must find it where it lies.)
mv "$prefix" "$scratch/moved"
prefix="$scratch/moved"
libdir="$(dirname "$(find "$prefix" -name 'libpgnarc.*' | head -1)")"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # a shared build

# Game 3 of this vector: paragraphs 5 and 6 (tags, moves) of its PGN.
archive="$src/corpus/conformance/valid/many_blocks.pga"
want="$(awk 'BEGIN { RS = ""; ORS = "\n\n" } NR == 5 || NR == 6' "$src/corpus/conformance/valid/many_blocks.pgn")"
grep -q '^\[Round "3"\]$' <<<"$want"
[ "$("$prefix/bin/pgnarc" get "$archive" 3)" = "$want" ]

cmake -S "$src/tests/install/consumer" -B "$scratch/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$scratch/cmake-build" >/dev/null
by_cmake="$("$scratch/cmake-build/consumer" "$archive" 3)"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046  # word splitting of the flags is intended
c++ -std=c++20 -o "$scratch/consumer-pc" "$src/tests/install/consumer/main.cpp" \
  $(pkg-config --cflags pgnarc) $(pkg-config --libs --static pgnarc)
by_pkgconfig="$("$scratch/consumer-pc" "$archive" 3)"

for got in "$by_cmake" "$by_pkgconfig"; do
  head -1 <<<"$got" | grep -q '^games 9 library [0-9]*\.[0-9]*\.[0-9]* format 1\.[0-9]*$'
  [ "$(tail -n +2 <<<"$got")" = "$want" ]
done
if [ -e "$libdir/libpgnarc.so" ]; then
  for consumer in "$scratch/cmake-build/consumer" "$scratch/consumer-pc"; do
    loads="$(ldd "$consumer")"
    grep -q "libpgnarc\.so\.[0-9]* => $libdir/" <<<"$loads"
  done
  # The installed program carries the library's objects itself.
  loads="$(ldd "$prefix/bin/pgnarc")"
  if grep -q libpgnarc <<<"$loads"; then false; fi
  echo "check_install: the consumers load the installed libpgnarc.so"
fi
# The Python package, where the build has one: the installed module reads the same game.
if [ -d "$build/python/pgnarc" ]; then
  site="$(dirname "$(find "$prefix" -path '*dist-packages/pgnarc' -type d | head -1)")"
  [ "$(PYTHONPATH="$site" /usr/bin/python3 -c 'import sys, pgnarc; sys.stdout.write(pgnarc.open(sys.argv[1])[2].pgn())' "$archive")" \
    = "$want" ]
  echo "check_install: the installed Python package reads it too"
fi
echo "check_install: find_package and pkg-config consumers read the installed library"
