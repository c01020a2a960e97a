"""pgnarc.dask on a LocalCluster of two worker processes on 127.0.0.1: a pack cut into shards
gives the games of a single pack, in order, and the archive reads back as a bag and a
dataframe that agree with pgnarc.open."""

import os

import pandas
import pytest

import pgnarc

distributed = pytest.importorskip("distributed")
import pgnarc.dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, worker_dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def games_text(path):
    with pgnarc.open(path) as a:
        return [g.pgn_bytes() for g in a]


def test_cuts_are_game_ends(corpus):
    source = corpus("twic_events.pgn")
    cuts = pgnarc._pgnarc._game_cuts(source, 20000)
    assert cuts[0] == 0 and cuts[-1] == os.path.getsize(source) and len(cuts) > 3
    data = open(source, "rb").read()
    for cut in cuts[1:-1]:
        assert data[cut:].lstrip().startswith(b"[Event ")


@pytest.mark.parametrize("name", ["twic_events", "lichess_2021-10_clk_eval", "variant_crazyhouse"])
def test_pack_on_the_cluster_is_a_single_pack(client, tmp_path, corpus, name):
    source = corpus(f"{name}.pgn")
    single = tmp_path / "single.pga"
    pgnarc.pack(source, single)
    joined = tmp_path / "joined.pga"
    stats = pgnarc.dask.pack([source], joined, client=client, shard_bytes=os.path.getsize(source) // 5)
    assert stats["shards"] > 2
    assert games_text(joined) == games_text(single)
    with pgnarc.open(single) as a:
        info = a.info()
    assert stats["plies"] == info["plies"] and stats["verbatim_games"] == info["verbatim_games"]
    with pgnarc.open(joined) as a:
        a.verify()
        assert stats["games"] == len(a)
    assert not [p for p in os.listdir(tmp_path) if ".part-" in p]  # the parts are gone
    with pytest.raises(FileExistsError):
        pgnarc.dask.pack([source], joined, client=client)


def test_pack_on_the_cluster_takes_variant_and_threads(client, tmp_path):
    """Games whose tags name no variant, packed under the rules `variant` names, on two threads a
    task: the games of a single pack with the same variant."""
    pgn = tmp_path / "zh.pgn"
    pgn.write_text("".join(f'[Event "e{k}"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 Qxb4 *\n\n' for k in range(40)))
    single, joined = tmp_path / "single.pga", tmp_path / "joined.pga"
    pgnarc.pack(pgn, single, variant="crazyhouse")
    stats = pgnarc.dask.pack([str(pgn)], joined, client=client, shard_bytes=1000, variant="crazyhouse", threads=2)
    assert stats["shards"] > 2 and stats["verbatim_games"] == 0
    assert games_text(joined) == games_text(single)
    with pgnarc.open(joined) as a:
        assert a.find(variant="crazyhouse") == list(range(40))
    with pytest.raises(ValueError):
        pgnarc.dask.pack([str(pgn)], tmp_path / "x.pga", client=client, threads=0)


def test_read_back_as_bag_and_dataframe(client, tmp_path, corpus):
    path = tmp_path / "g.pga"
    pgnarc.pack(corpus("lichess_2021-10_clk_eval.pgn"), path, force=True)
    with pgnarc.open(path) as a:
        expected = [(g.number, g.tags, g.result, g.uci()) for g in a]
        frame, a_raw = a.tags_frame(), a.tags_frame(raw=True)
    bag = pgnarc.dask.read_games(str(path), blocks_per_partition=1)
    got = bag.compute()
    assert [(g["number"], g["tags"], g["result"], g["moves"]) for g in got] == expected
    tags = pgnarc.dask.read_tags(str(path), blocks_per_partition=1)
    assert tags.npartitions >= 1
    assert list(tags.columns) == list(frame.columns)
    computed = tags.compute()
    assert computed.shape == frame.shape
    assert list(computed.dtypes) == list(frame.dtypes) == list(tags.dtypes)
    pandas.testing.assert_frame_equal(computed, frame)
    raw = pgnarc.dask.read_tags(str(path), blocks_per_partition=1, raw=True).compute()
    pandas.testing.assert_frame_equal(raw, a_raw)
    assert tags["White"].nunique().compute() == frame["White"].nunique()


def test_archive_through_fsspec_reads_byte_ranges(tmp_path, corpus):
    path = tmp_path / "t.pga"
    pgnarc.pack(corpus("twic_events.pgn"), path)
    reads = []
    size = os.path.getsize(path)

    def read(offset, n):
        reads.append((offset, n))
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(n)

    a = pgnarc.Archive.from_reader(path, size, read)
    with pgnarc.open(path) as local:
        assert a[5].pgn_bytes() == local[5].pgn_bytes()
        assert [g.number for g in a] == [g.number for g in local]
    assert sum(n for _, n in reads) < 3 * size  # byte ranges, not the whole file again and again
    with pytest.raises(OSError):
        bad = pgnarc.Archive.from_reader("broken", size, lambda offset, n: b"")
        bad[0]


def test_pack_cuts_only_plain_pgn_and_cleans_up(client, tmp_path, corpus):
    import gzip
    source = open(corpus("twic_events.pgn"), "rb").read()
    hidden = tmp_path / "twic.pgn"  # gzip, named as plain PGN: recognised by its bytes
    hidden.write_bytes(gzip.compress(source))
    stats = pgnarc.dask.pack([str(hidden)], tmp_path / "g.pga", client=client, shard_bytes=1000)
    assert stats["shards"] == 1 and stats["games"] == 60
    broken = tmp_path / "broken.pgn.gz"
    broken.write_bytes(gzip.compress(source)[:-200])
    plain = tmp_path / "plain.pgn"
    plain.write_bytes(source)
    with pytest.raises(Exception):
        pgnarc.dask.pack([str(plain), str(broken), str(plain)], tmp_path / "b.pga", client=client, shard_bytes=4000)
    assert not [p for p in os.listdir(tmp_path) if ".part-" in p]
    assert not os.path.exists(tmp_path / "b.pga")


def test_pack_refuses_its_own_input(tmp_path, corpus):
    source = tmp_path / "s.pgn"
    source.write_bytes(open(corpus("twic_events.pgn"), "rb").read())
    before = source.read_bytes()
    (tmp_path / "link.pgn").symlink_to(source)
    for output in (source, tmp_path / "link.pgn"):
        with pytest.raises(pgnarc.Error, match="is also the output"):
            pgnarc.dask.pack([str(source)], str(output), force=True)
        assert source.read_bytes() == before


def test_read_games_moves_and_annotations(client, tmp_path, corpus):
    path = tmp_path / "g.pga"
    pgnarc.pack(corpus("lichess_2021-10_clk_eval.pgn"), path, force=True)
    with pgnarc.open(path) as a:
        games = list(a)
        san = [g.san() for g in games]
        moves = [g.moves for g in games]
        frames = [g.annotations() for g in games]
    got = pgnarc.dask.read_games(str(path), blocks_per_partition=1, moves="san", annotations=True).compute()
    assert [g["moves"] for g in got] == san
    for g, frame in zip(got, frames):
        pandas.testing.assert_frame_equal(g["annotations"], frame)
    numbers = pgnarc.dask.read_games(str(path), moves="numpy").compute()
    assert all((g["moves"] == m).all() and g["moves"].dtype == m.dtype for g, m in zip(numbers, moves))
    assert "annotations" not in numbers[0]
    with pytest.raises(ValueError, match="moves"):
        pgnarc.dask.read_games(str(path), moves="lan")


def test_pack_on_the_cluster_takes_bytes_and_file_objects(client, tmp_path, corpus):
    source = corpus("twic_events.pgn")
    single = tmp_path / "single.pga"
    pgnarc.pack(source, single)
    data = open(source, "rb").read()
    half = data.index(b"[Event ", len(data) // 2)
    joined = tmp_path / "joined.pga"
    with open(source, "rb") as f:
        f.seek(half)
        stats = pgnarc.dask.pack([data[:half], f], joined, client=client, shard_bytes=len(data) // 6)
    assert stats["shards"] > 3
    assert games_text(joined) == games_text(single)
    assert not [p for p in os.listdir(tmp_path) if ".part-" in p]  # the copies and parts are gone
    with pytest.raises(TypeError, match="binary"):
        with open(source, encoding="latin-1") as text:
            pgnarc.dask.pack(text, tmp_path / "t.pga", client=client)
