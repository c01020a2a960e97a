// Fuzz target: share tokens (spec 14, chess and Xiangqi) of arbitrary text. Bad text is an error,
// never a crash; a text that opens gives a game whose own token opens to the same game (a reader may accept a
// token that this writer would spell otherwise, such as a start position coded by its squares
// that the writer would derive).
#include <cstdint>
#include <string>

#include "pgnarc/game.h"
#include "pgnarc/share.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto game = pgnarc::open_share_token(text);
  if (!game) return 0;
  auto token = pgnarc::share_token(*game);
  if (!token) __builtin_trap();
  auto again = pgnarc::open_share_token(*token);
  if (!again || again->events != game->events || again->result != game->result) __builtin_trap();
  if (game->rules == pgnarc::GameRules::kXiangqi) {  // (a Xiangqi start: its FEN, as the token gives it)
    auto fen = pgnarc::fen_after(*game, 0), fen_again = pgnarc::fen_after(*again, 0);
    if (again->rules != game->rules || !fen || !fen_again || *fen != *fen_again) __builtin_trap();
    return 0;
  }
  auto start = pgnarc::start_position(game->tags), start_again = pgnarc::start_position(again->tags);
  if (!start || !start_again || !pgnarc::same_position(*start, *start_again)) __builtin_trap();
  return 0;
}
