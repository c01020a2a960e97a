#!/usr/bin/python3
"""A slow, independent reference of the move model, written from the format specification alone.

format-spec/pgnarc-format.md section 7.6 defines the move model (history, facts of a position,
features, the exchange evaluation, scores and frequencies) and 7.1 the end of an unannotated
line; its appendix format-spec/move-model-tables.md prints the weights W and the end hazard H.
This program implements those sections again, section by section, in plain Python: sets of
square numbers instead of bitboards, a legal move generator that tries every move on a copy of
the board, no caching. It is slow on purpose, so that each line can be read against the
paragraph of the specification it implements; nothing here comes from the library's code.

It reads the tables from the specification's own files (W and H from the appendix's ```text
blocks under "## W" and "## H", E from section 7.6), so the documents are checked too, not only
the code. It then reads, on standard input or from a program given with --run, the dump that
tests/reference/model_dump.cpp writes from the library (format below), recomputes from each
line's start position and moves what the library printed (the legal moves in their canonical
order, the position after each move played, the history, each move's features and frequency, the
end frequency), and stops with exit status 1 at the first difference, printing the position, the
move, both feature lists and both frequencies.

The dump, one record a line:

    L <label>                 a line of play starts (history none, ply 0)
    P <p> <fen>               a position of the line, p plies after its start
    H <last> <ours>           the library's history (7.6.1): "-" for none, else from,to,type,capture
                              for last (e.g. e2,e4,P,0) and from,to,capture for ours
    E <end> <total>           the library's end frequency (7.1, model coder) and the list's total
    M <uci> <f> <k>...        one line per legal move, in the library's order: the move (castling
                              as king takes own rook), its frequency, its features
    A <index>                 the move played (its index among the M lines), or
    N                         a null move played; or neither after the line's last position
    Z <lines> <positions> <moves>   the end of the dump

Usage: spec_model.py [--spec DIR] [--run PROGRAM ARG...]
"""

import os
import re
import signal
import subprocess
import sys
from collections import Counter

# ---------------------------------------------------------------------------------------------
# The model's tables (7.6, 7.6.4 and the appendix)
# ---------------------------------------------------------------------------------------------


class SpecError(Exception):
    pass


def text_blocks(part):
    """The integers of each ```text block of `part`, one list per block."""
    return [[int(v) for v in b.split()] for b in re.findall(r"```text\n(.*?)```", part, re.S)]


def section(doc, heading):
    """The text under `heading` (a line of its own) up to the next heading of its level."""
    level = heading.split()[0]
    m = re.search(r"^" + re.escape(heading) + r"$", doc, re.M)
    if not m:
        raise SpecError(f"no heading {heading!r}")
    end = re.compile(r"^" + level + r" ", re.M).search(doc, m.end())
    return doc[m.end():end.start() if end else len(doc)]


# The feature groups and their offsets as section 7.6.5 gives them (its tables repeat the
# appendix's offsets); read_tables checks each against the appendix's table of groups.
TO, FROM, CAPTURE, TO_SAFETY, FROM_SAFETY = 0, 1920, 3840, 3900, 3924
CHECK, THREAT, RECAPTURE, EVADE, IN_CHECK = 3948, 3966, 3978, 3984, 3990
PROMOTION, CASTLING, PASSED, SHIELD, CASTLING_LOSS = 3996, 4000, 4002, 4010, 4011
KING_DISTANCE, EXCHANGE, ANOTHER_EN_PRISE, DEFENDS_EN_PRISE = 4013, 4067, 4295, 4343
MOVED_LAST, STRAIGHT_BACK, NEAR_LAST, FROM_NEAR_LAST, NEAR_OURS = 4347, 4353, 4359, 4413, 4467
MOBILITY, KING_ZONE, TO_BY_THEIR_WING, FORK, THREAT_VALUE = 4521, 4617, 4635, 5787, 5793
FROM_ATTACKED, CHECK_LOSING, TARGETS, LEAVES, AFTER_THEIR_CAPTURE = 5817, 5889, 5895, 5991, 6015
AFTER_OUR_CAPTURE, REPLY, VERSUS_LAST, FILE, PAWN_SHAPE = 6027, 6039, 6075, 6087, 6091
FROM_BY_THEIR_WING, FROM_MOBILITY, KING_DANGER, OUTPOST, KICK = 6094, 7246, 7342, 7354, 7356
TO_BY_OUR_WING = 7362
GROUP_NAMES = {
    TO: "to-square", FROM: "from-square", CAPTURE: "capture", TO_SAFETY: "to-square safety",
    FROM_SAFETY: "from-square safety", CHECK: "check", THREAT: "threat", RECAPTURE: "recapture",
    EVADE: "evade", IN_CHECK: "in check", PROMOTION: "promotion", CASTLING: "castling",
    PASSED: "passed pawn", SHIELD: "king shield", CASTLING_LOSS: "castling loss",
    KING_DISTANCE: "king distance", EXCHANGE: "exchange on the to-square",
    ANOTHER_EN_PRISE: "another piece en prise", DEFENDS_EN_PRISE: "defends the piece en prise",
    MOVED_LAST: "the piece moved last", STRAIGHT_BACK: "straight back",
    NEAR_LAST: "near the opponent's last move", FROM_NEAR_LAST: "from near the opponent's last move",
    NEAR_OURS: "near our previous move", MOBILITY: "mobility",
    KING_ZONE: "attacks next to their king", TO_BY_THEIR_WING: "to-square by their king's wing",
    FORK: "fork", THREAT_VALUE: "threat", FROM_ATTACKED: "from-square attacked",
    CHECK_LOSING: "check losing the exchange", TARGETS: "the piece's targets",
    LEAVES: "leaves a piece undefended", AFTER_THEIR_CAPTURE: "after their capture",
    AFTER_OUR_CAPTURE: "after our capture", REPLY: "reply", VERSUS_LAST: "versus their last-moved piece",
    FILE: "file", PAWN_SHAPE: "pawn shape after the move",
    FROM_BY_THEIR_WING: "from-square by their king's wing",
    FROM_MOBILITY: "mobility where the piece stands", KING_DANGER: "our king attacked around",
    OUTPOST: "outpost", KICK: "a pawn push could attack the to-square",
    TO_BY_OUR_WING: "to-square by our king's wing",
}


def group_name(k):
    """The appendix's group of feature k, as 'name[index]', for messages."""
    base = max(o for o in GROUP_NAMES if o <= k)
    return f"{GROUP_NAMES[base]}+{k - base}"


def read_tables(spec_dir):
    """W (K weights), H (256 end hazards) from the appendix; E (16 entries) from section 7.6."""
    with open(os.path.join(spec_dir, "move-model-tables.md"), encoding="utf-8") as f:
        appendix = f.read()
    with open(os.path.join(spec_dir, "pgnarc-format.md"), encoding="utf-8") as f:
        spec = f.read()
    m = re.search(r"^K = (\d+) features\.$", appendix, re.M)
    if not m:
        raise SpecError("appendix: no line 'K = ... features.'")
    K = int(m.group(1))
    # The table of groups: each group starts where the one before it ends, and section 7.6.5's
    # offsets name the same groups.
    groups = [(int(o), int(s), n) for o, s, n in
              re.findall(r"^\| (\d+) \| (\d+) \| (.+?) \|$", section(appendix, "## Groups"), re.M)]
    at = 0
    for offset, size, name in groups:
        if offset != at:
            raise SpecError(f"appendix: group {name!r} at {offset}, the one before ends at {at}")
        at += size
    if at != K:
        raise SpecError(f"appendix: the groups cover {at} features, K = {K}")
    by_offset = {o: n for o, _, n in groups}
    for offset, name in GROUP_NAMES.items():
        if re.sub(r" \[.*", "", by_offset.get(offset, "")) != name:
            raise SpecError(f"appendix: no group {name!r} at offset {offset} (found {by_offset.get(offset)!r})")
    # W, group by group: each block under "### <group>, from <offset>".
    W = []
    w_part = section(appendix, "## W")
    subsections = re.split(r"^### ", w_part, flags=re.M)[1:]
    if len(subsections) != len(groups):
        raise SpecError(f"appendix: {len(subsections)} weight blocks for {len(groups)} groups")
    for sub, (offset, size, name) in zip(subsections, groups):
        head = sub.split("\n", 1)[0]
        if head != f"{name}, from {offset}":
            raise SpecError(f"appendix: weights headed {head!r}, expected {name!r} from {offset}")
        values = [v for b in text_blocks(sub) for v in b]
        if len(values) != size:
            raise SpecError(f"appendix: {len(values)} weights for group {name!r} of size {size}")
        W += values
    if len(W) != K or any(not -128 <= w <= 127 for w in W):
        raise SpecError("appendix: W must be K integers from -128 to 127")
    H = [v for b in text_blocks(section(appendix, "## H")) for v in b]
    if len(H) != 256 or any(not 1 <= h <= 2 ** 20 for h in H):
        raise SpecError("appendix: H must be 256 integers from 1 to 2^20")
    m = re.search(r"^\s+E = ([\d, \n]+?)\n\n", spec, re.M)
    if not m:
        raise SpecError("pgnarc-format.md 7.6: no table E")
    E = [int(v) for v in m.group(1).replace("\n", " ").split(",")]
    if len(E) != 16 or E[0] != 4096:
        raise SpecError(f"pgnarc-format.md 7.6: E has {len(E)} entries")
    return W, H, E


# ---------------------------------------------------------------------------------------------
# Squares, pieces, attacks (3, 7.6.2)
# ---------------------------------------------------------------------------------------------

P, N, B, R, Q, K = 0, 1, 2, 3, 4, 5  # the type indices of 7.6.2
VALUE = [1, 3, 3, 5, 9, 100]
LETTERS = "PNBRQK"
WHITE, BLACK = 0, 1


def file_of(s): return s & 7
def rank_of(s): return s >> 3
def square(f, r): return f + 8 * r
def on_board(f, r): return 0 <= f < 8 and 0 <= r < 8
def name(s): return "-" if s is None else "abcdefgh"[file_of(s)] + str(rank_of(s) + 1)


def parse_square(text):
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise ValueError(f"bad square {text!r}")
    return square(ord(text[0]) - 97, int(text[1]) - 1)


KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr)
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
STRAIGHTS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def attacks(x, c, s, occ):
    """attacks(x, c, s, occ) of 7.6.2: the squares a piece of type x and colour c on s attacks."""
    f, r = file_of(s), rank_of(s)
    if x == P:
        dr = 1 if c == WHITE else -1
        return {square(f + df, r + dr) for df in (-1, 1) if on_board(f + df, r + dr)}
    if x in (N, K):
        steps = KNIGHT_STEPS if x == N else KING_STEPS
        return {square(f + df, r + dr) for df, dr in steps if on_board(f + df, r + dr)}
    out = set()
    for df, dr in (DIAGONALS if x == B else STRAIGHTS if x == R else DIAGONALS + STRAIGHTS):
        nf, nr = f + df, r + dr
        while on_board(nf, nr):
            out.add(square(nf, nr))
            if square(nf, nr) in occ:
                break
            nf, nr = nf + df, nr + dr
    return out


def dist(a, b):
    """The king distance; 8 when b is none."""
    if a is None or b is None:
        return 8
    return max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))


def wing(k):
    if k is None:
        return 1
    return 0 if file_of(k) <= 2 else 1 if file_of(k) <= 4 else 2


def direction(a, b):
    """The unit step from a towards b on a common rank, file or diagonal, else None."""
    df, dr = file_of(b) - file_of(a), rank_of(b) - rank_of(a)
    if a == b or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return None
    return ((df > 0) - (df < 0), (dr > 0) - (dr < 0))


def line(a, b):
    """All squares of the line through a and b, edge to edge; empty if they share none."""
    d = None if a is None or b is None else direction(a, b)
    if d is None:
        return set()
    out = {a}
    for sign in (1, -1):
        f, r = file_of(a) + sign * d[0], rank_of(a) + sign * d[1]
        while on_board(f, r):
            out.add(square(f, r))
            f, r = f + sign * d[0], r + sign * d[1]
    return out


def between(a, b):
    d = direction(a, b)
    if d is None:
        return set()
    out, s = set(), a
    while True:
        s = square(file_of(s) + d[0], rank_of(s) + d[1])
        if s == b:
            return out
        out.add(s)


def adj(f):
    return {g for g in (f - 1, f + 1) if 0 <= g < 8}


# ---------------------------------------------------------------------------------------------
# Positions: FEN (5.2), legal moves (5.3, 5.4), canonical order (6), playing a move (5.5)
# ---------------------------------------------------------------------------------------------


class Position:
    """board: square -> (colour, type); rooks[c]: {0 king side / 1 queen side: rook square}."""

    def __init__(self, fen):
        fields = fen.split()
        if not 4 <= len(fields) <= 6:
            raise ValueError(f"FEN {fen!r}: {len(fields)} fields")
        self.board = {}
        rows = fields[0].split("/")
        if len(rows) != 8:
            raise ValueError(f"FEN {fen!r}: {len(rows)} ranks")
        for i, row in enumerate(rows):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.board[square(f, 7 - i)] = (WHITE if ch.isupper() else BLACK, LETTERS.index(ch.upper()))
                    f += 1
            if f != 8:
                raise ValueError(f"FEN {fen!r}: rank {8 - i} has {f} squares")
        self.us = {"w": WHITE, "b": BLACK}[fields[1]]
        self.rooks = [{}, {}]
        for ch in "" if fields[2] == "-" else fields[2]:
            c = WHITE if ch.isupper() else BLACK
            first = 0 if c == WHITE else 7
            k = self.king(c)
            if k is None or rank_of(k) != first:
                raise ValueError(f"FEN {fen!r}: castling right {ch} without a king on its first rank")
            rooks = [s for s, p in self.board.items() if p == (c, R) and rank_of(s) == first]
            if ch in "Kk":
                side, s = 0, max((s for s in rooks if s > k), default=None)
            elif ch in "Qq":
                side, s = 1, min((s for s in rooks if s < k), default=None)
            else:
                s = square(ord(ch.lower()) - 97, first)
                side = 0 if s > k else 1
                if s not in rooks:
                    s = None
            if s is None or side in self.rooks[c]:
                raise ValueError(f"FEN {fen!r}: castling right {ch}")
            self.rooks[c][side] = s
        self.ep = None if fields[3] == "-" else parse_square(fields[3])
        if self.ep is not None and not any(self.ep in attacks(P, self.us, s, ()) for s in self.pieces(self.us, P)):
            self.ep = None  # not effective (5.2)
        self.halfmove = int(fields[4]) if len(fields) > 4 else 0
        self.fullmove = (int(fields[5]) or 1) if len(fields) > 5 else 1

    def copy(self):
        p = Position.__new__(Position)
        p.board, p.us, p.rooks = dict(self.board), self.us, [dict(self.rooks[0]), dict(self.rooks[1])]
        p.ep, p.halfmove, p.fullmove = self.ep, self.halfmove, self.fullmove
        return p

    def state(self):
        """What two positions must share to be the same (the FEN's fields, ep only if effective)."""
        return (sorted(self.board.items()), self.us, self.rooks, self.ep, self.halfmove, self.fullmove)

    def pieces(self, c, x=None):
        return sorted(s for s, (pc, px) in self.board.items() if pc == c and (x is None or px == x))

    def king(self, c):
        ks = self.pieces(c, K)
        return ks[0] if ks else None

    def attacked(self, s, by, occ=None):
        """Whether a piece of colour `by` attacks s (with occupancy occ, default the board's)."""
        occ = set(self.board) if occ is None else occ
        return any(s in attacks(x, by, f, occ) for f, (c, x) in self.board.items() if c == by)


class Move:
    """A legal move: promo is the promotion piece's type index (N 1 .. Q 4) or 0; for castling
    `to` is the castling rook's square (king takes own rook, 5.4)."""

    def __init__(self, frm, to, promo=0, castling=False, en_passant=False):
        self.frm, self.to, self.promo, self.castling, self.en_passant = frm, to, promo, castling, en_passant

    def key(self):
        return (self.frm, self.to, self.promo)  # section 6: N < B < R < Q as 1 < 2 < 3 < 4

    def uci(self):
        return name(self.frm) + name(self.to) + ("" if not self.promo else "nbrq"[self.promo - 1])


def king_safe_after(pos, m):
    """Whether the mover's king is not attacked after the move m (not castling), 5.3."""
    after = pos.copy()
    piece = after.board.pop(m.frm)
    if m.en_passant:
        del after.board[square(file_of(m.to), rank_of(m.frm))]  # the pawn that made the double step
    after.board[m.to] = (pos.us, m.promo) if m.promo else piece
    k = after.king(pos.us)
    return not after.attacked(k, 1 - pos.us)


def castling_destinations(k, rook):
    """The king's and the rook's destinations for castling with `rook` (5.4)."""
    side = 0 if rook > k else 1
    return square(6 if side == 0 else 2, rank_of(k)), square(5 if side == 0 else 3, rank_of(k))


def legal_moves(pos):
    """The legal moves of pos in the canonical order of section 6 (a plain sort by the key)."""
    us, them = pos.us, 1 - pos.us
    k = pos.king(us)
    if k is None:
        return []  # 5.3: a side without a king has no legal moves
    occ = set(pos.board)
    moves = []
    for s in pos.pieces(us):
        x = pos.board[s][1]
        if x == P:
            dr = 1 if us == WHITE else -1
            last = 7 if us == WHITE else 0
            targets = []
            one = s + 8 * dr
            if one not in occ:
                targets.append(one)
                two = s + 16 * dr
                if rank_of(s) == (1 if us == WHITE else 6) and two not in occ:
                    targets.append(two)
            for t in attacks(P, us, s, occ):
                if t in pos.board and pos.board[t][0] == them:
                    targets.append(t)
                elif t == pos.ep:
                    moves.append(Move(s, t, en_passant=True))
            for t in targets:
                if rank_of(t) == last:
                    moves += [Move(s, t, promo) for promo in (N, B, R, Q)]
                else:
                    moves.append(Move(s, t))
        else:
            for t in attacks(x, us, s, occ):
                if t not in pos.board or pos.board[t][0] == them:
                    moves.append(Move(s, t))
    moves = [m for m in moves if king_safe_after(pos, m)]
    if not pos.attacked(k, them):
        for rook in pos.rooks[us].values():
            kd, rd = castling_destinations(k, rook)
            must_be_empty = between(k, kd) | {kd} | between(rook, rd) | {rd}
            if any(s in pos.board and s not in (k, rook) for s in must_be_empty):
                continue
            occ_without = occ - {k, rook}
            if any(pos.attacked(s, them, occ_without) for s in between(k, kd) | {k, kd}):
                continue
            moves.append(Move(k, rook, castling=True))
    moves.sort(key=Move.key)
    return moves


def play(pos, m):
    """The position after the legal move m (5.4, 5.5); m None is a null move (4)."""
    after = pos.copy()
    us, them = pos.us, 1 - pos.us
    after.us, after.ep = them, None
    after.halfmove += 1
    if us == BLACK:
        after.fullmove = (after.fullmove + 1) % 65536  # 7.6.2: a counter of 16 bits
    if m is None:
        return after
    piece = after.board.pop(m.frm)
    if m.castling:
        del after.board[m.to]
        kd, rd = castling_destinations(m.frm, m.to)
        after.board[kd], after.board[rd] = (us, K), (us, R)
        after.rooks[us] = {}
        return after
    victim = after.board.get(m.to)
    if m.en_passant:
        victim = after.board.pop(square(file_of(m.to), rank_of(m.frm)))
    after.board[m.to] = (us, m.promo) if m.promo else piece
    if piece[1] == K:
        after.rooks[us] = {}
    after.rooks[us] = {w: r for w, r in after.rooks[us].items() if r != m.frm}
    if victim is not None:
        if victim[1] == K:
            after.rooks[them] = {}
        after.rooks[them] = {w: r for w, r in after.rooks[them].items() if r != m.to}
    if piece[1] == P or victim is not None:
        after.halfmove = 0
    if piece[1] == P and abs(m.to - m.frm) == 16:
        passed = (m.to + m.frm) // 2
        if any(passed in attacks(P, them, s, ()) for s in after.pieces(them, P)):
            after.ep = passed  # effective only (5.5)
    return after


# ---------------------------------------------------------------------------------------------
# History (7.6.1)
# ---------------------------------------------------------------------------------------------

NO_HISTORY = (None, None)  # (last, ours); last = (from, to, type, capture), ours = (from, to, capture)


def landing(m):
    return castling_destinations(m.frm, m.to)[0] if m.castling else m.to


def captures(pos, m):
    return m.en_passant or (not m.castling and m.to in pos.board)


def history_after(h, pos, m):
    if m is None:
        return NO_HISTORY
    last = (m.frm, landing(m), pos.board[m.frm][1], captures(pos, m))
    ours = None if h[0] is None else (h[0][0], h[0][1], h[0][3])
    return (last, ours)


def history_text(h):
    last, ours = h
    a = "-" if last is None else f"{name(last[0])},{name(last[1])},{LETTERS[last[2]]},{int(last[3])}"
    b = "-" if ours is None else f"{name(ours[0])},{name(ours[1])},{int(ours[2])}"
    return f"{a} {b}"


# ---------------------------------------------------------------------------------------------
# Facts of a position (7.6.2)
# ---------------------------------------------------------------------------------------------


def rel(s, us):
    return s if us == WHITE else s ^ 56


def ahead(s, us):
    """The squares of the ranks beyond rank(s) in our direction of play."""
    return {t for t in range(64) if (rank_of(t) > rank_of(s) if us == WHITE else rank_of(t) < rank_of(s))}


def value_class(S, side, board):
    types = {board[s][1] for s in S if s in board and board[s][0] == side}
    return 3 if Q in types else 2 if R in types else 1 if (N in types or B in types) else 0


class Facts:
    pass


def facts(pos, hist):
    """The facts 7.6.2 computes once per position, named as there."""
    board, us, them = pos.board, pos.us, 1 - pos.us
    F = Facts()
    F.O = O = set(board)
    n = sum({N: 1, B: 1, R: 2, Q: 4}.get(x, 0) for (_, x) in board.values())
    m = pos.fullmove
    F.phase = 0 if n >= 20 and m <= 10 else 1 if n >= 20 and m <= 20 else 2 if n >= 16 else 3 if n >= 8 else 4
    F.ourK, F.theirK = pos.king(us), pos.king(them)
    F.Ax = [set() for _ in range(6)]
    for s, (c, x) in board.items():
        if c == them:
            F.Ax[x] |= attacks(x, them, s, O)
    F.A = set().union(*F.Ax)
    A = F.Ax
    F.lower = [set(), A[P], A[P], A[P] | A[N] | A[B], A[P] | A[N] | A[B] | A[R], F.A]
    count = Counter()
    F.ourPawnAtt = set()
    for s, (c, x) in board.items():
        if c == us:
            a = attacks(x, us, s, O)
            count.update(a)
            if x == P:
                F.ourPawnAtt |= a
    F.once = {s for s in count if count[s] >= 1}
    F.twice = {s for s in count if count[s] >= 2}
    F.inCheck = F.ourK in F.A
    tk = F.theirK
    F.checkSq = [set() for _ in range(6)]
    F.discoverers = set()
    if tk is not None:
        F.checkSq[P] = attacks(P, them, tk, O)
        for x in (N, B, R):
            F.checkSq[x] = attacks(x, us, tk, O)
        F.checkSq[Q] = F.checkSq[B] | F.checkSq[R]
        for s, (c, x) in board.items():
            d = direction(tk, s)
            if c != us or d is None:
                continue
            straight = d[0] == 0 or d[1] == 0
            if x == Q or (x == R and straight) or (x == B and not straight):
                blockers = between(tk, s) & O
                if len(blockers) == 1 and board[next(iter(blockers))][0] == us:
                    F.discoverers |= blockers
    # higher[x]: their pieces other than the king worth more than a piece of type x.
    F.higher = [{s for s, (c, y) in board.items() if c == them and y != K and VALUE[y] > VALUE[x]} for x in range(6)]
    F.undefended = {s for s, (c, y) in board.items() if c == them and y != K and s not in F.A}
    F.lastAtt = set()
    last, ours = hist
    if last is not None and last[1] in board and board[last[1]][0] == them:
        F.lastAtt = attacks(board[last[1]][1], them, last[1], O)
    F.passed = set()
    for s in pos.pieces(us, P):
        files = {file_of(s)} | adj(file_of(s))
        if not any(board.get(t) == (them, P) and file_of(t) in files for t in ahead(s, us)):
            F.passed.add(s)
    F.castleRooks = set(pos.rooks[us].values())
    F.kicks = set()
    for s in pos.pieces(them, P):
        forward = s + (8 if them == WHITE else -8)
        if 0 <= forward < 64 and forward not in O:
            F.kicks |= attacks(P, them, forward, O)
    F.kicks -= A[P]
    n = len(attacks(K, us, F.ourK, O) & F.A)
    F.kingDanger = 0 if n == 0 else 1 if n <= 2 else 2
    F.enPrise = []  # [(square, class)]: H1 and H2
    for x in (Q, R, B, N, P):
        for s in pos.pieces(us, x):
            if s in F.lower[x] or (s in F.A and s not in F.once):
                F.enPrise.append((s, {P: 1, N: 2, B: 2, R: 3, Q: 4}[x]))
    F.enPrise = F.enPrise[:2]
    F.zone = attacks(K, them, tk, O) if tk is not None else set()
    F.ourSliders = {s for s, (c, x) in board.items() if c == us and x in (B, R, Q)}
    F.ours = set(pos.pieces(us))
    return F


# ---------------------------------------------------------------------------------------------
# The exchange (7.6.5, see)
# ---------------------------------------------------------------------------------------------


def see(pos, to, moved, captured, occ):
    """see(to, moved, captured, occ) of 7.6.5: the swap list over the pieces of the position
    before the move that stand in occ (pins, checks and legality ignored)."""
    board = pos.board
    occ = set(occ)

    def sliders_at(occ):
        return ({s for s in attacks(B, WHITE, to, occ) if s in board and board[s][1] in (B, Q)} |
                {s for s in attacks(R, WHITE, to, occ) if s in board and board[s][1] in (R, Q)})

    attackers = {s for s in occ if board[s][1] in (P, N, K) and to in attacks(board[s][1], board[s][0], s, occ)}
    attackers |= sliders_at(occ) & occ
    gain = [captured]
    on_to, side, d = moved, 1 - pos.us, 0
    while True:
        mine = {s for s in attackers if board[s][0] == side}
        if not mine:
            break
        y = min(board[s][1] for s in mine)
        s = min(t for t in mine if board[t][1] == y)
        d += 1
        gain.append(on_to - gain[d - 1])
        on_to = VALUE[y]
        occ.discard(s)
        if y not in (N, K):
            attackers |= sliders_at(occ)
        attackers &= occ
        side = 1 - side
    for j in range(d, 0, -1):
        gain[j - 1] = min(gain[j - 1], -gain[j])
    return gain[0]


# ---------------------------------------------------------------------------------------------
# Features (7.6.3, 7.6.5)
# ---------------------------------------------------------------------------------------------


def features(pos, hist, moves):
    """The feature list of each move of `moves` (the legal moves, canonical order)."""
    F = facts(pos, hist)
    board, us, them = pos.board, pos.us, 1 - pos.us
    last, ours = hist
    last_to = None if last is None else last[1]
    ours_to = None if ours is None else ours[1]
    ours_from = None if ours is None else ours[0]
    O, phase = F.O, F.phase
    targets = {}
    for m in moves:
        targets.setdefault(m.frm, set()).add(m.to)
    out = []
    for m in moves:
        fr, to = m.frm, m.to
        x = t = board[fr][1]
        own = attacks(x, us, fr, O)
        # Piece features.
        pf = [FROM + (phase * 6 + t) * 64 + rel(fr, us)]
        c = 2 if fr in F.lower[x] else 0 if fr not in F.A else 1 if fr in F.once else 3
        pf.append(FROM_SAFETY + t * 4 + c)
        if fr in F.A:
            y = next(y for y in range(6) if fr in F.Ax[y])
            pf.append(FROM_ATTACKED + (t * 6 + y) * 2 + (1 if fr in F.once else 0))
        if fr in F.lastAtt:
            pf.append(EVADE + t)
        if ours_to is not None and fr == ours_to:
            pf.append(MOVED_LAST + t)
        pf.append(FROM_NEAR_LAST + t * 9 + dist(fr, last_to))
        if F.inCheck:
            pf.append(IN_CHECK + t)
        if F.kingDanger > 0:
            pf.append(KING_DANGER + (F.kingDanger - 1) * 6 + t)
        pf.append(FROM_BY_THEIR_WING + (wing(F.theirK) * 6 + t) * 64 + rel(fr, us))
        if last is not None:
            pf.append(REPLY + last[2] * 6 + t)
        pf.append(TARGETS + t * 16 + min(len(targets[fr]), 16) - 1)
        pf.append(FROM_MOBILITY + t * 16 + min(len(own - F.ours - F.Ax[P]), 15))
        ok = F.ourK
        if (x == P and rank_of(rel(ok, us)) == 0 and abs(file_of(fr) - file_of(ok)) <= 1
                and rank_of(rel(fr, us)) <= 2):
            pf.append(SHIELD)
        if x == R and fr in F.castleRooks:
            pf.append(CASTLING_LOSS + 1)
        # Castling: two move features.
        if m.castling:
            side = 0 if to > fr else 1
            out.append(pf + [TO + (phase * 6 + K) * 64 + rel(landing(m), us), CASTLING + side])
            continue
        # Every other move.
        a = m.promo if m.promo else x
        victim = P if m.en_passant else (board[to][1] if to in board else None)
        capture = 0 if victim is None else 1
        v_victim = 0 if victim is None else VALUE[victim]
        att = 1 if to in F.A else 0
        defended = to in F.twice or (to in F.once and to not in own)
        cls = 2 if to in F.lower[x] else 0 if not att else 1 if defended else 3
        hits = attacks(a, us, to, (O - {fr}) | {to})
        direct = to in F.checkSq[a]
        discovered = fr in F.discoverers and to not in line(F.theirK, fr)
        threatened = {s for s in hits if s in F.higher[a] or s in F.undefended}
        left = {s for s in own if s in F.ours and s in F.A and s not in F.twice and s not in hits}
        other = None  # H: the other piece en prise, (square, class)
        if F.enPrise:
            other = (F.enPrise[1] if len(F.enPrise) > 1 else None) if fr == F.enPrise[0][0] else F.enPrise[0]
        balance = v_victim
        if att:
            if defended or (line(fr, to) & (F.ourSliders - {fr})):
                occ = O - {fr}
                if m.en_passant:
                    occ = occ - {square(file_of(to), rank_of(fr))}
                balance = see(pos, to, VALUE[a], v_victim, occ)
            else:
                balance = v_victim - VALUE[a]
        balance = max(-9, min(9, balance))
        mf = [TO + (phase * 6 + t) * 64 + rel(to, us),
              TO_SAFETY + t * 4 + cls,
              TO_BY_THEIR_WING + (wing(F.theirK) * 6 + t) * 64 + rel(to, us),
              TO_BY_OUR_WING + (wing(F.ourK) * 6 + t) * 64 + rel(to, us)]
        if capture:
            mf.append(CAPTURE + (t * 5 + victim) * 2 + att)  # victim king: index 5 (7.6.5)
            if to == last_to:
                mf.append(RECAPTURE + t)
        if direct or discovered:
            mf.append(CHECK + t * 3 + (2 if direct and discovered else 0 if direct else 1))
        if hits & F.higher[a]:
            mf.append(THREAT + t * 2)
        elif hits & F.undefended:
            mf.append(THREAT + t * 2 + 1)
        if threatened:
            mf.append(THREAT_VALUE + t * 4 + value_class(threatened, them, board))
        if len(threatened) >= 2 or (threatened and direct):
            mf.append(FORK + t)
        if m.promo:
            mf.append(PROMOTION + m.promo - 1)
        if left:
            mf.append(LEAVES + t * 4 + value_class(left, us, board))
        if ours_to is not None and fr == ours_to and to == ours_from:
            mf.append(STRAIGHT_BACK + t)
        mf.append(NEAR_LAST + t * 9 + dist(to, last_to))
        mf.append(MOBILITY + t * 16 + min(len(hits - F.ours - F.Ax[P]), 15))
        z = len(hits & F.zone)
        if z > 0:
            mf.append(KING_ZONE + t * 3 + min(z, 3) - 1)
        mf.append(NEAR_OURS + t * 9 + dist(to, ours_to))
        if other is not None:
            if other[0] in hits:
                mf.append(DEFENDS_EN_PRISE + other[1] - 1)
            mf.append(ANOTHER_EN_PRISE + ((other[1] - 1) * 6 + t) * 2 + capture)
        if x == P and fr in F.passed:
            mf.append(PASSED + rank_of(rel(to, us)))
        if x == K and F.castleRooks:
            mf.append(CASTLING_LOSS)
        mf.append(KING_DISTANCE + t * 9 + dist(to, F.theirK))
        mf.append(EXCHANGE + (t * 2 + capture) * 19 + balance + 9)
        if direct and balance < 0:
            mf.append(CHECK_LOSING + t)
        if last is not None and last[3]:
            mf.append(AFTER_THEIR_CAPTURE + t * 2 + capture)
        if ours is not None and ours[2]:
            mf.append(AFTER_OUR_CAPTURE + t * 2 + capture)
        if last is not None and last_to in hits:
            mf.append(VERSUS_LAST + t * 2)
        if to in F.lastAtt:
            mf.append(VERSUS_LAST + t * 2 + 1)
        if to in F.kicks:
            mf.append(KICK + t)
        their_pawns = set(pos.pieces(them, P))
        if x in (N, B) and to in F.ourPawnAtt:
            if not any(file_of(s) in adj(file_of(to)) for s in their_pawns & ahead(to, us)):
                mf.append(OUTPOST + (1 if x == B else 0))
        if x in (R, Q) and not any(file_of(s) == file_of(to) for s in pos.pieces(us, P)):
            half_open = any(file_of(s) == file_of(to) for s in their_pawns)
            mf.append(FILE + (2 if x == Q else 0) + (1 if half_open else 0))
        if x == P and not m.promo:
            others = set(pos.pieces(us, P)) - {fr}
            if not any(file_of(s) in adj(file_of(to)) for s in others):
                mf.append(PAWN_SHAPE)
            if any(file_of(s) == file_of(to) for s in others):
                mf.append(PAWN_SHAPE + 1)
            files = {file_of(to)} | adj(file_of(to))
            if not any(file_of(s) in files for s in their_pawns & ahead(to, us)):
                mf.append(PAWN_SHAPE + 2)
        out.append(pf + mf)
    return out


# ---------------------------------------------------------------------------------------------
# Scores and frequencies (7.6), the end of a line (7.1)
# ---------------------------------------------------------------------------------------------


def frequencies(feature_lists, W, E):
    scores = [sum(W[k] for k in fs) for fs in feature_lists]
    best = max(scores, default=0)
    out = []
    for s in scores:
        d = best - s
        out.append(max(1, E[d % 16] >> (d // 16)) if d < 192 else 1)
    return scores, out


def end_frequency(S, p, H):
    return max(1, S * H[min(p, 255)] >> 16)


# ---------------------------------------------------------------------------------------------
# Reading the library's dump and comparing
# ---------------------------------------------------------------------------------------------


class Mismatch(Exception):
    pass


def parse_dump(stream):
    """Yields ('L', label), ('P', p, fen, history, end, total, [(uci, f, [k...])]), ('A', i),
    ('N',), ('Z', lines, positions, moves)."""
    pending = None
    for number, raw in enumerate(stream, 1):
        text = raw.rstrip("\n")
        tag, _, rest = text.partition(" ")
        if tag == "P":
            if pending:
                yield pending
            p, fen = rest.split(" ", 1)
            pending = ["P", int(p), fen, None, None, None, [], number]
        elif tag in ("H", "E", "M"):
            if pending is None:
                raise Mismatch(f"dump line {number}: {tag} outside a position")
            if tag == "H":
                pending[3] = rest
            elif tag == "E":
                pending[4], pending[5] = map(int, rest.split())
            else:
                fields = rest.split()
                pending[6].append((fields[0], int(fields[1]), [int(k) for k in fields[2:]]))
        else:
            if pending:
                yield pending
                pending = None
            if tag == "L":
                yield ("L", rest)
            elif tag == "A":
                yield ("A", int(rest))
            elif tag == "N":
                yield ("N",)
            elif tag == "Z":
                yield ("Z",) + tuple(map(int, rest.split()))
            else:
                raise Mismatch(f"dump line {number}: unknown record {text[:60]!r}")
    if pending:
        yield pending


def describe(label, p, fen, hist):
    return f"line {label}\n  ply {p}: {fen}\n  history {history_text(hist)}"


def check(records, W, H, E, out):
    label, pos, hist, expect_p = None, None, NO_HISTORY, 0
    moves = None  # the reference's legal moves at the last position
    lines = positions = compared = 0
    for r in records:
        if r[0] == "L":
            label, pos, hist, expect_p, moves = r[1], None, NO_HISTORY, 0, None
            lines += 1
        elif r[0] in ("A", "N"):
            if moves is None:
                raise Mismatch(f"line {label}: a move played without a position")
            if r[0] == "A" and not 0 <= r[1] < len(moves):
                raise Mismatch(f"line {label}: the played index {r[1]} of {len(moves)} moves")
            m = moves[r[1]] if r[0] == "A" else None
            hist = history_after(hist, pos, m)
            pos = play(pos, m)
            expect_p += 1
            moves = None
        elif r[0] == "P":
            _, p, fen, lib_hist, lib_end, lib_total, lib_moves, _ = r
            if label is None or moves is not None:
                raise Mismatch(f"dump: position {fen} not preceded by a line start or a move")
            here = describe(label, p, fen, hist)
            lib_pos = Position(fen)
            fields = fen.split()
            if len(fields) > 5:
                lib_pos.fullmove = int(fields[5])  # the dump's counter as it is: 0 after 65535 (5.5)
            if pos is None:
                pos = lib_pos  # the line's start position
            elif pos.state() != lib_pos.state():
                raise Mismatch(f"{here}\n  the position after the move played is not the library's: "
                               f"the reference has {pos.state()}")
            if p != expect_p:
                raise Mismatch(f"{here}\n  the library's ply number is {p}, the reference's {expect_p}")
            if lib_hist != history_text(hist):
                raise Mismatch(f"{here}\n  the library's history is {lib_hist}")
            moves = legal_moves(pos)
            ucis = [m.uci() for m in moves]
            lib_ucis = [m[0] for m in lib_moves]
            if ucis != lib_ucis:
                raise Mismatch(f"{here}\n  legal moves (section 6):\n    reference {' '.join(ucis)}\n"
                               f"    library   {' '.join(lib_ucis)}")
            lists = features(pos, hist, moves) if moves else []
            if any(len(fs) > 43 for fs in lists):
                raise Mismatch(f"{here}\n  a move with more than 43 features (7.6.3)")
            scores, freqs = frequencies(lists, W, E)
            for i, (m, mine, f, score) in enumerate(zip(moves, lists, freqs, scores)):
                lib_uci, lib_f, lib_list = lib_moves[i]
                if sorted(mine) != sorted(lib_list) or f != lib_f:
                    only_ref = sorted((Counter(mine) - Counter(lib_list)).elements())
                    only_lib = sorted((Counter(lib_list) - Counter(mine)).elements())
                    raise Mismatch(
                        f"{here}\n  move {i} {m.uci()} (best score {max(scores)}, this move's {score})\n"
                        f"    reference frequency {f}, features {sorted(mine)}\n"
                        f"    library   frequency {lib_f}, features {sorted(lib_list)}\n"
                        f"    only the reference's: {[group_name(k) for k in only_ref]}\n"
                        f"    only the library's:   {[group_name(k) for k in only_lib]}")
            S = sum(freqs)
            end = end_frequency(S, p, H)
            if (end, S + end) != (lib_end, lib_total):
                raise Mismatch(f"{here}\n  end of the line (7.1, S = {S}, H[{min(p, 255)}] = {H[min(p, 255)]}): "
                               f"reference end {end}, total {S + end}; library end {lib_end}, total {lib_total}")
            positions += 1
            compared += len(moves)
        elif r[0] == "Z":
            if r[1:] != (lines, positions, compared):
                raise Mismatch(f"dump: the library counted {r[1:]} lines, positions and moves, "
                               f"the reference {(lines, positions, compared)}")
            print(f"reference_model: {lines} lines, {positions} positions, {compared} moves: "
                  f"features, frequencies and end frequencies all equal the specification's", file=out)
            return
    raise Mismatch("dump: no end record Z (the dump stopped early)")


def main(argv):
    spec_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "format-spec")
    run = None
    args = argv[1:]
    while args:
        if args[0] == "--spec" and len(args) > 1:
            spec_dir, args = args[1], args[2:]
        elif args[0] == "--run" and len(args) > 1:
            run, args = args[1:], []
        else:
            print(__doc__.strip().splitlines()[-1], file=sys.stderr)
            return 2
    try:
        W, H, E = read_tables(spec_dir)
    except (OSError, SpecError) as e:
        print(f"reference_model: the specification's tables: {e}", file=sys.stderr)
        return 1
    dumper = None
    stream = sys.stdin
    if run:
        dumper = subprocess.Popen(run, stdout=subprocess.PIPE, text=True)
        stream = dumper.stdout
    status = 0
    try:
        check(parse_dump(stream), W, H, E, sys.stdout)
    except (Mismatch, ValueError, KeyError) as e:
        print(f"reference_model: MISMATCH between the library and the specification\n{e}", file=sys.stderr)
        status = 1
    if dumper:
        dumper.stdout.close()  # a dumper still writing after a mismatch stops on SIGPIPE
        code = dumper.wait()
        if code and not (status and code == -signal.SIGPIPE):
            print(f"reference_model: {' '.join(run)} exited with status {code}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
