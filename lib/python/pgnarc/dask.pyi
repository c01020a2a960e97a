# Types of pgnarc.dask: archives read and packed on a Dask cluster.
import os
from collections.abc import Iterable
from typing import Any, Literal

from dask.bag import Bag
from dask.dataframe import DataFrame

from . import Archive, _Encoding, _PackInput, _PackStats

MAGICS: tuple[bytes, bytes]
MOVES: tuple[str, str, str]

class _JoinedStats(_PackStats):
    shards: int

def open_archive(urlpath: str, storage_options: dict[str, Any] | None = None,
                 encoding: _Encoding = "surrogateescape") -> Archive:
    """A pgnarc.Archive read through fsspec by byte ranges, for any URL fsspec knows."""

def read_games(urlpath: str, blocks_per_partition: int | None = None, storage_options: dict[str, Any] | None = None,
               moves: Literal["uci", "san", "numpy"] = "uci", annotations: bool = False,
               encoding: _Encoding = "surrogateescape") -> Bag:
    """A dask.bag of the archive's games, in order, each a dict: number, tags, result, moves (as
    `moves` says), verbatim, and with annotations=True annotations (Game.annotations())."""

def read_tags(urlpath: str, columns: Iterable[str] | None = None, blocks_per_partition: int | None = None,
              storage_options: dict[str, Any] | None = None, raw: bool = False) -> DataFrame:
    """A dask.dataframe of the archive's tags, one row per game, with Archive.tags_frame's dtypes."""

def pack(inputs: _PackInput | Iterable[_PackInput], output: str | os.PathLike[str],
         client: Any = None, shard_bytes: int = 268435456, force: bool = False,
         moves: Literal["fast", "max", "model", "uniform"] = "fast", position_filter: bool = False,
         storage_options: dict[str, Any] | None = None, variant: str | None = None,
         threads: int | None = None) -> _JoinedStats:
    """Packs PGN (fsspec URLs, "-", bytes or binary file objects) into the archive `output` on a
    Dask cluster: the games of a single pgnarc.pack, in the same order."""
