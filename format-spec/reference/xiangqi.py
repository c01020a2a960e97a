"""Reference decoder for pgnarc: the rules of Xiangqi (section 5.7).

Written from section 5.7 of format-spec/pgnarc-format.md alone; section numbers and
the names below are its paragraphs (5.7 FEN, 5.7 Moves, 5.7 Order).  Standard library only;
run with Python 3.11 (/usr/bin/python3).  Nothing of 5.1 to 5.6 (chess) is used here.

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

        def free(sq):                     # empty, or an enemy piece to capture
            piece = board[sq]
            return piece is None or color_of(piece) != color

        for frm, piece in enumerate(board):
            if piece is None or color_of(piece) != color:
                continue
            kind = kind_of(piece)
            if kind == GENERAL:
                moves += [(frm, t) for t in GENERAL_STEPS[color][frm] if free(t)]
            elif kind == ADVISOR:
                moves += [(frm, t) for t in ADVISOR_STEPS[color][frm] if free(t)]
            elif kind == ELEPHANT:
                moves += [(frm, t) for eye, t in ELEPHANT_STEPS[color][frm]
                          if board[eye] is None and free(t)]
            elif kind == HORSE:
                moves += [(frm, t) for leg, t in HORSE_STEPS[frm]
                          if board[leg] is None and free(t)]
            elif kind == SOLDIER:
                moves += [(frm, t) for t in SOLDIER_STEPS[color][frm] if free(t)]
            elif kind == CHARIOT:
                for ray in RAYS[frm]:
                    for t in ray:
                        if board[t] is None:
                            moves.append((frm, t))
                            continue
                        if color_of(board[t]) != color:
                            moves.append((frm, t))
                        break
            elif kind == CANNON:
                for ray in RAYS[frm]:
                    screen = False
                    for t in ray:
                        if not screen:
                            if board[t] is None:
                                moves.append((frm, t))      # as a chariot, to empty squares
                            else:
                                screen = True                # the screen, either side's
                        elif board[t] is not None:
                            if color_of(board[t]) != color:  # first piece beyond the screen
                                moves.append((frm, t))
                            break
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
