# Types of pgnarc._notes: Game.root()'s tree of Node, and the DataFrame of Game.annotations().
from collections.abc import Iterator
from typing import Any

import pandas

class Node:
    """A position of a game and the move that led to it (the root: the start position, move None)."""

    parent: Node | None
    variations: list[Node]
    ply: int
    move: str | None
    san: str | None
    nags: tuple[int, ...]
    comment: str | None
    starting_comment: str | None
    clock: float | None
    eval: float | None
    mate: int | None
    def __init__(self, parent: Node | None, ply: int, move: str | None, san: str | None, nags: tuple[int, ...],
                 comment: str | None, starting_comment: str | None, clock: float | None, eval_: float | None,
                 mate: int | None) -> None: ...
    def is_mainline(self) -> bool: ...
    def mainline(self) -> Iterator[Node]: ...

def frame(columns: dict[str, Any]) -> pandas.DataFrame: ...
def tree(nodes: list[tuple[Any, ...]]) -> Node: ...
