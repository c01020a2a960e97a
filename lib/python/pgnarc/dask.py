"""pgnarc on a Dask cluster: pack PGN too large for one machine, read archives by byte ranges.

    import pgnarc.dask
    from distributed import Client
    client = Client("scheduler:8786")
    pgnarc.dask.pack(["s3://bucket/lichess_2024-01.pgn"], "s3://bucket/lichess_2024-01.pga")
    games = pgnarc.dask.read_games("s3://bucket/lichess_2024-01.pga")   # a dask.bag of dicts
    tags = pgnarc.dask.read_tags("s3://bucket/lichess_2024-01.pga")     # a dask.dataframe

Paths are fsspec URLs (a local path, file://, s3://, gs://, http://...), read by byte ranges:
a task reads the archive's header, footer and index (a few KiB) and then only its own blocks
and the name chunks their games need, never the whole file. Tasks run on the workers; the
client only plans (and, for pack, finds where to cut plain PGN at game boundaries, a sequential
read of the input).
"""

import os
import shutil
import sys
import tempfile
import uuid

import dask
import dask.bag
import dask.dataframe
import fsspec
import pandas

import pgnarc
from . import _frames, _pgnarc

__all__ = ["pack", "read_games", "read_tags", "open_archive"]

MAGICS = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd")  # gzip, zstd: recognised by content, as pgnarc pack does


def open_archive(urlpath, storage_options=None, encoding="surrogateescape"):
    """A pgnarc.Archive read through fsspec by byte ranges (cat_file), for any URL fsspec knows;
    `encoding` as pgnarc.open's."""
    fs, path = fsspec.core.url_to_fs(urlpath, **(storage_options or {}))
    size = fs.size(path)

    def read(offset, n):
        return fs.cat_file(path, start=offset, end=offset + n)

    return pgnarc.Archive.from_reader(urlpath, size, read, encoding)


def _partitions(urlpath, storage_options, blocks_per_partition):
    """The archive's blocks grouped into partitions: (first game, end game) of each."""
    with open_archive(urlpath, storage_options) as a:
        starts = a._open().block_starts()
    blocks = len(starts) - 1
    if blocks == 0:
        return []
    if blocks_per_partition is None:
        blocks_per_partition = max(1, blocks // (4 * _workers_hint()))
    return [(starts[b], starts[min(b + blocks_per_partition, blocks)]) for b in range(0, blocks, blocks_per_partition)]


def _workers_hint():
    try:
        from distributed import get_client
        return max(1, sum(w.get("nthreads", 1) for w in get_client().scheduler_info()["workers"].values()))
    except (ImportError, ValueError):
        return os.cpu_count() or 1


MOVES = ("uci", "san", "numpy")


def _game_record(g, moves, annotations):
    record = {"number": g.number, "tags": g.tags, "result": g.result,
              "moves": g.moves if moves == "numpy" else g.san() if moves == "san" else g.uci(), "verbatim": g.verbatim}
    if annotations:
        record["annotations"] = None if g.verbatim else g.annotations()
    return record


def _read_games(urlpath, storage_options, first, end, moves="uci", annotations=False, encoding="surrogateescape"):
    with open_archive(urlpath, storage_options, encoding) as a:
        return [_game_record(a[i], moves, annotations) for i in range(first, end)]


def read_games(urlpath, blocks_per_partition=None, storage_options=None, moves="uci", annotations=False,
               encoding="surrogateescape"):
    """A dask.bag of the archive's games, in order: each a dict of number (from 1), tags (a dict),
    result, moves (the main line: "uci" a list of UCI, "san" a list of SAN, "numpy" Game.moves'
    uint16 array) and verbatim; with annotations=True also annotations (Game.annotations()'s
    DataFrame; None for a verbatim game). One partition per group of `blocks_per_partition` blocks (default: about four
    partitions a worker thread), each reading only its blocks' byte ranges. `encoding` as
    pgnarc.open's."""
    if moves not in MOVES:
        raise ValueError(f"moves must be one of {', '.join(map(repr, MOVES))}, not {moves!r}")
    pgnarc._encoding(encoding)
    parts = _partitions(urlpath, storage_options, blocks_per_partition)
    read = dask.delayed(_read_games, pure=True)
    return dask.bag.from_delayed([read(urlpath, storage_options, first, end, moves, bool(annotations), encoding)
                                  for first, end in parts])


def _tag_names(urlpath, storage_options, first, end):
    with open_archive(urlpath, storage_options) as a:
        return a._open()._tag_columns(None, first, end)[0]


def _read_tags(urlpath, storage_options, first, end, columns, raw):
    with open_archive(urlpath, storage_options) as a:
        names, values = a._open()._tag_columns(columns, first, end)
    frame = pandas.DataFrame(dict(zip(names, values)), columns=names, index=pandas.RangeIndex(first, end, name="game"))
    return frame if raw else _frames.typed(frame)


def read_tags(urlpath, columns=None, blocks_per_partition=None, storage_options=None, raw=False):
    """A dask.dataframe of the archive's tags, one row per game (index: the game's index from 0),
    partitioned as read_games, with the dtypes of Archive.tags_frame (raw=True: every tag as its
    text). Without `columns`, a first pass over the partitions finds every tag name (in order of
    first appearance) so that every partition has the same columns."""
    parts = _partitions(urlpath, storage_options, blocks_per_partition)
    if columns is None:
        names = dask.compute(*[dask.delayed(_tag_names, pure=True)(urlpath, storage_options, first, end)
                               for first, end in parts])
        columns = list(dict.fromkeys(name for part in names for name in part))
    columns = [str(c) for c in columns]
    meta = pandas.DataFrame({c: pandas.Series([], dtype=object) for c in columns},
                            index=pandas.RangeIndex(0, 0, name="game"))
    meta = meta if raw else _frames.typed(meta)
    read = dask.delayed(_read_tags, pure=True)
    divisions = [first for first, _ in parts] + [parts[-1][1] - 1] if parts else None
    return dask.dataframe.from_delayed([read(urlpath, storage_options, first, end, columns, raw) for first, end in parts],
                                       meta=meta, divisions=divisions)


def _shards(inputs, shard_bytes, storage_options):
    """(url, start, end) byte ranges of plain PGN inputs cut at game ends, and (url, None, None)
    for a compressed input, packed whole by one task."""
    shards = []
    for url in inputs:
        fs, path = fsspec.core.url_to_fs(url, **(storage_options or {}))
        with fs.open(path, "rb") as f:
            head = f.read(4)
        if head.startswith(MAGICS):
            shards.append((url, None, None))
            continue
        if isinstance(fs, fsspec.implementations.local.LocalFileSystem):
            cuts = _pgnarc._game_cuts(path, shard_bytes)
        else:
            with tempfile.NamedTemporaryFile(suffix=".pgn") as local:
                fs.get_file(path, local.name)
                cuts = _pgnarc._game_cuts(local.name, shard_bytes)
        shards += [(url, start, end) for start, end in zip(cuts, cuts[1:])]
    return shards


def _pack_shard(url, start, end, part_url, storage_options, moves, position_filter, variant, threads, label):
    """Packs one shard into its part; gives (stats, None), or (None, the exception) so that the
    client sees every task end before it cleans up. `label` names the input in problems."""
    try:
        fs, path = fsspec.core.url_to_fs(url, **(storage_options or {}))
        data = fs.cat_file(path) if start is None else fs.cat_file(path, start=start, end=end)
        name = os.path.basename(label)
        part_fs, part_path = fsspec.core.url_to_fs(part_url, **(storage_options or {}))
        with tempfile.TemporaryDirectory() as tmp:
            local = os.path.join(tmp, "part.pga")
            stats = _pgnarc._pack_bytes(data, name, local, threads, True, moves, position_filter, variant)
            part_fs.put_file(local, part_path)
        # The shard's games are numbered from its start: say which bytes of the input they are.
        place = label if start is None else f"{label} bytes {start}-{end}"
        stats["problems"] = [f"{place}: {p}" for p in stats["problems"]]
        return stats, None
    except Exception as e:  # noqa: BLE001  (raised again on the client, after every task ended)
        return None, e


def _spool(inputs, stem, out_fs, spooled):
    """The inputs as URLs the workers can read: paths and URLs as they are; standard input ("-"),
    bytes and binary file objects, which only the client holds, copied to files beside the output
    (on the storage the workers share), whose paths are appended to `spooled`. Also the names the
    copies go by in problems."""
    urls, labels = [], {}
    for k, i in enumerate(inputs):
        if isinstance(i, str) and i != "-":
            urls.append(i)
            continue
        path = out_fs._strip_protocol(f"{stem}-input-{k:04d}.pgn")
        spooled.append(path)
        with out_fs.open(path, "wb") as f:
            if isinstance(i, (bytes, bytearray, memoryview)):
                f.write(i)
            else:
                shutil.copyfileobj(sys.stdin.buffer if i == "-" else i, f, 1 << 20)
        url = out_fs.unstrip_protocol(path)
        urls.append(url)
        name = getattr(i, "name", None)
        labels[url] = "-" if i == "-" else name if isinstance(name, str) else f"input {k + 1}"
    return urls, labels


def _refuse_output_as_input(inputs, out_fs, out_path, output, storage_options):
    """pgnarc.Error if an input is the output (through a symlink, hard link or `..` path too, on
    local files; the same path on other storage): the joined archive would replace it, as
    pgnarc.pack refuses."""
    local = isinstance(out_fs, fsspec.implementations.local.LocalFileSystem)
    for url in inputs:
        fs, path = fsspec.core.url_to_fs(url, **(storage_options or {}))
        if local and isinstance(fs, fsspec.implementations.local.LocalFileSystem):
            same = os.path.exists(path) and os.path.exists(out_path) and os.path.samefile(path, out_path)
        else:
            same = type(fs) is type(out_fs) and fs._strip_protocol(path) == out_fs._strip_protocol(out_path)
        if same:
            raise pgnarc.Error(f"{url} is also the output {output}: write the archive to another file")


def pack(inputs, output, client=None, shard_bytes=256 << 20, force=False, moves="fast", position_filter=False,
         storage_options=None, variant=None, threads=None):
    """Packs PGN (fsspec URLs, plain or .gz/.zst packed whole by one task each; or "-" standard
    input, bytes and binary file objects, which the client first copies beside `output`) into the
    archive `output` on a Dask cluster. Workers write their parts beside `output` and the client
    joins them: on several machines, `output` must be on storage they share (a shared directory,
    object storage). The plain inputs are cut into shards of about
    `shard_bytes` at game ends, each shard is packed on a worker into a part archive beside
    `output`, and the parts are joined in order block by block (as `pgnarc merge` does) into
    `output`, which holds the same games in the same order as a single pgnarc.pack would. Returns
    the joined archive's figures with the shards' problems. `client`: the distributed Client to
    use (default: the current one, or Dask's default scheduler). `moves`, `position_filter` and
    `variant` as pgnarc.pack's; `threads`: the threads each task packs its shard on (None: one,
    as the tasks run side by side)."""
    if isinstance(inputs, (str, bytes, bytearray, memoryview, os.PathLike)) or hasattr(inputs, "read") \
            or not hasattr(inputs, "__iter__"):
        inputs = [inputs]
    inputs = [pgnarc._pack_input(i) for i in inputs]
    output = os.fspath(output)
    if moves not in ("fast", "max", "model", "uniform"):
        raise ValueError(f"moves must be 'fast', 'max' (or 'model') or 'uniform', not {moves!r}")
    if variant is not None and not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type(variant).__name__}")
    threads = pgnarc._threads(threads) or 1
    out_fs, out_path = fsspec.core.url_to_fs(output, **(storage_options or {}))
    _refuse_output_as_input([i for i in inputs if isinstance(i, str) and i != "-"], out_fs, out_path, output,
                            storage_options)
    if out_fs.exists(out_path) and not force:
        raise FileExistsError(17, "File exists (pack(..., force=True) replaces it)", output)
    stem = f"{output}.part-{uuid.uuid4().hex[:8]}"
    parts, spooled = [], []
    try:
        urls, labels = _spool(inputs, stem, out_fs, spooled)
        shards = _shards(urls, shard_bytes, storage_options)
        parts = [f"{stem}-{k:06d}.pga" for k in range(len(shards))]
        task = dask.delayed(_pack_shard, pure=False)
        tasks = [task(url, start, end, part, storage_options, moves, bool(position_filter), variant or "", threads,
                      labels.get(url, url))
                 for (url, start, end), part in zip(shards, parts)]
        done = client.compute(tasks, sync=True) if client is not None else dask.compute(*tasks)
        for _, error in done:
            if error is not None:
                raise error
        shard_stats = [stats for stats, _ in done]
        with tempfile.TemporaryDirectory() as tmp:
            local_parts = []
            for k, part in enumerate(parts):
                fs, path = fsspec.core.url_to_fs(part, **(storage_options or {}))
                if isinstance(fs, fsspec.implementations.local.LocalFileSystem):
                    local_parts.append(path)
                else:
                    local_parts.append(os.path.join(tmp, f"{k}.pga"))
                    fs.get_file(path, local_parts[-1])
            if isinstance(out_fs, fsspec.implementations.local.LocalFileSystem):
                stats = _pgnarc._merge(local_parts, out_path, bool(force))
            else:
                joined = os.path.join(tmp, "joined.pga")
                stats = _pgnarc._merge(local_parts, joined, True)
                out_fs.put_file(joined, out_path)
    finally:
        for part in parts:
            fs, path = fsspec.core.url_to_fs(part, **(storage_options or {}))
            if fs.exists(path):
                fs.rm(path)
        for path in spooled:
            if out_fs.exists(path):
                out_fs.rm(path)
    stats["shards"] = len(shards)
    stats["verbatim_games"] = sum(s["verbatim_games"] for s in shard_stats)
    stats["plies"] = sum(s["plies"] for s in shard_stats)
    stats["problems"] = [p for s in shard_stats for p in s["problems"]]
    stats["input_bytes"] = sum(s["input_bytes"] for s in shard_stats)
    return stats
