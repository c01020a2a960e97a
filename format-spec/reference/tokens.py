#!/usr/bin/python3
"""Reference decoder for pgnarc: share tokens (section 14), written from
format-spec/pgnarc-format.md and its appendix xiangqi-position-table.md alone.

A share token is a game's main line, its start if it is set up, and its result, in base64url.
Version 1 holds a game of chess: its start as one value of a position column (9.4.4) and its
moves under the uniform coder or the move model (7.5, 7.6).  Version 3 holds a game of Xiangqi
(5.7): its start as one Xiangqi position value (5.7.3) and its moves under the uniform coder's
frequencies (5.7.2) or the Xiangqi model (7.9).  Either way the game is given back as the
canonical PGN (section 10) with the tags section 14 lists.

    tokens.py TOKEN ...      writes each token's game as canonical PGN to standard output

A token a reader must reject (TOKEN-1, XQ-POS-1) ends it with exit status 1 and a message naming
the requirement.

What this file reuses: the arithmetic decoder (7.3), the chess rules, SAN, the move model, its
end hazard and the position code of 9.4.4 from moves.py (`open_share_token` there reads
version 1 tokens alone; this file reads both versions with one frame); the rules of Xiangqi
(5.7) and its ICCS move text (5.7.1) from xiangqi.py; the Xiangqi model (7.9) from
xiangqi_model.py; a line's plies and the canonical PGN (section 10: `Line`, `Game`,
`game_pgn`) and the uniform coder's frequencies of a Xiangqi game (`xiangqi_frequencies`,
`xiangqi_end_frequency`, 5.7.2) from decode.py; the Xiangqi position value (5.7.3,
`XiangqiPositionCodeReader`) with its square table from xiangqi_position.py, which decode.py's
Xiangqi position columns (9.4.9) share.  What is new here: section 14's frame.

Public interface
----------------
open_token(token) -> Game          section 14 (TOKEN-1): the game a share token holds, a
                                   decode.Game whose `main` Line has its moves
token_pgn(token) -> bytes          its canonical PGN (section 10)
XiangqiPositionCodeReader, XQ_SQUARE_TABLE
                                   5.7.3, from xiangqi_position.py (imported here)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from moves import (NO_HISTORY, ArithmeticDecoder, FormatError, Position, PositionCodeReader,
                   KEPT_AS_TEXT, base64url_decode, corrupt, end_frequency, move_frequencies)
from xiangqi import XiangqiPosition, read_notation
# 5.7.3's reader, shared with decode.py's Xiangqi position columns (9.4.9); its tables and
# helpers are imported here too, for test_tokens.py (T.XQ_SQUARE_TABLE, T.MOST, ...).
from xiangqi_position import XiangqiPositionCodeReader
from xiangqi_position import (MOST, SETS_ORDER, XQ_SQUARE_TABLE, XQ_SYMBOLS,  # noqa: F401
                              binomial, symbol_piece)
from xiangqi_model import XQ_NO_HISTORY, xq_end_frequency, xq_model_frequencies
from decode import Game, Line, game_pgn, xiangqi_end_frequency, xiangqi_frequencies


# ---------------------------------------------------------------------------------------------
# Share tokens (section 14)
# ---------------------------------------------------------------------------------------------

CHESS, XIANGQI = 1, 3                          # the versions; other values reserved
RESULTS = (None, b"1-0", b"0-1", b"1/2-1/2", b"*")        # bits 4-6 of the flags; 5-7 reserved
ICCS_NOTATION = read_notation(bytes([0x14]))   # 5.7.1 ICCS: letter case 1 (lower), hyphen 1 (no)
HEADER_BITS = 16                               # the codeword starts at byte 2's first bit


def open_token(token):
    """Section 14 [TOKEN-1]: the game a share token holds, as a decode.Game (tags, main line,
    result), or FormatError ("corrupt") for a token a reader must reject."""
    data = base64url_decode(token)                       # TOKEN-1: characters, length, bits
    if len(data) < 1 or data[0] not in (CHESS, XIANGQI):
        raise corrupt("TOKEN-1", f"version {data[0] if data else 'missing'} (1 and 3 defined)")
    version = data[0]
    if len(data) < 2:
        raise corrupt("TOKEN-1", "a version byte without flags")
    flags = data[1]
    coder = flags & 3                                    # bits 0-1: 0 uniform, 1 model
    setup = bool(flags & 4)                              # bit 2: the start is set up
    chess960 = bool(flags & 8)                           # bit 3: Chess960 (reserved in 3)
    result_code = (flags >> 4) & 7                       # bits 4-6: the result
    if coder > 1:
        raise corrupt("TOKEN-1", f"move coder {coder} (reserved)")
    if result_code > 4:
        raise corrupt("TOKEN-1", f"result {result_code} (reserved)")
    if flags & 0x80:
        raise corrupt("TOKEN-1", "flag bit 7 set (reserved)")
    if version == XIANGQI and chess960:
        raise corrupt("TOKEN-1", "flag bit 3 set in a token of version 3 (reserved)")

    decoder = ArithmeticDecoder(data, HEADER_BITS)       # 7.3 start(16)
    result = RESULTS[result_code]
    # The start: a set-up start's value (9.4.4 or 5.7.3, of a coder at its start), else the
    # standard start position (5.1; bit 3 changes no move) or Xiangqi's (5.7).
    start_fen = None
    if version == CHESS:
        if setup:
            try:
                value = PositionCodeReader().read_value(decoder)
            except FormatError as e:
                if e.rule != "TAGS-6":
                    raise
                # TOKEN-1: "a start position ... that is not a FEN (5.2)"; TAGS-6 lists the rest
                raise corrupt("TOKEN-1", f"start position: {str(e).split('] ', 1)[-1]} (as "
                                         f"TAGS-6 says of a position column's value)")
            if value.form == KEPT_AS_TEXT:
                raise corrupt("TOKEN-1", "a start position kept as text")
            start_fen, start = value.fen, value.position
        else:
            start = Position.standard()
        main = Line(0)
        main.histories = [NO_HISTORY]                    # 7.6.1: the history starts empty
    else:
        if setup:
            text, start = XiangqiPositionCodeReader().read_value(decoder)
            start_fen = text.encode("ascii")
        else:
            start = XiangqiPosition.start()
        main = Line(0, ICCS_NOTATION)                    # moves written in ICCS (5.7.1)
        main.histories = [XQ_NO_HISTORY]                 # XQ-MODEL-2: both parts none
    main.positions = [start]

    # The main line: an unannotated line that is not counted (7.1 MOVE-SYM-2, 7.2 decode_line):
    # at each ply p the end, then the legal moves (section 6 or 5.7's order), with the
    # frequencies of the coder bits 0-1 give.
    p = 0
    while True:
        position, history = main.positions[-1], main.histories[-1]
        moves = position.legal_moves()
        if version == CHESS:
            freqs = move_frequencies(coder, position, history, moves)      # 7.5, 7.6
            end = end_frequency(coder, sum(freqs), p, position)
        elif coder == 1:                                 # the Xiangqi model (7.9, XQ-MODEL-1)
            freqs = xq_model_frequencies(position, history, moves)
            end = xq_end_frequency(sum(freqs), p)
        else:                                            # the uniform coder's (5.7.2)
            freqs = xiangqi_frequencies(moves)
            end = xiangqi_end_frequency(sum(freqs))
        k = decoder.read([end] + freqs)                  # MOVE-AC-2
        if k == 0:
            break
        if p == 2 ** 16:
            raise corrupt("TOKEN-1", "a codeword of more than 2^16 plies (MOVE-SYM-2)")
        main.play(moves[k - 1])                          # history (7.6.1, XQ-MODEL-2) and text
        p += 1
    main.plies = p

    # The codeword's end: its closing bits (MOVE-AC-3), then 0 bits to the end of its last
    # byte, and no more bytes.
    length = decoder.finish()
    end_bit = HEADER_BITS + length
    if len(data) > (end_bit + 7) // 8:
        raise corrupt("TOKEN-1", f"{len(data) - (end_bit + 7) // 8} bytes after the codeword")
    if len(data) < (end_bit + 7) // 8:
        raise corrupt("TOKEN-1", "the codeword runs past the token's last byte")
    if any(decoder.bit(i) for i in range(end_bit, 8 * len(data))):
        raise corrupt("TOKEN-1", "bits after the codeword are not 0")

    # Section 14: the game's tags, in this order; its termination marker is the result.
    if version == CHESS:
        tags = [(b"Event", b"?"), (b"Site", b"?"), (b"Date", b"????.??.??"), (b"Round", b"?"),
                (b"White", b"?"), (b"Black", b"?"), (b"Result", result or b"*")]
        if start_fen is not None:
            tags += [(b"SetUp", b"1"), (b"FEN", start_fen)]
        if chess960:
            tags.append((b"Variant", b"Chess960"))
    else:
        tags = [(b"Game", b"Chinese Chess"), (b"Event", b"?"), (b"Site", b"?"),
                (b"Date", b"????.??.??"), (b"Round", b"?"), (b"Red", b"?"), (b"Black", b"?"),
                (b"Result", result or b"*")]
        if start_fen is not None:
            tags.append((b"FEN", start_fen))
        tags.append((b"Format", b"ICCS"))
    game = Game(tags)
    game.xiangqi = version == XIANGQI
    game.main = main
    game.result = result
    return game


def token_pgn(token):
    """The canonical PGN (section 10) of the game a share token holds (section 14)."""
    return game_pgn(open_token(token))


def main(argv):
    if len(argv) < 2:
        print("usage: tokens.py TOKEN ...", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    for token in argv[1:]:
        try:
            out.write(token_pgn(token))
        except FormatError as e:
            out.flush()
            print(f"tokens.py: {e.kind}: {e}: {token}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
