"""Per-move data: Game.annotations(), clocks(), evals(), mates() and root() against the PGN that
pgn() gives (its [%clk] and [%eval] commands read here by a tokenizer of our own), and
open(encoding=)."""

import math
import re

import numpy
import pandas
import pytest

import pgnarc

TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\(|\)|\$\d+|[^\s{}();]+")
MOVE_NUMBER = re.compile(r"\d+\.+$")
RESULT = {"1-0", "0-1", "1/2-1/2", "*"}
CLOCK = re.compile(r"\[%clk (\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
EVAL = re.compile(r"\[%eval (#?)([-+]?\d+(?:\.\d+)?)(?:,\d+)?\]")


def plies_of_pgn(text):
    """The main line of a game's PGN as (san, comments after it, nags after it) a ply."""
    movetext = text.replace("\r\n", "\n").split("\n\n", 1)[1]  # (pgn() writes a line between tags and moves)
    plies, depth = [], 0
    for token in TOKEN.findall(movetext):
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth:
            continue
        elif token.startswith("{") or token.startswith(";"):
            if plies:
                # (pgn() wraps long lines, inside comments too: a command may be cut at its space.)
                plies[-1][1].append(" ".join((token[1:-1] if token.startswith("{") else token[1:]).split()))
        elif token.startswith("$"):
            if plies:
                plies[-1][2].append(int(token[1:]))
        elif not MOVE_NUMBER.match(token) and token not in RESULT:
            plies.append((MOVE_NUMBER.sub("", re.sub(r"^\d+\.+", "", token)), [], []))
    return plies


def expected(comments):
    """(clock, eval, mate) of a ply's comments: the first of each, None where none."""
    text = " ".join(comments)
    c = CLOCK.search(text)
    e = EVAL.search(text)
    clock = int(c.group(1)) * 3600 + int(c.group(2)) * 60 + float(c.group(3)) if c else None
    if e and e.group(1):
        return clock, None, int(e.group(2))
    return clock, (float(e.group(2)) if e else None), None


def with_generated_commands(source, out):
    """`out` packed from the games of the archive `source` with a comment after every ply made
    here: lichess's evaluations (pawns, mates of either side) and clocks (chess.com's tenths on
    every other game, two-digit hours on some), some text, some NAGs, some plies bare."""
    games = []
    with pgnarc.open(source) as a:
        for g in a:
            if g.verbatim or g.variant != "Standard" or "FEN" in g.tags:
                continue
            parts = []
            for i, san in enumerate(g.san(), 1):
                k = i * 37 + g.number * 11
                parts.append(f"{(i + 1) // 2}{'.' if i % 2 else '...'} {san}")
                if k % 9 == 0:
                    continue  # no comment
                ev = f"#{'-' if k % 2 else ''}{k % 5 + 1}" if k % 13 == 0 else f"{(k % 801 - 400) / 100:.2f}"
                clock = f"{k % 3}:{k % 60:02d}:{k % 59:02d}" + (f".{k % 10}" if g.number % 2 else "")
                if k % 17 == 0:
                    clock = "0" + clock
                text = "a note " if k % 5 == 0 else ""
                parts.append(f"{{ {text}[%eval {ev}] [%clk {clock}] }}" + (" $1" if k % 7 == 0 else ""))
            games.append(f'[Event "{g.tags.get("Event", "?")}"]\n[Result "{g.result}"]\n\n{" ".join(parts)} {g.result}\n')
    pgnarc.pack("\n".join(games).encode(), out, force=True)
    return out


@pytest.fixture(scope="module")
def evaluated(archives, tmp_path_factory):
    return str(with_generated_commands(archives["twic_events"], tmp_path_factory.mktemp("eval") / "e.pga"))


@pytest.mark.parametrize("name", ["lichess_2021-10_clk_eval", "annotated_human", "twic_events", "evaluated"])
def test_annotations_equal_the_commands_of_pgn(archives, evaluated, name):
    checked = evals = clocks = 0
    with pgnarc.open(evaluated if name == "evaluated" else archives[name]) as a:
        for g in a:
            if g.verbatim:
                continue
            frame = g.annotations()
            assert list(frame.columns) == ["ply", "san", "uci", "clock", "eval", "mate", "nags", "comment"]
            assert frame["clock"].dtype == numpy.float64 and frame["eval"].dtype == numpy.float64
            assert str(frame["mate"].dtype) == "Int64"
            plies = plies_of_pgn(g.pgn())
            assert list(frame["san"]) == g.san() == [p[0] for p in plies]
            assert list(frame["uci"]) == g.uci()
            assert list(frame["ply"]) == list(range(1, len(plies) + 1))
            for row, (san, comments, nags) in zip(frame.itertuples(index=False), plies):
                clock, ev, mate = expected(comments)
                assert (clock is None and math.isnan(row.clock)) or row.clock == pytest.approx(clock, abs=1e-9)
                assert (ev is None and math.isnan(row.eval)) or row.eval == pytest.approx(ev, abs=1e-9)
                assert (mate is None and row.mate is pandas.NA) or row.mate == mate
                assert list(row.nags) == nags
                rest = CLOCK.sub("", EVAL.sub("", " ".join(comments), count=1), count=1).split()
                assert (row.comment or "").split() == rest
                clocks += clock is not None
                evals += ev is not None or mate is not None
            numpy.testing.assert_array_equal(g.clocks(), frame["clock"].to_numpy())
            numpy.testing.assert_array_equal(g.evals(), frame["eval"].to_numpy())
            numpy.testing.assert_array_equal(g.mates(), frame["mate"].fillna(0).to_numpy(dtype="int32"))
            checked += 1
    assert checked > 0
    if name == "lichess_2021-10_clk_eval":
        assert clocks > 1000
    if name == "evaluated":
        assert clocks > 3000 and evals > 3000


def test_mates_and_fractions_of_seconds(tmp_path):
    pgn = (b'[Event "x"]\n[TimeControl "180+0"]\n\n1. e4 { [%eval 0.17] [%clk 0:02:59.9] } 1... e5 '
           b'{ [%clk 0:02:58.25] } 2. Qh5 { Bold [%eval #-3] [%clk 01:30:00] } *\n')
    out = tmp_path / "m.pga"
    pgnarc.pack(pgn, out)
    g = pgnarc.open(out)[0]
    f = g.annotations()
    assert list(f["clock"]) == [179.9, 178.25, 5400.0]
    assert f["eval"][0] == 0.17 and math.isnan(f["eval"][1]) and math.isnan(f["eval"][2])
    assert list(f["mate"].fillna(0)) == [0, 0, -3]
    assert list(f["comment"]) == [None, None, "Bold"]
    assert g.mates().dtype == numpy.int32 and list(g.mates()) == [0, 0, -3]


def test_nags_opening_a_variation_and_odd_evaluations(tmp_path):
    pgn = (b'[Event "v"]\n[Result "*"]\n\n1. e4 {[%eval #0]} e5 {[%eval -0.00]} 2. Nf3 ( $2 {sc} 2. d4 ) ( $5 ) '
           b'( {only} ) Nc6 *\n')
    out = tmp_path / "n.pga"
    pgnarc.pack(pgn, out)
    g = pgnarc.open(out)[0]
    f = g.annotations()
    assert list(f["nags"]) == [(), (), (5,), ()]
    assert f["comment"][0] == "[%eval #0]" and f["mate"][0] is pandas.NA and list(g.mates()) == [0, 0, 0, 0]
    assert f["eval"][1] == 0 and not math.copysign(1, f["eval"][1]) < 0
    assert f["comment"][2] == "only"
    d4 = g.root().variations[0].variations[0].variations[1]
    assert d4.san == "d4" and d4.nags == (2,) and d4.starting_comment == "sc"


def test_root_walks_variations_like_the_pgn(tmp_path):
    pgn = (b'[Event "x"]\n\n{Start} 1. e4 {[%clk 0:01:00] good} e5 $1 (1... c5 {Sicilian} 2. Nf3 (2. c3) 2... d6) '
           b'({alone} 1... e6 $2) 2. Nf3 *\n')
    out = tmp_path / "v.pga"
    pgnarc.pack(pgn, out)
    root = pgnarc.open(out)[0].root()
    assert isinstance(root, pgnarc.Node)
    assert root.parent is None and root.move is None and root.comment == "Start"
    assert [n.san for n in root.mainline()] == ["e4", "e5", "Nf3"]
    e4 = root.variations[0]
    assert e4.move == "e2e4" and e4.clock == 60.0 and e4.comment == "good" and e4.ply == 1
    assert [v.san for v in e4.variations] == ["e5", "c5", "e6"]
    e5, c5, e6 = e4.variations
    assert e5.nags == (1,) and e5.is_mainline() and not c5.is_mainline()
    assert c5.comment == "Sicilian" and c5.parent is e4
    assert e6.starting_comment == "alone" and e6.nags == (2,)
    nf3 = c5.variations[0]
    assert [v.san for v in c5.variations] == ["Nf3", "c3"] and nf3.variations[0].san == "d6"
    assert nf3.variations[0].ply == 4


def test_root_of_annotated_games_holds_every_move(archives):
    with pgnarc.open(archives["annotated_human"]) as a:
        for g in a:
            if g.verbatim:
                continue
            root = g.root()
            nodes, stack = 0, [root]
            while stack:
                n = stack.pop()
                nodes += 1
                for v in n.variations:
                    assert v.parent is n and v.ply == n.ply + 1
                stack.extend(n.variations)
            movetext = g.pgn().replace("\r\n", "\n").split("\n\n", 1)[1]
            moves = [t for t in TOKEN.findall(movetext) if t[0] not in "{;()$" and not MOVE_NUMBER.match(t)
                     and t not in RESULT]
            assert nodes - 1 == len(moves)
            assert [n.san for n in root.mainline()] == g.san()


def test_verbatim_games_have_no_moves(tmp_path):
    out = tmp_path / "bad.pga"
    pgnarc.pack(b'[Event "x"]\n\n1. e4 e5 2. Ke3 *\n', out)
    g = pgnarc.open(out)[0]
    assert g.verbatim
    for read in (g.annotations, g.clocks, g.evals, g.mates, g.root):
        with pytest.raises(pgnarc.Error, match="verbatim"):
            read()


def test_encoding_of_text_that_is_not_utf8(archives):
    raw = pgnarc.open(archives["dortmund_latin1_crlf"])
    latin = pgnarc.open(archives["dortmund_latin1_crlf"], encoding="latin-1")
    replaced = pgnarc.open(archives["dortmund_latin1_crlf"], encoding="replace")
    differing = 0
    for i in range(len(raw)):
        for key, value in raw[i].tags.items():
            data = value.encode("utf-8", "surrogateescape")
            try:
                want = data.decode("utf-8")
            except UnicodeDecodeError:
                want = data.decode("latin-1")
                differing += 1
                assert "\ufffd" in replaced[i].tags[key]
            assert latin[i].tags[key] == want
    assert differing > 0
    latin.tags_frame().to_csv()  # every column encodes
    with pytest.raises(ValueError, match="encoding"):
        pgnarc.open(archives["dortmund_latin1_crlf"], encoding="cp1252")
