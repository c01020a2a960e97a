#!/usr/bin/python3
"""Reference decoder for pgnarc: share tokens (section 14), written from
format-spec/pgnarc-format.md and its appendix xiangqi-position-table.md alone.

A share token is a game's main line, its start if it is set up, and its result, in base64url.
Version 1 holds a game of chess: its start as one value of a position column (9.4.4) and its
moves under the uniform coder or the move model (7.5, 7.6).  Version 3 holds a game of Xiangqi
(5.7): its start as one Xiangqi position value (5.7.3) and its moves under the uniform coder's
frequencies (5.7.2) or the Xiangqi model (7.9).  Either way the game is given back as the
canonical PGN (section 10) with the tags section 14 lists.

    tokens.py TOKEN ...      writes each token's game as canonical PGN to standard output

A token a reader must reject (TOKEN-1, XQ-POS-1) ends it with exit status 1 and a message naming
the requirement.

What this file reuses: the arithmetic decoder (7.3), the chess rules, SAN, the move model, its
end hazard and the position code of 9.4.4 from moves.py (`open_share_token` there reads
version 1 tokens alone; this file reads both versions with one frame); the rules of Xiangqi
(5.7) and its ICCS move text (5.7.1) from xiangqi.py; the Xiangqi model (7.9) from
xiangqi_model.py; a line's plies and the canonical PGN (section 10: `Line`, `Game`,
`game_pgn`) and the uniform coder's frequencies of a Xiangqi game (`xiangqi_frequencies`,
`xiangqi_end_frequency`, 5.7.2) from decode.py.  What is new here: the Xiangqi position value
(5.7.3, `XiangqiPositionCodeReader`) with its square table, and section 14's frame.

Public interface
----------------
open_token(token) -> Game          section 14 (TOKEN-1): the game a share token holds, a
                                   decode.Game whose `main` Line has its moves
token_pgn(token) -> bytes          its canonical PGN (section 10)
XiangqiPositionCodeReader()        5.7.3: the state of a coder of Xiangqi position values (its
                                   counts C); .read_value(decoder) -> (text, XiangqiPosition)
XQ_SQUARE_TABLE                    F of 5.7.3 (xiangqi-position-table.md): F[square][symbol]
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from moves import (NO_HISTORY, ArithmeticDecoder, FormatError, Position, PositionCodeReader,
                   KEPT_AS_TEXT, _read_spec, base64url_decode, corrupt, end_frequency,
                   move_frequencies)
from xiangqi import (BLACK, KINDS, RED, SQUARES, XiangqiPosition, can_stand, piece_of,
                     read_notation, square)
from xiangqi_model import XQ_NO_HISTORY, xq_end_frequency, xq_model_frequencies
from decode import Game, Line, game_pgn, xiangqi_end_frequency, xiangqi_frequencies


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


# ---------------------------------------------------------------------------------------------
# Share tokens (section 14)
# ---------------------------------------------------------------------------------------------

CHESS, XIANGQI = 1, 3                          # the versions; other values reserved
RESULTS = (None, b"1-0", b"0-1", b"1/2-1/2", b"*")        # bits 4-6 of the flags; 5-7 reserved
ICCS_NOTATION = read_notation(bytes([0x14]))   # 5.7.1 ICCS: letter case 1 (lower), hyphen 1 (no)
HEADER_BITS = 16                               # the codeword starts at byte 2's first bit


def open_token(token):
    """Section 14 [TOKEN-1]: the game a share token holds, as a decode.Game (tags, main line,
    result), or FormatError ("corrupt") for a token a reader must reject."""
    data = base64url_decode(token)                       # TOKEN-1: characters, length, bits
    if len(data) < 1 or data[0] not in (CHESS, XIANGQI):
        raise corrupt("TOKEN-1", f"version {data[0] if data else 'missing'} (1 and 3 defined)")
    version = data[0]
    if len(data) < 2:
        raise corrupt("TOKEN-1", "a version byte without flags")
    flags = data[1]
    coder = flags & 3                                    # bits 0-1: 0 uniform, 1 model
    setup = bool(flags & 4)                              # bit 2: the start is set up
    chess960 = bool(flags & 8)                           # bit 3: Chess960 (reserved in 3)
    result_code = (flags >> 4) & 7                       # bits 4-6: the result
    if coder > 1:
        raise corrupt("TOKEN-1", f"move coder {coder} (reserved)")
    if result_code > 4:
        raise corrupt("TOKEN-1", f"result {result_code} (reserved)")
    if flags & 0x80:
        raise corrupt("TOKEN-1", "flag bit 7 set (reserved)")
    if version == XIANGQI and chess960:
        raise corrupt("TOKEN-1", "flag bit 3 set in a token of version 3 (reserved)")

    decoder = ArithmeticDecoder(data, HEADER_BITS)       # 7.3 start(16)
    result = RESULTS[result_code]
    # The start: a set-up start's value (9.4.4 or 5.7.3, of a coder at its start), else the
    # standard start position (5.1; bit 3 changes no move) or Xiangqi's (5.7).
    start_fen = None
    if version == CHESS:
        if setup:
            try:
                value = PositionCodeReader().read_value(decoder)
            except FormatError as e:
                if e.rule != "TAGS-6":
                    raise
                # TOKEN-1: "a start position ... that is not a FEN (5.2)"; TAGS-6 lists the rest
                raise corrupt("TOKEN-1", f"start position: {str(e).split('] ', 1)[-1]} (as "
                                         f"TAGS-6 says of a position column's value)")
            if value.form == KEPT_AS_TEXT:
                raise corrupt("TOKEN-1", "a start position kept as text")
            start_fen, start = value.fen, value.position
        else:
            start = Position.standard()
        main = Line(0)
        main.histories = [NO_HISTORY]                    # 7.6.1: the history starts empty
    else:
        if setup:
            text, start = XiangqiPositionCodeReader().read_value(decoder)
            start_fen = text.encode("ascii")
        else:
            start = XiangqiPosition.start()
        main = Line(0, ICCS_NOTATION)                    # moves written in ICCS (5.7.1)
        main.histories = [XQ_NO_HISTORY]                 # XQ-MODEL-2: both parts none
    main.positions = [start]

    # The main line: an unannotated line that is not counted (7.1 MOVE-SYM-2, 7.2 decode_line):
    # at each ply p the end, then the legal moves (section 6 or 5.7's order), with the
    # frequencies of the coder bits 0-1 give.
    p = 0
    while True:
        position, history = main.positions[-1], main.histories[-1]
        moves = position.legal_moves()
        if version == CHESS:
            freqs = move_frequencies(coder, position, history, moves)      # 7.5, 7.6
            end = end_frequency(coder, sum(freqs), p, position)
        elif coder == 1:                                 # the Xiangqi model (7.9, XQ-MODEL-1)
            freqs = xq_model_frequencies(position, history, moves)
            end = xq_end_frequency(sum(freqs), p)
        else:                                            # the uniform coder's (5.7.2)
            freqs = xiangqi_frequencies(moves)
            end = xiangqi_end_frequency(sum(freqs))
        k = decoder.read([end] + freqs)                  # MOVE-AC-2
        if k == 0:
            break
        if p == 2 ** 16:
            raise corrupt("TOKEN-1", "a codeword of more than 2^16 plies (MOVE-SYM-2)")
        main.play(moves[k - 1])                          # history (7.6.1, XQ-MODEL-2) and text
        p += 1
    main.plies = p

    # The codeword's end: its closing bits (MOVE-AC-3), then 0 bits to the end of its last
    # byte, and no more bytes.
    length = decoder.finish()
    end_bit = HEADER_BITS + length
    if len(data) > (end_bit + 7) // 8:
        raise corrupt("TOKEN-1", f"{len(data) - (end_bit + 7) // 8} bytes after the codeword")
    if len(data) < (end_bit + 7) // 8:
        raise corrupt("TOKEN-1", "the codeword runs past the token's last byte")
    if any(decoder.bit(i) for i in range(end_bit, 8 * len(data))):
        raise corrupt("TOKEN-1", "bits after the codeword are not 0")

    # Section 14: the game's tags, in this order; its termination marker is the result.
    if version == CHESS:
        tags = [(b"Event", b"?"), (b"Site", b"?"), (b"Date", b"????.??.??"), (b"Round", b"?"),
                (b"White", b"?"), (b"Black", b"?"), (b"Result", result or b"*")]
        if start_fen is not None:
            tags += [(b"SetUp", b"1"), (b"FEN", start_fen)]
        if chess960:
            tags.append((b"Variant", b"Chess960"))
    else:
        tags = [(b"Game", b"Chinese Chess"), (b"Event", b"?"), (b"Site", b"?"),
                (b"Date", b"????.??.??"), (b"Round", b"?"), (b"Red", b"?"), (b"Black", b"?"),
                (b"Result", result or b"*")]
        if start_fen is not None:
            tags.append((b"FEN", start_fen))
        tags.append((b"Format", b"ICCS"))
    game = Game(tags)
    game.xiangqi = version == XIANGQI
    game.main = main
    game.result = result
    return game


def token_pgn(token):
    """The canonical PGN (section 10) of the game a share token holds (section 14)."""
    return game_pgn(open_token(token))


def main(argv):
    if len(argv) < 2:
        print("usage: tokens.py TOKEN ...", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    for token in argv[1:]:
        try:
            out.write(token_pgn(token))
        except FormatError as e:
            out.flush()
            print(f"tokens.py: {e.kind}: {e}: {token}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
