// The mixed-radix line integer (internal): a line's moves as one integer of legal-move indices,
//   G = m0 + n0 * (m1 + n1 * (m2 + ...))      (first ply least significant),
// where mi is the played move's index among the ni legal moves of ply i, stored as the minimal
// little-endian bytes of G (format specification, "Move integers"). Plies with one legal move
// have no digit.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pgnarc::detail {

// One digit: (index of the played move, number of legal moves).
using MoveDigit = std::pair<std::uint32_t, std::uint32_t>;

// Appends the minimal little-endian bytes of G over `digits` (first ply first), with a varint
// length before them. `log2_bases` receives the sum of log2(n) over the digits (the entropy
// bound, a figure for reports that decides no byte).
void put_integer(std::string& out, const std::vector<MoveDigit>& digits, double& log2_bases);

// A minimal integer has no zero byte on top (G = 0 has no bytes at all).
inline bool is_minimal_integer(std::string_view bytes) { return bytes.empty() || bytes.back() != 0; }

// Reads digits off an integer: next(n) returns G mod n and divides G by n in one pass over G's
// limbs, most significant first. Limbs hold 48 bits so that the partial dividend (remainder *
// 2^48 + limb) stays below 2^56; for such dividends and bases up to 256 (a position has at most
// 218 legal moves) the quotient is the high word of a product with ceil(2^64 / n) (Granlund and
// Montgomery, "Division by invariant integers using multiplication", 1994, theorem 4.2 with
// N = 56, l = 8), so no division instruction is needed.
//
// The pass is a chain of dependent multiplications, and the digit it leaves at its end is what
// the next move waits for. So the digit is also computed beside it, from independent products:
// G mod n = (sum of limb_i * (2^(48 i) mod n)) mod n, with a table of those weights for the
// first 64 limbs (decode +6%; the longest games, past 3,072 bits, take the chain's digit).
// Limbs are kept in groups of four (the top group padded with zero limbs, which divide to zero),
// so that the pass is an unrolled loop whose trip count changes once per about 190 bits of the
// integer rather than once per 48 (fewer mispredicted loop exits: decode +2%).
// The limbs live in a buffer reused from game to game.
__extension__ typedef unsigned __int128 Uint128;  // GCC and Clang; -Wpedantic knows it is an extension

class DigitReader {
 public:
  static constexpr int kLimbBits = 48;
  static constexpr std::uint32_t kMaxFastBase = 256;
  static constexpr std::size_t kGroup = 4;
  static constexpr std::size_t kWeightLimbs = 64;

  // Takes the bytes of a minimal integer (is_minimal_integer).
  void load(std::string_view bytes) {
    const std::size_t limbs = (bytes.size() + 5) / 6;
    size_ = (limbs + kGroup - 1) / kGroup * kGroup;
    limbs_.assign(size_, 0);
    for (std::size_t i = 0; i < bytes.size(); ++i)
      limbs_[i / 6] |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[i])) << (8 * (i % 6));
  }
  // The next digit of base n: returns G mod n and leaves G / n.
  std::uint32_t next(std::uint32_t n) {
    std::uint64_t* const limb = limbs_.data();
    std::uint64_t r = 0;
    if (n > kMaxFastBase) {  // not reached by legal move counts; kept so that the reader is total
      for (std::size_t i = size_; i-- > 0;) {
        const Uint128 x = (static_cast<Uint128>(r) << kLimbBits) | limb[i];
        limb[i] = static_cast<std::uint64_t>(x / n);
        r = static_cast<std::uint64_t>(x % n);
      }
      shrink();
      return static_cast<std::uint32_t>(r);
    }
    const std::uint64_t m = kReciprocals[n];
    if (size_ > kWeightLimbs) return static_cast<std::uint32_t>(divide(n, m));
    // Each product is below 2^56 and there are at most 64: the sum stays below 2^62. Its bits
    // above 48 are folded down with the weight of 2^48, which leaves it below 2^49. (A separate
    // path: a select between this digit and the chain's would wait for the chain.)
    const std::uint8_t* const w = kWeights[n].data();
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < size_; i += kGroup)
      sum += limb[i] * w[i] + limb[i + 1] * w[i + 1] + limb[i + 2] * w[i + 2] + limb[i + 3] * w[i + 3];
    sum = (sum >> kLimbBits) * w[1] + (sum & ((std::uint64_t{1} << kLimbBits) - 1));
    const std::uint64_t digit = sum - quotient(sum, m) * n;
    divide(n, m);
    return static_cast<std::uint32_t>(digit);
  }
  // G is 0: every digit read, no value left over.
  bool exhausted() const { return size_ == 0; }

 private:
  // floor(x / n) for x < 2^56, from m = ceil(2^64 / n) (the theorem above).
  static std::uint64_t quotient(std::uint64_t x, std::uint64_t m) {
    return static_cast<std::uint64_t>((static_cast<Uint128>(x) * m) >> 64);
  }
  // Divides G by n (2 <= n <= 256, m its reciprocal); returns the remainder.
  std::uint64_t divide(std::uint64_t n, std::uint64_t m) {
    std::uint64_t* const limb = limbs_.data();
    std::uint64_t r = 0;
    const auto step = [&](std::uint64_t& l) {
      const std::uint64_t x = (r << kLimbBits) | l;
      const std::uint64_t q = quotient(x, m);
      r = x - q * n;
      l = q;
    };
    for (std::size_t i = size_; i > 0; i -= kGroup) {
      step(limb[i - 1]);
      step(limb[i - 2]);
      step(limb[i - 3]);
      step(limb[i - 4]);
    }
    shrink();
    return r;
  }
  // A division by a 32-bit base takes fewer bits off G than a group holds, so at most the top
  // group becomes zero.
  void shrink() {
    const std::uint64_t* const limb = limbs_.data();
    if (size_ && (limb[size_ - 1] | limb[size_ - 2] | limb[size_ - 3] | limb[size_ - 4]) == 0) size_ -= kGroup;
  }
  // ceil(2^64 / n) for 2 <= n <= 256 (entries 0 and 1 are unused: base 1 reads no digit).
  static constexpr std::array<std::uint64_t, kMaxFastBase + 1> kReciprocals = [] {
    std::array<std::uint64_t, kMaxFastBase + 1> t{};
    for (std::uint64_t n = 2; n <= kMaxFastBase; ++n) t[n] = ~std::uint64_t{0} / n + 1;
    return t;
  }();
  // 2^(48 i) mod n for 2 <= n <= 256 and i < 64: one 64-byte row per base.
  static constexpr auto kWeights = [] {
    std::array<std::array<std::uint8_t, kWeightLimbs>, kMaxFastBase + 1> t{};
    for (std::uint64_t n = 2; n <= kMaxFastBase; ++n)
      for (std::uint64_t i = 0, w = 1 % n; i < kWeightLimbs; ++i, w = (w << 24) % n * (std::uint64_t{1} << 24) % n)
        t[n][i] = static_cast<std::uint8_t>(w);
    return t;
  }();
  std::vector<std::uint64_t> limbs_;
  std::size_t size_ = 0;  // limbs in use, a multiple of kGroup; the top group is not all zero
};

}  // namespace pgnarc::detail
