// Decoding with SAN notes (internal): the decoder generates every position's legal moves
// anyway, which is all SAN needs beyond the board; writing PGN from these notes saves
// generating them a second time.
#pragma once

#include <cstdint>
#include <vector>

#include "codec/codec.h"

namespace pgnarc::detail {

// decode_game, also giving one note per move of the game, in event order (san_note,
// rules/movegen.h: disambiguation, check suffix, capture and moving piece), for
// write_pgn_noted (pgn/noted.h), which then needs no board.
Result<DecodedGame> decode_game_noted(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>& notes);

}  // namespace pgnarc::detail
