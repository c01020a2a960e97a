#!/usr/bin/python3
"""Reference decoder for pgnarc archives of format versions 1.0 to 1.15, written from
format-spec/pgnarc-format.md alone.  Besides everything of 1.0 it reads the blocks of move
codec 7 (9.3, format 1.1), whose games may be under one of the variants of 5.6 (crazyhouse,
atomic, antichess, three-check, king of the hill, racing kings, horde), named by their Variant
tag or by the variant byte of their header (8.1), the blocks of move coder 2 (7.5, 7.8,
format 1.2: the fast model and its opening book, in moves.py), the blocks of move codec 8
(format 1.3: clock tracks coded by the clock model, 8.3.4, its tables from
clock-model-tables.md), and the blocks of layout 3 (format 1.4), whose tag columns of coding 8
give `CurrentPosition` values from the game's main line (9.4.5) and whose tag columns of coding 9
give values that begin with the game's `White` or `Black` value (9.4.6), the blocks of
layout 4 (format 1.5), whose typed tag columns may have their codes in a codeword (coding 10,
9.4.7), the blocks of layout 5 (format 1.6), whose tag columns may also name entries of the
archive's value tables (coding 11, 9.4.8), which index extension 6 holds (9.5), and the blocks of
move codecs 9 and 10 (format 1.7), codec 7's and codec 8's records with Xiangqi games besides
(5.7.2): a header's variant byte 8, then the game's notation bytes (5.7.1), its moves among
Xiangqi's legal moves (5.7, in xiangqi.py) at frequency 4096 each, and its move texts in the
notation the bytes name (ICCS, WXF or Chinese), and the blocks of move codecs 11 and 12 (format
1.8), codecs 9 and 10 whose Xiangqi games, under move coders 1 and 2, have the Xiangqi model's
frequencies and the end hazard H (7.9, in xiangqi_model.py) with XQ-MODEL-2's history, and
the blocks of layout 6 (format 1.9), read as those of layout 5 but that a `FEN` column may have
coding 12 (9.4.9): its Xiangqi FENs as Xiangqi position values (5.7.3, in xiangqi_position.py),
each behind an adaptive form symbol (0 kept as text, 1 coded), in one codeword for the column,
and the blocks of move codecs 14 and 15 (format 1.10), codecs 11 and 12 whose Xiangqi games'
notation bytes may set two more elements (5.7.1): the encoding of their move texts (UTF-8,
GB18030 or Big5, written by the table of 5.7.1 Encodings, with Big5's defaults) and tandem by
file (XQ-TEXT-2 rule 3: a tandem horse, chariot or cannon named by its file where the other
cannot make the same motion), and the blocks of layout 7 (format 1.11), read as those of layout 6
but that any column may have coding 13 (9.4.10): a text body as coding 0's, then the ranks of
the tags whose values section 10 writes without escapes (an `UnescapedValue` each), the texts
and raw sections of encodings 7 and 8 (format 1.12, 9.3): encodings 1 and 2 each of whose frames
is made with one of the archive's dictionaries (9.9), the one its header names (BLOCK-5), and the
moves and structure sections of encoding 10 (format 1.13, 9.3): encoding 1 whose frame is made
with one of the archive's dictionaries, the one its header names (BLOCK-5), and the blocks of
layout 8 (format 1.14), read as those of layout 7 but that an `Event` or `Site` column may have
coding 6 (9.4.3): entries of the Event or Site table, then the ranks of its unescaped tags,
and the blocks of move codecs 17 and 18 (format 1.15), codecs 14 and 15 whose Xiangqi games take
the frequencies of the Xiangqi model's opening book (7.9.1, XQ-BOOK-1 to 3, in xiangqi_model.py)
in the positions it holds; codec 13 is not defined, nor section encodings 6 and 9.

    decode.py ARCHIVE        writes the archive's canonical PGN (section 10) to standard output
    decode.py ARCHIVE N      writes game N alone (numbered from 1, as `pgnarc get` numbers them)

A damaged or unsupported archive makes it exit with status 1 and a message naming the class
("corrupt" or "unsupported"), the requirement (e.g. [BLOCK-1]) and where it was found.

Section numbers in the comments refer to the specification.  The chess and coding primitives
(sections 5, 5.6, 6, 7.1, 7.3, 7.5, 7.6, 7.7, 7.8, SAN, FEN, the adaptive frequencies of 8.3.3,
the position code of 9.4.4 and its spelling of a derived FEN) are in moves.py beside this file,
the rules of Xiangqi and its move texts (5.7, 5.7.1) in xiangqi.py, the Xiangqi model (7.9) in
xiangqi_model.py, the Xiangqi position code (5.7.3, shared with tokens.py) in
xiangqi_position.py.  This file holds the rest:
the streams of a game record (section 8, with 5.7.2's Xiangqi games), the container (section 9,
with the tag values derived from the moves of 9.4.5, those that name a player of 9.4.6, the
value tables of 9.4.8, the Xiangqi position columns of 9.4.9 and the unescaped text columns of
9.4.10) and the canonical PGN (section 10).
Standard library only, plus python3-zstandard for Zstandard frames (RFC 8878).

Reading order (9.1, 9.5): header, footer, index (with its value tables, 9.4.8) and
dictionaries at opening; then, for a full unpack, every block table chunk, every block (checked
and decoded group by group), and last the name chunks; for one game, only the table chunk, the
block and the name chunks it needs.
"""

import os
import re
import struct
import sys

import zstandard

from moves import (NO_HISTORY, PIECE_LETTERS, AdaptiveFrequencies, ArithmeticDecoder,
                   FormatError, Position, VariantPosition, check_codeword_end, decode_code_column,
                   decode_position_column, derived_fen,
                   double_step_passed, end_frequency, history_after, is_white, move_frequencies,
                   ptype_of, read_integer, variant_of_name)
from xiangqi import NOTATION_LENGTH, XiangqiPosition, move_text_bytes, read_notation
from xiangqi_model import (XQ_NO_HISTORY, xq_book_frequencies, xq_end_frequency, xq_history_after,
                           xq_model_frequencies)
from xiangqi_position import XiangqiPositionCodeReader

# ---------------------------------------------------------------------------------------------
# Errors.  Every rejection names its class, its requirement and where it was found (section 2).


def corrupt(rule, where, message):
    return FormatError("corrupt", rule, f"{where}: {message}")


def unsupported(rule, where, message):
    return FormatError("unsupported", rule, f"{where}: {message}")


def require(condition, rule, where, message):
    if not condition:
        raise corrupt(rule, where, message)


# ---------------------------------------------------------------------------------------------
# Section 3: conventions.


def u32(data, at):
    return int.from_bytes(data[at:at + 4], "little")


def u64(data, at):
    return int.from_bytes(data[at:at + 8], "little")


def unzigzag(z):
    """The inverse of zigzag(d) = 2d for d >= 0, -2d - 1 for d < 0 (8.3.1, 9.4.1)."""
    return z >> 1 if z % 2 == 0 else -((z + 1) >> 1)


class Stream:
    """A byte string read from its front.  `rule` is the requirement a read past the end breaks
    (each section names its own); `name` says where the stream is, for messages."""

    def __init__(self, data, rule, name):
        self.data = data
        self.pos = 0
        self.rule = rule
        self.name = name

    def where(self):
        return f"{self.name}, offset {self.pos}"

    def left(self):
        return len(self.data) - self.pos

    def at_end(self):
        return self.pos == len(self.data)

    def take(self, n):
        require(n <= self.left(), self.rule, self.where(), f"{n} bytes run past the end")
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def byte(self):
        return self.take(1)[0]

    def varint(self):
        """[VARINT-1] LEB128, minimal, below 2^64."""
        value = shift = 0
        start = self.pos
        while True:
            require(self.pos < len(self.data), "VARINT-1", self.where(), "varint runs past the end")
            b = self.data[self.pos]
            self.pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        n = self.pos - start
        require(not (n > 1 and b == 0), "VARINT-1", self.where(), "varint not minimal")
        require(n <= 10 and value < 2**64, "VARINT-1", self.where(), "varint above 2^64 - 1")
        return value

    def text(self):
        """A text entry: varint length, bytes (section 8)."""
        return self.take(self.varint())

    def count(self, limit=None):
        """A varint count of entries of at least one byte each: not above the bytes left."""
        n = self.varint()
        require(n <= self.left() and (limit is None or n <= limit), self.rule, self.where(),
                f"count {n} larger than the bytes left")
        return n


# ---------------------------------------------------------------------------------------------
# Section 9.7: XXH64 (seed 0), after the xxHash specification.

P1, P2, P3, P4, P5 = (11400714785074694791, 14029467366897019727, 1609587929392839161,
                      9650029242287828579, 2870177450012600261)
M64 = 2**64 - 1


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def xxh64_round(acc, lane):
    return rotl((acc + lane * P2) & M64, 31) * P1 & M64


def xxh64_merge(acc, v):
    return ((acc ^ xxh64_round(0, v)) * P1 + P4) & M64


def xxh64(data):
    n = len(data)
    i = 0
    if n >= 32:
        v1, v2, v3, v4 = (P1 + P2) & M64, P2, 0, (-P1) & M64
        stripes = n - n % 32
        for a, b, c, d in struct.iter_unpack("<4Q", data[:stripes]):
            v1 = rotl((v1 + a * P2) & M64, 31) * P1 & M64
            v2 = rotl((v2 + b * P2) & M64, 31) * P1 & M64
            v3 = rotl((v3 + c * P2) & M64, 31) * P1 & M64
            v4 = rotl((v4 + d * P2) & M64, 31) * P1 & M64
        i = stripes
        h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) & M64
        for v in (v1, v2, v3, v4):
            h = xxh64_merge(h, v)
    else:
        h = P5
    h = (h + n) & M64
    while i + 8 <= n:
        h = (rotl(h ^ xxh64_round(0, u64(data, i)), 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h = (rotl(h ^ (u32(data, i) * P1 & M64), 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h = rotl(h ^ (data[i] * P5 & M64), 11) * P1 & M64
        i += 1
    h = (h ^ (h >> 33)) * P2 & M64
    h = (h ^ (h >> 29)) * P3 & M64
    return h ^ (h >> 32)


def check_element_checksum(data, rule, where):
    """An element's last 8 bytes: XXH64 of every byte before them (9.3, 9.9, 9.10, 9.11)."""
    require(xxh64(data[:-8]) == u64(data, len(data) - 8), rule, where, "checksum mismatch")


# ---------------------------------------------------------------------------------------------
# Zstandard frames (RFC 8878, spec 9.3.4), as sections, index, dictionaries and chunks store them.

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def zstd_frame_header(data, at, rule, where):
    """RFC 8878 3.1.1: walk the frame that starts at data[at] through its blocks.
    Returns (frame length, Frame_Content_Size or None, Dictionary_ID or 0)."""
    require(data[at:at + 4] == ZSTD_MAGIC, rule, where, "not a Zstandard frame")
    require(at + 5 <= len(data), rule, where, "Zstandard frame header runs past the end")
    descriptor = data[at + 4]
    fcs_flag, single_segment = descriptor >> 6, (descriptor >> 5) & 1
    has_checksum, did_flag = (descriptor >> 2) & 1, descriptor & 3
    require(descriptor & 0x08 == 0, rule, where, "Zstandard frame reserved bit set")
    p = at + 5 + (0 if single_segment else 1)
    did_size = (0, 1, 2, 4)[did_flag]
    dictionary_id = int.from_bytes(data[p:p + did_size], "little")
    p += did_size
    fcs_size = (1 if single_segment else 0, 2, 4, 8)[fcs_flag]
    content_size = int.from_bytes(data[p:p + fcs_size], "little") if fcs_size else None
    if fcs_size == 2:
        content_size += 256
    p += fcs_size
    while True:
        require(p + 3 <= len(data), rule, where, "Zstandard frame runs past the end")
        block_header = int.from_bytes(data[p:p + 3], "little")
        last, block_type, block_size = block_header & 1, (block_header >> 1) & 3, block_header >> 3
        require(block_type != 3, rule, where, "Zstandard block of reserved type")
        p += 3 + (1 if block_type == 1 else block_size)
        if last:
            break
    p += 4 * has_checksum
    require(p <= len(data), rule, where, "Zstandard frame runs past the end")
    return p - at, content_size, dictionary_id


def zstd_decompress(frame, size, rule, where, dictionary=None):
    """One whole frame that MUST decompress to exactly `size` bytes."""
    try:
        if dictionary is None:
            decompressor = zstandard.ZstdDecompressor()
        else:
            decompressor = zstandard.ZstdDecompressor(
                dict_data=zstandard.ZstdCompressionDict(dictionary))
        out = decompressor.decompressobj().decompress(frame)
    except zstandard.ZstdError as e:
        raise corrupt(rule, where, f"Zstandard frame does not decode: {e}")
    require(len(out) == size, rule, where, f"Zstandard frame decodes to {len(out)} bytes, not {size}")
    return out


def zstd_single_frame(data, size, rule, where, dictionaries=None, size_limit=None):
    """Stored bytes that are exactly one frame (9.3.4) [ZSTD-1], decoding to `size` bytes (the
    structure's own `rule` for the size).  With `dictionaries` the frame may name one of them
    (9.9); `size_limit` bounds the declared content size (encoding 4: at most 2n + 10)."""
    length, content_size, dictionary_id = zstd_frame_header(data, 0, "ZSTD-1", where)
    require(length == len(data), "ZSTD-1", where, "bytes after the Zstandard frame")
    if size_limit is not None:
        require(content_size is not None and content_size <= size_limit, rule, where,
                "frame content size absent or too large")
        size = content_size
    require(content_size is None or content_size == size, rule, where,
            "frame content size differs from the raw size")
    dictionary = None
    if dictionary_id:
        require(dictionaries is not None, "ZSTD-1", where,
                f"frame names dictionary {dictionary_id} where none may be named")
        require(dictionary_id in dictionaries, rule, where,
                f"frame names dictionary {dictionary_id}, which the archive does not hold")
        dictionary = dictionaries[dictionary_id]
    return zstd_decompress(data, size, rule, where, dictionary)


def read_element_payload(encoding, stored, raw_size, rule, where, dictionaries=None):
    """The payload of an index, dictionary or chunk: stored (0) or one frame (1, or 3 with a
    dictionary)."""
    if encoding == 0:
        require(len(stored) == raw_size, rule, where, "stored size differs from raw size")
        return stored
    return zstd_single_frame(stored, raw_size, rule, where, dictionaries)


# ---------------------------------------------------------------------------------------------
# Section 9.1: an archive is opened from its ends: header (9.2), footer (9.6), index (9.5).

READ_MAJOR = 1                                 # this reader implements format version 1.15
FILE_MAGIC = b"\x89PGA\r\n\x1a\n"
FIELDS = ("players", "Event", "Site")          # the name directory's fields, 9.5 and 9.10
MOVE_CODECS = (6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 18)  # the move codecs of 9.3 (BLOCK-1); 13, 16 undefined
VARIANT_CODECS = (7, 8, 9, 10, 11, 12, 14, 15, 17, 18)   # codecs whose games may be under a variant (8.1)
MODELLED_TRACK_CODECS = (8, 10, 12, 15, 18)    # codecs of modelled clock tracks (8.3.4)
XIANGQI_CODECS = (9, 10, 11, 12, 14, 15, 17, 18)  # codecs whose records may be Xiangqi games (5.7.2)
XIANGQI_MODEL_CODECS = (11, 12, 14, 15, 17, 18)  # ... by the Xiangqi model under coders 1, 2 (7.9)
XIANGQI_BOOK_CODECS = (17, 18)                 # ... and its book (7.9.1)
ENCODING_CODECS = (14, 15, 17, 18)                     # ... whose notation bytes may set the encoding and
                                               # tandem by file (5.7.1, XQ-NOTATION-1)
LAYOUTS = (1, 3, 4, 5, 6, 7, 8)                # the layouts of 9.3 (BLOCK-1); 2 undefined


class Archive:
    def __init__(self, path):
        self.file = open(path, "rb")
        self.size = os.fstat(self.file.fileno()).st_size
        require(self.size >= 80, "FOOTER-1", "file", f"{self.size} bytes: shorter than 80")
        self.read_header()
        self.read_footer()
        self.read_index()
        self.read_dictionaries()
        self.table_chunks = {}          # chunk number -> list of BlockEntry (9.11), as read
        self.name_chunks = {}           # (field, chunk number) -> list of (value, postings)

    def read_at(self, offset, size):
        self.file.seek(offset)
        return self.file.read(size)

    def read_header(self):
        """9.2 [FILE-HDR-1] [FILE-HDR-2], checked in the order 9.2 gives.  Any write version
        and any read version 1.y is read (2.1)."""
        h = self.read_at(0, 32)
        where = "file header"
        require(h[0:8] == FILE_MAGIC, "FILE-HDR-1", where, "wrong magic")
        require(xxh64(h[0:28]) & 0xFFFFFFFF == u32(h, 28), "FILE-HDR-1", where, "checksum mismatch")
        if h[10] != READ_MAJOR:
            raise unsupported("FILE-HDR-2", where, f"read version {h[10]}.{h[11]}: "
                              f"major version {h[10]}, not {READ_MAJOR}")
        require(h[12:28] == bytes(16), "FILE-HDR-1", where, "flags or reserved fields not zero")

    def read_footer(self):
        """9.6 [FOOTER-1]: the checks that need only the footer and the index."""
        at = self.size - 48
        f = self.read_at(at, 48)
        where = f"footer at offset {at}"
        require(f[44:48] == b"PGAF", "FOOTER-1", where, "wrong magic")
        require(xxh64(f[0:40]) & 0xFFFFFFFF == u32(f, 40), "FOOTER-1", where, "checksum mismatch")
        self.index_offset, self.index_size = u64(f, 0), u64(f, 8)
        self.games, self.blocks = u64(f, 16), u64(f, 24)
        require(self.index_offset >= 32, "FOOTER-1", where, "index offset below 32")
        require(self.index_offset + self.index_size == at, "FOOTER-1", where,
                "the index does not end where the footer begins")
        self.index = self.read_at(self.index_offset, self.index_size)
        require(xxh64(self.index) == u64(f, 32), "FOOTER-1", where, "index checksum mismatch")

    def read_index(self):
        """9.5 [INDEX-1]: the dictionary table, block directory and name directory."""
        ix = self.index
        where = f"index at offset {self.index_offset}"
        require(len(ix) >= 9 and ix[0:4] == b"PGAI", "INDEX-1", where, "wrong magic")
        encoding, raw_size = ix[4], u32(ix, 5)
        require(encoding <= 1, "INDEX-1", where, f"reserved encoding {encoding}")
        require(raw_size <= 2**31, "INDEX-1", where, "raw size above 2^31")
        body = Stream(read_element_payload(encoding, ix[9:], raw_size, "INDEX-1", where),
                      "INDEX-1", "index body")

        # 1. dictionary table
        self.dictionary_entries = []                  # (offset, size, ID) in file order
        for _ in range(body.count()):
            offset, size, ident = body.varint(), body.varint(), body.varint()
            require(1 <= ident <= 2**32 - 1, "INDEX-1", body.where(), f"dictionary ID {ident}")
            require(size >= 28, "INDEX-1", body.where(), "dictionary element below 28 bytes")
            require(all(ident != e[2] for e in self.dictionary_entries), "INDEX-1", body.where(),
                    f"dictionary ID {ident} twice")
            require(not self.dictionary_entries or offset >= sum(self.dictionary_entries[-1][:2]),
                    "INDEX-1", body.where(), "dictionaries not in file order, or overlapping")
            self.dictionary_entries.append((offset, size, ident))

        # 2. block directory
        self.chunk_entries = []                       # (offset, size, blocks, first_game)
        total_blocks = 0
        for i in range(body.count()):
            offset, size, blocks, first_game = (body.varint(), body.varint(), body.varint(),
                                                body.varint())
            require(1 <= blocks <= 2**20, "INDEX-1", body.where(), f"chunk of {blocks} blocks")
            require(size >= 24, "INDEX-1", body.where(), "block table chunk below 24 bytes")
            if i == 0:
                require(first_game == 0, "INDEX-1", body.where(), "first chunk's first_game not 0")
            else:
                previous = self.chunk_entries[-1]
                require(first_game >= previous[3] + previous[2], "INDEX-1", body.where(),
                        "first_game below the previous chunk's first_game plus its blocks")
            total_blocks += blocks
            self.chunk_entries.append((offset, size, blocks, first_game))
        require(total_blocks <= 2**32 - 1, "INDEX-1", body.where(), "more than 2^32 - 1 blocks")

        # 3. name directory
        self.name_entries = []                        # per field: (offset, size, values, first)
        for field in range(3):
            entries = []
            for _ in range(body.count()):
                offset, size, values, first = (body.varint(), body.varint(), body.varint(),
                                               body.text())
                require(size >= 24, "INDEX-1", body.where(), "name chunk below 24 bytes")
                require(1 <= values <= 2**28, "INDEX-1", body.where(), f"name chunk of {values}")
                require(field == 0 or not entries or first > entries[-1][3], "INDEX-1",
                        body.where(), f"{FIELDS[field]} chunks' first values not ascending")
                entries.append((offset, size, values, first))
            self.name_entries.append(entries)

        # 4. extensions [INDEX-2]: a reader of 1.6 knows ID 6, the value tables (9.4.8); it
        # skips other even IDs and refuses odd ones, once the whole body is read and checked
        extensions = Stream(body.data[body.pos:], "INDEX-2", "index extensions")
        ids = []
        self.value_tables = None                      # 9.4.8: a list of ValueTable, or None
        for _ in range(extensions.count()):
            ident = extensions.varint()
            require(not ids or ident > ids[-1], "INDEX-2", extensions.where(),
                    f"extension ID {ident} after {ids[-1] if ids else None}: not ascending")
            ids.append(ident)
            data = extensions.text()
            if ident == VALUE_TABLES_EXTENSION:
                self.value_tables = read_value_tables(data, f"{where}, extension 6 (value tables)")
        body.pos += extensions.pos
        require(body.at_end(), "INDEX-1", body.where(), "bytes left over")
        for ident in ids:
            if ident % 2 == 1:
                raise unsupported("INDEX-2", where, f"index extension of odd ID {ident}, "
                                  "which this reader does not know")

        # [FOOTER-1] blocks and games against the block directory
        require(self.blocks == total_blocks, "FOOTER-1", "footer",
                f"{self.blocks} blocks, the block directory has {total_blocks}")
        last = self.chunk_entries[-1] if self.chunk_entries else (0, 0, 0, 0)
        require(self.games >= last[3] + last[2], "FOOTER-1", "footer",
                "games below the last chunk's first_game plus its blocks")
        require(self.chunk_entries or self.games == 0, "FOOTER-1", "footer", "games without blocks")

        # [INDEX-1] what can be placed at opening: name chunks (players, Event, Site) then block
        # table chunks, contiguous up to the index; dictionaries from offset 32 before them.
        elements = [e[:2] for field in self.name_entries for e in field]
        elements += [e[:2] for e in self.chunk_entries]
        self.elements_start = elements[0][0] if elements else self.index_offset
        at = self.elements_start
        for offset, size in elements:
            require(offset == at, "INDEX-1", where, f"name or table chunk at {offset}, not {at}")
            at += size
        require(at == self.index_offset, "INDEX-1", where, "chunks do not end at the index")
        at = 32
        for offset, size, _ in self.dictionary_entries:
            require(offset >= at, "INDEX-1", where, f"dictionary element at {offset} out of place")
            at = offset + size
        require(at <= self.elements_start, "INDEX-1", where, "dictionary element out of place")
        if not self.chunk_entries:
            self.check_contiguity([])

    def check_contiguity(self, blocks):
        """[INDEX-1] blocks and dictionary elements, in file order, fill offset 32 up to the
        name and table chunks without gaps."""
        at = 32
        for offset, size in sorted([(b.offset, b.size) for b in blocks] +
                                   [e[:2] for e in self.dictionary_entries]):
            require(offset == at, "INDEX-1", f"element at offset {offset}",
                    f"blocks and dictionaries not contiguous (expected offset {at})")
            at = offset + size
        require(at == self.elements_start, "INDEX-1", f"offset {at}",
                "blocks and dictionaries do not reach the name and table chunks")

    def read_dictionaries(self):
        """9.9 [DICT-1]: every dictionary element is checked at opening."""
        self.dictionaries = {}
        for offset, size, ident in self.dictionary_entries:
            where = f"dictionary element at offset {offset}"
            e = self.read_at(offset, size)
            require(len(e) == size, "DICT-1", where, "runs past the end of the file")
            check_element_checksum(e, "DICT-1", where)
            require(e[0:4] == b"PGAD", "DICT-1", where, "wrong magic")
            require(e[9:12] == bytes(3), "DICT-1", where, "reserved bytes not zero")
            encoding, stored_size, raw_size = e[8], u32(e, 12), u32(e, 16)
            require(encoding <= 1, "DICT-1", where, f"reserved encoding {encoding}")
            require(stored_size == size - 28, "DICT-1", where, "stored size is not the size less 28")
            require(raw_size <= 2**20, "DICT-1", where, "raw size above 2^20")
            require(u32(e, 4) != 0, "DICT-1", where, "ID 0")
            require(u32(e, 4) == ident, "DICT-1", where, f"ID {u32(e, 4)}, the index says {ident}")
            d = read_element_payload(encoding, e[20:20 + stored_size], raw_size, "DICT-1", where)
            require(d[0:4] == b"\x37\xa4\x30\xec" and u32(d, 4) == ident, "DICT-1", where,
                    "not a Zstandard dictionary of the element's ID")
            self.dictionaries[ident] = d

    # -- 9.11 block table chunks ---------------------------------------------------------------

    def table_chunk(self, k):
        """The block entries of chunk k [TABLE-1], read and checked the first time."""
        if k in self.table_chunks:
            return self.table_chunks[k]
        offset, size, blocks, first_game = self.chunk_entries[k]
        where = f"block table chunk {k} at offset {offset}"
        e = self.read_at(offset, size)
        check_element_checksum(e, "TABLE-1", where)
        require(e[0:4] == b"PGAT", "TABLE-1", where, "wrong magic")
        require(e[4] <= 1, "TABLE-1", where, f"encoding {e[4]}")
        require(e[5:8] == bytes(3), "TABLE-1", where, "reserved bytes not zero")
        stored_size, raw_size = u32(e, 8), u32(e, 12)
        require(stored_size == size - 24, "TABLE-1", where, "stored size is not the size less 24")
        require(raw_size <= 2**30, "TABLE-1", where, "raw size above 2^30")
        s = Stream(read_element_payload(e[4], e[16:16 + stored_size], raw_size, "TABLE-1", where),
                   "TABLE-1", where)
        require(s.count() == blocks, "TABLE-1", where, "count is not the directory's blocks")
        entries = []
        game = first_game
        end = None
        for i in range(blocks):
            gap = s.varint()
            entry = BlockEntry(number=sum(c[2] for c in self.chunk_entries[:k]) + i,
                               offset=gap if end is None else end + gap, size=s.varint(),
                               games=s.varint(), first_game=game, date_min=s.varint(),
                               date_max=s.varint(), results=s.byte())
            require(1 <= entry.games <= 2**20, "TABLE-1", s.where(), f"{entry.games} games")
            require(entry.offset >= 32, "TABLE-1", s.where(), "block offset below 32")
            end = entry.offset + entry.size
            require(end <= self.elements_start, "TABLE-1", s.where(),
                    "block ends past the first name or block table chunk")
            game += entry.games
            entries.append(entry)
        require(s.at_end(), "TABLE-1", s.where(), "bytes left over")
        next_first = (self.chunk_entries[k + 1][3] if k + 1 < len(self.chunk_entries)
                      else self.games)
        require(game == next_first, "TABLE-1", where,
                f"its blocks hold {game - first_game} games, the directory says "
                f"{next_first - first_game}")
        self.table_chunks[k] = entries
        return entries

    def block_of_game(self, n):
        """The block entry holding game n (from 0): one table chunk away (9.11)."""
        k = max(i for i, c in enumerate(self.chunk_entries) if c[3] <= n)
        for entry in self.table_chunk(k):
            if entry.first_game <= n < entry.first_game + entry.games:
                return entry
        raise corrupt("TABLE-1", f"block table chunk {k}", f"no block holds game {n + 1}")

    def all_blocks(self):
        blocks = [e for k in range(len(self.chunk_entries)) for e in self.table_chunk(k)]
        self.check_contiguity(blocks)
        return blocks

    # -- 9.10 name chunks ------------------------------------------------------------------

    def name_chunk(self, field, k):
        """The (value, postings) entries of chunk k of a field [NAME-1], read the first time."""
        if (field, k) in self.name_chunks:
            return self.name_chunks[field, k]
        chunks = self.name_entries[field]
        offset, size, values, first = chunks[k]
        where = f"{FIELDS[field]} name chunk {k} at offset {offset}"
        e = self.read_at(offset, size)
        check_element_checksum(e, "NAME-1", where)
        require(e[0:4] == b"PGAN", "NAME-1", where, "wrong magic")
        require(e[4] == field, "NAME-1", where, f"field {e[4]}, the directory says {field}")
        require(e[5] in (0, 1, 3), "NAME-1", where, f"encoding {e[5]}")
        require(e[6:8] == bytes(2), "NAME-1", where, "reserved bytes not zero")
        stored_size, raw_size = u32(e, 8), u32(e, 12)
        require(stored_size == size - 24, "NAME-1", where, "stored size is not the size less 24")
        require(raw_size <= 2**30, "NAME-1", where, "raw size above 2^30")
        s = Stream(read_element_payload(e[5], e[16:16 + stored_size], raw_size, "NAME-1", where,
                                        self.dictionaries if e[5] == 3 else None),
                   "NAME-1", where)
        count = s.count()
        require(count == values, "NAME-1", where, "count is not the directory's values")
        shared = [s.varint() for _ in range(count)]
        names = []
        total = 0
        for i in range(count):                           # rests: 00 ends, 01 01 = 00, 01 02 = 01
            rest = bytearray()
            while True:
                b = s.byte()
                if b == 0:
                    break
                if b == 1:
                    b = s.byte() - 1
                    require(b in (0, 1), "NAME-1", s.where(), "01 followed by other than 01, 02")
                rest.append(b)
            previous = names[-1] if names else b""
            require(shared[i] <= len(previous), "NAME-1", s.where(), "shared above the previous value")
            require(not (shared[i] < len(previous) and rest and rest[0] == previous[shared[i]]),
                    "NAME-1", s.where(), "shared is not the longest common prefix")
            names.append(previous[:shared[i]] + bytes(rest))
            total += len(names[-1])
            require(total <= 2**30, "NAME-1", s.where(), "values of more than 2^30 bytes")
        entries = []
        first_block = 0
        for name in names:
            postings = s.varint()
            require(postings >= 1, "NAME-1", s.where(), "an entry with no postings")
            block = first_block + unzigzag(s.varint())
            first_block = block
            blocks = [block]
            for _ in range(postings - 1):
                blocks.append(blocks[-1] + 1 + s.varint())
            require(0 <= block and blocks[-1] < self.blocks, "NAME-1", s.where(),
                    "postings name blocks that do not exist")
            entries.append((name, blocks))
        require(s.at_end(), "NAME-1", s.where(), "bytes left over")
        require(not names or names[0] == first, "NAME-1", where, "first value is not the directory's")
        if field > 0:
            require(all(a < b for a, b in zip(names, names[1:])), "NAME-1", where,
                    "values not strictly ascending")
            require(k + 1 == len(chunks) or names[-1] < chunks[k + 1][3], "NAME-1", where,
                    "last value not below the next chunk's first value")
        self.name_chunks[field, k] = entries
        return entries

    def player(self, entry, field=0):
        """Entry `entry` of the players' table (9.4.3), or of the Event (`field` 1) or Site (2)
        table: chunks number their entries in order."""
        first = 0
        for k, chunk in enumerate(self.name_entries[field]):
            if entry < first + chunk[2]:
                return self.name_chunk(field, k)[entry - first][0]
            first += chunk[2]
        return None

    def player_count(self, field=0):
        return sum(chunk[2] for chunk in self.name_entries[field])

    def check_name_chunks(self):
        for field in range(3):
            for k in range(len(self.name_entries[field])):
                self.name_chunk(field, k)


class BlockEntry:
    """A block entry of a block table chunk (9.5, 9.11)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


# ---------------------------------------------------------------------------------------------
# Section 9.4.8: the value tables, index extension 6 (format 1.6).

VALUE_TABLES_EXTENSION = 6
VALUE_TABLES_MAGIC = b"PGAV"
MAX_TABLE_KEYS = 8
MAX_TABLE_ENTRIES = 2**24


class ValueTable:
    """A value table (9.4.8): its keys (bytes, in order), its number of `entries` and, for each
    entry and key, a value (bytes) or None where the entry has none."""

    def __init__(self, keys, entries, values):
        self.keys, self.entries, self.values = keys, entries, values

    def value(self, entry, i):
        """Entry `entry`'s value for key i, or None."""
        return self.values[entry * len(self.keys) + i]


def read_value_tables(e, where):
    """9.4.8 [INDEX-3]: the bytes of index extension 6: magic, encoding, stored size, raw size,
    the tables (stored or one Zstandard frame) and the checksum of the bytes before it; then the
    tables: varint `tables` (1 to 256), and each table's keys (1 to 8, each not empty, no key
    in two places of the tables), its `entries` (1 to 2^24; 2^24 values in all, entries times
    keys) and for each entry and key a varint v, 0 for no value, else v - 1 the value's length,
    and its bytes. Stored and decoded sizes at most 2^26."""
    require(e[0:4] == VALUE_TABLES_MAGIC, "INDEX-3", where, "wrong magic")
    stored_size = u32(e, 5) if len(e) >= 9 else None
    require(stored_size is not None and stored_size <= 2**26, "INDEX-3", where,
            "stored size missing or above 2^26")
    require(len(e) >= 21 and stored_size == len(e) - 21, "INDEX-3", where,
            f"stored size {stored_size}, not the extension's {len(e)} bytes less 21")
    check_element_checksum(e, "INDEX-3", where)
    encoding, raw_size = e[4], u32(e, 9)
    require(encoding <= 1, "INDEX-3", where, f"encoding {encoding}")
    require(raw_size <= 2**26, "INDEX-3", where, "raw size above 2^26")
    s = Stream(read_element_payload(encoding, e[13:13 + stored_size], raw_size, "INDEX-3", where),
               "INDEX-3", f"{where}, tables")
    count = s.count()
    require(1 <= count <= 256, "INDEX-3", s.where(), f"{count} tables")
    tables = []
    seen = set()
    values_in_all = 0
    for t in range(count):
        keys = s.varint()
        require(1 <= keys <= MAX_TABLE_KEYS, "INDEX-3", s.where(), f"table {t} of {keys} keys")
        names = []
        for _ in range(keys):
            key = s.text()
            require(key, "INDEX-3", s.where(), f"an empty key of table {t}")
            require(key not in seen, "INDEX-3", s.where(),
                    f"key {key!r} of table {t} twice in the tables")
            seen.add(key)
            names.append(key)
        entries = s.varint()
        require(1 <= entries <= MAX_TABLE_ENTRIES, "INDEX-3", s.where(),
                f"table {t} of {entries} entries")
        values_in_all += entries * keys
        require(values_in_all <= 2**24, "INDEX-3", s.where(), "more than 2^24 values in all")
        require(entries * keys <= s.left(), "INDEX-3", s.where(),       # a byte a value at least
                f"the values of table {t}'s {entries} entries run past the end")
        values = []
        for _ in range(entries * keys):
            v = s.varint()
            values.append(None if v == 0 else s.take(v - 1))
        tables.append(ValueTable(names, entries, values))
    require(s.at_end(), "INDEX-3", s.where(), "bytes after the last table")
    return tables


# ---------------------------------------------------------------------------------------------
# Section 9.3: blocks.

TAGS, MOVES, STRUCTURE, TEXTS, RAW = range(5)
SECTION_NAMES = ("tags", "moves", "structure", "texts", "raw")
ALLOWED_ENCODINGS = ({0, 1, 3}, {0, 1, 10}, {0, 1, 10}, {0, 1, 2, 4, 5, 7, 8},
                     {0, 1, 2, 4, 5, 7, 8})
WITH_DICTIONARY = {7: 1, 8: 2, 10: 1}          # encodings 7 and 8: 1 and 2 whose every frame
                                               # names a dictionary (format 1.12, BLOCK-5); 10:
                                               # 1 of a moves or structure section whose frame
                                               # names one (format 1.13)
BY_GROUP = (2, 5, 8)                           # one frame per directory group [BLOCK-4]


class Block:
    """A block read and checked as far as its header, sections and directory (9.3, 9.3.1);
    its games are decoded group by group (decode_group)."""

    def __init__(self, archive, entry):
        self.archive = archive
        self.entry = entry
        self.where = f"block {entry.number} at offset {entry.offset}"
        data = archive.read_at(entry.offset, entry.size)
        self.check_header(data)
        self.read_sections(data)
        self.read_directory()
        self.tags = decode_tags_section(archive, self)

    def check_header(self, data):
        """[BLOCK-1] in its order: checksum, magic, codec, section count, layout, coder, games."""
        w = self.where
        require(len(data) >= 80 and len(data) == self.entry.size, "BLOCK-1", w, "block too short")
        check_element_checksum(data, "BLOCK-1", w)
        require(data[0:4] == b"PGAB", "BLOCK-1", w, "wrong magic")
        # 7: games under a variant too (1.1); 8: modelled tracks (1.3); 9 and 10: codec 7's and
        # codec 8's records, and Xiangqi games besides (1.7, 5.7.2); 11 and 12: codecs 9 and 10
        # whose Xiangqi games have the Xiangqi model's frequencies under coders 1 and 2 (1.8, 7.9);
        # 14 and 15: codecs 11 and 12 whose notation bytes may set the encoding and tandem by
        # file (1.10, 5.7.1); 17 and 18: codecs 14 and 15 whose Xiangqi games take the
        # Xiangqi model's book's frequencies where it holds the position (1.15, 7.9.1); 13 is
        # never defined
        if data[4] not in MOVE_CODECS:
            raise unsupported("BLOCK-1", w, f"unknown move codec {data[4]}")
        self.codec = data[4]
        self.sections = data[5]
        require(self.sections >= 5 and len(data) >= 20 + 12 * self.sections, "BLOCK-1", w,
                f"section count {data[5]}")
        if data[6] not in LAYOUTS:       # 3: tag columns derived or named (1.4, 9.4.5,
                                         # 9.4.6); 4: also coded (1.5, 9.4.7); 5: also tables
                                         # (1.6, 9.4.8); 6: also Xiangqi positions (1.9, 9.4.9);
                                         # 7: also unescaped text (1.11, 9.4.10); 8: also
                                         # Event and Site entries (1.14, 9.4.3)
            raise unsupported("BLOCK-1", w, f"unknown layout {data[6]}")
        self.layout = data[6]
        if data[7] > 2:                  # 0 uniform, 1 model, 2 fast (format 1.2)
            raise unsupported("BLOCK-1", w, f"unknown move coder {data[7]}")
        self.coder = data[7]
        self.games = u32(data, 8)
        require(1 <= self.games <= 2**20 and self.games == self.entry.games, "BLOCK-1", w,
                f"{self.games} games, the block entry says {self.entry.games}")

    def read_sections(self, data):
        """The section table and the sections' stored bytes [BLOCK-1] [BLOCK-7]: the five
        sections, then optional sections, which a reader of 1.0 skips."""
        self.encoding, self.raw_size, self.stored = [], [], []
        at = 12 + 12 * self.sections
        for i in range(self.sections):
            e = data[12 + 12 * i:24 + 12 * i]
            ident, encoding, stored_size, raw_size = e[0], e[1], u32(e, 4), u32(e, 8)
            if i >= 5:                                                  # optional section
                w = f"{self.where}, section entry {i}"
                require(ident >= 5 and ident > data[12 * i], "BLOCK-7", w,
                        f"optional section id {ident} after id {data[12 * i]}")
                require(e[2:4] == bytes(2), "BLOCK-7", w, "reserved bytes not zero")
                at += stored_size
                continue
            w = f"{self.where}, {SECTION_NAMES[i]} section"
            require(ident == i, "BLOCK-1", w, f"id {ident}")          # id, encoding, reserved
            if encoding in (6, 9) or encoding > 10:     # 6 and 9 are never defined; 7 and 8:
                                                        # format 1.12; 10: format 1.13
                raise unsupported("BLOCK-1", w, f"unknown section encoding {encoding}")
            require(encoding in ALLOWED_ENCODINGS[i], "BLOCK-1", w, f"encoding {encoding}")
            require(e[2:4] == bytes(2), "BLOCK-1", w, "reserved bytes not zero")
            require(raw_size <= 2**28, "BLOCK-1", w, "raw size above 2^28")
            require(encoding != 0 or stored_size == raw_size, "BLOCK-1", w,
                    "stored size differs from raw size")
            self.encoding.append(encoding)
            self.raw_size.append(raw_size)
            self.stored.append(data[at:at + stored_size])
            at += stored_size
        require(at == len(data) - 8, "BLOCK-1", self.where,
                "stored sizes do not add up to the block size less 20 + 12 c")
        # tags, moves and structure decode whole (texts and raw may need the directory)
        self.tags_bytes = self.whole_section(TAGS)
        self.moves = self.whole_section(MOVES)
        self.structure = self.whole_section(STRUCTURE)

    def frame_dictionary(self, dictionary_id, where):
        """[BLOCK-5]: the archive's dictionary that a frame of encoding 3, 7, 8 or 10 names in its
        header (Dictionary_ID present and not 0), which the archive MUST hold (9.9: any of its
        dictionaries, whatever it was made from)."""
        require(dictionary_id != 0, "BLOCK-5", where, "frame names no dictionary")
        require(dictionary_id in self.archive.dictionaries, "BLOCK-5", where,
                f"frame names dictionary {dictionary_id}, which the archive does not hold")
        return self.archive.dictionaries[dictionary_id]

    def whole_section(self, i):
        """A section of encoding 0, 1, 3, 4, 7 or 10 as its stream (7, and 10 of moves and
        structure: 1 whose frame names one of the archive's dictionaries, BLOCK-5)."""
        w = f"{self.where}, {SECTION_NAMES[i]} section"
        encoding, stored, raw_size = self.encoding[i], self.stored[i], self.raw_size[i]
        dictionaries = None             # (1 and 4: a frame that names one is rejected, ZSTD-1)
        if encoding in (3, 7, 10):                                              # [BLOCK-5]
            _, _, dictionary_id = zstd_frame_header(stored, 0, "ZSTD-1", w)
            self.frame_dictionary(dictionary_id, w)
            dictionaries = self.archive.dictionaries
            encoding = WITH_DICTIONARY.get(encoding, encoding)
        if encoding == 0:
            return stored
        if encoding in (1, 3):
            return zstd_single_frame(stored, raw_size, "BLOCK-1", w, dictionaries)
        if encoding == 4:                                                       # 9.3.2
            form = zstd_single_frame(stored, None, "BLOCK-4", w, size_limit=2 * raw_size + 10)
            return from_column_form(form, raw_size, w)
        return None                                     # 2, 5 and 8: by group, below

    def read_directory(self):
        """9.3.1 [BLOCK-3]: the game directory at the start of the structure section."""
        s = Stream(self.structure, "BLOCK-3", f"{self.where}, game directory")
        self.step = s.varint()
        require(1 <= self.step <= 2**20, "BLOCK-3", s.where(), f"step {self.step}")
        self.plies = s.varint()
        require(self.plies <= self.games * 2**16, "BLOCK-3", s.where(), "plies above games * 2^16")
        self.groups = -(-self.games // self.step)
        self.column = [None] * 5                       # bytes of each group in each stream
        for i in (MOVES, STRUCTURE, TEXTS, RAW):
            self.column[i] = [s.varint() for _ in range(self.groups)]
        self.filter = s.take(s.varint())
        self.structure = self.structure[s.pos:]
        sizes = {MOVES: len(self.moves), STRUCTURE: len(self.structure),
                 TEXTS: self.raw_size[TEXTS], RAW: self.raw_size[RAW]}
        for i in (MOVES, STRUCTURE, TEXTS, RAW):
            require(sum(self.column[i]) == sizes[i], "BLOCK-3", s.name,
                    f"{SECTION_NAMES[i]} column adds up to {sum(self.column[i])}, not {sizes[i]}")
        self.texts = self.group_section(TEXTS)
        self.raw = self.group_section(RAW)

    def group_section(self, i):
        """The texts or raw stream as a list of each group's bytes.  Encodings 2, 5 and 8 hold one
        frame per group [BLOCK-4], each of 8 made with the dictionary its header names, which may
        differ from frame to frame [BLOCK-5]; every frame's header is checked before any is
        used."""
        w = f"{self.where}, {SECTION_NAMES[i]} section"
        sizes = self.column[i]
        if self.encoding[i] not in BY_GROUP:
            whole = self.whole_section(i)
            starts = [sum(sizes[:k]) for k in range(self.groups + 1)]
            return [whole[starts[k]:starts[k + 1]] for k in range(self.groups)]
        encoding = WITH_DICTIONARY.get(self.encoding[i], self.encoding[i])     # 2 (8) or 5
        stored = self.stored[i]
        frames = []
        at = 0
        for k in range(self.groups):
            require(at < len(stored), "BLOCK-4", w, f"fewer frames than the {self.groups} groups")
            length, content_size, dictionary_id = zstd_frame_header(stored, at, "BLOCK-4", w)
            if self.encoding[i] in WITH_DICTIONARY:                             # [BLOCK-5]
                dictionary = self.frame_dictionary(dictionary_id, f"{w}, frame {k}")
            else:
                require(dictionary_id == 0, "BLOCK-4", w,
                        f"frame {k} names dictionary {dictionary_id} (encoding {encoding})")
                dictionary = None
            if encoding == 2:
                require(content_size == sizes[k], "BLOCK-4", w,
                        f"frame {k} declares {content_size} bytes, its group has {sizes[k]}")
            else:
                require(content_size is not None and content_size <= 2 * sizes[k] + 10,
                        "BLOCK-4", w, f"frame {k} declares a column form of {content_size} bytes")
            frames.append((stored[at:at + length], content_size, dictionary))
            at += length
        require(at == len(stored), "BLOCK-4", w, "bytes after the last frame")
        groups = []
        for k, (frame, content_size, dictionary) in enumerate(frames):
            data = zstd_decompress(frame, content_size, "BLOCK-4", f"{w}, frame {k}", dictionary)
            if encoding == 5:
                data = from_column_form(data, sizes[k], f"{w}, frame {k}")
            groups.append(data)
        return groups


# ---------------------------------------------------------------------------------------------
# Section 9.3.2: the column form of texts and verbatim games.


def is_letter(b):
    return 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A


def is_digit(b):
    return 0x30 <= b <= 0x39


def from_column_form(form, size, where):
    """The entries (each varint length and bytes) that a column form stands for, which MUST take
    exactly `size` bytes [TEXT-COL-1]."""
    s = Stream(form, "TEXT-COL-1", f"{where}, column form")
    wordings = []
    for _ in range(s.count()):
        end = form.find(b"\x00", s.pos)
        require(end >= 0, "TEXT-COL-1", s.where(), "wording runs past the end")
        wording = s.take(end - s.pos)
        s.byte()
        for j, b in enumerate(wording):
            before = wording[j - 1] if j > 0 else None
            if b == 1:
                require(before is None or not (is_letter(before) or is_digit(before) or before == 1),
                        "TEXT-COL-1", s.where(), "marker after a letter, a digit or a marker")
            elif is_digit(b):
                require(before is not None and (is_letter(before) or is_digit(before)),
                        "TEXT-COL-1", s.where(), "digit in the wording that would be a number")
        wordings.append(wording)
    numbers = [[] for _ in wordings]
    k = 0
    while True:
        column = [j for j, w in enumerate(wordings) if w.count(1) > k]
        if not column:
            break
        for j in column:
            end = form.find(b"\x00", s.pos)
            require(end >= 0, "TEXT-COL-1", s.where(), "column runs past the end")
            number = s.take(end - s.pos)
            s.byte()
            require(number and all(is_digit(b) for b in number), "TEXT-COL-1", s.where(),
                    "a number that is empty or not digits")
            numbers[j].append(number)
        k += 1
    require(s.at_end(), "TEXT-COL-1", s.where(), "bytes after the last column")
    out = bytearray()
    for wording, nums in zip(wordings, numbers):
        parts = wording.split(b"\x01")
        entry = parts[0] + b"".join(n + p for n, p in zip(nums, parts[1:]))
        out += encode_varint(len(entry)) + entry
    require(len(out) == size, "TEXT-COL-1", where,
            f"entries take {len(out)} bytes, not {size}")
    return bytes(out)


def encode_varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# Section 9.4: the tags section.


def byte_width(n):
    """The fewest bytes that hold the number n (9.4: 1 up to 255, 2 up to 65535, ...)."""
    return 1 if n <= 0xFF else 2 if n <= 0xFFFF else 3 if n <= 0xFFFFFF else 4


def read_planes(s, count, width):
    """`count` numbers of `width` bytes in byte planes: all low bytes, then all second bytes..."""
    planes = [s.take(count) for _ in range(width)]
    return [sum(planes[j][i] << (8 * j) for j in range(width)) for i in range(count)]


def read_text_body(s, count):
    """9.4 text body [TAGS-2]: `count` values from a value list and references."""
    distinct = s.varint()
    require(1 <= distinct <= count, "TAGS-2", s.where(), f"D = {distinct} for {count} values")
    listed = Stream(s.take(s.varint()), "TAGS-2", s.where() + " (value list)")
    values = [listed.text() for _ in range(distinct)]
    require(listed.at_end(), "TAGS-2", listed.where(), "values do not fill the list bytes")
    if distinct == 1:
        return values * count
    out = []
    used = 0
    for r in read_planes(s, count, byte_width(distinct)):
        if r == 0:
            require(used < distinct, "TAGS-2", s.where(), "reference 0 with every value used")
            out.append(values[used])
            used += 1
        else:
            require(r <= used, "TAGS-2", s.where(), f"reference {r} to a value not yet used")
            out.append(values[r - 1])
    require(used == distinct, "TAGS-2", s.where(), "a listed value no reference uses")
    return out


def decode_tags_section(archive, block):
    """9.4: each game's tags, a list of (key, value), in PGN order.  The value of a tag of a
    column of coding 8 (9.4.5) is a DerivedTag until its game is decoded (derive_tags); a tag of
    a column of coding 9 (9.4.6) takes its value once every other column but the ratings is
    decoded (name_tags), before the ratings.  The table columns (coding 11, 9.4.8) are read in
    key order, as they come, sharing each game's entry of each table (`entries`).  A block of
    layout 6 is read as one of layout 5, and its `FEN` column may have coding 12 (9.4.9); one of
    layout 7 as one of layout 6, and any of its columns may have coding 13 (9.4.10: values that
    section 10 writes without escapes, each an UnescapedValue); one of layout 8 as one of layout
    7, and its `Event` and `Site` columns may have coding 6 (9.4.3)."""
    s = Stream(block.tags_bytes, "TAGS-1", f"{block.where}, tags section")
    keys = [s.text() for _ in range(s.count())]
    require(len(set(keys)) == len(keys), "TAGS-1", s.where(), "a key listed twice")
    game_keys = []
    used = 0
    for _ in range(block.games):
        indices = [s.varint() for _ in range(s.count())]
        for k in indices:
            require(k < len(keys), "TAGS-1", s.where(), f"key index {k} out of range")
            require(k <= used, "TAGS-1", s.where(), "keys not in order of first appearance")
            used = max(used, k + 1)
        game_keys.append(indices)
    require(used == len(keys), "TAGS-1", s.where(), "a key no tag uses")

    # columns: the tags of key k, in game order and tag order
    ranks = [[] for _ in keys]              # ranks[k][r] = (game, place in the game's tag list)
    for g, indices in enumerate(game_keys):
        for j, k in enumerate(indices):
            ranks[k].append((g, j))
    values = [[None] * len(indices) for indices in game_keys]
    ratings = []
    budget = TypedBudget(block)
    entries = {}                            # 9.4.8: (table, game) -> the game's entry of the table
    for k, key in enumerate(keys):
        coding = s.byte()
        body = Stream(s.take(s.varint()), "TAGS-1", f"{s.where()} (column {key!r})")
        count = len(ranks[k])
        coded = coding == 10                    # 9.4.7: a column of coding 1 to 4, its codes coded
        if coded:
            require(block.layout in (4, 5, 6, 7, 8), "TAGS-1", body.where(),
                    f"coding 10 in a block of layout {block.layout} (TAGS-11)")
            coding = body.byte()
            require(1 <= coding <= 4, "TAGS-11", body.where(), f"coded column of base {coding}")
        if coding == 2:                         # ratings are decoded after every other column
            ratings.append((k, body, coded))
            continue
        if coding == 11:                        # 9.4.8: entries of a value table
            require(block.layout in (5, 6, 7, 8), "TAGS-1", body.where(),
                    f"coding 11 in a block of layout {block.layout} (TAGS-12)")
            column = read_table_column(archive, key, body, [g for g, _ in ranks[k]], entries,
                                       budget)
        else:
            column = decode_column(archive, block.layout, key, coding, body, count, budget, coded)
        require(body.at_end(), "TAGS-1", body.where(), "bytes after the column's values")
        for (g, j), value in zip(ranks[k], column):
            values[g][j] = value
    require(s.at_end(), "TAGS-1", s.where(), "bytes left over after the last column")
    named = any(isinstance(v, NamedTag) for row in values for v in row)
    rated = {keys[k] for k, _, _ in ratings}
    require(not named or not rated & {b"White", b"Black"}, "TAGS-9", s.where(),
            "a named column in a block whose White or Black column is a rating column")
    name_tags(keys, game_keys, values, budget)
    if ratings:
        decode_ratings(keys, game_keys, ranks, values, ratings, budget)
    return [[(keys[k], v) for k, v in zip(indices, vals)]
            for indices, vals in zip(game_keys, values)]


class TypedBudget:
    """[TAGS-3] a block's typed values written out take at most 2^28 bytes (section 11)."""

    def __init__(self, block):
        self.left = 2**28
        self.where = block.where

    def spend(self, value):
        self.left -= len(value)
        require(self.left >= 0, "TAGS-3", self.where, "typed tag values above 2^28 bytes")
        return value


def decode_column(archive, layout, key, coding, body, count, budget, coded=False):
    """One column's `count` values, by its coding (9.4, 9.4.1, 9.4.3, 9.4.4, 9.4.5, 9.4.6, 9.4.9,
    9.4.10) and the block's layout (9.3); `coded`: a column of coding 10 of this base coding
    (9.4.7)."""
    if coding == 0:
        return read_text_body(body, count)
    if coding == 1:
        header = body.byte()
        require(header <= 3, "TAGS-3", body.where(), f"integer header {header:#04x}")
        form = SIGNED if header & 1 else PLAIN
        return read_codes(body, count, form, header & 2, budget, coded)
    if coding == 3:
        return read_codes(body, count, DATE, True, budget, coded)
    if coding == 4:
        return read_codes(body, count, TIME, True, budget, coded)
    if coding == 5:
        length = body.byte()
        require(length <= 10, "TAGS-3", body.where(), f"identifier L = {length}")
        prefix_length = body.varint()
        require(prefix_length <= 64, "TAGS-3", body.where(), "identifier prefix above 64 bytes")
        form = Identifier(body.take(prefix_length), length)
        if length == 0:
            return read_codes(body, count, form, True, budget)
        return read_base62_identifiers(body, count, form, budget)
    if coding == 6:
        if layout == 8 and key in (b"Event", b"Site"):
            return read_name_entries(archive, FIELDS.index(key.decode()), body, count, budget)
        require(key in (b"White", b"Black"), "TAGS-5", body.where(), f"player column {key!r}")
        return read_players(archive, body, count, budget)
    if coding == 7:
        require(key == b"FEN", "TAGS-6", body.where(), f"position column {key!r}")
        return read_positions(body, count, budget)
    if coding == 8:
        require(layout in (3, 4, 5, 6, 7, 8), "TAGS-1", body.where(), f"coding 8 in a block of layout {layout} (TAGS-7)")
        return read_derived(key, body, count)
    if coding == 9:
        require(layout in (3, 4, 5, 6, 7, 8), "TAGS-1", body.where(), f"coding 9 in a block of layout {layout} (TAGS-9)")
        return read_named(key, body, count)
    if coding == 12:
        require(layout in (6, 7, 8), "TAGS-1", body.where(), f"coding 12 in a block of layout {layout} (TAGS-13)")
        require(key == b"FEN", "TAGS-13", body.where(), f"Xiangqi position column {key!r}")
        return read_xiangqi_positions(body, count, budget)
    if coding == 13:
        require(layout in (7, 8), "TAGS-1", body.where(), f"coding 13 in a block of layout {layout} (TAGS-14)")
        return read_unescaped(body, count)
    raise corrupt("TAGS-1", body.where(), f"reserved coding {coding}")


class UnescapedValue(bytes):
    """The value of an unescaped tag (9.4.10): bytes that section 10 writes between the tag's
    quotes as they are, without escaping `\\` and `"` (PGN-1 item 2).  Everywhere else it is the
    tag's value as any other (a `White` value a named tag begins with, a rating's player)."""


def read_unescaped(body, count):
    """9.4.10 [TAGS-14]: a column of coding 13: a text body of its `count` values as coding 0's
    (TAGS-2), then varint u (1 to `count`) and u varint ranks, ascending, the first as it is,
    each next its gap from the one before less 1.  The tags of those ranks are unescaped, and
    each of their values holds a `"` (22) or a `\\` (5C) byte and no 0A or 0D; nothing follows
    the ranks."""
    return read_unescaped_ranks(body, read_text_body(body, count), 1, "TAGS-14")


def read_unescaped_ranks(body, values, least, rule):
    """The ranks of a column's unescaped tags after its `values` (9.4.10, 9.4.3): varint u
    (`least` to E_k) and u varint ranks, ascending, the first as it is, each next its gap from
    the one before less 1; each such value holds a `"` (22) or a `\\` (5C) byte and no 0A or 0D,
    and becomes an UnescapedValue; nothing follows the ranks.  `rule`: the rule cited."""
    count = len(values)
    u = body.varint()
    require(least <= u <= count, rule, body.where(), f"u = {u} for {count} tags")
    rank = -1
    for i in range(u):
        gap = body.varint()
        rank = gap if i == 0 else rank + gap + 1
        require(rank < count, rule, body.where(),
                f"rank {rank} (ranks read: {i + 1} of {u}) at or above E_k = {count}")
        value = values[rank]
        require(b'"' in value or b"\\" in value, rule, body.where(),
                f"unescaped tag of rank {rank}: {value!r} holds neither a quote nor a backslash")
        require(b"\n" not in value and b"\r" not in value, rule, body.where(),
                f"unescaped tag of rank {rank}: {value!r} holds a line break")
        values[rank] = UnescapedValue(value)
    require(body.at_end(), rule, body.where(), "bytes after the ranks")
    return values


def column_codes(body, count, coded, rule="TAGS-11"):
    """9.4.1: a typed column's `count` codes, varints; or (9.4.7, `coded`) the integers of a
    codeword [TAGS-11], as a table column's codes are too (9.4.8, `rule` TAGS-12)."""
    if not coded:
        return [body.varint() for _ in range(count)]
    try:
        codes, offset = decode_code_column(body.data[body.pos:], count, rule)
    except FormatError as e:
        raise corrupt(e.rule, body.where(), str(e))
    body.pos += offset
    return codes


def read_codes(body, count, form, predicted, budget, coded=False):
    """9.4.1: one code per value (column_codes), then the text body of the codes 0 [TAGS-3].
    form.write(number) gives a number's text (None if out of range), form.read(text) the
    number a text spells in the form (None if it does not)."""
    codes = column_codes(body, count, coded)
    texts = iter(read_text_body(body, codes.count(0)) if 0 in codes else [])
    out = []
    previous = 0
    for code in codes:
        if code == 0:
            value = next(texts)
            require(form.read(value) is None, "TAGS-3", body.where(),
                    f"{value!r} kept as text, but the column's form reads it")
        else:
            delta = unzigzag(code - 1)
            require(abs(delta) < 2**62, "TAGS-3", body.where(), f"code {code} out of range")
            number = previous + delta
            value = form.write(number)
            require(value is not None, "TAGS-3", body.where(), f"{number} outside the form's range")
            budget.spend(value)
            if predicted:
                previous = number
        out.append(value)
    return out


class IntegerForm:
    """9.4.1 coding 1 (and ratings, 9.4.2): the plain or the signed form."""

    def __init__(self, signed):
        self.signed = signed
        self.pattern = re.compile(rb"[+-][1-9][0-9]{0,17}|\+0" if signed
                                  else rb"-?[1-9][0-9]{0,17}|0")

    def read(self, text):
        return int(text) if self.pattern.fullmatch(text) else None

    def write(self, number):
        if not -10**18 < number < 10**18:
            return None
        if self.signed:
            return b"+0" if number == 0 else b"%+d" % number
        return b"%d" % number


class DateForm:
    """9.4.1 coding 3: YYYY.MM.DD, number (Y * 13 + M) * 32 + D."""
    pattern = re.compile(rb"([0-9]{4}|\?{4})\.(0[1-9]|1[0-2]|\?\?)\.(0[1-9]|[12][0-9]|3[01]|\?\?)")

    def read(self, text):
        m = self.pattern.fullmatch(text)
        if not m:
            return None
        y, mo, d = (0 if part[0:1] == b"?" else int(part) for part in m.groups())
        return ((y + 1 if m.group(1) != b"????" else 0) * 13 + mo) * 32 + d

    def write(self, number):
        if not 0 <= number < 10001 * 13 * 32:
            return None
        y, m, d = number // (13 * 32), number // 32 % 13, number % 32
        return b"%s.%s.%s" % (b"????" if y == 0 else b"%04d" % (y - 1),
                              b"??" if m == 0 else b"%02d" % m, b"??" if d == 0 else b"%02d" % d)


class TimeForm:
    """9.4.1 coding 4: HH:MM:SS, number the seconds."""
    pattern = re.compile(rb"([0-9]{2}):([0-5][0-9]):([0-5][0-9])")

    def read(self, text):
        m = self.pattern.fullmatch(text)
        return (int(m[1]) * 60 + int(m[2])) * 60 + int(m[3]) if m else None

    def write(self, number):
        if not 0 <= number < 360000:
            return None
        return b"%02d:%02d:%02d" % (number // 3600, number // 60 % 60, number % 60)


BASE62 = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class Identifier:
    """9.4.1 coding 5: a prefix, then L base-62 digits, or (L = 0) a plain-form integer >= 0."""

    def __init__(self, prefix, length):
        self.prefix, self.length = prefix, length

    def read(self, text):
        if not text.startswith(self.prefix):
            return None
        tail = text[len(self.prefix):]
        if self.length == 0:
            return int(tail) if re.fullmatch(rb"[1-9][0-9]{0,17}|0", tail) else None
        if len(tail) != self.length or any(c not in BASE62 for c in tail):
            return None
        number = 0
        for c in tail:
            number = number * 62 + BASE62.index(c)
        return number

    def write(self, number):
        if self.length == 0:
            return self.prefix + b"%d" % number if 0 <= number < 10**18 else None
        if not 0 <= number < 62**self.length:
            return None
        digits = bytearray()
        for _ in range(self.length):
            digits.insert(0, BASE62[number % 62])
            number //= 62
        return self.prefix + bytes(digits)


PLAIN, SIGNED, DATE, TIME = IntegerForm(False), IntegerForm(True), DateForm(), TimeForm()
NUMBER_BYTES = (None, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8)          # W for L = 1 .. 10 (9.4.1)


def read_base62_identifiers(body, count, form, budget):
    """9.4.1: an identifier column of L >= 1: flags, numbers in byte planes, text body."""
    flags = body.take(count)
    require(all(f <= 1 for f in flags), "TAGS-3", body.where(), "a flag neither 0 nor 1")
    numbers = iter(read_planes(body, sum(flags), NUMBER_BYTES[form.length]))
    texts = iter(read_text_body(body, count - sum(flags)) if 0 in flags else [])
    out = []
    for flag in flags:
        if flag:
            value = form.write(next(numbers))
            require(value is not None, "TAGS-3", body.where(), "identifier number out of range")
            out.append(budget.spend(value))
        else:
            value = next(texts)
            require(form.read(value) is None, "TAGS-3", body.where(),
                    f"{value!r} kept as text, but the column's form reads it")
            out.append(value)
    return out


def read_players(archive, body, count, budget, field=0):
    """9.4.3 [TAGS-5]: entries of the players' table (or of the Event or Site table, `field`)."""
    distinct = body.varint()
    require(1 <= distinct <= count, "TAGS-5", body.where(), f"P = {distinct} for {count} tags")
    entries = []
    for i in range(distinct):
        entries.append(body.varint() + (entries[-1] + 1 if entries else 0))
    table_size = archive.player_count(field)
    require(entries[-1] < table_size, "TAGS-5", body.where(),
            f"entry {entries[-1]} past the {FIELDS[field]} table of {table_size}")
    references = read_planes(body, count, byte_width(distinct - 1)) if distinct > 1 else [0] * count
    require(all(r < distinct for r in references), "TAGS-5", body.where(), "reference of P or more")
    require(len(set(references)) == distinct, "TAGS-5", body.where(), "an entry no reference names")
    names = {e: budget.spend(archive.player(e, field)) for e in entries}     # each entry once
    return [names[entries[r]] for r in references]


def read_name_entries(archive, field, body, count, budget):
    """9.4.3 [TAGS-15]: an `Event` or `Site` column of coding 6 (layout 8): entries of the
    field's table as a player column's, then varint u (0 to `count`) and u varint ranks of the
    unescaped tags, as a column of coding 13 gives them (9.4.10)."""
    return read_unescaped_ranks(body, read_players(archive, body, count, budget, field), 0, "TAGS-15")


def read_positions(body, count, budget):
    """9.4.4: a FEN column coded as positions; moves.py decodes the codeword."""
    try:
        fens, offset = decode_position_column(body.data[body.pos:], count)
    except FormatError as e:
        raise corrupt(e.rule, body.where(), str(e))
    body.pos += offset
    kept = iter(read_text_body(body, fens.count(None)) if None in fens else [])
    require(body.at_end(), "TAGS-6", body.where(), "bytes after the position column")
    return [budget.spend(f) if f is not None else next(kept) for f in fens]


def read_xiangqi_positions(body, count, budget):
    """9.4.9 [TAGS-13]: a `FEN` column of coding 12: `n`, a codeword of `n` bytes holding each
    value's form (a symbol of 2 under the column's adaptive frequencies, 8.3.3, starting 1 and
    1: 0 kept as text, 1 coded) and, for a coded value, its Xiangqi position value (5.7.3), read
    by one coder whose counts C follow the column's coded values; then the text body (9.4) of
    the values kept as text.  A value that XQ-POS-1 rejects cites XQ-POS-1 (its symbols in no
    symbol among them, as tokens.py cites them); the codeword's other defects (runs past the
    body, a form's symbol in no symbol, closing bits, its end) cite TAGS-13, a text body TAGS-2
    rejects TAGS-2, bytes after it TAGS-13.  The coded values count as typed values written out
    (section 11), as 9.4.4's coded positions do."""
    n = body.varint()
    require(n <= body.left(), "TAGS-13", body.where(), f"codeword of {n} bytes runs past the body")
    where = body.where()
    decoder = ArithmeticDecoder(body.take(n), 0)
    forms = AdaptiveFrequencies(2)                  # 8.3.3: the form, 0 kept as text, 1 coded
    reader = XiangqiPositionCodeReader()            # 5.7.3: counts C all 0 at the column's start
    fens = []
    for r in range(count):
        place = f"{where}, value of rank {r}"
        try:
            form = forms.read(decoder)
        except FormatError as e:                    # MOVE-AC-2's defect, in this codeword
            raise corrupt("TAGS-13", place, f"its form: {str(e).split('] ', 1)[-1]} (as "
                                            f"{e.rule} says of any codeword)")
        if form == 0:
            fens.append(None)                       # kept as text: the text body gives it
            continue
        try:
            text, _ = reader.read_value(decoder)
        except FormatError as e:                    # XQ-POS-1
            raise corrupt(e.rule, place, str(e).split("] ", 1)[-1])
        fens.append(text.encode("ascii"))
    try:
        check_codeword_end(decoder, n, "TAGS-13")
    except FormatError as e:                        # MOVE-AC-3's defect, or TAGS-13's end
        raise corrupt("TAGS-13", where, str(e).split("] ", 1)[-1]
                      + (f" (as {e.rule} says of any codeword)" if e.rule != "TAGS-13" else ""))
    kept = fens.count(None)
    texts = iter(read_text_body(body, kept) if kept else [])           # TAGS-2
    require(body.at_end(), "TAGS-13", body.where(), "bytes after the Xiangqi position column")
    return [budget.spend(f) if f is not None else next(texts) for f in fens]


def read_table_column(archive, key, body, games, entries, budget):
    """9.4.8 [TAGS-12]: a column of coding 11: `t`, the table whose entries it names (`key` one
    of its keys), the codes of its tags in a codeword (games[r]: the game of the tag of rank r),
    then the text body of the values kept as text (code 0).  `entries` holds each game's entry
    of each table, shared by the block's table columns, read in key order: a game's first code
    c > 0 of a table gives the entry c - 1 and makes it the game's; a later one c gives the
    entry E + unzigzag(c - 1), E the game's entry, which stays the game's.  A tag's value is its
    entry's value for the key; the values count as typed values written out (section 11)."""
    tables = getattr(archive, "value_tables", None)
    require(tables, "TAGS-12", body.where(), "a table column in an archive without value tables")
    t = body.varint()
    require(t < len(tables), "TAGS-12", body.where(), f"table {t} of {len(tables)}")
    table = tables[t]
    require(key in table.keys, "TAGS-12", body.where(), f"key {key!r} not a key of table {t}")
    i = table.keys.index(key)
    codes = column_codes(body, len(games), True, "TAGS-12")
    out = []
    for r, (g, code) in enumerate(zip(games, codes)):
        if code == 0:                               # kept as text
            out.append(None)
            continue
        if (t, g) not in entries:
            entries[t, g] = entry = code - 1
        else:
            entry = entries[t, g] + unzigzag(code - 1)
        where = f"{body.name}, tag of rank {r}"
        require(0 <= entry < table.entries, "TAGS-12", where,
                f"code {code}: entry {entry} of a table of {table.entries} entries")
        value = table.value(entry, i)
        require(value is not None, "TAGS-12", where, f"entry {entry} has no value for {key!r}")
        out.append(budget.spend(value))
    texts = iter(read_text_body(body, codes.count(0)) if 0 in codes else [])
    return [next(texts) if value is None else value for value in out]


DERIVED_RULES = 2         # 9.4.5: the final position's FEN, en passant style 0 and 1


class DerivedTag:
    """A tag of a column of coding 8 (9.4.5) until its game is decoded: the column's `rule`, and
    `text`, the value kept as text (flag 0), or None for the value the rule gives (flag 1);
    `where` names the tag for messages."""

    def __init__(self, rule, text, where):
        self.rule, self.text, self.where = rule, text, where


def read_derived(key, body, count):
    """9.4.5 [TAGS-7]: a column of coding 8: its rule, a flag per tag, then the text body of the
    values kept as text.  Every value is checked against its game's moves in derive_tags."""
    rule = body.byte()
    require(rule < DERIVED_RULES, "TAGS-7", body.where(), f"rule {rule}")
    require(key == b"CurrentPosition", "TAGS-7", body.where(), f"a derived column {key!r}")
    require(count <= body.left(), "TAGS-7", body.where(), f"{count} flags run past the body")
    flags = body.take(count)
    require(all(f <= 1 for f in flags), "TAGS-7", body.where(), "a flag neither 0 nor 1")
    texts = iter(read_text_body(body, flags.count(0)) if 0 in flags else [])
    require(body.at_end(), "TAGS-7", body.where(), "bytes after the derived column")
    name = key.decode("latin-1")
    return [DerivedTag(rule, None if flag else next(texts), f"tags section, {name} tag of rank {r}")
            for r, flag in enumerate(flags)]


class NamedTag:
    """A tag of a column of coding 9 (9.4.6) until the players' values are decoded: its `flag`
    (0 the value kept whole, 1 the game's White value and a rest, 2 its Black value and a rest)
    and `text`, the whole value or the rest; `where` names the tag for messages."""

    def __init__(self, flag, text, where):
        self.flag, self.text, self.where = flag, text, where


def read_named(key, body, count):
    """9.4.6 [TAGS-9]: a column of coding 9: a flag per tag, then the text body of its `count`
    values (whole or rests), in rank order.  name_tags gives the values."""
    require(key not in (b"White", b"Black"), "TAGS-9", body.where(), f"a named column {key!r}")
    require(count <= body.left(), "TAGS-9", body.where(), f"{count} flags run past the body")
    flags = body.take(count)
    require(all(f <= 2 for f in flags), "TAGS-9", body.where(), "a flag above 2")
    require(not body.at_end(), "TAGS-9", body.where(), "no text body after the flags")
    texts = read_text_body(body, count)
    require(body.at_end(), "TAGS-9", body.where(), "bytes after the named column")
    return [NamedTag(flag, text, f"{body.name}, tag of rank {r}")
            for r, (flag, text) in enumerate(zip(flags, texts))]


NAMED_PLAYERS = (None, "White", "Black")       # 9.4.6: the players flags 1 and 2 name


def name_tags(keys, game_keys, values, budget):
    """9.4.6 [TAGS-10]: the values of the named tags, from their games' first White and Black
    values: every other column but the ratings decoded (9.4.6), player entries (9.4.3) already
    their values (a White or Black rating column and a named one are never in one block).  A
    player is None where the game has no such tag or its first one's value is empty.  Named values
    count towards the block's values written out (section 11)."""
    for g, indices in enumerate(game_keys):
        row = values[g]
        if not any(isinstance(v, NamedTag) for v in row):
            continue
        players = [None] * 3                    # by flag: players[1] White's, players[2] Black's
        for flag in (1, 2):
            value = next((row[j] for j, k in enumerate(indices)
                          if keys[k] == NAMED_PLAYERS[flag].encode()), None)
            players[flag] = value if isinstance(value, bytes) and value else None
        white = players[1]
        for j, tag in enumerate(row):
            if not isinstance(tag, NamedTag):
                continue
            if tag.flag == 0:                   # kept whole: a writer would have named a player
                for flag in (1, 2):
                    player = players[flag]
                    require(player is None or not tag.text.startswith(player), "TAGS-10",
                            tag.where, f"{tag.text!r} kept whole begins with the "
                            f"{NAMED_PLAYERS[flag]} value {player!r}")
                row[j] = tag.text
                continue
            player = players[tag.flag]
            require(player is not None, "TAGS-10", tag.where, f"flag {tag.flag}, but the game has "
                    f"no {NAMED_PLAYERS[tag.flag]} tag or its value is empty")
            value = player + tag.text
            if tag.flag == 2:                   # a writer takes White's value where both begin it
                require(white is None or not value.startswith(white), "TAGS-10", tag.where,
                        f"flag 2, but {value!r} begins with the White value {white!r}")
            row[j] = budget.spend(value)


def decode_ratings(keys, game_keys, ranks, values, columns, budget):
    """9.4.2 [TAGS-4]: the block's rating columns in one pass over its tags."""
    rating_keys = {k for k, _, _ in columns}
    state = {}
    for k, body, coded in columns:
        player_key = body.varint()
        require(player_key < len(keys) and player_key not in rating_keys, "TAGS-4", body.where(),
                f"player key {player_key}")
        codes = column_codes(body, len(ranks[k]), coded)
        texts = iter(read_text_body(body, codes.count(0)) if 0 in codes else [])
        require(body.at_end(), "TAGS-1", body.where(), "bytes after the column's values")
        state[k] = (player_key, iter(codes), texts, body)
    by_player = {}
    last_in_block = None
    for g, indices in enumerate(game_keys):
        last_in_game = None
        for j, k in enumerate(indices):
            if k not in state:
                continue
            player_key, codes, texts, body = state[k]
            code = next(codes)
            if code == 0:
                value = next(texts)
                require(PLAIN.read(value) is None, "TAGS-3", body.where(),
                        f"{value!r} kept as text, but the column's form reads it")
                values[g][j] = value
                continue
            player = next((values[g][i] for i, key in enumerate(indices) if key == player_key),
                          None)
            if player is not None and player in by_player:
                prediction = by_player[player]
            elif last_in_game is not None:
                prediction = last_in_game
            else:
                prediction = last_in_block if last_in_block is not None else 1500
            delta = unzigzag(code - 1)
            require(abs(delta) < 2**62, "TAGS-3", body.where(), f"code {code} out of range")
            rating = prediction + delta
            value = PLAIN.write(rating)
            require(value is not None, "TAGS-3", body.where(), f"rating {rating} out of range")
            values[g][j] = budget.spend(value)
            if player is not None:
                by_player[player] = rating
            last_in_game = last_in_block = rating


# ---------------------------------------------------------------------------------------------
# Section 8: game records.  A game is decoded from four streams (the group's bytes of each)
# and its tags; the result is a Game, which section 10 writes as PGN.

RESULTS = (None, b"1-0", b"0-1", b"1/2-1/2", b"*")
COMMENT_KINDS = ("brace", "line", "escape")                    # kinds 0, 1, 2 (8.2, 8.3)
CHESS960_NAMES = (b"chess960", b"chess 960", b"fischerandom", b"fischer random",
                  b"fischerrandom", b"frc", b"960", b"chess960 (fischer random)")
STANDARD_NAMES = (b"", b"standard", b"chess", b"normal", b"from position", b"fromposition",
                  b"orthodox")


def first_tag(tags, key):
    return next((v for k, v in tags if k == key), None)


def tagged_result(tags):
    """8.1: the first Result tag's value, if it is a termination marker."""
    value = first_tag(tags, b"Result")
    return value if value in RESULTS[1:] else None


def tagged_ply_count(tags):
    """8.1: the first PlyCount tag's value, if 1 to 5 digits, no leading zero, at most 65536."""
    value = first_tag(tags, b"PlyCount")
    if value is None or not re.fullmatch(rb"[1-9][0-9]{0,4}|0", value) or int(value) > 65536:
        return None
    return int(value)


def game_variant(tags, variant_byte, codec, where):
    """5.1 [START-1]: the variant a game is under (a number of 5.6), or 0 for standard chess and
    Chess960: the first Variant tag's, its value folded (5.6) unless it is one of the names of
    Chess960 or standard chess; without a Variant tag, the header's variant byte's (8.1), if
    any.  A game under a variant of 5.6 in a block of codec 6 is rejected (codecs 7 to 12, 14
    and 15 allow them).  (A Xiangqi game, variant byte 8, is not under a variant: 5.7.2.)"""
    value = first_tag(tags, b"Variant")
    if value is None:
        variant = variant_byte or 0
    elif value.lower() in CHESS960_NAMES + STANDARD_NAMES:
        variant = 0
    else:
        variant = variant_of_name(value)
        require(variant is not None, "START-1", where,
                f"variant {value!r} in a game that is not verbatim")
    require(variant == 0 or codec in VARIANT_CODECS, "START-1", where,
            f"a game under variant {value!r} in a block of codec {codec}")
    return variant


def start_position(tags, where, variant=0):
    """5.1 [START-1] (5.6.1 [START-2] under a variant): the standard start position, or the
    variant's, or the first FEN tag's."""
    fen = first_tag(tags, b"FEN")
    if variant:
        if fen is None:
            return VariantPosition.start(variant)
        position = VariantPosition.from_fen(fen, variant)
    else:
        if fen is None:
            return Position.standard()
        position = Position.from_fen(fen)
    require(position is not None, "START-1", where, f"invalid FEN {fen!r} in a coded game")
    return position


def xiangqi_start_position(tags, where):
    """5.7.2 [XQ-REC-1]: a Xiangqi game starts from the position its first tag whose key is
    exactly `FEN` gives, read as 5.7's FEN (XQ-FEN-1; its bytes ASCII), else from Xiangqi's
    start position, whatever its other tags (a `Variant` tag too)."""
    fen = first_tag(tags, b"FEN")
    if fen is None:
        return XiangqiPosition.start()
    try:
        return XiangqiPosition.from_fen(fen.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as e:
        raise corrupt("XQ-REC-1", where, f"FEN tag {fen!r} is not a valid Xiangqi FEN (5.7): {e}")


def xiangqi_frequencies(moves):
    """5.7.2: every legal move of a Xiangqi position has frequency 4096, whatever the block's
    move coder."""
    return [4096] * len(moves)


def xiangqi_end_frequency(total):
    """5.7.2: the end of a Xiangqi line not of known length has frequency max(1, floor(S / 256)),
    S the moves' total, whatever the block's move coder (the uniform coder's end, 7.1)."""
    return max(1, total // 256)


def clock_base_increment(tags):
    """8.3.2: base and increment in seconds from the first TimeControl tag (`B+I` or `B`)."""
    m = re.fullmatch(rb"([0-9]{1,9})(?:\+([0-9]{1,9}))?", first_tag(tags, b"TimeControl") or b"")
    return (int(m[1]), int(m[2] or 0)) if m else (0, 0)


class Item:
    """An item of a line (8.3): kind is brace, line, escape, nag, variation or record; `text` is
    a comment's text (a record's once its values are read), `nag` a NAG, `line` a variation."""

    def __init__(self, slot, kind, text=None, nag=None, line=None, shape=None):
        self.slot, self.kind, self.text, self.nag, self.line, self.shape = (
            slot, kind, text, nag, line, shape)


class Line:
    """A line (section 4) as decoded: its plies and the positions and histories around them.
    A Xiangqi game's lines (5.7.2) have the game's notation bytes, `notation`, read (5.7.1);
    their positions are XiangqiPosition and their `sans` the move texts' bytes (5.7.1
    Encodings); a chess game's `sans` are str."""

    def __init__(self, depth, notation=None):
        self.depth = depth
        self.notation = notation        # a Xiangqi game's Notation (5.7.1), else None
        self.plies = None               # known length, or None for an unannotated main line
        self.nulls = set()              # the plies that are null moves
        self.track = None               # clock track: the comment text of slots 1 .. plies
        self.track_frames = None        # codec 8: (frame, before, after) of slots 1 .. plies
        self.items = []
        self.moves = []                 # Move, or None for a null move
        self.sans = []
        self.positions = []             # positions[i]: before ply i (after ply i - 1)
        self.histories = []

    def play(self, move):
        position, history = self.positions[-1], self.histories[-1]
        self.moves.append(move)
        if self.notation is not None:                  # 5.7.2: a Xiangqi game (no null move)
            # XQ-MODEL-2's history (read by the Xiangqi model of codecs 11, 12, 14 and 15 alone;
            # kept in every block, also where a ply codes nothing)
            self.histories.append(xq_history_after(history, position, move))
            # 5.7.1: the move text, as bytes in the notation bytes' encoding
            self.sans.append(move_text_bytes(position, move, self.notation))
            self.positions.append(position.play(move))
            return
        self.histories.append(history_after(history, position, move))   # 7.6.1, MOVE-CODER-1
        if move is None:
            self.sans.append("--")
            self.positions.append(position.play_null())
        else:
            self.sans.append(position.san(move))
            self.positions.append(position.play(move))


class Game:
    def __init__(self, tags):
        self.tags = tags
        self.verbatim = None            # the stored bytes of a verbatim game (8.5)
        self.prelude = []               # (kind, text)
        self.epilogue = []
        self.result = None
        self.main = None
        self.variant = 0                # the variant the game is under (5.6), 0 for none
        self.xiangqi = False            # a Xiangqi game (5.7.2): variant byte 8


class GroupStreams:
    """The bytes of one directory group in each stream (9.3.1), read game after game."""

    def __init__(self, block, k):
        where = f"{block.where}, group {k}"
        m0, s0 = sum(block.column[MOVES][:k]), sum(block.column[STRUCTURE][:k])
        self.moves = block.moves[m0:m0 + block.column[MOVES][k]]
        self.bit = 0                    # where the next codeword starts (7.4)
        self.structure = Stream(block.structure[s0:s0 + block.column[STRUCTURE][k]],
                                "REC-LINE-1", "structure stream")
        self.texts = Stream(block.texts[k], "REC-LINE-1", "texts stream")
        self.raw = Stream(block.raw[k], "REC-LINE-1", "raw stream")
        self.where = where


class GameReader:
    """Decodes one game (section 8, with 7.2 and 8.3.3 for its codeword)."""

    def __init__(self, streams, tags, coder, codec=6):
        self.st, self.texts, self.coder = streams.structure, streams.texts, coder
        self.codec = codec              # the block's move codec: 6; 7 with variants; 8 modelled
                                        # tracks; 9 and 10 as 7 and 8 with Xiangqi games; 11 and
                                        # 12 with the Xiangqi model; 14 and 15 as 11 and 12 with
                                        # the encoding and tandem by file (9.3)
        self.variant = 0                # the variant the game is under (5.6), 0 for none
        self.xiangqi = False            # a Xiangqi game (5.7.2)
        self.streams = streams
        self.tags = tags
        self.known_plies = 0            # [REC-LINE-1] plies of lines of known length
        self.base, self.increment = clock_base_increment(tags)
        # 8.3.3: the game's record state
        self.shapes = []                # recent shapes, most recent first
        self.record_count = 0           # [REC-RCD-2]
        self.fields = {}
        self.hints = [[AdaptiveFrequencies(2) for _ in range(3)],
                      [AdaptiveFrequencies(3) for _ in range(3)]]
        self.recent_move = {}
        self.game_move = {}

    def fail(self, rule, message):
        raise corrupt(rule, self.st.where(), message)

    def read(self):
        """8.1 .. 8.5: the game's record."""
        game = Game(self.tags)
        header = self.st.byte()
        result = header & 7
        if (header & 0x80 and self.codec == 6) or result > 5 or (header & 0x20 and header != 0x20):
            self.fail("REC-HDR-1", f"header {header:#04x}")
        if header == 0x20:                                              # 8.5 verbatim
            game.verbatim = self.streams.raw.text()
            return game
        if result == 5:
            game.result = tagged_result(self.tags)
            if game.result is None:
                self.fail("REC-HDR-1", "result 5 in a game without a tagged result")
        else:
            game.result = RESULTS[result]
        counted = None
        if header & 0x40:
            counted = tagged_ply_count(self.tags)
            if counted is None:
                self.fail("REC-HDR-1", "counted game without a tagged ply count")
        variant_byte = notation = None
        if header & 0x80:                       # 8.1: the variant byte (codecs 7 to 12, 14, 15)
            variant_byte = self.st.byte()
            if not 1 <= variant_byte <= (8 if self.codec in XIANGQI_CODECS else 7):
                self.fail("REC-HDR-2", f"variant byte {variant_byte} in a block of codec "
                                       f"{self.codec}")
            if variant_byte <= 7 and first_tag(self.tags, b"Variant") is not None:
                self.fail("REC-HDR-2", "a variant byte in a game that has a Variant tag")
            if variant_byte == 8:                           # 5.7.2: a Xiangqi game
                notation = self.read_notation_bytes()
        if header & 0x10:                                               # 8.2
            game.prelude = self.read_comment_list()
            game.epilogue = self.read_comment_list()
        main = Line(0, notation)
        if notation is not None:                            # 5.7.2: Xiangqi's start or FEN
            self.xiangqi = game.xiangqi = True
            main.positions = [xiangqi_start_position(self.tags, "start position")]
        else:
            self.variant = game.variant = game_variant(self.tags, variant_byte, self.codec,
                                                       "start position")
            main.positions = [start_position(self.tags, "start position", self.variant)]
        main.histories = [XQ_NO_HISTORY if self.xiangqi else NO_HISTORY]     # 7.6.1, XQ-MODEL-2
        self.decoder = ArithmeticDecoder(self.streams.moves, self.streams.bit)
        self.decode_line(main, annotated=bool(header & 0x08), counted=counted)
        self.streams.bit += self.decoder.finish()                     # 7.3, 7.4
        if self.streams.bit > 8 * len(self.streams.moves):
            raise corrupt("MOVE-AC-4", "moves stream", "codeword runs past its group's bytes")
        game.main = main
        return game

    def read_notation_bytes(self):
        """5.7.2 [XQ-REC-1]: a Xiangqi game's notation bytes, after the variant byte: their first
        byte's notation gives their length (5.7.1); they must not run past the end of the
        structure stream, and XQ-NOTATION-1 must accept them (the encoding and tandem by file
        elements in a block of codec 14 or 15, reserved bits in one of codec 9 to 12)."""
        st = self.st
        if st.left() == 0:
            self.fail("XQ-REC-1", "the notation bytes run past the end of the structure stream")
        notation = st.data[st.pos] & 3
        if notation == 3:
            self.fail("XQ-NOTATION-1", f"notation bytes {st.data[st.pos]:#04x}: notation 3 "
                                       f"(reserved)")
        length = NOTATION_LENGTH[notation]
        if length > st.left():
            self.fail("XQ-REC-1", f"the {length} notation bytes of notation {notation} run "
                                  f"past the end of the structure stream")
        data = st.take(length)
        try:
            return read_notation(data, extended=self.codec in ENCODING_CODECS)
        except ValueError as e:
            st.pos -= length                                  # the place: the bytes' start
            self.fail("XQ-NOTATION-1", f"{data.hex(' ')}: {e}")

    def read_comment_list(self):
        """8.2 [REC-CMT-1]: a count, kind bytes, then each comment's text."""
        kinds = self.st.take(self.st.count())
        if any(k > 2 for k in kinds):
            self.fail("REC-CMT-1", "comment kind above 2")
        return [(COMMENT_KINDS[k], self.texts.text()) for k in kinds]

    # -- 8.3 lines ----------------------------------------------------------------------------

    def decode_line(self, line, annotated=True, counted=None):
        """A line's structure entries, its plies' symbols, its records' values, then its
        variations depth first (8.3, 7.2)."""
        if annotated:
            self.read_structure(line, counted)
        else:
            line.plies = counted
        self.read_plies(line)
        if line.track_frames is not None:
            self.read_modelled_track(line)
        self.read_record_values(line)
        for item in line.items:
            if item.kind == "variation":
                item.line.positions = [line.positions[item.slot - 1]]
                item.line.histories = [line.histories[item.slot - 1]]
                self.decode_line(item.line)

    def read_structure(self, line, counted):
        """8.3: plies, null moves, clock track, items [REC-LINE-1]."""
        st = self.st
        line.plies = counted if counted is not None else st.varint()
        self.known_plies += line.plies
        if self.known_plies > 2**16:
            self.fail("REC-LINE-1", "lines of known length hold more than 2^16 plies")
        v = st.varint()
        nulls, track = v >> 1, v & 1
        if self.xiangqi and v != 0:                                     # 5.7.2
            self.fail("XQ-REC-1", f"a Xiangqi line with {nulls} null moves and clock track "
                                  f"bit {track}")
        if nulls > line.plies:
            self.fail("REC-LINE-1", "more null moves than plies")
        ply = -1
        for _ in range(nulls):
            ply += st.varint() + 1            # the first ply number, then differences less 1
            if ply >= line.plies:
                self.fail("REC-LINE-1", "null move at or beyond the line's plies")
            line.nulls.add(ply)
        if track:
            self.read_clock_track(line)
        count = st.varint()
        if count > 2**24 or count > st.left():
            self.fail("REC-LINE-1", f"item count {count}")
        slot = 0
        clock_before = [0, 0]                         # 8.3.1: last clock of each slot parity
        for _ in range(count):
            slot += st.varint()
            if slot > line.plies:
                self.fail("REC-LINE-1", f"slot {slot} beyond {line.plies} plies")
            kind = st.byte()
            if self.xiangqi and kind in (5, 6):                         # 5.7.2
                self.fail("XQ-REC-1", f"an item of type {kind} in a Xiangqi game")
            if kind <= 2:
                line.items.append(Item(slot, COMMENT_KINDS[kind], text=self.texts.text()))
            elif kind == 3:
                line.items.append(Item(slot, "nag", nag=st.byte()))
            elif kind == 4:
                if slot == 0:
                    self.fail("REC-LINE-1", "variation at slot 0")
                if line.depth + 1 > 256:
                    self.fail("REC-LINE-1", "variations nested more than 256 deep")
                line.items.append(Item(slot, "variation",
                                       line=Line(line.depth + 1, line.notation)))
            elif kind == 5:                                             # 8.3.1
                value = clock_before[slot % 2] + unzigzag(st.varint())
                if not 0 <= value <= 999999 * 3600 + 3599:
                    self.fail("REC-CLK-1", f"clock value {value}")
                clock_before[slot % 2] = value
                before, after = self.texts.text(), self.texts.text()
                text = before + time_command(value, form=0) + after
                line.items.append(Item(slot, "brace", text=text))
            elif kind == 6:                                             # 8.3.3
                if self.variant:
                    self.fail("REC-HDR-2", "a record (item type 6) in a game under a variant")
                line.items.append(Item(slot, "record", shape=self.read_shape(slot)))
            else:
                self.fail("REC-LINE-1", f"reserved item type {kind}")

    def read_plies(self, line):
        """7.2 decode_line: the plies' symbols of the line [MOVE-SYM-1] [MOVE-SYM-2]."""
        p = 0
        while line.plies is None or p < line.plies:
            if p in line.nulls:
                line.play(None)
                p += 1
                continue
            position, history = line.positions[-1], line.histories[-1]
            moves = position.legal_moves()
            if self.variant and len(moves) > 416:
                self.fail("MOVE-SYM-4", "a move or a line's end coded in a position of more than 416 legal moves")
            if line.plies is not None:                                  # known length
                if not moves:
                    self.fail("REC-LINE-1", f"a move at ply {p}, where there is no legal move")
                if len(moves) == 1:
                    m = 0
                else:
                    m = self.decoder.read(self.frequencies(position, history, moves))
            else:                                                       # the end, then moves
                freqs = self.frequencies(position, history, moves) if moves else []
                k = self.decoder.read([self.end_frequency(sum(freqs), p, position)] + freqs)
                if k == 0:
                    line.plies = p
                    break
                if p == 2**16:
                    self.fail("MOVE-SYM-2", "an unannotated line of more than 2^16 plies")
                m = k - 1
            line.play(moves[m])
            p += 1

    def xiangqi_model(self):
        """7.5, 7.9 [XQ-MODEL-1]: whether this Xiangqi game's plies have the Xiangqi model's
        frequencies and end: in a block of codec 11, 12, 14, 15, 17 or 18 whose move coder is 1 or 2."""
        return self.codec in XIANGQI_MODEL_CODECS and self.coder in (1, 2)

    def frequencies(self, position, history, moves):
        """7.1's f_0 .. f_{n-1}: the block's move coder's (7.5, MOVE-CODER-1); a Xiangqi
        game's 4096 each (5.7.2), or the Xiangqi model's (XQ-MODEL-1, 7.9), the book's where
        it holds the position in a block of codec 17 or 18 (7.9.1)."""
        if self.xiangqi:
            if self.xiangqi_model():
                if self.codec in XIANGQI_BOOK_CODECS:
                    return xq_book_frequencies(position, history, moves)
                return xq_model_frequencies(position, history, moves)
            return xiangqi_frequencies(moves)
        return move_frequencies(self.coder, position, history, moves)

    def end_frequency(self, total, p, position):
        """7.1 MOVE-SYM-2's end_frequency(S, p) (MOVE-CODER-1); a Xiangqi game's the uniform
        coder's (5.7.2), or the model coder's with the hazard H (XQ-MODEL-1, 7.9)."""
        if self.xiangqi:
            if self.xiangqi_model():
                return xq_end_frequency(total, p)
            return xiangqi_end_frequency(total)
        return end_frequency(self.coder, total, p, position)

    # -- 8.3.2 clock tracks -----------------------------------------------------------------

    def read_clock_track(self, line):
        """8.3.2 [REC-CLK-4] [REC-CLK-6] [REC-CLK-7]: frame runs, then one entry per slot."""
        st, plies = self.st, line.plies
        if plies == 0:
            self.fail("REC-CLK-4", "a clock track on a line of 0 plies")
        runs = st.varint()
        if runs == 0 or runs > plies:
            self.fail("REC-CLK-7", f"{runs} runs for {plies} plies")
        frames = []                                       # the frame of slots 1 .. plies
        for i in range(runs):
            v = st.varint()
            if i == runs - 1:
                if v > 63:
                    self.fail("REC-CLK-7", "the last run has a length")
                frame, length = v, plies - len(frames)
            else:
                frame, length = v & 63, (v >> 6) + 1
                if len(frames) + length >= plies:
                    self.fail("REC-CLK-7", "a run other than the last reaches the last slot")
            if frame > 47:
                self.fail("REC-CLK-7", f"frame {frame}")
            if frames and frames[-1] == frame:
                self.fail("REC-CLK-7", "two consecutive runs of the same frame")
            frames += [frame] * length
        if self.codec in MODELLED_TRACK_CODECS:       # 8.3.4: the rest follows the plies
            line.track_frames = [(f, self.texts.text(), self.texts.text()) if f % 4 == 0 else (f, None, None)
                                 for f in frames]
            return
        clocks = []                          # per slot: the value in hundredths if a clock, else None
        evaluation = 0                       # the track's last evaluation that was not a mate
        line.track = []
        for s in range(1, plies + 1):
            kind, form = frames[s - 1] % 4, frames[s - 1] // 4
            precision, elapsed = form % 3, form // 6
            u = st.byte()
            if u == 255:
                extra = st.varint()
                if extra > 2**40:
                    self.fail("REC-CLK-7", "a symbol above 255 + 2^40")
                u += extra
            predicted = self.predicted_clock(clocks, s, elapsed)
            value = predicted // 10**(2 - precision) - unzigzag(u)
            if not 0 <= value <= (999999 * 3600 + 3599 + 1) * 10**precision - 1:
                self.fail("REC-CLK-4", f"clock value {value} at slot {s}")
            clocks.append(None if elapsed else value * 10**(2 - precision))
            eval_text = before = after = None
            if kind == 3:
                v = st.varint()
                if v & 1:
                    mate = unzigzag(v >> 1)
                    if not 1 <= abs(mate) <= 999:
                        self.fail("REC-CLK-6", f"mate in {mate}")
                    eval_text = b"#%d" % mate
                else:
                    evaluation += unzigzag(v >> 1)
                    if abs(evaluation) > 99999999:
                        self.fail("REC-CLK-6", f"evaluation of {evaluation} centipawns")
                    eval_text = pawns_text(evaluation)
            elif kind == 0:                           # the texts stream holds them
                before, after = self.texts.text(), self.texts.text()
            line.track.append(track_text(kind, time_command(value, form), eval_text, before, after))

    def predicted_clock(self, clocks, s, elapsed):
        """8.3.2: the time predicted at slot s in hundredths, from the track's clocks before it."""
        if elapsed:
            return 0
        if s >= 3 and clocks[s - 3] is not None:
            return clocks[s - 3] + self.increment * 100
        return self.base * 100

    # -- 8.3.4 modelled clock tracks --------------------------------------------------------

    def read_modelled_track(self, line):
        """8.3.4 [REC-CLK-8]: each slot's time and evaluation, from the codeword."""
        dec = self.decoder
        clocks, average = [], [None, None]
        last_cp, last_mate, after_mate = 0, 0, False
        digits = [[AdaptiveFrequencies(10) for _ in range(2)] for _ in range(3)]
        for q in digits:
            for d in q:
                d.freqs = [64] * 10          # each digit's frequency starts at 64
        line.track = []
        for s, (frame, before, after) in enumerate(line.track_frames, start=1):
            kind, form = frame % 4, frame // 4
            precision, elapsed = form % 3, form // 6
            P = self.predicted_clock(clocks, s, elapsed) // 10**(2 - precision)
            W = P // 10**precision
            r = 11 if average[s % 2] is None else min((average[s % 2] // 16).bit_length(), 10)
            l = 2 if elapsed or W >= 120 else 1 if W >= 30 else 0
            symbol = dec.read(CLOCK_TIME_ROWS[3 * r + l])
            if symbol == 25:
                w = dec.read_uniform(41)
                k = w if w < 2 else (1 << (w - 1)) | read_bits(dec, w - 1)
                t = -k - 1
            else:
                t = class_rest(dec, symbol, 28)
            seconds = t if elapsed else W - t
            if not 0 <= seconds <= 999999 * 3600 + 3599:
                self.fail("REC-CLK-8", f"clock of {seconds} seconds at slot {s}")
            g = 0
            if precision:
                q = 0 if t <= 0 else 1 if t == 1 else 2
                for d in range(precision):
                    g = g * 10 + digits[q][d].read(dec)
            value = seconds * 10**precision + (g if elapsed else (P - g) % 10**precision)
            clocks.append(None if elapsed else value * 10**(2 - precision))
            a = 16 * max(t, 0)
            average[s % 2] = a if average[s % 2] is None else (3 * average[s % 2] + a) // 4
            eval_text = None
            if kind == 3:
                row = 0 if after_mate else 1 + min(abs(last_cp).bit_length(), 11)
                e = dec.read(CLOCK_EVAL_ROWS[row])
                if e == 49:
                    last_mate += change(dec, dec.read(CLOCK_MATE_ROW))
                    if not 1 <= abs(last_mate) <= 999:
                        self.fail("REC-CLK-6", f"mate in {last_mate}")
                    eval_text, after_mate = b"#%d" % last_mate, True
                else:
                    last_cp += change(dec, e)
                    if abs(last_cp) > 99999999:
                        self.fail("REC-CLK-6", f"evaluation of {last_cp} centipawns")
                    eval_text, after_mate = pawns_text(last_cp), False
            line.track.append(track_text(kind, time_command(value, form), eval_text, before, after))

    # -- 8.3.3 record comments --------------------------------------------------------------

    def count_records(self, n):
        """[REC-RCD-2] shape bytes, values and run moves of a game's records: 2^18 together."""
        self.record_count += n
        if self.record_count > 2**18:
            self.fail("REC-RCD-2", "records hold more than 2^18 shape bytes, values and moves")

    def read_shape(self, slot):
        """A record's rank and shape (8.3.3 In the streams) [REC-RCD-3]; the shape is parsed
        into literal bytes and Values [REC-RCD-1]."""
        rank = self.st.varint()
        if rank == 0:
            shape = self.texts.text()
        else:
            if rank > len(self.shapes):
                self.fail("REC-RCD-3", f"rank {rank} of {len(self.shapes)} recent shapes")
            shape = self.shapes.pop(rank - 1)
        self.shapes.insert(0, shape)
        del self.shapes[256:]
        parts = []
        literal = bytearray()
        occurrences = {}
        i = 0
        while i < len(shape):
            mark = shape[i]
            if mark not in (2, 3, 4):
                literal.append(mark)
                i += 1
                continue
            if i + 1 == len(shape):
                self.fail("REC-RCD-1", "a shape that ends after a mark")
            fmt = shape[i + 1]
            if not 2 <= fmt <= {2: 3, 3: 0x0B, 4: 0xF1}[mark]:
                self.fail("REC-RCD-1", f"format byte {fmt:#04x} of mark {mark:#04x}")
            if mark == 2 and fmt == 2 and slot == 0:
                self.fail("REC-RCD-1", "a run from the position before the ply at slot 0")
            label = bytes(literal[-12:])
            nth = occurrences[mark, label] = occurrences.get((mark, label), -1) + 1
            parts.append(bytes(literal))
            parts.append(Value(mark, fmt, label, nth))
            literal = bytearray()
            i += 2
        parts.append(bytes(literal))
        values = len(parts) // 2
        if not 1 <= values <= 1024:
            self.fail("REC-RCD-1", f"a shape of {values} values")
        self.count_records(len(shape) + values)
        return parts

    def read_record_values(self, line):
        """8.3.3: the values of a line's records, after its plies' symbols."""
        records = [item for item in line.items if item.kind == "record"]
        if not records:
            return
        for i, move in enumerate(line.moves):
            if move is not None:
                self.game_move[line.positions[i].identity()] = move
        for item in records:
            item.text = self.read_record(line, item)

    def read_record(self, line, item):
        """One record's values, in the order of its shape; returns the record's text."""
        side = not line.positions[item.slot].white_to_move        # the side that played the ply
        seen = []                                                 # (mark, label, value)
        out = bytearray()
        for part in item.shape:
            if isinstance(part, bytes):
                out += part
                continue
            field = self.fields.setdefault((part.mark, part.label, part.nth), Field())
            u = read_integer(self.decoder, field.widths)
            S = last_value(seen, (4,), b"s=")
            M = last_value(seen, (3, 4), b"mt=")
            M_mark = last_value(seen, (part.mark,), b"mt=")          # rule 2: same mark
            L = field.last.get(side)
            nodes = (part.mark == 4 and part.label.endswith(b"n=") and S is not None
                     and M is not None and S >= 0 and M >= 0 and S * M < 2**64)
            rule2 = False
            if (nodes and S * M > 0 and L is not None and 0 <= L[0] < 2**60
                    and field.product[side] > 0):                               # 1. nodes
                prediction = min(10**18 - 1, L[0] * S * M // field.product[side])
            elif part.mark in (3, 4) and part.label.endswith(b"tl=") and M_mark is not None \
                    and L is not None:                                         # 2. time left
                prediction = L[0] - M_mark + field.step[side]
                rule2 = True
            else:                                                              # 3. last value
                last = L if L is not None else field.last.get(not side, (0, 0))
                prediction = rescale(last[0], last[1], part.q)
            v = prediction + unzigzag(u)
            if part.mark == 4:
                if abs(v) > 10**18 - 1 or (part.g == 2 and v > 0):
                    self.fail("REC-RCD-1", f"number {v} out of range")
            elif part.mark == 3:
                if not 0 <= v < 10**12:
                    self.fail("REC-RCD-1", f"time {v} out of range")
            elif not 1 <= v <= 1024:
                self.fail("REC-RCD-1", f"run of {v} moves")
            field.last[side] = (v, part.q)
            if rule2:
                field.step[side] = v - (L[0] - M_mark)
            field.product[side] = S * M if nodes else 0
            seen.append((part.mark, part.label, v))
            if part.mark == 4:
                out += number_text(v, part.q, part.g, part.w)
            elif part.mark == 3:
                out += b"%0*d:%02d:%02d" % (part.w, v // 3600, v // 60 % 60, v % 60)
            else:
                index = item.slot - 1 if part.fmt == 2 else item.slot
                out += self.read_run(v, line.positions[index], line.histories[index])
        return bytes(out)

    def read_run(self, length, position, history):
        """8.3.3 Runs: `length` moves from `position`, each maybe one of its hints."""
        self.count_records(length)
        sans = []
        for i in range(length):
            moves = position.legal_moves()
            if not moves:
                self.fail("REC-RCD-1", "a run move where there is no legal move")
            key = position.identity()
            if len(moves) == 1:
                move = moves[0]
            else:
                hints = []
                if key in self.recent_move:
                    hints.append(self.recent_move[key])
                if key in self.game_move and self.game_move[key] not in hints:
                    hints.append(self.game_move[key])
                choice = len(hints)                               # "another move"
                if hints:
                    choice = self.hints[len(hints) - 1][min(i, 2)].read(self.decoder)
                if choice < len(hints):
                    move = hints[choice]
                else:
                    freqs = move_frequencies(self.coder, position, history, moves)
                    for hint in hints:
                        freqs[moves.index(hint)] = 0
                    if sum(freqs) == 0:
                        self.fail("REC-RCD-1", "a run move with no move left to code")
                    move = moves[self.decoder.read(freqs)]
            self.recent_move[key] = move
            sans.append(position.san(move).encode())
            history = history_after(history, position, move)
            position = position.play(move)
        return b" ".join(sans)


class Value:
    """A value of a shape (8.3.3): its mark, format byte and field (label, occurrence)."""

    def __init__(self, mark, fmt, label, nth):
        self.mark, self.fmt, self.label, self.nth = mark, fmt, label, nth
        self.q = self.g = 0
        self.w = 1
        if mark == 3:
            self.w = fmt - 1                              # hour width
        elif mark == 4:
            x = fmt - 2                                   # q + 8 * (g + 3 * (w - 1))
            self.q, self.g, self.w = x % 8, x // 8 % 3, x // 24 + 1


class Field:
    """A field's state (8.3.3 Fields): adaptive widths, and per side (True: White) the last
    value and its q, the step and the product."""

    def __init__(self):
        self.widths = AdaptiveFrequencies(65)
        self.last = {}
        self.step = {True: 0, False: 0}
        self.product = {True: 0, False: 0}


def last_value(seen, marks, suffix):
    """The record's last value so far of one of `marks` whose label ends with `suffix`."""
    for mark, label, value in reversed(seen):
        if mark in marks and label.endswith(suffix):
            return value
    return None


def rescale(value, q, to_q):
    """8.3.3 rule 3: a value of q digits after the point brought to to_q digits."""
    while q < to_q:
        value = max(-(10**18 - 1), min(10**18 - 1, value * 10))
        q += 1
    while q > to_q:
        value = abs(value) // 10 * (1 if value >= 0 else -1)           # toward 0
        q -= 1
    return value


def number_text(v, q, g, w):
    """8.3.3: a number's text: sign, digits to at least w + q, a point before the last q."""
    sign = b"-" if v < 0 or g == 2 else b"+" if g == 1 else b""
    digits = b"%0*d" % (w + q, abs(v))
    if q:
        digits = digits[:-q] + b"." + digits[-q:]
    return sign + digits


def _clock_rows(heading):
    """8.3.4: the rows of one table of clock-model-tables.md (under `## heading`), each a list of
    frequencies."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "clock-model-tables.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = text.split("## " + heading + "\n", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    return [[int(v) for v in row.split()] for row in block.splitlines() if row.strip()]


CLOCK_TIME_ROWS = _clock_rows("Times")
CLOCK_EVAL_ROWS = _clock_rows("Evaluations")
CLOCK_MATE_ROW = _clock_rows("Mates")[0]


def read_bits(dec, n):
    """8.3.4: n bits, most significant first, in chunks of min(16, bits left) equally likely."""
    v = 0
    while n > 0:
        k = min(16, n)
        v = (v << k) | dec.read_uniform(1 << k)
        n -= k
    return v


def class_rest(dec, c, widths):
    """8.3.4: the magnitude of class c (0 to 24) from its rest; the big class with `widths` widths."""
    if c < 4:
        return c
    if c == 24:
        b = 13 + dec.read_uniform(widths)
        return (1 << (b - 1)) | read_bits(dec, b - 1)
    b, h = (c - 4) // 2 + 3, (c - 4) % 2
    return (1 << (b - 1)) | (h << (b - 2)) | read_bits(dec, b - 2)


def change(dec, symbol):
    """8.3.4: the change of a symbol 0 to 48 (0; 2k - 1 a rise of class k, 2k a fall)."""
    if symbol == 0:
        return 0
    m = class_rest(dec, (symbol + 1) // 2, 16)
    return m if symbol % 2 else -m


def track_text(kind, command, eval_text, before, after):
    """8.3.2: a track entry's comment: the time command with the text its frame's kind puts around
    it (kind 0: `before` and `after`; 3: the evaluation `eval_text` before it)."""
    if kind == 1:
        return b" " + command + b" "
    if kind == 2:
        return command
    if kind == 3:
        return b" [%eval " + eval_text + b"] " + command + b" "
    return before + command + after


def time_command(value, form):
    """8.3.1: `[%clk T]` or `[%emt T]` of a value in units of 10^-p seconds, in its form."""
    precision, two_digit_hours, elapsed = form % 3, form // 3 % 2, form // 6
    seconds = value // 10**precision
    hours = seconds // 3600
    text = b"%02d" % hours if two_digit_hours else b"%d" % hours
    text += b":%02d:%02d" % (seconds // 60 % 60, seconds % 60)
    if precision:
        text += b".%0*d" % (precision, value % 10**precision)
    return (b"[%emt " if elapsed else b"[%clk ") + text + b"]"


def pawns_text(centipawns):
    """8.3.2: an evaluation in pawns as lichess writes it (`0.17`, `0.2`, `-1.0`)."""
    a = abs(centipawns)
    text = b"%s%d.%d" % (b"-" if centipawns < 0 else b"", a // 100, a // 10 % 10)
    return text + (b"%d" % (a % 10) if a % 10 else b"")


# ---------------------------------------------------------------------------------------------
# Sections 9.3.1 and 9.3.3: a block's games, group by group, and its position filter.


def decode_group(block, k):
    """The games of directory group k [BLOCK-3] [MOVE-AC-4]."""
    streams = GroupStreams(block, k)
    games = []
    for j in range(k * block.step, min(block.games, (k + 1) * block.step)):
        try:
            game = GameReader(streams, block.tags[j], block.coder, block.codec).read()
            derive_tags(game)
            games.append(game)
        except FormatError as e:                       # say where: block, group, game
            message = str(e).split("] ", 1)[-1]
            raise FormatError(e.kind, e.rule, f"{streams.where}, game "
                              f"{block.entry.first_game + j + 1}, {message}")
    end = streams.bit
    padding = streams.moves[end // 8] & (0xFF >> (end % 8)) if end % 8 else 0
    require(padding == 0, "MOVE-AC-4", streams.where, "padding bits after the codewords not 0")
    require(-(-end // 8) == len(streams.moves), "BLOCK-3", streams.where,
            "codewords do not take exactly the group's bytes of the moves stream")
    for s in (streams.structure, streams.texts, streams.raw):
        require(s.at_end(), "BLOCK-3", s.where(), "the group's games end before its bytes do")
    return games


def derived_value(game, rule):
    """9.4.5: the value rule `rule` gives a decoded game (bytes), or why it gives none."""
    if game.verbatim is not None:
        return None, "the game is verbatim"
    if game.variant:
        return None, "the game is under a variant"
    if game.xiangqi:                          # "of standard chess or Chess960" (9.4.5)
        return None, "the game is a Xiangqi game"
    main = game.main
    if None in main.moves:
        return None, "its main line has a null move"
    # the position after the main line's last move (its start if it has none), whose counters
    # the moves counted from the start position's (5.2, 5.5); rule 0 is en passant style 0,
    # rule 1 style 1 (9.4.4)
    double_step = double_step_passed(main.positions[-2], main.moves[-1]) if main.moves else None
    return derived_fen(main.positions[-1], double_step, style=rule), None


def derive_tags(game):
    """9.4.5 [TAGS-8]: a decoded game's tags of coding 8 given their values, in their places.
    A flagged tag takes its game's value by its column's rule, which the game must have; a value
    kept as text must not be that value."""
    tags = []
    for key, value in game.tags:
        if isinstance(value, DerivedTag):
            derived, why_none = derived_value(game, value.rule)
            if value.text is None:
                require(derived is not None, "TAGS-8", value.where,
                        f"a value derived by rule {value.rule}, but {why_none}")
                value = derived
            else:
                require(value.text != derived, "TAGS-8", value.where,
                        f"{value.text!r} kept as text, but rule {value.rule} derives it")
                value = value.text
        tags.append((key, value))
    game.tags = tags


def decode_block(block):
    """Every game of a block, with the checks of a full decode [BLOCK-3] [BLOCK-6]."""
    games = []
    for k in range(block.groups):
        games += decode_group(block, k)
    plies = sum(line_plies(g.main) for g in games if g.main is not None)
    require(plies == block.plies, "BLOCK-3", block.where,
            f"the games' lines hold {plies} plies, the directory says {block.plies}")
    if block.filter:
        check_filter(block, games)
    return games


def line_plies(line):
    return line.plies + sum(line_plies(i.line) for i in line.items if i.kind == "variation")


def check_filter(block, games):
    """9.3.3 [BLOCK-6]: read the filter; every main-line position of progress 10 or more of
    the block's coded games has its key's value in it."""
    where = f"{block.where}, position filter"
    s = Stream(block.filter, "BLOCK-6", where)
    n, r, k = s.varint(), s.varint(), s.byte()
    require(k <= 32, "BLOCK-6", where, f"Rice parameter {k}")
    codes = s.data[s.pos:]
    require(1 <= n <= 8 * len(codes), "BLOCK-6", where, f"n = {n}")
    require(r >= n, "BLOCK-6", where, f"R = {r} below n = {n}")
    bit = 0

    def read_bit():
        nonlocal bit
        require(bit < 8 * len(codes), "BLOCK-6", where, "codes run past the end")
        bit += 1
        return codes[(bit - 1) // 8] >> (7 - (bit - 1) % 8) & 1

    values = set()
    v = -1
    for _ in range(n):
        q = 0
        while read_bit():
            q += 1
        g = q << k
        for i in range(k):
            g |= read_bit() << (k - 1 - i)
        v += g + 1
        require(v < r, "BLOCK-6", where, f"a value of {v}, R is {r}")
        values.add(v)
    require(-(-bit // 8) == len(codes), "BLOCK-6", where, "bytes after the last code")
    while bit % 8:
        require(read_bit() == 0, "BLOCK-6", where, "bits after the last code not 0")
    for game in games:
        if game.main is None or game.xiangqi:     # (a Xiangqi position has no key: see README)
            continue
        for position in game.main.positions:
            pieces = placement_of(position)
            if progress(pieces) >= 10:
                require(position_key(pieces) * r >> 64 in values, "BLOCK-6", where,
                        f"a position of {position.fen().decode()} is not in the filter")


def placement_of(position):
    """{square: piece letter}, `PNBRQK` white and `pnbrqk` black, of the position's board."""
    return {square: PIECE_LETTERS[ptype_of(p)] if is_white(p) else PIECE_LETTERS[ptype_of(p)].lower()
            for square, p in enumerate(position.board) if p}


def progress(pieces):
    """9.3.3: the fewest pawn moves that can have led to the pawns, plus pieces missing (32 less
    the pieces on the board: below 0 where there are more, as in horde).  A pawn on its side's
    first rank (horde's White, 5.6.1), which 9.3.3's list of ranks leaves out, counts 0: no
    pawn move led to it."""
    total = 32 - len(pieces)
    for square, piece in pieces.items():
        if piece in "Pp":
            rank = square // 8 + 1 if piece == "P" else 8 - square // 8   # from its side's first
            total += 0 if rank <= 2 else 1 if rank <= 4 else rank - 3
    return total


def position_key(pieces):
    """9.3.3: XXH64 of the pawns of each side as 64-bit sets and the piece counts."""
    def pawns(letter):
        return sum(1 << s for s, p in pieces.items() if p == letter).to_bytes(8, "little")
    counts = bytes(list(pieces.values()).count(p) for p in "NBRQnbrq")
    return xxh64(pawns("P") + pawns("p") + counts)


# ---------------------------------------------------------------------------------------------
# Section 10: canonical PGN.


class PgnWriter:
    """The movetext layout of section 10: lines of at most 80 bytes."""

    def __init__(self):
        self.out = bytearray()
        self.length = 0                 # bytes since the last line feed this writer wrote
        self.held = False               # a `(` waiting for the token that follows it
        self.any = False                # whether any token was written

    def newline(self):
        self.out += b"\n"
        self.length = 0

    def token(self, t):
        """An ordinary token."""
        if self.held:
            t, self.held = b"(" + t, False
        self.any = True
        if self.length == 0:
            self.out += t
            self.length = len(t)
        elif self.length + 1 + len(t) <= 80:
            self.out += b" " + t
            self.length += 1 + len(t)
        else:
            self.out += b"\n" + t
            self.length = len(t)

    def comment(self, kind, text):
        if kind == "brace":
            self.token(b"{" + text + b"}")
        elif kind == "line":
            self.token(b";" + text)
            self.newline()
        else:                                           # an escape line stands on its own line
            if self.held:
                self.held = False
                self.token(b"(")
            if self.length:
                self.newline()
            self.any = True
            self.out += b"%" + text
            self.newline()

    def open_variation(self):
        self.held = True

    def close_variation(self):
        t = b")"
        if self.held:                                   # a variation with no tokens
            t, self.held = b"()", False
        if self.length and self.length + len(t) <= 80:
            self.out += t
            self.length += len(t)
        else:
            self.token(t)


def line_events(line):
    """8.3: the PGN events of a line: slot 0's items, then each ply and its slot's items, the
    clock track's entry after the slot's leading NAGs.  Yields ("ply", i) or ("item", Item)."""
    by_slot = {}
    for item in line.items:
        by_slot.setdefault(item.slot, []).append(item)
    for s in range(line.plies + 1):
        if s > 0:
            yield "ply", s - 1
        items = by_slot.get(s, [])
        lead = 0
        while lead < len(items) and items[lead].kind == "nag":
            lead += 1
        yield from (("item", i) for i in items[:lead])
        if line.track is not None and s > 0:
            yield "item", Item(s, "brace", text=line.track[s - 1])
        yield from (("item", i) for i in items[lead:])


def write_line(w, line, number=None):
    """Section 10: a line's tokens; a Xiangqi game's moves (5.7.2) are their move texts in the
    encoding its notation bytes name (5.7.1: UTF-8, GB18030 or Big5; a line's length counts
    bytes), numbered as chess moves are, Red's as White's.  `number` is the move number of the
    line's first ply (the main line's: its start position's fullmove number); move numbers go on
    past 65535, where a position's counter stops or turns to 0 (section 10)."""
    first = line.positions[0]
    first_white = first.red_to_move if line.notation is not None else first.white_to_move
    if number is None:
        number = first.fullmove

    def ply_number(i):                  # one more after each Black ply before ply i
        return number + (i + (0 if first_white else 1)) // 2

    numbered = True                     # the next Black move is written with its number
    for kind, event in line_events(line):
        if kind == "ply":
            position, san = line.positions[event], line.sans[event]
            if isinstance(san, str):                  # SAN; a Xiangqi move text is bytes
                san = san.encode()
            white = position.red_to_move if line.notation is not None else position.white_to_move
            if white:
                w.token(b"%d. %s" % (ply_number(event), san))
            elif numbered:
                w.token(b"%d... %s" % (ply_number(event), san))
            else:
                w.token(san)
            numbered = False
        elif event.kind == "nag":
            w.token(b"$%d" % event.nag)
        elif event.kind == "variation":         # it replaces ply slot - 1, with that ply's number
            w.open_variation()
            write_line(w, event.line, ply_number(event.slot - 1))
            w.close_variation()
            numbered = True
        else:                           # brace, line or escape comment; records are braces
            w.comment("brace" if event.kind == "record" else event.kind, event.text)
            numbered = True


def game_pgn(game):
    """Section 10: a game's canonical PGN."""
    if game.verbatim is not None:
        text = game.verbatim
        if not text or text[-1:] not in (b"\n", b"\r"):
            text += b"\n"
        return text + b"\n"
    out = bytearray()
    for kind, text in game.prelude:
        out += {"brace": b"{" + text + b"}", "line": b";" + text, "escape": b"%" + text}[kind]
        out += b"\n"
    for key, value in game.tags:
        if not isinstance(value, UnescapedValue):   # an unescaped tag's as it is (9.4.10)
            value = value.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
        out += b"[" + key + b' "' + value + b'"]\n'
    if game.tags:
        out += b"\n"
    w = PgnWriter()
    write_line(w, game.main)
    if game.result is not None:
        w.token(game.result)
    for kind, text in game.epilogue:
        w.comment(kind, text)
    if w.any:
        if w.length:
            w.newline()
        out += w.out + b"\n"
    elif not game.tags:
        out += b"\n"
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# The command.


def unpack(archive, out):
    """A full unpack: every block, then the checks left for the end (9.5)."""
    for entry in archive.all_blocks():
        block = Block(archive, entry)
        out.write(b"".join(game_pgn(g) for g in decode_block(block)))
    archive.check_name_chunks()


def get(archive, n, out):
    """Game n (from 1): its block table chunk, its block, its directory group."""
    entry = archive.block_of_game(n - 1)
    block = Block(archive, entry)
    j = n - 1 - entry.first_game
    games = decode_group(block, j // block.step)
    out.write(game_pgn(games[j % block.step]))


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and not argv[2].isdigit()):
        print("usage: decode.py ARCHIVE [N]", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    try:
        archive = Archive(argv[1])
        if len(argv) == 2:
            unpack(archive, out)
        else:
            n = int(argv[2])
            if not 1 <= n <= archive.games:
                print(f"decode.py: no game {n}: the archive has {archive.games}", file=sys.stderr)
                return 2
            get(archive, n, out)
    except FormatError as e:
        out.flush()
        print(f"decode.py: {e.kind}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
