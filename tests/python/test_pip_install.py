"""`pip install --no-build-isolation .` (pyproject.toml and tools/python/pgnarc_build_backend.py)
into a fresh venv that sees Debian's packages, as README.md says to install: the backend reuses
this test run's CMake build tree (PGNARC_BUILD_DIR), so nothing is compiled again; the venv's
python then imports the installed package, not the build tree's, and finds its version, py.typed
and the type stubs, and reads an archive as the build tree's package does."""

import base64
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

import pgnarc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARCHIVE = os.path.join(ROOT, "corpus", "conformance", "valid", "annotated.pga")
STUBS = ("py.typed", "__init__.pyi", "_pgnarc.pyi", "dask.pyi")

# What a type checker makes of a user's code through the installed stubs: the last line is wrong
# on purpose.
USER_CODE = """
import pgnarc
with pgnarc.open("games.pga") as a:
    a[0].annotations()
    reveal_type(a[0].clocks())
    reveal_type(a[0].root().variations[0].clock)
    reveal_type(a.find(player="x", min_elo=2000))
    a[0].fen(ep="sideways")
"""

# Run by the venv's python: what it imported, and what it read.
PROBE = r"""
import importlib.metadata, json, os, sys
import pgnarc
dist = importlib.metadata.distribution("pgnarc")
records = [(str(f), f.hash.value if f.hash else None, f.size, str(f.locate())) for f in dist.files]
with pgnarc.open(sys.argv[1]) as a:
    games = len(a)
    first = a[0].pgn()
print(json.dumps({"file": pgnarc.__file__, "version": pgnarc.__version__, "metadata_version": dist.version,
                  "requires": dist.requires, "records": records, "games": games, "first": first,
                  "prefix": sys.prefix}))
"""


def build_dir():
    """The CMake build tree whose package this test imports (build/python/pgnarc: ctest's
    PYTHONPATH), or PGNARC_BUILD_DIR."""
    named = os.environ.get("PGNARC_BUILD_DIR")
    build = named or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(pgnarc.__file__))))
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
        pytest.skip(f"pgnarc is not imported from a CMake build tree ({pgnarc.__file__}): set PGNARC_BUILD_DIR")
    return build


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(\s*pgnarc\s+VERSION\s+([0-9.]+)", f.read()).group(1)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The probe's answer from a venv into which pip installed the repository."""
    build = build_dir()
    venv = tmp_path_factory.mktemp("pip") / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                          capture_output=True, text=True)
    if made.returncode != 0 and "ensurepip" in made.stdout + made.stderr:
        pytest.skip(f"no venv with pip here (Debian: python3-venv): {made.stdout.strip()} {made.stderr.strip()}")
    assert made.returncode == 0, made.stdout + made.stderr
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PGNARC_BUILD_DIR=build, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    # --no-index: the dependencies (numpy, pandas) are Debian's, seen through the system site.
    pip = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-cache-dir",
                          ROOT], capture_output=True, text=True, env=env, cwd=str(venv), timeout=900)
    assert pip.returncode == 0, f"pip install: exit {pip.returncode}\n{pip.stdout}\n{pip.stderr}"
    probe = subprocess.run([python, "-c", PROBE, ARCHIVE], capture_output=True, text=True, env=env, cwd=str(venv))
    assert probe.returncode == 0, probe.stderr
    result = json.loads(probe.stdout)
    result["python"], result["env"] = python, env
    return result


def test_imports_the_installed_package(installed):
    site = os.path.realpath(installed["prefix"])
    assert os.path.realpath(installed["file"]).startswith(site + os.sep), installed["file"]
    assert installed["version"] == installed["metadata_version"] == project_version() == pgnarc.__version__
    assert set(installed["requires"]) >= {"numpy", "pandas"}


def test_ships_py_typed_and_the_stubs(installed):
    folder = os.path.dirname(installed["file"])
    for name in STUBS:
        assert os.path.isfile(os.path.join(folder, name)), name
    # Every file of lib/python/pgnarc, and the native module.
    source = os.path.join(ROOT, "lib", "python", "pgnarc")
    want = {n for n in os.listdir(source) if os.path.isfile(os.path.join(source, n))}
    got = {n for n in os.listdir(folder) if n != "__pycache__"}
    assert want <= got, want - got
    assert [n for n in got - want if n.startswith("_pgnarc.") and n.endswith(".so")], got - want


def test_record_matches_the_installed_files(installed):
    checked = 0
    for name, digest, size, path in installed["records"]:
        if digest is None:  # RECORD itself, and what pip adds (INSTALLER, direct_url.json, bytecode)
            continue
        with open(path, "rb") as f:
            data = f.read()
        assert len(data) == size, name
        assert base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode() == digest, name
        checked += 1
    assert checked >= len(STUBS) + 2


def test_reads_an_archive(installed):
    with pgnarc.open(ARCHIVE) as a:
        assert installed["games"] == len(a) > 0
        assert installed["first"] == a[0].pgn()


def test_a_type_checker_reads_the_stubs(installed, tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("no mypy for this python3 (Debian: mypy)")
    code = tmp_path / "user.py"
    code.write_text(USER_CODE)
    # Debian's pandas carries no types (nor is pandas-stubs packaged): a DataFrame is Any to mypy.
    r = subprocess.run([sys.executable, "-m", "mypy", "--python-executable", installed["python"], "--no-incremental",
                        "--cache-dir", str(tmp_path / "cache"), "--ignore-missing-imports", "--no-error-summary",
                        str(code)], capture_output=True, text=True, env=installed["env"], cwd=str(tmp_path))
    lines = r.stdout.splitlines()
    assert len(lines) == 4, r.stdout + r.stderr
    assert all(part in lines[0] for part in ("numpy.ndarray", "floating", "64Bit")), lines[0]
    assert "builtins.float" in lines[1] and "None" in lines[1], lines[1]
    assert 'builtins.list[builtins.int]' in lines[2], lines[2]
    assert "error" in lines[3] and '"ep"' in lines[3], lines[3]
