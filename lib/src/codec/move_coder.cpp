// Move symbols (move_coder.h).
#include "codec/move_coder.h"

namespace pgnarc::detail {

void ply_frequencies(MoveCoder coder, bool ends, std::uint64_t ply, const Position& pos, const PieceTargets& t,
                     const model::History& h, PlyFrequencies& out, const std::int8_t* weights,
                     const std::uint32_t* hazard) {
  const int n = t.total;
  out.end = 0;
  out.total = 0;
  if (!ends && n <= 1) return;
  std::uint32_t moves = 0;
  if (n == 0) {
    // no move: only the end (a line of unknown length)
  } else if (coder == MoveCoder::kUniform) {
    for (int i = 0; i < n; ++i) out.freq[i] = model::kTopFrequency;
    moves = model::kTopFrequency * static_cast<std::uint32_t>(n);
  } else {
    moves = model::frequencies(pos, t, h, out.freq, weights);
  }
  // The uniform coder's end: a constant hazard (1/257 of the moves' total), so that its codewords
  // do not depend on the model's tables.
  if (ends) out.end = coder == MoveCoder::kUniform ? (moves >> 8 ? moves >> 8 : 1) : end_frequency(moves, ply, hazard);
  out.total = moves + out.end;
}

}  // namespace pgnarc::detail
