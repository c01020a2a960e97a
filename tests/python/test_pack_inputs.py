"""pgnarc.pack's inputs: paths, standard input, bytes and binary file objects give the same
archive as the file they hold; what is none of them is refused with a clear exception."""

import gzip
import io
import os
import subprocess
import sys

import pytest

import pgnarc


def test_bytes_streams_and_stdin_pack_as_the_file(tmp_path, corpus):
    source = corpus("twic_events.pgn")
    data = open(source, "rb").read()
    pgnarc.pack(source, tmp_path / "file.pga")
    want = (tmp_path / "file.pga").read_bytes()
    pgnarc.pack(data, tmp_path / "bytes.pga")
    assert (tmp_path / "bytes.pga").read_bytes() == want
    pgnarc.pack(bytearray(gzip.compress(data)), tmp_path / "gzip.pga")
    assert (tmp_path / "gzip.pga").read_bytes() == want
    with open(source, "rb") as f:
        pgnarc.pack(f, tmp_path / "stream.pga")
    assert (tmp_path / "stream.pga").read_bytes() == want
    small_reads = io.BufferedReader(io.BytesIO(data), buffer_size=7)
    stats = pgnarc.pack([small_reads], tmp_path / "buffered.pga")
    assert (tmp_path / "buffered.pga").read_bytes() == want and stats["input_bytes"] == len(data)
    script = "import sys, pgnarc; pgnarc.pack('-', sys.argv[1])"
    with open(source, "rb") as stdin:
        r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "stdin.pga")], stdin=stdin, capture_output=True,
                           env={**os.environ}, timeout=120)
    assert r.returncode == 0, r.stderr.decode()
    assert (tmp_path / "stdin.pga").read_bytes() == want


def test_inputs_of_several_kinds_follow_each_other(tmp_path, corpus):
    one = corpus("twic_events.pgn")
    two = open(corpus("setup_fen.pgn"), "rb").read()
    n_one = pgnarc.pack(one, tmp_path / "one.pga")["games"]
    n_two = pgnarc.pack(two, tmp_path / "two.pga")["games"]
    stats = pgnarc.pack([one, two, io.BytesIO(two)], tmp_path / "mixed.pga")
    with pgnarc.open(tmp_path / "mixed.pga") as a, pgnarc.open(tmp_path / "one.pga") as first:
        assert len(a) == stats["games"] == n_one + 2 * n_two
        assert a[n_one - 1].pgn() == first[n_one - 1].pgn()
        assert a[n_one].pgn() == a[n_one + n_two].pgn()


def test_bad_inputs_are_refused(tmp_path, corpus):
    with pytest.raises(TypeError, match="a path, bytes or a binary file object"):
        pgnarc.pack(3, tmp_path / "x.pga")
    with pytest.raises(TypeError, match="binary mode"):
        with open(corpus("twic_events.pgn"), "r") as text:
            pgnarc.pack(text, tmp_path / "x.pga")
    with pytest.raises(TypeError, match="binary mode"):
        pgnarc.pack(io.StringIO("[Event \"x\"]\n\n1. e4 *\n"), tmp_path / "x.pga")

    class Broken(io.RawIOBase):
        name = "broken-stream"

        def readable(self):
            return True

        def read(self, n=-1):
            raise RuntimeError("the network went away")

    with pytest.raises(OSError, match="broken-stream.*the network went away"):
        pgnarc.pack(Broken(), tmp_path / "x.pga")
    assert not (tmp_path / "x.pga").exists()
    with pytest.raises(pgnarc.Error, match="<bytes 1>"):
        pgnarc.pack(b"\x00\x01\x02" * 100, tmp_path / "x.pga")
    with pytest.raises(FileNotFoundError):
        pgnarc.pack(tmp_path / "missing.pgn", tmp_path / "x.pga")
