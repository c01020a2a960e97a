// Decoding with SAN hints (internal): the decoder generates every position's legal moves
// anyway, which is all SAN needs beyond the board; writing PGN from these hints saves
// generating them a second time.
#pragma once

#include <cstdint>
#include <vector>

#include "codec/codec.h"

namespace pgnarc::codec {

// decode_game, also giving one hint per move of the game, in event order (a SAN note, san_note in
// rules/movegen.h: disambiguation, check suffix, capture and moving piece), for
// write_pgn_with_hints (pgn/write_pgn_with_hints.h), which then needs no board.
Result<ArchiveGame> decode_game_with_hints(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>& hints);

}  // namespace pgnarc::codec
