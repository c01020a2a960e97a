"""Tests of xiangqi.py (section 5.7): the examples of 5.7 Order in the start
position, perft against corpus/perft/xiangqi.txt (lines FEN;depth;count from Fairy-Stockfish's
`xiangqi` variant), FEN round trips (5.7 FEN's writer) and FENs that 5.7 FEN calls invalid, and
the move texts of 5.7.1: every row of its tables of examples, read from pgnarc-format.md itself
(the named position's FEN, as its description says; the move, legal there; the notation bytes,
which XQ-NOTATION-1 accepts, those that set the encoding or tandem by file only as a block of
codec 14 or 15's; the text XQ-TEXT-1 to XQ-TEXT-4 give, with its code points, or, in GB18030 or
Big5, its bytes), the bytes "a writer stores" for fourteen rows, each giving its text back, the
bytes it decodes by hand, notation bytes XQ-NOTATION-1 rejects (in a block of codec 9 to 12, and
in one of codec 14 or 15), and the table of 5.7.1 Encodings, read from the specification,
against xiangqi.py's and Python's gb18030 and big5 codecs.

The file gives one count a position (depth 3, or depth 4 for 40 of them).  Every position is
read, written back (its FEN is canonical) and searched to depths 1 and 2, with what can be
checked there without a count: the moves are in 5.7 Order's order without repeats, every
position after a legal move is a valid FEN (5.7 FEN: no piece off its reachable squares, the
side that moved not in check) that reads back the same, perft(2) is the sum of the children's
move counts, and a position with no legal move has the count 0.  The first N positions are
searched to the file's own depth and compared with its count: by default 400 (12.8 million
nodes, about 50 s on a busy 2-core machine); `all` for the whole file (60 million nodes, about
3 minutes).

Run: /usr/bin/python3 format-spec/reference/test_xiangqi.py [N | all]
"""

import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import xiangqi as X  # noqa: E402

CORPUS = os.path.join(HERE, os.pardir, os.pardir, "corpus")
DEFAULT_N = 400


def read_perft_file():
    """corpus/perft/xiangqi.txt: (line number, FEN, depth, count); # starts a comment."""
    entries = []
    with open(os.path.join(CORPUS, "perft", "xiangqi.txt")) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, depth, count = line.split(";")
            entries.append((number, fen, int(depth), int(count)))
    return entries


def test_order():
    """5.7 Order's examples in the start position."""
    ok = True
    position = X.XiangqiPosition.start()
    moves = position.legal_moves()
    names = [X.move_name(m) for m in moves]
    if len(moves) != 44:
        print(f"ORDER FAIL: {len(moves)} legal moves in the start position, not 44")
        ok = False
    if moves[:4] != [(0, 9), (0, 18), (1, 18), (1, 20)] or names[:4] != [
            "a0a1", "a0a2", "b0a2", "b0c2"]:
        print(f"ORDER FAIL: the first moves are {names[:4]} {moves[:4]}")
        ok = False
    # The draft of 5.7 says h2e2 "has index 29"; counted by hand it is 30 (from 0): 15 moves
    # of rank 0's pieces (chariots 2 + 2, horses 2 + 2, elephants 2 + 2, advisors 1 + 1,
    # general 1), 12 of the cannon on b2 (b1, a2, c2 to g2, b3 to b6, b9), then h2h1, h2c2,
    # h2d2 and h2e2.  The test checks 30.
    if X.parse_move("h2e2") != (25, 22) or moves.index((25, 22)) != 30:
        print(f"ORDER FAIL: h2e2 has index {moves.index((25, 22))}, not 30")
        ok = False
    if moves != sorted(set(moves)):
        print("ORDER FAIL: the start position's moves are not strictly ascending")
        ok = False
    if position.fen() != X.START_FEN or position.in_check():
        print(f"ORDER FAIL: start position {position.fen()}")
        ok = False
    print(f"order: {'ok' if ok else 'FAILED'} (44 moves, a0a1 a0a2 b0a2 b0c2 first, h2e2 at 30)")
    return ok


def test_perft(entries, n):
    """Every position: FEN round trip, depths 1 and 2 with their invariants; the first n: the
    file's count at its depth."""
    failures = 0
    deep_checked = deep_nodes = 0
    for i, (number, fen, depth, count) in enumerate(entries):
        where = f"line {number} {fen}"
        try:
            position = X.XiangqiPosition.from_fen(fen)
        except ValueError as e:
            print(f"PERFT FAIL {where}: rejected: {e}")
            failures += 1
            continue
        if position.fen() != fen:
            print(f"ROUND TRIP FAIL {where}: written back as {position.fen()}")
            failures += 1
        moves = position.legal_moves()
        if moves != sorted(set(moves)):
            print(f"ORDER FAIL {where}: moves not strictly ascending")
            failures += 1
        depth2 = 0
        for move in moves:
            child = position.play(move)
            child_fen = child.fen()
            try:
                again = X.XiangqiPosition.from_fen(child_fen)
            except ValueError as e:
                print(f"PERFT FAIL {where}: after {X.move_name(move)}: {child_fen} invalid: {e}")
                failures += 1
                continue
            if again.fen() != child_fen:
                print(f"ROUND TRIP FAIL {where}: after {X.move_name(move)}: {child_fen}")
                failures += 1
            depth2 += len(child.legal_moves())
        if X.perft(position, 1) != len(moves) or X.perft(position, 2) != depth2:
            print(f"PERFT FAIL {where}: perft(1), perft(2) disagree with the move lists")
            failures += 1
        if not moves and count != 0:
            print(f"PERFT FAIL {where}: no legal move, but the file counts {count} at depth "
                  f"{depth}")
            failures += 1
        if i < n:
            got = X.perft(position, depth)
            deep_checked += 1
            deep_nodes += count
            if got != count:
                failures += 1
                print(f"PERFT FAIL {where} depth {depth}: {got} != {count}")
                print_divide(position, depth)
    print(f"perft: {len(entries)} positions at depths 1 and 2 with round trips, {deep_checked} at "
          f"the file's depth ({deep_nodes} nodes): {'ok' if failures == 0 else 'FAILED'}")
    return failures == 0


def print_divide(position, depth):
    """A failed count's split by first move, to compare with an engine's `go perft`."""
    for move in position.legal_moves():
        print(f"    {X.move_name(move)}: {X.perft(position.play(move), depth - 1)}")


INVALID_FENS = [
    ("no Red general", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1"),
    ("two Black generals", "3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("an elephant on d0", "3k5/9/9/9/9/9/9/9/9/3BK4 w - - 0 1"),
    ("a Red soldier on b3", "3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1"),
    ("a Red soldier on a2", "3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1"),
    ("a Black advisor on e9", "4a4/3k5/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("a general out of its palace", "3k5/9/9/9/9/9/9/9/9/2K6 w - - 0 1"),
    ("generals facing on an open file", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("Black, not to move, in check from a chariot", "3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1"),
    ("three chariots", "3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1"),
    ("a castling field KQ", "3k5/9/9/9/9/9/9/9/9/4K4 w KQ - 0 1"),
    ("an en passant square", "3k5/9/9/9/9/9/9/9/9/4K4 w - e3 0 1"),
    ("11 ranks", "3k5/9/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("9 ranks", "3k5/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("a rank of ten squares", "3k5/9/9/9/9/9/9/9/55/4K4 w - - 0 1"),
    ("a rank of eight squares", "3k5/9/9/9/9/9/9/9/8/4K4 w - - 0 1"),
    ("a digit 0", "3k5/9/9/9/9/9/9/9/09/4K4 w - - 0 1"),
    ("a chess queen", "3k5/9/9/9/9/9/9/9/9/3QK4 w - - 0 1"),
    ("side x", "3k5/9/9/9/9/9/9/9/9/4K4 x - - 0 1"),
    ("one field", "3k5/9/9/9/9/9/9/9/9/4K4"),
    ("seven fields", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 0"),
    ("an empty field (two spaces)", "3k5/9/9/9/9/9/9/9/9/4K4  w - - 0 1"),
    ("halfmove clock 65536", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 65536 1"),
    ("fullmove number -1", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 -1"),
]

VALID_FENS = [   # (FEN as read, FEN as written)
    ("3k5/9/9/9/9/9/9/9/9/4K4 r", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("3k5/9/9/9/9/9/9/9/9/3HK4 b - - 7 0", "3k5/9/9/9/9/9/9/9/9/3NK4 b - - 7 1"),
    ("3k5/9/9/9/9/9/9/9/9/2E1K4 w -", "3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1"),
    ("3k5/9/9/9/9/9/9/9/45/4K4 b - - 0 65535", "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 65535"),
    # the side to move may be in check (facing generals put both sides in check: invalid)
    ("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"),
]


def test_fens():
    """5.7 FEN: FENs it calls invalid are rejected with a ValueError naming the field; its
    aliases, missing fields and fullmove 0 read as it says."""
    ok = True
    for why, fen in INVALID_FENS:
        try:
            X.XiangqiPosition.from_fen(fen)
        except ValueError as e:
            if "field" not in str(e):
                print(f"FEN FAIL: {why}: the message names no field: {e}")
                ok = False
            continue
        print(f"FEN FAIL: {why}: accepted {fen!r}")
        ok = False
    for fen, written in VALID_FENS:
        try:
            got = X.XiangqiPosition.from_fen(fen).fen()
        except ValueError as e:
            print(f"FEN FAIL: rejected {fen!r}: {e}")
            ok = False
            continue
        if got != written:
            print(f"FEN FAIL: {fen!r} written as {got!r}, not {written!r}")
            ok = False
    print(f"fen: {len(INVALID_FENS)} invalid FENs rejected, {len(VALID_FENS)} valid ones read: "
          f"{'ok' if ok else 'FAILED'}")
    return ok


def test_play():
    """5.7 After a move: the clocks and the side to move."""
    ok = True
    position = X.XiangqiPosition.from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 5 1")
    after = position.play(X.parse_move("g3g4"))              # a soldier's move: clock + 1
    ok &= after.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - - 6 1"
    ok &= X.parse_move("h7h0") in after.legal_moves()       # the cannon over the one on h2
    after = after.play(X.parse_move("h7h0"))                 # a capture (of the horse): 0
    ok &= after.fen() == "rnbakabnr/9/1c7/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABcR w - - 0 2"
    ok &= after.in_check() is False
    # The clocks stop at 65535.
    late = X.XiangqiPosition.from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 65535 65535").play(X.parse_move("e9e8"))
    ok &= late.fen() == "9/4k4/9/9/9/9/9/9/9/3K5 w - - 65535 65535"
    if not ok:
        print(f"PLAY FAIL: {after.fen()}")
    print(f"play: {'ok' if ok else 'FAILED'}")
    return ok


# ---------------------------------------------------------------------------------------------
# 5.7.1 Move text: the worked examples, read from the specification's own text


SPEC = os.path.join(HERE, os.pardir, "pgnarc-format.md")
KIND_WORDS = {"generals": X.GENERAL, "advisors": X.ADVISOR, "elephants": X.ELEPHANT,
              "horses": X.HORSE, "chariots": X.CHARIOT, "cannons": X.CANNON,
              "soldiers": X.SOLDIER}


def read_move_text_examples():
    """5.7.1 **Examples.**: the positions (name -> (description, FEN)), the tables' rows
    (position, move, notation bytes, text, code points or bytes), and the paragraph "A writer
    that stores ..."'s pairs (position or None, text, bytes, encoding or None), read from
    pgnarc-format.md."""
    with open(SPEC, encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^#### 5\.7\.1 Move text\n(.*?)^#### ", text, re.M | re.S).group(1)
    examples = section[section.index("**Examples.**"):]
    positions = {}
    for m in re.finditer(r"^- (\w+): (.*?)`([^`]+)`\.$", examples, re.M | re.S):
        positions[m.group(1)] = (" ".join(m.group(2).split()), m.group(3))
    rows = []
    for m in re.finditer(r"^\| (\w+) \| ([a-i]\d[a-i]\d) \| `([0-9a-f ]+)` \|(.*?)\|(.*?)\|$",
                         examples, re.M):
        shown = m.group(4).strip()
        rows.append((m.group(1), m.group(2), m.group(3), shown.strip("`"), m.group(5).strip()))
    stores = re.search(r"not necessarily the row's bytes: (.*?); each writes its text back",
                       examples, re.S).group(1)
    pairs = []
    for m in re.finditer(r"(?:(\w+)'s )?(`[^`]+`|[^\s`,]+)(?: in (GB18030|Big5))?(?: gives)? "
                         r"`([0-9a-f ]+)`", " ".join(stores.split())):
        pairs.append((m.group(1), m.group(2).strip("`"), m.group(4), m.group(3)))
    return positions, rows, pairs


def read_encoding_table():
    """5.7.1 **Encodings.**: the table's cells, {character: (GB18030 bytes, Big5 bytes or
    None)}, read from pgnarc-format.md."""
    with open(SPEC, encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^#### 5\.7\.1 Move text\n(.*?)^#### ", text, re.M | re.S).group(1)
    table = section[section.index("**Encodings.**"):section.index("**What a writer stores.**")]
    cells = {}
    for m in re.finditer(r"\| U\+([0-9A-F]{4}) (\S) \| ([0-9A-F]{4}) \| ([0-9A-F]{4}|-) ", table):
        if chr(int(m.group(1), 16)) != m.group(2):
            raise ValueError(f"the Encodings table: U+{m.group(1)} is not {m.group(2)}")
        cells[m.group(2)] = (bytes.fromhex(m.group(3)),
                             None if m.group(4) == "-" else bytes.fromhex(m.group(4)))
    return cells


def test_encodings():
    """5.7.1 Encodings: the table read from the specification is xiangqi.py's (ENCODED), holds
    every character the texts write beyond ASCII (the piece characters, digits and words of
    XQ-TEXT-4, the full-width forms of XQ-TEXT-3's characters), has no pair in both encodings'
    columns, and agrees with Python's gb18030 and big5 codecs (the standard's pairs; a
    cross-check, not the source)."""
    ok = True
    try:
        spec = read_encoding_table()
    except ValueError as e:
        print(f"ENCODING FAIL: {e}")
        return False
    ours = {ch: (gb, big5) for ch, (_, gb, big5) in X.ENCODED.items()}
    if spec != ours:
        print(f"ENCODING FAIL: the spec's table ({len(spec)} characters) is not xiangqi.py's "
              f"({len(ours)}): {sorted(set(spec.items()) ^ set(ours.items()))}")
        ok = False
    written = set("".join(X.PIECE_CHARACTERS.values()) + X.CHINESE_NUMERALS
                  + "".join(chr(0xFF10 + v) for v in range(1, 10))
                  + "".join(X.ADVANCE + X.MARK_REAR) + X.RETREAT + X.TRAVERSE + X.MARK_FRONT
                  + X.MARK_MIDDLE
                  + "".join(chr(0xFF01 + ord(c) - 0x21) for c in "+-.=KAEBHNRCPkaebhnrcp"))
    if written - set(spec):
        print(f"ENCODING FAIL: no bytes for {sorted(written - set(spec))}")
        ok = False
    for ch, (gb, big5) in spec.items():
        try:
            python_big5 = ch.encode("big5")
        except UnicodeEncodeError:
            python_big5 = None
        if ch.encode("gb18030") != gb or python_big5 != big5:
            print(f"ENCODING FAIL: {ch} U+{ord(ch):04X}: the table {gb.hex()} "
                  f"{big5.hex() if big5 else '-'}, Python {ch.encode('gb18030').hex()} "
                  f"{python_big5.hex() if python_big5 else '-'}")
            ok = False
    both = {gb for gb, _ in spec.values()} & {big5 for _, big5 in spec.values()}
    if both:                                # "No pair of the table is both a GB18030 pair and a
        print(f"ENCODING FAIL: pairs of both encodings: {sorted(both)}")    # Big5 pair"
        ok = False
    lacking = {ch for ch, (_, big5) in spec.items() if big5 is None}
    named = {X.PIECE_CHARACTERS[kind][v - 1] for kind, values in X.BIG5_LACKS.items()
             for v in values} | {X.ADVANCE[1]}
    if lacking != named:
        print(f"ENCODING FAIL: Big5 lacks {sorted(lacking)}, XQ-NOTATION-1 names {sorted(named)}")
        ok = False
    print(f"encodings: {len(spec)} characters of 5.7.1's table, {len(lacking)} without Big5 "
          f"bytes: {'ok' if ok else 'FAILED'}")
    return ok


def described_pieces(description):
    """A position's description (`Red chariots a0 a3 (file 9), horses c2 c4 (file 7)`, `five
    Red soldiers c5 to c9`, `Black chariots b9 b6 (Black's file 2)`): {square: piece letter},
    and the file numbers it states, [(side, squares, number)]."""
    pieces, files = {}, []
    side = kind = None
    clause = []                          # the squares named since the last side or kind
    tokens = re.findall(r"\((?:Black's )?file \d\)|[a-i]\d\b|\bto\b|[A-Za-z]+", description)
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if t in ("Red", "Black"):
            side, clause = (X.RED if t == "Red" else X.BLACK), []
        elif t in KIND_WORDS:
            kind, clause = KIND_WORDS[t], []
        elif re.fullmatch(r"[a-i]\d", t):
            squares = [X.parse_move(t + t)[0]]
            if k + 2 < len(tokens) and tokens[k + 1] == "to":          # a run along the file
                last = X.parse_move(tokens[k + 2] * 2)[0]
                squares = list(range(squares[0], last + 1, X.FILES))
                k += 2
            for sq in squares:
                pieces[sq] = X.piece_of(kind, side)
            clause += squares
        elif t.startswith("("):
            files.append((side, list(clause), int(t[-2])))
            clause = []
        k += 1
    return pieces, files


def test_move_text():
    """5.7.1 [XQ-NOTATION-1] [XQ-TEXT-1] .. [XQ-TEXT-4]: every row of the examples' table,
    read from the specification: its position's FEN (valid, and as its description says), the
    move (legal there), the notation bytes (which read_notation accepts), the text they give
    (and its code points); the bytes "a writer stores" for some rows, each giving its row's
    text back; bytes the text decodes by hand; and notation bytes XQ-NOTATION-1 rejects."""
    ok = True
    positions, rows, pairs = read_move_text_examples()
    if sorted(positions) != ["S", "S1", "T", "U", "V", "W", "X", "Y", "Z"] or len(rows) != 78 \
            or len(pairs) != 14:
        print(f"MOVE TEXT FAIL: read {len(positions)} positions {sorted(positions)}, {len(rows)} "
              f"rows (78 expected), {len(pairs)} stored bytes (14 expected) from the spec")
        ok = False
    boards = {}
    for name, (description, fen) in positions.items():
        try:
            position = X.XiangqiPosition.from_fen(fen)
        except ValueError as e:
            print(f"MOVE TEXT FAIL: position {name}: {fen}: {e}")
            ok = False
            continue
        if position.fen() != fen:
            print(f"MOVE TEXT FAIL: position {name}: {fen} written back as {position.fen()}")
            ok = False
        boards[name] = position
        if name == "S":
            expected = X.START_FEN
        elif name == "S1":
            expected = X.XiangqiPosition.start().play(X.parse_move("h2e2")).fen()
        else:
            pieces, files = described_pieces(description)
            on_board = {sq: p for sq, p in enumerate(position.board)
                        if p is not None and X.kind_of(p) != X.GENERAL}
            if on_board != pieces:
                print(f"MOVE TEXT FAIL: position {name}: {description!r}, but the FEN has "
                      f"{ {X.square_name(s): p for s, p in on_board.items()} }")
                ok = False
            for side, squares, number in files:
                if any(X.file_number(X.file_of(sq), side) != number for sq in squares):
                    print(f"MOVE TEXT FAIL: position {name}: {description!r}: not file {number}")
                    ok = False
            expected = fen
        if fen != expected:
            print(f"MOVE TEXT FAIL: position {name} is {fen}, not {expected}")
            ok = False
    texts = {}                                    # (position, text) -> move of a row
    extended_rows = encoded_rows = 0
    for name, move_name, hex_bytes, text, last_column in rows:
        where = f"{name} {move_name} `{hex_bytes}`"
        position, move = boards.get(name), X.parse_move(move_name)
        if position is None or move not in position.legal_moves():
            print(f"MOVE TEXT FAIL: {where}: not a legal move of {name}")
            ok = False
            continue
        texts[name, text] = move
        data = bytes.fromhex(hex_bytes)
        try:
            notation = X.read_notation(data, extended=True)       # a block of codec 14 or 15
        except ValueError as e:
            print(f"MOVE TEXT FAIL: {where}: rejected: {e}")
            ok = False
            continue
        # in a block of codec 9 to 12 the same bytes, unless they set the encoding or tandem
        # by file (whose bits are reserved there)
        extended = bool(notation.encoding or notation.tandem_by_file)
        extended_rows += extended
        try:
            X.read_notation(data)
            if extended:
                print(f"MOVE TEXT FAIL: {where}: accepted in a block of codec 9 to 12")
                ok = False
        except ValueError as e:
            if not extended:
                print(f"MOVE TEXT FAIL: {where}: rejected in a block of codec 9 to 12: {e}")
                ok = False
        if re.fullmatch(r"[0-9A-F]{2}( [0-9A-F]{2})*", last_column):   # the text's bytes
            encoded_rows += 1
            expected = bytes.fromhex(last_column)
            if notation.encoding == X.UTF8:
                print(f"MOVE TEXT FAIL: {where}: bytes given for a text in UTF-8")
                ok = False
        else:
            non_ascii = any(ord(ch) > 0x7F for ch in text)     # its code points, ASCII's too
            if last_column != (" ".join(f"U+{ord(ch):04X}" for ch in text) if non_ascii else ""):
                print(f"MOVE TEXT FAIL: {where}: {text!r} is not {last_column}")
                ok = False
            expected = text.encode("utf-8")
            if notation.encoding != X.UTF8 and non_ascii:
                print(f"MOVE TEXT FAIL: {where}: code points given for a text in "
                      f"{X.ENCODING_NAMES[notation.encoding]}")
                ok = False
        got = X.move_text(position, move, notation)
        if got != text:
            print(f"MOVE TEXT FAIL: {where}: {got!r}, the spec {text!r}")
            ok = False
        got = X.move_text_bytes(position, move, notation)
        if got != expected:
            print(f"MOVE TEXT FAIL: {where}: bytes {got.hex(' ')}, the spec {expected.hex(' ')}")
            ok = False
    if (extended_rows, encoded_rows) != (11, 5):
        print(f"MOVE TEXT FAIL: {extended_rows} rows of codecs 14 and 15 (11 expected), "
              f"{encoded_rows} of them in GB18030 or Big5 (5 expected)")
        ok = False
    for name, text, hex_bytes, encoding in pairs:   # "A writer that stores a game of the one move"
        found = [(n, move) for (n, t), move in texts.items() if t == text and name in (None, n)]
        if len(found) != 1:
            print(f"MOVE TEXT FAIL: stored bytes `{hex_bytes}` of {text!r}: {len(found)} rows")
            ok = False
            continue
        (n, move), = found
        try:
            notation = X.read_notation(bytes.fromhex(hex_bytes), extended=True)
            got = X.move_text(boards[n], move, notation)
            if X.ENCODING_NAMES[notation.encoding] != (encoding or "UTF-8"):
                got = f"in {X.ENCODING_NAMES[notation.encoding]}, not {encoding or 'UTF-8'}"
        except ValueError as e:
            got = f"rejected: {e}"
        if got != text:
            print(f"MOVE TEXT FAIL: {n} {X.move_name(move)} `{hex_bytes}`: {got!r}, not {text!r}")
            ok = False
    # "Some of these bytes, decoded"
    a9 = X.read_notation(bytes.fromhex("a90000"))
    every = X.read_notation(bytes.fromhex("6a95499244922401"))
    decoded = [
        (a9.notation, a9.width, a9.case, a9.sideways) == (X.WXF, 2, 2, 2),
        X.read_notation(bytes.fromhex("2a00002000000000")).pieces[X.RED][X.CHARIOT] == 2,
        X.read_notation(bytes.fromhex("0200000000008000")).pieces[X.BLACK][X.SOLDIER] == 1,
        (every.advance, every.rear, every.mark_place, every.soldier_order, every.marked,
         every.red_digits, every.black_digits) == (2, 2, 1, 1, 1, 1, 2),
        all(every.pieces[X.RED][k] == 1 and every.pieces[X.BLACK][k] == 2 for k in X.KINDS),
        X.move_text(boards["V"], X.parse_move("c7d7"), every) == "\u524d\u4e03\u5e73\u516d",
    ]
    if not all(decoded):
        print(f"MOVE TEXT FAIL: the bytes decoded by hand: {decoded}")
        ok = False
    bad = [(h, why, False) for h, why in BAD_NOTATIONS] + [
        (h, why, True) for h, why in BAD_NOTATIONS + BAD_NOTATIONS_1_10
        if h.replace(" ", "") not in GOOD_NOTATIONS_1_10_ONLY]
    bad += [(h, "the encoding or tandem by file in codec 9", False) for h in GOOD_NOTATIONS_1_10]
    for hex_bytes, why, extended in bad:
        try:
            X.read_notation(bytes.fromhex(hex_bytes), extended=extended)
        except ValueError:
            continue
        print(f"MOVE TEXT FAIL: notation bytes `{hex_bytes}` ({why}) accepted "
              f"{'in codec 14' if extended else 'in codec 9'}")
        ok = False
    good = [(h, False) for h in GOOD_NOTATIONS] + [(h, True) for h in
                                                   GOOD_NOTATIONS + GOOD_NOTATIONS_1_10]
    good += [(h, True) for h in GOOD_NOTATIONS_1_10_ONLY]
    for hex_bytes, extended in good:
        try:
            X.read_notation(bytes.fromhex(hex_bytes), extended=extended)
        except ValueError as e:
            print(f"MOVE TEXT FAIL: notation bytes `{hex_bytes}` rejected "
                  f"{'in codec 14' if extended else 'in codec 9'}: {e}")
            ok = False
    # the Big5 defaults: 帥 將, 馬, 車 and 進 where the bytes name none; the others the row's
    big5 = X.read_notation(bytes.fromhex("0200000000000008"), extended=True)
    defaults = [X.piece_character(kind, side, big5) for side in (X.RED, X.BLACK)
                for kind in X.KINDS]
    if "".join(defaults) != "\u5e25\u4ed5\u76f8\u99ac\u8eca\u70ae\u5175" \
                            "\u5c07\u58eb\u8c61\u99ac\u8eca\u70ae\u5352":
        print(f"MOVE TEXT FAIL: Big5's default piece characters {''.join(defaults)}")
        ok = False
    print(f"move text: {len(rows)} examples of 5.7.1 in {len(positions)} positions, "
          f"{len(pairs)} stored bytes, {len(BAD_NOTATIONS)} + {len(BAD_NOTATIONS_1_10)} "
          f"notation bytes rejected: {'ok' if ok else 'FAILED'}")
    return ok


BAD_NOTATIONS = [               # XQ-NOTATION-1
    ("", "empty"),
    ("03", "notation 3"),
    ("03 00 00", "notation 3, three bytes"),
    ("00 00", "ICCS of 2 bytes"),
    ("01 00", "WXF of 2 bytes"),
    ("01 00 00 00", "WXF of 4 bytes"),
    ("02 00 00 00 00 00 00", "Chinese of 7 bytes"),
    ("02", "Chinese of 1 byte"),
    ("0c", "ICCS letter case 3"),
    ("30", "ICCS hyphen 3"),
    ("40", "ICCS reserved bit 6"),
    ("80", "ICCS reserved bit 7"),
    ("0d 00 00", "WXF width 3"),
    ("31 00 00", "WXF letter case 3"),
    ("01 03 00", "WXF elephant letter 3"),
    ("01 0c 00", "WXF horse letter 3"),
    ("01 30 00", "WXF mark place 3"),
    ("01 c0 00", "WXF soldier order 3"),
    ("01 00 03", "WXF marked advisors and elephants 3"),
    ("01 00 04", "WXF byte 2 reserved bit 2"),
    ("01 00 80", "WXF byte 2 reserved bit 7"),
    ("0e 00 00 00 00 00 00 00", "Chinese advance 3"),
    ("32 00 00 00 00 00 00 00", "Chinese rear 3"),
    ("c2 00 00 00 00 00 00 00", "Chinese mark place 3"),
    ("02 03 00 00 00 00 00 00", "Chinese soldier order 3"),
    ("02 0c 00 00 00 00 00 00", "Chinese marked advisors and elephants 3"),
    ("02 00 00 00 00 00 00 04", "bit 42 of P"),
    ("02 00 00 00 00 00 00 80", "bit 47 of P"),
    ("02 00 05 00 00 00 00 00", "Red's general character 5"),
    ("02 00 18 00 00 00 00 00", "Red's advisor character 3"),
    ("02 00 00 08 00 00 00 00", "Red's horse character 4"),
    ("02 00 00 00 0c 00 00 00", "Red's soldier character 3"),
    ("02 00 00 00 00 00 c0 01", "Black's soldier character 7"),
]
GOOD_NOTATIONS = ["14", "c1 00 00", "02 f0 00 00 00 00 00 00",   # sideways 3, digits 3: allowed
                  "02 00 04 00 00 00 00 00", "02 00 00 00 00 00 00 01"]   # general 4, soldier 2
BAD_NOTATIONS_1_10 = [          # XQ-NOTATION-1 in a block of codec 14 or 15 (BAD_NOTATIONS too)
    ("01 00 0c", "WXF encoding 3"),
    ("01 00 20", "WXF tandem by file 2"),
    ("01 00 30", "WXF tandem by file 3"),
    ("01 00 40", "WXF byte 2 reserved bit 6"),
    ("02 00 00 00 00 00 00 0c", "Chinese encoding 3"),
    ("02 00 00 00 00 00 00 20", "Chinese tandem by file 2"),
    ("02 00 00 00 00 00 00 30", "Chinese tandem by file 3"),
    ("02 00 00 00 00 00 00 40", "bit 46 of P"),
    ("06 00 00 00 00 00 00 08", "Big5, advance 1 (进)"),
    ("02 00 01 00 00 00 00 08", "Big5, Red's general 1 (帅)"),
    ("02 00 03 00 00 00 00 08", "Big5, Red's general 3 (将)"),
    ("02 00 00 00 20 00 00 08", "Big5, Black's general 1 (帅)"),
    ("02 00 00 00 60 00 00 08", "Big5, Black's general 3 (将)"),
    ("02 00 00 02 00 00 00 08", "Big5, Red's horse 1 (马)"),
    ("02 00 00 00 00 40 00 08", "Big5, Black's horse 1 (马)"),
    ("02 00 00 10 00 00 00 08", "Big5, Red's chariot 1 (车)"),
    ("02 00 00 30 00 00 00 08", "Big5, Red's chariot 3 (俥)"),
    ("02 00 00 00 00 00 06 08", "Big5, Black's chariot 3 (俥)"),
    ("02 00 00 80 01 00 00 08", "Big5, Red's cannon 3 (包, A5 5D: `]`)"),
    ("02 00 00 00 00 00 30 08", "Big5, Black's cannon 3 (包, A5 5D: `]`)"),
]
# BAD_NOTATIONS's bytes that set the encoding (GB18030), accepted in a block of codec 14 or 15
GOOD_NOTATIONS_1_10_ONLY = ("010004", "0200000000000004")
GOOD_NOTATIONS_1_10 = [         # accepted in a block of codec 14 or 15 alone
    "01 00 08", "01 00 10", "01 00 1a",          # WXF: GB18030, Big5, tandem by file
    "02 00 00 00 00 00 00 18", "06 00 01 00 00 00 00 04",    # Chinese: 进 帅 in GB18030
    "0a 00 02 00 80 00 00 08",                               # Big5: 進, 帥 (2) and 將 (4)
    "12 00 00 06 00 00 00 08",                               # Big5: 后 (it has it), 傌 (3)
    "02 00 00 80 01 00 00 04",                               # GB18030: 包 (3)
    "02 00 00 00 01 00 00 08",                               # Big5: 砲 (2)
]


if __name__ == "__main__":
    argument = sys.argv[1] if len(sys.argv) > 1 else str(DEFAULT_N)
    entries = read_perft_file()
    n = len(entries) if argument == "all" else int(argument)
    t = time.time()
    results = [test_order(), test_fens(), test_play(), test_encodings(), test_move_text(),
               test_perft(entries, n)]
    print(f"{'OK' if all(results) else 'FAILED'} in {time.time() - t:.1f}s")
    sys.exit(0 if all(results) else 1)
