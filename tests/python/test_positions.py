"""Positions and figures from Python against the command line on the same archives: Game.fen is
`pgnarc get --fen`, Archive.find(position=) is `pgnarc find --position`, Archive.tree is `pgnarc
tree --json`, find(min_elo=) is `find --min-elo`, info() is `info --json`."""

import json

import pytest

import pgnarc


def numbers(out):
    return [int(line) - 1 for line in out.decode().split()]


@pytest.fixture(scope="module")
def crazyhouse(tmp_path_factory, corpus):
    """The crazyhouse games (their tags name no variant) packed as crazyhouse."""
    path = tmp_path_factory.mktemp("zh") / "zh.pga"
    assert pgnarc.pack(corpus("variant_crazyhouse.pgn"), path, variant="crazyhouse")["verbatim_games"] == 0
    return str(path)


@pytest.mark.parametrize("name", ["twic_events", "setup_fen", "chess960_misc", "crazyhouse"])
def test_fen_is_what_get_prints(archives, crazyhouse, cli, name):
    path = crazyhouse if name == "crazyhouse" else archives[name]
    with pgnarc.open(path) as a:
        games = [g for g in a[:20] if not g.verbatim][:6]
        assert len(games) >= 3
        for g in games:
            n = g.plies
            for ply in sorted({0, 1 % (n + 1), n // 2, n}):
                for ep in ("double-step", "legal"):
                    want = cli("get", path, g.number, "--fen", ply, "--ep", ep).stdout.decode().rstrip("\n")
                    assert g.fen(ply, ep=ep) == want, (g.number, ply, ep)
            last = cli("get", path, g.number, "--fen", n).stdout.decode().rstrip("\n")
            assert g.fen() == g.fen(-1) == last
            assert g.fen(-n - 1) == g.fen(0)


def test_fen_errors(archives, tmp_path):
    with pgnarc.open(archives["twic_events"]) as a:
        g = a[0]
        with pytest.raises(IndexError, match="out of range"):
            g.fen(g.plies + 1)
        with pytest.raises(IndexError):
            g.fen(-g.plies - 2)
        with pytest.raises(TypeError):
            g.fen("1")
        with pytest.raises(ValueError, match="ep must be"):
            g.fen(0, ep="always")
    pgn = tmp_path / "illegal.pgn"
    pgn.write_bytes(b'[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
    pgnarc.pack(pgn, tmp_path / "illegal.pga")
    with pgnarc.open(tmp_path / "illegal.pga") as a:
        assert a[0].verbatim
        with pytest.raises(pgnarc.Error, match="kept verbatim"):
            a[0].fen()


def test_find_position_is_what_find_prints(archives, cli):
    path = archives["twic_events"]
    with pgnarc.open(path) as a:
        fens = [a[0].fen(8), a[1].fen(4), a[2].fen(0), "8/8/8/8/8/8/8/K6k w - - 0 1"]
        for fen in fens:
            assert a.find(position=fen) == numbers(cli("find", path, "--position", fen).stdout), fen
            assert a.find(position=fen, result="1-0") == numbers(
                cli("find", path, "--position", fen, "--result", "1-0").stdout), fen
        assert a.find(position=fens[2]) == list(range(len(a)))  # every game starts there
        # Moves from the start, as `tree --moves` reads them.
        assert a.find(moves="1. e4 c5") == a.find(moves="e4 c5")
        assert a.find(moves="e4 c5") == a.find(position="rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")


def test_tree_is_what_tree_prints(archives, crazyhouse, cli):
    path = archives["twic_events"]
    with pgnarc.open(path) as a:
        assert a.tree() == json.loads(cli("tree", path, "--json").stdout)
        assert a.tree(moves="e4", limit=2) == json.loads(cli("tree", path, "--json", "--moves", "e4", "--limit", "2").stdout)
        fen = a[0].fen(6)
        assert a.tree(position=fen) == json.loads(cli("tree", path, "--json", "--position", fen).stdout)
        # Filters: only the games find() gives count.
        won = a.tree(result="1-0")
        assert won["games"] == won["white"] == len(a.find(moves="", result="1-0"))
        assert a.tree(white="zzz-nobody")["games"] == 0
    with pgnarc.open(crazyhouse) as a:
        tree = a.tree(variant="crazyhouse")
        assert tree["games"] == len(a) and tree == json.loads(
            cli("tree", crazyhouse, "--json", "--variant", "crazyhouse").stdout)
        fen = a[0].fen(12)
        assert a.find(position=fen, variant="crazyhouse") == numbers(
            cli("find", crazyhouse, "--position", fen, "--variant", "crazyhouse").stdout) == [0]
        assert a.tree()["games"] == 0  # standard chess: none of these games


def test_position_errors(archives):
    with pgnarc.open(archives["twic_events"]) as a:
        with pytest.raises(pgnarc.Error, match="FEN"):
            a.find(position="")
        with pytest.raises(pgnarc.Error, match="move 2 'Zz9'"):
            a.tree(moves="e4 Zz9")
        with pytest.raises(ValueError, match="limit"):
            a.tree(limit=-1)
        with pytest.raises(TypeError):
            a.tree(colour="white")
        with pytest.raises(TypeError):
            a.find(position=5)
        with pytest.raises(ValueError, match="unknown variant"):
            a.tree(variant="seirawan")


@pytest.mark.parametrize("args", [dict(min_elo=2600), dict(max_elo=2400, elo_of="either"),
                                  dict(min_elo=2500, max_elo=2650, elo_of="white"),
                                  dict(min_elo=2700, elo_of="black", result="1-0")])
def test_find_by_rating_is_find_with_elo_flags(archives, cli, args):
    path = archives["twic_events"]
    flags = []
    for key, value in args.items():
        flags += [f"--{key.replace('_', '-')}", value]
    want = numbers(cli("find", path, *flags).stdout)
    with pgnarc.open(path) as a:
        got = a.find(**args)
        assert got == want and got
        frame = a.tags_frame(["WhiteElo", "BlackElo"])
    if args.get("elo_of", "both") == "both" and "max_elo" not in args:
        rated = frame[(frame["WhiteElo"] >= args["min_elo"]) & (frame["BlackElo"] >= args["min_elo"])]
        assert got == list(rated.index)


def test_find_by_rating_refuses_bad_bounds(archives):
    with pgnarc.open(archives["twic_events"]) as a:
        with pytest.raises(ValueError, match="above"):
            a.find(min_elo=2800, max_elo=2700)
        with pytest.raises(ValueError, match="0 to 9999"):
            a.find(min_elo=-1)
        with pytest.raises(ValueError, match="elo_of"):
            a.find(min_elo=2000, elo_of="both players")
        with pytest.raises(TypeError, match="int"):
            a.find(min_elo="2000")
        with pytest.raises(ValueError, match="9999"):
            a.find(max_elo=10 ** 12)
        import numpy
        assert a.find(min_elo=numpy.int64(2600)) == a.find(min_elo=2600)


@pytest.mark.parametrize("name", ["twic_events", "variant_crazyhouse", "annotated_human"])
def test_info_is_info_json(archives, cli, name):
    want = json.loads(cli("info", archives[name], "--json").stdout)
    with pgnarc.open(archives[name]) as a:
        got = a.info()
    assert got == want
    assert list(got) == list(want) and got["games"] == len(pgnarc.open(archives[name]))


def test_svg_is_what_get_draws(archives, cli):
    path = archives["twic_events"]
    with pgnarc.open(path) as a:
        g = a[3]
        for ply in (0, 1, g.plies // 2, g.plies):
            want = cli("get", path, g.number, "--svg", ply).stdout.decode()
            assert g.svg(ply) == want.rstrip("\n") or g.svg(ply) == want
        flipped = cli("get", path, g.number, "--svg", 5, "--flip").stdout.decode()
        assert g.svg(5, flip=True) in (flipped, flipped.rstrip("\n"))
        assert g.svg() == g.svg(-1) == g._repr_svg_() and f'data-fen="{g.fen()}"' in g.svg()
        with pytest.raises(IndexError):
            g.svg(g.plies + 1)
        with pytest.raises(ValueError, match="size"):
            g.svg(0, size=5)
