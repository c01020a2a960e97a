"""The package's Archive and Game against the command line on the same archives: every answer
Python gives is the one `pgnarc` gives."""

import json
import os
import re

import numpy
import pandas
import pytest

import pgnarc

XIANGQI = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "corpus", "xiangqi")

PROMOTIONS = "nbrq"


def games_in(cli, archive):
    return int(re.search(rb"games:\s+(\d+)", cli("info", archive).stdout).group(1))


def test_versions(cli):
    out = cli("--version").stdout.decode()
    assert out == f"pgnarc {pgnarc.__version__} (archive format {pgnarc.format_version})\n"
    assert pgnarc.format_version.startswith("1.")


def test_open_errors(tmp_path):
    not_archive = tmp_path / "x.pga"
    not_archive.write_bytes(b"[Event \"x\"]\n\n1. e4 *\n" * 20)
    with pytest.raises(pgnarc.Error) as e:
        pgnarc.open(not_archive)
    assert isinstance(e.value, ValueError)
    assert str(not_archive) in str(e.value)
    with pytest.raises(FileNotFoundError):
        pgnarc.open(tmp_path / "missing.pga")


def test_sequence(archives, cli):
    path = archives["twic_events"]
    with pgnarc.open(path) as a:
        n = len(a)
        assert n == games_in(cli, path)
        assert a[-1].number == n and a[0].number == 1
        assert [g.number for g in a[2:7:2]] == [3, 5, 7]
        assert [g.number for g in a[-2:]] == [n - 1, n]
        with pytest.raises(IndexError):
            a[n]
        with pytest.raises(IndexError):
            a[-n - 1]
        with pytest.raises(TypeError):
            a["1"]
    with pytest.raises(ValueError):
        len(a)  # closed


@pytest.mark.parametrize("name", ["twic_events", "dortmund_latin1_crlf", "variant_crazyhouse", "annotated_human",
                                  "chess960_misc"])
def test_games_are_what_get_prints(archives, cli, name):
    path = archives[name]
    with pgnarc.open(path) as a:
        n = len(a)
        for number in sorted({1, 2, n // 3, n // 2, n - 1, n} & set(range(1, n + 1))):
            g = a[number - 1]
            expected = cli("get", path, number).stdout
            assert g.pgn_bytes() == expected
            assert g.pgn() == expected.decode("utf-8", "surrogateescape")
            tags = re.findall(rb'^\[(\S+) "((?:[^"\\]|\\.)*)"\]$', expected, re.M)
            first = {}
            for k, v in tags:
                first.setdefault(k.decode("utf-8", "surrogateescape"),
                                 re.sub(rb"\\(.)", rb"\1", v).decode("utf-8", "surrogateescape"))
            if not g.verbatim:
                assert g.tags == first
                assert list(g.tags) == list(first)


def test_latin1_tags_round_trip(archives):
    with pgnarc.open(archives["dortmund_latin1_crlf"]) as a:
        raw = [v.encode("utf-8", "surrogateescape") for g in a for v in g.tags.values()]
    assert any(b"\xe4" in v or b"\xf6" in v or b"\xfc" in v for v in raw)  # Latin-1 umlauts came back


def move_of(uci):
    files, ranks = "abcdefgh", "12345678"
    square = lambda s: files.index(s[0]) + 8 * ranks.index(s[1])
    if uci == "0000":
        return 0
    promotion = PROMOTIONS.index(uci[4]) + 1 if len(uci) == 5 else 0
    return square(uci[:2]) | square(uci[2:4]) << 6 | promotion << 12


@pytest.mark.parametrize("name", ["twic_events", "chess960_misc", "setup_fen", "annotated_human"])
def test_moves_san_uci(archives, name):
    with pgnarc.open(archives[name]) as a:
        for g in a:
            if g.verbatim:
                assert len(g.moves) == 0 and g.san() == [] and g.plies == 0
                continue
            san, uci, moves = g.san(), g.uci(), g.moves
            assert moves.dtype == numpy.uint16
            assert len(san) == len(uci) == len(moves) == g.plies
            assert list(moves) == [move_of(u) for u in uci]
            # The SAN is the PGN's main line (variations and comments aside).
            text = g.pgn()
            assert all(s in text for s in san[:8])


def test_iteration_is_indexing(archives):
    with pgnarc.open(archives["lichess_2021-10_clk_eval"]) as a:
        seen = [(g.number, g.pgn_bytes()) for g in a]
        assert [n for n, _ in seen] == list(range(1, len(a) + 1))
        for number in (1, len(a) // 2, len(a)):
            assert seen[number - 1][1] == a[number - 1].pgn_bytes()
        # Reading by number inside the loop, and stopping early.
        for g in a.games(threads=1):
            assert a[g.number - 1].tags == g.tags
            if g.number == 5:
                break


QUERIES = [
    ({"player": "carlsen"}, ["--player", "carlsen"]),
    ({"white": "Anand"}, ["--white", "Anand"]),
    ({"result": "1-0"}, ["--result", "1-0"]),
    ({"result": "1/2-1/2", "date_from": "2012.12.05"}, ["--result", "1/2-1/2", "--date-from", "2012.12.05"]),
    ({"eco": "b"}, ["--eco", "b"]),
    ({"event": "London", "date_to": "2012.12.03"}, ["--event", "London", "--date-to", "2012.12.03"]),
    ({"tags": {"Round": "4.1"}}, ["--tag", "Round=4.1"]),
    ({"black": "Kramnik,V", "exact": True}, ["--black", "Kramnik,V", "--exact"]),
]


@pytest.mark.parametrize("kwargs,args", QUERIES)
def test_find_answers_as_the_command_line(archives, cli, kwargs, args):
    path = archives["twic_events"]
    expected = [int(x) - 1 for x in cli("find", path, *args, "--numbers").stdout.split()]
    with pgnarc.open(path) as a:
        assert a.find(**kwargs) == expected


def test_find_bad_arguments(archives):
    with pgnarc.open(archives["twic_events"]) as a:
        with pytest.raises(ValueError):
            a.find(date_from="12.2012")
        with pytest.raises(TypeError):
            a.find(player=3)
        with pytest.raises(TypeError):
            a.find(tags=[("Round", "1")])


def test_tags_frame(archives):
    with pgnarc.open(archives["twic_events"]) as a:
        frame = a.tags_frame(raw=True)
        assert isinstance(frame, pandas.DataFrame)
        assert len(frame) == len(a)
        assert list(frame.columns[:7]) == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        for i in (0, len(a) - 1):
            row = {k: v for k, v in frame.iloc[i].items() if v is not None}
            assert row == a[i].tags
        some = a.tags_frame(columns=["White", "Nothing"], raw=True)
        assert list(some.columns) == ["White", "Nothing"]
        assert some["Nothing"].isna().all()
        assert list(some["White"]) == [g.tags["White"] for g in a]
        # A range of games, as pgnarc.dask reads a partition's (tags only, no moves decoded).
        names, values = a._open()._tag_columns(None, 10, 20)
        part = dict(zip(names, values))
        for k in range(10):
            assert {c: v[k] for c, v in part.items() if v[k] is not None} == a[10 + k].tags


def test_tags_frame_types(archives, tmp_path):
    """Ratings and counts are integers, complete dates dates, results a category; what is not of
    its tag's type is missing there, and raw=True has its text."""
    with pgnarc.open(archives["lichess_2021-10_clk_eval"]) as a:
        frame, text = a.tags_frame(), a.tags_frame(raw=True)
        assert str(frame["WhiteElo"].dtype) == "Int64" and str(frame["BlackElo"].dtype) == "Int64"
        assert list(frame["WhiteElo"]) == [int(v) for v in text["WhiteElo"]]
        assert str(frame["Date"].dtype) == "datetime64[ns]" and str(frame["UTCDate"].dtype) == "datetime64[ns]"
        assert [d.strftime("%Y.%m.%d") for d in frame["Date"]] == list(text["Date"])
        assert str(frame["Result"].dtype) == "category"
        assert list(frame["Result"].astype(str)) == list(text["Result"])
        assert frame["White"].dtype == object and list(frame["White"]) == list(text["White"])
        frame.to_csv(tmp_path / "tags.csv")
    pgn = tmp_path / "odd.pgn"
    pgn.write_text('[Date "2012.??.??"]\n[Result "1-0"]\n[WhiteElo "?"]\n[BlackElo "2700x"]\n[PlyCount "2"]\n\n1. e4 e5 1-0\n\n'
                   '[Date "2013.02.30"]\n[WhiteElo "+5"]\n\n1. d4 *\n')
    pgnarc.pack(pgn, tmp_path / "odd.pga")
    with pgnarc.open(tmp_path / "odd.pga") as a:
        frame, text = a.tags_frame(), a.tags_frame(raw=True)
        assert frame["Date"].isna().all() and list(text["Date"]) == ["2012.??.??", "2013.02.30"]
        assert frame["WhiteElo"].isna()[0] and frame["WhiteElo"][1] == 5
        assert frame["BlackElo"].isna().all() and text["BlackElo"][0] == "2700x"
        assert list(frame["PlyCount"].isna()) == [False, True] and frame["PlyCount"][0] == 2
        assert list(frame["Result"].cat.categories) == ["1-0", "0-1", "1/2-1/2", "*"]
        assert list(frame["Result"].isna()) == [False, True]  # the second game has no Result tag


def test_pack(tmp_path, cli, corpus):
    source = corpus("twic_events.pgn")
    out = tmp_path / "py.pga"
    stats = pgnarc.pack([source], out)
    assert stats["games"] == 60 and stats["verbatim_games"] == 0 and stats["output_bytes"] == os.path.getsize(out)
    cli("pack", "-q", source, "-o", tmp_path / "cli.pga")
    assert out.read_bytes() == (tmp_path / "cli.pga").read_bytes()
    with pytest.raises(FileExistsError):
        pgnarc.pack(source, out)
    assert pgnarc.pack(source, out, force=True, threads=1)["games"] == 60
    with pytest.raises(FileNotFoundError):
        pgnarc.pack(tmp_path / "none.pgn", tmp_path / "none.pga")
    with pytest.raises(ValueError):
        pgnarc.pack(source, tmp_path / "t.pga", threads=0)
    kept = pgnarc.pack(corpus("variant_crazyhouse.pgn"), tmp_path / "zh.pga")
    assert kept["verbatim_games"] == kept["games"] > 0 and len(kept["problems"]) == kept["games"]


def test_pack_clocks_model_or_bytes(tmp_path, cli, corpus):
    source = corpus("lichess_2021-10_clk_eval.pgn")
    model, plain = tmp_path / "model.pga", tmp_path / "bytes.pga"
    pgnarc.pack(source, model, tags="text")          # (the read versions are the clocks')
    pgnarc.pack(source, plain, clocks="bytes", tags="text")
    cli("pack", "-q", source, "--clocks", "bytes", "--tags", "text", "-o", tmp_path / "cli.pga")
    assert plain.read_bytes() == (tmp_path / "cli.pga").read_bytes()
    with pgnarc.open(model) as m, pgnarc.open(plain) as p:
        assert m.info()["read_version"] == "1.3" and p.info()["read_version"] == "1.2"
        assert [g.pgn() for g in m] == [g.pgn() for g in p]
    assert os.path.getsize(model) < os.path.getsize(plain)
    with pytest.raises(ValueError):
        pgnarc.pack(source, tmp_path / "x.pga", clocks="zstd")


def test_pack_tags_derive_or_text(tmp_path, cli):
    # chess.com's CurrentPosition: the final position, derived from the moves (format 1.4), or text
    source = tmp_path / "current.pgn"
    source.write_text('[CurrentPosition "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]\n\n'
                      '1. e4 e5 *\n\n[CurrentPosition "elsewhere"]\n\n1. d4 *\n')
    derived, text = tmp_path / "derived.pga", tmp_path / "text.pga"
    pgnarc.pack(str(source), derived, tags="derive")
    pgnarc.pack(str(source), text, tags="text")
    cli("pack", "-q", source, "--tags", "text", "-o", tmp_path / "cli.pga")
    assert text.read_bytes() == (tmp_path / "cli.pga").read_bytes()
    with pgnarc.open(derived) as d, pgnarc.open(text) as t:
        assert d.info()["read_version"] == "1.4" and t.info()["read_version"] != "1.4"
        assert [g.pgn() for g in d] == [g.pgn() for g in t]
        assert d[0].tags["CurrentPosition"].startswith("rnbqkbnr/pppp1ppp/")
    assert os.path.getsize(derived) < os.path.getsize(text)
    with pytest.raises(ValueError):
        pgnarc.pack(str(source), tmp_path / "x.pga", tags="derived")


def packed_by_default_and(source, tmp_path, cli, tags):
    """`source` packed with the default tags, whose bytes are those `pgnarc pack` writes, and
    with `tags`."""
    default, other = tmp_path / "default.pga", tmp_path / f"{tags}.pga"
    pgnarc.pack(source, default)
    pgnarc.pack(source, other, tags=tags)
    cli("pack", "-q", source, "-o", tmp_path / "cli.pga")
    assert default.read_bytes() == (tmp_path / "cli.pga").read_bytes()
    return default, other


def test_pack_tags_coded(tmp_path, cli, corpus):
    # a lichess export's ratings, rating changes, dates and times of day coded (format 1.5; the
    # default's value table does not pay for this file's 40 games)
    coded, derived = packed_by_default_and(corpus("lichess_2021-10_clk_eval.pgn"), tmp_path, cli, "derive")
    with pgnarc.open(coded) as c, pgnarc.open(derived) as d:
        assert c.info()["read_version"] == "1.5" and d.info()["read_version"] == "1.3"
        assert [g.pgn() for g in c] == [g.pgn() for g in d]
        assert c[7].tags == d[7].tags and "WhiteElo" in c[7].tags
    assert os.path.getsize(coded) < os.path.getsize(derived)


def test_pack_tags_tables(tmp_path, cli):
    # an opening's tags stored once in the archive's value table (format 1.6), over blocks that
    # each name them
    opening = [(g * g * 7919 + g * 104729) % 2003 % 300 for g in range(4000)]  # a scatter of 300
    games = "".join(f'[White "p{g}"]\n[ECO "B{o % 100:02}"]\n[Opening "Opening {o}: the variation of its year"]\n'
                    f'\n1. e4 c5 2. Nf3 *\n\n' for g, o in enumerate(opening))
    source = tmp_path / "openings.pgn"
    source.write_text(games)
    tables, coded = packed_by_default_and(source, tmp_path, cli, "coded")
    with pgnarc.open(tables) as t, pgnarc.open(coded) as c:
        assert t.info()["read_version"] == "1.6" and c.info()["read_version"] != "1.6"
        assert t.info()["blocks"] > 1
        assert [g.pgn() for g in t] == [g.pgn() for g in c]
        assert t[3999].tags["Opening"] == f"Opening {opening[3999]}: the variation of its year"
    assert os.path.getsize(tables) < os.path.getsize(coded)
    with pytest.raises(ValueError, match="tags must be"):
        pgnarc.pack(source, tmp_path / "x.pga", tags="table")


def test_pack_tags_names(tmp_path, cli):
    # events of their own (date, players, result, as Xiangqi collections name them) as entries of
    # the Event table the archive keeps for search (format 1.14), each stored once
    games = "".join(f'[Event "1983{1000 + g} p{g % 37} beat p{g % 41}"]\n[White "p{g % 37}"]\n[Black "p{g % 41}"]\n'
                    f'\n1. e4 e5 *\n\n' for g in range(500))
    source = tmp_path / "events.pgn"
    source.write_text(games)
    names, tables = packed_by_default_and(source, tmp_path, cli, "tables")
    with pgnarc.open(names) as n, pgnarc.open(tables) as t:
        assert n.info()["read_version"] == "1.14" and t.info()["read_version"] != "1.14"
        assert [g.pgn() for g in n] == [g.pgn() for g in t]
        assert n[321].tags["Event"] == "19831321 p25 beat p34"
        assert n.find(event="19831321 p25 beat p34", exact=True) == [321]
    assert os.path.getsize(names) < os.path.getsize(tables)
    with pytest.raises(ValueError, match="tags must be"):
        pgnarc.pack(source, tmp_path / "x.pga", tags="name")


def test_damage_says_where(tmp_path, archives):
    data = bytearray(open(archives["twic_events"], "rb").read())
    data[200] ^= 0x40  # inside block 0, which starts at offset 32
    damaged = tmp_path / "damaged.pga"
    damaged.write_bytes(bytes(data))
    with pgnarc.open(damaged) as a:
        with pytest.raises(pgnarc.Error, match=r"block 0 at offset 32"):
            a[0]
        with pytest.raises(pgnarc.Error, match=r"block 0 at offset 32"):
            for _ in a:
                pass
        with pytest.raises(pgnarc.Error):
            a.verify()


def test_numpy_indices_and_bad_arguments(archives):
    with pgnarc.open(archives["twic_events"]) as a:
        assert a[numpy.int64(3)].number == 4
        with pytest.raises(TypeError):
            a[True]
        with pytest.raises(IndexError):
            a[2 ** 70]
        with pytest.raises(ValueError):
            a.find(result="draw")
        with pytest.raises(TypeError):
            a.find(tags={"Round": None})
        assert list(a.tags_frame(columns=["White", "White", "Black"]).columns) == ["White", "Black"]


def test_threads(archives):
    import subprocess
    import sys
    # Eight threads building their first numpy arrays at once, in a fresh process.
    script = ("import threading, pgnarc\n"
              "a = [pgnarc.open(sys.argv[1]) for _ in range(8)]\n"
              "ts = [threading.Thread(target=lambda k=k: a[k][k].moves) for k in range(8)]\n"
              "[t.start() for t in ts]; [t.join() for t in ts]\n")
    r = subprocess.run([sys.executable, "-c", "import sys\n" + script, archives["twic_events"]], timeout=60,
                       capture_output=True)
    assert r.returncode == 0, r.stderr
    # One iterator read by several threads: refused, not corrupted.
    import threading
    with pgnarc.open(archives["lichess_2021-10_clk_eval"]) as a:
        it = a.games()
        errors, seen = [], []

        def drain():
            try:
                for g in it:
                    seen.append(g.number)
            except ValueError as e:
                errors.append(e)
        ts = [threading.Thread(target=drain) for _ in range(4)]
        [t.start() for t in ts]
        [t.join() for t in ts]
        assert len(set(seen)) == len(seen) and set(seen) <= set(range(1, len(a) + 1))


def test_read_function_may_give_any_bytes(archives):
    path = archives["twic_events"]
    data = open(path, "rb").read()
    a = pgnarc.Archive.from_reader("mem", len(data), lambda offset, n: bytearray(data[offset:offset + n]))
    assert [g.number for g in a] == list(range(1, 61))
    assert a[59].pgn_bytes() == pgnarc.open(path)[59].pgn_bytes()


def test_variants(tmp_path, cli):
    """Games of lichess's variants: their rules named, drops and king promotions as numbers, found
    by variant, packed as crazyhouse where the tags name none."""
    pgn = tmp_path / "v.pgn"
    pgn.write_text("[Event \"fics\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 Qa5 *\n\n"
                   "[Variant \"Antichess\"]\n[FEN \"7k/P7/8/8/8/8/8/8 w - - 0 1\"]\n\n1. a8=K Kg8 *\n")
    out = tmp_path / "v.pga"
    stats = pgnarc.pack(pgn, out, variant="crazyhouse")
    assert stats["verbatim_games"] == 0
    with pytest.raises(ValueError):
        pgnarc.pack(pgn, tmp_path / "x.pga", variant="seirawan")
    with pgnarc.open(out) as a:
        zh, anti = a[0], a[1]
        assert (zh.variant, anti.variant) == ("Crazyhouse", "Antichess")
        assert zh.san() == ["e4", "d5", "exd5", "Qxd5", "P@e4", "Qa5"]
        assert zh.uci()[4] == "P@e4"
        e4 = 28
        assert int(zh.moves[4]) == e4 | e4 << 6  # a drop: from = to, a pawn 0
        a7, a8 = 48, 56
        assert int(anti.moves[0]) == a7 | a8 << 6 | 5 << 12  # a promotion to king
        assert anti.san()[0] == "a8=K"
        assert a.find(variant="crazyhouse") == [0]
        assert a.find(variant="antichess") == [1]
        assert a.find(variant="standard") == []
        assert zh.pgn() == cli("get", out, "1").stdout.decode()


def test_xiangqi(tmp_path, cli):
    """Xiangqi games: their rules named, found by Red's name, their FEN at any ply and their PGN
    as the command line gives them; their moves are no chess moves."""
    pgn = tmp_path / "x.pgn"
    pgn.write_text("[Game \"Chinese Chess\"]\n[Red \"Lü Qin\"]\n[Black \"Xu\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n\n"
                   "[White \"Lü Qin\"]\n\n1. e4 *\n", encoding="utf-8")
    out = tmp_path / "x.pga"
    assert pgnarc.pack(pgn, out)["verbatim_games"] == 0
    with pgnarc.open(out) as a:
        xq, chess = a[0], a[1]
        assert (xq.variant, chess.variant) == ("Xiangqi", "Standard")
        assert a.find(red="lü") == [0]
        assert a.find(white="lü") == [1]
        assert a.find(player="lü") == [0, 1] and a.find(player="xu") == [0]
        assert a.find(red="Lü Qin", black="Xu", exact=True) == [0]
        assert xq.plies == 3
        assert xq.fen(1) == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
        assert xq.fen() == cli("get", "--fen", "3", out, "1").stdout.decode().strip()
        assert xq.pgn() == cli("get", out, "1").stdout.decode()
        assert xq.svg(2) == cli("get", "--svg", "2", out, "1").stdout.decode()
        assert f'data-fen="{xq.fen(2)}"' in xq.svg(2) and xq.svg(2).count('class="piece"') == 32
        with pytest.raises(pgnarc.Error, match="Xiangqi"):
            xq.san()
        # Per move: the text as the game writes it, ICCS, and the same as a tree.
        moves = xq.annotations()
        assert list(moves["san"]) == ["炮二平五", "马８进７", "马二进三"]
        assert list(moves["uci"]) == ["h2e2", "h9g7", "h0g2"]
        assert [n.move for n in xq.root().mainline()] == ["h2e2", "h9g7", "h0g2"]
        assert a.info()["read_version"] == "1.15"          # the Xiangqi model's opening book
        # Found and explored by a Xiangqi FEN, as the command line does.
        after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"
        assert a.find(position=after) == [0]
        assert a.find(position=after, red="nobody") == []
        tree = a.tree(position=after)
        assert tree == json.loads(cli("tree", "--json", "--position", after, out).stdout)
        assert [(m["san"], m["uci"], m["games"]) for m in tree["moves"]] == [("H8+7", "h9g7", 1)]
        with pytest.raises(ValueError, match="Xiangqi"):
            a.find(position=after, moves="e4")
    # Coded uniformly, as readers of 1.7 read them, and by the model without its book, as readers
    # of 1.8 read them: the same games.
    uniform, model = tmp_path / "u.pga", tmp_path / "m.pga"
    pgnarc.pack(pgn, uniform, xiangqi="uniform")
    pgnarc.pack(pgn, model, xiangqi="model")
    with pgnarc.open(uniform) as u, pgnarc.open(model) as m, pgnarc.open(out) as a:
        assert u.info()["read_version"] == "1.7" and m.info()["read_version"] == "1.8"
        assert [g.pgn() for g in u] == [g.pgn() for g in a] == [g.pgn() for g in m]
    with pytest.raises(ValueError, match="xiangqi"):
        pgnarc.pack(pgn, uniform, force=True, xiangqi="max")


def test_xiangqi_gb18030_and_big5(tmp_path, cli):
    """Chinese PGN in GB18030 and Big5: coded (format 1.10; 1.11 for the Big5 file, whose tag
    values are written without escapes: a quote left unescaped, 許 ending in the byte of a
    backslash; with tags="tables" and xiangqi="model", as the default's Event entries and opening
    book would make both 1.14 and 1.15), its
    games' PGN the bytes the command line writes, read as str in the file's encoding with
    encoding="gb18030" or "big5"."""
    for name, encoding, red, version in (("xqbase_gb18030.pgn", "gb18030", "许银川", "1.10"),
                                         ("ccpd_big5.pgn", "big5", "柳大華", "1.11")):
        out = tmp_path / (name + ".pga")
        assert pgnarc.pack(os.path.join(XIANGQI, name), out, tags="tables",
                           xiangqi="model")["verbatim_games"] == 0
        with pgnarc.open(out, encoding=encoding) as a:
            assert a.info()["read_version"] == version
            assert "".join(g.pgn() for g in a).encode(encoding) == cli("unpack", out).stdout
            assert any('"' in g.tags.get("Event", "") for g in a) == (encoding == "big5")
            assert a[0].tags["Red"] == red
            pgn = a[0].pgn()
            assert pgn.encode(encoding) == cli("get", out, "1").stdout
            assert "进" in pgn or "進" in pgn
            texts = list(a[0].annotations()["san"])
            assert len(texts) == a[0].plies and all(texts) and all(m in pgn for m in texts)
            # Names asked for in the archive's encoding, as the games give them.
            assert a.find(red=red, exact=True) == [i for i, g in enumerate(a) if g.tags.get("Red") == red]
            assert 0 in a.find(red=red[1:]) and a.find(red=red + "x") == []
            assert 0 in a.find(tags={"Red": red})
        with pgnarc.open(out) as a:  # surrogate escapes give the bytes back
            assert a[0].pgn().encode("utf-8", "surrogateescape") == cli("get", out, "1").stdout
            assert 0 in a.find(red=a[0].tags["Red"], exact=True)


def test_tags_frame_columns_argument(archives):
    """A tag name alone is one column; anything else that is not a list of names is refused."""
    with pgnarc.open(archives["twic_events"]) as a:
        one = a.tags_frame(columns="White")
        assert list(one.columns) == ["White"]
        assert list(one["White"]) == [g.tags["White"] for g in a]
        with pytest.raises(TypeError):
            a.tags_frame(columns=3)
        with pytest.raises(TypeError):
            a.tags_frame(columns=["White", 3])


def test_verbatim_game_variant_is_its_tag(tmp_path):
    """A game kept verbatim has the variant its Variant tag names (pgnarc did not read its rules),
    or None: never a name the game's rules do not have."""
    pgn = tmp_path / "s.pgn"
    pgn.write_text("[Variant \"Seirawan\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O/E Nf6 *\n\n"
                   "[White \"x\"]\n\n1. e4 e5 2. Ke3 Ke6 3. Kd5 *\n\n"
                   "[White \"y\"]\n\n1. e4 e5 *\n")
    out = tmp_path / "s.pga"
    pgnarc.pack(pgn, out)
    with pgnarc.open(out) as a:
        assert [g.verbatim for g in a] == [True, True, False]
        assert [g.variant for g in a] == ["Seirawan", None, "Standard"]


def test_from_reader_bad_arguments(archives):
    data = open(archives["twic_events"], "rb").read()
    def read(offset, n):
        return data[offset:offset + n]
    with pytest.raises(ValueError, match="size"):
        pgnarc.Archive.from_reader("mem", -1, read)
    with pytest.raises(TypeError, match="size"):
        pgnarc.Archive.from_reader("mem", "12", read)
    with pytest.raises(TypeError, match="read"):
        pgnarc.Archive.from_reader("mem", len(data), b"not callable")
    assert len(pgnarc.Archive.from_reader("mem", numpy.int64(len(data)), read)) == 60


def test_iteration_ends_when_the_archive_closes(archives):
    """An iterator made before close() raises at its next game, as iter(a) after close() does;
    the games already read stay usable."""
    a = pgnarc.open(archives["twic_events"])
    it = iter(a)
    first = next(it)
    a.close()
    with pytest.raises(ValueError, match="closed"):
        next(it)
    with pytest.raises(ValueError):
        iter(a)
    assert first.number == 1 and first.san()


def test_tags_are_one_dict_per_game(archives):
    """g.tags is the game's own dict: the same object at each call, so a change to it is not lost,
    and the archive is not changed."""
    with pgnarc.open(archives["twic_events"]) as a:
        g = a[0]
        assert g.tags is g.tags
        white = g.tags["White"]
        g.tags["White"] = "X"
        assert g.tags["White"] == "X"
        assert a[0].tags["White"] == white


def test_pack_refuses_its_own_input(tmp_path, corpus):
    """An output that is one of the inputs is refused before anything is written, whichever name
    reaches it (the same path, a symlink, a hard link, a path through ..), even with force=True."""
    source = tmp_path / "s.pgn"
    source.write_bytes(open(corpus("twic_events.pgn"), "rb").read())
    before = source.read_bytes()
    (tmp_path / "link.pgn").symlink_to(source)
    os.link(source, tmp_path / "hard.pgn")
    (tmp_path / "sub").mkdir()
    for output in (source, tmp_path / "link.pgn", tmp_path / "hard.pgn", tmp_path / "sub" / ".." / "s.pgn"):
        with pytest.raises(pgnarc.Error, match="is also the output"):
            pgnarc.pack([source], output, force=True)
        assert source.read_bytes() == before, output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.pgn", "link.pgn", "s.pgn", "sub"]
