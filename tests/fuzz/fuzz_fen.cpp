// Fuzz target: FEN parsing, under standard chess and each variant. A FEN that parses writes back
// to one that parses to the same position; its legal moves are found by index and by SAN, and
// each can be played.
#include <cstdint>
#include <string>

#include "pgnarc/chess.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string fen(reinterpret_cast<const char*>(data), size);
  for (int v = 0; v < pgnarc::kVariantCount; ++v) {
    const auto variant = static_cast<pgnarc::Variant>(v);
    auto p = pgnarc::Position::from_fen(fen, false, variant);
    if (!p) continue;
    auto again = pgnarc::Position::from_fen(p->fen(), p->chess960(), variant);
    if (!again || !(*again == *p)) __builtin_trap();
    const pgnarc::MoveList moves = p->legal_moves();
    if (moves.size != p->legal_move_count()) __builtin_trap();
    for (int i = 0; i < moves.size; ++i) {
      if (p->move_index(moves[i]) != i || !p->is_legal(moves[i])) __builtin_trap();
      if (variant == pgnarc::Variant::kStandard) continue;  // (fuzz_san reads standard chess's SAN)
      auto back = p->parse_san(p->san(moves[i]));
      if (!back || *back != moves[i]) __builtin_trap();
      pgnarc::Position after = *p;
      after.play(moves[i]);
      (void)after.legal_move_count();
    }
  }
  return 0;
}
