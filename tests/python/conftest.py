"""Fixtures of the Python package's tests: the built package (PYTHONPATH=build/python), the
command line built beside it (PGNARC_CLI) as the oracle, and archives of the corpus packed once."""

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "corpus", "pgn")


def cli_path():
    path = os.environ.get("PGNARC_CLI", os.path.join(ROOT, "build", "tools", "pgnarc"))
    if not os.path.exists(path):
        pytest.skip(f"no pgnarc command line at {path} (set PGNARC_CLI)")
    return path


@pytest.fixture(scope="session")
def cli():
    path = cli_path()

    def run(*args, check=True):
        r = subprocess.run([path, *map(str, args)], capture_output=True)
        if check and r.returncode != 0:
            raise AssertionError(f"pgnarc {' '.join(map(str, args))}: exit {r.returncode}: {r.stderr.decode()}")
        return r
    return run


@pytest.fixture(scope="session")
def corpus():
    return lambda name: os.path.join(CORPUS, name)


@pytest.fixture(scope="session")
def archives(tmp_path_factory, cli, corpus):
    """Archives packed by the command line from corpus files, by name."""
    out = {}
    folder = tmp_path_factory.mktemp("archives")
    for name in ("twic_events", "dortmund_latin1_crlf", "variant_crazyhouse", "annotated_human",
                 "lichess_2021-10_clk_eval", "chess960_misc", "setup_fen"):
        path = folder / f"{name}.pga"
        cli("pack", "-q", corpus(f"{name}.pgn"), "-o", path, "--force")
        out[name] = str(path)
    return out
