"""The Xiangqi model of format 1.8 (section 7.9 of pgnarc-format.md), written from the
specification and its appendix xiangqi-model-tables.md alone.

In a block of move codec 11, 12, 14 or 15 (format 1.10's codecs 14 and 15 code their moves as
11 and 12 do) whose move coder is 1 (model) or 2 (fast), a Xiangqi game's plies (5.7.2) have
these frequencies [XQ-MODEL-1]: each legal move (in 5.7's order, XQ-ORDER-1) is scored by the sum
of X[k] over its features, and the scores become frequencies by the table E of 7.6
(MOVE-MODEL-1, step 3: `frequencies_of_scores` in moves.py).  The end of a line not of
known length has the model coder's end frequency with the hazard H of 7.6.4 (`xq_end_frequency`).
The history that the features read is XQ-MODEL-2's (`XqHistory`, `xq_history_after`).

The table X (K_X = 4109 signed bytes) and its groups are read from the appendix's own text at
import time, as moves.py reads W, Z and W_F; the groups' offsets and sizes are checked against
the table of 7.9 (XQ_GROUPS below).  The rules (pieces' steps, check, legal moves) are
xiangqi.py's.

Terms of 7.9, as functions: `attacks(t, B)`, `attack_counts` (A_us and A_them), `phase`, `rel`,
`dist`; a move's features in `xq_move_features` (defended, check and threat computed there).
"""

from collections import namedtuple

from moves import HAZARD, _load_book_bytes, _load_weight_table, book_frequencies, frequencies_of_scores, read_book
from xiangqi import (XiangqiPosition, ADVISOR, ADVISOR_STEPS, CANNON, CHARIOT, ELEPHANT, ELEPHANT_STEPS, FILES,
                     GENERAL, GENERAL_STEPS, HORSE, HORSE_STEPS, KINDS, RAYS, SOLDIER,
                     SOLDIER_STEPS, SQUARES, attacked, color_of, file_of, generals_face,
                     kind_of, rank_of)

# ---------------------------------------------------------------------------------------------
# The table X (7.9, xiangqi-model-tables.md)
# ---------------------------------------------------------------------------------------------

# 7.9's table of features: offset -> size, in the order of the table (the appendix names them).
XQ_GROUPS = {
    0: 1890,        # to-square [phase][kind][rel(T)]
    1890: 1890,     # from-square [phase][kind][rel(F)]
    3780: 56,       # capture [kind][victim: none, K, A, B, N, R, C, P]
    3836: 28,       # to-square safety [kind][attacked by them][defended by us]
    3864: 28,       # from-square safety [kind][attacked by them][defended by us]
    3892: 7,        # check [kind]
    3899: 7,        # we are in check [kind]
    3906: 7,        # lands where their last move landed [kind]
    3913: 21,       # threat [kind][none, a piece worth more, an undefended piece]
    3934: 56,       # reply [their last-moved kind, none][kind]
    3990: 7,        # the piece moved last [kind]
    3997: 7,        # straight back [kind]
    4004: 70,       # general distance [kind][distance]
    4074: 35,       # near their last move [kind][distance, 4 for 4 or more]
}
TO_SQUARE, FROM_SQUARE, CAPTURE, TO_SAFETY, FROM_SAFETY = 0, 1890, 3780, 3836, 3864
CHECK, IN_CHECK, RECAPTURE, THREAT, REPLY = 3892, 3899, 3906, 3913, 3934
MOVED_LAST, STRAIGHT_BACK, GENERAL_DISTANCE, NEAR_LAST = 3990, 3997, 4004, 4074


def _load_xiangqi_tables():
    """K_X and X from xiangqi-model-tables.md (its "K = ... features." line, its groups and its
    section "## W", group by group), checked against 7.9's table of groups."""
    k, groups, weights = _load_weight_table("xiangqi-model-tables.md")
    assert k == 4109, k                                         # K_X of XQ-MODEL-1
    assert {o: size for o, (size, _) in groups.items()} == XQ_GROUPS, groups
    assert sum(XQ_GROUPS.values()) == k
    return k, groups, weights


K_X, X_GROUPS, X = _load_xiangqi_tables()


# ---------------------------------------------------------------------------------------------
# Terms (7.9)
# ---------------------------------------------------------------------------------------------

# the kind of a piece (general 0 .. soldier 6) and its value
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}          # K A B N R C P -> 0 .. 6
VALUE = (0, 2, 2, 4, 9, 4, 1)           # general, advisor, elephant, horse, chariot, cannon, soldier
NO_KIND = 7                             # `reply`'s index where last is none


def kind_index(piece: str) -> int:
    return KIND_INDEX[kind_of(piece)]


def rel(s: int, red_to_move: bool) -> int:
    """rel(s): the square as we see the board: s where Red is to move, 89 - s where Black is
    (files and ranks both turned)."""
    return s if red_to_move else SQUARES - 1 - s


def dist(a: int, b: int) -> int:
    """dist(a, b) = max(|file(a) - file(b)|, |rank(a) - rank(b)|), 0 to 9."""
    return max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))


def phase(board) -> int:
    """The phase: N the pieces on the board (both sides, generals included): 0 if N >= 28,
    1 if 18 <= N <= 27, 2 if N <= 17."""
    n = sum(1 for piece in board if piece is not None)
    return 0 if n >= 28 else 1 if n >= 18 else 2


def attacks(t: int, board) -> list:
    """attacks(t, B): the squares the piece on square t of board B attacks, whatever stands on
    them and whether or not a capture there would be legal (7.9).  Distinct squares, in no
    particular order; never t itself."""
    piece = board[t]
    color, kind = color_of(piece), kind_of(piece)
    if kind == GENERAL:                 # one-square orthogonal steps inside its palace
        return list(GENERAL_STEPS[color][t])
    if kind == ADVISOR:                 # one-square diagonal steps inside its palace
        return list(ADVISOR_STEPS[color][t])
    if kind == ELEPHANT:                # two-square diagonal steps on its own side, eye empty
        return [to for eye, to in ELEPHANT_STEPS[color][t] if board[eye] is None]
    if kind == HORSE:                   # targets whose leg is empty
        return [to for leg, to in HORSE_STEPS[t] if board[leg] is None]
    if kind == SOLDIER:                 # forwards; sideways too once across the river
        return list(SOLDIER_STEPS[color][t])
    squares = []
    if kind == CHARIOT:                 # up to and including the first piece, or the edge
        for ray in RAYS[t]:
            for s in ray:
                squares.append(s)
                if board[s] is not None:
                    break
        return squares
    assert kind == CANNON               # beyond the screen (not attacked itself) up to and
    for ray in RAYS[t]:                 # including the next piece, or the edge; no screen: none
        screen = False
        for s in ray:
            if not screen:
                screen = board[s] is not None
                continue
            squares.append(s)
            if board[s] is not None:
                break
    return squares


def attack_counts(board, own_attacks):
    """For each colour (Red 0, Black 1) and square s, the number of that colour's pieces that
    attack s on the board: A_us(s) and A_them(s) of 7.9, taken on the position's board (before
    the move).  own_attacks: square -> attacks(square, board) of every piece."""
    counts = ([0] * SQUARES, [0] * SQUARES)
    for t, squares in own_attacks.items():
        c = counts[color_of(board[t])]
        for s in squares:
            c[s] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# History (XQ-MODEL-2)
# ---------------------------------------------------------------------------------------------

XqLast = namedtuple("XqLast", "from_sq to_sq kind")   # kind: the kind index of the mover
XqOurs = namedtuple("XqOurs", "from_sq to_sq")
XqHistory = namedtuple("XqHistory", "last ours")
XQ_NO_HISTORY = XqHistory(None, None)                  # the first ply of a game's main line


def xq_history_after(history: XqHistory, position, move) -> XqHistory:
    """XQ-MODEL-2: the history of the ply after `move` (a ply of `position`, whose history is
    `history`): last = (from, to, the kind of the piece on from before the move), ours = none if
    history.last is none, else (history.last.from, history.last.to).  (A Xiangqi line has no
    null moves, 5.7.2.)"""
    frm, to = move
    ours = None
    if history.last is not None:
        ours = XqOurs(history.last.from_sq, history.last.to_sq)
    return XqHistory(XqLast(frm, to, kind_index(position.board[frm])), ours)


# ---------------------------------------------------------------------------------------------
# Features and frequencies (XQ-MODEL-1)
# ---------------------------------------------------------------------------------------------

class XqFacts:
    """What 7.9 reads of a position, computed once: the phase, who is to move, the attacks of
    every piece on the position's board B, A_us and A_them, whether we are in check and the
    square of their general."""

    def __init__(self, position):
        board = position.board
        self.board = board
        self.red_to_move = position.red_to_move
        self.us = position.side
        self.phase = phase(board)
        self.own_attacks = {t: attacks(t, board) for t, piece in enumerate(board)
                            if piece is not None}
        counts = attack_counts(board, self.own_attacks)
        self.a_us, self.a_them = counts[self.us], counts[1 - self.us]
        self.in_check = position.in_check()                   # 5.7: we are in check
        self.their_general = position.generals[1 - self.us]
        self.generals = position.generals


def xq_move_features(f: XqFacts, history: XqHistory, move) -> list:
    """The features of the legal move F -> T (7.9's table, in its order), as indices into X."""
    board = f.board
    frm, to = move
    piece = board[frm]
    k = kind_index(piece)
    victim = board[to]
    features = []

    # to-square and from-square [phase][k][rel(square)]
    features.append(TO_SQUARE + (f.phase * 7 + k) * SQUARES + rel(to, f.red_to_move))
    features.append(FROM_SQUARE + (f.phase * 7 + k) * SQUARES + rel(frm, f.red_to_move))

    # capture [k][v]: v 0 where T is empty, else the kind on T plus 1
    features.append(CAPTURE + k * 8 + (0 if victim is None else kind_index(victim) + 1))

    # to-square safety [k][a][d]: a = A_them(T) > 0; d = defended (another of our pieces
    # attacks T: A_us(T) > 1 where the mover itself attacks T on B, > 0 where it does not)
    mover_attacks_to = to in f.own_attacks[frm]
    defended = f.a_us[to] > (1 if mover_attacks_to else 0)
    features.append(TO_SAFETY + (k * 2 + (f.a_them[to] > 0)) * 2 + defended)

    # from-square safety [k][a][d]: a = A_them(F) > 0, d = A_us(F) > 0
    features.append(FROM_SAFETY + (k * 2 + (f.a_them[frm] > 0)) * 2 + (f.a_us[frm] > 0))

    # B', the board after the move (P on T, F empty, the captured piece removed)
    after = list(board)
    after[to], after[frm] = piece, None

    # check: in the position after the move, they are in check (5.7): their general attacked
    # by a piece of ours, or the generals facing each other
    generals = list(f.generals)
    if k == 0:
        generals[f.us] = to
    their_general = generals[1 - f.us]
    if (attacked(after, their_general, f.us)
            or generals_face(after, generals[0], generals[1])):
        features.append(CHECK + k)

    # we are in check (5.7), in the position before the move
    if f.in_check:
        features.append(IN_CHECK + k)

    # lands where their last move landed
    last, ours = history.last, history.ours
    if last is not None and to == last.to_sq:
        features.append(RECAPTURE + k)

    # threat [k][threat], over the squares of attacks(T, B') that hold a piece of theirs other
    # than their general: 1 if one has a greater value than P; else 2 if one stands on a square
    # s with A_them(s) = 0 (on B, before the move); else 0
    threat = 0
    for s in attacks(to, after):
        target = after[s]
        if target is None or color_of(target) == f.us or kind_of(target) == GENERAL:
            continue
        if VALUE[kind_index(target)] > VALUE[k]:
            threat = 1
            break
        if f.a_them[s] == 0:
            threat = 2
    features.append(THREAT + k * 3 + threat)

    # reply [r][k]: r = last.kind, or 7 where last is none
    features.append(REPLY + (NO_KIND if last is None else last.kind) * 7 + k)

    # the piece moved last; straight back
    if ours is not None and frm == ours.to_sq:
        features.append(MOVED_LAST + k)
        if to == ours.from_sq:
            features.append(STRAIGHT_BACK + k)

    # general distance [k][dist(T, G)], G the square of their general (before the move; a legal
    # move never takes it)
    features.append(GENERAL_DISTANCE + k * 10 + dist(to, f.their_general))

    # near their last move [k][min(dist(T, last.to), 4)]
    if last is not None:
        features.append(NEAR_LAST + k * 5 + min(dist(to, last.to_sq), 4))
    return features


def xq_scores(position, history: XqHistory, moves: list) -> list:
    """XQ-MODEL-1: each legal move's score, the sum of X[k] over its features."""
    f = XqFacts(position)
    return [sum(X[k] for k in xq_move_features(f, history, m)) for m in moves]


def xq_model_frequencies(position, history: XqHistory, moves: list) -> list:
    """XQ-MODEL-1: f_0 .. f_{n-1} of the legal moves (5.7's order) by MOVE-MODEL-1, step 3."""
    if not moves:
        return []
    return frequencies_of_scores(xq_scores(position, history, moves))


# ---------------------------------------------------------------------------------------------
# The book (7.9.1)
# ---------------------------------------------------------------------------------------------

XQ_BOOK_BYTES = _load_book_bytes("xiangqi-model-tables.md")     # XQ-BOOK-1
_XQ_BOOK = None                          # its nodes, read at the first use
XQ_BOOK_LAST_MOVE = 20


def xq_book_entries(position) -> "list | None":
    """XQ-BOOK-2: the book's node (a list of (index, count)) of a position whose fullmove number
    is at most 20, else None."""
    global _XQ_BOOK
    if position.fullmove > XQ_BOOK_LAST_MOVE:
        return None
    if _XQ_BOOK is None:
        _XQ_BOOK = read_book(XQ_BOOK_BYTES, XiangqiPosition.start())
    return _XQ_BOOK.get(position.identity())


def xq_book_frequencies(position, history: XqHistory, moves: list) -> list:
    """XQ-MODEL-1 in a block of codec 17 or 18: the book's frequencies (XQ-BOOK-3) where it
    holds the position, else the model's."""
    if not moves:
        return []
    entries = xq_book_entries(position)
    if entries is not None:
        return book_frequencies(entries, len(moves))
    return xq_model_frequencies(position, history, moves)


def xq_end_frequency(total: int, p: int) -> int:
    """XQ-MODEL-1 and MOVE-SYM-2: the model coder's end frequency, with the hazard H of 7.6.4,
    max(1, floor(S * H[min(p, 255)] / 2^16)); 1 where the position has no legal move (S = 0:
    the end alone, of frequency 1)."""
    return max(1, total * HAZARD[min(p, 255)] // 2 ** 16)
