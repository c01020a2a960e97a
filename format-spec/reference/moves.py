"""Reference decoder for pgnarc, part 1: chess and coding primitives.

Written from format-spec/pgnarc-format.md alone; section numbers and requirement IDs below
refer to it.  Its appendices (move-model-tables.md, crazyhouse-model-tables.md,
fast-model-tables.md with the opening book's bytes, position-table.md) and the table E of 7.6 are read from the spec's own files at import time, so
the code uses exactly the spec's numbers.  Standard library only; run with Python 3.11
(/usr/bin/python3).  decode.py, beside this file, holds the rest of the reader (container,
streams, records, canonical PGN).

Public interface
----------------
FormatError(kind, rule, message)   kind "corrupt" or "unsupported"; rule a spec ID (MOVE-AC-2 ..)
Move(from_sq, to_sq, promotion, drop)   squares as section 3 (a1 = 0 .. h8 = 63); promotion None
                                   or "N", "B", "R", "Q" ("K" in antichess); castling is king ->
                                   own rook (5.4); a drop (crazyhouse) is Move(None, square, None,
                                   "P" .. "Q")
Position                           a position (section 4); immutable, play() makes a new one
    Position.standard()            the standard start position (5.1)
    Position.chess960_start(w, b)  the start of Scharnagl arrangements w and b (9.4.4)
    Position.from_fen(text)        a FEN (bytes) read per 5.2; None if 5.2 calls it invalid
    .board (64 piece codes: 0 empty, 1-6 White's P N B R Q K, 7-12 Black's), .white_to_move,
    .castling (squares of the rooks with a right), .ep (the en passant square as set, effective
    or not), .halfmove, .fullmove
    .fen(ep="stored", counters=True) -> bytes   FEN spelt as 9.4.4 spells a value's text
    .effective_ep()                the en passant square if effective (5.2), else None
    .legal_moves() -> [Move]       section 6 order (MOVE-ORDER-1)
    .play(move), .play_null()      5.4, 5.5, section 4
    .san(move, after=None) -> str  SAN as section 10 writes it, with "+" or "#"
    .identity()                    pieces, side, castling rooks, effective ep (8.3.3 Runs)
    .in_check(), .is_castling(m), .is_capture(m), .is_en_passant(m), .landing_square(m)
VariantPosition                    a position under a variant of 5.6 (format 1.1), a Position
                                   with .variant (1 crazyhouse .. 7 horde), .pockets, .promoted
                                   and .checks; it overrides what 5.6 changes
    VariantPosition.start(v)       the variant's start position (5.6.1)
    VariantPosition.from_fen(text, v)   a FEN read per 5.2 and 5.6.1 (START-2); None if invalid
    .legal_moves()                 5.6.2, in the order of MOVE-ORDER-2 (drops last)
    .play(move), .play_null()      5.6.3
    .san(move, after=None)         section 10 under a variant (N@f3, =K, + and # as 5.6.2)
    .in_check(), .is_over()        5.6.2; .uci(move) for tests
variant_of_name(value) -> int | None   5.6: the variant a Variant tag's folded value names
History(last, ours), NO_HISTORY, history_after(history, position, move or None)    7.6.1
move_frequencies(coder, position, history, moves=None) -> [int]   f_0 .. f_{n-1}: 7.5 (with
                                   MOVE-CODER-1 for a VariantPosition), 7.6, 7.7, 7.8
fast_frequencies(position, history, moves) -> [int]   7.8: the book's (FAST-BOOK-3) or the
                                   fast model's (FAST-MODEL-1); read_book(data) -> {identity:
                                   [(index, count)]} (FAST-BOOK-1)
end_frequency(coder, S, p, position) -> int                         7.1 MOVE-SYM-2, MOVE-CODER-1
ply_coder(coder, position) -> int  MOVE-CODER-1: UNIFORM, MODEL or FAST, the coder a ply has
ArithmeticDecoder(data, bit=0)     7.3 start(s); .read(freqs) -> index (frequencies of 0 allowed);
                                   .read_uniform(T) -> value (c = value, f = 1); .finish() -> bits
AdaptiveFrequencies(n)             8.3.3; .read(decoder) -> symbol (and adapts); .freqs
read_integer(decoder, widths)      8.3.3 Integers; new_integer_field() makes `widths` (65 symbols)
read_varint(data, offset)          section 3 varint -> (value, next offset)
decode_code_column(body, count, rule) -> (codes, offset)   9.4.7, 9.4.8: the integer codes of a
                                   coded or table column's codeword (TAGS-11, TAGS-12)
PositionCodeReader()               9.4.4 state of one column; .read_value(decoder) -> PositionValue
decode_position_column(body, count) -> (values, offset)   9.4.4: values[i] FEN bytes or None
                                   (kept as text: the text body at body[offset:] gives it)
double_step_passed(position, move) -> int | None   5.5: the square a double step passes
derived_fen(position, double_step, style, counters=True) -> bytes   9.4.4's spelling of a
                                   derived value (en passant style 0 or 1), 9.4.5's rules 0 and 1
open_share_token(token) -> SharedGame   section 14; SharedGame.pgn() is its canonical PGN
base64_token(data) -> str          the text of a token's bytes (for tests)
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

class FormatError(Exception):
    """A record that a reader must reject (section 2).

    kind is "corrupt" or "unsupported"; rule is the requirement's identifier (e.g. "MOVE-AC-2").
    """

    def __init__(self, kind: str, rule: str, message: str = ""):
        super().__init__(f"[{rule}] {message}" if message else f"[{rule}]")
        self.kind = kind
        self.rule = rule


def corrupt(rule: str, message: str = "") -> FormatError:
    return FormatError("corrupt", rule, message)


# ---------------------------------------------------------------------------------------------
# The appendix tables (7.6.4, 7.7, 9.4.4), read from the spec's own files at import time
# ---------------------------------------------------------------------------------------------

SPEC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)


def _read_spec(name: str) -> str:
    with open(os.path.join(SPEC_DIR, name), encoding="utf-8") as f:
        return f.read()


def _load_weight_table(name: str):
    """An appendix's K, its groups (offset -> (size, name with indices)) and its weights, read
    from the ```text blocks of its section "## W", group by group."""
    text = _read_spec(name)
    k = int(re.search(r"^K = (\d+) features\.", text, re.M).group(1))
    groups = {}                                   # offset -> (size, name with indices)
    for m in re.finditer(r"^\| (\d+) \| (\d+) \| ([^|]+) \|$", text, re.M):
        groups[int(m.group(1))] = (int(m.group(2)), m.group(3).strip())
    weights = [None] * k
    w_section = re.search(r"^## W\s*\n(.*?)(?=^## |\Z)", text, re.M | re.S).group(1)
    for m in re.finditer(r"^### ([^\n]+), from (\d+)\s*\n+```text\n(.*?)```", w_section,
                         re.M | re.S):
        offset = int(m.group(2))
        values = [int(v) for v in m.group(3).split()]
        size, name = groups[offset]
        assert name == m.group(1).strip() and len(values) == size, name
        assert all(-128 <= v <= 127 for v in values), name
        weights[offset:offset + size] = values
    assert None not in weights and len(weights) == k
    return k, groups, weights


def _load_model_tables():
    """The move model's tables (7.6.4, move-model-tables.md): K, the groups, W and H."""
    k, groups, weights = _load_weight_table("move-model-tables.md")
    text = _read_spec("move-model-tables.md")
    hazard = [int(v) for v in
              re.search(r"^## H\s*\n.*?```text\n(.*?)```", text, re.M | re.S).group(1).split()]
    assert len(hazard) == 256
    return k, groups, weights, hazard


def _load_crazyhouse_tables():
    """The crazyhouse model's table Z (7.7, crazyhouse-model-tables.md): K_Z and its groups."""
    return _load_weight_table("crazyhouse-model-tables.md")


def _load_frequency_table():
    """E of 7.6 (MOVE-MODEL-1), from pgnarc-format.md."""
    text = _read_spec("pgnarc-format.md")
    m = re.search(r"E = ((?:\d+,\s*)+\d+)", text)
    e = [int(v) for v in m.group(1).replace(",", " ").split()]
    assert len(e) == 16
    return e


def _load_placement_table():
    """F of 9.4.4 (position-table.md): F[square][symbol], 64 rows a1..h8 of 13 frequencies."""
    text = _read_spec("position-table.md")
    table = [None] * 64
    for m in re.finditer(r"^\| ([a-h])([1-8]) \|((?: *\d+ *\|){13})$", text, re.M):
        sq = (ord(m.group(1)) - 97) + 8 * (int(m.group(2)) - 1)
        table[sq] = [int(v) for v in m.group(3).split("|") if v.strip()]
    assert None not in table
    return table


K_FEATURES, GROUPS, W, HAZARD = _load_model_tables()
K_Z, Z_GROUPS, Z = _load_crazyhouse_tables()
E = _load_frequency_table()
PLACEMENT = _load_placement_table()


# ---------------------------------------------------------------------------------------------
# Board geometry (section 3: square = file + 8 * rank)
# ---------------------------------------------------------------------------------------------

# Piece codes are the 13 square symbols of 9.4.4: 0 empty, 1-6 White's pawn, knight, bishop,
# rook, queen, king, 7-12 Black's.  Piece type indices are those of 7.6.2: pawn 0 .. king 5.
EMPTY = 0
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(6)
PIECE_LETTERS = "PNBRQK"
VALUE = (1, 3, 3, 5, 9, 100)                     # v(x) of 7.6.2
PROMOTIONS = ("N", "B", "R", "Q")                # section 6 order
PROMO_TYPE = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN}


def piece_code(white: bool, ptype: int) -> int:
    return ptype + 1 if white else ptype + 7


def ptype_of(code: int) -> int:
    return (code - 1) % 6


def is_white(code: int) -> bool:
    return 1 <= code <= 6


def file_of(s: int) -> int:
    return s & 7


def rank_of(s: int) -> int:
    return s >> 3


def square_name(s: int) -> str:
    return "abcdefgh"[s & 7] + str((s >> 3) + 1)


ROOK_DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))          # opposite directions in pairs
BISHOP_DIRS = ((1, 1), (-1, -1), (1, -1), (-1, 1))     # opposite directions in pairs


def _ray(s, df, dr):
    f, r, out = file_of(s) + df, rank_of(s) + dr, []
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(f + 8 * r)
        f, r = f + df, r + dr
    return tuple(out)


def _steps(s, deltas):
    out = 0
    for df, dr in deltas:
        f, r = file_of(s) + df, rank_of(s) + dr
        if 0 <= f < 8 and 0 <= r < 8:
            out |= 1 << (f + 8 * r)
    return out


ROOK_RAYS = [tuple(_ray(s, df, dr) for df, dr in ROOK_DIRS) for s in range(64)]
BISHOP_RAYS = [tuple(_ray(s, df, dr) for df, dr in BISHOP_DIRS) for s in range(64)]
KNIGHT_ATT = [_steps(s, ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
              for s in range(64)]
KING_ATT = [_steps(s, ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))
            for s in range(64)]
# PAWN_ATT[white][s]: the squares diagonally in front of a pawn of that colour on s.
PAWN_ATT = {True: [_steps(s, ((-1, 1), (1, 1))) for s in range(64)],
            False: [_steps(s, ((-1, -1), (1, -1))) for s in range(64)]}
FILE_BB = [0x0101010101010101 << f for f in range(8)]
RANK_BB = [0xFF << (8 * r) for r in range(8)]
ADJ_FILES_BB = [(FILE_BB[f - 1] if f > 0 else 0) | (FILE_BB[f + 1] if f < 7 else 0)
                for f in range(8)]
# AHEAD[white][s]: ahead(s) of 7.6.2 for the side to move of that colour.
AHEAD = {True: [sum(RANK_BB[r] for r in range(rank_of(s) + 1, 8)) for s in range(64)],
         False: [sum(RANK_BB[r] for r in range(0, rank_of(s))) for s in range(64)]}


def _lines():
    """LINE[a][b]: line(a, b) of 7.6.2, the whole rank, file or diagonal through a and b, edge
    to edge; BETWEEN[a][b]: between(a, b), the squares strictly between.  0 if a and b share
    no line."""
    line = [[0] * 64 for _ in range(64)]
    between = [[0] * 64 for _ in range(64)]
    for a in range(64):
        for rays in (ROOK_RAYS[a], BISHOP_RAYS[a]):
            for i, ray in enumerate(rays):
                opposite = rays[i ^ 1]               # directions are listed in opposite pairs
                full = 1 << a
                for t in ray + opposite:
                    full |= 1 << t
                inner = 0
                for t in ray:
                    line[a][t] = full
                    between[a][t] = inner
                    inner |= 1 << t
    return line, between


LINE, BETWEEN = _lines()


def bits(bb: int):
    """The squares of a bit set, ascending."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def _ray_table(dirs):
    """For each square, each direction: (the ray's squares as a bit set, whether the
    direction goes to higher squares, the direction's index)."""
    table = []
    for s in range(64):
        entries = []
        for d, (df, dr) in enumerate(dirs):
            bb = 0
            for t in _ray(s, df, dr):
                bb |= 1 << t
            entries.append((bb, df + 8 * dr > 0, d))
        table.append(entries)
    return table


ROOK_RAY_BB = _ray_table(ROOK_DIRS)
BISHOP_RAY_BB = _ray_table(BISHOP_DIRS)


def _slide(table, s: int, occ: int) -> int:
    """Along each ray from s, the squares up to and including the first one in occ (7.6.2):
    the whole ray, less the part of the same ray beyond the first occupied square."""
    att = 0
    for ray, upward, d in table[s]:
        blockers = ray & occ
        if blockers:
            first = (blockers & -blockers).bit_length() - 1 if upward else blockers.bit_length() - 1
            att |= ray ^ table[first][d][0]
        else:
            att |= ray
    return att


# The same sets as lists of squares, for walking them.
KNIGHT_SQUARES = [list(bits(b)) for b in KNIGHT_ATT]
KING_SQUARES = [list(bits(b)) for b in KING_ATT]
PAWN_SQUARES = {c: [list(bits(b)) for b in PAWN_ATT[c]] for c in (True, False)}

def bishop_attacks(s: int, occ: int) -> int:
    return _slide(BISHOP_RAY_BB, s, occ)


def rook_attacks(s: int, occ: int) -> int:
    return _slide(ROOK_RAY_BB, s, occ)


def attacks(ptype: int, white: bool, s: int, occ: int) -> int:
    """attacks(x, c, s, occ) of 7.6.2 as a bit set."""
    if ptype == PAWN:
        return PAWN_ATT[white][s]
    if ptype == KNIGHT:
        return KNIGHT_ATT[s]
    if ptype == KING:
        return KING_ATT[s]
    if ptype == BISHOP:
        return bishop_attacks(s, occ)
    if ptype == ROOK:
        return rook_attacks(s, occ)
    return bishop_attacks(s, occ) | rook_attacks(s, occ)


def square_attacked(board, s: int, by_white: bool) -> bool:
    """Whether a piece of colour by_white attacks square s on board (a sequence of 64 codes)."""
    pawn, knight, bishop, rook, queen, king = (piece_code(by_white, t) for t in range(6))
    for t in PAWN_SQUARES[not by_white][s]:   # a pawn attacking s stands where s's "pawn" would
        if board[t] == pawn:
            return True
    for t in KNIGHT_SQUARES[s]:
        if board[t] == knight:
            return True
    for t in KING_SQUARES[s]:
        if board[t] == king:
            return True
    for rays, slider in ((ROOK_RAYS[s], rook), (BISHOP_RAYS[s], bishop)):
        for ray in rays:
            for t in ray:
                p = board[t]
                if p:
                    if p == slider or p == queen:
                        return True
                    break
    return False


# ---------------------------------------------------------------------------------------------
# Moves and positions (sections 4, 5, 6)
# ---------------------------------------------------------------------------------------------

class Move(NamedTuple):
    """A move (5.3): from-square, to-square (castling: the own rook's square, 5.4), and the
    promotion piece letter "N", "B", "R", "Q" or None.  Under a variant (5.6.2) a promotion may
    also be "K" (antichess), and a drop (crazyhouse) is Move(None, square, None, letter) with
    the dropped piece's letter "P", "N", "B", "R" or "Q"; standard chess never has either."""
    from_sq: int | None
    to_sq: int
    promotion: str | None = None
    drop: str | None = None

    def sort_key(self):                          # section 6: (from, to, promotion N<B<R<Q)
        return (self.from_sq, self.to_sq, PROMO_TYPE[self.promotion] if self.promotion else 0)


def counter_fields(fields: list) -> "tuple[int, int] | None":
    """5.2: the halfmove clock and fullmove number of a FEN's optional fifth and sixth fields
    (0 and 1 where they are missing, a fullmove number of 0 read as 1), or None if invalid."""
    counters = []
    for field in fields:
        if not field.isdigit() or int(field) > 65535:   # bytes.isdigit: ASCII digits only
            return None
        counters.append(int(field))
    halfmove = counters[0] if len(counters) > 0 else 0
    fullmove = counters[1] if len(counters) > 1 else 1
    return halfmove, fullmove or 1


def read_placement(placement: bytes, promoted_marks: bool) -> "tuple[list, int] | None":
    """5.2: the board of a FEN's placement field, and the squares (a bit set) whose piece a `~`
    marks promoted where `promoted_marks` allows them (5.6.1: after a piece other than a pawn or
    a king); None if the field is invalid."""
    ranks = placement.split(b"/")
    if len(ranks) != 8:
        return None
    board = [EMPTY] * 64
    promoted = 0
    for i, row in enumerate(ranks):
        r, f = 7 - i, 0
        last_piece = None                       # the square of the piece just read
        for ch in row:
            c = chr(ch)
            if c == "~":
                if not promoted_marks or last_piece is None or ptype_of(board[last_piece]) in (PAWN, KING):
                    return None
                promoted |= 1 << last_piece
                last_piece = None
                continue
            last_piece = None
            if c in "12345678":
                f += int(c)
            elif c in "PNBRQKpnbrqk":
                if f >= 8:
                    return None
                board[f + 8 * r] = piece_code(c.isupper(), "PNBRQK".index(c.upper()))
                last_piece = f + 8 * r
                f += 1
            else:
                return None
            if f > 8:
                return None
        if f != 8:
            return None
    return board, promoted


def en_passant_field(ep: bytes, board, white_to_move: bool) -> "tuple[bool, int | None]":
    """5.2: (whether a FEN's en passant field is valid, its square or None for `-`)."""
    if ep == b"-":
        return True, None
    if len(ep) != 2 or chr(ep[0]) not in "abcdefgh" or chr(ep[1]) not in "36":
        return False, None
    ep_sq = (ep[0] - 97) + 8 * (ep[1] - 49)
    step = 8 if white_to_move else -8       # from the ep square towards the pawn's start
    if rank_of(ep_sq) != (5 if white_to_move else 2):
        return False, None
    if board[ep_sq] != EMPTY or board[ep_sq + step] != EMPTY:
        return False, None
    if board[ep_sq - step] != piece_code(not white_to_move, PAWN):
        return False, None
    return True, ep_sq


def castling_rights(castle: bytes, board, king_of) -> "list[int] | None":
    """5.2: the rook squares a FEN's castling field names, or None where it is invalid.
    king_of(white) is the square of that colour's king (None: no single king to castle)."""
    castling = []
    if castle == b"-":
        return castling
    wings = set()
    for ch in castle:
        c = chr(ch)
        white = c.isupper()
        first = 0 if white else 7
        king = king_of(white)
        if king is None or rank_of(king) != first:
            return None
        rook = piece_code(white, ROOK)
        rooks = [f for f in range(8) if board[f + 8 * first] == rook]
        kf = file_of(king)
        if c in "Kk":
            side_rooks = [f for f in rooks if f > kf]
            if not side_rooks:
                return None
            f = max(side_rooks)
        elif c in "Qq":
            side_rooks = [f for f in rooks if f < kf]
            if not side_rooks:
                return None
            f = min(side_rooks)
        elif c.upper() in "ABCDEFGH":
            f = "ABCDEFGH".index(c.upper())
            if f not in rooks:
                return None
        else:
            return None
        wing = (white, f > kf)
        if wing in wings:
            return None
        wings.add(wing)
        castling.append(f + 8 * first)
    return castling


class Position:
    """A position of section 4.  Immutable; `play` returns a new one.

    board: tuple of 64 piece codes; white_to_move; castling: sorted tuple of the squares of
    the rooks with a castling right (at most one per colour and wing); ep: the en passant
    square as set by a double step or a FEN (None for none), whether effective or not;
    halfmove, fullmove: the counters, 16 bits each (7.6.2).
    """

    __slots__ = ("board", "white_to_move", "castling", "ep", "halfmove", "fullmove",
                 "_moves", "_kings", "_last_play")

    def __init__(self, board, white_to_move, castling, ep, halfmove, fullmove):
        self.board = tuple(board)
        self.white_to_move = white_to_move
        self.castling = tuple(sorted(castling))
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self._moves = None
        self._kings = None
        self._last_play = None          # (move, position after it): san() then play() reuse it

    # -- construction --------------------------------------------------------------------

    @staticmethod
    def standard() -> "Position":
        """5.1: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1."""
        return Position.chess960_start(518, 518)

    @staticmethod
    def chess960_start(white_arrangement: int, black_arrangement: int) -> "Position":
        """9.4.4: the start position of Scharnagl arrangements (518 is RNBQKBNR)."""
        board = [EMPTY] * 64
        castling = []
        for white, a in ((True, white_arrangement), (False, black_arrangement)):
            first = 0 if white else 7
            for f, t in enumerate(scharnagl_arrangement(a)):
                board[f + 8 * first] = piece_code(white, t)
                board[f + 8 * (1 if white else 6)] = piece_code(white, PAWN)
                if t == ROOK:
                    castling.append(f + 8 * first)
        return Position(board, True, castling, None, 0, 1)

    @staticmethod
    def from_fen(text: bytes) -> "Position | None":
        """5.2: the position of a FEN, or None if the FEN is invalid."""
        fields = [field for field in re.split(rb"[ \t]+", text) if field]
        if not 4 <= len(fields) <= 6:
            return None
        placement, side, castle, ep = fields[:4]
        counters = counter_fields(fields[4:])
        read = read_placement(placement, False)
        if counters is None or read is None:
            return None
        halfmove, fullmove = counters
        board = read[0]
        for white in (True, False):
            if sum(1 for p in board if p == piece_code(white, KING)) != 1:
                return None
            if sum(1 for p in board if p and is_white(p) == white) > 16:
                return None
        if any(ptype_of(board[s]) == PAWN for s in list(range(8)) + list(range(56, 64))
               if board[s]):
            return None
        # Side to move; the side not to move must not be in check
        if side not in (b"w", b"b"):
            return None
        white_to_move = side == b"w"
        their_king = board.index(piece_code(not white_to_move, KING))
        if square_attacked(board, their_king, white_to_move):
            return None
        # Castling
        castling = castling_rights(castle, board, lambda white: board.index(piece_code(white, KING)))
        if castling is None:
            return None
        valid, ep_sq = en_passant_field(ep, board, white_to_move)
        if not valid:
            return None
        return Position(board, white_to_move, castling, ep_sq, halfmove, fullmove)

    # -- FEN (9.4.4's spelling) -----------------------------------------------------------

    def placement_field(self, promoted: int = 0) -> str:
        """The placement, a `~` after each piece of `promoted` (a bit set of squares, 5.6.1)."""
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = self.board[f + 8 * r]
                if p == EMPTY:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                letter = PIECE_LETTERS[ptype_of(p)]
                row += letter if is_white(p) else letter.lower()
                row += "~" if promoted >> (f + 8 * r) & 1 else ""
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def castling_field(self) -> str:
        """9.4.4: White's king side, White's queen side, Black's king side, Black's queen side;
        K/Q (k/q) for the outermost rook, else the file letter."""
        out = ""
        for white in (True, False):
            first = 0 if white else 7
            king = self.king_square(white)
            rook = piece_code(white, ROOK)
            for king_side in (True, False):
                for s in self.castling:
                    if rank_of(s) != first or king is None or (s > king) != king_side:
                        continue
                    files = [f for f in range(8) if self.board[f + 8 * first] == rook
                             and (f > file_of(king)) == king_side]
                    outer = max(files) if king_side else min(files)
                    if file_of(s) == outer:
                        letter = "K" if king_side else "Q"
                    else:
                        letter = "ABCDEFGH"[file_of(s)]
                    out += letter if white else letter.lower()
        return out or "-"

    def fen(self, ep: int | None | str = "stored", counters: bool = True) -> bytes:
        """The FEN of 9.4.4's spelling: placement, side, castling, en passant (the stored
        square unless ep is given), halfmove clock and fullmove number (unless counters is
        False)."""
        if ep == "stored":
            ep = self.ep
        fields = [self.placement_field(), "w" if self.white_to_move else "b",
                  self.castling_field(), "-" if ep is None else square_name(ep)]
        if counters:
            fields += [str(self.halfmove), str(self.fullmove)]
        return " ".join(fields).encode("ascii")

    def __repr__(self):
        return f"Position({self.fen().decode()})"

    # -- queries ----------------------------------------------------------------------

    def king_square(self, white: bool) -> int | None:
        if self._kings is None:
            wk = bk = None
            for s, p in enumerate(self.board):
                if p == 6:
                    wk = s
                elif p == 12:
                    bk = s
            self._kings = (wk, bk)
        return self._kings[0 if white else 1]

    def effective_ep(self) -> int | None:
        """5.2 / 5.5: the en passant square if a pawn of the side to move attacks it."""
        if self.ep is None:
            return None
        pawn = piece_code(self.white_to_move, PAWN)
        for s in bits(PAWN_ATT[not self.white_to_move][self.ep]):
            if self.board[s] == pawn:
                return self.ep
        return None

    def identity(self):
        """8.3.3 Runs: pieces, side to move, castling rooks and effective en passant square."""
        return (self.board, self.white_to_move, self.castling, self.effective_ep())

    def in_check(self) -> bool:
        king = self.king_square(self.white_to_move)
        return king is not None and square_attacked(self.board, king, not self.white_to_move)

    def is_castling(self, move: Move) -> bool:
        p = self.board[move.from_sq]
        return ptype_of(p) == KING and self.board[move.to_sq] == piece_code(is_white(p), ROOK)

    def is_capture(self, move: Move) -> bool:
        """7.6.1: en passant, or a non-castling move onto an occupied square."""
        if self.is_castling(move):
            return False
        return self.board[move.to_sq] != EMPTY or self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        return (ptype_of(self.board[move.from_sq]) == PAWN and self.board[move.from_sq] != EMPTY
                and file_of(move.from_sq) != file_of(move.to_sq)
                and self.board[move.to_sq] == EMPTY)

    def landing_square(self, move: Move) -> int:
        """7.6.1: the to-square, but for castling the king's destination (file g or c)."""
        if self.is_castling(move):
            return castling_destinations(move.from_sq, move.to_sq)[0]
        return move.to_sq

    # -- legal moves (5.3, 5.4, section 6) --------------------------------------------

    def legal_moves(self) -> list:
        """The legal moves in the canonical order of section 6 (MOVE-ORDER-1)."""
        if self._moves is None:
            self._moves = self._generate()
        return self._moves

    def _generate(self) -> list:
        board, white = self.board, self.white_to_move
        king = self.king_square(white)
        if king is None:                             # 5.3: no king, no legal moves
            return []
        ours, occ = self._occupancy(white)
        # Only a king move, a move while in check, a move of a pinned piece or an en passant
        # capture can expose the king; the others are legal without testing (an optimisation).
        in_check = square_attacked(board, king, not white)
        pinned = self._pinned(king)
        out = []
        ep = self.effective_ep()
        forward = 8 if white else -8
        start_rank, last_rank = (1, 7) if white else (6, 0)
        for s in range(64):
            p = board[s]
            if p == EMPTY or is_white(p) != white:
                continue
            t = ptype_of(p)
            targets = []
            if t == PAWN:
                one = s + forward
                if board[one] == EMPTY:
                    targets.append(one)
                    two = one + forward
                    if rank_of(s) == start_rank and board[two] == EMPTY:
                        targets.append(two)
                for c in bits(PAWN_ATT[white][s]):
                    q = board[c]
                    if (q != EMPTY and is_white(q) != white) or c == ep:
                        targets.append(c)
            else:
                targets = list(bits(attacks(t, white, s, occ) & ~ours))
            must_test = t == KING or in_check or pinned >> s & 1
            for c in targets:
                if must_test or c == ep:
                    if not self._leaves_king_safe(s, c):
                        continue
                if t == PAWN and rank_of(c) == last_rank:
                    out.extend(Move(s, c, promo) for promo in PROMOTIONS)
                else:
                    out.append(Move(s, c))
        out.extend(self._castling_moves(king))
        out.sort(key=Move.sort_key)
        return out

    def _pinned(self, king: int) -> int:
        """Our pieces that stand alone between our king and an enemy slider that moves along
        that line (for the optimisation in _generate)."""
        board, white = self.board, self.white_to_move
        pinned = 0
        for rays, kinds in ((ROOK_RAYS[king], (ROOK, QUEEN)), (BISHOP_RAYS[king], (BISHOP, QUEEN))):
            enemies = [piece_code(not white, k) for k in kinds]
            for ray in rays:
                blockers = [t for t in ray if board[t]][:2]
                if (len(blockers) == 2 and is_white(board[blockers[0]]) == white
                        and board[blockers[1]] in enemies):
                    pinned |= 1 << blockers[0]
        return pinned

    def _occupancy(self, white: bool) -> tuple:
        """(the squares of the pieces of colour `white`, the squares of all pieces)."""
        ours = occ = 0
        for s, p in enumerate(self.board):
            if p:
                occ |= 1 << s
                if is_white(p) == white:
                    ours |= 1 << s
        return ours, occ

    def _leaves_king_safe(self, s: int, c: int) -> bool:
        """5.3: after the (non-castling) move s -> c the mover's king is not attacked; for en
        passant decided with both pawns moved."""
        board = list(self.board)
        p = board[s]
        if ptype_of(p) == PAWN and file_of(s) != file_of(c) and board[c] == EMPTY:
            board[c - (8 if self.white_to_move else -8)] = EMPTY
        board[c] = p
        board[s] = EMPTY
        king = c if ptype_of(p) == KING else self.king_square(self.white_to_move)
        return not square_attacked(board, king, not self.white_to_move)

    def _castling_moves(self, king: int) -> list:
        """5.4."""
        board, white = self.board, self.white_to_move
        first = 0 if white else 7
        out = []
        for rook in self.castling:
            if rank_of(rook) != first or rank_of(king) != first:
                continue
            if board[rook] != piece_code(white, ROOK) or board[king] != piece_code(white, KING):
                continue
            king_to, rook_to = castling_destinations(king, rook)
            if square_attacked(board, king, not white):
                continue
            must_be_empty = (BETWEEN[king][king_to] | (1 << king_to)
                             | BETWEEN[rook][rook_to] | (1 << rook_to))
            if any(board[q] != EMPTY and q != king and q != rook for q in bits(must_be_empty)):
                continue
            stripped = list(board)
            stripped[king] = stripped[rook] = EMPTY
            path = BETWEEN[king][king_to] | (1 << king) | (1 << king_to)
            if any(square_attacked(stripped, q, not white) for q in bits(path)):
                continue
            out.append(Move(king, rook))
        return out

    # -- playing moves (5.4, 5.5, section 4) ------------------------------------------

    def play(self, move: Move) -> "Position":
        """The position after a legal move (5.4, 5.5)."""
        if self._last_play is not None and self._last_play[0] == move:
            return self._last_play[1]
        after = self._play(move)
        self._last_play = (move, after)
        return after

    def _play(self, move: Move) -> "Position":
        board = list(self.board)
        white = self.white_to_move
        s, c = move.from_sq, move.to_sq
        p = board[s]
        t = ptype_of(p)
        castling = set(self.castling)
        ep = None
        reset = False
        first = 0 if white else 7
        if self.is_castling(move):
            king_to, rook_to = castling_destinations(s, c)
            board[s] = board[c] = EMPTY
            board[king_to] = p
            board[rook_to] = piece_code(white, ROOK)
            castling = {r for r in castling if rank_of(r) != first}
        else:
            captured = board[c]
            if t == PAWN:
                reset = True
                if file_of(s) != file_of(c) and captured == EMPTY:      # en passant
                    board[c - (8 if white else -8)] = EMPTY
                if abs(c - s) == 16:
                    ep = (s + c) // 2
            if captured != EMPTY:
                reset = True
                castling.discard(c)                       # a rook captured on its square
                if ptype_of(captured) == KING:            # 5.3: a captured king's side loses both
                    castling = {r for r in castling if rank_of(r) != 7 - first}
            board[c] = piece_code(white, PROMO_TYPE[move.promotion]) if move.promotion else p
            board[s] = EMPTY
            if t == KING:
                castling = {r for r in castling if rank_of(r) != first}
            castling.discard(s)                           # a rook leaving its square
        halfmove = 0 if reset else (self.halfmove + 1) % 65536
        fullmove = self.fullmove if white else (self.fullmove + 1) % 65536
        return Position(board, not white, castling, ep, halfmove, fullmove)

    def play_null(self) -> "Position":
        """Section 4: the side to move passes."""
        fullmove = self.fullmove if self.white_to_move else (self.fullmove + 1) % 65536
        return Position(self.board, not self.white_to_move, self.castling, None,
                        (self.halfmove + 1) % 65536, fullmove)

    # -- SAN (section 10) ---------------------------------------------------------------

    def san(self, move: Move, after: "Position | None" = None) -> str:
        """SAN as section 10 writes it, with "+" for check and "#" for mate.  `after` may give
        self.play(move) if the caller has it (it saves work)."""
        if after is None:
            after = self.play(move)
        return self.san_body(move) + after.san_suffix()

    def san_body(self, move: Move) -> str:
        """Section 10: the SAN of a move on the board, without its suffix; the pieces told apart
        are the other pieces of the mover's type with a legal move to the same square."""
        board = self.board
        p = board[move.from_sq]
        t = ptype_of(p)
        if self.is_castling(move):
            return "O-O" if move.to_sq > move.from_sq else "O-O-O"
        if t == PAWN:
            text = ""
            if self.is_capture(move):
                text = "abcdefgh"[file_of(move.from_sq)] + "x"
            text += square_name(move.to_sq)
            if move.promotion:
                text += "=" + move.promotion
            return text
        text = PIECE_LETTERS[t]
        rivals = [m.from_sq for m in self.legal_moves()
                  if not m.drop and m.to_sq == move.to_sq and m.from_sq != move.from_sq
                  and board[m.from_sq] == p and not self.is_castling(m)]
        if rivals:
            if all(file_of(r) != file_of(move.from_sq) for r in rivals):
                text += "abcdefgh"[file_of(move.from_sq)]
            elif all(rank_of(r) != rank_of(move.from_sq) for r in rivals):
                text += str(rank_of(move.from_sq) + 1)
            else:
                text += square_name(move.from_sq)
        if self.is_capture(move):
            text += "x"
        return text + square_name(move.to_sq)

    def san_suffix(self) -> str:
        """Section 10: "#" for mate, "+" for check, of a move to this position."""
        if self.in_check():
            return "#" if not self.legal_moves() else "+"
        return ""


def castling_destinations(king: int, rook: int):
    """5.4: (king's destination, rook's destination): files g and f if the rook is on the
    king's side (its square greater than the king's), else c and d, on the king's rank."""
    base = king - file_of(king)
    if rook > king:
        return base + 6, base + 5
    return base + 2, base + 3


def scharnagl_arrangement(a: int) -> list:
    """9.4.4: the first rank (types, files a..h) of Chess960 arrangement a (0 to 959)."""
    rank = [None] * 8
    n = a
    rank[2 * (n % 4) + 1] = BISHOP
    n //= 4
    rank[2 * (n % 4)] = BISHOP
    n //= 4
    free = [f for f in range(8) if rank[f] is None]
    rank[free[n % 6]] = QUEEN
    n //= 6
    free = [f for f in range(8) if rank[f] is None]
    pairs = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
    for i in pairs[n]:
        rank[free[i]] = KNIGHT
    free = [f for f in range(8) if rank[f] is None]
    rank[free[0]], rank[free[1]], rank[free[2]] = ROOK, KING, ROOK
    return rank


# ---------------------------------------------------------------------------------------------
# Variants (format 1.1: 5.6, MOVE-ORDER-2, section 10 under a variant)
# ---------------------------------------------------------------------------------------------
#
# A game under a variant of 5.6 uses a VariantPosition: a Position (the same board, side,
# castling rooks, en passant square and counters) that also knows its variant, the crazyhouse
# pockets, the squares of promoted pieces and the three-check checks still to give.  The
# standard-chess Position above is left exactly as it was; everything that differs under a
# variant is in the methods VariantPosition overrides.

CRAZYHOUSE, ATOMIC, ANTICHESS, THREE_CHECK, KING_OF_THE_HILL, RACING_KINGS, HORDE = range(1, 8)
VARIANT_NAMES = {CRAZYHOUSE: "crazyhouse", ATOMIC: "atomic", ANTICHESS: "antichess",
                 THREE_CHECK: "three-check", KING_OF_THE_HILL: "king of the hill",
                 RACING_KINGS: "racing kings", HORDE: "horde"}
FOLDED_VARIANT_NAMES = {                         # 5.6's table of folded names
    b"crazyhouse": CRAZYHOUSE, b"zh": CRAZYHOUSE, b"house": CRAZYHOUSE,
    b"atomic": ATOMIC, b"atom": ATOMIC,
    b"antichess": ANTICHESS, b"anti": ANTICHESS, b"giveaway": ANTICHESS, b"suicide": ANTICHESS,
    b"threecheck": THREE_CHECK, b"3check": THREE_CHECK, b"threechecks": THREE_CHECK,
    b"3checks": THREE_CHECK,
    b"kingofthehill": KING_OF_THE_HILL, b"koth": KING_OF_THE_HILL,
    b"racingkings": RACING_KINGS, b"racing": RACING_KINGS, b"race": RACING_KINGS,
    b"horde": HORDE,
}

POCKET_LETTERS = "PNBRQ"                 # pawn < knight < bishop < rook < queen (MOVE-ORDER-2)
VARIANT_PROMO_TYPE = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}
HILL = (27, 28, 35, 36)                          # d4, e4, d5, e5
NO_POCKETS = ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0))  # (White's, Black's) counts of P N B R Q

VARIANT_START_FENS = {                           # 5.6.1, without a FEN tag
    ANTICHESS: b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    RACING_KINGS: b"8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
    HORDE: b"rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
}
STANDARD_START_FEN = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def fold_variant_name(value: bytes) -> bytes:
    """5.6: a Variant value folded: ASCII capitals to small letters, every space, tab, `-` and
    `_` removed, then a final `chess` removed if what is left is longer than five bytes and is
    not `antichess`."""
    out = bytes(b + 32 if 0x41 <= b <= 0x5A else b for b in value if b not in b" \t-_")
    if out.endswith(b"chess") and len(out) > 5 and out != b"antichess":
        out = out[:-5]
    return out


def variant_of_name(value: bytes) -> int | None:
    """5.6: the number of the variant a value's folded form names, or None."""
    return FOLDED_VARIANT_NAMES.get(fold_variant_name(value))


def variant_sort_key(move: Move):
    """MOVE-ORDER-2: (from, to, promotion N < B < R < Q < K) as section 6, then the drops after
    every other move by (dropped piece P < N < B < R < Q, square)."""
    if move.drop:
        return (1, POCKET_LETTERS.index(move.drop), move.to_sq, 0)
    return (0, move.from_sq, move.to_sq,
            VARIANT_PROMO_TYPE[move.promotion] + 1 if move.promotion else 0)


def squares_of(board, code: int) -> list:
    """The squares, ascending, that hold the piece code `code`."""
    return [s for s in range(64) if board[s] == code]


def variant_in_check(variant: int, board, white: bool) -> bool:
    """5.6.2: a side is in check if it has a king and one of its kings is attacked by the other
    side; never in antichess; in atomic not while its king stands next to the other side's."""
    if variant == ANTICHESS:
        return False
    kings = squares_of(board, piece_code(white, KING))
    if not kings:
        return False
    if variant == ATOMIC:
        theirs = squares_of(board, piece_code(not white, KING))
        if any(KING_ATT[k] >> t & 1 for k in kings for t in theirs):
            return False
    return any(square_attacked(board, k, not white) for k in kings)


class VariantPosition(Position):
    """A position of a game under a variant of 5.6.  Immutable, as Position.

    variant: 1 to 7 (5.6's numbers); pockets: (White's, Black's) counts of pawns, knights,
    bishops, rooks and queens (crazyhouse); promoted: the squares of promoted pieces as a bit
    set (crazyhouse); checks: (White's, Black's) checks still to give (three-check; 3 and 3 in
    the other variants, where they mean nothing).
    """

    __slots__ = ("variant", "pockets", "promoted", "checks", "_king_lists")

    def __init__(self, variant, board, white_to_move, castling, ep, halfmove, fullmove,
                 pockets=NO_POCKETS, promoted=0, checks=(3, 3)):
        super().__init__(board, white_to_move, castling, ep, halfmove, fullmove)
        self.variant = variant
        self.pockets = pockets
        self.promoted = promoted
        self.checks = checks
        self._king_lists = None

    # -- construction (5.6.1) -----------------------------------------------------------

    @staticmethod
    def start(variant: int) -> "VariantPosition":
        """5.6.1: the variant's start position (without a FEN tag)."""
        position = VariantPosition.from_fen(VARIANT_START_FENS.get(variant, STANDARD_START_FEN),
                                            variant)
        assert position is not None
        return position

    @staticmethod
    def from_fen(text: bytes, variant: int) -> "VariantPosition | None":
        """5.2 with the changes of 5.6.1 [START-2]: the position of a FEN under `variant`, or
        None if it is invalid."""
        fields = [field for field in re.split(rb"[ \t]+", text) if field]
        checks = (3, 3)
        if variant == THREE_CHECK:
            # `W+B` as the fifth field (checks still to give), or `+W+B` as the seventh, after
            # both counters (checks given); without one, three each.
            if len(fields) >= 5 and re.fullmatch(rb"[0-3]\+[0-3]", fields[4]):
                checks = (fields[4][0] - 48, fields[4][2] - 48)
                del fields[4]
            elif len(fields) == 7 and re.fullmatch(rb"\+[0-3]\+[0-3]", fields[6]):
                checks = (3 - (fields[6][1] - 48), 3 - (fields[6][3] - 48))
                del fields[6]
        if not 4 <= len(fields) <= 6:
            return None
        placement, side, castle, ep = fields[:4]
        counters = counter_fields(fields[4:])
        if counters is None:
            return None
        halfmove, fullmove = counters
        # Crazyhouse: the pocket, `[...]` after the placement or a ninth rank
        pockets = NO_POCKETS
        if variant == CRAZYHOUSE:
            pocket = b""
            if placement.endswith(b"]"):
                open_at = placement.find(b"[")
                if open_at < 0:
                    return None
                placement, pocket = placement[:open_at], placement[open_at + 1:-1]
            elif placement.count(b"/") == 8:
                placement, pocket = placement.rsplit(b"/", 1)
            counts = [[0] * 5, [0] * 5]
            for ch in pocket:
                c = chr(ch)
                if c not in "PNBRQpnbrq":
                    return None
                counts[0 if c.isupper() else 1][POCKET_LETTERS.index(c.upper())] += 1
            if max(counts[0] + counts[1]) > 64:
                return None
            pockets = (tuple(counts[0]), tuple(counts[1]))
        # Placement; `~` after a piece other than a pawn or a king marks it promoted (crazyhouse)
        read = read_placement(placement, variant == CRAZYHOUSE)
        if read is None:
            return None
        board, promoted = read
        # Kings: antichess any number, horde none for White and one for Black, else one each;
        # no bound of 16 pieces a colour
        white_kings = len(squares_of(board, piece_code(True, KING)))
        black_kings = len(squares_of(board, piece_code(False, KING)))
        if variant == HORDE:
            if white_kings != 0 or black_kings != 1:
                return None
        elif variant != ANTICHESS:
            if white_kings != 1 or black_kings != 1:
                return None
        # No pawn on rank 1 or 8, but horde's White pawns on rank 1
        for s in list(range(8)) + list(range(56, 64)):
            p = board[s]
            if p and ptype_of(p) == PAWN and not (variant == HORDE and s < 8 and is_white(p)):
                return None
        # Side to move; the side not to move must not be in check as the variant counts checks
        if side not in (b"w", b"b"):
            return None
        white_to_move = side == b"w"
        if variant_in_check(variant, board, not white_to_move):
            return None
        # Castling: as 5.2, the right needing exactly one king of its colour (antichess)
        def single_king(white):
            kings = squares_of(board, piece_code(white, KING))
            return kings[0] if len(kings) == 1 else None
        castling = castling_rights(castle, board, single_king)
        if castling is None:
            return None
        # En passant: as 5.2
        valid, ep_sq = en_passant_field(ep, board, white_to_move)
        if not valid:
            return None
        return VariantPosition(variant, board, white_to_move, castling, ep_sq, halfmove,
                               fullmove, pockets, promoted, checks)

    # -- FEN (for messages and tests; no stored FEN depends on it) -------------------------

    def fen(self, ep: int | None | str = "stored", counters: bool = True) -> bytes:
        """A FEN in the spelling of 9.4.4, with 5.6.1's additions: the crazyhouse pocket in
        `[...]` and `~` after promoted pieces, the three-check checks still to give as the
        fifth field `W+B`."""
        placement = self.placement_field(self.promoted)
        if self.variant == CRAZYHOUSE:
            pocket = "".join(POCKET_LETTERS[t] * self.pockets[0][t] for t in range(5))
            pocket += "".join(POCKET_LETTERS[t].lower() * self.pockets[1][t] for t in range(5))
            placement += "[" + pocket + "]"
        if ep == "stored":
            ep = self.ep
        fields = [placement, "w" if self.white_to_move else "b", self.castling_field(),
                  "-" if ep is None else square_name(ep)]
        if self.variant == THREE_CHECK:
            fields.append(f"{self.checks[0]}+{self.checks[1]}")
        if counters:
            fields += [str(self.halfmove), str(self.fullmove)]
        return " ".join(fields).encode("ascii")

    def __repr__(self):
        return f"VariantPosition({VARIANT_NAMES[self.variant]}, {self.fen().decode()})"

    # -- queries ----------------------------------------------------------------------

    def kings(self, white: bool) -> list:
        """The squares of a side's kings (antichess may have several, horde's White none)."""
        if self._king_lists is None:
            self._king_lists = (squares_of(self.board, 6), squares_of(self.board, 12))
        return self._king_lists[0 if white else 1]

    def king_square(self, white: bool) -> int | None:
        """A side's king (for castling_field): the one on its first rank if there is one (the
        castling king, see _variant_castling_moves), else its first by square, else None."""
        kings = self.kings(white)
        first = [k for k in kings if rank_of(k) == (0 if white else 7)]
        return (first or kings or [None])[0]

    def in_check(self) -> bool:
        """5.6.2: whether the side to move is in check as the variant counts checks."""
        return variant_in_check(self.variant, self.board, self.white_to_move)

    def is_over(self) -> bool:
        """5.6.2: a position that is over has no legal move."""
        v, board = self.variant, self.board
        if v == ATOMIC:
            return not self.kings(True) or not self.kings(False)
        if v in (ANTICHESS, HORDE):
            return (not any(p and is_white(p) for p in board)
                    or not any(p and not is_white(p) for p in board))
        if v == THREE_CHECK:
            return 0 in self.checks
        if v == KING_OF_THE_HILL:
            return any(board[s] in (6, 12) for s in HILL)
        if v == RACING_KINGS:
            white_there = any(rank_of(k) == 7 for k in self.kings(True))
            black_there = any(rank_of(k) == 7 for k in self.kings(False))
            if not white_there and not black_there:
                return False
            if white_there and not black_there and not self.white_to_move:
                # Black may still reach rank 8 next: a square next to its king on rank 8 that
                # holds no black piece and that White does not attack
                for k in self.kings(False):
                    for q in KING_SQUARES[k]:
                        if (rank_of(q) == 7 and not (board[q] and not is_white(board[q]))
                                and not square_attacked(board, q, True)):
                            return False
            return True
        return False

    def is_castling(self, move: Move) -> bool:
        return move.drop is None and super().is_castling(move)

    def is_en_passant(self, move: Move) -> bool:
        return move.drop is None and super().is_en_passant(move)

    def is_capture(self, move: Move) -> bool:
        """5.6.2: a move whose to-square holds an enemy piece, or an en passant capture (never
        castling, never a drop)."""
        return move.drop is None and super().is_capture(move)

    def landing_square(self, move: Move) -> int:
        return move.to_sq if move.drop else super().landing_square(move)

    # -- legal moves (5.6.2, MOVE-ORDER-2) ----------------------------------------------

    def _generate(self) -> list:
        """The legal moves in the order of MOVE-ORDER-2 (5.6.2): none if the position is over;
        else the moves of 5.3, castling and drops whose position after (5.6.3) the variant
        allows; in antichess only the captures where there is one."""
        if self.is_over():
            return []
        candidates = self._board_moves() + self._variant_castling_moves() + self._drops()
        if self.variant == ANTICHESS:
            captures = [m for m in candidates if self.is_capture(m)]
            out = captures or candidates
        else:
            out = [m for m in candidates if self._allowed_after(self._apply(m)[0])]
        out.sort(key=variant_sort_key)
        return out

    def _board_moves(self) -> list:
        """The moves of the side to move's pieces as in 5.3, before the variant's test: pawns
        one step, two steps from their second rank or (horde) their first, captures and the
        effective en passant square; promotions to N, B, R, Q and, in antichess, K."""
        board, white = self.board, self.white_to_move
        ours, occ = self._occupancy(white)
        ep = self.effective_ep()
        forward = 8 if white else -8
        first_rank, start_rank, last_rank = (0, 1, 7) if white else (7, 6, 0)
        promotions = PROMOTIONS + ("K",) if self.variant == ANTICHESS else PROMOTIONS
        out = []
        for s in range(64):
            p = board[s]
            if p == EMPTY or is_white(p) != white:
                continue
            t = ptype_of(p)
            if t == PAWN:
                targets = []
                one = s + forward
                if board[one] == EMPTY:
                    targets.append(one)
                    two = one + forward
                    if rank_of(s) in (start_rank, first_rank) and board[two] == EMPTY:
                        targets.append(two)
                for c in bits(PAWN_ATT[white][s]):
                    q = board[c]
                    if (q != EMPTY and is_white(q) != white) or c == ep:
                        targets.append(c)
                for c in targets:
                    if rank_of(c) == last_rank:
                        out.extend(Move(s, c, promo) for promo in promotions)
                    else:
                        out.append(Move(s, c))
            else:
                out.extend(Move(s, c) for c in bits(attacks(t, white, s, occ) & ~ours))
        return out

    def _variant_castling_moves(self) -> list:
        """5.6.2's castling: a right for the rook; the squares of 5.4 empty but for the king
        and the rook; no square from the king's square K to its destination (the destination
        excluded unless it is K) attacked by the opponent, with the king removed from the board
        and the rook on its square (antichess: none counts as attacked; atomic: none next to
        the opponent's king).  The king's own safety on its destination is tested after the
        move, as for every move.  The king is the side's king on its first rank (5.4: "king on
        square K, on first rank r"); antichess may have more kings, but a promoted one stands on
        the far rank and any king's move loses the rights, so that one is unique.  (5.6 does not
        say which king castles; a first reading, that castling needs exactly one king of the
        colour as 5.6.1 asks of a FEN's right, refused castlings pgnarc codes: see README.)"""
        board, white, v = self.board, self.white_to_move, self.variant
        first = 0 if white else 7
        kings = [k for k in self.kings(white) if rank_of(k) == first]
        if len(kings) != 1:
            return []
        king = kings[0]
        out = []
        for rook in self.castling:
            if rank_of(rook) != first or rank_of(king) != first:
                continue
            if board[rook] != piece_code(white, ROOK):
                continue
            king_to, rook_to = castling_destinations(king, rook)
            must_be_empty = (BETWEEN[king][king_to] | (1 << king_to)
                             | BETWEEN[rook][rook_to] | (1 << rook_to))
            if any(board[q] != EMPTY and q != king and q != rook for q in bits(must_be_empty)):
                continue
            if v != ANTICHESS:
                without_king = list(board)
                without_king[king] = EMPTY
                their_kings = self.kings(not white)
                path = (1 << king) | BETWEEN[king][king_to]
                attacked = False
                for q in bits(path):
                    if v == ATOMIC and any(KING_ATT[k] >> q & 1 for k in their_kings):
                        continue                  # next to the opponent's king: not attacked
                    if square_attacked(without_king, q, not white):
                        attacked = True
                        break
                if attacked:
                    continue
            out.append(Move(king, rook))
        return out

    def _drops(self) -> list:
        """5.6.2: (crazyhouse) a piece of the side to move's pocket on an empty square, a pawn
        not on rank 1 or 8."""
        if self.variant != CRAZYHOUSE:
            return []
        pocket = self.pockets[0 if self.white_to_move else 1]
        out = []
        for t, letter in enumerate(POCKET_LETTERS):
            if pocket[t] == 0:
                continue
            for s in range(64):
                if self.board[s] == EMPTY and not (t == PAWN and rank_of(s) in (0, 7)):
                    out.append(Move(None, s, None, letter))
        return out

    def _allowed_after(self, board) -> bool:
        """5.6.2: whether the board after a move of the side to move (M) is one the variant
        allows (antichess: every one, captures aside)."""
        v, white = self.variant, self.white_to_move
        ours = squares_of(board, piece_code(white, KING))
        if v == ATOMIC:
            if not ours:
                return False
            theirs = squares_of(board, piece_code(not white, KING))
            if not theirs or KING_ATT[ours[0]] >> theirs[0] & 1:
                return True
            return not square_attacked(board, ours[0], not white)
        if v == RACING_KINGS:
            theirs = squares_of(board, piece_code(not white, KING))
            return (not any(square_attacked(board, k, not white) for k in ours)
                    and not any(square_attacked(board, k, white) for k in theirs))
        # crazyhouse, three-check, king of the hill, horde: no king (horde's White), or safe
        return not any(square_attacked(board, k, not white) for k in ours)

    # -- playing moves (5.6.3) --------------------------------------------------------

    def _apply(self, move: Move) -> tuple:
        """5.6.3 but the three-check count and the counters: (board, castling, en passant
        square, whether the halfmove clock resets, pockets, promoted)."""
        board = list(self.board)
        white, v = self.white_to_move, self.variant
        us = 0 if white else 1
        castling = set(self.castling)
        pockets = self.pockets
        promoted = self.promoted
        first = 0 if white else 7
        ep = None
        reset = False
        if move.drop:                                 # a drop: no en passant square
            t = POCKET_LETTERS.index(move.drop)
            board[move.to_sq] = piece_code(white, t)
            mine = list(pockets[us])
            mine[t] -= 1
            pockets = (tuple(mine), pockets[1]) if white else (pockets[0], tuple(mine))
            return board, castling, None, t == PAWN, pockets, promoted
        s, c = move.from_sq, move.to_sq
        p = board[s]
        t = ptype_of(p)
        if self.is_castling(move):                    # 5.4; a promoted rook stays promoted
            king_to, rook_to = castling_destinations(s, c)
            board[s] = board[c] = EMPTY
            board[king_to] = p
            board[rook_to] = piece_code(white, ROOK)
            castling = {r for r in castling if rank_of(r) != first}
            king_mark, rook_mark = promoted >> s & 1, promoted >> c & 1
            promoted &= ~((1 << s) | (1 << c))
            promoted |= (king_mark << king_to) | (rook_mark << rook_to)
            return board, castling, None, False, pockets, promoted
        captured_sq, captured = c, board[c]
        if t == PAWN:
            reset = True
            if file_of(s) != file_of(c) and captured == EMPTY:      # en passant
                captured_sq = c - (8 if white else -8)
                captured = board[captured_sq]
                board[captured_sq] = EMPTY
            if abs(c - s) == 16 and rank_of(s) != first:            # not horde's first rank
                ep = (s + c) // 2
        if captured != EMPTY:
            reset = True
            castling.discard(captured_sq)             # a rook captured on its square
            if ptype_of(captured) == KING:            # a captured king: both rights of its side
                castling = {r for r in castling if rank_of(r) != 7 - first}
            if v == CRAZYHOUSE:                       # into the captor's pocket
                taken = PAWN if promoted >> captured_sq & 1 else ptype_of(captured)
                if taken != KING:                     # (a pocket holds no king: see README)
                    mine = list(pockets[us])
                    mine[taken] += 1
                    pockets = (tuple(mine), pockets[1]) if white else (pockets[0], tuple(mine))
            promoted &= ~(1 << captured_sq)
        moved_mark = promoted >> s & 1
        promoted &= ~(1 << s)
        board[c] = piece_code(white, VARIANT_PROMO_TYPE[move.promotion]) if move.promotion else p
        board[s] = EMPTY
        if v == CRAZYHOUSE and (move.promotion or moved_mark):
            promoted |= 1 << c
        if t == KING:
            castling = {r for r in castling if rank_of(r) != first}
        castling.discard(s)                           # a rook leaving its square
        if v == ATOMIC and captured != EMPTY:         # the explosion
            board[c] = EMPTY
            for q in KING_SQUARES[c]:
                x = board[q]
                if x == EMPTY or ptype_of(x) == PAWN:
                    continue
                if ptype_of(x) == ROOK:
                    castling.discard(q)
                elif ptype_of(x) == KING:
                    side_first = 0 if is_white(x) else 7
                    castling = {r for r in castling if rank_of(r) != side_first}
                board[q] = EMPTY
        return board, castling, ep, reset, pockets, promoted

    def _play(self, move: Move) -> "VariantPosition":
        """5.6.3 (with 5.4, 5.5): the position after a legal move."""
        board, castling, ep, reset, pockets, promoted = self._apply(move)
        white = self.white_to_move
        checks = self.checks
        if self.variant == THREE_CHECK and variant_in_check(THREE_CHECK, board, not white):
            checks = (max(0, checks[0] - 1), checks[1]) if white else (checks[0],
                                                                       max(0, checks[1] - 1))
        halfmove = 0 if reset else (self.halfmove + 1) % 65536
        fullmove = self.fullmove if white else (self.fullmove + 1) % 65536
        return VariantPosition(self.variant, board, not white, castling, ep, halfmove, fullmove,
                               pockets, promoted, checks)

    def play_null(self) -> "VariantPosition":
        """Section 4: the side to move passes (pockets, promoted pieces and checks unchanged)."""
        fullmove = self.fullmove if self.white_to_move else (self.fullmove + 1) % 65536
        return VariantPosition(self.variant, self.board, not self.white_to_move, self.castling,
                               None, (self.halfmove + 1) % 65536, fullmove, self.pockets,
                               self.promoted, self.checks)

    # -- SAN (section 10 under a variant) -----------------------------------------------

    def san(self, move: Move, after: "VariantPosition | None" = None) -> str:
        """Section 10 under a variant: drops `N@f3`, `P@e4`, else as in standard chess (`=K`
        too; the pieces told apart include kings); the suffix of san_suffix."""
        if after is None:
            after = self.play(move)
        body = move.drop + "@" + square_name(move.to_sq) if move.drop else self.san_body(move)
        return body + after.san_suffix()

    def san_suffix(self) -> str:
        """Section 10 under a variant: "#" where the side to move has no legal move and the game
        has a winner (ended_with_winner), else "+" in check as 5.6.2 counts checks."""
        if not self.legal_moves() and self.ended_with_winner():
            return "#"
        return "+" if self.in_check() else ""

    def ended_with_winner(self) -> bool:
        """Section 10: whether a game whose side to move has no legal move has a winner (the
        `#` of SAN): checkmate; under antichess always (the side left without a move wins); under
        atomic, three-check, king of the hill and horde where the position is over; under racing
        kings where it is over and not both kings are on rank 8 (a draw); not a stalemate."""
        if self.in_check():
            return True
        v = self.variant
        if v == ANTICHESS:
            return True
        if v == RACING_KINGS:
            both = (any(rank_of(k) == 7 for k in self.kings(True))
                    and any(rank_of(k) == 7 for k in self.kings(False)))
            return self.is_over() and not both
        if v in (ATOMIC, THREE_CHECK, KING_OF_THE_HILL, HORDE):
            return self.is_over()
        return False

    def uci(self, move: Move) -> str:
        """UCI of a move (for tests against `pgnarc perft --divide`): drops `N@f3`, castling as
        king takes own rook."""
        if move.drop:
            return move.drop + "@" + square_name(move.to_sq)
        return (square_name(move.from_sq) + square_name(move.to_sq)
                + (move.promotion.lower() if move.promotion else ""))


# ---------------------------------------------------------------------------------------------
# History (7.6.1)
# ---------------------------------------------------------------------------------------------

class LastMove(NamedTuple):
    from_sq: int
    to_sq: int          # the landing square (7.6.1)
    ptype: int          # the type of the piece that stood on from_sq
    capture: bool


class OurMove(NamedTuple):
    from_sq: int
    to_sq: int
    capture: bool


class History(NamedTuple):
    """7.6.1: last (the opponent's ply just before) and ours (the ply before that)."""
    last: LastMove | None
    ours: OurMove | None


NO_HISTORY = History(None, None)


def history_after(history: History, position: Position, move: Move | None) -> History:
    """7.6.1 history_after(h, position, m); move None is a null move.  Under a variant the
    history is kept in the same way (MOVE-CODER-1); a drop lands on its square, does not
    capture and has no `last.type` (None; its square is empty before it), and its from-square
    is taken to be its square as 7.7 takes it (nothing reads a drop's from-square)."""
    if move is None:
        return NO_HISTORY
    if move.drop:
        last = LastMove(move.to_sq, move.to_sq, None, False)
    else:
        last = LastMove(move.from_sq, position.landing_square(move),
                        ptype_of(position.board[move.from_sq]), position.is_capture(move))
    ours = None
    if history.last is not None:
        ours = OurMove(history.last.from_sq, history.last.to_sq, history.last.capture)
    return History(last, ours)


# ---------------------------------------------------------------------------------------------
# Move coders (7.5) and the end symbol (7.1)
# ---------------------------------------------------------------------------------------------

UNIFORM, MODEL, FAST = 0, 1, 2
UNIFORM_VARIANTS = (ATOMIC, ANTICHESS, RACING_KINGS, HORDE)


def variant_of(position: Position) -> int:
    """The variant a position is under (5.6's number), 0 for standard chess and Chess960."""
    return position.variant if isinstance(position, VariantPosition) else 0


def ply_coder(coder: int, position: Position) -> int:
    """7.5 [MOVE-CODER-1]: the coder whose frequencies and end a ply at `position` has in a block
    of move coder `coder`: the block's, except that in a block of the model coder or of the fast
    coder (format 1.2) atomic, antichess, racing kings and horde keep the uniform coder's, and so
    does a ply of three-check or king of the hill whose side to move has no king. (In such a
    block, three-check and king of the hill have the block's model's frequencies, crazyhouse the
    crazyhouse model's under either coder: move_frequencies tells them apart.)"""
    if coder not in (UNIFORM, MODEL, FAST):
        raise FormatError("unsupported", "BLOCK-1", f"move coder {coder}")
    variant = variant_of(position)
    if coder != UNIFORM and variant in UNIFORM_VARIANTS:
        return UNIFORM
    if (coder != UNIFORM and variant in (THREE_CHECK, KING_OF_THE_HILL)
            and position.king_square(position.white_to_move) is None):
        return UNIFORM
    return coder


def move_frequencies(coder: int, position: Position, history: History, moves=None) -> list:
    """f_0 .. f_{n-1} of 7.1: the frequencies of the legal moves (section 6 order, MOVE-ORDER-2
    under a variant) in a block of move coder `coder` (7.5): 4096 each (uniform); in a block of
    the model coder, the move model's (7.6) for standard chess, Chess960, three-check and king
    of the hill; in a block of the fast coder, the fast model's (7.8) for the same; under either,
    the crazyhouse model's (7.7) for crazyhouse, and 4096 each for the other variants and for a
    kingless side to move in three-check or king of the hill (MOVE-CODER-1)."""
    if moves is None:
        moves = position.legal_moves()
    c = ply_coder(coder, position)
    if c == UNIFORM:
        return [4096] * len(moves)
    if variant_of(position) == CRAZYHOUSE:
        return crazyhouse_frequencies(position, history, moves)
    if c == FAST:
        return fast_frequencies(position, history, moves)     # also three-check, king of the hill
    return model_frequencies(position, history, moves)         # also three-check, king of the hill


def end_frequency(coder: int, total: int, p: int, position: Position) -> int:
    """7.1 MOVE-SYM-2: end_frequency(S, p), S the total of the legal moves' frequencies, in a
    block of move coder `coder` at `position` (MOVE-CODER-1): the hazard H of 7.6.4 under the
    model and the fast coder alike."""
    if ply_coder(coder, position) in (MODEL, FAST):
        return max(1, total * HAZARD[min(p, 255)] // 2 ** 16)
    return max(1, total // 256)


# ---------------------------------------------------------------------------------------------
# The move model (7.6)
# ---------------------------------------------------------------------------------------------

def frequency_of_score_gap(d: int) -> int:
    """MOVE-MODEL-1 step 3: f = max(1, E[d mod 16] div 2^(d div 16)) for d < 192, else 1."""
    if d >= 192:
        return 1
    return max(1, E[d % 16] >> (d // 16))


def frequencies_of_scores(scores: list) -> list:
    """MOVE-MODEL-1 step 3: f_i from d_i = best - score_i."""
    if not scores:
        return []
    best = max(scores)
    return [frequency_of_score_gap(best - s) for s in scores]


def model_frequencies(position: Position, history: History, moves: list) -> list:
    """MOVE-MODEL-1: frequencies from the scores of the moves' features."""
    if not moves:
        return []
    return frequencies_of_scores(model_scores(position, history, moves))


def bit_count(bb: int) -> int:
    """The number of squares of a bit set."""
    return bb.bit_count()


DIST = [[max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b))) for b in range(64)]
        for a in range(64)]


def dist(a: int, b: int | None) -> int:
    """7.6.2: king distance; 8 when b is none."""
    return 8 if b is None else DIST[a][b]


def wing(k: int | None) -> int:
    """7.6.2: 0 on files a-c, 1 on d-e, 2 on f-h; 1 without a king."""
    if k is None:
        return 1
    f = file_of(k)
    return 0 if f <= 2 else (1 if f <= 4 else 2)


class Facts:
    """The facts of a position that the model computes once (7.6.2); the crazyhouse model
    (7.7) uses them too, taken on the board of a crazyhouse position."""

    def __init__(self, position: Position, history: History):
        board = position.board
        us = position.white_to_move
        them = not us
        self.us = us
        self.history = history
        # piece sets by colour and type
        pieces = {True: [0] * 6, False: [0] * 6}
        for s, p in enumerate(board):
            if p:
                pieces[is_white(p)][ptype_of(p)] |= 1 << s
        self.board = board
        self.pieces = pieces
        self.our = pieces[us]
        self.their = pieces[them]
        self.ours = sum(self.our)                   # "ours": the squares of our pieces
        self.theirs = sum(self.their)
        self.O = occ = self.ours | self.theirs
        # phase
        n = 0
        for side in (True, False):
            n += (bit_count(pieces[side][KNIGHT]) + bit_count(pieces[side][BISHOP])
                  + 2 * bit_count(pieces[side][ROOK]) + 4 * bit_count(pieces[side][QUEEN]))
        m = position.fullmove
        if n >= 20 and m <= 10:
            self.phase = 0
        elif n >= 20 and m <= 20:
            self.phase = 1
        elif n >= 16:
            self.phase = 2
        elif n >= 8:
            self.phase = 3
        else:
            self.phase = 4
        self.ourK = position.king_square(us)
        self.theirK = position.king_square(them)
        # A[x] and A: their attacks
        self.A_of = [0] * 6
        for x in range(6):
            for s in bits(self.their[x]):
                self.A_of[x] |= attacks(x, them, s, occ)
        A_ = self.A_of
        self.A = A = A_[0] | A_[1] | A_[2] | A_[3] | A_[4] | A_[5]
        self.lower = [0, A_[0], A_[0], A_[0] | A_[1] | A_[2],
                      A_[0] | A_[1] | A_[2] | A_[3], A]
        # once, twice, ourPawnAtt; and each of our pieces' own attacks
        once = twice = 0
        self.own = {}
        for x in range(6):
            for s in bits(self.our[x]):
                att = attacks(x, us, s, occ)
                self.own[s] = att
                twice |= once & att
                once |= att
        self.once, self.twice = once, twice
        self.ourPawnAtt = 0
        for s in bits(self.our[PAWN]):
            self.ourPawnAtt |= self.own[s]
        self.inCheck = self.ourK is not None and bool(A >> self.ourK & 1)
        # checkSq[x] and discoverers
        tk = self.theirK
        if tk is not None:
            b_att = bishop_attacks(tk, occ)
            r_att = rook_attacks(tk, occ)
            self.checkSq = [PAWN_ATT[them][tk], KNIGHT_ATT[tk], b_att, r_att, b_att | r_att, 0]
            self.discoverers = 0
            for rays, kinds in ((ROOK_RAYS[tk], (ROOK, QUEEN)), (BISHOP_RAYS[tk], (BISHOP, QUEEN))):
                for ray in rays:
                    blockers = [t for t in ray if occ >> t & 1][:2]
                    if (len(blockers) == 2 and self.ours >> blockers[0] & 1
                            and board[blockers[1]] in [piece_code(us, k) for k in kinds]):
                        self.discoverers |= 1 << blockers[0]
            self.zone = KING_ATT[tk]
        else:
            self.checkSq = [0] * 6
            self.discoverers = 0
            self.zone = 0
        # higher[x], undefended
        T = self.their
        self.higher = [T[KNIGHT] | T[BISHOP] | T[ROOK] | T[QUEEN], T[ROOK] | T[QUEEN],
                       T[ROOK] | T[QUEEN], T[QUEEN], 0, 0]
        self.undefended = (self.theirs & ~T[KING]) & ~A
        # lastAtt
        self.lastAtt = 0
        last = history.last
        if last is not None:
            p = board[last.to_sq]
            if p and is_white(p) == them:
                self.lastAtt = attacks(ptype_of(p), them, last.to_sq, occ)
        # passed
        self.passed = 0
        for s in bits(self.our[PAWN]):
            f = file_of(s)
            if not (T[PAWN] & (FILE_BB[f] | ADJ_FILES_BB[f]) & AHEAD[us][s]):
                self.passed |= 1 << s
        # castleRooks
        self.castleRooks = 0
        for s in position.castling:
            if board[s] == piece_code(us, ROOK):
                self.castleRooks |= 1 << s
        # kicks
        kicks = 0
        for s in bits(T[PAWN]):
            one = s + (8 if them else -8)
            if 0 <= one < 64 and not occ >> one & 1:
                kicks |= PAWN_ATT[them][one]
        self.kicks = kicks & ~A_[PAWN]
        # kingDanger
        n = bit_count(KING_ATT[self.ourK] & A) if self.ourK is not None else 0
        self.kingDanger = 0 if n == 0 else (1 if n <= 2 else 2)
        # H1, H2: our two most valuable pieces en prise, with their classes
        en_prise = []
        for x in (QUEEN, ROOK, BISHOP, KNIGHT, PAWN):
            for s in bits(self.our[x]):
                if self.lower[x] >> s & 1 or (A >> s & 1 and not once >> s & 1):
                    en_prise.append((s, PIECE_CLASS[x]))
        self.H1 = en_prise[0] if len(en_prise) > 0 else None
        self.H2 = en_prise[1] if len(en_prise) > 1 else None
        self.ourSliders = self.our[BISHOP] | self.our[ROOK] | self.our[QUEEN]
        self.our_wing, self.their_wing = wing(self.ourK), wing(self.theirK)


PIECE_CLASS = (1, 2, 2, 3, 4, None)     # 7.6.2: class of a pawn, knight, bishop, rook, queen


def vc(squares: int, side_pieces: list) -> int:
    """7.6.2 vc(S, side): 3 queen, 2 rook, 1 knight or bishop, else 0."""
    if squares & side_pieces[QUEEN]:
        return 3
    if squares & side_pieces[ROOK]:
        return 2
    if squares & (side_pieces[KNIGHT] | side_pieces[BISHOP]):
        return 1
    return 0


def rel(s: int, white: bool) -> int:
    """7.6.2 rel(s)."""
    return s if white else s ^ 56


def see(f: Facts, to: int, moved: int, captured: int, occ: int) -> int:
    """7.6.5 see(to, moved, captured, occ)."""
    P = f.pieces
    bishops_queens = P[True][BISHOP] | P[True][QUEEN] | P[False][BISHOP] | P[False][QUEEN]
    rooks_queens = P[True][ROOK] | P[True][QUEEN] | P[False][ROOK] | P[False][QUEEN]
    attackers = ((P[True][PAWN] & PAWN_ATT[False][to]) | (P[False][PAWN] & PAWN_ATT[True][to])
                 | ((P[True][KNIGHT] | P[False][KNIGHT]) & KNIGHT_ATT[to])
                 | ((P[True][KING] | P[False][KING]) & KING_ATT[to])
                 | (bishops_queens & bishop_attacks(to, occ))
                 | (rooks_queens & rook_attacks(to, occ))) & occ
    gain = [captured]
    on_to = moved
    side = not f.us
    d = 0
    while True:
        mine = attackers & sum(P[side])
        if not mine:
            break
        for y in range(6):
            if mine & P[side][y]:
                break
        s = next(bits(mine & P[side][y]))
        d += 1
        gain.append(on_to - gain[d - 1])
        on_to = VALUE[y]
        occ &= ~(1 << s)
        if y != KNIGHT and y != KING:
            attackers |= ((bishops_queens & bishop_attacks(to, occ))
                          | (rooks_queens & rook_attacks(to, occ)))
        attackers &= occ
        side = not side
    for j in range(d, 0, -1):
        gain[j - 1] = min(gain[j - 1], -gain[j])
    return gain[0]


# Feature group offsets as 7.6.5 names them; checked against the appendix's group table below.
G_TO = 0
G_FROM = 1920
G_CAPTURE = 3840
G_TO_SAFETY = 3900
G_FROM_SAFETY = 3924
G_CHECK = 3948
G_THREAT = 3966
G_RECAPTURE = 3978
G_EVADE = 3984
G_IN_CHECK = 3990
G_PROMOTION = 3996
G_CASTLING = 4000
G_PASSED = 4002
G_KING_SHIELD = 4010
G_CASTLING_LOSS = 4011
G_KING_DISTANCE = 4013
G_EXCHANGE = 4067
G_OTHER_EN_PRISE = 4295
G_DEFENDS_EN_PRISE = 4343
G_MOVED_LAST = 4347
G_STRAIGHT_BACK = 4353
G_NEAR_LAST = 4359
G_FROM_NEAR_LAST = 4413
G_NEAR_OURS = 4467
G_MOBILITY = 4521
G_KING_ZONE = 4617
G_TO_THEIR_WING = 4635
G_FORK = 5787
G_THREAT_VALUE = 5793
G_FROM_ATTACKED = 5817
G_CHECK_LOSING = 5889
G_TARGETS = 5895
G_LEAVES = 5991
G_AFTER_THEIR_CAPTURE = 6015
G_AFTER_OUR_CAPTURE = 6027
G_REPLY = 6039
G_VERSUS_LAST = 6075
G_FILE = 6087
G_PAWN_SHAPE = 6091
G_FROM_THEIR_WING = 6094
G_MOBILITY_FROM = 7246
G_KING_DANGER = 7342
G_OUTPOST = 7354
G_KICK = 7356
G_TO_OUR_WING = 7362

_USED_OFFSETS = {v for k, v in globals().items() if k.startswith("G_")}
assert _USED_OFFSETS == set(GROUPS), "7.6.5 offsets differ from the appendix's groups"


def piece_features(f: Facts, s: int, moves: list) -> list:
    """7.6.5 piece features of our piece on s, whose legal moves are `moves`."""
    x = t = ptype_of(f.board[s])
    us = f.us
    bit = 1 << s
    last, ours = f.history.last, f.history.ours
    own = f.own[s]
    out = [G_FROM + (f.phase * 6 + t) * 64 + rel(s, us)]
    if f.lower[x] & bit:
        c = 2
    elif not f.A & bit:
        c = 0
    elif f.once & bit:
        c = 1
    else:
        c = 3
    out.append(G_FROM_SAFETY + t * 4 + c)
    if f.A & bit:
        y = next(i for i in range(6) if f.A_of[i] & bit)
        out.append(G_FROM_ATTACKED + (t * 6 + y) * 2 + (1 if f.once & bit else 0))
    if f.lastAtt & bit:
        out.append(G_EVADE + t)
    if ours is not None and s == ours.to_sq:
        out.append(G_MOVED_LAST + t)
    out.append(G_FROM_NEAR_LAST + t * 9 + dist(s, last.to_sq if last else None))
    if f.inCheck:
        out.append(G_IN_CHECK + t)
    if f.kingDanger > 0:
        out.append(G_KING_DANGER + (f.kingDanger - 1) * 6 + t)
    out.append(G_FROM_THEIR_WING + (f.their_wing * 6 + t) * 64 + rel(s, us))
    if last is not None:
        out.append(G_REPLY + last.ptype * 6 + t)
    g = len({m.to_sq for m in moves})
    out.append(G_TARGETS + t * 16 + min(g, 16) - 1)
    m = bit_count(own & ~f.ours & ~f.A_of[PAWN])
    out.append(G_MOBILITY_FROM + t * 16 + min(m, 15))
    # (without our king, possible in three-check and king of the hill, the condition fails:
    # 7.6.2 supposes a king, see README)
    if (x == PAWN and f.ourK is not None and rank_of(rel(f.ourK, us)) == 0
            and abs(file_of(s) - file_of(f.ourK)) <= 1 and rank_of(rel(s, us)) <= 2):
        out.append(G_KING_SHIELD)
    if x == ROOK and f.castleRooks & bit:
        out.append(G_CASTLING_LOSS + 1)
    return out


def move_features(f: Facts, position: Position, move: Move) -> list:
    """7.6.5 move features of a legal move (castling, or the table of other moves)."""
    board = f.board
    us = f.us
    s, to = move.from_sq, move.to_sq
    x = t = ptype_of(board[s])
    last, ours = f.history.last, f.history.ours
    if x == KING and board[to] == piece_code(us, ROOK):            # castling (5.4)
        g = castling_destinations(s, to)[0]
        return [G_TO + (f.phase * 6 + KING) * 64 + rel(g, us),
                G_CASTLING + (0 if to > s else 1)]
    from_bit, to_bit = 1 << s, 1 << to
    a = PROMO_TYPE[move.promotion] if move.promotion else x
    en_passant = x == PAWN and file_of(s) != file_of(to) and board[to] == EMPTY
    if board[to]:
        victim = ptype_of(board[to])
    elif en_passant:
        victim = PAWN
    else:
        victim = None
    capture = 1 if victim is not None else 0
    v_victim = VALUE[victim] if victim is not None else 0
    att = 1 if f.A & to_bit else 0
    own = f.own[s]
    defended = bool(f.twice & to_bit) or (bool(f.once & to_bit) and not own & to_bit)
    if f.lower[x] & to_bit:
        cls = 2
    elif not att:
        cls = 0
    elif defended:
        cls = 1
    else:
        cls = 3
    occ_after = (f.O & ~from_bit) | to_bit
    hits = attacks(a, us, to, occ_after)
    direct = bool(f.checkSq[a] & to_bit)
    discovered = (bool(f.discoverers & from_bit) and f.theirK is not None
                  and not LINE[f.theirK][s] & to_bit)
    threatened = hits & (f.higher[a] | f.undefended)
    left = own & f.ours & f.A & ~f.twice & ~hits
    if f.H1 is not None and f.H1[0] == s:
        H = f.H2
    else:
        H = f.H1
    # the exchange balance
    balance = v_victim
    if att:
        if defended or (LINE[s][to] & f.ourSliders & ~from_bit):
            occ = f.O & ~from_bit
            if en_passant:
                occ &= ~(1 << (to - (8 if us else -8)))
            balance = see(f, to, VALUE[a], v_victim, occ)
        else:
            balance = v_victim - VALUE[a]
    balance = max(-9, min(9, balance))

    rel_to = rel(to, us)
    out = [G_TO + (f.phase * 6 + t) * 64 + rel_to,
           G_TO_SAFETY + t * 4 + cls,
           G_TO_THEIR_WING + (f.their_wing * 6 + t) * 64 + rel_to,
           G_TO_OUR_WING + (f.our_wing * 6 + t) * 64 + rel_to]
    if capture:
        out.append(G_CAPTURE + (t * 5 + victim) * 2 + att)    # victim king: see 7.6.5's note
        if last is not None and to == last.to_sq:
            out.append(G_RECAPTURE + t)
    if direct or discovered:
        out.append(G_CHECK + t * 3 + (2 if direct and discovered else (0 if direct else 1)))
    if hits & f.higher[a]:
        out.append(G_THREAT + t * 2 + 0)
    elif hits & f.undefended:
        out.append(G_THREAT + t * 2 + 1)
    if threatened:
        out.append(G_THREAT_VALUE + t * 4 + vc(threatened, f.their))
    if bit_count(threatened) >= 2 or (threatened and direct):
        out.append(G_FORK + t)
    if move.promotion:
        out.append(G_PROMOTION + PROMO_TYPE[move.promotion] - 1)
    if left:
        out.append(G_LEAVES + t * 4 + vc(left, f.our))
    if ours is not None and s == ours.to_sq and to == ours.from_sq:
        out.append(G_STRAIGHT_BACK + t)
    out.append(G_NEAR_LAST + t * 9 + dist(to, last.to_sq if last else None))
    m = bit_count(hits & ~f.ours & ~f.A_of[PAWN])
    out.append(G_MOBILITY + t * 16 + min(m, 15))
    z = bit_count(hits & f.zone)
    if z > 0:
        out.append(G_KING_ZONE + t * 3 + min(z, 3) - 1)
    out.append(G_NEAR_OURS + t * 9 + dist(to, ours.to_sq if ours else None))
    if H is not None:
        h_sq, c = H
        if hits >> h_sq & 1:
            out.append(G_DEFENDS_EN_PRISE + c - 1)
        out.append(G_OTHER_EN_PRISE + ((c - 1) * 6 + t) * 2 + capture)
    if x == PAWN and f.passed & from_bit:
        out.append(G_PASSED + rank_of(rel(to, us)))
    if x == KING and f.castleRooks:
        out.append(G_CASTLING_LOSS + 0)
    out.append(G_KING_DISTANCE + t * 9 + dist(to, f.theirK))
    out.append(G_EXCHANGE + (t * 2 + capture) * 19 + balance + 9)
    if direct and balance < 0:
        out.append(G_CHECK_LOSING + t)
    if last is not None and last.capture:
        out.append(G_AFTER_THEIR_CAPTURE + t * 2 + capture)
    if ours is not None and ours.capture:
        out.append(G_AFTER_OUR_CAPTURE + t * 2 + capture)
    if last is not None and hits >> last.to_sq & 1:
        out.append(G_VERSUS_LAST + t * 2 + 0)
    if f.lastAtt & to_bit:
        out.append(G_VERSUS_LAST + t * 2 + 1)
    if f.kicks & to_bit:
        out.append(G_KICK + t)
    their_pawns = f.their[PAWN]
    if (x in (KNIGHT, BISHOP) and f.ourPawnAtt & to_bit
            and not their_pawns & ADJ_FILES_BB[file_of(to)] & AHEAD[us][to]):
        out.append(G_OUTPOST + (0 if x == KNIGHT else 1))
    if x in (ROOK, QUEEN) and not f.our[PAWN] & FILE_BB[file_of(to)]:
        out.append(G_FILE + (0 if x == ROOK else 1) * 2
                   + (1 if their_pawns & FILE_BB[file_of(to)] else 0))
    if x == PAWN and not move.promotion:
        others = f.our[PAWN] & ~from_bit
        if not others & ADJ_FILES_BB[file_of(to)]:
            out.append(G_PAWN_SHAPE + 0)
        if others & FILE_BB[file_of(to)]:
            out.append(G_PAWN_SHAPE + 1)
        if not their_pawns & (FILE_BB[file_of(to)] | ADJ_FILES_BB[file_of(to)]) & AHEAD[us][to]:
            out.append(G_PAWN_SHAPE + 2)
    return out


def model_scores(position: Position, history: History, moves: list) -> list:
    """MOVE-MODEL-1 steps 1 and 2: each move's score, the sum of W over its features
    (its piece's features, 7.6.3, then its own)."""
    f = Facts(position, history)
    scores = []
    i = 0
    while i < len(moves):
        j = i
        while j < len(moves) and moves[j].from_sq == moves[i].from_sq:
            j += 1
        piece_moves = moves[i:j]
        piece_score = sum(map(W.__getitem__, piece_features(f, moves[i].from_sq, piece_moves)))
        for move in piece_moves:
            scores.append(piece_score + sum(map(W.__getitem__, move_features(f, position, move))))
        i = j
    return scores


# ---------------------------------------------------------------------------------------------
# The crazyhouse model (7.7)
# ---------------------------------------------------------------------------------------------

# Feature group offsets into Z as 7.7's table gives them; checked against the appendix's groups.
Z_LANDING = 0                   # [kind][rel(L)]
Z_CAPTURE = 704                 # [kind][victim]
Z_LANDING_SAFETY = 781          # [kind][a][d] of L
Z_FROM_SAFETY = 825             # [kind][a][d] of from (board moves)
Z_CHECK = 849                   # [kind]
Z_KING_DISTANCE = 860           # [kind][min(dist(L, theirK), 7)]
Z_IN_CHECK = 948                # [kind]
Z_LAST_LANDING = 959            # [kind]
Z_FROM = 970                    # [kind][rel(from)] (board moves)
Z_THREAT = 1354                 # [kind][t]
Z_KING_ZONE = 1387              # [kind][min(|att & zone|, 3)]

_Z_OFFSETS = {v for k, v in globals().items() if k.startswith("Z_") and isinstance(v, int)}
assert _Z_OFFSETS == set(Z_GROUPS), "7.7 offsets differ from the appendix's groups"


def crazyhouse_features(f: Facts, position: "VariantPosition", move: Move) -> list:
    """7.7 [MOVE-MODEL-3]: the features of a legal move of a crazyhouse position, with the terms
    of 7.6.2 (Facts) taken on its board (pockets and promoted marks do not enter)."""
    board, us = f.board, f.us
    drop = move.drop is not None
    # kind, L (the landing square), from, y (the piece the move puts on L)
    if drop:
        y = POCKET_LETTERS.index(move.drop)          # pawn 0 .. queen 4
        kind = 6 + y                                 # pawn 6 .. queen 10
        L = frm = move.to_sq                         # a drop's from-square is its square
    else:
        frm = move.from_sq
        kind = ptype_of(board[frm])                  # a promoting pawn is a pawn; castling: king
        L = position.landing_square(move)            # castling: the king's destination
        y = VARIANT_PROMO_TYPE[move.promotion] if move.promotion else kind

    def defended(s: int) -> bool:
        """A piece of ours other than the one on from attacks s (attacks with O); for a drop,
        any piece of ours (none stands on from)."""
        return any(f.own[q] >> s & 1 for q in f.own if q != frm)

    # att: the squares the piece attacks from L after the move, O' = (O less from) plus L (the
    # castling rook's move and an en passant victim do not change O')
    occ_after = (f.O & ~(1 << frm)) | (1 << L)
    att = attacks(y, us, L, occ_after)

    out = [Z_LANDING + kind * 64 + rel(L, us)]
    # victim: 1 (a pawn) for en passant; else, for a move that is neither a drop nor castling,
    # the type index plus 1 of their piece on its to-square; else 0
    victim = 0
    if position.is_en_passant(move):
        victim = 1
    elif not drop and not position.is_castling(move):
        q = board[move.to_sq]
        if q != EMPTY and is_white(q) != us:
            victim = ptype_of(q) + 1
    out.append(Z_CAPTURE + kind * 7 + victim)
    out.append(Z_LANDING_SAFETY + (kind * 2 + (f.A >> L & 1)) * 2 + int(defended(L)))
    if not drop:
        out.append(Z_FROM_SAFETY + (kind * 2 + (f.A >> frm & 1)) * 2 + int(defended(frm)))
    if position.play(move).in_check():               # in the position after it (5.6.3)
        out.append(Z_CHECK + kind)
    out.append(Z_KING_DISTANCE + kind * 8
               + (0 if f.theirK is None else min(dist(L, f.theirK), 7)))
    if f.inCheck:
        out.append(Z_IN_CHECK + kind)
    last = f.history.last
    if last is not None and L == last.to_sq:
        out.append(Z_LAST_LANDING + kind)
    if not drop:
        out.append(Z_FROM + kind * 64 + rel(frm, us))
    # threat: their pieces other than the king on squares of att other than L
    targets = att & f.theirs & ~f.their[KING] & ~(1 << L)
    if any(VALUE[ptype_of(board[q])] > VALUE[y] for q in bits(targets)):
        t = 1
    elif targets & ~f.A:
        t = 2
    else:
        t = 0
    out.append(Z_THREAT + kind * 3 + t)
    out.append(Z_KING_ZONE + kind * 4 + min(bit_count(att & f.zone), 3))   # zone 0 without king
    return out


def crazyhouse_scores(position: "VariantPosition", history: History, moves: list) -> list:
    """MOVE-MODEL-3: each move's score, the sum of Z over its features."""
    f = Facts(position, history)
    return [sum(Z[k] for k in crazyhouse_features(f, position, move)) for move in moves]


def crazyhouse_frequencies(position: "VariantPosition", history: History, moves: list) -> list:
    """MOVE-MODEL-3: the frequencies of MOVE-MODEL-1 step 3 from the crazyhouse model's scores."""
    if not moves:
        return []
    return frequencies_of_scores(crazyhouse_scores(position, history, moves))


# ---------------------------------------------------------------------------------------------
# The fast model (7.8, format 1.2)
# ---------------------------------------------------------------------------------------------

def _load_book_bytes(appendix: str = "fast-model-tables.md") -> bytes:
    """FAST-BOOK-1 (XQ-BOOK-1 from xiangqi-model-tables.md): the book's bytes, from the
    hexadecimal of the appendix's "## Book", checked against the byte count and SHA-256 the
    section gives."""
    import hashlib
    text = _read_spec(appendix)
    section = re.search(r"^## Book\s*\n(.*?)(?=^## |\Z)", text, re.M | re.S).group(1)
    size = int(re.search(r"(\d+) bytes", section).group(1))
    digest = re.search(r"\b([0-9a-f]{64})\b", section).group(1)
    block = re.search(r"```[a-z]*\n(.*?)```", section, re.S).group(1)
    data = bytes.fromhex("".join(block.split()))
    assert len(data) == size and hashlib.sha256(data).hexdigest() == digest, "the book's bytes"
    return data


FAST_K, FAST_GROUPS, FAST_W = _load_weight_table("fast-model-tables.md")

# Feature group offsets as 7.8.3 gives them; checked against the appendix's groups.
F_TO = 0                        # [phase][t][rel(to)]
F_TO_THEIR_WING = 1920          # [wing(theirK)][t][rel(to)]
F_TO_OUR_WING = 3072            # [wing(ourK)][t][rel(to)]
F_FROM = 4224                   # [phase][t][rel(from)]
F_FROM_STATE = 6144             # [t][class][from in lastAtt][from = ours.to]
F_CONTEXT = 6240                # [last type 0 none, 1 pawn .. 6 king][inCheck][last.capture][t]
F_TACTIC = 6408                 # [t][victim 0 none, 1 pawn .. 5 queen][cls][check][recapture]
F_DIST = 7272                   # [t][dist(to, theirK)][dist(to, last.to)]
F_OURS = 7758                   # [t][dist(to, ours.to)][straight back]
F_THREAT = 7866                 # [t: pawn, knight][value][fork]
F_HANG = 7886                   # [t][class - 1][capture][rescue]
F_KICK = 7982                   # [t]
F_PASSED = 7988                 # [rank(rel(to))]
F_PROMOTION = 7996              # [N B R Q]
F_CASTLING = 8000               # [king side, queen side]
F_CASTLING_LOSS = 8002          # [king, rook]
F_SHIELD = 8004                 # one feature

_F_OFFSETS = {v for k, v in globals().items() if k.startswith("F_") and isinstance(v, int)}
assert _F_OFFSETS == set(FAST_GROUPS) and FAST_K == 8005, "7.8 offsets differ from the appendix"


def fast_piece_features(f: Facts, s: int) -> list:
    """7.8.3 piece features of our piece on s (castling's king included)."""
    x = t = ptype_of(f.board[s])
    us = f.us
    bit = 1 << s
    last, ours = f.history.last, f.history.ours
    if f.lower[x] & bit:                                # the class of a square (7.8.2)
        c = 2
    elif not f.A & bit:
        c = 0
    elif f.once & bit:
        c = 1
    else:
        c = 3
    out = [F_FROM + (f.phase * 6 + t) * 64 + rel(s, us),
           F_FROM_STATE + t * 16 + c * 4 + (2 if f.lastAtt & bit else 0)
           + (1 if ours is not None and s == ours.to_sq else 0)]
    last_type = 0 if last is None else last.ptype + 1
    last_capture = 1 if last is not None and last.capture else 0
    out.append(F_CONTEXT + ((last_type * 2 + (1 if f.inCheck else 0)) * 2 + last_capture) * 6 + t)
    if (x == PAWN and rank_of(rel(f.ourK, us)) == 0 and abs(file_of(s) - file_of(f.ourK)) <= 1
            and rank_of(rel(s, us)) <= 2):
        out.append(F_SHIELD)
    if x == ROOK and f.castleRooks & bit:
        out.append(F_CASTLING_LOSS + 1)
    return out


def fast_move_features(f: Facts, move: Move) -> list:
    """7.8.3 move features of a legal move (castling, or every other move)."""
    board = f.board
    us = f.us
    s, to = move.from_sq, move.to_sq
    x = t = ptype_of(board[s])
    last, ours = f.history.last, f.history.ours
    if x == KING and board[to] == piece_code(us, ROOK):            # castling (5.4)
        g = rel(castling_destinations(s, to)[0], us)
        return [F_TO + (f.phase * 6 + KING) * 64 + g,
                F_TO_THEIR_WING + (f.their_wing * 6 + KING) * 64 + g,
                F_TO_OUR_WING + (f.our_wing * 6 + KING) * 64 + g,
                F_CASTLING + (0 if to > s else 1)]
    to_bit = 1 << to
    a = PROMO_TYPE[move.promotion] if move.promotion else x
    if board[to]:
        victim = ptype_of(board[to]) + 1                # pawn 1 .. queen 5 (king 6: see 7.8.3)
    elif x == PAWN and file_of(s) != file_of(to):       # en passant
        victim = 1
    else:
        victim = 0
    capture = 1 if victim else 0
    defended = bool(f.twice & to_bit) or (bool(f.once & to_bit) and not f.own[s] & to_bit)
    if f.lower[x] & to_bit:
        cls = 2
    elif not f.A & to_bit:
        cls = 0
    elif defended:
        cls = 1
    else:
        cls = 3
    direct = bool(f.checkSq[a] & to_bit)
    discovered = (bool(f.discoverers >> s & 1) and f.theirK is not None
                  and not LINE[f.theirK][s] & to_bit)
    check = 1 if direct else (2 if discovered else 0)
    recapture = 1 if capture and last is not None and to == last.to_sq else 0
    back = 1 if ours is not None and s == ours.to_sq and to == ours.from_sq else 0
    rel_to = rel(to, us)
    out = [F_TO + (f.phase * 6 + t) * 64 + rel_to,
           F_TO_THEIR_WING + (f.their_wing * 6 + t) * 64 + rel_to,
           F_TO_OUR_WING + (f.our_wing * 6 + t) * 64 + rel_to,
           F_TACTIC + (((t * 6 + victim) * 4 + cls) * 3 + check) * 2 + recapture,
           F_DIST + t * 81 + dist(to, f.theirK) * 9 + dist(to, last.to_sq if last else None),
           F_OURS + t * 18 + dist(to, ours.to_sq if ours else None) * 2 + back]
    hits = 0
    if x in (PAWN, KNIGHT):
        hits = attacks(x, us, to, 0)                    # (none from a promotion square)
        if not move.promotion:
            threatened = hits & (f.higher[x] | f.undefended)
            T = f.their
            if not threatened:
                value = 0
            elif threatened & T[QUEEN]:
                value = 4
            elif threatened & T[ROOK]:
                value = 3
            elif threatened & (T[KNIGHT] | T[BISHOP]):
                value = 2
            else:
                value = 1
            fork = 1 if threatened and (bit_count(threatened) >= 2
                                        or f.checkSq[x] & to_bit) else 0
            out.append(F_THREAT + t * 10 + value * 2 + fork)
    H = f.H2 if f.H1 is not None and f.H1[0] == s else f.H1
    if H is not None:
        h_sq, c = H
        out.append(F_HANG + t * 16 + ((c - 1) * 2 + capture) * 2 + (hits >> h_sq & 1))
    if f.kicks & to_bit:
        out.append(F_KICK + t)
    if move.promotion:
        out.append(F_PROMOTION + PROMO_TYPE[move.promotion] - 1)
    if x == PAWN and f.passed >> s & 1:
        out.append(F_PASSED + rank_of(rel_to))
    if x == KING and f.castleRooks:
        out.append(F_CASTLING_LOSS + 0)
    return out


def fast_scores(position: Position, history: History, moves: list) -> list:
    """FAST-MODEL-2: each move's score, the sum of W over its piece's and its own features."""
    f = Facts(position, history)
    piece = {}
    scores = []
    for move in moves:
        if move.from_sq not in piece:
            piece[move.from_sq] = sum(FAST_W[k] for k in fast_piece_features(f, move.from_sq))
        scores.append(piece[move.from_sq] + sum(FAST_W[k] for k in fast_move_features(f, move)))
    return scores


def read_book(data: bytes, start=None) -> dict:
    """FAST-BOOK-1: the book's nodes by position identity (pieces, side to move, castling rooks,
    effective en passant square: Position.identity), each a list of (index, count); where two
    nodes have the same identity, the first in the bytes. From `start` where given (XQ-BOOK-1:
    a Xiangqi start position, whose identity() is its placement and side to move), else the
    standard start position."""
    book = {}
    at = 0

    def varint():
        nonlocal at
        value, at = read_varint(data, at)
        return value

    def node(position):
        nonlocal at
        key = position.identity()
        first = key not in book
        if first:
            book[key] = None                            # taken: a later equal node is ignored
        entries = []
        legal = None
        for _ in range(varint()):
            index = data[at]
            at += 1
            v = varint()
            entries.append((index, v >> 1))
            if v & 1:
                legal = legal or position.legal_moves()
                assert index < len(legal), "a book entry's index"
                node(position.play(legal[index]))
        if first:
            book[key] = entries

    if data:
        node(Position.standard() if start is None else start)
        assert at == len(data), "the book's bytes after its start node"
    return book


BOOK_BYTES = _load_book_bytes()
_BOOK = None                            # read_book(BOOK_BYTES), built at its first use
BOOK_LAST_MOVE = 20


def book_entries(position: Position) -> "list | None":
    """FAST-BOOK-2: the book's node of a position of standard chess or Chess960 whose fullmove
    number is at most 20, else None."""
    global _BOOK
    if variant_of(position) != 0 or position.fullmove > BOOK_LAST_MOVE:
        return None
    if _BOOK is None:
        _BOOK = read_book(BOOK_BYTES)
    return _BOOK.get(position.identity())


def book_frequencies(entries: list, n: int) -> list:
    """FAST-BOOK-3: f_i = floor(c_i * 2^16 / (N + 3)) + floor(3 * 2^16 / ((N + 3) * n)) + 1."""
    total = sum(count for _, count in entries)
    escape = (3 << 16) // ((total + 3) * n) + 1
    freqs = [escape] * n
    for index, count in entries:
        freqs[index] += (count << 16) // (total + 3)
    return freqs


def fast_frequencies(position: Position, history: History, moves: list) -> list:
    """FAST-MODEL-1: the book's frequencies where it holds the position, else the scores'."""
    if not moves:
        return []
    entries = book_entries(position)
    if entries is not None:
        return book_frequencies(entries, len(moves))
    return frequencies_of_scores(fast_scores(position, history, moves))


# ---------------------------------------------------------------------------------------------
# The arithmetic decoder (7.3)
# ---------------------------------------------------------------------------------------------

TOP = 2 ** 32 - 1
HALF = 2 ** 31
QUARTER = 2 ** 30


class ArithmeticDecoder:
    """7.3: start(s) at construction; read(list) per symbol; finish() -> the codeword's length.

    data holds the stream; bit is s, the codeword's first bit (section 3 numbering).  Bits
    beyond the data's last byte read as 0.
    """

    def __init__(self, data: bytes, bit: int = 0):
        self.data = data
        self.s = bit
        self.low, self.high, self.pending, self.d, self.any = 0, TOP, 0, 0, False
        value = 0
        for i in range(32):
            value = (value << 1) | self.bit(bit + i)
        self.value = value

    def bit(self, i: int) -> int:
        byte = i >> 3
        if byte >= len(self.data):
            return 0
        return (self.data[byte] >> (7 - (i & 7))) & 1

    def _target(self, total: int) -> tuple:
        """The r and q of read; rejects q >= T (MOVE-AC-2)."""
        if total <= 0:
            raise corrupt("MOVE-AC-2", "a list whose total is 0")
        r = (self.high - self.low + 1) // total
        q = (self.value - self.low) // r
        if q >= total:
            raise corrupt("MOVE-AC-2", "the value lies in no symbol's interval")
        return r, q

    def _narrow(self, r: int, c: int, f: int) -> None:
        """Take the symbol's interval, then renormalise (the doublings of 7.3)."""
        self.high = self.low + r * (c + f) - 1
        self.low = self.low + r * c
        self.any = True
        while True:
            if self.high < HALF:
                self.pending = 0
            elif self.low >= HALF:
                self.pending = 0
                self.low -= HALF
                self.high -= HALF
                self.value -= HALF
            elif self.low >= QUARTER and self.high < 3 * QUARTER:
                self.pending += 1
                self.low -= QUARTER
                self.high -= QUARTER
                self.value -= QUARTER
            else:
                break
            self.low = 2 * self.low
            self.high = 2 * self.high + 1
            self.value = 2 * self.value + self.bit(self.s + 32 + self.d)
            self.d += 1

    def read(self, freqs: list) -> int:
        """read(list): the index of the symbol with c <= q < c + f.  Frequencies of 0 are
        allowed (9.4.4): such a symbol takes no part of the interval."""
        r, q = self._target(sum(freqs))
        c = 0
        for index, f in enumerate(freqs):
            if q < c + f:
                self._narrow(r, c, f)
                return index
            c += f
        raise AssertionError("unreachable: q < T")

    def read_uniform(self, total: int) -> int:
        """A symbol of `total` equally likely values (c = value, f = 1, T = total)."""
        r, q = self._target(total)
        self._narrow(r, q, 1)
        return q

    def finish(self) -> int:
        """finish(): checks the closing bits (MOVE-AC-3); returns the codeword's length."""
        if not self.any:
            return 0
        b = 0 if self.low < QUARTER else 1
        p = self.s + self.d - self.pending
        if self.bit(p) != b or any(self.bit(p + 1 + i) != 1 - b for i in range(self.pending + 1)):
            raise corrupt("MOVE-AC-3", "closing bits are not the ones encode writes")
        return self.d + 2


# ---------------------------------------------------------------------------------------------
# Adaptive frequencies and integers (8.3.3)
# ---------------------------------------------------------------------------------------------

class AdaptiveFrequencies:
    """8.3.3: N symbols, each starting at frequency 1; a coded symbol's frequency grows by 32,
    and if the total is then above 2^16 every frequency f becomes (f + 1) div 2."""

    def __init__(self, n: int):
        self.freqs = [1] * n

    def update(self, s: int) -> None:
        self.freqs[s] += 32
        if sum(self.freqs) > 2 ** 16:
            self.freqs = [(f + 1) // 2 for f in self.freqs]

    def read(self, decoder: ArithmeticDecoder) -> int:
        s = decoder.read(self.freqs)
        self.update(s)
        return s


def new_integer_field() -> AdaptiveFrequencies:
    """The adaptive frequencies of an integer field: 65 widths, 0 to 64 (8.3.3)."""
    return AdaptiveFrequencies(65)


def read_integer(decoder: ArithmeticDecoder, widths: AdaptiveFrequencies) -> int:
    """8.3.3 Integers: the width b under the field's adaptive frequencies, then the b - 1 bits
    below the top bit, most significant first, in chunks of min(16, bits left)."""
    b = widths.read(decoder)
    if b == 0:
        return 0
    u = 1
    left = b - 1
    while left > 0:
        k = min(16, left)
        u = (u << k) | decoder.read_uniform(1 << k)
        left -= k
    return u


def read_varint(data: bytes, offset: int) -> tuple:
    """Section 3 varint (VARINT-1): (value, offset after it)."""
    value = shift = 0
    for i in range(10):
        if offset + i >= len(data):
            raise corrupt("VARINT-1", "varint runs past the end of its stream")
        byte = data[offset + i]
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if byte == 0 and i > 0:
                raise corrupt("VARINT-1", "varint is not minimal")
            if value >= 2 ** 64:
                raise corrupt("VARINT-1", "varint exceeds 2^64 - 1")
            return value, offset + i + 1
    raise corrupt("VARINT-1", "varint longer than 10 bytes")


# ---------------------------------------------------------------------------------------------
# The start-position code (9.4.4)
# ---------------------------------------------------------------------------------------------

KEPT_AS_TEXT, DERIVED, PLACEMENT_FORM = 0, 1, 2


def double_step_passed(position: Position, move: Move) -> int | None:
    """5.5: the square a pawn's double step passes, None if `move` (played in `position`) is
    not a double step."""
    if ptype_of(position.board[move.from_sq]) == PAWN and abs(move.to_sq - move.from_sq) == 16:
        return (move.from_sq + move.to_sq) // 2
    return None


def derived_fen(position: Position, double_step: int | None, style: int,
                counters: bool = True) -> bytes:
    """9.4.4: the text of a derived value, the FEN of `position` that moves reached, the last
    of which passed `double_step` if it was a pawn's double step (None if it was not, or if
    there was no move): the en passant field `-` unless there was a double step, and then by
    its style, 0 the square if an en passant capture onto it is legal (5.3), else `-`, 1 the
    square; then, if `counters`, the halfmove clock and fullmove number the moves counted
    (replayed, 5.5).  A `CurrentPosition` value of 9.4.5 is spelt the same (rule 0: style 0,
    rule 1: style 1)."""
    ep = None
    if double_step is not None and (style == 1 or any(
            position.is_en_passant(m) and m.to_sq == double_step for m in position.legal_moves())):
        ep = double_step
    return position.fen(ep=ep, counters=counters)


class PositionValue(NamedTuple):
    form: int                    # 0 kept as text, 1 derived, 2 placement
    fen: bytes | None            # the value's text (None when kept as text)
    position: Position | None    # the position the text reads as (5.2)


class PositionCodeReader:
    """The state a position column keeps from its first value to its last (9.4.4)."""

    def __init__(self):
        self.form = AdaptiveFrequencies(3)
        self.start = AdaptiveFrequencies(3)
        self.ep_style = AdaptiveFrequencies(2)
        self.counters = AdaptiveFrequencies(3)
        self.side = AdaptiveFrequencies(2)
        self.rights = [AdaptiveFrequencies(2) for _ in range(4)]
        self.ep_square = AdaptiveFrequencies(2)
        self.plies = new_integer_field()
        self.halfmove = new_integer_field()
        self.fullmove = new_integer_field()
        self.counts = [[0] * 13 for _ in range(64)]

    def read_value(self, decoder: ArithmeticDecoder) -> PositionValue:
        form = self.form.read(decoder)
        if form == KEPT_AS_TEXT:
            return PositionValue(KEPT_AS_TEXT, None, None)
        if form == DERIVED:
            text = self._read_derived(decoder)
        else:
            text = self._read_placement(decoder)
        position = Position.from_fen(text)
        if position is None:
            raise corrupt("TAGS-6", f"position value is not a valid FEN: {text!r}")
        return PositionValue(form, text, position)

    def _read_counters(self, decoder: ArithmeticDecoder):
        """Item 4: 0 replayed, 1 given (halfmove, fullmove), 2 none."""
        kind = self.counters.read(decoder)
        if kind != 1:
            return kind, None, None
        halfmove = read_integer(decoder, self.halfmove)
        fullmove = read_integer(decoder, self.fullmove)
        if halfmove > 65535 or fullmove > 65535:
            raise corrupt("TAGS-6", "given counters above 65535")
        return kind, halfmove, fullmove

    def _read_derived(self, decoder: ArithmeticDecoder) -> bytes:
        start = self.start.read(decoder)
        if start == 0:
            position = Position.standard()
        elif start == 1:
            a = decoder.read_uniform(960)
            position = Position.chess960_start(a, a)
        else:
            a = decoder.read_uniform(960)
            b = decoder.read_uniform(960)
            position = Position.chess960_start(a, b)
        plies = read_integer(decoder, self.plies)
        if plies > 1023:
            raise corrupt("TAGS-6", "a derived value of more than 1023 plies")
        history = NO_HISTORY
        double_step = None
        for _ in range(plies):             # a line of known length (MOVE-SYM-1), model coder
            moves = position.legal_moves()
            if not moves:
                raise corrupt("TAGS-6", "a derived value's move where there is no legal move")
            if len(moves) == 1:
                m = moves[0]
            else:
                m = moves[decoder.read(move_frequencies(MODEL, position, history, moves))]
            history = history_after(history, position, m)
            double_step = double_step_passed(position, m)
            position = position.play(m)
        style = self.ep_style.read(decoder) if double_step is not None else 0
        kind, halfmove, fullmove = self._read_counters(decoder)
        text = derived_fen(position, double_step, style, counters=kind == 0)
        if kind == 1:
            text += b" %d %d" % (halfmove, fullmove)
        return text

    def _read_placement(self, decoder: ArithmeticDecoder) -> bytes:
        board = [EMPTY] * 64
        kings_seen = set()
        for r in range(7, -1, -1):                      # FEN order: a8 .. h8, a7 .. h1
            for f in range(8):
                q = f + 8 * r
                freqs = [PLACEMENT[q][s] + 64 * self.counts[q][s] for s in range(13)]
                for white in kings_seen:
                    freqs[piece_code(white, KING)] = 0
                s = decoder.read(freqs)
                board[q] = s
                if s and ptype_of(s) == KING:
                    kings_seen.add(is_white(s))
                self.counts[q][s] += 1
                if sum(self.counts[q]) >= 1024:
                    self.counts[q] = [(c + 1) // 2 for c in self.counts[q]]
        white_to_move = self.side.read(decoder) == 0
        castling = []
        for i, (white, king_side) in enumerate(((True, True), (True, False),
                                                (False, True), (False, False))):
            first = 0 if white else 7
            kings = [f for f in range(8) if board[f + 8 * first] == piece_code(white, KING)]
            if not kings:
                continue
            kf = kings[0]
            candidates = [f for f in range(8) if board[f + 8 * first] == piece_code(white, ROOK)
                          and (f > kf if king_side else f < kf)]
            if king_side:
                candidates.reverse()                    # the outermost first
            if not candidates:
                continue
            if self.rights[i].read(decoder) == 1:
                k = len(candidates)
                place = decoder.read_uniform(k) if k > 1 else 0
                castling.append(candidates[place] + 8 * first)
        ep_rank, origin, pawn_rank = (5, 6, 4) if white_to_move else (2, 1, 3)
        their_pawn = piece_code(not white_to_move, PAWN)
        candidates = [f for f in range(8) if board[f + 8 * ep_rank] == EMPTY
                      and board[f + 8 * origin] == EMPTY
                      and board[f + 8 * pawn_rank] == their_pawn]
        ep = None
        if candidates and self.ep_square.read(decoder) == 1:
            k = len(candidates)
            place = decoder.read_uniform(k) if k > 1 else 0
            ep = candidates[place] + 8 * ep_rank
        kind, halfmove, fullmove = self._read_counters(decoder)
        if kind == 0:
            raise corrupt("TAGS-6", "a placement value with replayed counters")
        position = Position(board, white_to_move, castling, ep, 0, 1)
        text = position.fen(counters=False)
        if kind == 1:
            text += b" %d %d" % (halfmove, fullmove)
        return text


def decode_position_column(body: bytes, count: int) -> tuple:
    """9.4.4: the body of a `FEN` column of coding 7 holding `count` values.

    Returns (values, offset): values[i] is the FEN bytes of value i, or None for a value kept
    as text; the text body (9.4) of those values starts at body[offset:] (the caller reads it
    and rejects bytes after it).  Raises FormatError per TAGS-6.
    """
    n, offset = read_varint(body, 0)
    if offset + n > len(body):
        raise corrupt("TAGS-6", "codeword runs past the body")
    codeword = body[offset:offset + n]
    decoder = ArithmeticDecoder(codeword, 0)
    reader = PositionCodeReader()
    values = [reader.read_value(decoder).fen for _ in range(count)]
    check_codeword_end(decoder, n, "TAGS-6")
    return values, offset + n


def check_codeword_end(decoder: ArithmeticDecoder, n: int, rule: str) -> None:
    """A tag column's codeword of `n` bytes, read to its last symbol by `decoder`, ends in its
    last byte with the bits after its end 0 (9.4.4, 9.4.7, 9.4.8)."""
    length = decoder.finish()
    if (length + 7) // 8 != n:
        raise corrupt(rule, "the codeword does not end in its last byte")
    if any(decoder.bit(i) for i in range(length, 8 * n)):
        raise corrupt(rule, "bits after the codeword are not 0")


def decode_code_column(body: bytes, count: int, rule: str = "TAGS-11") -> tuple:
    """9.4.7 and 9.4.8: the codeword of a coded tag column (coding 10) or a table column (coding
    11) holding `count` codes, each an integer (8.3.3) of the column's one field.  Returns
    (codes, offset), the column's text body starting at body[offset:].  Raises FormatError per
    `rule`, TAGS-11 or TAGS-12, which list every defect of the codeword: one that runs past the
    body, whose value lies in no symbol (MOVE-AC-2's defect) or whose closing bits are not a
    coder's (MOVE-AC-3's), or that does not end in its last byte with the bits after it 0."""
    n, offset = read_varint(body, 0)
    if offset + n > len(body):
        raise corrupt(rule, "codeword runs past the body")
    decoder = ArithmeticDecoder(body[offset:offset + n], 0)
    widths = new_integer_field()
    try:
        codes = [read_integer(decoder, widths) for _ in range(count)]
        check_codeword_end(decoder, n, rule)
    except FormatError as e:
        if e.rule not in ("MOVE-AC-2", "MOVE-AC-3"):
            raise
        raise corrupt(rule, f"{str(e).split('] ', 1)[-1]} (as {e.rule} says of any codeword)")
    return codes, offset + n


# ---------------------------------------------------------------------------------------------
# Share tokens (section 14)
# ---------------------------------------------------------------------------------------------

BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
RESULTS = {0: None, 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "*"}


def base64_token(data: bytes) -> str:
    """The text of a token's bytes: base64url without padding (section 14)."""
    import base64
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def base64url_decode(token: str) -> bytes:
    """RFC 4648 section 5 without padding, as TOKEN-1 requires it."""
    if len(token) % 4 == 1:
        raise corrupt("TOKEN-1", "a length of 4k + 1 characters")
    acc = nbits = 0
    out = bytearray()
    for ch in token:
        v = BASE64URL.find(ch)
        if v < 0:
            raise corrupt("TOKEN-1", f"character {ch!r} outside base64url")
        acc = (acc << 6) | v
        nbits += 6
        if nbits >= 8:
            nbits -= 8
            out.append((acc >> nbits) & 0xFF)
            acc &= (1 << nbits) - 1
    if acc:
        raise corrupt("TOKEN-1", "the last character has bits below its last byte that are not 0")
    return bytes(out)


def numbered_moves(start, moves, sans):
    """A main line's move tokens as section 10 numbers them: `N. ` before White's moves, `N... `
    before Black's first (a move None is a null move, its SAN `--`)."""
    tokens, position = [], start
    for i, (move, san) in enumerate(zip(moves, sans)):
        if position.white_to_move:
            tokens.append(f"{position.fullmove}. {san}")
        elif i == 0:
            tokens.append(f"{position.fullmove}... {san}")
        else:
            tokens.append(san)
        position = position.play_null() if move is None else position.play(move)
    return tokens


class SharedGame(NamedTuple):
    coder: int
    chess960: bool
    result: str | None               # the termination marker, None for none
    start_fen: bytes | None          # the FEN tag's value for a set-up start
    start: Position
    moves: list                      # Move objects of the main line
    sans: list                       # their SAN (section 10)

    def pgn(self) -> bytes:
        """The canonical PGN (section 10) of the game a token gives (section 14)."""
        tags = [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
                ("White", "?"), ("Black", "?"), ("Result", self.result or "*")]
        if self.start_fen is not None:
            tags += [("SetUp", "1"), ("FEN", self.start_fen.decode("latin-1"))]
        if self.chess960:
            tags.append(("Variant", "Chess960"))
        text = "".join('[%s "%s"]\n' % (k, v.replace("\\", "\\\\").replace('"', '\\"'))
                       for k, v in tags) + "\n"
        tokens = numbered_moves(self.start, self.moves, self.sans)
        if self.result is not None:
            tokens.append(self.result)
        if tokens:
            lines = [""]
            for token in tokens:
                if not lines[-1]:
                    lines[-1] = token
                elif len(lines[-1]) + 1 + len(token) <= 80:
                    lines[-1] += " " + token
                else:
                    lines.append(token)
            text += "\n".join(lines) + "\n\n"
        return text.encode("latin-1")


def open_share_token(token: str) -> SharedGame:
    """Section 14 (TOKEN-1): the game a share token holds."""
    data = base64url_decode(token)
    if len(data) < 2 or data[0] != 1:
        raise corrupt("TOKEN-1", "version other than 1")
    flags = data[1]
    coder = flags & 3
    setup = bool(flags & 4)
    chess960 = bool(flags & 8)
    result_code = (flags >> 4) & 7
    if coder > 1 or result_code > 4 or flags & 0x80:
        raise corrupt("TOKEN-1", "reserved flags or result")
    decoder = ArithmeticDecoder(data, 16)
    start_fen = None
    if setup:
        value = PositionCodeReader().read_value(decoder)
        if value.form == KEPT_AS_TEXT:
            raise corrupt("TOKEN-1", "a start position kept as text")
        start_fen, position = value.fen, value.position
    else:
        position = Position.standard()
    start = position
    history = NO_HISTORY
    moves, sans = [], []
    p = 0
    while True:                      # an unannotated line, not counted (MOVE-SYM-2)
        legal = position.legal_moves()
        freqs = move_frequencies(coder, position, history, legal)
        k = decoder.read([end_frequency(coder, sum(freqs), p, position)] + freqs)
        if k == 0:
            break
        if p == 2 ** 16:
            raise corrupt("TOKEN-1", "more than 2^16 plies")
        m = legal[k - 1]
        moves.append(m)
        after = position.play(m)
        sans.append(position.san(m, after))
        history = history_after(history, position, m)
        position = after
        p += 1
    length = decoder.finish()
    end = 16 + length
    if len(data) != (end + 7) // 8:
        raise corrupt("TOKEN-1", "bytes after the codeword")
    if any(decoder.bit(i) for i in range(end, 8 * len(data))):
        raise corrupt("TOKEN-1", "bits after the codeword are not 0")
    return SharedGame(coder, chess960, RESULTS[result_code], start_fen, start, moves, sans)
