"""Reference decoder for pgnarc: the rules of Xiangqi (section 5.7) and its move texts (5.7.1).

Written from section 5.7 of format-spec/pgnarc-format.md alone; section numbers and
the names below are its paragraphs (5.7 FEN, 5.7 Moves, 5.7 Order, 5.7.1 Notation bytes,
Encodings, ICCS, Naming the mover, WXF, Chinese).  Standard library only; run with Python 3.11
(/usr/bin/python3).
Nothing of 5.1 to 5.6 (chess) is used here.

Public interface
----------------
square(file, rank) -> int          5.7 Board and squares: file + 9 * rank (a0 = 0 .. i9 = 89)
square_name(sq) -> str             "a0" .. "i9"; move_name((from, to)) -> "h2e2"
parse_move(text) -> (from, to)     "h2e2" -> (25, 22), for tests
START_FEN                          the start position's FEN (5.7)
XiangqiPosition                    a position; immutable from outside, play() makes a new one
    XiangqiPosition.start()        the start position
    XiangqiPosition.from_fen(text) a FEN read per 5.7 FEN (str); ValueError naming the field
                                   if 5.7 FEN calls it invalid
    .board (90 entries: None or a letter, "K" "A" "B" "N" "R" "C" "P" for Red, lower case for
    Black), .red_to_move, .halfmove, .fullmove
    .fen() -> str                  the canonical FEN (5.7 FEN's writer)
    .in_check() -> bool            the side to move is in check (5.7 Moves)
    .legal_moves() -> [(from, to)] 5.7 Moves, in the order of 5.7 Order
    .play(move) -> XiangqiPosition 5.7 After a move
perft(position, depth) -> int      the number of move sequences of that many plies
read_notation(data, extended=False) -> Notation
                                   5.7.1 Notation bytes [XQ-NOTATION-1]: ValueError for bytes it
                                   rejects; .notation (ICCS, WXF, CHINESE), each element of the
                                   notation's table (0: not set, the default applies), .pieces;
                                   extended: a game of a block of codec 14 or 15, whose notation
                                   bytes may set .encoding (UTF8, GB18030, BIG5) and
                                   .tandem_by_file (reserved bits in codecs 9 to 12)
move_text(position, move, notation) -> str
                                   5.7.1: the move's text, [XQ-TEXT-1] ICCS, [XQ-TEXT-3] WXF or
                                   [XQ-TEXT-4] Chinese, the mover named by [XQ-TEXT-2] (naming,
                                   same_motion for tandem by file)
move_text_bytes(position, move, notation) -> bytes
                                   the same text in the notation bytes' encoding (5.7.1
                                   Encodings: UTF-8, or GB18030 or Big5 by the table ENCODED)
piece_moves(board, from) -> [(from, to)]
                                   5.7 Moves: one piece's moves, check aside
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------------------------
# Board and squares (5.7)
# ---------------------------------------------------------------------------------------------

FILES = 9
RANKS = 10
SQUARES = FILES * RANKS
FILE_NAMES = "abcdefghi"

RED, BLACK = 0, 1

GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = "KABNRCP"
KINDS = "KABNRCP"
# 5.7 Pieces: how many of each kind a side starts with (and may have at most, 5.7 FEN).
START_COUNT = {GENERAL: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, CHARIOT: 2, CANNON: 2, SOLDIER: 5}
# 5.7 FEN: letters a reader accepts, and the kind they name (E and H are aliases).
FEN_LETTERS = {"K": GENERAL, "A": ADVISOR, "B": ELEPHANT, "E": ELEPHANT, "N": HORSE,
               "H": HORSE, "R": CHARIOT, "C": CANNON, "P": SOLDIER}

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def square(file: int, rank: int) -> int:
    """5.7 Board and squares: a square is numbered file + 9 * rank."""
    return file + FILES * rank


def file_of(sq: int) -> int:
    return sq % FILES


def rank_of(sq: int) -> int:
    return sq // FILES


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def own_rank(sq: int, color: int) -> int:
    """5.7 Board and squares: a square's rank for Red, 9 minus its rank for Black."""
    return rank_of(sq) if color == RED else RANKS - 1 - rank_of(sq)


def in_palace(sq: int, color: int) -> bool:
    """5.7 Board and squares: files d to f (3 to 5) and own ranks 0 to 2."""
    return 3 <= file_of(sq) <= 5 and own_rank(sq, color) <= 2


def square_name(sq: int) -> str:
    return FILE_NAMES[file_of(sq)] + str(rank_of(sq))


def move_name(move) -> str:
    return square_name(move[0]) + square_name(move[1])


def parse_move(text: str):
    """"h2e2" -> (25, 22): files a to i, ranks 0 to 9 (5.7 Board and squares)."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", text)
    if not m:
        raise ValueError(f"not a move: {text!r}")
    return (square(FILE_NAMES.index(m.group(1)), int(m.group(2))),
            square(FILE_NAMES.index(m.group(3)), int(m.group(4))))


def color_of(piece: str) -> int:
    return RED if piece.isupper() else BLACK


def kind_of(piece: str) -> str:
    return piece.upper()


def piece_of(kind: str, color: int) -> str:
    return kind if color == RED else kind.lower()


# ---------------------------------------------------------------------------------------------
# Where each piece may step (5.7 Moves), as tables made once
# ---------------------------------------------------------------------------------------------

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _offset(sq: int, df: int, dr: int):
    """The square df files and dr ranks away from sq, or None off the board."""
    f, r = file_of(sq) + df, rank_of(sq) + dr
    return square(f, r) if on_board(f, r) else None


def _general_steps(sq: int, color: int):
    """5.7 Moves, general: one square orthogonally, staying inside its palace."""
    targets = [_offset(sq, df, dr) for df, dr in ORTHOGONAL]
    return [t for t in targets if t is not None and in_palace(t, color)]


def _advisor_steps(sq: int, color: int):
    """5.7 Moves, advisor: one square diagonally, staying inside its palace."""
    targets = [_offset(sq, df, dr) for df, dr in DIAGONAL]
    return [t for t in targets if t is not None and in_palace(t, color)]


def _elephant_steps(sq: int, color: int):
    """5.7 Moves, elephant: (eye, target) pairs, two squares diagonally, not across the river
    (the target's own rank stays 4 or below)."""
    steps = []
    for df, dr in DIAGONAL:
        target = _offset(sq, 2 * df, 2 * dr)
        if target is not None and own_rank(target, color) <= 4:
            steps.append((_offset(sq, df, dr), target))
    return steps


def _horse_steps(sq: int):
    """5.7 Moves, horse: (leg, target) pairs; one square orthogonally (the leg), then one
    square diagonally onwards, away from the from-square."""
    steps = []
    for df, dr in ORTHOGONAL:
        leg = _offset(sq, df, dr)
        if leg is None:
            continue
        # onwards: the diagonal step keeps the leg's direction and turns to either side
        for side in (-1, 1):
            if df == 0:
                target = _offset(leg, side, dr)
            else:
                target = _offset(leg, df, side)
            if target is not None:
                steps.append((leg, target))
    return steps


def _soldier_steps(sq: int, color: int):
    """5.7 Moves, soldier: one square forwards; once across the river (own rank 5 or above),
    one square to either side as well; never backwards."""
    forward = 1 if color == RED else -1
    targets = [_offset(sq, 0, forward)]
    if own_rank(sq, color) >= 5:
        targets += [_offset(sq, -1, 0), _offset(sq, 1, 0)]
    return [t for t in targets if t is not None]


def _rays(sq: int):
    """5.7 Moves, chariot and cannon: the squares along its rank and file, nearest first, one
    list per direction."""
    rays = []
    for df, dr in ORTHOGONAL:
        ray, t = [], _offset(sq, df, dr)
        while t is not None:
            ray.append(t)
            t = _offset(t, df, dr)
        rays.append(ray)
    return rays


GENERAL_STEPS = [[_general_steps(s, c) for s in range(SQUARES)] for c in (RED, BLACK)]
ADVISOR_STEPS = [[_advisor_steps(s, c) for s in range(SQUARES)] for c in (RED, BLACK)]
ELEPHANT_STEPS = [[_elephant_steps(s, c) for s in range(SQUARES)] for c in (RED, BLACK)]
HORSE_STEPS = [_horse_steps(s) for s in range(SQUARES)]
SOLDIER_STEPS = [[_soldier_steps(s, c) for s in range(SQUARES)] for c in (RED, BLACK)]
RAYS = [_rays(s) for s in range(SQUARES)]


def _invert(table):
    """For the stepping pieces: the same steps read backwards, target -> where from."""
    inverse = [[] for _ in range(SQUARES)]
    for frm in range(SQUARES):
        for step in table[frm]:
            if isinstance(step, tuple):                  # (eye or leg, target)
                inverse[step[1]].append((step[0], frm))
            else:
                inverse[step].append(frm)
    return inverse


# who could capture on a square by one step: [color of the mover][target square]
GENERAL_FROM = [_invert(GENERAL_STEPS[c]) for c in (RED, BLACK)]
ADVISOR_FROM = [_invert(ADVISOR_STEPS[c]) for c in (RED, BLACK)]
ELEPHANT_FROM = [_invert(ELEPHANT_STEPS[c]) for c in (RED, BLACK)]    # (eye, from)
HORSE_FROM = _invert(HORSE_STEPS)                                      # (leg, from)
SOLDIER_FROM = [_invert(SOLDIER_STEPS[c]) for c in (RED, BLACK)]


# ---------------------------------------------------------------------------------------------
# Check (5.7 Moves, last paragraph)
# ---------------------------------------------------------------------------------------------

def attacked(board, target: int, by: int) -> bool:
    """5.7 Moves: one of side `by`'s pieces could capture on `target` by the moves above (who
    is to move aside); read backwards from the target with the same tables."""
    for ray in RAYS[target]:
        screens = 0
        for sq in ray:
            piece = board[sq]
            if piece is None:
                continue
            if color_of(piece) == by:
                kind = kind_of(piece)
                if screens == 0 and kind == CHARIOT:
                    return True
                if screens == 1 and kind == CANNON:
                    return True
            screens += 1
            if screens == 2:
                break
    for leg, frm in HORSE_FROM[target]:
        if board[frm] == piece_of(HORSE, by) and board[leg] is None:
            return True
    for frm in SOLDIER_FROM[by][target]:
        if board[frm] == piece_of(SOLDIER, by):
            return True
    # The general, the advisors and the elephants stay on their own side (and in the palace),
    # so they never reach the other general; checked all the same, as the rule reads.
    for frm in GENERAL_FROM[by][target]:
        if board[frm] == piece_of(GENERAL, by):
            return True
    for frm in ADVISOR_FROM[by][target]:
        if board[frm] == piece_of(ADVISOR, by):
            return True
    for eye, frm in ELEPHANT_FROM[by][target]:
        if board[frm] == piece_of(ELEPHANT, by) and board[eye] is None:
            return True
    return False


def generals_face(board, red_general: int, black_general: int) -> bool:
    """5.7 Moves, the flying general: the two generals on the same file with no piece between
    them."""
    if file_of(red_general) != file_of(black_general):
        return False
    low, high = sorted((red_general, black_general))
    return all(board[sq] is None for sq in range(low + FILES, high, FILES))


def piece_moves(board, frm: int):
    """5.7 Moves: the moves of the piece on `frm` of `board`, to an empty square or an enemy
    piece, as the piece moves (an elephant's eye and a horse's leg empty, a chariot's slide up to
    and including the first piece, a cannon's slide to an empty square or its capture over
    exactly one screen); check and facing generals aside.  Whose turn it is does not matter:
    pseudo_moves takes those of the side to move, XQ-TEXT-2 rule 3 those of a mover's kin."""
    piece = board[frm]
    color, kind = color_of(piece), kind_of(piece)
    # a target is free if empty or an enemy piece (to capture): a piece's letter is upper case
    # for Red, so a piece of the same side has the same case as the mover
    red = color == RED
    if kind == GENERAL:
        targets = GENERAL_STEPS[color][frm]
    elif kind == ADVISOR:
        targets = ADVISOR_STEPS[color][frm]
    elif kind == ELEPHANT:
        targets = [t for eye, t in ELEPHANT_STEPS[color][frm] if board[eye] is None]
    elif kind == HORSE:
        targets = [t for leg, t in HORSE_STEPS[frm] if board[leg] is None]
    elif kind == SOLDIER:
        targets = SOLDIER_STEPS[color][frm]
    else:
        moves = []
        for ray in RAYS[frm]:
            screen = False                # a cannon's screen, either side's, met on this ray
            for t in ray:
                other = board[t]
                if other is None:
                    if not screen:
                        moves.append((frm, t))      # a slide to an empty square
                    continue
                if kind == CHARIOT or screen:       # a chariot's first piece, or the first
                    if other.isupper() != red:      # piece beyond a cannon's screen
                        moves.append((frm, t))
                    break
                screen = True
        return moves
    return [(frm, t) for t in targets if board[t] is None or board[t].isupper() != red]


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------

class XiangqiPosition:
    """A Xiangqi position (5.7): the board, the side to move and the two clocks."""

    __slots__ = ("board", "red_to_move", "halfmove", "fullmove", "generals")

    def __init__(self, board, red_to_move: bool, halfmove: int = 0, fullmove: int = 1):
        self.board = list(board)
        self.red_to_move = red_to_move
        self.halfmove = halfmove
        self.fullmove = fullmove
        # the generals' squares, [Red's, Black's] (None while a FEN is being checked)
        self.generals = [None, None]
        for sq, piece in enumerate(self.board):
            if piece is not None and kind_of(piece) == GENERAL:
                self.generals[color_of(piece)] = sq

    @property
    def side(self) -> int:
        return RED if self.red_to_move else BLACK

    @classmethod
    def start(cls) -> "XiangqiPosition":
        """5.7 Start position."""
        return cls.from_fen(START_FEN)

    # -- FEN ---------------------------------------------------------------------------------

    @classmethod
    def from_fen(cls, text: str) -> "XiangqiPosition":
        """5.7 FEN: read a FEN; ValueError, naming the field, if 5.7 FEN calls it invalid."""
        fields = text.split(" ")
        if not 2 <= len(fields) <= 6:
            raise ValueError(f"FEN: {len(fields)} fields (2 to 6 allowed)")
        for i, field in enumerate(fields):
            if field == "":
                raise ValueError(f"FEN field {i + 1}: empty (fields are separated by single "
                                 f"spaces)")
        fields += ["-", "-", "0", "1"][len(fields) - 2:]      # missing fields read as - - 0 1
        placement, side, castling, en_passant, halfmove, fullmove = fields

        board = _read_placement(placement)
        if side in ("w", "r"):
            red_to_move = True
        elif side == "b":
            red_to_move = False
        else:
            raise ValueError(f"FEN field 2 (side to move): {side!r} is not w, r or b")
        if castling != "-":
            raise ValueError(f"FEN field 3 (castling): {castling!r}, Xiangqi has none: '-' only")
        if en_passant != "-":
            raise ValueError(f"FEN field 4 (en passant): {en_passant!r}, Xiangqi has none: "
                             f"'-' only")
        halfmove_value = _read_counter(halfmove, 5, "halfmove clock")
        fullmove_value = _read_counter(fullmove, 6, "fullmove number") or 1   # 0 read as 1

        position = cls(board, red_to_move, halfmove_value, fullmove_value)
        # the side not to move must not be in check (its general attacked, or generals facing)
        if position._side_in_check(1 - position.side):
            raise ValueError("FEN field 1 (placement): the side not to move is in check")
        return position

    def fen(self) -> str:
        """5.7 FEN, the writer: letters K A B N R C P, `w` or `b`, `- -`, the halfmove clock
        and the fullmove number, digits for runs of empty squares as long as they go."""
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row, empty = "", 0
            for file in range(FILES):
                piece = self.board[square(file, rank)]
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece
            if empty:
                row += str(empty)
            rows.append(row)
        return (f"{'/'.join(rows)} {'w' if self.red_to_move else 'b'} - - "
                f"{self.halfmove} {self.fullmove}")

    # -- check and legal moves ---------------------------------------------------------------

    def _side_in_check(self, color: int) -> bool:
        """5.7 Moves: side `color` is in check: one of the other side's pieces could capture
        its general, or the generals face each other."""
        red_general, black_general = self.generals
        own = red_general if color == RED else black_general
        return (attacked(self.board, own, 1 - color)
                or generals_face(self.board, red_general, black_general))

    def in_check(self) -> bool:
        """5.7 Moves: the side to move is in check."""
        return self._side_in_check(self.side)

    def pseudo_moves(self):
        """5.7 Moves: each piece of the side to move, to an empty square or an enemy piece, as
        it moves; whether the mover is left in check is 5.7 Moves's concern (legal_moves)."""
        board, color = self.board, self.side
        moves = []
        for frm, piece in enumerate(board):
            if piece is not None and color_of(piece) == color:
                moves += piece_moves(board, frm)
        return moves

    def _leaves_in_check(self, move) -> bool:
        """5.7 Moves: after the move, the side that moved is in check.  The move is made on the
        board and taken back."""
        board, color = self.board, self.side
        frm, to = move
        piece, captured = board[frm], board[to]
        board[to], board[frm] = piece, None
        generals = list(self.generals)
        if kind_of(piece) == GENERAL:
            generals[color] = to
        try:
            return (attacked(board, generals[color], 1 - color)
                    or generals_face(board, generals[RED], generals[BLACK]))
        finally:
            board[frm], board[to] = piece, captured

    def identity(self):
        """XQ-BOOK-1: the piece placement and the side to move (the clocks are no part of it)."""
        return (tuple(self.board), self.red_to_move)

    def legal_moves(self):
        """5.7 Moves, in the order of 5.7 Order: ascending by (from square, to square)."""
        return sorted(m for m in self.pseudo_moves() if not self._leaves_in_check(m))

    def play(self, move) -> "XiangqiPosition":
        """5.7 After a move: the piece on the to-square, a captured piece removed, the other
        side to move; the halfmove clock 0 after a capture, else one more; the fullmove number
        one more after Black's move, neither above 65535.  The move is taken as legal; a new
        position is returned."""
        frm, to = move
        board = list(self.board)
        capture = board[to] is not None
        board[to], board[frm] = board[frm], None
        return XiangqiPosition(board, not self.red_to_move,
                               0 if capture else min(self.halfmove + 1, 65535),
                               min(self.fullmove + (0 if self.red_to_move else 1), 65535))

    def __repr__(self):
        return f"XiangqiPosition.from_fen({self.fen()!r})"


def _read_placement(placement: str):
    """5.7 FEN, field 1: ten ranks from rank 9 down to rank 0, each of nine squares from file a
    to file i; then the counts of 5.7 FEN (one general, at most the start's count of a kind)
    and the squares a piece can reach from the start."""
    rows = placement.split("/")
    if len(rows) != RANKS:
        raise ValueError(f"FEN field 1 (placement): {len(rows)} ranks, not {RANKS}")
    board = [None] * SQUARES
    for i, row in enumerate(rows):
        rank = RANKS - 1 - i
        file = 0
        for ch in row:
            if ch in "123456789":
                file += int(ch)
            elif ch.upper() in FEN_LETTERS:
                if file < FILES:
                    kind = FEN_LETTERS[ch.upper()]
                    board[square(file, rank)] = kind if ch.isupper() else kind.lower()
                file += 1
            else:
                raise ValueError(f"FEN field 1 (placement): {ch!r} in rank {rank}")
            if file > FILES:
                raise ValueError(f"FEN field 1 (placement): rank {rank} has more than {FILES} "
                                 f"squares")
        if file != FILES:
            raise ValueError(f"FEN field 1 (placement): rank {rank} has {file} squares, not "
                             f"{FILES}")

    counts = {}
    for sq, piece in enumerate(board):
        if piece is None:
            continue
        counts[piece] = counts.get(piece, 0) + 1
        if not can_stand(kind_of(piece), color_of(piece), sq):
            raise ValueError(f"FEN field 1 (placement): {piece} on {square_name(sq)}, a square "
                             f"it can never reach")
    for color, name in ((RED, "Red"), (BLACK, "Black")):
        if counts.get(piece_of(GENERAL, color), 0) != 1:
            raise ValueError(f"FEN field 1 (placement): {name} has "
                             f"{counts.get(piece_of(GENERAL, color), 0)} generals, not one")
        for kind in KINDS:
            if counts.get(piece_of(kind, color), 0) > START_COUNT[kind]:
                raise ValueError(f"FEN field 1 (placement): {name} has "
                                 f"{counts[piece_of(kind, color)]} of {kind}, more than "
                                 f"{START_COUNT[kind]}")
    return board


ADVISOR_POINTS = {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}                 # (file, own rank)
ELEPHANT_POINTS = {(2, 0), (6, 0), (2, 4), (6, 4), (0, 2), (4, 2), (8, 2)}


def can_stand(kind: str, color: int, sq: int) -> bool:
    """5.7 FEN: a piece is only on squares it can reach from the start: a general in its
    palace; an advisor on d0, f0, e1, d2, f2 of its own ranks; an elephant on its seven points;
    a soldier not on own ranks 0 to 2, nor on own rank 3 or 4 of files b, d, f, h."""
    point = (file_of(sq), own_rank(sq, color))
    if kind == GENERAL:
        return in_palace(sq, color)
    if kind == ADVISOR:
        return point in ADVISOR_POINTS
    if kind == ELEPHANT:
        return point in ELEPHANT_POINTS
    if kind == SOLDIER:
        file, rank = point
        if rank <= 2:
            return False
        return not (rank in (3, 4) and file % 2 == 1)
    return True


def _read_counter(text: str, number: int, name: str) -> int:
    """5.7 FEN, fields 5 and 6: a decimal number 0 to 65535 (digits only)."""
    if not re.fullmatch(r"[0-9]+", text) or int(text) > 65535:
        raise ValueError(f"FEN field {number} ({name}): {text!r} is not a number 0 to 65535")
    return int(text)


# ---------------------------------------------------------------------------------------------
# Perft
# ---------------------------------------------------------------------------------------------

def perft(position: XiangqiPosition, depth: int) -> int:
    """The number of sequences of `depth` legal moves (5.7 Moves) from the position, as
    corpus/perft/xiangqi.txt counts them."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(m), depth - 1) for m in moves)


# ---------------------------------------------------------------------------------------------
# Move text (5.7.1): the notation bytes and a move's text in ICCS, WXF or Chinese
# ---------------------------------------------------------------------------------------------

ICCS, WXF, CHINESE = 0, 1, 2                      # bits 0-1 of byte 0, the notation; 3 reserved
NOTATION_NAMES = ("ICCS", "WXF", "Chinese")
NOTATION_LENGTH = {ICCS: 1, WXF: 3, CHINESE: 8}   # XQ-NOTATION-1: 1, 3 or 8 bytes

# 5.7.1 Notation bytes, the element tables: (byte, first bit, element, largest value).  The
# largest value is 2 for the elements whose value 3 is reserved, 3 for WXF sideways and the
# Chinese digits, which use it, and 1 for tandem by file (2 and 3 reserved).
NOTATION_ELEMENTS = {
    ICCS: ((0, 2, "case", 2), (0, 4, "hyphen", 2)),
    WXF: ((0, 2, "width", 2), (0, 4, "case", 2), (0, 6, "sideways", 3),
          (1, 0, "elephant_letter", 2), (1, 2, "horse_letter", 2), (1, 4, "mark_place", 2),
          (1, 6, "soldier_order", 2), (2, 0, "marked", 2)),
    CHINESE: ((0, 2, "advance", 2), (0, 4, "rear", 2), (0, 6, "mark_place", 2),
              (1, 0, "soldier_order", 2), (1, 2, "marked", 2), (1, 4, "red_digits", 3),
              (1, 6, "black_digits", 3)),
}
# ... and the two elements of blocks of codec 14 or 15 (format 1.10): the encoding (WXF byte 2
# bits 2-3, Chinese bits 42-43 of P, byte 7's bits 2-3) and tandem by file (WXF byte 2 bits 4-5,
# Chinese bits 44-45 of P, byte 7's bits 4-5).  In a block of codec 9 to 12 their bits are
# reserved (NOTATION_RESERVED_BEFORE_1_10).
EXTENDED_ELEMENTS = {
    ICCS: (),
    WXF: ((2, 2, "encoding", 2), (2, 4, "tandem_by_file", 1)),
    CHINESE: ((7, 2, "encoding", 2), (7, 4, "tandem_by_file", 1)),
}
# the reserved bits, which must be 0: (byte, mask); bits 46-47 of P are byte 7's 0xC0
NOTATION_RESERVED = {ICCS: ((0, 0xC0),), WXF: ((2, 0xC0),), CHINESE: ((7, 0xC0),)}
NOTATION_RESERVED_BEFORE_1_10 = {ICCS: (), WXF: ((2, 0x3C),), CHINESE: ((7, 0x3C),)}

UTF8, GB18030, BIG5 = 0, 1, 2                     # the encoding element's values
ENCODING_NAMES = ("UTF-8", "GB18030", "Big5")

# 5.7.1, the piece characters of types 1 to 7 (KINDS order: general, advisor, elephant, horse,
# chariot, cannon, soldier): the row's characters 1, 2, ..., and each side's default value
PIECE_CHARACTERS = {
    GENERAL: "\u5e05\u5e25\u5c06\u5c07",          # 帅 帥 将 將
    ADVISOR: "\u4ed5\u58eb",                      # 仕 士
    ELEPHANT: "\u76f8\u8c61",                     # 相 象
    HORSE: "\u9a6c\u99ac\u508c",                  # 马 馬 傌
    CHARIOT: "\u8f66\u8eca\u4fe5",                # 车 車 俥
    CANNON: "\u70ae\u7832\u5305",                 # 炮 砲 包
    SOLDIER: "\u5175\u5352",                      # 兵 卒
}
PIECE_DEFAULT = {GENERAL: (1, 3), ADVISOR: (1, 2), ELEPHANT: (1, 2), HORSE: (1, 1),
                 CHARIOT: (1, 1), CANNON: (1, 1), SOLDIER: (1, 2)}        # (Red's, Black's)
# 5.7.1, the Big5 defaults: the row's defaults but for the general (Red 2 帥, Black 4 將), the
# horse (2 馬) and the chariot (2 車)
PIECE_DEFAULT_BIG5 = dict(PIECE_DEFAULT, **{GENERAL: (2, 4), HORSE: (2, 2), CHARIOT: (2, 2)})
# XQ-NOTATION-1: the piece characters Big5 lacks (帅 将, 马, 车 俥), rejected where it is named,
# and the cannon's 包, whose Big5 bytes A5 5D end in `]` (a PGN delimiter), rejected there too
BIG5_LACKS = {GENERAL: (1, 3), HORSE: (1,), CHARIOT: (1, 3)}
BIG5_REJECTED = dict(BIG5_LACKS, **{CANNON: (3,)})

CHINESE_NUMERALS = "\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d"   # 一 .. 九
ADVANCE = ("\u8fdb", "\u8fdb", "\u9032")          # 进 (0, 1), 進 (2); with Big5 advance 0 is 進
RETREAT, TRAVERSE = "\u9000", "\u5e73"            # 退, 平
MARK_FRONT, MARK_MIDDLE = "\u524d", "\u4e2d"      # 前, 中
MARK_REAR = ("\u540e", "\u540e", "\u5f8c")        # 后 (0, 1), 後 (2)


class Notation:
    """Notation bytes read (5.7.1): `.notation` (ICCS, WXF or CHINESE) and each element of its
    table as an attribute, 0 where not set (its default then applies), `.encoding` (UTF8,
    GB18030, BIG5) and `.tandem_by_file` among them (0 but in a block of codec 14 or 15);
    Chinese `.pieces[s][t]` (s 0 Red, 1 Black; t the kind letter) the piece character
    values, 0 for the default."""

    def __init__(self, data: bytes):
        self.data = bytes(data)
        self.notation = data[0] & 3
        for _, _, name, _ in (e for tables in (NOTATION_ELEMENTS, EXTENDED_ELEMENTS)
                              for table in tables.values() for e in table):
            setattr(self, name, 0)
        self.pieces = [{kind: 0 for kind in KINDS} for _ in (RED, BLACK)]

    def __repr__(self):
        return f"Notation({self.data.hex(' ')!r})"


def read_notation(data: bytes, extended: bool = False) -> Notation:
    """5.7.1 Notation bytes [XQ-NOTATION-1]: ValueError, naming what is wrong, for notation
    bytes that are empty, of notation 3, not of their notation's length, with 3 in a two-bit
    element whose values stop at 2, a tandem by file of 2 or 3, a reserved bit set, a piece
    character among its type's reserved values, or, where the encoding is Big5, a character
    Big5 lacks named (advance 1 进, a general's 1 帅 or 3 将, a horse's 1 马, a chariot's 1 车 or
    3 俥) or a cannon's 3 (包, whose Big5 bytes A5 5D end in `]`).  `extended`: the bytes are
    those of a game in a block of codec 14 or 15 (format 1.10), where WXF byte 2 bits 2-5 and
    bits 42-45 of P are the encoding and tandem by file; in a block of codec 9 to 12 (extended
    False) those bits are reserved."""
    if len(data) == 0:
        raise ValueError("notation bytes: empty")
    notation = data[0] & 3
    if notation == 3:
        raise ValueError("notation bytes: notation 3 (reserved)")
    if len(data) != NOTATION_LENGTH[notation]:
        raise ValueError(f"notation bytes: {len(data)} bytes, {NOTATION_NAMES[notation]} has "
                         f"{NOTATION_LENGTH[notation]}")
    result = Notation(data)
    elements = NOTATION_ELEMENTS[notation] + (EXTENDED_ELEMENTS[notation] if extended else ())
    for byte, bit, name, largest in elements:
        value = (data[byte] >> bit) & 3
        if value > largest:
            raise ValueError(f"notation bytes: {NOTATION_NAMES[notation]} {name} of {value} "
                             f"(reserved)")
        setattr(result, name, value)
    reserved = NOTATION_RESERVED[notation]
    if not extended:
        reserved += NOTATION_RESERVED_BEFORE_1_10[notation]
    for byte, mask in reserved:
        if data[byte] & mask:
            raise ValueError(f"notation bytes: reserved bits {data[byte] & mask:#04x} of byte "
                             f"{byte} set" + ("" if extended else " (in a block of codec 9 "
                                                                  "to 12)"))
    if notation == CHINESE:
        p = int.from_bytes(data[2:8], "little")          # P, bytes 2 to 7, little-endian
        for s in (RED, BLACK):
            for t, kind in enumerate(KINDS, start=1):
                value = (p >> (3 * (7 * s + t - 1))) & 7
                if value > len(PIECE_CHARACTERS[kind]):
                    raise ValueError(f"notation bytes: {('Red', 'Black')[s]}'s {kind} piece "
                                     f"character {value} (reserved)")
                if result.encoding == BIG5 and value in BIG5_REJECTED.get(kind, ()):
                    why = ("its Big5 bytes end in ']'" if value not in BIG5_LACKS.get(kind, ())
                           else "which Big5 lacks")
                    raise ValueError(f"notation bytes: {('Red', 'Black')[s]}'s {kind} piece "
                                     f"character {value} "
                                     f"({PIECE_CHARACTERS[kind][value - 1]}), {why}")
                result.pieces[s][kind] = value
        if result.encoding == BIG5 and result.advance == 1:
            raise ValueError("notation bytes: advance 1 (\u8fdb), which Big5 lacks")
    return result


def file_number(file: int, color: int) -> int:
    """5.7.1 Terms: a side's file number, 1 to 9 from its right: Red 9 - file, Black file + 1."""
    return FILES - file if color == RED else file + 1


def move_direction(move, color: int) -> str:
    """5.7.1 Terms: "forward" if the move raises the mover's own rank, "backward" if it lowers
    it, "sideways" if it keeps it."""
    before, after = own_rank(move[0], color), own_rank(move[1], color)
    return "forward" if after > before else "backward" if after < before else "sideways"


def move_number(position: XiangqiPosition, move) -> int:
    """5.7.1 Direction and number: for a line mover (general, chariot, cannon, soldier) moving
    forward or backward the ranks it moves; otherwise the to-square's file number."""
    piece = position.board[move[0]]
    color = color_of(piece)
    direction = move_direction(move, color)
    if kind_of(piece) in (GENERAL, CHARIOT, CANNON, SOLDIER) and direction != "sideways":
        return abs(rank_of(move[1]) - rank_of(move[0]))
    return file_number(file_of(move[1]), color)


# 5.7.1 [XQ-TEXT-2] rule 6: the naming of soldier i (from the front) of n on a file
SOLDIER_NAMING = {
    (3, WXF): (("mark", "front"), ("file",), ("mark", "rear")),
    (4, WXF): (("most", "foremost"), ("mark", "front"), ("mark", "rear"), ("most", "rearmost")),
    (5, WXF): (("most", "foremost"), ("mark", "front"), ("file",), ("mark", "rear"),
               ("most", "rearmost")),
    (3, CHINESE): (("mark", "front"), ("mark", "middle"), ("mark", "rear")),
    (4, CHINESE): (("mark", "front"), ("ordinal", 2), ("ordinal", 3), ("mark", "rear")),
    (5, CHINESE): (("mark", "front"), ("ordinal", 2), ("ordinal", 3), ("ordinal", 4),
                   ("mark", "rear")),
}


def same_motion(position: XiangqiPosition, move, other: int) -> bool:
    """5.7.1 [XQ-TEXT-2] rule 3: whether the piece on `other` (the mover's kin on its file) has
    a move of the same motion as `move`: a move to a square that holds no piece of its side,
    that its movement rules of 5.7 reach (piece_moves: check and facing generals aside), whose
    direction and number are the move's."""
    color = color_of(position.board[move[0]])
    motion = (move_direction(move, color), move_number(position, move))
    return any((move_direction(m, color), move_number(position, m)) == motion
               for m in piece_moves(position.board, other))


def naming(position: XiangqiPosition, move, notation: Notation):
    """5.7.1 Naming the mover [XQ-TEXT-2] (WXF and Chinese): ("file",), ("mark", front, middle
    or rear), ("most", foremost or rearmost), ("ordinal", k) or ("file form", front, middle or
    rear), by the first of its rules that applies (rule 3 with tandem by file, same_motion)."""
    frm = move[0]
    piece = position.board[frm]
    kind, color = kind_of(piece), color_of(piece)
    kin = [sq for sq, p in enumerate(position.board) if p == piece]      # the mover's kin
    on_file = [sq for sq in kin if file_of(sq) == file_of(frm)]
    n = len(on_file)
    i = sum(1 for sq in on_file if own_rank(sq, color) > own_rank(frm, color))
    kin_files = [file_of(sq) for sq in kin]
    c = sum(1 for f in set(kin_files) if kin_files.count(f) >= 2)
    front_rear = ("front", "rear")
    if n == 1:                                                             # 1.
        return ("file",)
    if kind in (ADVISOR, ELEPHANT):                                        # 2. (n = 2)
        return ("mark", front_rear[i]) if notation.marked == 2 else ("file",)
    if kind in (HORSE, CHARIOT, CANNON) or (kind == SOLDIER and n == 2 and c == 1):   # 3.
        if kind != SOLDIER and notation.tandem_by_file == 1:   # tandem by file (codecs 14 and 15)
            other, = (sq for sq in on_file if sq != frm)
            if not same_motion(position, move, other):
                return ("file",)
        return ("mark", front_rear[i])
    if kind == SOLDIER and c == 2:                                         # 4. (n <= 3)
        return ("file form", "front" if i == 0 else "rear" if i == n - 1 else "middle")
    if kind == SOLDIER and n >= 3 and c == 1:
        if notation.soldier_order == 2:                                    # 5.
            return ("ordinal", i + 1)
        return SOLDIER_NAMING[n, notation.notation][i]                     # 6.
    raise AssertionError(f"no rule of XQ-TEXT-2 names {piece} on {square_name(frm)}")


def iccs_text(move, notation: Notation) -> str:
    """5.7.1 ICCS [XQ-TEXT-1]: the from-square's name then the to-square's; file letters upper
    case with letter case 2, a `-` between the squares with hyphen 2."""
    frm, to = square_name(move[0]), square_name(move[1])
    if notation.case == 2:
        frm, to = frm.upper(), to.upper()
    return frm + ("-" if notation.hyphen == 2 else "") + to


WXF_LETTERS = {GENERAL: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", CHARIOT: "R",
               CANNON: "C", SOLDIER: "P"}


def wxf_text(position: XiangqiPosition, move, notation: Notation) -> str:
    """5.7.1 WXF [XQ-TEXT-3]: the naming, the direction and the number in ASCII (3 or 4
    characters), each character full-width (U+FF01 + (c - 0x21)) with width 2."""
    piece = position.board[move[0]]
    kind, color = kind_of(piece), color_of(piece)
    letter = WXF_LETTERS[kind]
    if kind == ELEPHANT and notation.elephant_letter == 2:
        letter = "B"
    if kind == HORSE and notation.horse_letter == 2:
        letter = "N"
    if notation.case == 1:
        letter = letter.lower()
    f = str(file_number(file_of(move[0]), color))
    before = notation.mark_place == 1                  # 1 before; 0 or 2 after
    name = naming(position, move, notation)
    sign = {"front": "+", "rear": "-"}
    if name[0] == "file":
        text = letter + f
    elif name[0] == "mark":
        text = sign[name[1]] + letter if before else letter + sign[name[1]]
    elif name[0] == "file form":
        if name[1] == "middle":
            text = f + f
        else:
            text = sign[name[1]] + f if before else f + sign[name[1]]
    elif name[0] == "most":
        text = "++" if name[1] == "foremost" else "--"
    else:                                              # ordinal k
        text = str(name[1]) + letter
    direction = move_direction(move, color)
    if direction == "forward":
        text += "+"
    elif direction == "backward":
        text += "-"
    else:
        text += (".", ".", "=", "")[notation.sideways]
    text += str(move_number(position, move))
    if notation.width == 2:
        text = "".join(chr(0xFF01 + ord(ch) - 0x21) for ch in text)
    return text


def chinese_digit(value: int, color: int, notation: Notation) -> str:
    """5.7.1 Chinese: D(v), v 1 to 9, in the side's digits: 1 the Chinese numeral, 2 the
    full-width digit U+FF10 + v, 3 the ASCII digit; 0 the side's default (Red 1, Black 2)."""
    form = notation.red_digits if color == RED else notation.black_digits
    form = form or (1 if color == RED else 2)
    if form == 1:
        return CHINESE_NUMERALS[value - 1]
    if form == 2:
        return chr(0xFF10 + value)
    return chr(0x30 + value)


def piece_character(kind: str, color: int, notation: Notation) -> str:
    """5.7.1: the piece character of a side's type: value k the k-th of the type's row, 0 the
    side's default, where the encoding is Big5 the Big5 default."""
    defaults = PIECE_DEFAULT_BIG5 if notation.encoding == BIG5 else PIECE_DEFAULT
    value = notation.pieces[color][kind] or defaults[kind][color]
    return PIECE_CHARACTERS[kind][value - 1]


def chinese_text(position: XiangqiPosition, move, notation: Notation) -> str:
    """5.7.1 Chinese [XQ-TEXT-4]: four characters: two of naming, the direction, the number."""
    piece = position.board[move[0]]
    kind, color = kind_of(piece), color_of(piece)
    char = piece_character(kind, color, notation)
    f = chinese_digit(file_number(file_of(move[0]), color), color, notation)
    after = notation.mark_place == 2                   # 0 or 1 before; 2 after
    marks = {"front": MARK_FRONT, "middle": MARK_MIDDLE, "rear": MARK_REAR[notation.rear]}
    name = naming(position, move, notation)
    if name[0] == "file":
        text = char + f
    elif name[0] == "mark":
        text = char + marks[name[1]] if after else marks[name[1]] + char
    elif name[0] == "file form":
        text = f + marks[name[1]] if after else marks[name[1]] + f
    elif name[0] == "ordinal":
        text = chinese_digit(name[1], color, notation) + char
    else:
        raise AssertionError(f"{name[1]} is WXF's alone (XQ-TEXT-2 rule 6)")
    direction = move_direction(move, color)
    advance = notation.advance or (2 if notation.encoding == BIG5 else 0)   # Big5: 進
    text += {"forward": ADVANCE[advance], "backward": RETREAT,
             "sideways": TRAVERSE}[direction]
    return text + chinese_digit(move_number(position, move), color, notation)


def move_text(position: XiangqiPosition, move, notation: Notation) -> str:
    """5.7.1 Move text: the text of a legal move of `position` in the notation and spelling
    that the notation bytes name (XQ-TEXT-1 ICCS, XQ-TEXT-3 WXF, XQ-TEXT-4 Chinese), as a str;
    move_text_bytes gives its bytes in the notation bytes' encoding."""
    if notation.notation == ICCS:
        return iccs_text(move, notation)
    if notation.notation == WXF:
        return wxf_text(position, move, notation)
    return chinese_text(position, move, notation)


# 5.7.1 Encodings: each character the texts write beyond ASCII, its two bytes in GB18030 and in
# Big5 (first byte first; - where Big5 has none), as the specification's table gives them
ENCODING_TABLE = """
5E05 CBA7 -     5E25 8E9B ABD3  5C06 BDAB -     5C07 8CA2 B14E  4ED5 CACB A54B  58EB CABF A468
76F8 CFE0 ACDB  8C61 CFF3 B648  9A6C C2ED -     99AC F152 B0A8  508C 82D8 D858  8F66 B3B5 -
8ECA DC87 A8AE  4FE5 8265 -     70AE C5DA ACB6  7832 B368 AFA5  5305 B0FC A55D  5175 B1F8 A74C
5352 D7E4 A8F2  4E00 D2BB A440  4E8C B6FE A447  4E09 C8FD A454  56DB CBC4 A57C  4E94 CEE5 A4AD
516D C1F9 A4BB  4E03 C6DF A443  516B B0CB A44B  4E5D BEC5 A445  FF11 A3B1 A2B0  FF12 A3B2 A2B1
FF13 A3B3 A2B2  FF14 A3B4 A2B3  FF15 A3B5 A2B4  FF16 A3B6 A2B5  FF17 A3B7 A2B6  FF18 A3B8 A2B7
FF19 A3B9 A2B8  8FDB BDF8 -     9032 DF4D B669  9000 CDCB B068  5E73 C6BD A5AD  524D C7B0 AB65
4E2D D6D0 A4A4  540E BAF3 A65A  5F8C E1E1 ABE1  FF0B A3AB A1CF  FF0D A3AD A1D0  FF0E A3AE A144
FF1D A3BD A1D7  FF21 A3C1 A2CF  FF22 A3C2 A2D0  FF23 A3C3 A2D1  FF25 A3C5 A2D3  FF28 A3C8 A2D6
FF2B A3CB A2D9  FF2E A3CE A2DC  FF30 A3D0 A2DE  FF32 A3D2 A2E0  FF41 A3E1 A2E9  FF42 A3E2 A2EA
FF43 A3E3 A2EB  FF45 A3E5 A2ED  FF48 A3E8 A2F0  FF4B A3EB A2F3  FF4E A3EE A2F6  FF50 A3F0 A2F8
FF52 A3F2 A2FA
"""
_cells = ENCODING_TABLE.split()
ENCODED = {chr(int(_cells[k], 16)): (None, bytes.fromhex(_cells[k + 1]),
                                     None if _cells[k + 2] == "-" else bytes.fromhex(_cells[k + 2]))
           for k in range(0, len(_cells), 3)}     # character -> (None, GB18030, Big5) by encoding


def encode_text(text: str, notation: Notation) -> bytes:
    """5.7.1 Encodings: a move text's bytes: UTF-8 with encoding 0; with encoding 1 (GB18030) or
    2 (Big5) each ASCII character its byte and each other character its two bytes of the
    table.  XQ-NOTATION-1's Big5 checks and defaults leave no character Big5 lacks."""
    if notation.encoding == UTF8:
        return text.encode("utf-8")
    out = bytearray()
    for ch in text:
        if ord(ch) < 0x80:
            out.append(ord(ch))
            continue
        pair = ENCODED.get(ch, (None, None, None))[notation.encoding]
        if pair is None:
            raise AssertionError(f"{ch!r} has no bytes in {ENCODING_NAMES[notation.encoding]}")
        out += pair
    return bytes(out)


def move_text_bytes(position: XiangqiPosition, move, notation: Notation) -> bytes:
    """5.7.1 Move text: the move's text (move_text) as the bytes a PGN holds, in the encoding
    the notation bytes name (encode_text)."""
    return encode_text(move_text(position, move, notation), notation)
