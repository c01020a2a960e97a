"""A game's per-move data as the package gives it: Game.annotations() as a DataFrame and
Game.root() as a tree of Node, made of the columns and node tuples of the native module."""

_COLUMNS = ["ply", "san", "uci", "clock", "eval", "mate", "nags", "comment"]


def frame(columns):
    """The DataFrame of Game.annotations() from annotation columns."""
    import pandas
    mate = pandas.arrays.IntegerArray(columns["mate"].astype("int64"), ~columns["has_mate"])
    data = {name: mate if name == "mate" else columns[name] for name in _COLUMNS}
    # (In order already: columns= would make pandas reindex, five times slower; the arrays are the
    # frame's own.)
    return pandas.DataFrame(data, copy=False)


class Node:
    """A position of a game and the move that led to it (the root: the start position, move None).

    move: the move in UCI ('0000' a null move), san: in SAN ('--'); a Xiangqi game's move in ICCS
    ('h2e2'), san as the game's notation writes it ('炮二平五'); ply: plies from the start,
    comment: the text of the comments after the move besides [%clk] and [%eval] (or None),
    starting_comment: the comments before the move where it opens a variation, as written (their
    commands not read), nags: a tuple of ints, clock (seconds), eval (pawns from White's side), mate (N of [%eval #N]): None where the
    comments give none; variations: the moves played from here, the main continuation first;
    parent: the node before (None at the root)."""

    __slots__ = ("parent", "variations", "ply", "move", "san", "nags", "comment", "starting_comment", "clock",
                 "eval", "mate")

    def __init__(self, parent, ply, move, san, nags, comment, starting_comment, clock, eval_, mate):
        self.parent = parent
        self.variations = []
        self.ply = ply
        self.move = move
        self.san = san
        self.nags = nags
        self.comment = comment
        self.starting_comment = starting_comment
        self.clock = clock
        self.eval = eval_
        self.mate = mate

    def is_mainline(self):
        """Whether every move from the start to here is its parent's first variation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self):
        """The nodes of the main continuation after this one (each one's first variation)."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def __repr__(self):
        if self.parent is None:
            return "<pgnarc.Node start>"
        return f"<pgnarc.Node ply {self.ply} {self.san}>"


def tree(nodes):
    """The root Node of a game's node tuples (preorder, each after its parent)."""
    made = []
    for parent, *fields in nodes:
        node = Node(made[parent] if parent >= 0 else None, *fields)
        if node.parent is not None:
            node.parent.variations.append(node)
        made.append(node)
    return made[0]
