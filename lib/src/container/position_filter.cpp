#include "container/position_filter.h"

#include <algorithm>
#include <bit>

#include "common/bytes.h"
#include "common/hash.h"

namespace pgnarc::container {

namespace {

// The value of `key` in [0, range): floor(key * range / 2^64), the high half of the product.
std::uint64_t scaled(std::uint64_t key, std::uint64_t range) {
  const std::uint64_t a_lo = key & 0xFFFFFFFFu, a_hi = key >> 32, b_lo = range & 0xFFFFFFFFu, b_hi = range >> 32;
  const std::uint64_t low = a_lo * b_lo, cross1 = a_lo * b_hi, cross2 = a_hi * b_lo;
  const std::uint64_t middle = (low >> 32) + (cross1 & 0xFFFFFFFFu) + (cross2 & 0xFFFFFFFFu);
  return a_hi * b_hi + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32);
}

}  // namespace

std::uint64_t filter_key(const Position& p) {
  std::string bytes;
  for (Color c : {kWhite, kBlack}) {
    const Bitboard pawns = p.pieces(c, kPawn);
    for (int i = 0; i < 8; ++i) bytes += static_cast<char>(pawns >> (8 * i));
  }
  for (Color c : {kWhite, kBlack})
    for (PieceType t : {kKnight, kBishop, kRook, kQueen}) bytes += static_cast<char>(std::popcount(p.pieces(c, t)));
  return common::hash64(bytes);
}

int progress(const Position& p) {
  int moves = 32 - std::popcount(p.occupied());
  for (Color c : {kWhite, kBlack})
    for (Bitboard b = p.pieces(c, kPawn); b; b &= b - 1) {
      const int rank = rank_of(static_cast<Square>(std::countr_zero(b)));
      const int k = c == kWhite ? rank + 1 : 8 - rank;  // from its side's first rank, 1 to 8
      moves += k <= 2 ? 0 : k <= 4 ? 1 : k - 3;
    }
  return moves;
}

void add_filter_keys(const Game& game, std::vector<std::uint64_t>& keys) {
  auto start = start_position(game);
  if (!start) return;
  Position pos = *start;
  const std::size_t before = keys.size();
  const auto add = [&] {
    if (progress(pos) >= kFilterMinProgress) keys.push_back(filter_key(pos));
  };
  add();
  int depth = 0;
  for (const GameEvent& e : game.events) {
    if (e.type == GameEvent::kBeginVariation) ++depth;
    else if (e.type == GameEvent::kEndVariation) --depth;
    if (depth != 0) continue;
    if (e.type == GameEvent::kNullMove) {
      pos.play_null();
      add();
    } else if (e.type == GameEvent::kMove) {
      if (!pos.is_legal(e.move)) {
        keys.resize(before);
        return;
      }
      pos.play(e.move);
      add();
    }
  }
}

std::string make_filter(std::vector<std::uint64_t> keys) {
  if (keys.empty()) return {};
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const std::uint64_t range = keys.size() << kFilterRiceBits;
  std::vector<std::uint64_t> values;
  values.reserve(keys.size());
  for (std::uint64_t k : keys) values.push_back(scaled(k, range));
  values.erase(std::unique(values.begin(), values.end()), values.end());  // (sorted: the scaling keeps order)
  std::string out;
  common::put_varint(out, values.size());
  common::put_varint(out, range);
  out += static_cast<char>(kFilterRiceBits);
  std::uint64_t bits = 0;
  const auto put = [&](unsigned bit) {
    if ((bits & 7) == 0) out += '\0';
    if (bit) out.back() = static_cast<char>(static_cast<unsigned char>(out.back()) | (0x80u >> (bits & 7)));
    ++bits;
  };
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint64_t gap = i == 0 ? values[0] : values[i] - previous - 1;
    previous = values[i];
    for (std::uint64_t q = gap >> kFilterRiceBits; q > 0; --q) put(1);
    put(0);
    for (int b = kFilterRiceBits - 1; b >= 0; --b) put((gap >> b) & 1);
  }
  return out;
}

bool filter_holds(std::string_view filter, std::vector<std::uint64_t> keys, bool& bad) {
  bad = true;
  common::ByteCursor r(filter);
  std::uint64_t n = 0, range = 0;
  std::uint8_t k = 0;
  if (!r.varint(n) || !r.varint(range) || !r.u8(k) || n == 0 || range < n || k > 32 || n > 8 * r.remaining())
    return false;
  // The keys' values, ascending, met one after the other as the codes give the filter's.
  for (std::uint64_t& key : keys) key = scaled(key, range);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::size_t next = 0;
  bool missing = false;
  const std::string_view codes = filter.substr(filter.size() - r.remaining());
  const std::uint64_t total = 8 * codes.size();
  std::uint64_t at = 0;
  const auto bit = [&]() -> int {
    if (at >= total) return -1;
    const unsigned b = (static_cast<unsigned char>(codes[at >> 3]) >> (7 - (at & 7))) & 1u;
    ++at;
    return static_cast<int>(b);
  };
  std::uint64_t value = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t q = 0;
    for (int b; (b = bit()) != 0; ++q)
      if (b < 0) return false;
    std::uint64_t rest = 0;
    for (int j = 0; j < k; ++j) {
      const int b = bit();
      if (b < 0) return false;
      rest = rest << 1 | static_cast<unsigned>(b);
    }
    if (q > (range - 1) >> k) return false;  // (q << k) alone would pass the range
    const std::uint64_t gap = (q << k) | rest;
    if (gap >= range || (i > 0 && gap >= range - value - 1)) return false;
    value = i == 0 ? gap : value + gap + 1;
    for (; next < keys.size() && keys[next] < value; ++next) missing = true;  // passed without holding it
    if (next < keys.size() && keys[next] == value) ++next;
  }
  // After the last code: only the 0 bits that fill its byte.
  if (total - at >= 8) return false;
  for (int b; (b = bit()) >= 0;)
    if (b) return false;
  bad = false;
  return !missing && next == keys.size();
}

}  // namespace pgnarc::container
