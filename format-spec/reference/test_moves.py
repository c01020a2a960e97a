"""Tests of moves.py: section 6's order (MOVE-ORDER-1 and MOVE-ORDER-2), the worked examples of
12.1 and 12.2, share tokens (corpus/conformance/tokens.tsv, and uniform-coder tokens made with
7.3's encode), perft of standard chess and Chess960 (corpus/perft/standard.epd, chess960.epd, each
count up to max-perft-nodes, default 200000) and of the variants of 5.6 (corpus/perft/variants.epd:
depths 1 and 2 of every position, deeper counts up to max-variant-nodes, default 20000), the
bounds of the crazyhouse model's features (7.7) on the crazyhouse positions of variants.epd, and
of the fast model's (7.8) on those of standard.epd and chess960.epd, with its book's reader and
frequencies on a small book made here (FAST-BOOK-1, FAST-BOOK-3), and decode.py's tag columns
derived from the moves (9.4.5, format 1.4: TAGS-7), that name a player (9.4.6: TAGS-9), whose
codes are a codeword (9.4.7, format 1.5: TAGS-11) and that name entries of value tables (9.4.8,
format 1.6: TAGS-12, with the tables of index extension 6: INDEX-3) and whose values are written
without escapes (9.4.10, format 1.11: TAGS-14, and section 10's writing of them) on blocks of a
few games made here.

Run: /usr/bin/python3 format-spec/reference/test_moves.py [max-perft-nodes [max-variant-nodes]]
blackbox_moves.py checks moves.py further against the built pgnarc.
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import moves as M  # noqa: E402

CORPUS = os.path.join(HERE, os.pardir, os.pardir, "corpus")


def perft(position, depth):
    if depth == 0:
        return 1
    legal = position.legal_moves()
    if depth == 1:
        return len(legal)
    return sum(perft(position.play(m), depth - 1) for m in legal)


def test_perft(max_nodes):
    failures = checked = 0
    for name in ("standard.epd", "chess960.epd"):
        with open(os.path.join(CORPUS, "perft", name)) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                fen, *depths = [part.strip() for part in line.split(";")]
                position = M.Position.from_fen(fen.encode())
                assert position is not None, fen
                for d in depths:
                    depth, nodes = d[1:].split()
                    if int(nodes) > max_nodes:
                        continue
                    got = perft(position, int(depth))
                    checked += 1
                    if got != int(nodes):
                        failures += 1
                        print(f"PERFT FAIL {fen} depth {depth}: {got} != {nodes}")
    print(f"perft: {checked - failures}/{checked} counts right (nodes <= {max_nodes})")
    return failures == 0


def test_variant_perft(max_nodes):
    """5.6.2 [VAR-ZH-1] .. [VAR-HORDE-1]: the published counts of corpus/perft/variants.epd,
    lines `FEN ;variant NAME ;D1 n ;D2 n ...` (NAME such as `three-check`, `racing kings`), the
    FEN read under the variant (5.6.1)."""
    failures = checked = 0
    with open(os.path.join(CORPUS, "perft", "variants.epd")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, name, *depths = [part.strip() for part in line.split(";")]
            assert name.startswith("variant "), line
            variant = M.variant_of_name(name[len("variant "):].encode())
            assert variant is not None, name
            position = M.VariantPosition.from_fen(fen.encode(), variant)
            if position is None:
                failures += 1
                print(f"PERFT FAIL {fen} ({name}): FEN refused")
                continue
            for d in depths:
                depth, nodes = d[1:].split()
                if int(depth) > 2 and int(nodes) > max_nodes:
                    continue
                got = perft(position, int(depth))
                checked += 1
                if got != int(nodes):
                    failures += 1
                    print(f"PERFT FAIL {fen} ({name}) depth {depth}: {got} != {nodes}")
    print(f"variant perft: {checked - failures}/{checked} counts right "
          f"(depths 1 and 2, deeper up to {max_nodes} nodes)")
    return failures == 0


def test_variant_order():
    """MOVE-ORDER-2's example: 4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1 (crazyhouse): the five king
    moves, then the pawn's 48 drops a2 .. h7, then the knight's 62 drops a1 .. h8 (n = 115);
    and antichess's promotion to king after the one to queen."""
    p = M.VariantPosition.from_fen(b"4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1", M.CRAZYHOUSE)
    legal = p.legal_moves()
    assert len(legal) == 115, len(legal)
    assert all(m.from_sq == 4 and m.drop is None for m in legal[:5])
    pawn_drops, knight_drops = legal[5:53], legal[53:]
    assert [m.drop for m in pawn_drops] == ["P"] * 48 and pawn_drops[0].to_sq == 8
    assert pawn_drops[-1].to_sq == 55
    assert [m.drop for m in knight_drops] == ["N"] * 62 and knight_drops[0].to_sq == 0
    assert knight_drops[-1].to_sq == 63
    assert [p.san(m) for m in legal[5:6] + legal[53:54]] == ["P@a2", "N@a1"]
    p = M.VariantPosition.from_fen(b"8/P7/8/8/8/8/7p/8 w - - 0 1", M.ANTICHESS)
    assert [m.promotion for m in p.legal_moves()] == ["N", "B", "R", "Q", "K"]
    assert p.san(p.legal_moves()[-1]) == "a8=K"
    print("order: MOVE-ORDER-2 examples right")
    return True


def test_crazyhouse_model():
    """7.7 [MOVE-MODEL-3] on the crazyhouse positions of corpus/perft/variants.epd and the
    positions one ply after them: every feature lies in Z (0 <= k < K_Z = 1431) and in a group
    of its own; a board move has at most 11 features and a drop at most 8, so each score lies
    between -1408 and 1397; and each frequency is 1 to 4096, the best move's 4096."""
    assert M.K_Z == len(M.Z) == 1431
    positions = []
    with open(os.path.join(CORPUS, "perft", "variants.epd")) as f:
        for line in f:
            fen, *rest = line.split(";")
            if line.startswith("#") or not rest or rest[0].strip() != "variant crazyhouse":
                continue
            position = M.VariantPosition.from_fen(fen.strip().encode(), M.CRAZYHOUSE)
            positions.append(position)
            positions += [position.play(m) for m in position.legal_moves()[::7]]
    groups = sorted(M.Z_GROUPS)
    checked = 0
    for position in positions:
        moves = position.legal_moves()
        if not moves:
            continue
        facts = M.Facts(position, M.NO_HISTORY)
        for move in moves:
            features = M.crazyhouse_features(facts, position, move)
            assert all(0 <= k < M.K_Z for k in features), (position, move, features)
            owners = [max(g for g in groups if g <= k) for k in features]
            assert len(set(owners)) == len(owners), (position, move, features)
            assert len(features) <= (8 if move.drop else 11), (position, move, features)
        freqs = M.move_frequencies(M.MODEL, position, M.NO_HISTORY, moves)
        assert all(1 <= f <= 4096 for f in freqs) and max(freqs) == 4096
        assert M.move_frequencies(M.UNIFORM, position, M.NO_HISTORY, moves) == [4096] * len(moves)
        checked += len(moves)
    print(f"crazyhouse model: {checked} moves of {len(positions)} positions within 7.7's bounds")
    return True


def test_order():
    """Section 6's examples."""
    p = M.Position.standard()
    legal = p.legal_moves()
    assert len(legal) == 20 and legal.index(M.Move(12, 28)) == 13
    p = p.play(M.Move(12, 28))
    assert p.legal_moves()[:2] == [M.Move(48, 32), M.Move(48, 40)]
    assert p.legal_moves().index(M.Move(52, 36)) == 8
    print("order: section 6 examples right")
    return True


def test_worked_examples():
    """12.1 and 12.2: uniform coder codewords."""
    start = M.Position.standard()
    d = M.ArithmeticDecoder(bytes.fromhex("abc0"), 0)
    e4 = start.legal_moves()[d.read(M.move_frequencies(0, start, M.NO_HISTORY))]
    after = start.play(e4)
    e5 = after.legal_moves()[d.read(M.move_frequencies(0, after, M.NO_HISTORY))]
    assert (start.san(e4), after.san(e5), d.finish()) == ("e4", "e5", 10)
    d = M.ArithmeticDecoder(bytes.fromhex("ad80"), 0)
    e4 = start.legal_moves()[d.read(M.move_frequencies(0, start, M.NO_HISTORY))]
    d4 = start.legal_moves()[d.read(M.move_frequencies(0, start, M.NO_HISTORY))]
    assert (start.san(e4), start.san(d4), d.finish()) == ("e4", "d4", 9)
    print("worked examples 12.1, 12.2: right")
    return True


def encode(symbols):
    """7.3 encode, for building test tokens: symbols are (c, f, T)."""
    out = []
    low, high, pending = 0, 2 ** 32 - 1, 0

    def emit(b):
        nonlocal pending
        out.append(b)
        out.extend([1 - b] * pending)
        pending = 0
    for c, f, total in symbols:
        r = (high - low + 1) // total
        high = low + r * (c + f) - 1
        low = low + r * c
        while True:
            if high < 2 ** 31:
                emit(0)
            elif low >= 2 ** 31:
                emit(1)
                low -= 2 ** 31
                high -= 2 ** 31
            elif low >= 2 ** 30 and high < 3 * 2 ** 30:
                pending += 1
                low -= 2 ** 30
                high -= 2 ** 30
            else:
                break
            low, high = 2 * low, 2 * high + 1
    pending += 1
    emit(0 if low < 2 ** 30 else 1)
    return out


def make_token(coder, sans, result_code=0):
    """A token of the standard start, built with encode (coder 0 or 1)."""
    position, history, symbols = M.Position.standard(), M.NO_HISTORY, []
    for p, san in enumerate(sans + [None]):
        legal = position.legal_moves()
        freqs = M.move_frequencies(coder, position, history, legal)
        freqs = [M.end_frequency(coder, sum(freqs), p, position)] + freqs
        k = 0 if san is None else 1 + [position.san(m) for m in legal].index(san)
        symbols.append((sum(freqs[:k]), freqs[k], sum(freqs)))
        if san is not None:
            history = M.history_after(history, position, legal[k - 1])
            position = position.play(legal[k - 1])
    bits = [int(b) for b in format(1, "08b") + format(coder | result_code << 4, "08b")]
    bits += encode(symbols)
    bits += [0] * (-len(bits) % 8)
    data = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
    return M.base64_token(data)


def test_uniform_tokens():
    """Round trip of uniform-coder tokens made with encode (the black box writes model ones);
    the model one must equal the spec's example token ARHNKBxA."""
    game = ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert make_token(1, game, 1) == "ARHNKBxA", make_token(1, game, 1)
    ok = 0
    games = [game, [], ["f3", "e5", "g4", "Qh4#"], ["e4"] * 0 + ["d4", "d5", "c4", "dxc4"]]
    for g in games:
        opened = M.open_share_token(make_token(0, g, 4))
        ok += opened.sans == g and opened.coder == 0 and opened.result == "*"
    print(f"uniform tokens: {ok}/{len(games)} round trips")
    return ok == len(games)


def test_tokens():
    failures = 0
    with open(os.path.join(CORPUS, "conformance", "tokens.tsv"), encoding="latin-1") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for token, expected in rows:
        expected = expected.replace("\\n", "\n").encode("latin-1")
        try:
            got = M.open_share_token(token).pgn()
        except M.FormatError as e:
            got = f"error {e}".encode()
        if got != expected:
            failures += 1
            print(f"TOKEN FAIL {token}\n  expected {expected!r}\n  got      {got!r}")
    print(f"tokens: {len(rows) - failures}/{len(rows)} right")
    return failures == 0


def test_token_rejects():
    bad = ["ARHNKBx", "ARHNKBxA=", "ARHNKBxAA", "AhHNKBxA", "AXHNKBxA", "ARHNKBxB"]
    ok = 0
    for token in bad:
        try:
            M.open_share_token(token)
            print(f"REJECT FAIL: {token} accepted")
        except M.FormatError:
            ok += 1
    print(f"token rejects: {ok}/{len(bad)}")
    return ok == len(bad)


def test_fast_model():
    """7.8: the fast model's features within FAST-MODEL-2's bounds on the positions of
    corpus/perft (standard.epd, chess960.epd); the book's reader (FAST-BOOK-1: depth first, the
    first of two nodes of one identity) and its frequencies (FAST-BOOK-3) on a book made here."""
    positions = []
    for name in ("standard.epd", "chess960.epd"):
        with open(os.path.join(CORPUS, "perft", name), encoding="ascii") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    p = M.Position.from_fen(line.split(";")[0].strip().encode())
                    if p is not None:
                        positions.append(p)
    groups = sorted(M.FAST_GROUPS)
    checked = 0
    for position in positions:
        moves = position.legal_moves()
        if not moves:
            continue
        facts = M.Facts(position, M.NO_HISTORY)
        for move in moves:
            features = (M.fast_piece_features(facts, move.from_sq)
                        + M.fast_move_features(facts, move))
            assert all(0 <= k < M.FAST_K for k in features), (position, move, features)
            owners = [max(g for g in groups if g <= k) for k in features]
            assert len(set(owners)) == len(owners), (position, move, features)
            assert len(features) <= 14, (position, move, features)
        freqs = M.fast_frequencies(position, M.NO_HISTORY, moves)
        if M.book_entries(position) is None:
            assert all(1 <= f <= 4096 for f in freqs) and max(freqs) == 4096
        checked += len(moves)

    def index(position, san):
        return next(i for i, m in enumerate(position.legal_moves()) if position.san(m) == san)

    def play(position, *sans):
        for san in sans:
            position = position.play(position.legal_moves()[index(position, san)])
        return position

    # 1. e4 (5 games; then 1... e5 3, 1... c5 1, then 2. Nf3 after 1... e5 2), 1. Nf3 (2; then
    # 1... e5 1 and 2. e4 after it: the position of 1. e4 e5 2. Nf3 again, whose node comes
    # second and is never found), 1. d4 (1, no node).
    start = M.Position.standard()
    e4, nf3, d4 = (index(start, s) for s in ("e4", "Nf3", "d4"))
    after_e4, after_nf3 = play(start, "e4"), play(start, "Nf3")
    after_e4_e5, after_nf3_e5 = play(after_e4, "e5"), play(after_nf3, "e5")
    book = bytes([3, e4, 5 * 2 + 1,
                  2, index(after_e4, "e5"), 3 * 2 + 1,
                  1, index(after_e4_e5, "Nf3"), 2 * 2 + 1,
                  1, index(play(after_e4_e5, "Nf3"), "Nc6"), 2 * 2,
                  index(after_e4, "c5"), 1 * 2,
                  nf3, 2 * 2 + 1,
                  1, index(after_nf3, "e5"), 1 * 2 + 1,
                  1, index(after_nf3_e5, "e4"), 1 * 2 + 1,
                  1, index(play(after_nf3_e5, "e4"), "Nc6"), 9 * 2,
                  d4, 1 * 2])
    index_of = M.read_book(book)
    assert len(index_of) == 6, len(index_of)     # start, e4, e4 e5, e4 e5 Nf3, Nf3, Nf3 e5
    transposed = play(start, "e4", "e5", "Nf3")
    assert index_of[transposed.identity()] == [(index(transposed, "Nc6"), 2)]   # the first node
    assert index_of[play(start, "Nf3", "e5", "e4").identity()] == [(index(transposed, "Nc6"), 2)]
    n = len(start.legal_moves())
    f = M.book_frequencies(index_of[start.identity()], n)
    escape = 3 * 2 ** 16 // (11 * n) + 1                   # N = 8, N + 3 = 11
    assert f[e4] == 5 * 2 ** 16 // 11 + escape and f[nf3] == 2 * 2 ** 16 // 11 + escape
    assert f[d4] == 2 ** 16 // 11 + escape and f[0] == escape and sum(f) <= 2 ** 16 + n
    print(f"fast model: {checked} moves of {len(positions)} positions within 7.8's bounds; "
          f"the book's reader and frequencies right")
    return True


def coded_game(start, sans, coder=0, nulls=()):
    """A game record of one main line (section 8) from `start`, made with encode: its symbols
    (7.1, 7.2) and its structure entries.  sans[i] is a SAN, or None at a null move (then the
    line is annotated, 8.3: its plies and null moves stored, no end coded)."""
    position, history, symbols = start, M.NO_HISTORY, []
    annotated = None in sans
    for p, san in enumerate(sans + ([] if annotated else [None])):
        legal = position.legal_moves()
        freqs = M.move_frequencies(coder, position, history, legal) if legal else []
        if p == len(sans):                                  # an unannotated line's end
            freqs = [M.end_frequency(coder, sum(freqs), p, position)] + freqs
            symbols.append((0, freqs[0], sum(freqs)))
            break
        if san is None:
            history, position = M.history_after(history, position, None), position.play_null()
            continue
        m = [position.san(x) for x in legal].index(san)
        if not annotated:
            freqs = [M.end_frequency(coder, sum(freqs), p, position)] + freqs
            m += 1
        if len(freqs) > 1:
            symbols.append((sum(freqs[:m]), freqs[m], sum(freqs)))
        move = legal[m - (0 if annotated else 1)]
        history, position = M.history_after(history, position, move), position.play(move)
    if not annotated:
        return symbols, bytes([0x00])                        # header: no result, no entries
    null_plies = [i for i, san in enumerate(sans) if san is None]
    gaps = [null_plies[0]] + [b - a - 1 for a, b in zip(null_plies, null_plies[1:])]
    return symbols, bytes([0x08, len(sans), len(null_plies) << 1] + gaps + [0])


def derived_block(games, columns, layout=3, codec=6, archive=None):
    """A block (as decode.py's Block holds it, 9.3) of `games`, each (tags, record): tags a list
    of (key, value), a value either bytes or None for a tag of a derived column; record a
    coded_game or ("verbatim", bytes).  `columns` gives each key's (coding, body) (9.4); other
    keys are text columns.  `archive` gives player columns (coding 6) their players' table."""
    import types
    import decode as D
    keys = []
    for tags, _ in games:
        keys += [k for k in dict.fromkeys(k for k, _ in tags) if k not in keys]
    section = D.encode_varint(len(keys)) + b"".join(D.encode_varint(len(k)) + k for k in keys)
    for tags, _ in games:
        section += D.encode_varint(len(tags)) + bytes(keys.index(k) for k, _ in tags)
    for key in keys:
        if key in columns:
            coding, body = columns[key]
        else:
            values = [v for tags, _ in games for k, v in tags if k == key]
            body = text_body(values)
            coding = 0
        section += bytes([coding]) + D.encode_varint(len(body)) + body
    bits, structure, raw = [], b"", b""
    for _, record in games:
        if record[0] == "verbatim":
            structure += b"\x20"
            raw += D.encode_varint(len(record[1])) + record[1]
            continue
        symbols, entries = record
        bits += encode(symbols) if symbols else []
        structure += entries
    bits += [0] * (-len(bits) % 8)
    moves = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
    block = types.SimpleNamespace(
        where="block 0 at offset 32", games=len(games), layout=layout, codec=codec, coder=0,
        tags_bytes=section, step=len(games), moves=moves, structure=structure, texts=[b""],
        raw=[raw], column=[None, [len(moves)], [len(structure)], [0], [len(raw)]],
        entry=types.SimpleNamespace(first_game=0))
    block.tags = D.decode_tags_section(archive, block)
    return block


def block_tags(games, columns, **block):
    """The tags decode.py reads of the games of derived_block(games, columns, **block)."""
    import decode as D
    return [g.tags for g in D.decode_group(derived_block(games, columns, **block), 0)]


def tag_rejects(rule, why, games, columns, **block):
    """1 if decode.py rejects that block as corrupt by `rule`, with `why` in its message."""
    try:
        block_tags(games, columns, **block)
    except M.FormatError as e:
        assert e.kind == "corrupt" and e.rule == rule and why in str(e), (rule, why, str(e))
        return 1
    raise AssertionError(f"accepted, expected [{rule}] {why}: {columns}")


def text_body(values):
    """A text body (9.4) of `values` in rank order (fewer than 255 distinct ones)."""
    import decode as D
    distinct = list(dict.fromkeys(values))
    listed = b"".join(D.encode_varint(len(v)) + v for v in distinct)
    references = bytearray()    # 0: the next value's first use; r > 0: list value r - 1
    for i, v in enumerate(values):
        references.append(0 if v not in values[:i] else distinct.index(v) + 1)
    return (D.encode_varint(len(distinct)) + D.encode_varint(len(listed)) + listed
            + (references if len(distinct) > 1 else b""))


def test_derived_tags():
    """9.4.5 [TAGS-7]: columns of coding 8 read by decode.py from blocks made here: the values
    of rules 0 and 1 (the main line's final position, en passant style 0 and 1, counters counted
    from the start's), values kept as text, the spec's example column, and each rejection
    TAGS-7 and TAGS-8 list."""
    std = M.Position.standard()
    e4 = coded_game(std, ["e4"])
    cp, pc = b"CurrentPosition", b"PlyCount"

    def derived_column(rule, flags, kept=()):
        return 8, bytes([rule] + list(flags)) + (text_body(list(kept)) if kept else b"")

    decode = block_tags

    def rejects(rule, games, columns, **block):
        return tag_rejects(rule, "", games, columns, **block)

    checked = 0
    # rules 0 and 1 after 1. e4 (no en passant capture: style 0 writes `-`)
    after_e4 = b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq "
    for rule, value in ((0, after_e4 + b"- 0 1"), (1, after_e4 + b"e3 0 1")):
        tags = decode([([(b"Event", b"x"), (cp, None), (pc, b"1")], e4)], {cp: derived_column(rule, [1])})
        assert tags == [[(b"Event", b"x"), (cp, value), (pc, b"1")]], tags
        checked += 1
    # a legal en passant capture (style 0 writes it too); counters from a set-up game's FEN tag;
    # a main line of no moves (its start position; no last move, so no en passant square)
    line = coded_game(std, ["e4", "d5", "e5", "f5"])
    fen = b"4k3/8/8/8/8/8/4P3/4K3 w - - 7 30"
    setup = coded_game(M.Position.from_fen(fen), ["Kd2", "Kd7", "Kc3"])
    empty = coded_game(M.Position.from_fen(fen), [])
    tags = decode([([(cp, None)], line), ([(b"FEN", fen), (cp, None)], setup), ([(b"FEN", fen), (cp, None)], empty)],
                  {cp: derived_column(0, [1, 1, 1])})
    assert tags == [[(cp, b"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")],
                    [(b"FEN", fen), (cp, b"8/3k4/8/8/8/2K5/4P3/8 b - - 10 31")],
                    [(b"FEN", fen), (cp, b"4k3/8/8/8/8/8/4P3/4K3 w - - 7 30")]], tags
    checked += 1
    # the spec's example (9.4.5): coding 08, size 0d, rule 00, flags 01 00, text body of unknown;
    # and a value kept as text of a game that has none (verbatim, null move) may be anything
    example = bytes.fromhex("000100") + bytes.fromhex("0108") + b"\x07unknown"
    assert derived_column(0, [1, 0], [b"unknown"])[1] == example
    nulled = coded_game(std, ["e4", None, "d4"])
    verbatim = ("verbatim", b'[CurrentPosition "x"]\n\n1. e4 *\n')
    kept = after_e4 + b"- 0 1"
    tags = decode([([(cp, None)], e4), ([(cp, b"unknown")], e4), ([(cp, kept)], verbatim),
                   ([(cp, kept)], nulled)],
                  {cp: derived_column(0, [1, 0, 0, 0], [b"unknown", kept, kept])})
    assert [t[0][1] for t in tags] == [kept, b"unknown", kept, kept], tags
    checked += 1

    # TAGS-7: coding 8 in a block of layout 1; a rule above 1, or a key other than
    # CurrentPosition; a flag neither 0 nor 1; flags past the body; bytes after it. TAGS-8: a
    # flag 1 of a game verbatim, under a variant or with a null move; a value kept as text that
    # the rule gives
    game = [([(cp, None)], e4)]
    checked += rejects("TAGS-1", game, {cp: derived_column(0, [1])}, layout=1)
    checked += rejects("TAGS-7", game, {cp: derived_column(2, [1])})
    checked += rejects("TAGS-7", [([(pc, None)], e4)], {pc: derived_column(0, [1])})
    checked += rejects("TAGS-7", game, {cp: derived_column(0, [2])})
    checked += rejects("TAGS-7", game, {cp: (8, b"\x00")})
    checked += rejects("TAGS-7", game, {cp: (8, b"\x00\x01\x00")})
    checked += rejects("TAGS-8", [([(cp, None)], verbatim)], {cp: derived_column(0, [1])})
    checked += rejects("TAGS-8", [([(cp, None)], nulled)], {cp: derived_column(1, [1])})
    three_check = M.VariantPosition.start(M.variant_of_name(b"three-check"))
    checked += rejects("TAGS-8", [([(b"Variant", b"Three-check"), (cp, None)],
                                   coded_game(three_check, ["e4"]))],
                       {cp: derived_column(0, [1])}, codec=7)
    checked += rejects("TAGS-8", [([(cp, b"x")], e4), ([(cp, kept)], e4)],
                       {cp: derived_column(0, [0, 0], [b"x", kept])})
    print(f"derived tags (9.4.5): {checked} blocks decoded or rejected as TAGS-7 and TAGS-8 say")
    return True


def test_named_tags():
    """9.4.6 [TAGS-9]: columns of coding 9 read by decode.py from blocks made here: the spec's
    example column, values of flags 0, 1 and 2 in one column over several games (the game's first
    White and Black tags, wherever they stand among its tags, the tag order kept), players given
    by entries (9.4.3), a named column as a rating's player column (9.4.2: ratings after names),
    and each rejection TAGS-9 lists, each for its own reason."""
    import types
    import decode as D
    e4 = coded_game(M.Position.standard(), ["e4"])
    w, b, t = b"White", b"Black", b"Termination"

    def named_column(flags, texts):
        return 9, bytes(flags) + text_body(list(texts))

    decode, rejects = block_tags, tag_rejects

    checked = 0
    # the spec's example: coding 09, size 10, flag 02, then the text body of ` won on time`
    column = named_column([2], [b" won on time"])
    assert (bytes([column[0]]) + D.encode_varint(len(column[1])) + column[1]
            == bytes.fromhex("09 10 02 01 0d 0c") + b" won on time"), column
    game = [(w, b"A"), (b, b"B"), (t, b"B won on time")]
    assert decode([(game, e4)], {t: column}) == [game]
    checked += 1

    # flags 1, 2 and 0 in one column: a White or Black value and its rest (the rest may be
    # empty), a whole value; the named tag before the players' tags, Black before White, a game's
    # second White tag (not the one named), a Black value that begins with White's (flag 1 then),
    # an empty White value (names no one: a whole value may begin with it), two named columns
    magnus, hikaru = b"MagnusCarlsen", b"Hikaru"
    games = [[(w, magnus), (b, hikaru), (t, magnus + b" won by checkmate")],
             [(w, magnus), (b, hikaru), (t, hikaru + b" won on time")],
             [(w, magnus), (b, hikaru), (t, b"Game drawn by repetition")],
             [(t, hikaru + b" won by resignation"), (b, magnus), (b"Event", b"x"), (w, hikaru)],
             [(w, b"A"), (t, b"A won - B"), (w, b"B"), (b, b"C")],
             [(w, b"A"), (b, b"AB"), (t, b"AB won")],
             [(w, b"A"), (b, b"B"), (t, b"A"), (b"Annotator", b"B (notes)")],
             [(w, b""), (b, b"B"), (t, b"B won"), (b"Annotator", b"anything")],
             [(t, b"Game drawn by repetition")]]
    columns = {t: named_column([1, 2, 0, 1, 1, 1, 1, 2, 0],
                               [b" won by checkmate", b" won on time", b"Game drawn by repetition",
                                b" won by resignation", b" won - B", b"B won", b"", b" won",
                                b"Game drawn by repetition"]),
               b"Annotator": named_column([2, 0], [b" (notes)", b"anything"])}
    assert decode([(g, e4) for g in games], columns) == games
    checked += 1

    # players as entries of the players' table (9.4.3): the named values begin with their values
    players = types.SimpleNamespace(player_count=lambda field=0: 2, player=lambda e, field=0: (b"a", b"b")[e])
    games = [[(w, b"a"), (b, b"b"), (t, b"b won")], [(w, b"b"), (b, b"a"), (t, b"b won")]]
    columns = {w: (6, bytes.fromhex("02 00 00 00 01")), b: (6, bytes.fromhex("02 00 00 01 00")),
               t: named_column([2, 1], [b" won"] * 2)}
    assert decode([(g, e4) for g in games], columns, archive=players) == games
    checked += 1

    # a rating column whose player column is named: the ratings are read after the names, each
    # from its player's previous rating (A's 1610 from A's 1600: code 21, not B's 2000)
    wn, we = b"Winner", b"WinnerElo"
    games = [[(w, b"A"), (b, b"B"), (wn, b"A"), (we, b"1600")],
             [(w, b"A"), (b, b"B"), (wn, b"B"), (we, b"2000")],
             [(w, b"B"), (b, b"A"), (wn, b"A"), (we, b"1610")]]
    columns = {wn: named_column([1, 2, 2], [b""] * 3),
               we: (2, D.encode_varint(2) + b"".join(D.encode_varint(c) for c in (201, 801, 21)))}
    assert decode([(g, e4) for g in games], columns) == games
    checked += 1

    # TAGS-9: coding 9 in a block of layout 1; a key White or Black; flags past the body, above 2;
    # no text body, bytes after it (a text body not as 9.4 requires is TAGS-2's); a flag 1 (2)
    # of a game with no White (Black) tag or an empty first one; a whole value that begins with
    # the White or the Black value; a flag 2 value that begins with the White value
    ab = [(w, b"A"), (b, b"B")]
    one = [(ab + [(t, b"B won")], e4)]
    checked += rejects("TAGS-1", "layout 1", one, {t: named_column([2], [b" won"])}, layout=1)
    checked += rejects("TAGS-9", "a named column b'White'", [([(w, b"A")], e4)],
                       {w: named_column([0], [b"A"])})
    checked += rejects("TAGS-9", "a named column b'Black'", [([(b, b"B")], e4)],
                       {b: named_column([0], [b"B"])})
    checked += rejects("TAGS-9", "flags run past", one, {t: (9, b"")})
    checked += rejects("TAGS-9", "above 2", one, {t: named_column([3], [b" won"])})
    checked += rejects("TAGS-9", "no text body", one, {t: (9, b"\x02")})
    checked += rejects("TAGS-9", "bytes after", one,
                       {t: (9, named_column([2], [b" won"])[1] + b"\x00")})
    checked += rejects("TAGS-2", "D = 2 for 1", one, {t: (9, b"\x02\x02\x00")})
    checked += rejects("TAGS-10", "no White tag", [([(b, b"B"), (t, b"x")], e4)],
                       {t: named_column([1], [b"x"])})
    checked += rejects("TAGS-10", "no White tag", [([(w, b""), (b, b"B"), (t, b"x")], e4)],
                       {t: named_column([1], [b"x"])})
    checked += rejects("TAGS-10", "no White tag", [([(w, b""), (w, b"A"), (t, b"Ax")], e4)],
                       {t: named_column([1], [b"x"])})
    checked += rejects("TAGS-10", "no Black tag", [([(w, b"A"), (t, b"x")], e4)],
                       {t: named_column([2], [b"x"])})
    checked += rejects("TAGS-10", "no Black tag", [(ab[:1] + [(b, b""), (t, b"x")], e4)],
                       {t: named_column([2], [b"x"])})
    checked += rejects("TAGS-10", "begins with the White value", one,
                       {t: named_column([0], [b"A won"])})
    checked += rejects("TAGS-10", "begins with the Black value", one,
                       {t: named_column([0], [b"B won"])})
    checked += rejects("TAGS-10", "flag 2, but b'AB won' begins with the White value",
                       [([(w, b"A"), (b, b"AB"), (t, b"AB won")], e4)],
                       {t: named_column([2], [b" won"])})
    checked += rejects("TAGS-10", "flag 2, but b'A won' begins with the White value",
                       [([(w, b"A"), (b, b"A"), (t, b"A won")], e4)],
                       {t: named_column([2], [b" won"])})
    # the reason belongs to its own game's tags: a later game's fault, after a right one
    checked += rejects("TAGS-10", "no Black tag", one + [([(w, b"A"), (t, b"x")], e4)],
                       {t: named_column([2, 2], [b" won", b"x"])})
    print(f"named tags (9.4.6): {checked} blocks decoded or rejected as TAGS-9 and TAGS-10 say")
    return True


def test_coded_tags():
    """9.4.7 [TAGS-11]: columns of coding 10 read by decode.py from blocks made here: the spec's
    example column (a Round column of 1, 2, 3: base 1, codeword 0a 50), the same codes as a
    coded rating column (9.4.2's predictions), and each rejection TAGS-11 lists."""
    e4 = coded_game(M.Position.standard(), ["e4"])
    r = b"Round"

    decode, rejects = block_tags, tag_rejects

    checked = 0
    games = [([(r, b"%d" % (i + 1))], e4) for i in range(3)]
    example = (10, bytes.fromhex("01 02 02 0a 50"))
    assert decode(games, {r: example}, layout=4) == [g for g, _ in games]
    checked += 1
    # the same codes 3, 3, 3 as a rating column's (base 2, player key 0: White): 1500 + 1, then
    # each from the rating before it in the block
    w, we = b"White", b"WhiteElo"
    rated = [([(w, b"p%d" % i), (we, b"%d" % (1501 + i))], e4) for i in range(3)]
    assert decode(rated, {we: (10, bytes.fromhex("02 00 02 0a 50"))}, layout=4) == [g for g, _ in rated]
    checked += 1
    checked += rejects("TAGS-1", "coding 10 in a block of layout 3", games, {r: example}, layout=3)
    checked += rejects("TAGS-1", "coding 10 in a block of layout 1", games, {r: example}, layout=1)
    checked += rejects("TAGS-11", "base 5", games, {r: (10, bytes.fromhex("05 02 02 0a 50"))}, layout=4)
    checked += rejects("TAGS-11", "base 0", games, {r: (10, bytes.fromhex("00 02 02 0a 50"))}, layout=4)
    checked += rejects("TAGS-11", "runs past the body", games, {r: (10, bytes.fromhex("01 02 03 0a 50"))},
                       layout=4)
    checked += rejects("TAGS-11", "bits after the codeword", games,
                       {r: (10, bytes.fromhex("01 02 02 0a 51"))}, layout=4)
    checked += rejects("TAGS-11", "does not end in its last byte", games,
                       {r: (10, bytes.fromhex("01 02 03 0a 50 00"))}, layout=4)
    checked += rejects("TAGS-3", "integer header", games, {r: (10, bytes.fromhex("01 04 02 0a 50"))}, layout=4)
    print(f"coded tags (9.4.7): {checked} blocks decoded or rejected as TAGS-11 says")
    return True


def code_codeword(codes):
    """A codeword of integer codes as 9.4.7 and 9.4.8 code them, made with encode: each code u
    its width (u's bit length) under the column's one field of 65 widths (8.3.3: every frequency
    1 at first, the width's growing by 32), then the bits below its top bit, in chunks of at
    most 16 (c = the chunk, f = 1, T = 2^k); the bits padded with 0 to a whole byte."""
    widths, symbols = M.new_integer_field(), []
    for u in codes:
        b = u.bit_length()
        symbols.append((sum(widths.freqs[:b]), widths.freqs[b], sum(widths.freqs)))
        widths.update(b)
        left = b - 1
        while left > 0:
            k = min(16, left)
            left -= k
            symbols.append(((u >> left) & ((1 << k) - 1), 1, 1 << k))
    bits = encode(symbols)
    bits += [0] * (-len(bits) % 8)
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def tables_bytes(tables):
    """The value tables (9.4.8), decoded: `tables` a list of (keys, entries), each entry a tuple
    of a value (bytes) or None per key."""
    import decode as D
    out = D.encode_varint(len(tables))
    for keys, entries in tables:
        out += D.encode_varint(len(keys)) + b"".join(D.encode_varint(len(k)) + k for k in keys)
        out += D.encode_varint(len(entries))
        for entry in entries:
            out += b"".join(b"\x00" if v is None else D.encode_varint(len(v) + 1) + v
                            for v in entry)
    return out


def tables_extension(raw, encoding=0, stored=None, raw_size=None, magic=b"PGAV"):
    """Index extension 6 (9.4.8) holding the tables' bytes `raw`: stored (encoding 0) or as one
    Zstandard frame (1); `stored`, `raw_size` and `magic` replace what it holds, for rejects."""
    import decode as D
    if stored is None:
        stored = raw if encoding == 0 else D.zstandard.ZstdCompressor().compress(raw)
    out = magic + bytes([encoding]) + len(stored).to_bytes(4, "little")
    out += (len(raw) if raw_size is None else raw_size).to_bytes(4, "little") + stored
    return out + D.xxh64(out).to_bytes(8, "little")


def tiny_archive(path, extensions):
    """An archive of no blocks (9.1) whose index (stored) holds `extensions`, (ID, bytes) in
    order: header (write version 1.6, read version 1.0: the value tables alone need no later
    reader, 2.1), index, footer."""
    import decode as D
    body = b"\x00\x00\x00\x00\x00" + D.encode_varint(len(extensions))
    body += b"".join(D.encode_varint(i) + D.encode_varint(len(e)) + e for i, e in extensions)
    index = b"PGAI\x00" + len(body).to_bytes(4, "little") + body
    header = D.FILE_MAGIC + bytes([1, 6, 1, 0]) + bytes(16)
    header += (D.xxh64(header) & 0xFFFFFFFF).to_bytes(4, "little")
    footer = (32).to_bytes(8, "little") + len(index).to_bytes(8, "little") + bytes(16)
    footer += D.xxh64(index).to_bytes(8, "little")
    footer += (D.xxh64(footer) & 0xFFFFFFFF).to_bytes(4, "little") + b"PGAF"
    with open(path, "wb") as f:
        f.write(header + index + footer)


def test_table_tags():
    """9.4.8 [TAGS-12] [INDEX-3]: value tables and table columns (coding 11, layout 5, format
    1.6) read by decode.py: the spec's example (its 61 bytes of tables in an extension of 82, the
    ECO column's codes 2 and 1, the Opening column's 1 and 1), a block of two tables whose codes
    set each game's entry in the first of its table's columns in key order (not the game's tag
    order), name others against it (zigzag, either way) and keep values as text, coded columns
    in layout 5, each rejection TAGS-12 lists, the index's extension 6 read at opening, and each
    rejection INDEX-3 lists."""
    import tempfile
    import types
    import decode as D

    def table_column(t, codes, kept=()):
        codeword = code_codeword(codes)
        return 11, (D.encode_varint(t) + D.encode_varint(len(codeword)) + codeword
                    + (text_body(list(kept)) if kept else b""))

    def with_tables(tables):
        return types.SimpleNamespace(value_tables=D.read_value_tables(
            tables_extension(tables_bytes(tables)), "extension 6"))

    e4 = coded_game(M.Position.standard(), ["e4"])
    eco, opening, variation, tc = b"ECO", b"Opening", b"Variation", b"TimeControl"
    checked = 0

    # the spec's example: a table of ECO and Opening, entries (B01, Scandinavian Defense) and
    # (C20, King's Pawn Game): 61 bytes of tables in an extension of 82; the ECO column of the
    # codes 2 and 1 is 0b 04 00 02 07 e6, the Opening column of the codes 1 and 1 0b 03 00 01 04
    example = [([eco, opening], [(b"B01", b"Scandinavian Defense"), (b"C20", b"King's Pawn Game")])]
    raw = tables_bytes(example)
    assert raw == (bytes.fromhex("01 02 03") + b"ECO" + bytes.fromhex("07") + b"Opening"
                   + bytes.fromhex("02 04") + b"B01" + bytes.fromhex("15") + b"Scandinavian Defense"
                   + bytes.fromhex("04") + b"C20" + bytes.fromhex("11") + b"King's Pawn Game"), raw
    extension = tables_extension(raw)
    assert len(raw) == 61 and len(extension) == 82, (len(raw), len(extension))
    assert extension[:13] == b"PGAV" + bytes.fromhex("00 3d000000 3d000000"), extension[:13]
    assert extension[-8:] == bytes.fromhex("78 6e 1b 26 41 ba f3 8e"), extension[-8:].hex()
    columns = {eco: table_column(0, [2, 1]), opening: table_column(0, [1, 1])}
    for key, column in ((eco, "0b 04 00 02 07 e6"), (opening, "0b 03 00 01 04")):
        coding, body = columns[key]
        written = bytes([coding]) + D.encode_varint(len(body)) + body
        assert written == bytes.fromhex(column), written.hex()
    games = [([(eco, b"C20"), (opening, b"King's Pawn Game")], e4),
             ([(eco, b"B01"), (opening, b"Scandinavian Defense")], e4)]
    tags = block_tags(games, columns, layout=5, archive=with_tables(example))
    assert tags == [g for g, _ in games], tags
    checked += 1
    # the codewords of the integer codes are those of 9.4.7's example too (Round 1, 2, 3)
    assert code_codeword([3, 3, 3]) == bytes.fromhex("0a 50")

    # two tables: each game's entry of each table set by its first code above 0 in key order
    # (ECO's column before Opening's, whatever the game's tag order), the others against it
    openings = ([eco, opening, variation],
                [(b"A00", b"Polish Opening", None),
                 (b"B01", b"Scandinavian Defense", b"Mieses-Kotroc Variation"),
                 (b"C20", b"King's Pawn Game", None),
                 (None, b"Sicilian Defense", None)])
    controls = ([tc], [(b"600+0",), (b"180+2",)])
    archive = with_tables([openings, controls])
    rows = [  # (tags, ECO codes, Opening codes, Variation codes, TimeControl codes)
        # entry 2 of table 0 (ECO's code 3, Opening's 1: the same), entry 1 of table 1
        ([(b"Event", b"x"), (eco, b"C20"), (opening, b"King's Pawn Game"), (tc, b"180+2")],
         [3], [1], [], [2]),
        ([(eco, b"B01"), (opening, b"Scandinavian Defense"),
          (variation, b"Mieses-Kotroc Variation"), (tc, b"600+0")], [2], [1], [1], [1]),
        # ECO kept as text (code 0): Opening's code 4 sets entry 3, which has no ECO value
        ([(eco, b"X99"), (opening, b"Sicilian Defense")], [0], [4], [], []),
        # no ECO tag: Opening's code 1 sets entry 0
        ([(opening, b"Polish Opening")], [], [1], [], []),
        # entry 1; then 1 + unzigzag(2) = 2, and 1 + unzigzag(0) = 1: the game's entry stays 1
        ([(eco, b"B01"), (opening, b"King's Pawn Game"), (opening, b"Scandinavian Defense")],
         [2], [3, 1], [], []),
        # entry 0, then 0 + unzigzag(6) = 3; a Variation kept as text
        ([(eco, b"A00"), (variation, b"Whatever"), (opening, b"Sicilian Defense")],
         [1], [7], [0], []),
        # entry 2, then 2 + unzigzag(1) = 1
        ([(eco, b"C20"), (opening, b"Scandinavian Defense")], [3], [2], [], []),
        # Opening before ECO in the game's tags, but ECO's column read first: entry 0, then 3
        ([(opening, b"Sicilian Defense"), (eco, b"A00"), (tc, b"casual")], [1], [7], [], [0]),
    ]
    games = [(tags, e4) for tags, *_ in rows]
    codes = [[c for row in rows for c in row[i]] for i in range(1, 5)]
    kept = {variation: [b"Whatever"], eco: [b"X99"], tc: [b"casual"]}
    columns = {key: table_column(t, c, kept.get(key, ()))
               for key, t, c in zip((eco, opening, variation, tc), (0, 0, 0, 1), codes)}
    assert block_tags(games, columns, layout=5, archive=archive) == [g for g, _ in games]
    checked += 1
    # a table column beside a coded one (9.4.7) in layout 5; each game its own first code
    r = b"Round"
    games = [([(r, b"%d" % (i + 1)), (eco, b"C20")], e4) for i in range(3)]
    columns = {r: (10, bytes.fromhex("01 02 02 0a 50")), eco: table_column(0, [3, 3, 3])}
    assert block_tags(games, columns, layout=5, archive=archive) == [g for g, _ in games]
    checked += 1

    # TAGS-12: coding 11 in layout 1, 3 or 4 (reserved there, TAGS-1); an archive without value
    # tables; t not below `tables`; a key not of table t; the codeword's defects (past the body,
    # a value in no symbol, closing bits not a coder's, not ending in its last byte, bits after
    # its end not 0); an entry not below `entries` (first, and E + unzigzag(c - 1) above and
    # below), or without a value for the key; a text body that TAGS-2 rejects
    one = [([(eco, b"C20"), (opening, b"King's Pawn Game")], e4)]
    good = {eco: table_column(0, [3]), opening: table_column(0, [1])}
    assert block_tags(one, good, layout=5, archive=archive) == [g for g, _ in one]

    def rejects(rule, why, columns, games=one, layout=5, tables=archive):
        return tag_rejects(rule, why, games, {**good, **columns}, layout=layout, archive=tables)

    for layout in (1, 3, 4):
        checked += rejects("TAGS-1", f"coding 11 in a block of layout {layout}", {}, layout=layout)
    checked += rejects("TAGS-12", "without value tables", {}, tables=None)
    checked += rejects("TAGS-12", "without value tables", {},
                       tables=types.SimpleNamespace(value_tables=None))
    checked += rejects("TAGS-12", "table 2 of 2", {eco: table_column(2, [3])})
    checked += rejects("TAGS-12", "b'ECO' not a key of table 1", {eco: table_column(1, [3])})
    checked += rejects("VARINT-1", "varint runs past the end", {eco: (11, b"")})
    two = [([(eco, b"B01")], e4), ([(eco, b"A00")], e4)]      # codes 2, 1: codeword 07 e6
    assert (block_tags(two, {eco: table_column(0, [2, 1])}, layout=5, archive=archive)
            == [g for g, _ in two])
    checked += rejects("TAGS-12", "runs past the body", {eco: (11, bytes.fromhex("00 03 07 e6"))},
                       games=two)
    checked += rejects("TAGS-12", "lies in no symbol",
                       {eco: (11, bytes.fromhex("00 04 ff ff ff ff"))})
    checked += rejects("TAGS-12", "closing bits", {eco: (11, bytes.fromhex("00 02 07 e4"))},
                       games=two)
    checked += rejects("TAGS-12", "does not end in its last byte",
                       {eco: (11, bytes.fromhex("00 03 07 e6 00"))}, games=two)
    checked += rejects("TAGS-12", "bits after the codeword are not 0",
                       {eco: (11, bytes.fromhex("00 02 07 e7"))}, games=two)
    checked += rejects("TAGS-12", "code 5: entry 4 of a table of 4", {eco: table_column(0, [5])})
    checked += rejects("TAGS-12", "code 5: entry 4 of a table of 4",     # 2 + unzigzag(4) = 2 + 2
                       {opening: table_column(0, [5])})
    checked += rejects("TAGS-12", "code 6: entry -1 of a table of 4",    # 2 + unzigzag(5) = 2 - 3
                       {opening: table_column(0, [6])})
    checked += rejects("TAGS-12", "code 3: entry 2 of a table of 2",     # 1 + unzigzag(2) = 1 + 1
                       {tc: table_column(1, [2, 3])}, games=[([(tc, b"180+2"), (tc, b"x")], e4)])
    checked += rejects("TAGS-12", "entry 3 has no value for b'ECO'", {eco: table_column(0, [4])})
    checked += rejects("TAGS-12", "entry 2 has no value for b'Variation'",
                       {variation: table_column(0, [1])},
                       games=[([(eco, b"C20"), (variation, b"x")], e4)])
    checked += rejects("TAGS-2", "D = 2 for 1",
                       {eco: (11, table_column(0, [0])[1] + b"\x02\x02\x00")})
    checked += rejects("TAGS-1", "bytes after the column's values",
                       {eco: (11, table_column(0, [3])[1] + b"\x00")})

    # INDEX-3: extension 6 read at opening (9.5), its tables stored or compressed; each defect
    def index3(why, extension):
        try:
            D.read_value_tables(extension, "extension 6")
        except M.FormatError as e:
            assert e.kind == "corrupt" and e.rule == "INDEX-3" and why in str(e), (why, str(e))
            return 1
        raise AssertionError(f"accepted, expected [INDEX-3] {why}: {extension.hex()}")

    zstd = D.read_value_tables(tables_extension(raw, 1), "extension 6")
    assert [(t.keys, t.entries, t.values) for t in zstd] == [
        (example[0][0], 2, [v for entry in example[0][1] for v in entry])]
    checked += index3("wrong magic", tables_extension(raw, magic=b"PGAX"))
    checked += index3("encoding 2", tables_extension(raw, 2, stored=raw))
    def stored_size(n):
        return extension[:5] + n.to_bytes(4, "little") + extension[9:]

    checked += index3("stored size 62, not the extension's 82 bytes less 21", stored_size(62))
    checked += index3("stored size missing or above 2^26", stored_size(2**26 + 1))
    checked += index3("checksum mismatch", extension[:-1] + b"\x00")
    checked += index3("raw size above 2^26", tables_extension(raw, 1, raw_size=2**26 + 1))
    checked += index3("stored size differs from raw size", tables_extension(raw, raw_size=60))
    checked += index3("frame content size differs from the raw size",
                      tables_extension(raw, 1, raw_size=62))
    unsized = D.zstandard.ZstdCompressor(write_content_size=False).compress(raw)
    checked += index3("decodes to 61 bytes, not 62",
                      tables_extension(raw, 1, stored=unsized, raw_size=62))
    bad_tables = [
        ("0 tables", b"\x00"),
        ("257 tables", D.encode_varint(257) + b"\x01\x01a\x01\x00" * 257),
        ("more than 2^24 values in all",
         b"\x02\x08" + b"".join(b"\x01%c" % (ord("a") + i) for i in range(8)) + D.encode_varint(2**21)
         + b"\x00" * 2**24 + b"\x01\x01z" + D.encode_varint(1) + b"\x00"),
        ("table 0 of 0 keys", b"\x01\x00\x01\x00"),
        ("table 0 of 9 keys", tables_bytes([([b"%d" % i for i in range(9)], [(b"x",) * 9])])),
        ("an empty key", tables_bytes([([b""], [(b"x",)])])),
        ("key b'ECO' of table 0 twice", tables_bytes([([eco, eco], [(b"x", b"y")])])),
        ("key b'ECO' of table 1 twice", tables_bytes([([eco], [(b"x",)]), ([eco], [(b"y",)])])),
        ("table 0 of 0 entries", tables_bytes([([eco], [])])),
        ("table 0 of 16777217 entries",
         b"\x01\x01\x03ECO" + D.encode_varint(2**24 + 1) + b"\x00" * 8),
        ("run past the end", tables_bytes([([eco, opening], [(b"x", b"y")])])[:-1]),
        ("run past the end", b"\x01\x01\x03ECO\x02\x00"),
        ("bytes after the last table", tables_bytes(example) + b"\x00"),
    ]
    for why, tables in bad_tables:
        checked += index3(why, tables_extension(tables))
    # 8 keys, and entries without a value for some keys (varint 0), are read
    eight = [([b"%d" % i for i in range(8)], [(b"",) + (None,) * 7, (None,) * 7 + (b"x",)])]
    eight = D.read_value_tables(tables_extension(tables_bytes(eight)), "extension 6")
    assert eight[0].entries == 2 and eight[0].value(0, 0) == b"" and eight[0].value(0, 1) is None
    assert eight[0].value(1, 7) == b"x"
    checked += 1

    # the index: extension 6 read at opening (tables or None); its defects are corrupt, found
    # before an odd ID is refused as unsupported (INDEX-2: the whole body first)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "a.pga")
        tiny_archive(path, [(6, extension)])
        assert [t.keys for t in D.Archive(path).value_tables] == [[eco, opening]]
        tiny_archive(path, [(4, b"x")])
        assert D.Archive(path).value_tables is None
        for extensions, kind, rule in (
                ([(6, extension[:-1] + b"\x00")], "corrupt", "INDEX-3"),
                ([(5, b""), (6, tables_extension(b"\x00"))], "corrupt", "INDEX-3"),
                ([(5, b""), (6, extension)], "unsupported", "INDEX-2")):
            tiny_archive(path, extensions)
            try:
                D.Archive(path)
                raise AssertionError(f"accepted, expected [{rule}]")
            except M.FormatError as e:
                assert (e.kind, e.rule) == (kind, rule), (kind, rule, str(e))
                checked += 1
    print(f"table tags (9.4.8): {checked} blocks, tables and indexes decoded or rejected as "
          f"TAGS-12 and INDEX-3 say")
    return True


def test_unescaped_tags():
    """9.4.10 [TAGS-14]: columns of coding 13 read by decode.py from blocks of layout 7 made here
    and written out by its canonical PGN writer (section 10, PGN-1 item 2: an unescaped tag's
    value as it is, the others escaped): a column as pgnarc writes it for `[Event "Cup "A"
    1990"]`, ranks with gaps among escaped tags of the same value, a value list of one value, an
    unescaped White value a named tag (coding 9, allowed in layout 7) begins with, and each
    rejection TAGS-14 lists."""
    import decode as D
    e4 = coded_game(M.Position.standard(), ["e4"])
    ev, site, w, b, t = b"Event", b"Site", b"White", b"Black", b"Termination"

    def unescaped_column(values, ranks):
        gaps = [r if i == 0 else r - ranks[i - 1] - 1 for i, r in enumerate(ranks)]
        return 13, (text_body(list(values)) + D.encode_varint(len(ranks))
                    + b"".join(D.encode_varint(g) for g in gaps))

    def pgn(games, columns, **block):
        block = derived_block(games, columns, **{"layout": 7, **block})
        return b"".join(D.game_pgn(g) for g in D.decode_group(block, 0))

    def rejects(rule, why, games, columns, layout=7):
        return tag_rejects(rule, why, games, columns, layout=layout)

    checked = 0
    # the column pgnarc writes for [Event "Cup "A" 1990"]: coding 0d, size 11, the text body of
    # the one value, u 01, rank 00; beside it [Site "C:\games"] written with one backslash
    cup, games_dir = b'Cup "A" 1990', b"C:\\games"
    column = unescaped_column([cup], [0])
    assert (bytes([column[0]]) + D.encode_varint(len(column[1])) + column[1]
            == bytes.fromhex("0d 11 01 0d 0c") + cup + b"\x01\x00"), column
    game = [(ev, cup), (site, games_dir), (w, b"x")]
    assert (pgn([(game, e4)], {ev: column, site: unescaped_column([games_dir], [0])})
            == b'[Event "Cup "A" 1990"]\n[Site "C:\\games"]\n[White "x"]\n\n1. e4\n\n')
    checked += 1

    # ranks 0, 3 and 4 of five (gaps 0, 2, 0): the tags of ranks 1 and 2, of the same values,
    # written with escapes; a value list of one value, every tag of it unescaped or some
    values = [games_dir, games_dir, b'q"', b'q"', games_dir]
    games = [([(site, v)], e4) for v in values]
    got = pgn(games, {site: unescaped_column(values, [0, 3, 4])})
    want = [b"C:\\games", b"C:\\\\games", b'q\\"', b'q"', b"C:\\games"]
    assert got.split(b"\n\n")[:-1:2] == [b'[Site "%s"]' % v for v in want], got
    assert unescaped_column(values, [0, 3, 4])[1].endswith(b"\x03\x00\x02\x00")
    checked += 1
    for ranks in ([0, 1, 2], [1]):
        got = pgn([([(site, games_dir)], e4)] * 3, {site: unescaped_column([games_dir] * 3, ranks)})
        want = [b"C:\\games" if r in ranks else b"C:\\\\games" for r in range(3)]
        assert got.split(b"\n\n")[:-1:2] == [b'[Site "%s"]' % v for v in want], got
        checked += 1

    # an unescaped White value (a quote) that a named Termination begins with (flag 1): the named
    # value is its own column's, written with escapes
    a = b'A "B"'
    game = [(w, a), (b, b"C"), (t, a + b" won")]
    got = pgn([(game, e4)], {w: unescaped_column([a], [0]), t: (9, b"\x01" + text_body([b" won"]))})
    assert got.startswith(b'[White "A "B""]\n[Black "C"]\n[Termination "A \\"B\\" won"]\n'), got
    checked += 1

    # TAGS-14: coding 13 in a block of layout 1 to 6 (reserved there, TAGS-1); a text body that
    # TAGS-2 rejects; u of 0 or above E_k; a rank at or above E_k, the first or by gaps; an
    # unescaped tag whose value holds neither a quote nor a backslash; bytes after the ranks
    one = [([(site, games_dir)], e4)]
    two = one * 2
    for layout in (1, 3, 4, 5, 6):
        checked += rejects("TAGS-1", f"coding 13 in a block of layout {layout}", one,
                           {site: unescaped_column([games_dir], [0])}, layout=layout)
    checked += rejects("TAGS-2", "D = 0", one, {site: (13, b"\x00\x00\x01\x00")})
    checked += rejects("TAGS-2", "D = 2 for 1", one, {site: (13, b"\x02\x00\x01\x00")})
    body = text_body([games_dir])
    checked += rejects("TAGS-14", "u = 0 for 1", one, {site: (13, body + b"\x00")})
    checked += rejects("TAGS-14", "u = 2 for 1", one, {site: (13, body + b"\x02\x00\x00")})
    checked += rejects("TAGS-14", "u = 3 for 2", two,
                       {site: (13, text_body([games_dir] * 2) + b"\x03\x00\x00\x00")})
    checked += rejects("TAGS-14", "rank 1 ", one, {site: (13, body + b"\x01\x01")})
    checked += rejects("TAGS-14", "rank 2 ", two,
                       {site: (13, text_body([games_dir] * 2) + b"\x02\x01\x00")})
    checked += rejects("TAGS-14", "rank 2 ", two,
                       {site: (13, text_body([games_dir] * 2) + b"\x02\x00\x01")})
    plain = [([(site, b"C:/games")], e4)]
    checked += rejects("TAGS-14", "holds neither", plain,
                       {site: unescaped_column([b"C:/games"], [0])})
    checked += rejects("TAGS-14", "holds neither", [([(site, games_dir)], e4)] + plain,
                       {site: unescaped_column([games_dir, b"C:/games"], [0, 1])})
    checked += rejects("TAGS-14", "bytes after the ranks", one,
                       {site: (13, unescaped_column([games_dir], [0])[1] + b"\x00")})
    print(f"unescaped tags (9.4.10): {checked} blocks decoded, written or rejected as TAGS-14 and "
          f"section 10 say")
    return True


if __name__ == "__main__":
    max_nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    max_variant_nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    t = time.time()
    results = [test_order(), test_variant_order(), test_worked_examples(), test_uniform_tokens(),
               test_tokens(), test_token_rejects(), test_perft(max_nodes),
               test_variant_perft(max_variant_nodes), test_crazyhouse_model(), test_fast_model(),
               test_derived_tags(), test_named_tags(), test_coded_tags(), test_table_tags(),
               test_unescaped_tags()]
    print(f"{'OK' if all(results) else 'FAILED'} in {time.time() - t:.1f}s")
    sys.exit(0 if all(results) else 1)
