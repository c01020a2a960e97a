# Types of the package pgnarc (__init__.py and the native module beneath it), for type checkers
# and editors (py.typed says they are here). The docstrings are the implementation's, shortened.
import os
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, Literal, Protocol, TypedDict, overload

import pandas

from ._notes import Node as Node
from ._pgnarc import Error as Error
from ._pgnarc import Game as Game
from ._pgnarc import GameIterator as GameIterator
from ._pgnarc import Query as Query
from ._pgnarc import __version__ as __version__
from ._pgnarc import format_version as format_version

__all__ = ["Archive", "Error", "Game", "Node", "open", "pack", "__version__", "format_version"]

RESULTS: tuple[str, str, str, str]
ENCODINGS: tuple[str, str, str, str, str]
ELO_OF: tuple[str, str, str, str]

_Result = Literal["1-0", "0-1", "1/2-1/2", "*"]
_Encoding = Literal["surrogateescape", "latin-1", "replace", "gb18030", "big5"]
_EloOf = Literal["both", "either", "white", "black"]
_Moves = Literal["fast", "max", "model", "uniform"]

class _Reads(Protocol):
    def read(self, n: int = ..., /) -> bytes: ...

_PackInput = str | os.PathLike[str] | bytes | bytearray | memoryview | _Reads

class _PackStats(TypedDict):
    games: int
    verbatim_games: int
    plies: int
    input_bytes: int
    output_bytes: int
    blocks: int
    problems: list[str]

class _TreeMove(TypedDict):
    san: str
    uci: str
    games: int
    white: int
    draws: int
    black: int
    avg_elo: int | None

class _Tree(TypedDict):
    position: str
    games: int
    white: int
    draws: int
    black: int
    moves: list[_TreeMove]

class Archive:
    """An open archive: a sequence of its games, read by number without reading the rest. Used
    from one thread at a time; a context manager."""

    path: str
    def __init__(self, path: str | os.PathLike[str], encoding: _Encoding = "surrogateescape") -> None: ...
    @classmethod
    def from_reader(cls, name: str, size: int, read: Callable[[int, int], bytes],
                    encoding: _Encoding = "surrogateescape") -> Archive:
        """An archive of `size` bytes read through read(offset, n) -> bytes; `name` names it in errors."""
    def __enter__(self) -> Archive: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> Literal[False]: ...
    def close(self) -> None:
        """Closes the file (the games already read stay usable)."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Game:
        """Game `index`, from 0 (negative counts from the end)."""
    @overload
    def __getitem__(self, index: slice) -> list[Game]: ...
    def __iter__(self) -> GameIterator: ...
    def games(self, threads: int | None = None) -> GameIterator:
        """Every game in order, decoded ahead on `threads` threads (None: all cores)."""
    def find(self, white: str | None = None, black: str | None = None, player: str | None = None,
             event: str | None = None, site: str | None = None, result: _Result | None = None,
             eco: str | None = None, date_from: str | None = None, date_to: str | None = None,
             tags: Mapping[str, str] | None = None, exact: bool = False, variant: str | None = None,
             position: str | None = None, moves: str | None = None, threads: int | None = None,
             min_elo: int | None = None, max_elo: int | None = None, elo_of: _EloOf = "both") -> list[int]:
        """The indices (from 0, ascending) of the games that match every given field, as `pgnarc find`;
        min_elo and max_elo (0 to 9999) bound the ratings (inclusive) of the players elo_of names."""
    def tree(self, position: str | None = None, moves: str | None = None, limit: int | None = None,
             variant: str | None = None, threads: int | None = None, **filters: Any) -> _Tree:
        """What was played from a position: the dict of `pgnarc tree --json`; `filters` are find()'s."""
    def tags_frame(self, columns: str | Iterable[str] | None = None, raw: bool = False) -> pandas.DataFrame:
        """The games' tags, one row per game: ratings Int64, dates datetime64, Result a category."""
    def info(self) -> dict[str, Any]:
        """The figures of `pgnarc info --json` (games, plies, file_bytes, sections...)."""
    def verify(self, threads: int | None = None) -> None:
        """Checks every checksum and decodes every game; raises pgnarc.Error at the first damage."""

def open(path: str | os.PathLike[str], encoding: _Encoding = "surrogateescape") -> Archive:
    """Opens an archive; text that is not UTF-8 is read as `encoding` says ("surrogateescape":
    losslessly). A file that is not one, or is damaged, raises pgnarc.Error; a missing file
    FileNotFoundError."""

def pack(inputs: _PackInput | Iterable[_PackInput], output: str | os.PathLike[str], threads: int | None = None,
         force: bool = False, moves: _Moves = "fast", position_filter: bool = False,
         variant: str | None = None) -> _PackStats:
    """Packs PGN (plain, gzip or zstd: paths, "-", bytes or binary file objects) into the archive
    `output`, as `pgnarc pack` does, and returns its figures."""
