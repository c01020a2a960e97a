# Types of the native module pgnarc._pgnarc (module.cpp, pack.cpp), for type checkers and editors;
# the package pgnarc (__init__.pyi) is what a user calls.
from typing import Any, Callable, Literal, overload

import numpy
import numpy.typing
import pandas

from ._notes import Node

__version__: str
format_version: str

class Error(ValueError):
    """An archive that is damaged or not one, or input the library refuses: says where."""

class Game:
    """One game of an archive."""

    @property
    def number(self) -> int:
        """The game's number, from 1, as `pgnarc get` numbers games."""
    @property
    def tags(self) -> dict[str, str]:
        """The tags in file order (the first of two of one name): the game's own copy."""
    @property
    def result(self) -> str:
        """'1-0', '0-1', '1/2-1/2', '*' or ''."""
    @property
    def verbatim(self) -> bool:
        """True for a game kept as its text (a variant pgnarc does not know, illegal moves): no moves."""
    @property
    def variant(self) -> str | None:
        """'Standard' (Chess960 too), 'Crazyhouse', 'Atomic', ...; a verbatim game's Variant tag, or None."""
    @property
    def plies(self) -> int:
        """Moves and null moves of the main line."""
    @property
    def moves(self) -> numpy.typing.NDArray[numpy.uint16]:
        """The main line: from | to << 6 | promotion << 12 (a1 = 0, h8 = 63; 0 a null move)."""
    def pgn(self) -> str:
        """The game as canonical PGN, exactly what `pgnarc get ARCHIVE N` prints."""
    def pgn_bytes(self) -> bytes:
        """pgn() as the file's bytes."""
    def san(self) -> list[str]:
        """The main line in SAN ('--' for a null move)."""
    def uci(self) -> list[str]:
        """The main line in UCI ('0000' for a null move)."""
    def fen(self, ply: int | None = None, ep: Literal["double-step", "legal"] = "double-step") -> str:
        """The FEN after `ply` plies of the main line (None: the last position; negative: from the end)."""
    def svg(self, ply: int | None = None, flip: bool = False, size: int = 360) -> str:
        """The board after `ply` plies as an SVG picture (as `pgnarc get --svg`): the last move marked."""
    def _repr_svg_(self) -> str: ...
    def annotations(self) -> pandas.DataFrame:
        """One row per main-line ply: ply, san, uci, clock (seconds, NaN where none), eval (pawns from
        White's side, NaN where none), mate (Int64), nags, comment (or None); a Xiangqi game's san is
        each move as its notation writes it, uci its ICCS (h2e2). pgnarc.Error for a verbatim game,
        as for clocks(), evals(), mates() and root()."""
    def clocks(self) -> numpy.typing.NDArray[numpy.float64]:
        """The clock after each main-line ply, in seconds (NaN where none)."""
    def evals(self) -> numpy.typing.NDArray[numpy.float64]:
        """The evaluation after each main-line ply, in pawns from White's side (NaN where none or a mate)."""
    def mates(self) -> numpy.typing.NDArray[numpy.int32]:
        """The mate after each main-line ply (N of [%eval #N], negative where Black mates, 0 where none)."""
    def root(self) -> Node:
        """The game as a tree: the start position, whose variations[0] is the main line's first move."""

class GameIterator:
    def __iter__(self) -> GameIterator: ...
    def __next__(self) -> Game: ...

class Query:
    white: str | None
    black: str | None
    player: str | None
    event: str | None
    site: str | None
    exact_names: bool
    result: str | None
    eco: str | None
    date_from: str | None
    date_to: str | None
    tags: list[tuple[str, str]]
    variant: str
    min_elo: int | None
    max_elo: int | None
    elo_of: str
    def __init__(self) -> None: ...

class Archive:
    """The native archive behind pgnarc.Archive."""

    @overload
    def __init__(self, path: str, encoding: str = "surrogateescape") -> None: ...
    @overload
    def __init__(self, name: str, size: int, read: Callable[[int, int], bytes], encoding: str = "surrogateescape") -> None: ...
    def block_starts(self) -> list[int]: ...
    @property
    def path(self) -> str: ...
    def _close(self) -> None: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Game: ...
    @overload
    def __getitem__(self, slice: slice) -> list[Game]: ...
    def __iter__(self) -> GameIterator: ...
    def games(self, threads: int = 0) -> GameIterator: ...
    def _find(self, query: Query) -> list[int]: ...
    def _find_position(self, fen: str | None, moves: str, variant: str, threads: int) -> list[int]: ...
    def _tree_json(self, fen: str | None, moves: str, variant: str, limit: int, games: list[int] | None,
                   threads: int) -> str: ...
    def _tag_columns(self, columns: list[str] | None = None, first: int = 0,
                     end: int | None = None) -> tuple[list[str], list[list[str | None]]]: ...
    def _info_json(self) -> str: ...
    def verify(self, threads: int = 0) -> None: ...

def _pack(inputs: list[Any], output: str, threads: int, force: bool, moves: str, position_filter: bool,
          variant: str = "") -> dict[str, Any]: ...
def _pack_bytes(data: bytes, name: str, output: str, threads: int, force: bool, moves: str, position_filter: bool,
                variant: str = "") -> dict[str, Any]: ...
def _merge(inputs: list[str], output: str, force: bool) -> dict[str, Any]: ...
def _game_cuts(path: str, shard_bytes: int) -> list[int]: ...
