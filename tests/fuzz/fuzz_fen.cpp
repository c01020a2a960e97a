// Fuzz target: FEN parsing. A FEN that parses writes back to one that parses to the same position.
#include <cstdint>
#include <string>

#include "pgnarc/chess.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string fen(reinterpret_cast<const char*>(data), size);
  auto p = pgnarc::Position::from_fen(fen);
  if (!p) return 0;
  auto again = pgnarc::Position::from_fen(p->fen(), p->chess960());
  if (!again || !(*again == *p)) __builtin_trap();
  const pgnarc::MoveList moves = p->legal_moves();
  if (moves.size != p->legal_move_count()) __builtin_trap();
  for (int i = 0; i < moves.size; ++i)
    if (p->move_index(moves[i]) != i || !p->is_legal(moves[i])) __builtin_trap();
  return 0;
}
