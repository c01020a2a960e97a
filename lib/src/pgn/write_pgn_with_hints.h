// Writing PGN with SAN hints from the decoder (internal; see codec/record/decode_game_with_hints.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::pgn {

// write_pgn for a game whose moves come with decode_game_with_hints's hints: the moves are taken
// as legal and their SAN is built from the hints alone (no board is kept: only the side to move
// and the move number); the output is write_pgn's, byte for byte.
Status write_pgn_with_hints(const Game& game, const std::vector<std::uint8_t>& hints, std::string& out);

}  // namespace pgnarc::pgn
