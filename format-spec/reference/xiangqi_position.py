#!/usr/bin/python3
"""Reference decoder for pgnarc: the Xiangqi position code (5.7.3), written from
format-spec/pgnarc-format.md and its appendix xiangqi-position-table.md alone.

A Xiangqi FEN (5.7) coded as a Xiangqi position value: the symbols of the arithmetic coder (7.3)
of its form, its squares (form 0, under the square table F and the coder's counts C) or its sets
(form 1), the side to move and the fields.  Two readers use it: tokens.py (the start of a share
token of version 3, section 14, read by a coder at its start) and decode.py (a `FEN` column of
coding 12, 9.4.9, whose values are read by one coder, its counts following across the column).

Public interface
----------------
XiangqiPositionCodeReader()        5.7.3: the state of a coder of Xiangqi position values (its
                                   counts C); .read_value(decoder) -> (text, XiangqiPosition),
                                   FormatError [XQ-POS-1] for a value a reader must reject
XQ_SQUARE_TABLE                    F of 5.7.3 (xiangqi-position-table.md): F[square][symbol]
symbol_piece(s), MOST, SETS_ORDER, binomial(a, b), FIELDS_TEXT
                                   5.7.3's square symbols, a side's most of a kind, the order of
                                   the kinds in the sets form, C(a, b), the fields' texts
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from moves import FormatError, _read_spec, corrupt
from xiangqi import BLACK, KINDS, RED, SQUARES, XiangqiPosition, can_stand, piece_of, square


# ---------------------------------------------------------------------------------------------
# The square table of the Xiangqi position code (5.7.3, xiangqi-position-table.md)
# ---------------------------------------------------------------------------------------------

# 5.7.3: square symbols 0 empty, 1 to 7 Red's general, advisor, elephant, horse, chariot, cannon,
# soldier, 8 to 14 Black's in the same order: the order of xiangqi.KINDS ("KABNRCP").
XQ_SYMBOLS = 15


def symbol_piece(s):
    """5.7.3: the piece (xiangqi.py's letter, upper case for Red) of square symbol s >= 1."""
    return piece_of(KINDS[(s - 1) % 7], RED if s <= 7 else BLACK)


def _load_xiangqi_square_table():
    """F of 5.7.3 (xiangqi-position-table.md): F[square][symbol], 90 rows a0 .. i9 of 15
    frequencies.  Checked as the appendix describes it: each row totals 4096, a piece has 0
    exactly on the squares where 5.7's FEN rules put it out of reach (5.7.3 "may stand")."""
    text = _read_spec("xiangqi-position-table.md")
    table = [None] * SQUARES
    for m in re.finditer(r"^\| ([a-i])([0-9]) \|((?: *\d+ *\|){15})$", text, re.M):
        q = square(ord(m.group(1)) - 97, int(m.group(2)))
        table[q] = [int(v) for v in m.group(3).split("|") if v.strip()]
    assert None not in table
    for q, row in enumerate(table):
        assert sum(row) == 4096, q
        for s in range(1, XQ_SYMBOLS):
            piece = symbol_piece(s)
            stands = can_stand(piece.upper(), RED if piece.isupper() else BLACK, q)
            assert (row[s] > 0) == stands, (q, s)
    return table


XQ_SQUARE_TABLE = _load_xiangqi_square_table()

# 5.7.3: a side's most of a kind is what it starts with (5.7 Pieces).
MOST = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}
# 5.7.3 item 3: the order of the kinds in the sets form (a side's), soldiers before horses.
SETS_ORDER = "KABPNRC"
# 5.7.3 item 6: the fields' texts after the side to move (1 is filled with the counters).
FIELDS_TEXT = (" - - 0 1", None, " - -", "")


def binomial(a, b):
    """C(a, b) of 5.7.3: the binomial coefficient, 0 for a < b."""
    if b < 0 or a < b:
        return 0
    result = 1
    for i in range(b):
        result = result * (a - i) // (i + 1)
    return result


class XiangqiPositionCodeReader:
    """5.7.3: a coder of Xiangqi position values, its counts C[q][s] all 0 at its start (the
    value of a share token is read by a coder at its start)."""

    def __init__(self):
        self.counts = [[0] * XQ_SYMBOLS for _ in range(SQUARES)]

    def read_value(self, decoder):
        """5.7.3: one value, items 1 to 6.  Returns (the value's text, its XiangqiPosition).
        Raises FormatError [XQ-POS-1] for a value 5.7.3 rejects."""
        try:
            form = decoder.read_uniform(2)                               # 1. the form
            if form == 0:
                board = self._read_squares(decoder)                      # 2.
            else:
                board = self._read_sets(decoder)                         # 3.
            for q in range(SQUARES):                                     # 4. the counts
                s = self._symbol(board[q])
                self.counts[q][s] += 1
                if sum(self.counts[q]) >= 1024:
                    self.counts[q] = [(c + 1) // 2 for c in self.counts[q]]
            red_to_move = decoder.read_uniform(2) == 0                   # 5. the side to move
            fields = decoder.read_uniform(4)                             # 6. the fields
            if fields == 1:
                halfmove = self._read_counter(decoder)
                fullmove = self._read_counter(decoder)
                fields_text = f" - - {halfmove} {fullmove}"
            else:
                fields_text = FIELDS_TEXT[fields]
        except FormatError as e:
            if e.rule != "MOVE-AC-2":
                raise
            # XQ-POS-1 names the defect: "a value whose symbol lies in no symbol of a list"
            raise corrupt("XQ-POS-1", f"{str(e).split('] ', 1)[-1]} (as MOVE-AC-2 says of any "
                                      f"codeword)")
        # The value's text: the FEN as 5.7's writer spells its placement and side, then the
        # fields of item 6.
        placement = XiangqiPosition(board, red_to_move).fen().split(" ")[0]
        text = f"{placement} {'w' if red_to_move else 'b'}{fields_text}"
        try:
            position = XiangqiPosition.from_fen(text)
        except ValueError as e:
            raise corrupt("XQ-POS-1", f"the value's text {text!r} is not a valid FEN (5.7): {e}")
        return text, position

    @staticmethod
    def _symbol(piece):
        """The square symbol (5.7.3) of a board entry (None or a piece letter)."""
        if piece is None:
            return 0
        return 1 + KINDS.index(piece.upper()) + (0 if piece.isupper() else 7)

    def _read_squares(self, decoder):
        """5.7.3 item 2, form 0: the squares 0 to 89 (a0, b0, ..., i9), each a symbol among 15
        of frequencies F[q][s] + 64 * C[q][s], a piece's 0 once the squares before q hold that
        side's most of its kind.  A value with no general of a side is rejected (XQ-POS-1)."""
        board = [None] * SQUARES
        seen = {}                                        # piece letter -> how many so far
        for q in range(SQUARES):
            freqs = [XQ_SQUARE_TABLE[q][s] + 64 * self.counts[q][s] for s in range(XQ_SYMBOLS)]
            for s in range(1, XQ_SYMBOLS):
                piece = symbol_piece(s)
                if seen.get(piece, 0) >= MOST[piece.upper()]:
                    freqs[s] = 0
            s = decoder.read(freqs)
            if s:
                piece = symbol_piece(s)
                board[q] = piece
                seen[piece] = seen.get(piece, 0) + 1
        for color, name in ((RED, "Red"), (BLACK, "Black")):
            if not seen.get(piece_of("K", color)):
                raise corrupt("XQ-POS-1", f"the squares hold no general of {name}")
        return board

    def _read_sets(self, decoder):
        """5.7.3 item 3, form 1: for Red then Black, each kind in SETS_ORDER: its candidates (the
        squares where it may stand that no kind coded before it holds, ascending, n of them);
        its number k, a choice among most + 1 (the general's k is 1, not coded); for k > 0 the
        rank r of its squares' indices among the candidates, the symbol (r, 1, C(n, k))."""
        board = [None] * SQUARES
        for color in (RED, BLACK):
            for kind in SETS_ORDER:
                candidates = [q for q in range(SQUARES)
                              if board[q] is None and can_stand(kind, color, q)]
                n = len(candidates)
                k = 1 if kind == "K" else decoder.read_uniform(MOST[kind] + 1)
                if k == 0:
                    continue
                r = decoder.read_uniform(binomial(n, k))   # total 0 rejected there (MOVE-AC-2)
                # i_{k-1} the largest i with C(i, k) <= r; take C(i_{k-1}, k) from r; then
                # i_{k-2} with k - 1, ... down to i_0 (the combinatorial number system).
                for j in range(k, 0, -1):
                    i = j - 1
                    while binomial(i + 1, j) <= r:
                        i += 1
                    r -= binomial(i, j)
                    board[candidates[i]] = piece_of(kind, color)
        return board

    @staticmethod
    def _read_counter(decoder):
        """5.7.3 item 6: a number u below 2^16: its bit width w, a choice among 17, then for
        w >= 2 the bits below its top bit, u - 2^(w-1), a choice among 2^(w-1)."""
        w = decoder.read_uniform(17)
        if w == 0:
            return 0
        if w == 1:
            return 1
        return (1 << (w - 1)) + decoder.read_uniform(1 << (w - 1))
