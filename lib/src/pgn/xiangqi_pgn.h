// Reading games that may be Xiangqi games (internal to the pgn layer).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/pgn.h"

namespace pgnarc::pgn {

// parse_game, and a game whose tags name Xiangqi (rules/xiangqi_game.h, names_xiangqi) is read
// as a Xiangqi game: its moves in ICCS, WXF or Chinese notation (the game's first move tells
// which, unless a Format tag does), reported through the visitor's Xiangqi events. A move that is
// not legal, or whose text the game's notation bytes cannot give back byte for byte, makes the
// game a game in error, as an illegal move does in chess.
void parse_game_or_xiangqi(std::string_view text, const std::string& source, std::uint64_t number,
                           SourcePos start, PgnVisitor& visitor, Variant untagged = Variant::kStandard);

}  // namespace pgnarc::pgn
