"""Tests of tokens.py (section 14, share tokens; 5.7.3, the Xiangqi position code).

1. Every line of corpus/conformance/tokens.tsv (version 1, chess) and xiangqi_tokens.tsv
   (version 3, Xiangqi) -- the token, a tab, the canonical PGN with each newline written `\\n` --
   opens to exactly that PGN; a chess token also to the PGN of moves.py's own reader
   (`open_share_token`, version 1 alone).
2. Every token of bad_tokens.tsv and bad_xiangqi_tokens.tsv is rejected (FormatError, corrupt).
3. Tokens of version 3 made here with 7.3's encode (test_moves.py) from 5.7.3 and 5.7.2 as a
   writer reads them, for what the vectors leave out: the uniform coder (coder 0), both forms of
   the position value, each of its four field choices (fullmove 0 and 65535 among the counters),
   a position with no legal move, Black to move first; each opens to its start and moves.
4. Tokens made here that TOKEN-1 rejects: no bytes, a codeword that runs past the last byte,
   bits after the codeword that are not 0, move coder 3, result 7.

Run: /usr/bin/python3 format-spec/reference/test_tokens.py
"""

import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import moves as M  # noqa: E402
import tokens as T  # noqa: E402
import xiangqi as X  # noqa: E402
from test_moves import encode  # noqa: E402   7.3 encode: (c, f, T) symbols -> bits
from xiangqi_model import (XQ_NO_HISTORY, xq_end_frequency, xq_history_after,  # noqa: E402
                           xq_model_frequencies)

CONFORMANCE = os.path.join(HERE, os.pardir, os.pardir, "corpus", "conformance")


def read_tsv(name):
    """The lines of a .tsv of corpus/conformance as (token, second column) byte pairs."""
    with open(os.path.join(CONFORMANCE, name), "rb") as f:
        return [tuple(line.rstrip(b"\n").split(b"\t", 1)) for line in f if line.strip()]


# ---------------------------------------------------------------------------------------------
# 1. and 2. The vectors
# ---------------------------------------------------------------------------------------------

def test_vectors(name, chess):
    rows = read_tsv(name)
    failures = 0
    for token, expected in rows:
        token = token.decode("ascii")
        expected = expected.replace(b"\\n", b"\n")
        try:
            got = T.token_pgn(token)
        except M.FormatError as e:
            got = f"error {e}".encode()
        if got != expected:
            failures += 1
            print(f"TOKEN FAIL {token}\n  expected {expected!r}\n  got      {got!r}")
        elif chess and M.open_share_token(token).pgn() != got:
            failures += 1
            print(f"TOKEN FAIL {token}: moves.open_share_token gives another PGN")
    print(f"{name}: {len(rows) - failures}/{len(rows)} open to their PGN")
    return failures == 0


def test_bad_vectors(name):
    rows = read_tsv(name)
    failures = 0
    for token, why in rows:
        token = token.decode("ascii")
        try:
            T.open_token(token)
            failures += 1
            print(f"REJECT FAIL {token} ({why.decode()}): accepted")
        except M.FormatError as e:
            if e.kind != "corrupt":
                failures += 1
                print(f"REJECT FAIL {token} ({why.decode()}): {e.kind}, not corrupt")
    print(f"{name}: {len(rows) - failures}/{len(rows)} rejected")
    return failures == 0


# ---------------------------------------------------------------------------------------------
# 3. Tokens of version 3 made here (a writer's side of 5.7.3 and section 14)
# ---------------------------------------------------------------------------------------------

def symbol(freqs, k):
    """The symbol (c, f, T) of entry k of a list of frequencies (7.1)."""
    return sum(freqs[:k]), freqs[k], sum(freqs)


def value_symbols(position, fields, form):
    """5.7.3: the symbols of the value of `position` (its counters given where fields is 1) in
    form 0 (squares) or 1 (sets), by a coder at its start (every count 0)."""
    board = position.board
    symbols = [(form, 1, 2)]
    if form == 0:
        seen = {}
        for q in range(X.SQUARES):
            freqs = list(T.XQ_SQUARE_TABLE[q])
            for s in range(1, T.XQ_SYMBOLS):
                piece = T.symbol_piece(s)
                if seen.get(piece, 0) >= T.MOST[piece.upper()]:
                    freqs[s] = 0
            symbols.append(symbol(freqs, T.XiangqiPositionCodeReader._symbol(board[q])))
            if board[q] is not None:
                seen[board[q]] = seen.get(board[q], 0) + 1
    else:
        taken = [False] * X.SQUARES
        for color in (X.RED, X.BLACK):
            for kind in T.SETS_ORDER:
                candidates = [q for q in range(X.SQUARES)
                              if not taken[q] and X.can_stand(kind, color, q)]
                indices = [i for i, q in enumerate(candidates)
                           if board[q] == X.piece_of(kind, color)]
                k = len(indices)
                if kind != "K":
                    symbols.append((k, 1, T.MOST[kind] + 1))
                if k:
                    r = sum(T.binomial(i, j + 1) for j, i in enumerate(indices))
                    symbols.append((r, 1, T.binomial(len(candidates), k)))
                for i in indices:
                    taken[candidates[i]] = True
    symbols += [(0 if position.red_to_move else 1, 1, 2), (fields, 1, 4)]
    if fields == 1:
        for u in (position.halfmove, position.fullmove):
            w = u.bit_length()
            symbols.append((w, 1, 17))
            if w >= 2:
                symbols.append((u - (1 << (w - 1)), 1, 1 << (w - 1)))
    return symbols


def value_text(position, fields, fullmove):
    """5.7.3: the value's text (fullmove as given, 0 too)."""
    head = position.fen().rsplit(" ", 4)[0]                     # placement and side
    return head + (" - - 0 1", f" - - {position.halfmove} {fullmove}", " - -", "")[fields]


def make_token(start, setup, fields, form, moves, coder, result_code):
    """A token of version 3: the start's value (if set up), then the line's symbols under the
    uniform coder's frequencies (coder 0, 5.7.2) or the Xiangqi model's (coder 1, 7.9)."""
    symbols = value_symbols(start, fields, form) if setup else []
    position, history = start, XQ_NO_HISTORY
    for p, move in enumerate(moves + [None]):
        legal = position.legal_moves()
        if coder == 1:
            freqs = xq_model_frequencies(position, history, legal)
            end = xq_end_frequency(sum(freqs), p)
        else:
            freqs = [4096] * len(legal)
            end = max(1, sum(freqs) // 256)
        k = 0 if move is None else 1 + legal.index(move)
        symbols.append(symbol([end] + freqs, k))
        if move is not None:
            history = xq_history_after(history, position, move)
            position = position.play(move)
    flags = coder | (4 if setup else 0) | result_code << 4
    bits = [int(b) for b in format(3, "08b") + format(flags, "08b")] + encode(symbols)
    bits += [0] * (-len(bits) % 8)
    data = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
    return M.base64_token(data)


def random_line(rng, position, plies):
    moves = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        moves.append(rng.choice(legal))
        position = position.play(moves[-1])
    return moves, position


def test_made_tokens():
    rng = random.Random(14)
    cases = []
    mated = X.XiangqiPosition.from_fen("3k5/9/9/9/9/9/9/9/9/3RKR3 b - - 0 1")   # no legal move
    cases.append((mated, True, 0, 0, [], 0, 1))
    cases.append((mated, True, 3, 1, [], 1, 1))
    opening, _ = random_line(rng, X.XiangqiPosition.start(), 12)
    cases.append((X.XiangqiPosition.start(), False, 0, 0, opening, 0, 0))      # no set-up start
    for i in range(16):
        _, start = random_line(rng, X.XiangqiPosition.start(), rng.randrange(0, 140))
        start.halfmove, start.fullmove = rng.choice(((0, 0), (65535, 65535), (3, 1), (1, 2),
                                                     (start.halfmove, start.fullmove)))
        moves, _ = random_line(rng, start, rng.randrange(0, 16))
        cases.append((start, True, i % 4, (i // 4) % 2, moves, (i // 8) % 2, rng.randrange(5)))
    failures = 0
    for start, setup, fields, form, moves, coder, result_code in cases:
        token = make_token(start, setup, fields, form, moves, coder, result_code)
        fullmove = start.fullmove
        try:
            game = T.open_token(token)
            tags = dict(game.tags)
            fen = value_text(start, fields, fullmove).encode() if setup else None
            right = (game.main.moves == moves and tags.get(b"FEN") == fen
                     and game.result == T.RESULTS[result_code]
                     and tags[b"Result"] == (T.RESULTS[result_code] or b"*"))
            problem = "another game"
        except M.FormatError as e:
            right, problem = False, str(e)
        if not right:
            failures += 1
            print(f"MADE TOKEN FAIL {token} (fields {fields}, form {form}, coder {coder}): "
                  f"{problem}")
    print(f"made tokens of version 3 (coders 0 and 1, both forms, fields 0 to 3): "
          f"{len(cases) - failures}/{len(cases)} open to their game")
    return failures == 0


# ---------------------------------------------------------------------------------------------
# 4. Tokens made here that TOKEN-1 rejects
# ---------------------------------------------------------------------------------------------

def test_made_rejects():
    def token_of(data):
        return M.base64_token(bytes(data))
    good = bytes.fromhex("03158e4168c32000")                   # AxWOQWjDIAA, ends in a 0 byte
    assert T.open_token(token_of(good)) is not None
    bad = {
        "no bytes": "",
        "a codeword that runs past the last byte": token_of(good[:-1]),
        "bits after the codeword that are not 0": token_of(good[:-1] + b"\x01"),
        "move coder 3": token_of(good[:1] + bytes([good[1] | 3]) + good[2:]),
        "result 7": token_of(good[:1] + bytes([good[1] | 0x70]) + good[2:]),
        "version 0": token_of(b"\x00" + good[1:]),
    }
    failures = 0
    for why, token in bad.items():
        try:
            T.open_token(token)
            failures += 1
            print(f"REJECT FAIL {token!r} ({why}): accepted")
        except M.FormatError as e:
            if (e.kind, e.rule) != ("corrupt", "TOKEN-1"):
                failures += 1
                print(f"REJECT FAIL {token!r} ({why}): {e.kind} {e}")
    print(f"made tokens TOKEN-1 rejects: {len(bad) - failures}/{len(bad)} rejected")
    return failures == 0


if __name__ == "__main__":
    t = time.time()
    results = [test_vectors("tokens.tsv", True), test_vectors("xiangqi_tokens.tsv", False),
               test_bad_vectors("bad_tokens.tsv"), test_bad_vectors("bad_xiangqi_tokens.tsv"),
               test_made_tokens(), test_made_rejects()]
    print(f"{'OK' if all(results) else 'FAILED'} in {time.time() - t:.1f}s")
    sys.exit(0 if all(results) else 1)
