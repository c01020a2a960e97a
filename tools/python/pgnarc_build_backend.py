"""The build backend of the Python package pgnarc (PEP 517, named by pyproject.toml), written with
the standard library alone, so that Debian's python3 builds the package with no package from an
index:

    /usr/bin/python3 -m venv --system-site-packages V && V/bin/pip install --no-build-isolation .

build_wheel runs CMake for the target pgnarc_python, which puts the package together in
BUILD/python/pgnarc (lib/python/CMakeLists.txt), and zips that folder into a wheel. BUILD is
PGNARC_BUILD_DIR (or pip's --config-settings build-dir=...) when given: an existing CMake build
tree of this source, of which only that target is built (nothing when it is up to date);
otherwise a fresh Release build in a temporary folder, removed afterwards. Nothing is written
into the source tree but Python's bytecode of this module, which tools/python/.gitignore ignores.

The wheel holds what CMake copied from lib/python/pgnarc (the Python files, the type stubs and
py.typed) and the native module _pgnarc, which CMake builds for Debian's /usr/bin/python3: the
wheel is tagged for the interpreter that runs pip, and refused when that interpreter could not
load the module. The version is CMakeLists.txt's project(VERSION), which the module reports as
pgnarc.__version__.
"""

import base64
import hashlib
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE_SOURCE = os.path.join(SOURCE, "lib", "python", "pgnarc")
NAME = "pgnarc"
TARGET = "pgnarc_python"
# Where the target puts the package, below the build tree (PGNARC_PYTHON_DIR in CMakeLists.txt).
PACKAGE_IN_BUILD = os.path.join("python", "pgnarc")
# Zip entries carry this time (1980-01-01, the earliest zip allows) unless SOURCE_DATE_EPOCH says
# otherwise, so that two builds of the same files give the same wheel.
ZIP_EPOCH = 315532800


def version():
    """project(pgnarc VERSION x.y.z) of CMakeLists.txt."""
    with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
        found = re.search(r"project\(\s*pgnarc\s+VERSION\s+([0-9]+(?:\.[0-9]+)*)", f.read())
    if not found:
        raise RuntimeError(f"{SOURCE}/CMakeLists.txt: no project(pgnarc VERSION ...) to take the version from")
    return found.group(1)


def _dist_info():
    return f"{NAME}-{version()}.dist-info"


def _metadata():
    # numpy and pandas: Debian's python3-numpy and python3-pandas, which a venv made with
    # --system-site-packages sees; pgnarc.dask needs the extra's packages as well.
    return "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version()}",
        "Summary: Archives of chess games (PGN packed by legal-move indices): read, search and write them",
        "License: MIT",
        "Requires-Python: >=3.9",
        "Requires-Dist: numpy",
        "Requires-Dist: pandas",
        "Provides-Extra: dask",
        'Requires-Dist: dask; extra == "dask"',
        'Requires-Dist: distributed; extra == "dask"',
        'Requires-Dist: fsspec; extra == "dask"',
        "",
    ])


def _wheel_file(tag):
    return f"Wheel-Version: 1.0\nGenerator: {NAME} tools/python/pgnarc_build_backend.py\nRoot-Is-Purelib: false\nTag: {tag}\n"


def _tag():
    """The wheel tag of the running interpreter, as pip's own tags name it (cp311-cp311-linux_x86_64)."""
    if sys.implementation.name != "cpython":
        raise RuntimeError(f"pgnarc's module is built for CPython, not {sys.implementation.name}")
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{py}-{py}{sys.abiflags}-{platform}"


# PEP 517 hooks -------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    # CMake, a C++ compiler and pybind11 are Debian's packages (tools/deps.sh), not Python's.
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_metadata(metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return _write_metadata(metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    named = _named_build_dir(config_settings)
    if named:
        _build(named, configure=False)
        return _write_wheel(wheel_directory, _package_files(named))
    with tempfile.TemporaryDirectory(prefix="pgnarc-wheel-") as build:
        _build(build, configure=True)
        return _write_wheel(wheel_directory, _package_files(build))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel that puts BUILD/python on sys.path (a .pth file): the package as the named build
    tree holds it, current after each `cmake --build BUILD --target pgnarc_python`."""
    named = _named_build_dir(config_settings)
    if not named:
        raise RuntimeError("an editable install runs the package from a build tree that stays: name it with "
                           "PGNARC_BUILD_DIR=DIR (a CMake build of this source; cmake -S . -B DIR makes one)")
    _build(named, configure=False)
    _package_files(named)  # (checks that the module loads here)
    path = os.path.join(named, os.path.dirname(PACKAGE_IN_BUILD))
    return _write_wheel(wheel_directory, [(f"__editable__.{NAME}.pth", (path + "\n").encode())])


# Building ------------------------------------------------------------------------------------

def _named_build_dir(config_settings):
    """The build tree named by --config-settings build-dir=DIR or PGNARC_BUILD_DIR, checked to be
    a CMake build of this source, or None."""
    named = (config_settings or {}).get("build-dir") or os.environ.get("PGNARC_BUILD_DIR")
    if not named:
        return None
    named = os.path.abspath(named)
    cache = os.path.join(named, "CMakeCache.txt")
    if not os.path.isfile(cache):
        raise RuntimeError(f"PGNARC_BUILD_DIR={named} is not a CMake build tree (no CMakeCache.txt): "
                           f"make one with cmake -S {SOURCE} -B {named}, or unset it for a fresh build")
    with open(cache, encoding="utf-8", errors="replace") as f:
        home = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", f.read(), re.MULTILINE)
    if not home or os.path.realpath(home.group(1)) != os.path.realpath(SOURCE):
        raise RuntimeError(f"PGNARC_BUILD_DIR={named} is a build of {home.group(1) if home else 'another source'}, "
                           f"not of {SOURCE}")
    return named


def _run(command):
    print("pgnarc:", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def _build(build, configure):
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("no cmake on the PATH: pgnarc's package is built by CMake (tools/deps.sh installs it)")
    if configure:
        # Release, without the test suite: only the module and the library's objects are built.
        _run([cmake, "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DPGNARC_BUILD_TESTS=OFF"])
    if not os.path.isdir(os.path.join(build, "lib", "python")):
        raise RuntimeError(f"the CMake build {build} has no Python package: it needs /usr/bin/python3 with its "
                           "headers and pybind11 (python3-dev, pybind11-dev: tools/deps.sh), and no sanitizers")
    command = [cmake, "--build", build, "--target", TARGET]
    if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
        command += ["--parallel", str(os.cpu_count() or 1)]
    _run(command)


def _package_files(build):
    """(name in the wheel, path) of each of the package's files in the build tree: what
    lib/python/pgnarc holds (as CMake copied it) and the native module for this interpreter."""
    folder = os.path.join(build, PACKAGE_IN_BUILD)
    files = []
    for name in sorted(os.listdir(PACKAGE_SOURCE)):
        if not os.path.isfile(os.path.join(PACKAGE_SOURCE, name)) or name.endswith((".pyc", "~")):
            continue
        built = os.path.join(folder, name)
        if not os.path.isfile(built):
            raise RuntimeError(f"{built} is missing: lib/python/CMakeLists.txt does not copy lib/python/pgnarc/{name}")
        files.append((f"{NAME}/{name}", built))
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    modules = [n for n in sorted(os.listdir(folder)) if n.startswith("_pgnarc.")]
    loadable = [n for n in modules if any(n == "_pgnarc" + s for s in suffixes)]
    if not loadable:
        raise RuntimeError(f"{folder} has no native module this Python ({sys.executable}, {sys.version.split()[0]}) "
                           f"loads: it holds {modules or 'none'}, and this Python loads _pgnarc{suffixes[0]}. "
                           "CMake builds it for /usr/bin/python3: run pip from that python3 or a venv made from it")
    files.append((f"{NAME}/{loadable[0]}", os.path.join(folder, loadable[0])))
    return files


# Writing -------------------------------------------------------------------------------------

def _write_metadata(directory):
    info = os.path.join(directory, _dist_info())
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return _dist_info()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, files):
    """The wheel of `files` ((name, path or bytes) each) with its .dist-info; its file name."""
    tag = _tag()
    wheel_name = f"{NAME}-{version()}-{tag}.whl"
    info = _dist_info()
    when = max(int(os.environ.get("SOURCE_DATE_EPOCH", ZIP_EPOCH)), ZIP_EPOCH)
    stamp = time.gmtime(when)[:6]
    entries = []
    for name, source in files:
        if isinstance(source, bytes):
            entries.append((name, source, 0o644))
        else:
            with open(source, "rb") as f:
                entries.append((name, f.read(), 0o755 if name.endswith(".so") else 0o644))
    entries.append((f"{info}/METADATA", _metadata().encode(), 0o644))
    entries.append((f"{info}/WHEEL", _wheel_file(tag).encode(), 0o644))
    entries.append((f"{info}/top_level.txt", f"{NAME}\n".encode(), 0o644))
    record = "".join(_record_line(name, data) + "\n" for name, data, _ in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode(), 0o644))
    os.makedirs(wheel_directory, exist_ok=True)
    path = os.path.join(wheel_directory, wheel_name)
    partial = path + ".part"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in entries:
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.external_attr = (0o100000 | mode) << 16  # a regular file with its permissions
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    os.replace(partial, path)
    return wheel_name
