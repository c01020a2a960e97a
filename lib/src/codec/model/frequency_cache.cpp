// The move model's frequencies of positions met again (frequency_cache.h).
#include "codec/model/frequency_cache.h"

#include <cstring>

#include "common/hash.h"

namespace pgnarc::codec::model {

using common::hash64;
using rules::PieceTargets;

FrequencyKey frequency_key(const Position& pos, const History& history) {
  FrequencyKey k;
  std::memset(&k, 0, sizeof k);  // padding too: keys are compared as bytes
  for (int t = kPawn; t <= kKing; ++t)
    k.by_type[t - kPawn] = pos.pieces(kWhite, static_cast<PieceType>(t)) | pos.pieces(kBlack, static_cast<PieceType>(t));
  k.white = pos.pieces(kWhite);
  k.side = static_cast<std::uint8_t>(pos.side_to_move());
  k.ep = static_cast<std::uint8_t>(pos.ep_square());
  k.chess960 = pos.chess960();
  k.variant = static_cast<std::uint8_t>(pos.variant());
  k.castle_rook[0] = static_cast<std::uint8_t>(pos.castling_rook(kWhite, kKingSide));
  k.castle_rook[1] = static_cast<std::uint8_t>(pos.castling_rook(kWhite, kQueenSide));
  k.castle_rook[2] = static_cast<std::uint8_t>(pos.castling_rook(kBlack, kKingSide));
  k.castle_rook[3] = static_cast<std::uint8_t>(pos.castling_rook(kBlack, kQueenSide));
  k.fullmove = static_cast<std::uint8_t>(pos.fullmove_number() > 21 ? 21 : pos.fullmove_number());
  k.last_from = static_cast<std::uint8_t>(history.last_from);
  k.last_to = static_cast<std::uint8_t>(history.last_to);
  k.our_last_from = static_cast<std::uint8_t>(history.our_last_from);
  k.our_last_to = static_cast<std::uint8_t>(history.our_last_to);
  k.last_captured = history.last_captured;
  k.our_last_captured = history.our_last_captured;
  k.last_type = static_cast<std::uint8_t>(history.last_type);
  return k;
}

struct FrequencyCache::Slot {
  bool used = false;
  std::uint16_t moves = 0;
  std::uint32_t total = 0;
  FrequencyKey key;
  std::uint16_t freq[kMovesKept];
};

FrequencyCache::FrequencyCache(unsigned slots) : slots_(new Slot[slots]), mask_(slots - 1) {}
FrequencyCache::~FrequencyCache() = default;

std::uint32_t FrequencyCache::frequencies(const Position& pos, const PieceTargets& t, const History& history,
                                          std::uint32_t* freq) {
  if (t.total > kMovesKept) return model::frequencies(pos, t, history, freq);
  const FrequencyKey key = frequency_key(pos, history);
  const std::uint64_t h = hash64(std::string_view(reinterpret_cast<const char*>(&key), sizeof key));
  Slot& s = slots_[(h >> 40) & mask_];
  if (s.used && s.moves == t.total && std::memcmp(&s.key, &key, sizeof key) == 0) {
    for (int i = 0; i < t.total; ++i) freq[i] = s.freq[i];
    return s.total;
  }
  const std::uint32_t total = model::frequencies(pos, t, history, freq);
  s.used = true;
  s.moves = static_cast<std::uint16_t>(t.total);
  s.total = total;
  s.key = key;
  // (A frequency is at most kTopFrequency, 4096.)
  for (int i = 0; i < t.total; ++i) s.freq[i] = static_cast<std::uint16_t>(freq[i]);
  return total;
}

std::uint32_t remembered_frequencies(const Position& pos, const PieceTargets& t, const History& history,
                                     std::uint64_t ply, std::uint32_t* freq) {
  if (ply >= kPliesRemembered) return frequencies(pos, t, history, freq);
  static thread_local FrequencyCache cache(8192);
  return cache.frequencies(pos, t, history, freq);
}

}  // namespace pgnarc::codec::model
