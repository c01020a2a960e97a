// Decoding with SAN hints (internal): the decoder generates every position's legal moves
// anyway, which is all SAN needs beyond the board; writing PGN from these hints saves
// generating them a second time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codec/codec.h"

namespace pgnarc::codec {

// decode_game, also giving one hint per move of the game, in event order (a SAN note, san_note in
// rules/movegen.h: disambiguation, check suffix, capture and moving piece), for
// write_pgn_with_hints (pgn/write_pgn_with_hints.h), which then needs no board.
// `spare`, where given: strings whose storage the game's rebuilt comments (a clock track's) take
// before any new, for a caller that decodes game after game (recycle_comments gives them back).
Result<ArchiveGame> decode_game_with_hints(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>& hints,
                                            std::vector<std::string>* spare = nullptr);

// Moves the texts of `game`'s comments into `spare` (at most kSpareComments in it), emptied but
// with their storage, for the next game's decode_game_with_hints.
inline constexpr std::size_t kSpareComments = 4096;
void recycle_comments(Game& game, std::vector<std::string>& spare);

}  // namespace pgnarc::codec
