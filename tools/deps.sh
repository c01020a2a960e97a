# Debian packages pgnarc needs to build and test; sourced by tools/setup and .ci/run.
PGNARC_DEPS=(cmake make g++ pkgconf libzstd-dev libgtest-dev libxxhash-dev zlib1g-dev
             libcli11-dev nlohmann-json3-dev  # header-only: the CLI's options; JSON in the CLI tests
             libcpp-httplib-dev  # pgnarc serve's HTTP server
             clang libclang-rt-14-dev bsdutils  # clang + libFuzzer for tools/dev/fuzz; script(1) for a test
             python3 python3-zstandard  # the Python references: tests/reference/spec_model.py, format-spec/reference/
             python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest  # the Python package (lib/python)
             python3-dask python3-distributed python3-fsspec  # pgnarc.dask
             python3-venv mypy  # pip install . into a venv, checked against the type stubs (tests/python/test_pip_install.py)
             pgn-extract)  # FENs of every ply, the position commands' oracle (tests/cli/position_oracle.py)

pgnarc_install_deps() {
  local missing=()
  for p in "${PGNARC_DEPS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The browser test of pgnarc serve (tests/serve/serve_browser.js): Debian's chromium, node and
# npm (Debian's, where no node with npm is installed), and puppeteer-core from npm in
# $PGNARC_NPM_DIR (by default ~/.cache/pgnarc/npm, where tests/CMakeLists.txt looks for it).
PGNARC_PUPPETEER=puppeteer-core@24.43.1  # the last release for node 18 (Debian 12's)
pgnarc_install_browser() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  command -v npm >/dev/null || missing+=(nodejs npm)
  # What cannot be installed leaves the browser test skipped (it says so), not the build failed.
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq || true
    for p in "${missing[@]}"; do
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$p" >/dev/null ||
        echo "pgnarc: warning: could not install $p: the tests that need it will be skipped" >&2
    done
  fi
  local dir="${PGNARC_NPM_DIR:-${HOME:-/root}/.cache/pgnarc/npm}"
  [ -d "$dir/node_modules/puppeteer-core" ] && return 0
  command -v npm >/dev/null || return 0
  echo "installing: $PGNARC_PUPPETEER (npm, in $dir)" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --silent "$PGNARC_PUPPETEER" ||
    echo "pgnarc: warning: npm could not install $PGNARC_PUPPETEER: the browser test will be skipped" >&2
}
