"""pgnarc: archives of chess games, read and written from Python.

    import pgnarc
    with pgnarc.open("games.pga") as a:
        print(len(a), a[0].tags["White"], a[0].san()[:10])
        for g in a:                      # every game, decoded ahead on all cores
            moves = g.moves              # numpy uint16: from | to << 6 | promotion << 12
        hits = a.find(player="Carlsen", result="1-0")
        frame = a.tags_frame()           # pandas.DataFrame, one row per game
        moves = a[0].annotations()       # one row per ply: san, uci, clock, eval, mate, nags, comment
    pgnarc.pack(["games.pgn"], "games.pga")

Strings are the archive's bytes decoded as UTF-8 with the "surrogateescape" handler, so that
s.encode("utf-8", "surrogateescape") gives back bytes that are not UTF-8 (Latin-1 tags, say).
pgnarc.dask reads and packs archives on a Dask cluster.
"""

import io as _io
import json as _json
import operator as _operator
import os as _os

import numpy as _numpy  # noqa: F401  (set up before the module builds its first array)

from ._pgnarc import Error, Game, GameIterator, Query, __version__, format_version
from . import _frames, _pgnarc
from ._notes import Node

__all__ = ["Archive", "Error", "Game", "Node", "open", "pack", "__version__", "format_version"]


RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
ENCODINGS = ("surrogateescape", "latin-1", "replace", "gb18030", "big5")
ELO_OF = ("both", "either", "white", "black")
MAX_ELO = 9999  # as find --min-elo and --max-elo take


class Archive:
    """An open archive: a sequence of its games (pgnarc.Game), read by number without reading
    the rest. Used from one thread at a time; a context manager."""

    def __init__(self, path, encoding="surrogateescape"):
        path = _os.fspath(path)
        if not _os.path.exists(path):
            raise FileNotFoundError(2, "No such file", path)
        self._native = _pgnarc.Archive(path, _encoding(encoding))
        self._text_encoding = encoding
        self.path = path

    @classmethod
    def from_reader(cls, name, size, read, encoding="surrogateescape"):
        """An archive of `size` bytes read through read(offset, n) -> bytes (object storage by
        byte ranges, say: pgnarc.dask.open_archive); `name` names it in errors. `read` is called
        from the decoding threads too (holding the GIL), so it must be safe from any thread.
        `encoding` as open()'s."""
        if isinstance(size, bool) or not isinstance(size, int) and not hasattr(size, "__index__"):
            raise TypeError(f"size must be an int, not {type(size).__name__}")
        size = _operator.index(size)
        if size < 0:
            raise ValueError(f"size must be the archive's size in bytes (0 or more), not {size}")
        if not callable(read):
            raise TypeError(f"read must be a callable read(offset, n) -> bytes, not {type(read).__name__}")
        archive = cls.__new__(cls)
        archive._native = _pgnarc.Archive(str(name), size, read, _encoding(encoding))
        archive._text_encoding = encoding
        archive.path = str(name)
        return archive

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        """Closes the file (the games already read stay usable; an iteration begun before raises
        ValueError at its next game)."""
        if self._native is not None:
            self._native._close()
        self._native = None

    def _open(self):
        if self._native is None:
            raise ValueError("the archive is closed")
        return self._native

    def __len__(self):
        return len(self._open())

    def __getitem__(self, index):
        """Game `index`, from 0 (negative counts from the end); a slice gives a list."""
        if isinstance(index, slice):
            return self._open()[index]
        if isinstance(index, bool):
            raise TypeError("game indices are integers or slices, not bool")
        try:
            index = _operator.index(index)  # int, numpy integers
        except TypeError:
            raise TypeError(f"game indices are integers or slices, not {type(index).__name__}") from None
        n = len(self._open())
        if not -n <= index < n:
            raise IndexError(f"game index {index} out of range (the archive holds {n} games)")
        return self._open()[index]

    def __iter__(self):
        return self._open().games()

    def games(self, threads=None):
        """Every game in order, decoded ahead on `threads` threads (None: all cores), with every
        check of a full decode: damage raises pgnarc.Error when the loop reaches it."""
        return self._open().games(_threads(threads))

    def find(self, white=None, black=None, player=None, event=None, site=None, result=None, eco=None,
             date_from=None, date_to=None, tags=None, exact=False, variant=None, position=None, moves=None,
             threads=None, min_elo=None, max_elo=None, elo_of="both", red=None):
        """The indices (from 0, ascending) of the games that match every given field, as
        `pgnarc find` answers: names as case-insensitive substrings (exact=True: exact; red: the
        Red tag of a Xiangqi game, whose other player is black; player: white or black, and red where the archive's read version is 1.7 or later), result
        "1-0", "0-1", "1/2-1/2" or "*", eco a prefix, dates "YYYY", "YYYY.MM" or "YYYY.MM.DD"
        (inclusive), tags a dict of exact key: value pairs, variant the rules ("standard",
        "crazyhouse", "atomic", ...: `pgnarc find --variant`); names and tag values are looked
        for as the archive's bytes in the encoding open() was given (a GB18030 archive's names are
        asked for in Chinese, a name contained from a character on; a value a game gave finds that
        game, but for a name written both in UTF-8 and in GB18030 or Big5 in one archive, found in
        one of them). min_elo and max_elo bound the
        ratings (WhiteElo, BlackElo; inclusive) of the players elo_of names: "both" (the default),
        "either", "white" or "black"; a game without a rating matches no bound. With `position` (a FEN) and/or
        `moves` (SAN from it, or from the start: "e4 e5 Nf3"), only the games whose main line
        reaches that position, as `pgnarc find --position FEN` answers (decoded on
        `threads` threads, None: all cores); a Xiangqi FEN (ten ranks) finds the Xiangqi games
        that reach it (no `moves` then)."""
        q = self._query(white, black, player, event, site, result, eco, date_from, date_to, tags, exact, variant,
                        min_elo, max_elo, elo_of, red)
        if position is None and moves is None:
            return self._open()._find(q if q is not None else Query())
        if self._is_xiangqi(position, moves, variant):
            games = self._open()._find_xiangqi_position(position, _threads(threads))
        else:
            games = self._open()._find_position(*self._target(position, moves, variant), _threads(threads))
        if q is None:
            return games
        chosen = set(self._open()._find(q))
        return [g for g in games if g in chosen]

    def tree(self, position=None, moves=None, limit=None, variant=None, threads=None, **filters):
        """What was played from a position in the games whose main line reaches it: the dict of
        `pgnarc tree --json` ({"position", "games", "white", "draws", "black", "moves": [{"san",
        "uci", "games", "white", "draws", "black", "avg_elo"}]}, most played first). The position
        is `position` (a FEN; None: the start of `variant`) after `moves` (SAN); at most `limit`
        moves (None: all); `filters` are find()'s (white=, date_from=, ...): only the games that
        match them count. A Xiangqi FEN (ten ranks) gives the tree of the Xiangqi games, each move's
        "san" in WXF and "uci" in ICCS, "white" counting Red's wins."""
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
            raise ValueError(f"limit must be an int >= 0 or None, not {limit!r}")
        q = self._query(variant=variant, **filters) if filters else None  # (a name find() lacks: TypeError)
        games = self._open()._find(q) if q is not None else None
        if self._is_xiangqi(position, moves, variant):
            return _json.loads(self._open()._xiangqi_tree_json(position, limit or 0, games, _threads(threads)))
        return _json.loads(self._open()._tree_json(*self._target(position, moves, variant), limit or 0, games,
                                                   _threads(threads)))

    @classmethod
    def _is_xiangqi(cls, position, moves, variant):
        """Whether `position` is a Xiangqi FEN (ten ranks), which takes no moves and no variant."""
        cls._target(position, moves, variant)  # the types
        if position is None or position.split(" ")[0].count("/") != 9:
            return False
        if moves or variant:
            raise ValueError("a Xiangqi position takes no moves and no variant: give it by its FEN")
        return True

    @staticmethod
    def _target(position, moves, variant):
        for name, value in (("position", position), ("moves", moves), ("variant", variant)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a str, not {type(value).__name__}")
        return position, moves or "", variant or ""

    def _text(self, value):
        """A name or tag value of a query as the archive's bytes, the inverse of how open()'s
        encoding made str of them (so that a value read from a game finds that game): with
        "gb18030" and "big5", the value in that encoding, unless those bytes would have read as
        UTF-8 (then its UTF-8); with "surrogateescape", its UTF-8 with the escaped bytes back. An
        archive with a name written both in UTF-8 and in the other encoding is searched for one."""
        codec = {"gb18030": "gb18030", "big5": "cp950", "surrogateescape": "utf-8"}.get(self._text_encoding)
        if codec is None:
            return value
        encoded = value.encode(codec, "surrogateescape")
        if codec != "utf-8":
            try:
                encoded.decode("utf-8")
            except UnicodeDecodeError:
                return encoded
            return value.encode("utf-8", "surrogateescape")
        return encoded

    def _query(self, white=None, black=None, player=None, event=None, site=None, result=None, eco=None,
               date_from=None, date_to=None, tags=None, exact=False, variant=None, min_elo=None, max_elo=None,
               elo_of="both", red=None):
        """The Query of find()'s fields, or None if none is given."""
        if elo_of not in ELO_OF:
            raise ValueError(f"elo_of must be one of {', '.join(map(repr, ELO_OF))}, not {elo_of!r}")
        if all(v is None for v in (white, black, player, event, site, result, eco, date_from, date_to, variant,
                                   min_elo, max_elo, red)) and not tags:
            return None
        if result is not None and result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        q = Query()
        if self._text_encoding in ("gb18030", "big5"):
            q.names_encoding = self._text_encoding
        for name, value in (("white", white), ("black", black), ("player", player), ("event", event),
                            ("site", site), ("result", result), ("eco", eco), ("date_from", date_from),
                            ("date_to", date_to), ("variant", variant), ("red", red)):
            if value is not None:
                if not isinstance(value, str):
                    raise TypeError(f"{name} must be a str, not {type(value).__name__}")
                setattr(q, name, self._text(value) if name in ("white", "black", "player", "event", "site", "red") else value)
        if tags:
            if not isinstance(tags, dict):
                raise TypeError(f"tags must be a dict of str: str, not {type(tags).__name__}")
            for k, v in tags.items():
                if not isinstance(k, str) or not isinstance(v, str):
                    raise TypeError(f"tags must be a dict of str: str, not holding {k!r}: {v!r}")
            q.tags = [(k, self._text(v)) for k, v in tags.items()]
        for name, value in (("min_elo", min_elo), ("max_elo", max_elo)):
            if value is not None:
                try:
                    value = _operator.index(value)  # int, numpy integers
                except TypeError:
                    raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
                if isinstance(value, bool) or not 0 <= value <= MAX_ELO:
                    raise ValueError(f"{name} must be a rating from 0 to {MAX_ELO}, not {value!r}")
                setattr(q, name, value)
        q.elo_of = elo_of
        q.exact_names = bool(exact)
        return q

    def tags_frame(self, columns=None, raw=False):
        """A pandas.DataFrame of the games' tags, one row per game (index: the game's index from
        0), one column per tag name in order of first appearance (or `columns`: a tag name or a
        list of them). Ratings and counts (WhiteElo, PlyCount, ...) are nullable Int64, dates
        (Date, EventDate, UTCDate) datetime64 (NaT where not complete), Result a category, other
        tags text (None where a game has no such tag); a value not of its tag's type is missing
        there. raw=True: every tag as its text."""
        import pandas
        if isinstance(columns, str):
            columns = [columns]
        if columns is not None:
            try:
                names = list(columns)
            except TypeError:
                raise TypeError(f"columns must be a tag name or a list of them, not {type(columns).__name__}") from None
            for c in names:
                if not isinstance(c, str):
                    raise TypeError(f"columns must be tag names (str), not holding {c!r}")
            columns = list(dict.fromkeys(names))
        names, values = self._open()._tag_columns(columns)
        frame = pandas.DataFrame(dict(zip(names, values)), columns=names)
        frame.index.name = "game"
        return frame if raw else _frames.typed(frame)

    def info(self):
        """The figures of `pgnarc info --json`, the same keys (games, plies, file_bytes, sections,
        move_coder_blocks...)."""
        return _json.loads(self._open()._info_json())

    def verify(self, threads=None):
        """Checks every checksum and decodes every game; raises pgnarc.Error at the first damage."""
        self._open().verify(_threads(threads))

    def __repr__(self):
        state = "closed" if self._native is None else f"{len(self._native)} games"
        return f"<pgnarc.Archive {self.path!r}: {state}>"


def open(path, encoding="surrogateescape"):
    """Opens an archive. A file that is not one, or is damaged, raises pgnarc.Error (a
    ValueError); a missing file FileNotFoundError. `encoding` says how text that is not UTF-8
    (tags, comments) becomes str: "surrogateescape" (the default) losslessly, so that
    s.encode("utf-8", "surrogateescape") gives the bytes back; "latin-1" as Latin-1 (a string
    that is UTF-8 stays UTF-8); "replace" with U+FFFD for each byte that is not UTF-8; "gb18030"
    and "big5" as GB18030 (which GBK and GB2312 are parts of) and Big5 (as Python's cp950), the
    encodings of Chinese PGN files, losslessly as "surrogateescape" where a byte reads in
    neither (a string that is UTF-8 stays UTF-8)."""
    return Archive(path, encoding)


def _encoding(encoding):
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(map(repr, ENCODINGS))}, not {encoding!r}")
    return encoding


def pack(inputs, output, threads=None, force=False, moves="fast", position_filter=False, variant=None,
         clocks="model", tags="names", xiangqi="book"):
    """Packs PGN (plain, gzip or zstd) into the archive `output`, as `pgnarc pack` does, and
    returns its figures: games, verbatim_games, plies, input_bytes, output_bytes, blocks, and the
    problems that made games be kept verbatim. `inputs` is one input or a list of them: a path
    ("-" standard input), bytes, or a binary file object (read as it is packed). An existing
    `output` is replaced only with force=True (FileExistsError otherwise). `variant` names the
    rules of the games whose tags name none ("crazyhouse", ...: `pgnarc pack --variant`);
    `clocks` how clock tracks are coded: "model" (format 1.3) or "bytes" (`pgnarc pack --clocks`);
    `tags` how tags are stored (`pgnarc pack --tags`): "names" (format 1.14: as "tables", and,
    where every block is held for the tag dictionary's training, Event and Site values as their
    entries in the tables the archive keeps for search, where that is smaller), "tables" (format
    1.6: as "coded", and an
    opening's tags, ECO, Opening, Variation, SubVariation and ECOUrl, stored once in a table of
    the archive where that is smaller), "coded" (format 1.5: as "derive", and ratings, other
    numbers, dates and times of day coded by the arithmetic coder where that is smaller), "derive" (format 1.4: a CurrentPosition tag that is the final position derived from
    the moves, a Termination that begins with a player's name as that name and a rest) or
    "text" (as readers of format 1.3 and earlier read them); `xiangqi` how Xiangqi games' moves
    are coded under moves "fast" or "max" (`pgnarc pack --xiangqi`): "book" (format 1.15: as
    "model", and the positions of the Xiangqi model's opening book by the book's counts), "model"
    (format 1.8; 1.9 with set-up positions; 1.10 with move texts in GB18030 or Big5 or naming two
    pieces on a file by their file) or "uniform" (as readers of format 1.7 read them: such games
    kept verbatim)."""
    if isinstance(inputs, (str, bytes, bytearray, memoryview, _os.PathLike)) or hasattr(inputs, "read") \
            or not hasattr(inputs, "__iter__"):
        inputs = [inputs]
    inputs = [_pack_input(i) for i in inputs]
    output = _os.fspath(output)
    if moves not in ("fast", "max", "model", "uniform"):
        raise ValueError(f"moves must be 'fast', 'max' (or 'model') or 'uniform', not {moves!r}")
    if clocks not in ("model", "bytes"):
        raise ValueError(f"clocks must be 'model' or 'bytes', not {clocks!r}")
    if tags not in ("names", "tables", "coded", "derive", "text"):
        raise ValueError(f"tags must be 'names', 'tables', 'coded', 'derive' or 'text', not {tags!r}")
    if xiangqi not in ("book", "model", "uniform"):
        raise ValueError(f"xiangqi must be 'book', 'model' or 'uniform', not {xiangqi!r}")
    for i in inputs:
        if isinstance(i, str) and i != "-" and not _os.path.exists(i):
            raise FileNotFoundError(2, "No such file", i)
    if _os.path.exists(output) and not force:
        raise FileExistsError(17, "File exists (pack(..., force=True) replaces it)", output)
    return _pgnarc._pack(inputs, output, _threads(threads), bool(force), moves, bool(position_filter),
                         variant or "", clocks, tags, xiangqi)


def _pack_input(i):
    """A path as str, bytes-like objects and binary streams as they are."""
    if isinstance(i, (bytes, bytearray, memoryview)) or hasattr(i, "read"):
        if isinstance(i, _io.TextIOBase):
            raise TypeError(f"{getattr(i, 'name', 'the stream')} gives text: open it in binary mode ('rb')")
        return i
    try:
        return _os.fsdecode(_os.fspath(i))
    except TypeError:
        raise TypeError(f"an input must be a path, bytes or a binary file object, not {type(i).__name__}") from None


def _threads(threads):
    if threads is None:
        return 0
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, not {threads!r}")
    return threads
