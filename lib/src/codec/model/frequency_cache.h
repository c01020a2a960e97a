// The move model's frequencies of positions met again (internal). Games repeat their openings'
// positions: 14% of TWIC's plies and 20% of lichess 2016's reach a position, with the same
// history (model::History), that an earlier ply of the file reached. A thread keeps the
// frequencies of the positions it scored last, each under its whole key (every fact of the
// position and history the model reads, compared in full: a hash only picks the slot), so that
// what it gives is model::frequencies(), always.
#pragma once

#include <cstdint>
#include <memory>

#include "codec/model/move_model.h"

namespace pgnarc::codec::model {

// Everything model::frequencies() reads of a position and its history (the legal moves follow
// from the position), in a form compared byte for byte.
struct FrequencyKey {
  Bitboard by_type[6];  // pawns .. kings
  Bitboard white;
  std::uint8_t side, ep, chess960, variant;
  std::uint8_t castle_rook[4];
  // The fullmove number up to 21: the model's phase tells the moves up to 10 and up to 20
  // from the later ones, and nothing else reads it.
  std::uint8_t fullmove;
  std::uint8_t last_from, last_to, our_last_from, our_last_to, last_captured, our_last_captured, last_type;
};

FrequencyKey frequency_key(const Position& pos, const History& history);

// A direct-mapped table of `slots` (a power of two) positions' frequencies (those of at most
// kMovesKept legal moves).
class FrequencyCache {
 public:
  static constexpr int kMovesKept = 64;
  explicit FrequencyCache(unsigned slots);
  ~FrequencyCache();
  // model::frequencies(pos, t, history, freq) with the model's own weights: remembered, or
  // computed and remembered.
  std::uint32_t frequencies(const Position& pos, const rules::PieceTargets& t,
                            const History& history, std::uint32_t* freq);

 private:
  struct Slot;
  std::unique_ptr<Slot[]> slots_;
  unsigned mask_;
};

// model::frequencies() of a position at `ply` of a line (plies played in it before), through
// this thread's cache (8192 positions) for the first kPliesRemembered plies: 97% of TWIC's
// positions met again and 99.7% of lichess 2016's are among those plies (the later plies of a
// game reach positions no other game does, and would push the openings out).
inline constexpr std::uint64_t kPliesRemembered = 20;
std::uint32_t remembered_frequencies(const Position& pos, const rules::PieceTargets& t, const History& history,
                                     std::uint64_t ply, std::uint32_t* freq);

}  // namespace pgnarc::codec::model
