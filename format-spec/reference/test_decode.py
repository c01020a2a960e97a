#!/usr/bin/python3
"""Tests of decode.py against the conformance vectors and the pgnarc binary (as a black box).

    /usr/bin/python3 test_decode.py PATH/TO/pgnarc [--quick] [--part K/N] [--sample PGN N ...]

1. every corpus/conformance/valid/NAME.pga decodes to exactly valid/NAME.pgn;
2. every corpus/conformance/invalid/NAME.pga is rejected with the class MANIFEST.tsv gives
   (a rejection that cites another rule than the manifest's is reported, not failed);
3. archives that `pgnarc pack` makes of corpus/pgn/*.pgn (and corpus/pgn/edge/*.pgn), under
   several settings, decode byte for byte as `pgnarc unpack` writes them, whole and game by
   game (`pgnarc get N`) for a sample of N.  A file corpus/pgn/variant_NAME.pgn whose NAME is a
   variant of 5.6 (its games have no Variant tag) is packed with `--variant NAME`, so that its
   games are coded under the variant (blocks of codec 7, the header's variant byte); and the
   files of VARIANT_PACKS are packed once more under a variant (`--variant three-check`,
   `--variant king-of-the-hill`: their games that the variant's rules allow are coded under it,
   the others kept verbatim).  Under the setting "model" (the model coder, 7.5) these archives
   code crazyhouse with the crazyhouse model (7.7) and three-check and king of the hill with the
   move model (MOVE-CODER-1), under "default" (pack's default, the fast coder)
   crazyhouse with the crazyhouse model and the other two with the fast model (7.8); the test
   checks that their blocks are of codec 7 (8 where a block holds a clock track, 8.3.4) and of
   move coder 2, 1 or 0 ("uniform"). Every setting but "clock-bytes" codes clock tracks with the
   clock model (8.3.4, codec 8). Packed by default, a small file whose games have events of
   their own gets blocks of layout 8 (format 1.14: its Event and Site columns name entries of
   the archive's Event and Site tables, 9.4.3); the inputs whose read version the test checks
   below are packed with `--tags tables` (FEATURE_OPTIONS), so that it is their feature's, and
   their Xiangqi games with `--xiangqi model` (XIANGQI_FEATURE_OPTIONS), without the Xiangqi
   model's opening book (format 1.15, 7.9.1), but under the setting "xiangqi-book".
   The files of TABLE_PACK, put together twice (their openings
   recur), are packed under TABLE_SETTINGS with --no-moves-dict (their games twice would take a
   moves dictionary, format 1.13), each an archive of format 1.6 (the test checks its read
   version): blocks of layout 5 whose ECO, Opening and Variation columns name entries of the
   archive's value table (9.4.8, index extension 6). The files of XIANGQI_PACKS
   (corpus/xiangqi: the same 15 games in ICCS, full-width WXF and Chinese), and a file of Xiangqi
   games that the test puts together (XIANGQI_CRAFTED: variations, nested, comments and NAGs, a
   FEN start, a counted main line, unannotated lines ended by a mate and of more than 256 plies),
   are packed under the settings of XIANGQI_SETTINGS, each checked for the codec, move coder and
   read version of XIANGQI_EXPECTED: Xiangqi games (5.7.2) with their notation bytes and move
   texts (5.7.1), coded by the Xiangqi model (7.9, format 1.8: codec 11 under the fast and the
   model coder; with its opening book under "xiangqi-book", 7.9.1, format 1.15: codec 17) or with
   the uniform coder's frequencies (codec 9, format 1.7: under the uniform coder, and with
   `--xiangqi uniform`).  The files of XIANGQI_ENCODED, corpus/xiangqi's Chinese
   and full-width WXF files converted to GB18030 and the Chinese one (帅将马车进后 made
   帥將馬車進後) to Big5, and a file of XIANGQI_TANDEM (tandem chariots, horses and cannons
   named by their file where the other cannot make the same motion, in Chinese, WXF and Big5,
   beside a chess game's clock track) and corpus/xiangqi's files of real games in GB18030 and
   Big5 (XIANGQI_REAL_1_10) are packed under the settings each lists, each checked for
   XIANGQI_1_10_EXPECTED's codec, coder and read version (format 1.10: codec 14, or 15 for the
   clock track's block) and for no game kept verbatim (in a real file, not all): move texts in
   the encoding and with tandem by file their notation bytes name (5.7.1).  Under
   "big5-defaults" the Big5 archive, its sections stored, has its notation bytes rewritten with
   every element equal to its Big5 default 0 (5.7.1: 帥 將, 馬, 車, 進) and its block checksum
   made again; pgnarc unpacks it to the same PGN, and decode.py must too.  (ccpd_big5.pgn's quote left
   unescaped in an `Event` makes its archive of format 1.11, XIANGQI_REAL_1_11.)  A file of
   tag pairs written without escapes that the test puts together (UNESCAPED: quotes left
   unescaped, a path's one backslash, Big5 characters ending in 5C beside a Big5 Xiangqi game,
   the same values escaped in other games, an unescaped White value a named Termination begins
   with) is packed under UNESCAPED_SETTINGS, each checked for UNESCAPED_EXPECTED's read version
   and games kept verbatim: blocks of layout 7 whose columns of coding 13 name the tags section
   10 writes as they are (9.4.10, format 1.11, none kept verbatim), or, under "tags-coded"
   (`--tags coded`, no layout 7), the 4 games of a quote left unescaped kept verbatim (8.5) and
   the others' values, whose backslashes escape nothing, written with escapes (9.4.10, the
   writer's choice).  A file of games with many
   comments in prose that the test puts together (TEXT_DICTIONARY: 120 games, 5 kept verbatim)
   is packed in blocks of 20 games with --no-moves-dict ("text-dict", and "text-dict-frames"
   with --frame-kib 1: a frame per group), each checked for read version 1.12, a texts section of
   encoding 7 (8 with frames) and `pgnarc info` naming the dictionary: comments compressed with
   the archive's text dictionary (9.3 encodings 7 and 8, 9.9, format 1.12); then damaged copies
   of each (text_dictionary_mutations: the encoding made 1 or 2, a frame naming a dictionary the
   archive does not hold or none, encodings 7 and 8 on the tags, moves and structure sections,
   10 on the texts section, which 9.3 allows on moves and structure alone: corrupt, and 6, 9 and
   11 on it: unsupported) are rejected by decode.py and pgnarc unpack with the class expected.
   test_dictionary_frames appends 40 games to an archive of 80 with a text dictionary (its new
   blocks' texts of encoding 4, or 5, without it) and remakes the new blocks' texts with the
   archive's dictionaries (7, and 8 whose frames name different dictionaries), the block's size
   kept by an optional section (BLOCK-7): decode.py and pgnarc unpack give the PGN of before.
   test_moves_dictionary (format 1.13: moves and structure sections compressed with a moves
   dictionary, 9.3 encoding 10, 9.9) packs a file of games that repeat the moves of others under
   other tags that the test puts together (MOVES_DICTIONARY: 100 games, the moves and the clock
   and evaluation comments of 20 of lichess_2021-10_clk_eval.pgn's, each five times, in other
   blocks) and corpus/xiangqi's wukong_iccs.pgn put together 9 times (135 Xiangqi games), in
   blocks of 10 games with the uniform coder and clock tracks as bytes (MOVES_DICTIONARY_OPTIONS:
   moves and structure of more than 8 KiB, for which pgnarc makes the dictionary, in few plies),
   checks each for read version 1.13, a moves section of encoding 10 in every block and `pgnarc
   info` saying that every block's moves are compressed with the archive's dictionary, and
   decodes it as pgnarc unpacks it, whole and game by game; then damaged copies of the first
   (moves_dictionary_mutations: encoding 10 made 1 on the moves and the structure section, whose
   frames then name a dictionary where none may be, the moves frame naming a dictionary the
   archive does not hold or none, 10 on the tags, texts and raw sections: corrupt; 11 on the
   moves section: unsupported) are rejected by decode.py and pgnarc unpack with the class
   expected.
   With --part K/N only the K-th of N parts of these archives is tested (and tests 1 and 2 only
   in part 1, test_dictionary_frames only in part 2 and test_moves_dictionary only in part 1),
   so that N processes share the work.
   Test 1 also checks that the vectors of the Xiangqi model (XIANGQI_MODEL_VECTORS, format 1.8)
   and of format 1.10 (XIANGQI_1_10_VECTORS: GB18030, Big5 and its defaults, tandem by file)
   and 1.15 (XIANGQI_BOOK_VECTORS: the Xiangqi model's opening book) are there, with the codec and move coder their MANIFEST lines name (or, where a line names no
   coder, the block's), that those of format 1.11 (UNESCAPED_VECTORS: tags written without
   escapes, 9.4.10) are there, of read version 1.11 with a first block of layout 7, and those of
   format 1.12 (TEXT_DICTIONARY_VECTORS: comments compressed with a text dictionary) are there,
   of read version 1.12 with texts sections of the encodings listed (7 and 8), and those of
   format 1.13 (MOVES_DICTIONARY_VECTORS: moves compressed with a moves dictionary) are there, of
   read version 1.13 with moves sections of encoding 10.
4. with --sample PGN N (any number of times; then only this test runs): the first N games of
   PGN, packed with the fast coder (--moves fast --store, format 1.2, 7.8: the opening book, then the fast model) and with
   the model coder, decode byte for byte as `pgnarc unpack` writes them.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONFORMANCE = os.path.join(ROOT, "corpus", "conformance")
DECODE = [sys.executable, os.path.join(HERE, "decode.py")]
SETTINGS = {                                # pack options, each a way to exercise the container
    "default": [],                          # the fast coder (7.8), pack's default
    "model": ["--moves", "model"],          # the model coder (7.6)
    "store": ["--store"],
    "uniform": ["--moves", "uniform", "--store"],
    "small-blocks": ["--block-games", "3", "--frame-kib", "1", "--dict-kib", "4"],
    "filter": ["--position-filter", "--block-games", "50"],
    "clock-bytes": ["--clocks", "bytes", "--moves", "uniform"],   # clock tracks as bytes (8.3.2)
    "xiangqi-uniform": ["--xiangqi", "uniform"],  # Xiangqi games alone: uniform (codec 9, 1.7)
    "big5-defaults": ["--store"],           # Big5 games alone: elements made their defaults
    "tags-coded": ["--tags", "coded"],      # no layout 7 (9.4.10): unescaped quotes verbatim
    "text-dict": ["--block-games", "20", "--no-moves-dict"],  # a small archive's comments: a
                                                              # text dictionary (9.9), format 1.12
    "text-dict-frames": ["--block-games", "20", "--frame-kib", "1", "--no-moves-dict"],  # by group
    "xiangqi-book": [],                     # Xiangqi games by the model and its book (7.9.1, 1.15)
}
ONLY_LISTED = ("xiangqi-uniform", "big5-defaults", "tags-coded",  # settings for the inputs that
               "text-dict", "text-dict-frames", "xiangqi-book")   # list them alone
CODERS = {"default": 2, "model": 1, "uniform": 0}     # the move coder (7.5) of each setting
VARIANT_PACKS = [                           # (corpus/pgn file, variant): standard games re-read
    ("dortmund_latin1_crlf.pgn", "three-check"),          # under a variant, coded where legal
    ("annotated_human.pgn", "king-of-the-hill"),          # (variations: histories of 7.2)
]
TABLE_PACK = ("twic_events.pgn", "lichess_2021-10_clk_eval.pgn", "lichess_misc_exports.pgn",
              "twic_clock_comments_wrapped.pgn")  # twice over: openings that recur, so that
TABLE_SETTINGS = ("default", "store", "small-blocks", "model")  # pack writes a value table (9.4.8)
TABLE_OPTIONS = ["--no-moves-dict"]              # ... and, its games twice, no moves dictionary
                                                 # (9.9): read version 1.6, not 1.13
FEATURE_OPTIONS = ["--tags", "tables"]           # the inputs whose read version is checked: their
                                                 # events as tags, not entries of the Event table
                                                 # (9.4.3), so that it is their feature's, not 1.14
XIANGQI_FEATURE_OPTIONS = ["--xiangqi", "model"]  # ... and their Xiangqi games without the book
                                                 # (7.9.1), not 1.15, but under "xiangqi-book"
XIANGQI_PACKS = ("wukong_iccs.pgn", "wukong_wxf_fullwidth.pgn",    # corpus/xiangqi: Xiangqi
                 "wukong_chinese.pgn")           # games (5.7.2), blocks of codec 11 or 9
XIANGQI_CRAFTED = "xiangqi_crafted.pgn"          # made by xiangqi_crafted_pgn (5.7.2, 7.9)
XIANGQI_SETTINGS = ("default", "model", "uniform", "xiangqi-uniform", "xiangqi-book")
XIANGQI_EXPECTED = {                             # setting -> (first block's codec, coder, read minor)
    "default": (11, 2, 8),                       # the Xiangqi model under the fast coder (7.9)
    "model": (11, 1, 8),                         # ... under the model coder (--moves max)
    "uniform": (9, 0, 7),                        # the uniform coder: codec 9 (5.7.2)
    "xiangqi-uniform": (9, 2, 7),                # --xiangqi uniform: codec 9 under the fast coder
    "xiangqi-book": (17, 2, 15),                 # the model and its book under the fast coder (7.9.1)
}
XIANGQI_ENCODED = {                              # format 1.10: move texts in GB18030 and Big5
    # made file: (corpus/xiangqi file, encoding, settings)
    "wukong_chinese_gb18030.pgn": ("wukong_chinese.pgn", "gb18030", ("default", "uniform")),
    "wukong_wxf_fullwidth_gb18030.pgn": ("wukong_wxf_fullwidth.pgn", "gb18030", ("default",)),
    "wukong_chinese_big5.pgn": ("wukong_chinese.pgn", "big5", ("uniform", "big5-defaults")),
}
XIANGQI_REAL_1_10 = {                            # corpus/xiangqi's own files in GB18030 and Big5:
    "xqbase_gb18030.pgn": ("store",),            # settings (a few games may be kept verbatim)
    "ccpd_big5.pgn": ("model",),
}
XIANGQI_REAL_1_11 = ("ccpd_big5.pgn",)           # ... with a tag pair written without escapes (an
                                                 # Event's quote): layout 7, format 1.11 (9.4.10)
BIG5_TRADITIONAL = str.maketrans("\u5e05\u5c06\u9a6c\u8f66\u8fdb\u540e",     # 帅将马车进后
                                 "\u5e25\u5c07\u99ac\u8eca\u9032\u5f8c")    # 帥將馬車進後
XIANGQI_TANDEM = "xiangqi_tandem_by_file.pgn"    # made by xiangqi_tandem_pgn (5.7.1, codec 15)
XIANGQI_TANDEM_SETTINGS = ("default", "model")
XIANGQI_1_10_EXPECTED = {                        # as XIANGQI_EXPECTED, for format 1.10
    "default": (14, 2, 10), "model": (14, 1, 10), "store": (14, 2, 10), "uniform": (14, 0, 10),
    "big5-defaults": (14, 2, 10),
}
XIANGQI_MODEL_VECTORS = {                        # valid/NAME: (codec, move coder), MANIFEST.tsv
    "xiangqi_model": (11, 1), "xiangqi_model_fast": (11, 2),
    "xiangqi_model_tracks": (12, 1), "xiangqi_model_uniform": (9, 0),
}
XIANGQI_BOOK_VECTORS = {                         # ... of format 1.15 (the Xiangqi model's book)
    "xiangqi_book": (17, 1), "xiangqi_book_tracks": (18, 1),
}
XIANGQI_1_10_VECTORS = {                         # ... of format 1.10 (GB18030, Big5, tandem)
    "xiangqi_gb18030": (14, 1), "xiangqi_big5": (14, 2), "xiangqi_big5_defaults": (14, 1),
    "xiangqi_tandem_by_file": (15, 1),
}
UNESCAPED_VECTORS = ("unescaped_tags",)         # valid/NAME of format 1.11: layout 7 (9.4.10)
TEXT_DICTIONARY_VECTORS = {"text_dictionary": (7, 8)}  # valid/NAME of format 1.12: the texts'
                                                 # encodings its blocks have (9.3, 9.9)
MOVES_DICTIONARY_VECTORS = {"moves_dictionary": (10,)}  # ... of format 1.13: the moves'
UNESCAPED = "unescaped_tags.pgn"                 # made by unescaped_pgn (9.4.10, format 1.11)
UNESCAPED_SETTINGS = ("default", "store", "model", "small-blocks", "tags-coded")
UNESCAPED_EXPECTED = {                           # setting -> (read minor, games kept verbatim)
    "default": (11, 0), "store": (11, 0), "model": (11, 0), "small-blocks": (11, 0),
    "tags-coded": (2, 4),                        # no layout 7: every game of a quote left
                                                 # unescaped verbatim; backslashes that escape
                                                 # nothing read as such, written escaped (9.4.10)
}
TEXT_DICTIONARY = "text_dictionary.pgn"          # made by text_dictionary_pgn (9.9, format 1.12)
TEXT_DICTIONARY_SETTINGS = ("text-dict", "text-dict-frames")
TEXT_DICTIONARY_EXPECTED = {                     # setting -> the texts' encoding of one block at
    "text-dict": 7,                              # least (one frame made with a dictionary, 9.3)
    "text-dict-frames": 8,                       # (a frame per group: --frame-kib 1, BLOCK-4)
}
TEXT_DICTIONARY_PARTS = {"text-dict": 1, "text-dict-frames": 2}   # the part (of N) each is in
TEXT_DICTIONARY_FRAMES = "text_dictionary.pgn appended"   # test_dictionary_frames, in this
TEXT_DICTIONARY_FRAMES_PART = 2                            # part (of N)
DICTIONARY_ENCODINGS = {7: 1, 8: 2}              # 9.3: encodings 7 and 8, 1 and 2 made with
                                                  # one of the archive's dictionaries
MOVES_DICTIONARY = "moves_dictionary.pgn"        # made by moves_dictionary_pgn (9.9, format 1.13)
MOVES_DICTIONARY_SOURCE = ("lichess_2021-10_clk_eval.pgn", 20, 100)   # corpus/pgn file, its first
                                                 # games whose moves are taken, the games made
MOVES_DICTIONARY_XIANGQI = ("wukong_iccs.pgn", 9)  # corpus/xiangqi file, the times put together
MOVES_DICTIONARY_OPTIONS = ["--block-games", "10", "--moves", "uniform", "--clocks", "bytes"]
MOVES_DICTIONARY_PART = 1                        # test_moves_dictionary's part (of N)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace").strip()


def manifest():
    rows = []
    with open(os.path.join(CONFORMANCE, "MANIFEST.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rows.append(line.rstrip("\n").split("\t"))
    return rows


def test_valid(failures):
    names = sorted(n[:-4] for n in os.listdir(os.path.join(CONFORMANCE, "valid"))
                   if n.endswith(".pga"))
    passed = 0
    for name in names:
        base = os.path.join(CONFORMANCE, "valid", name)
        rc, out, err = run(DECODE + [base + ".pga"])
        with open(base + ".pgn", "rb") as f:
            expected = f.read()
        if rc == 0 and out == expected:
            passed += 1
        else:
            failures.append(f"valid/{name}: rc {rc} {err}")
    print(f"valid vectors: {passed}/{len(names)} decode exactly")
    for vectors, what in ((XIANGQI_MODEL_VECTORS, "the Xiangqi model's (7.9)"),
                          (XIANGQI_1_10_VECTORS, "format 1.10's (5.7.1)"),
                          (XIANGQI_BOOK_VECTORS, "format 1.15's (7.9.1)")):
        for name, (codec, coder) in sorted(vectors.items()):
            if name not in names:
                failures.append(f"valid/{name}: missing (a vector of {what})")
                continue
            got = first_block_codec_and_coder(os.path.join(CONFORMANCE, "valid", name + ".pga"))
            if got != (codec, coder):
                failures.append(f"valid/{name}: first block of codec {got[0]}, move coder "
                                f"{got[1]}, not codec {codec}, coder {coder}")
        print(f"of them {what}: {', '.join(n for n in sorted(vectors) if n in names)}")
    for name in UNESCAPED_VECTORS:
        if name not in names:
            failures.append(f"valid/{name}: missing (a vector of format 1.11's (9.4.10))")
            continue
        path = os.path.join(CONFORMANCE, "valid", name + ".pga")
        with open(path, "rb") as f:
            layout = f.read(0x20 + 8)[0x20 + 6:0x20 + 7]     # 9.3: the layout at byte 6
        if read_minor(path) != 11 or layout != b"\x07":
            failures.append(f"valid/{name}: read version 1.{read_minor(path)}, first block of "
                            f"layout {layout[0] if layout else None}: not 1.11, layout 7")
    print(f"of them format 1.11's (9.4.10): "
          f"{', '.join(n for n in UNESCAPED_VECTORS if n in names)}")
    check_dictionary_vectors(names, TEXT_DICTIONARY_VECTORS, 3, 12, "texts", "9.3 encodings 7 and 8",
                             failures)
    check_dictionary_vectors(names, MOVES_DICTIONARY_VECTORS, 1, 13, "moves", "9.3 encoding 10",
                             failures)


def check_dictionary_vectors(names, vectors, section, minor, what, where, failures):
    """Test 1's check of the vectors `vectors` (name -> encodings) of format 1.`minor`: each is
    there, of read version 1.`minor`, with sections `section` (named `what`) of those encodings
    among its blocks'."""
    for name, encodings in sorted(vectors.items()):
        if name not in names:
            failures.append(f"valid/{name}: missing (a vector of format 1.{minor}'s (9.3, 9.9))")
            continue
        path = os.path.join(CONFORMANCE, "valid", name + ".pga")
        with open(path, "rb") as f:
            data = f.read()
        found = {block_sections(data[offset:offset + size])[section][0]
                 for offset, size in block_extents(path)}
        if read_minor(path) != minor or not set(encodings) <= found:
            failures.append(f"valid/{name}: read version 1.{read_minor(path)}, {what} sections of "
                            f"encodings {sorted(found)}: not 1.{minor} with "
                            f"{' and '.join(map(str, encodings))}")
    print(f"of them format 1.{minor}'s ({where}): "
          f"{', '.join(n for n in sorted(vectors) if n in names)}")


def test_invalid(failures):
    rows = [r for r in manifest() if r[0] == "invalid"]
    passed = 0
    other_rules = []
    for kind, name, error_class, rules, *_ in rows:
        rc, out, err = run(DECODE + [os.path.join(CONFORMANCE, "invalid", name + ".pga")])
        expected = {"Corruption": "corrupt", "Unsupported": "unsupported"}[error_class]
        if rc == 1 and f"decode.py: {expected}: [" in err:
            passed += 1
            rule = err.split("[", 1)[1].split("]", 1)[0]
            if rule not in rules.split():
                other_rules.append(f"  invalid/{name}: cites {rule}, the manifest {rules}: {err}")
        else:
            failures.append(f"invalid/{name}: rc {rc}, expected {expected}: {err}")
    print(f"invalid vectors: {passed}/{len(rows)} rejected with the manifest's class")
    if other_rules:
        print(f"  {len(other_rules)} cite another rule than the manifest's:")
        print("\n".join(other_rules))


def variant_option(path):
    """`--variant NAME` for corpus/pgn/variant_NAME.pgn where NAME names a variant of 5.6."""
    sys.path.insert(0, HERE)
    from moves import variant_of_name
    name = os.path.basename(path)
    if name.startswith("variant_") and variant_of_name(name[8:-4].encode()) is not None:
        return ["--variant", name[8:-4]]
    return []


def has_clocks(path):
    """Whether a PGN file holds a time command (8.3.1), which a clock track may code."""
    with open(path, "rb") as f:
        data = f.read()
    return b"[%clk " in data or b"[%emt " in data


def read_minor(archive):
    """The read minor version of the file header (9.2, byte 11): 6 where a block has layout 5,
    7 where a block has codec 9 or 10, 8 where a block has codec 11 or 12, 9 where a block has
    layout 6, 10 where a block has codec 14 or 15, 11 where a block has layout 7, 12 where a
    block has a section of encoding 7 or 8, 13 where a block has a section of encoding 10."""
    with open(archive, "rb") as f:
        return f.read(12)[11]


def first_block_codec_and_coder(archive):
    """The move codec and the move coder of the archive's first block (9.3: the block header,
    after the 32-byte file header of 9.2: magic, codec at byte 4, move coder at byte 7)."""
    with open(archive, "rb") as f:
        data = f.read(0x20 + 8)
    if data[0x20:0x24] != b"PGAB":
        return None, None
    return data[0x20 + 4], data[0x20 + 7]


def test_black_box(pgnarc, failures, quick, part=(1, 1)):
    pgn_dir = os.path.join(ROOT, "corpus", "pgn")
    inputs = [(os.path.join(pgn_dir, n), variant_option(os.path.join(pgn_dir, n)), None)
              for n in sorted(os.listdir(pgn_dir)) if n.endswith(".pgn")]
    # (The files re-read under a variant only with MOVE-CODER-1's three coders.)
    inputs += [(os.path.join(pgn_dir, n), ["--variant", v], ("default", "model", "uniform"))
               for n, v in VARIANT_PACKS]
    edge = os.path.join(pgn_dir, "edge")
    if os.path.isdir(edge):
        inputs += [(os.path.join(edge, n), [], ("default", "model")) for n in sorted(os.listdir(edge))
                   if n.endswith(".pgn")]
    settings = {"default": SETTINGS["default"]} if quick else SETTINGS
    archives = identical = games_checked = games_identical = 0
    variant_archives = {}                   # (variant, coder) -> archives decoded identically
    xiangqi_archives, xiangqi_identical = {}, {}    # setting -> Xiangqi archives made, identical
    xiangqi_1_10_archives, xiangqi_1_10_identical = {}, {}     # ... of format 1.10
    unescaped_archives, unescaped_identical = {}, {}            # ... of UNESCAPED (9.4.10)
    dictionary_archives, dictionary_identical = {}, {}          # ... of TEXT_DICTIONARY (9.9)
    mutations, mutations_rejected = 0, 0        # TEXT_DICTIONARY's archives damaged, rejected
    decoded_bytes = 0
    decode_seconds = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        # (the openings of TABLE_PACK's files, twice: a value table pays, format 1.6)
        tables_pgn = os.path.join(tmp, "openings_twice.pgn")
        with open(tables_pgn, "wb") as out:
            for name in TABLE_PACK * 2:
                with open(os.path.join(pgn_dir, name), "rb") as f:
                    out.write(f.read())
        inputs.append((tables_pgn, [], TABLE_SETTINGS))
        # (last, so that the parts of the inputs before them are as they were)
        xiangqi_dir = os.path.join(ROOT, "corpus", "xiangqi")
        xiangqi_pgns = [os.path.join(xiangqi_dir, n) for n in XIANGQI_PACKS]
        crafted = os.path.join(tmp, XIANGQI_CRAFTED)
        xiangqi_crafted_pgn(os.path.join(xiangqi_dir, XIANGQI_PACKS[0]), crafted)
        xiangqi_pgns.append(crafted)
        inputs += [(path, [], XIANGQI_SETTINGS) for path in xiangqi_pgns]
        # format 1.10: GB18030, Big5 and tandem by file (after the others, for the same reason)
        xiangqi_1_10 = {}                       # path -> settings
        for name, (source, encoding, only) in XIANGQI_ENCODED.items():
            with open(os.path.join(xiangqi_dir, source), encoding="utf-8") as f:
                text = f.read()
            if encoding == "big5":
                text = text.translate(BIG5_TRADITIONAL)
            with open(os.path.join(tmp, name), "wb") as out:
                out.write(text.encode(encoding))
            xiangqi_1_10[os.path.join(tmp, name)] = only
        tandem = os.path.join(tmp, XIANGQI_TANDEM)
        xiangqi_tandem_pgn(tandem)
        xiangqi_1_10[tandem] = XIANGQI_TANDEM_SETTINGS
        real = [os.path.join(xiangqi_dir, name) for name in XIANGQI_REAL_1_10
                if os.path.exists(os.path.join(xiangqi_dir, name))]
        xiangqi_1_10.update((path, XIANGQI_REAL_1_10[os.path.basename(path)]) for path in real)
        inputs += [(path, [], only) for path, only in xiangqi_1_10.items()]
        # format 1.11: tag pairs written without escapes (after the others, for the same reason)
        unescaped = os.path.join(tmp, UNESCAPED)
        unescaped_pgn(unescaped)
        inputs.append((unescaped, [], UNESCAPED_SETTINGS))
        # format 1.12: comments compressed with a text dictionary (each in the part
        # TEXT_DICTIONARY_PARTS gives it, so that the two parts CTest runs by default hold them)
        text_dictionary = os.path.join(tmp, TEXT_DICTIONARY)
        text_dictionary_pgn(text_dictionary)
        inputs.append((text_dictionary, [], TEXT_DICTIONARY_SETTINGS))
        if not quick and (TEXT_DICTIONARY_FRAMES_PART - 1) % part[1] == part[0] - 1:
            test_dictionary_frames(pgnarc, tmp, failures)        # appended; mixed dictionaries
        if not quick and (MOVES_DICTIONARY_PART - 1) % part[1] == part[0] - 1:
            test_moves_dictionary(pgnarc, tmp, failures)         # format 1.13: encoding 10
        for i, (path, variant, only) in enumerate(inputs):
            for j, (setting, options) in enumerate(settings.items()):
                if only is not None and setting not in only:
                    continue
                if setting in ONLY_LISTED and only is None:
                    continue
                if setting == "clock-bytes" and not has_clocks(path):   # the same bytes as "uniform"
                    continue
                if path == text_dictionary:
                    if (TEXT_DICTIONARY_PARTS[setting] - 1) % part[1] != part[0] - 1:
                        continue
                elif (i + j) % part[1] != part[0] - 1:   # another part's (settings alternate)
                    continue
                name = os.path.relpath(path, pgn_dir if path != tables_pgn else tmp)
                if path in xiangqi_1_10 or path in (unescaped, text_dictionary):
                    name = os.path.basename(path)
                if path in xiangqi_pgns:
                    name = (os.path.relpath(path, os.path.dirname(pgn_dir)) if path != crafted
                            else XIANGQI_CRAFTED)
                label = f"{name} {' '.join(variant)} [{setting}]"
                archive = os.path.join(tmp, "a.pga")
                checked = (path in xiangqi_pgns or path in xiangqi_1_10 or path == tables_pgn
                           or path in (unescaped, text_dictionary))
                rc, _, err = run([pgnarc, "pack", path, "-o", archive, "--force", "-q"] + options
                                 + variant + (TABLE_OPTIONS if path == tables_pgn else [])
                                 + (FEATURE_OPTIONS if checked and "--tags" not in options else [])
                                 + (XIANGQI_FEATURE_OPTIONS if checked and "--xiangqi" not in options
                                    and setting != "xiangqi-book" else []))
                if rc != 0:
                    print(f"  (pgnarc pack refused {label}: {err})")
                    continue
                archives += 1
                if path == tables_pgn and read_minor(archive) != 6:     # value tables, layout 5
                    failures.append(f"{label}: read version 1.{read_minor(archive)}, not 1.6: "
                                    "no block of layout 5 (9.4.8)")
                    continue
                if path in xiangqi_pgns:                # Xiangqi games: codec 11 or 9 (7.9)
                    codec, coder = first_block_codec_and_coder(archive)
                    want = XIANGQI_EXPECTED[setting]
                    if (path.endswith(XIANGQI_CRAFTED) and setting != "xiangqi-uniform"
                            and read_minor(archive) == 9):
                        # its FEN start, where the writer finds a column of Xiangqi positions
                        # smaller (9.4.9): layout 6, format 1.9
                        want = (want[0], want[1], 9)
                    if (codec, coder, read_minor(archive)) != want:
                        failures.append(f"{label}: first block of codec {codec}, move coder "
                                        f"{coder}, read version 1.{read_minor(archive)}: not "
                                        f"codec {want[0]}, coder {want[1]} of format 1.{want[2]}")
                        continue
                    xiangqi_archives[setting] = xiangqi_archives.get(setting, 0) + 1
                if path in xiangqi_1_10:                # format 1.10: codec 14, or 15 (5.7.1)
                    problem = check_1_10_archive(pgnarc, archive, setting, path == tandem,
                                                 path in real,
                                                 os.path.basename(path) in XIANGQI_REAL_1_11)
                    if problem:
                        failures.append(f"{label}: {problem}")
                        continue
                    xiangqi_1_10_archives[setting] = xiangqi_1_10_archives.get(setting, 0) + 1
                if path == unescaped:                   # layout 7 (9.4.10), or games verbatim
                    want = UNESCAPED_EXPECTED[setting]
                    _, info, _ = run([pgnarc, "info", archive])
                    kept = re.search(rb"games: *\d+ \((\d+) kept verbatim\)", info)
                    got = (read_minor(archive), int(kept.group(1)) if kept else None)
                    if got != want:
                        failures.append(f"{label}: read version 1.{got[0]}, {got[1]} games kept "
                                        f"verbatim: not 1.{want[0]}, {want[1]}")
                        continue
                    unescaped_archives[setting] = unescaped_archives.get(setting, 0) + 1
                if path == text_dictionary:             # encodings 7 and 8 (9.3, 9.9)
                    problem = check_text_dictionary_archive(pgnarc, archive,
                                                            TEXT_DICTIONARY_EXPECTED[setting])
                    if problem:
                        failures.append(f"{label}: {problem}")
                        continue
                    dictionary_archives[setting] = dictionary_archives.get(setting, 0) + 1
                if variant and setting in CODERS:       # MOVE-CODER-1's three cases
                    codec, coder = first_block_codec_and_coder(archive)
                    # (codec 8 where a block holds a clock track, 8.3.4)
                    if codec not in (7, 8) or coder != CODERS[setting]:
                        failures.append(f"{label}: first block of codec {codec}, move coder "
                                        f"{coder}")
                        continue
                rc, expected, err = run([pgnarc, "unpack", archive, "-o", "-"])
                _, info, _ = run([pgnarc, "info", archive])
                games = int(info.split(b"games:")[1].split()[0]) if b"games:" in info else 0
                sample = sorted({1, games, (games + 1) // 2, (games * 3 + 3) // 4, 2} &
                                set(range(1, games + 1)))
                singles = [run([pgnarc, "get", archive, str(n)])[1] for n in sample]
                start = time.perf_counter()
                rc2, out, err2 = run(DECODE + [archive])
                decode_seconds += time.perf_counter() - start
                decoded_bytes += len(out)
                if rc == rc2 == 0 and out == expected:
                    identical += 1
                    if path in xiangqi_pgns:
                        xiangqi_identical[setting] = xiangqi_identical.get(setting, 0) + 1
                    if path in xiangqi_1_10:
                        xiangqi_1_10_identical[setting] = xiangqi_1_10_identical.get(setting, 0) + 1
                    if path == unescaped:
                        unescaped_identical[setting] = unescaped_identical.get(setting, 0) + 1
                    if path == text_dictionary:
                        dictionary_identical[setting] = dictionary_identical.get(setting, 0) + 1
                    if variant and setting in CODERS:
                        key = (variant[1], {0: "uniform", 1: "model", 2: "fast"}[CODERS[setting]])
                        variant_archives[key] = variant_archives.get(key, 0) + 1
                else:
                    failures.append(f"{label}: whole archive differs (rc {rc}/{rc2}) {err2}")
                    continue
                for n, expected in zip(sample, singles):
                    games_checked += 1
                    rc2, out, err2 = run(DECODE + [archive, str(n)])
                    if rc2 == 0 and out == expected:
                        games_identical += 1
                    else:
                        failures.append(f"{label}: game {n} differs (rc {rc}/{rc2}) {err2}")
                if path == text_dictionary:             # damaged: BLOCK-1, BLOCK-4, BLOCK-5, ZSTD-1
                    problems, made = text_dictionary_mutations(pgnarc, archive, tmp)
                    mutations += made
                    mutations_rejected += made - len(problems)
                    failures += [f"{label}: {problem}" for problem in problems]
    print(f"packed archives: {identical}/{archives} decode byte-identically to pgnarc unpack")
    print(f"single games: {games_identical}/{games_checked} identical to pgnarc get")
    print("of them under a variant (MOVE-CODER-1): " + ", ".join(
        f"{v} {coder} coder {n}" for (v, coder), n in sorted(variant_archives.items())))
    print("of them of Xiangqi games (5.7.2, 7.9), by setting: " + ", ".join(
        f"{s} {xiangqi_identical.get(s, 0)}/{n}" for s, n in sorted(xiangqi_archives.items())))
    print("of them of format 1.10 (GB18030, Big5, tandem by file: 5.7.1), by setting: " + ", ".join(
        f"{s} {xiangqi_1_10_identical.get(s, 0)}/{n}"
        for s, n in sorted(xiangqi_1_10_archives.items())))
    print("of them of tag pairs written without escapes (9.4.10), by setting: " + ", ".join(
        f"{s} {unescaped_identical.get(s, 0)}/{n}" for s, n in sorted(unescaped_archives.items())))
    print("of them of comments compressed with a text dictionary (9.3 encodings 7 and 8, 9.9), by "
          "setting: " + ", ".join(f"{s} {dictionary_identical.get(s, 0)}/{n}"
                                  for s, n in sorted(dictionary_archives.items()))
          + f"; {mutations_rejected}/{mutations} of their damaged copies rejected as expected")
    if decode_seconds:
        print(f"speed: {decoded_bytes / 1e6:.2f} MB of PGN in {decode_seconds:.1f} s of whole "
              f"decodes ({decoded_bytes / 1e6 / decode_seconds:.2f} MB/s, process start included)")


def check_1_10_archive(pgnarc, archive, setting, tandem, real=False, unescaped=False):
    """A packed archive of XIANGQI_ENCODED, XIANGQI_TANDEM or XIANGQI_REAL_1_10: its first
    block's codec, coder and read version as XIANGQI_1_10_EXPECTED says (codec 15 for
    XIANGQI_TANDEM, whose chess game has a modelled clock track; read version 1.11 for
    XIANGQI_REAL_1_11, `unescaped`, whose tag pairs written without escapes take a block of
    layout 7, 9.4.10), and no game kept verbatim
    (pgnarc info; for a real file, not every game), so that the move texts are written from
    notation bytes; under "big5-defaults" the archive's Big5 notation bytes are made their
    defaults first (big5_defaults).  Returns what is wrong, or None."""
    if setting == "big5-defaults":
        _, before, _ = run([pgnarc, "unpack", archive, "-o", "-"])
        rewritten = big5_defaults(archive)
        rc, after, err = run([pgnarc, "unpack", archive, "-o", "-"])
        if rewritten == 0 or rc != 0 or after != before:
            return (f"{rewritten} notation bytes made Big5's defaults: pgnarc unpack "
                    f"{'gives other bytes' if rc == 0 else 'fails: ' + err}")
    codec, coder = first_block_codec_and_coder(archive)
    want = XIANGQI_1_10_EXPECTED[setting]
    if tandem:
        want = (15,) + want[1:]
    if unescaped:
        want = want[:2] + (11,)
    if (codec, coder, read_minor(archive)) != want:
        return (f"first block of codec {codec}, move coder {coder}, read version "
                f"1.{read_minor(archive)}: not codec {want[0]}, coder {want[1]} of format "
                f"1.{want[2]}")
    _, info, _ = run([pgnarc, "info", archive])
    kept = re.search(rb"games: *(\d+) \((\d+) kept verbatim\)", info)
    if kept is None or int(kept.group(2)) >= (int(kept.group(1)) if real else 1):
        return f"games kept verbatim: {kept.group(2).decode() if kept else '?'}"
    return None


def check_text_dictionary_archive(pgnarc, archive, want):
    """A packed archive of TEXT_DICTIONARY: read version 1.12, a texts section of encoding `want`
    (TEXT_DICTIONARY_EXPECTED's, 7 or 8) in one block at least (9.3: a section whose column form
    without the dictionary is smaller keeps encoding 4 or 5), and `pgnarc info` saying that texts
    are compressed with a dictionary.  Returns what is wrong, or None."""
    with open(archive, "rb") as f:
        data = f.read()
    encodings = {block_sections(data[offset:offset + size])[3][0]
                 for offset, size in block_extents(archive)}
    if read_minor(archive) != 12 or want not in encodings:
        return (f"read version 1.{read_minor(archive)}, texts sections of encodings "
                f"{sorted(encodings)}: not 1.12 with encoding {want} (a text dictionary, 9.9)")
    _, info, _ = run([pgnarc, "info", archive])
    if not re.search(rb"texts[^\n]*dictionary", info):
        return "pgnarc info does not say that texts are compressed with a dictionary"
    return None


def test_dictionary_frames(pgnarc, tmp, failures):
    """An archive appended to (9.9: its new blocks get no text dictionary) and sections whose
    frames name different dictionaries (BLOCK-5), which this writer does not make:
    80 games of TEXT_DICTIONARY's kind packed in blocks of 20 (a text dictionary: texts of
    encoding 7, or 8 with --frame-kib 1; --no-moves-dict: no moves dictionary, which pack alone
    makes, 9.9), then 40 more appended (texts of encoding 4, or 5:
    the column form without a dictionary), decoded as pgnarc unpacks them; then the appended
    blocks' texts remade with the archive's dictionaries (`with_dictionaries`: 4 made 7, 5 made
    8 whose frames name each dictionary in turn) decode, by decode.py and by pgnarc unpack, to
    the same PGN, and the damaged copies of a block remade are rejected
    (text_dictionary_mutations)."""
    first, more = os.path.join(tmp, "frames_first.pgn"), os.path.join(tmp, "frames_more.pgn")
    text_dictionary_pgn(first, games=80)
    text_dictionary_pgn(more, games=40, seed=113)
    appended, archive = os.path.join(tmp, "appended.pga"), os.path.join(tmp, "remade.pga")
    gives = {True: "gives", False: "does NOT give"}
    for options, held, new in (([], 7, 4), (["--frame-kib", "1"], 8, 5)):
        label = f"{TEXT_DICTIONARY_FRAMES} {' '.join(options)}".strip()
        rc, _, err = run([pgnarc, "pack", first, "-o", appended, "--force", "-q",
                          "--block-games", "20", "--no-moves-dict"] + options)
        if rc == 0:
            rc, _, err = run([pgnarc, "append", appended, more, "-q", "--block-games", "20"]
                             + options)
        if rc != 0:
            failures.append(f"{label}: pgnarc pack or append fails: {err}")
            continue
        with open(appended, "rb") as f:
            data = f.read()
        found = [block_sections(data[offset:offset + size])[3][0]
                 for offset, size in block_extents(appended)]
        if (held not in found[:4] or new not in found[4:]
                or set(found[4:]) & set(DICTIONARY_ENCODINGS)):
            failures.append(f"{label}: texts sections of encodings {found}: not {held} in blocks "
                            f"the text dictionary holds (of the first 4) and {new}, no 7 or 8, "
                            "in the 2 appended (9.9)")
            continue
        rc, expected, err = run([pgnarc, "unpack", appended, "-o", "-"])
        rc2, out, err2 = run(DECODE + [appended])
        print(f"{label}: texts of encodings {held} and {new}: decode.py "
              f"{'identical to' if rc == rc2 == 0 and out == expected else 'DIFFERS from'} "
              "pgnarc unpack")
        if not (rc == rc2 == 0 and out == expected):
            failures.append(f"{label}: appended archive differs (rc {rc}/{rc2}) {err2}")
            continue
        with open(archive, "wb") as f:
            f.write(data)
        remade, names = with_dictionaries(archive)
        rc, unpacked, err = run([pgnarc, "unpack", archive, "-o", "-"])
        rc2, out, err2 = run(DECODE + [archive])
        result = (f"{len(remade)} blocks' texts remade of encoding {held}, a section's frames "
                  f"naming up to {names} dictionaries: decode.py "
                  f"{gives[rc2 == 0 and out == expected]} the PGN, pgnarc unpack "
                  f"{gives[rc == 0 and unpacked == expected]} it")
        print(f"{label}: {result}")
        if not remade or rc2 != 0 or out != expected:
            failures.append(f"{label}: {result}: {err2}")
        if rc != 0 or unpacked != expected:
            failures.append(f"{label}, remade: pgnarc unpack rc {rc}: {err}")
        if not remade:
            continue
        problems, made = text_dictionary_mutations(pgnarc, archive, tmp, remade[0])
        print(f"{label}: {made - len(problems)}/{made} damaged copies of block {remade[0]} "
              "rejected as expected")
        failures += [f"{label}, remade: {problem}" for problem in problems]


def with_dictionaries(archive):
    """Rewrites in place the blocks of an archive whose texts section has encoding 4 or 5 (the
    column form without a dictionary, 9.3.2) with that section of encoding 7 or 8 (9.3): the
    plain bytes (decode.py's), whole or each group's, compressed (level 19) with one of the
    archive's dictionaries (9.9; with several, frame k of a section of 8 the k-th in ID order,
    round and round, so that the frames of one section name different ones, and the one frame of
    a section of 7 the one that makes it smallest).  The block keeps its size: the bytes the
    section no longer takes, less the 12 of an entry, are an optional section of id 5 (BLOCK-7,
    which a reader skips) of zeros; a block where they are too few is left as it was.  The block
    checksum is made again (9.3).  Returns (the numbers of the blocks rewritten, the most
    dictionaries one section's frames name)."""
    sys.path.insert(0, HERE)
    import zstandard
    import decode
    with open(archive, "rb") as f:
        data = bytearray(f.read())
    opened = decode.Archive(archive)
    ids = sorted(opened.dictionaries)
    compressors = {i: zstandard.ZstdCompressor(level=19, write_content_size=True,
                                               dict_data=zstandard.ZstdCompressionDict(
                                                   opened.dictionaries[i]))
                   for i in ids}
    remade, most = [], 0
    for entry in opened.all_blocks():
        block = bytes(data[entry.offset:entry.offset + entry.size])
        encoding, start, stored = block_sections(block)[3]
        if encoding not in (4, 5) or block[5] != 5 or not ids:
            continue
        groups = decode.Block(opened, entry).texts
        if encoding == 5:
            frames = groups
            named = [ids[k % len(ids)] for k in range(len(frames))]
        else:
            frames = [b"".join(groups)]
            named = [min(ids, key=lambda i: len(compressors[i].compress(frames[0])))]
        texts = b"".join(compressors[i].compress(frame) for i, frame in zip(named, frames))
        spare = stored - len(texts) - 12
        if spare < 0:
            continue
        table = bytearray(block[12:72])
        table[37] = encoding + 3                                    # 4 -> 7, 5 -> 8
        table[40:44] = len(texts).to_bytes(4, "little")
        table += bytes([5, 0, 0, 0]) + spare.to_bytes(4, "little") * 2     # id 5, stored
        new = (block[:5] + b"\x06" + block[6:12] + bytes(table) + block[72:start] + texts
               + block[start + stored:-8] + bytes(spare))
        data[entry.offset:entry.offset + entry.size] = new + decode.xxh64(new).to_bytes(8, "little")
        remade.append(entry.number)
        most = max(most, len(set(named)))
    opened.file.close()
    with open(archive, "wb") as f:
        f.write(data)
    return remade, most


def block_extents(archive):
    """(offset, size) of each block of an archive, from its block table (decode.py's reader)."""
    sys.path.insert(0, HERE)
    import decode
    opened = decode.Archive(archive)
    try:
        return [(entry.offset, entry.size) for entry in opened.all_blocks()]
    finally:
        opened.file.close()


def block_sections(block):
    """(encoding, start, stored size) of a block's five sections (9.3: the section table at byte
    12, an entry of 12 bytes each: id, encoding, reserved, stored size; the sections' stored
    bytes after the table, in table order; start counted from the block's first byte)."""
    count = block[5]
    at = 12 + 12 * count
    sections = []
    for i in range(count):
        size = int.from_bytes(block[12 + 12 * i + 4:12 + 12 * i + 8], "little")
        sections.append((block[12 + 12 * i + 1], at, size))
        at += size
    return sections[:5]


def archive_blocks(archive):
    """The bytes of `archive`, the IDs of its dictionaries and its block entries, as decode.py
    reads them."""
    sys.path.insert(0, HERE)
    import decode
    with open(archive, "rb") as f:
        data = f.read()
    opened = decode.Archive(archive)
    held = set(opened.dictionaries)
    entries = opened.all_blocks()
    opened.file.close()
    return data, held, entries


def text_dictionary_mutations(pgnarc, archive, tmp, number=None):
    """Damaged copies of an archive with texts of encoding 7 or 8 (TEXT_DICTIONARY's), each
    rejected by decode.py with its class and one of its rules, and by pgnarc unpack with the same
    class: in block `number`, or the first whose texts section has encoding 7 or 8 (of 8 and two
    frames at least, where there is one; its last frame damaged), that encoding made the one
    without a dictionary (9.3: 1 or 2, whose frames must name none: ZSTD-1, or BLOCK-4 for frames
    by group, 9.3.4), a frame's Dictionary_ID made one the archive does not hold, or 0 (BLOCK-5),
    the tags, moves and structure sections given encodings 7 and 8 and the texts section encoding
    10 (BLOCK-1: not allowed there; 10 is the moves and structure sections' of format 1.13), the
    texts section encodings 6, 9 and 11 (BLOCK-1: unsupported, for a later minor version); each
    time the block checksum made again (damaged_copies).  Returns (what is wrong, copies
    made)."""
    data, held, entries = archive_blocks(archive)
    import decode                                  # (archive_blocks put it on the path)
    target = None                       # (offset, size, encoding, starts of the texts' frames)
    for entry in entries:
        encoding, start, stored = block_sections(data[entry.offset:entry.offset + entry.size])[3]
        if encoding not in DICTIONARY_ENCODINGS or number not in (None, entry.number):
            continue
        frames, at = [], start
        while at < start + stored:      # RFC 8878 3.1.1: each frame walked through its blocks
            frames.append(at)
            at += decode.zstd_frame_header(data[entry.offset:entry.offset + entry.size], at,
                                           "ZSTD-1", archive)[0]
        if target is None or (len(frames) > 1 and len(target[3]) == 1):
            target = (entry.offset, entry.size, encoding, frames)
    if target is None:
        return ["no block whose texts section has encoding 7 or 8 to damage"], 0
    offset, size, encoding, frames = target
    field, width, named = dictionary_id_field(data[offset:offset + size], frames[-1])
    other = next(x for x in range(1, 2**(8 * width)) if x not in held)
    base = DICTIONARY_ENCODINGS[encoding]

    def encoding_of(section, value):
        return [(12 + 12 * section + 1, bytes([value]))]

    def dictionary_id(value):
        return [(field, value.to_bytes(width, "little"))]

    cases = [   # (what, edits (position in the block, bytes), class, rules)
        (f"texts section of encoding {encoding} made {base}, its frames naming dictionaries",
         encoding_of(3, base), "corrupt", ("ZSTD-1",) if base == 1 else ("BLOCK-4",)),
        (f"texts frame {len(frames) - 1} of encoding {encoding} naming dictionary {other} "
         f"(not {named}), which the archive does not hold", dictionary_id(other), "corrupt",
         ("BLOCK-5",)),
        (f"texts frame {len(frames) - 1} of encoding {encoding} naming no dictionary (ID 0)",
         dictionary_id(0), "corrupt", ("BLOCK-5", "ZSTD-1")),
        ("tags section of encoding 7", encoding_of(0, 7), "corrupt", ("BLOCK-1",)),
        ("moves section of encoding 8", encoding_of(1, 8), "corrupt", ("BLOCK-1",)),
        ("structure section of encoding 7", encoding_of(2, 7), "corrupt", ("BLOCK-1",)),
        ("texts section of encoding 10", encoding_of(3, 10), "corrupt", ("BLOCK-1",)),
        ("texts section of encoding 6", encoding_of(3, 6), "unsupported", ("BLOCK-1",)),
        ("texts section of encoding 9", encoding_of(3, 9), "unsupported", ("BLOCK-1",)),
        ("texts section of encoding 11", encoding_of(3, 11), "unsupported", ("BLOCK-1",)),
    ]
    return damaged_copies(pgnarc, data, offset, size, cases, tmp), len(cases)


def dictionary_id_field(block, frame):
    """The Dictionary_ID field of the Zstandard frame at block[frame] (RFC 8878 3.1.1.1: after
    the magic number, the Frame_Header_Descriptor and the Window_Descriptor, which a
    Single_Segment frame lacks; 0, 1, 2 or 4 bytes by the Dictionary_ID_Flag): (its position in
    the block, its width, the ID it holds)."""
    descriptor = block[frame + 4]                       # the Frame_Header_Descriptor
    field = frame + 5 + (0 if descriptor & 0x20 else 1)
    width = (0, 1, 2, 4)[descriptor & 3]
    return field, width, int.from_bytes(block[field:field + width], "little")


def damaged_copies(pgnarc, data, offset, size, cases, tmp):
    """Copies of the archive `data`, one per case (what, edits, class, rules): the block at
    `offset` of `size` bytes with the edits (each a position in the block and the bytes put
    there) and its checksum made again (9.3: nothing else of the file covers a block's bytes),
    each of which decode.py MUST reject with the class and one of the rules, and pgnarc unpack
    with the class.  Returns what is wrong."""
    sys.path.insert(0, HERE)
    import decode
    problems = []
    damaged = os.path.join(tmp, "damaged.pga")
    for what, edits, expected, rules in cases:
        block = bytearray(data[offset:offset + size])
        for at, value in edits:
            block[at:at + len(value)] = value
        block[-8:] = decode.xxh64(bytes(block[:-8])).to_bytes(8, "little")
        with open(damaged, "wb") as f:
            f.write(data[:offset] + bytes(block) + data[offset + size:])
        rc, _, err = run(DECODE + [damaged])
        cited = re.search(r"decode\.py: (\w+): \[([\w-]+)\]", err)
        if rc != 1 or not cited or cited.group(1) != expected or cited.group(2) not in rules:
            problems.append(f"{what}: decode.py rc {rc}, not {expected} [{' or '.join(rules)}]: "
                            f"{err}")
        rc, _, err = run([pgnarc, "unpack", damaged, "-o", "-"])
        word = {"corrupt": "corruption:", "unsupported": "unsupported:"}[expected]
        if rc == 0 or word not in err:
            problems.append(f"{what}: pgnarc unpack rc {rc}, not {expected}: {err}")
    return problems


def test_moves_dictionary(pgnarc, tmp, failures):
    """Format 1.13 (9.3 encoding 10, 9.9: the moves and structure sections compressed with a
    moves dictionary): MOVES_DICTIONARY, games that repeat the moves of others under other tags
    (moves_dictionary_pgn), and corpus/xiangqi's MOVES_DICTIONARY_XIANGQI put together as many
    times, each packed with MOVES_DICTIONARY_OPTIONS (blocks of 10 games; the uniform coder and
    clock tracks as bytes, 8.3.2, for moves and structure of more than 8 KiB, so that pgnarc
    makes the dictionary, in few plies for decode.py), checked by check_moves_dictionary_archive
    and decoded, whole and game by game, as pgnarc unpacks them; then damaged copies of the first
    (moves_dictionary_mutations) rejected by decode.py and pgnarc unpack."""
    name, distinct, made = MOVES_DICTIONARY_SOURCE
    chess = os.path.join(tmp, MOVES_DICTIONARY)
    moves_dictionary_pgn(os.path.join(ROOT, "corpus", "pgn", name), chess, distinct, made)
    source, times = MOVES_DICTIONARY_XIANGQI
    xiangqi = os.path.join(tmp, f"{source[:-4]}_{times}_times.pgn")
    with open(os.path.join(ROOT, "corpus", "xiangqi", source), "rb") as f:
        text = f.read().rstrip(b"\r\n") + b"\n\n"
    with open(xiangqi, "wb") as out:
        out.write(text * times)
    archive = os.path.join(tmp, "moves_dictionary.pga")
    for path, label, damage in ((chess, MOVES_DICTIONARY, True),
                                (xiangqi, f"{source} {times} times", False)):
        label = f"{label} [{' '.join(MOVES_DICTIONARY_OPTIONS)}]"
        rc, _, err = run([pgnarc, "pack", path, "-o", archive, "--force", "-q"]
                         + MOVES_DICTIONARY_OPTIONS + FEATURE_OPTIONS)
        if rc != 0:
            failures.append(f"{label}: pgnarc pack fails: {err}")
            continue
        problem, found = check_moves_dictionary_archive(pgnarc, archive)
        if problem:
            failures.append(f"{label}: {problem}")
            continue
        rc, expected, err = run([pgnarc, "unpack", archive, "-o", "-"])
        rc2, out, err2 = run(DECODE + [archive])
        same = rc == rc2 == 0 and out == expected
        if not same:
            failures.append(f"{label}: whole archive differs (rc {rc}/{rc2}) {err2}")
        _, info, _ = run([pgnarc, "info", archive])
        games = int(info.split(b"games:")[1].split()[0]) if b"games:" in info else 0
        sample = sorted({1, 2, (games + 1) // 2, games} & set(range(1, games + 1)))
        singles = 0
        for n in sample:
            rc, expected, err = run([pgnarc, "get", archive, str(n)])
            rc2, out, err2 = run(DECODE + [archive, str(n)])
            if rc == rc2 == 0 and out == expected:
                singles += 1
            else:
                failures.append(f"{label}: game {n} differs (rc {rc}/{rc2}) {err2}")
        print(f"{label}: {found}; decode.py {'identical to' if same else 'DIFFERS from'} pgnarc "
              f"unpack; games {', '.join(map(str, sample))} of {games}: {singles} identical to "
              "pgnarc get")
        if damage:
            problems, made = moves_dictionary_mutations(pgnarc, archive, tmp)
            print(f"{label}: {made - len(problems)}/{made} damaged copies rejected as expected")
            failures += [f"{label}: {problem}" for problem in problems]


def check_moves_dictionary_archive(pgnarc, archive):
    """A packed archive of test_moves_dictionary: read version 1.13 (9.2: a block has a section
    of encoding 10), the moves section of every block of encoding 10 (9.9: the moves dictionary
    holds every block's moves), and `pgnarc info` saying that the moves of every block are
    compressed with a dictionary of the archive ("moves: compressed with the archive's ...
    dictionary in N of N blocks").  Returns (what is wrong or None, what was found: besides, the
    structure sections of encoding 10, the texts sections' encodings and the dictionaries)."""
    sys.path.insert(0, HERE)
    import decode
    with open(archive, "rb") as f:
        data = f.read()
    sections = [block_sections(data[offset:offset + size])
                for offset, size in block_extents(archive)]
    moves = sorted({s[1][0] for s in sections})
    structure = sum(s[2][0] == 10 for s in sections)
    texts = sorted({s[3][0] for s in sections})
    if read_minor(archive) != 13 or moves != [10]:
        return (f"read version 1.{read_minor(archive)}, moves sections of encodings {moves}: not "
                "1.13 with encoding 10 in every block (a moves dictionary, 9.9)"), None
    _, info, _ = run([pgnarc, "info", archive])
    line = re.search(rb"^moves: compressed with the archive's ([\w ]*)dictionary in (\d+) of "
                     rb"(\d+) blocks", info, re.M)
    if not line or int(line.group(2)) != len(sections) or int(line.group(3)) != len(sections):
        return (f"pgnarc info does not say that the moves of all {len(sections)} blocks are "
                "compressed with a dictionary"), None
    opened = decode.Archive(archive)
    dictionaries = len(opened.dictionaries)
    opened.file.close()
    return None, (f"read version 1.13, {len(sections)} blocks, moves of encoding 10 in all, "
                  f"structure in {structure}, texts of {', '.join(map(str, texts))}, "
                  f"{dictionaries} dictionaries (pgnarc info: {line.group(0).decode()})")


def moves_dictionary_mutations(pgnarc, archive, tmp):
    """Damaged copies of an archive whose moves and structure sections have encoding 10
    (test_moves_dictionary's), each rejected by decode.py with its class and one of its rules,
    and by pgnarc unpack with the same class (damaged_copies): in the first block whose moves
    section has encoding 10 (block 0 here, so that each reader stops at once), that encoding
    made 1, whose frame must name no dictionary (ZSTD-1), and the same of the structure section
    where it has 10, the moves frame's Dictionary_ID made one the archive does not hold, or 0
    (BLOCK-5), encoding 10 given to the tags, texts and raw sections (BLOCK-1: not allowed
    there), and the moves section encoding 11 (BLOCK-1: unsupported, for a later minor
    version).  Returns (what is wrong, copies made)."""
    data, held, entries = archive_blocks(archive)
    for entry in entries:
        block = data[entry.offset:entry.offset + entry.size]
        sections = block_sections(block)
        if sections[1][0] == 10:
            break
    else:
        return ["no block whose moves section has encoding 10 to damage"], 0
    field, width, named = dictionary_id_field(block, sections[1][1])
    other = next(x for x in range(1, 2**(8 * width)) if x not in held)

    def encoding_of(section, value):
        return [(12 + 12 * section + 1, bytes([value]))]

    def dictionary_id(value):
        return [(field, value.to_bytes(width, "little"))]

    cases = [   # (what, edits (position in the block, bytes), class, rules)
        ("moves section of encoding 10 made 1, its frame naming a dictionary", encoding_of(1, 1),
         "corrupt", ("ZSTD-1",)),
        (f"moves frame of encoding 10 naming dictionary {other} (not {named}), which the archive "
         "does not hold", dictionary_id(other), "corrupt", ("BLOCK-5",)),
        ("moves frame of encoding 10 naming no dictionary (ID 0)", dictionary_id(0), "corrupt",
         ("BLOCK-5", "ZSTD-1")),
        ("tags section of encoding 10", encoding_of(0, 10), "corrupt", ("BLOCK-1",)),
        ("texts section of encoding 10", encoding_of(3, 10), "corrupt", ("BLOCK-1",)),
        ("raw section of encoding 10", encoding_of(4, 10), "corrupt", ("BLOCK-1",)),
        ("moves section of encoding 11", encoding_of(1, 11), "unsupported", ("BLOCK-1",)),
    ]
    if sections[2][0] == 10:
        cases.insert(1, ("structure section of encoding 10 made 1, its frame naming a dictionary",
                         encoding_of(2, 1), "corrupt", ("ZSTD-1",)))
    return damaged_copies(pgnarc, data, entry.offset, entry.size, cases, tmp), len(cases)


def big5_defaults(archive):
    """5.7.1, the Big5 defaults: rewrites in place the notation bytes of the Big5 Chinese games
    of an archive whose blocks' sections are stored (pack --store), each element equal to its
    Big5 default made 0 (advance 2 進; piece characters Red's general 2 帥, Black's 4 將, the
    horses' 2 馬 and the chariots' 2 車), and the blocks' checksums made again (9.3: XXH64 of
    the block's bytes before them; nothing else of the file covers a block's bytes).  The notation
    bytes are found in the structure section as a variant byte 8 after a header with bit 7,
    then 8 bytes that XQ-NOTATION-1 accepts as Chinese in Big5.  Returns how many it rewrote."""
    sys.path.insert(0, HERE)
    import decode
    from xiangqi import BIG5, CHINESE, read_notation
    with open(archive, "rb") as f:
        data = bytearray(f.read())
    rewritten = 0
    opened = decode.Archive(archive)
    entries = opened.all_blocks()
    opened.file.close()
    for entry in entries:
        block = data[entry.offset:entry.offset + entry.size]
        count = block[5]
        sizes = [int.from_bytes(block[12 + 12 * i + 4:12 + 12 * i + 8], "little")
                 for i in range(count)]
        if any(block[12 + 12 * i + 1] for i in range(5)):
            raise ValueError("big5_defaults: a section not stored")
        start = 12 + 12 * count + sizes[0] + sizes[1]            # the structure section
        for k in range(start + 1, start + sizes[2] - 8):
            if block[k] != 0x08 or not block[k - 1] & 0x80:
                continue
            notation = bytes(block[k + 1:k + 9])
            try:
                read = read_notation(notation, extended=True)
            except ValueError:
                continue
            if read.notation != CHINESE or read.encoding != BIG5:
                continue
            new = bytearray(notation)
            if read.advance == 2:
                new[0] &= ~0x0C
            p = int.from_bytes(new[2:8], "little")
            for side, kind, default in ((0, 1, 2), (1, 1, 4), (0, 4, 2), (1, 4, 2), (0, 5, 2),
                                        (1, 5, 2)):                 # (side, type t, Big5 default)
                shift = 3 * (7 * side + kind - 1)
                if (p >> shift) & 7 == default:
                    p &= ~(7 << shift)
            new[2:8] = p.to_bytes(6, "little")
            if new != notation:
                block[k + 1:k + 9] = new
                rewritten += 1
        block[-8:] = decode.xxh64(bytes(block[:-8])).to_bytes(8, "little")
        data[entry.offset:entry.offset + entry.size] = block
    with open(archive, "wb") as f:
        f.write(data)
    return rewritten


def xiangqi_tandem_pgn(out):
    """Xiangqi games whose tandem chariots, horses and cannons are named by their file where the
    other piece of the pair has no move of the same motion (5.7.1, XQ-TEXT-2 rule 3, tandem by
    file 1), by a mark where it has one, from positions like 5.7.1's T: in Chinese (UTF-8), in
    WXF (a cannon whose twin's same motion is a capture over a screen, a chariot's a capture at
    the end of its slide), in Chinese in Big5 (Black's chariots, one blocking the other's
    motion; two soldiers, which tandem by file leaves marked), and horses whose twin's leg is
    blocked; then a chess game with a clock track (the clock model: codec 15, 9.3).  The texts
    are written out here as 5.7.1 reads them, not by xiangqi.py."""
    games = [
        ("utf-8", "tandem by file, Chinese", "3k5/9/9/9/7C1/2N6/R8/2N4C1/9/R3K4 w - - 0 1",
         "1. 炮二进三 将４进１ 2. 炮二退三 将４退１ 3. 马七退九 将４进１ 4. 马九进七 将４退１ "
         "5. 后车进一 将４进１ 6. 前马进六 将４进１ 7. 车九进六 将４退１ 8. 后炮平五 将４进１ *"),
        ("utf-8", "tandem by file, WXF", "3k5/9/9/9/7C1/7p1/R6N1/7C1/4K4/R7p w - - 0 1",
         "1. C++2 K4+1 2. C+-2 K4-1 3. C2+1 K4+1 4. C-+2 K4-1 5. H2+4 K4+1 6. R+.1 K4-1 "
         "7. R1.9 K4+1 8. R9+5 K4+1 *"),
        ("big5", "tandem by file, Big5", "1r2k4/9/9/1r7/9/2p6/2p6/9/9/3K5 b - - 0 1",
         "1... 後車進２ 2. 帥六進一 車２退２ 3. 帥六退一 前卒進１ 4. 帥六進一 車２退２ "
         "5. 帥六退一 車２進２ 6. 帥六進一 後車平１ 7. 帥六退一 車２進６ *"),
        ("utf-8", "tandem by file, horses", "3k5/9/9/9/9/2N6/2P6/2N6/9/4K4 w - - 0 1",
         "1. 马七进八 将４进１ 2. 马八退七 将４退１ 3. 后马退九 将４进１ 4. 马九进七 将４退１ "
         "5. 前马进五 将４进１ *"),
    ]
    with open(out, "wb") as f:
        for encoding, event, fen, movetext in games:
            f.write(f'[Event "{event}"]\n[Game "Chinese Chess"]\n[FEN "{fen}"]\n\n{movetext}\n\n'
                    .encode(encoding))
        f.write(b'[Event "clocks"]\n[White "a"]\n[Black "b"]\n[TimeControl "300+0"]\n\n'
                b"1. e4 { [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } 2. Nf3 { [%clk 0:04:58] } "
                b"2... Nc6 { [%clk 0:04:55] } 1-0\n\n")


def unescaped_pgn(out):
    """Games whose tag pairs are written without escapes (9.4.10), which pgnarc reads as written
    and packs as unescaped tags (coding 13, layout 7) and section 10 writes back as they are: a
    quote left unescaped (`[Event "Cup "A" 1990"]`), a path's one backslash (`[Site
    "C:\\games"]`), a value ending in a backslash, spaces and a tab before the closing quote,
    Big5 characters ending in 5C (許 B3 5C) and the spec's Big5 Event beside a Big5 Xiangqi
    game (codec 14); the same values written with escapes in other games (tags of the same
    column and the same value, not unescaped: the ranks have gaps); an unescaped White value that
    a named Termination (coding 9, written with escapes) begins with, beside the same value
    escaped in another game.  13 of its 15 games have such a pair, 4 of them a quote left
    unescaped (the others' backslashes escape nothing: 9.4.10 reads them as such too)."""
    def big5(text):
        return text.encode("big5")
    games = [
        [(b"Event", b'Cup "A" 1990'), (b"Site", b"C:\\games"), (b"White", b"x")],
        [(b"Event", b'Cup \\"A\\" 1990'), (b"Site", b"C:\\\\games"), (b"White", b"x")],
        [(b"Event", big5('第八屆"銀荔杯"象棋全國冠軍賽')), (b"Game", b"Chinese Chess"),
         (b"Red", big5("許銀川")), (b"Black", big5("呂欽"))],
        [(b"Event", b'A "B" C'), (b"White", b'A "B" C'), (b"Black", b"d"), (b"WhiteElo", b"2400"),
         (b"Termination", b'A \\"B\\" C won on time')],
        [(b"Event", b"e"), (b"White", b'A \\"B\\" C'), (b"Black", b"d"), (b"WhiteElo", b"2410"),
         (b"Termination", b'A \\"B\\" C won on time')],
        [(b"Event", b'a "b" \t'), (b"Site", b"C:\\games\\")],
    ]
    for i in range(9):
        games.append([(b"Event", b"e%d" % i), (b"Site", b"C:\\games" if i % 3 else b"C:\\\\games"),
                      (b"Annotator", b"x\\y%d" % (i % 2))])
    with open(out, "wb") as f:
        for pairs in games:
            xiangqi = (b"Game", b"Chinese Chess") in pairs
            f.write(b"".join(b'[%s "%s"]\n' % pair for pair in pairs) + b"\n"
                    + (big5("1. 炮二平五 馬８進７ *") if xiangqi else b"1. e4 e5 *") + b"\n\n")


def text_dictionary_pgn(out, games=120, seed=112):
    """Games with many comments in prose, as an annotator writes them (9.9, format 1.12: a text
    dictionary), made with moves.py and a fixed seed: 20 to 60 plies of random legal moves from
    the start, a comment in braces after about one ply in five and before the first move of every
    7th game, of sentences that recur from game to game with other words and numbers in them
    (the column form's numbers, 9.3.2), and every 25th game kept verbatim (8.5: an illegal move,
    White's king to e5 at White's fourth move, which no king reaches so soon: the raw section)."""
    import random
    sys.path.insert(0, HERE)
    from moves import Position
    rng = random.Random(seed)
    openers = ["The idea is", "Better was", "White hoped for", "Black should consider",
               "A typical plan here is", "Stronger seems", "The engine prefers", "Not",
               "After the game both players thought of", "Perhaps", "The only move was",
               "More precise is"]
    plans = ["to double rooks on the open file", "the exchange sacrifice on c3",
             "a pawn storm on the kingside", "to trade queens and go for the endgame",
             "a knight manoeuvre to the outpost on d5", "pressure against the backward pawn",
             "to keep the bishop pair", "the break with f5", "castling long",
             "a minority attack with b4 and b5", "to fianchetto the bishop",
             "a quiet move that improves the worst piece"]
    verdicts = ["with a small edge.", "and the position is about equal.", "when Black is fine.",
                "with a clear advantage.", "but it is hard to prove anything.", "winning material.",
                "and the attack is very strong.", "which the engine evaluates as {e}.",
                "as in the game {p} - {q}, {y}.", "after {n} moves of preparation."]
    names = ["Carlsen", "Anand", "Kramnik", "Topalov", "Aronian", "Caruana", "Nakamura", "Giri",
             "So", "Ding", "Nepomniachtchi", "Firouzja", "Rapport", "Duda", "Mamedyarov"]

    def comment():
        sentence = f"{rng.choice(openers)} {rng.choice(plans)} {rng.choice(verdicts)}"
        return "{" + sentence.format(e=f"{rng.choice('+-')}{rng.randrange(300) / 100:.2f}",
                                     p=rng.choice(names), q=rng.choice(names),
                                     y=rng.randrange(1950, 2025), n=rng.randrange(2, 12)) + "}"

    with open(out, "w", encoding="utf-8") as f:
        for k in range(games):
            white, black = rng.sample(names, 2)
            f.write(f'[Event "Annotated {k // 50}"]\n[Site "?"]\n'
                    f'[Date "2026.{k % 12 + 1:02d}.{k % 28 + 1:02d}"]\n[Round "{k + 1}"]\n'
                    f'[White "{white}"]\n[Black "{black}"]\n[Result "*"]\n\n')
            words = [comment()] if k % 7 == 0 else []
            position = Position.standard()
            for ply in range(rng.randrange(20, 61)):
                moves = position.legal_moves()
                if not moves:
                    break
                if k % 25 == 24 and ply == 6:           # kept verbatim: White's fourth move
                    words += [f"{position.fullmove}.", "Ke5"]
                    break
                if position.white_to_move:
                    words.append(f"{position.fullmove}.")
                move = rng.choice(moves)
                words.append(position.san(move))
                position = position.play(move)
                if rng.random() < 0.2:
                    words.append(comment())
            f.write(" ".join(words) + " *\n\n")


def moves_dictionary_pgn(source, out, distinct=20, games=100):
    """Games that repeat the moves of others under other tags (9.9, format 1.13: a moves
    dictionary): the movetexts of the first `distinct` games of `source` (corpus/pgn's lichess
    export: a clock and evaluation comment after every ply, a clock track, 8.3.2), game k (from
    0) taking those of game 7k + (k div 20) mod `distinct`, so that no two blocks of 10 games are
    alike, under tags of its own (Event, Round, White, Black; the Result of the game whose moves
    it takes) and after a comment of its own before the first move (texts of about 100 bytes a
    game, which take a text dictionary besides, format 1.12)."""
    with open(source, "rb") as f:
        text = f.read().replace(b"\r\n", b"\n")
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", text)] + [len(text)]
    bodies = []
    for a, b in zip(starts, starts[1:distinct + 1]):
        head, _, body = text[a:b].partition(b"\n\n")
        bodies.append((re.search(rb'\[Result "([^"]*)"\]', head).group(1), body.strip()))
    with open(out, "wb") as f:
        for k in range(games):
            n = (7 * k + k // 20) % distinct
            result, body = bodies[n]
            f.write(b'[Event "Repeated %d"]\n[Site "?"]\n[Round "%d"]\n[White "White %d"]\n'
                    b'[Black "Black %d"]\n[Result "%s"]\n\n{The moves of game %d of the lichess '
                    b'export, played again under other names in round %d.} %s\n\n'
                    % (k // distinct, k + 1, k, k, result, n + 1, k + 1, body))


def xiangqi_crafted_pgn(source, out, seed=18):
    """Xiangqi games for 7.9's corners, in ICCS, made from the games of `source` (corpus/xiangqi,
    ICCS) with xiangqi.py and a fixed seed: variations (nested, of Red's and of Black's plies:
    XQ-MODEL-2's history of the ply they replace), comments and NAGs, a game from a FEN (first
    ply without history), a counted main line (PlyCount), unannotated lines that a mate ends (the
    end alone, of frequency 1) and of more than 256 plies (the hazard H at p >= 255)."""
    import random
    import re
    sys.path.insert(0, HERE)
    from xiangqi import XiangqiPosition, move_name, parse_move
    rng = random.Random(seed)
    with open(source, encoding="utf-8") as f:
        bodies = [b for b in f.read().split("\n\n") if b.strip() and not b.startswith("[")]
    base = [[parse_move(m) for m in re.findall(r"\b[a-i][0-9][a-i][0-9]\b", b)] for b in bodies]

    def playout(position, n, mate_first):
        """n plies at most of random legal moves; a mate wherever one is legal if mate_first."""
        line = []
        for _ in range(n):
            moves = position.legal_moves()
            if not moves:
                break
            mates = [m for m in moves if mate_first and not position.play(m).legal_moves()]
            m = mates[0] if mates else rng.choice(moves)
            line.append(m)
            position = position.play(m)
        return line

    def movetext(position, line, depth=0, plain=False):
        words, number = [], True
        for m in line:
            if position.red_to_move:
                words.append(f"{position.fullmove}.")
            elif number:
                words.append(f"{position.fullmove}...")
            number = False
            words.append(move_name(m))
            if not plain and rng.random() < 0.05:
                words.append(rng.choice(["$1", "$2", "{a comment}"]))
            if not plain and depth < 3 and rng.random() < 0.12:
                others = [a for a in position.legal_moves() if a != m]
                if others:
                    a = rng.choice(others)
                    sub = [a] + playout(position.play(a), rng.randrange(9), False)
                    words.append("(" + movetext(position, sub, depth + 1) + ")")
                    number = True
            position = position.play(m)
        return " ".join(words)

    start = XiangqiPosition.start()
    games = []
    for k, line in enumerate(base):
        tags = [("Event", f"crafted {k}"), ("Game", "Chinese Chess")]
        if k % 5 == 2:                                  # a FEN start, the game's rest
            position = start
            for m in line[:20]:
                position = position.play(m)
            tags.append(("FEN", position.fen()))
            games.append((tags, movetext(position, line[20:]) + " *"))
        elif k % 5 == 3:                                # a counted main line
            tags.append(("PlyCount", str(len(line))))
            games.append((tags, movetext(start, line, plain=True) + " *"))
        else:                                           # variations, comments and NAGs
            games.append((tags, movetext(start, line) + " *"))
    for k in range(6):                                  # unannotated, to a mate or 300 plies
        line = playout(start, 300, mate_first=k % 2 == 0)
        games.append(([("Event", f"playout {k}"), ("Game", "Chinese Chess")],
                      movetext(start, line, plain=True) + " *"))
    with open(out, "w", encoding="utf-8") as f:
        for tags, body in games:
            f.write("".join(f'[{key} "{value}"]\n' for key, value in tags) + "\n" + body + "\n\n")


def first_games(path, n, out):
    """The first n games of a PGN file (split before each `[Event `), written to out."""
    with open(path, "rb") as f:
        text = f.read()
    starts = [i for i in range(len(text)) if text.startswith(b"[Event ", i)
              and (i == 0 or text[i - 1:i] == b"\n")][:n + 1]
    with open(out, "wb") as f:
        f.write(text[:starts[n]] if len(starts) > n else text)


def test_samples(pgnarc, samples, failures):
    """--sample PGN N: the first N games, packed with the fast coder and with the model coder
    (sections stored), decoded whole by decode.py exactly as pgnarc unpack writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        for path, n in samples:
            pgn = os.path.join(tmp, "sample.pgn")
            first_games(path, n, pgn)
            for coder, options in (("fast", ["--moves", "fast"]), ("model", ["--moves", "model"])):
                archive = os.path.join(tmp, "s.pga")
                rc, _, err = run([pgnarc, "pack", pgn, "-o", archive, "--force", "-q", "--store"]
                                 + options)
                if rc != 0:
                    failures.append(f"sample {path} {n} [{coder}]: pgnarc pack fails: {err}")
                    continue
                _, info, _ = run([pgnarc, "info", archive])
                games = int(info.split(b"games:")[1].split()[0]) if b"games:" in info else 0
                _, coder_byte = first_block_codec_and_coder(archive)
                rc, expected, err = run([pgnarc, "unpack", archive, "-o", "-"])
                start = time.perf_counter()
                rc2, out, err2 = run(DECODE + [archive])
                seconds = time.perf_counter() - start
                same = rc == rc2 == 0 and out == expected
                print(f"sample {os.path.basename(path)}, first {n}: {games} games, move coder "
                      f"{coder_byte}: decode.py {'identical to' if same else 'DIFFERS from'} "
                      f"pgnarc unpack ({len(out)} bytes, {seconds:.0f} s)")
                if not same:
                    failures.append(f"sample {path} {n} [{coder}]: rc {rc}/{rc2} {err2}")


def main(argv):
    if len(argv) < 2:
        print("usage: test_decode.py PATH/TO/pgnarc [--quick] [--part K/N] [--sample PGN N ...]",
              file=sys.stderr)
        return 2
    samples = [(argv[i + 1], int(argv[i + 2])) for i in range(len(argv))
               if argv[i] == "--sample"]
    part = (1, 1)
    if "--part" in argv:
        k, n = argv[argv.index("--part") + 1].split("/")
        part = (int(k), int(n))
        if not 1 <= part[0] <= part[1]:
            print(f"test_decode.py: --part {k}/{n}: K must be 1 to N", file=sys.stderr)
            return 2
    failures = []
    if samples:
        test_samples(argv[1], samples, failures)
    else:
        if part[0] == 1:
            test_valid(failures)
            test_invalid(failures)
        test_black_box(argv[1], failures, "--quick" in argv, part)
    if failures:
        print(f"\n{len(failures)} failures:")
        print("\n".join("  " + f for f in failures))
        return 1
    print("all tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
