// Move symbols (move_coder.h).
#include "codec/entropy/move_coder.h"

#include <cassert>

#include "codec/entropy/arith_coder.h"
#include "codec/model/fast_model.h"
#include "codec/model/frequency_cache.h"
#include "codec/model/variant_model.h"
#include "codec/model/xiangqi_book.h"

namespace pgnarc::codec {

using rules::generate_targets;
using rules::PieceTargets;

void put_codeword(const std::vector<PlySymbol>& symbols, std::string& bytes, std::uint64_t& bits) {
  ArithEncoder coder(BitSink{bytes, bits});
  for (const PlySymbol& y : symbols) coder.encode(y.c, y.f, y.total);
  coder.finish();
}

void uniform_frequencies(bool ends, int moves, PlyFrequencies& out) {
  out.end = 0;
  out.total = 0;
  if (!ends && moves <= 1) return;
  const std::uint32_t total = model::kTopFrequency * static_cast<std::uint32_t>(moves);
  for (int i = 0; i < moves; ++i) out.freq[i] = model::kTopFrequency;
  // A constant hazard (1/257 of the moves' total), so that the codewords do not depend on the
  // model's tables.
  if (ends) out.end = total >> 8 ? total >> 8 : 1;
  out.total = total + out.end;
}

void ply_frequencies(MoveCoder coder, bool ends, std::uint64_t ply, const Position& pos, const PieceTargets& t,
                     const model::History& h, PlyFrequencies& out, const std::int8_t* weights,
                     const std::uint32_t* hazard) {
  const int n = t.total;
  if (coder == MoveCoder::kUniform) return uniform_frequencies(ends, n, out);
  out.end = 0;
  out.total = 0;
  if (!ends && n <= 1) return;
  // (With no move, only the end: a line of unknown length.)
  const std::uint32_t moves = n == 0                               ? 0
                              : coder == MoveCoder::kFast         ? fast::frequencies(pos, t, h, out.freq)
                              : weights == model::kWeights.data() ? model::remembered_frequencies(pos, t, h, ply, out.freq)
                                                                  : model::frequencies(pos, t, h, out.freq, weights);
  if (ends) out.end = end_frequency(moves, ply, hazard);
  out.total = moves + out.end;
}

void variant_frequencies(MoveCoder coder, bool ends, std::uint64_t ply, const model::LineState& at,
                         const MoveList& list, PlyFrequencies& out) {
  const Variant v = at.pos.variant();
  const int n = list.size;
  // (A side whose king was taken, after a null move in check, still moves in three-check and
  // king of the hill; the move model knows no such position: it is coded uniformly.)
  const bool standard_moves = (v == Variant::kThreeCheck || v == Variant::kKingOfTheHill) &&
                              at.pos.pieces(at.pos.side_to_move(), kKing);
  if (coder == MoveCoder::kUniform || (!standard_moves && v != Variant::kCrazyhouse))
    return uniform_frequencies(ends, n, out);
  out.end = 0;
  out.total = 0;
  if (!ends && n <= 1) return;
  std::uint32_t moves = 0;
  if (n > 0 && standard_moves) {
    // Three-check's and king of the hill's moves, while the game goes on, are standard chess's
    // in the same order: the move model's frequencies.
    PieceTargets t;
    generate_targets(at.pos, t);
    assert(t.total == n);
    moves = coder == MoveCoder::kFast ? fast::frequencies(at.pos, t, at.history, out.freq)
                                      : model::remembered_frequencies(at.pos, t, at.history, ply, out.freq);
  } else if (n > 0) {
    moves = model::zh::frequencies(at.pos, list, at.history, out.freq);
  }
  if (ends) out.end = end_frequency(moves, ply);
  out.total = moves + out.end;
}

bool xiangqi_frequencies(bool modelled, bool booked, bool ends, std::uint64_t ply, const rules::xiangqi::Position& pos,
                         const rules::xiangqi::MoveList& list, const model::xq::History& h, PlyFrequencies& out) {
  const int n = list.size;
  if (!modelled) return uniform_frequencies(ends, n, out), false;
  out.end = 0;
  out.total = 0;
  if (!ends && n <= 1) return false;
  const model::BookNode* node = booked && n > 0 ? model::xq::book_node(pos) : nullptr;
  const std::uint32_t moves = n == 0 ? 0
                              : node ? model::book_frequencies(*node, n, out.freq)
                                     : model::xq::frequencies(pos, list, h, out.freq);
  if (ends) out.end = end_frequency(moves, ply);
  out.total = moves + out.end;
  return node != nullptr;
}

}  // namespace pgnarc::codec
