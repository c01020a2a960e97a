// Writing PGN with SAN notes from the decoder (internal; see codec/noted.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::detail {

// write_pgn for a game whose moves come with decode_game_noted's notes: the moves are taken as
// legal and their SAN is built from the notes alone (no board is kept: only the side to move
// and the move number); the output is write_pgn's, byte for byte.
Status write_pgn_noted(const Game& game, const std::vector<std::uint8_t>& notes, std::string& out);

}  // namespace pgnarc::detail
