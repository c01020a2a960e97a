// The arithmetic coder of move symbols (internal; format specification, "Move codewords"): a
// game's symbols, each a sub-range [c, c + f) of a total T, as one codeword of bits, most
// significant first. The coder keeps a 32-bit interval [low, high]; a symbol narrows it to
// [low + r*c, low + r*(c + f) - 1] with r = floor((high - low + 1) / T), then the interval is
// doubled while it lies in one half of the range or in its middle half (Witten, Neal and Cleary,
// "Arithmetic coding for data compression", CACM 1987). The codeword ends with two bits, and the
// pending ones, that select a quarter of the range inside the final interval, so a decoder
// reads the same symbols whatever bits follow: codewords are written one after the other with
// no length between them, and a decoder knows where each ends. A codeword of no symbols has no
// bits.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace pgnarc::codec {

inline constexpr std::uint64_t kCodeTop = 0xFFFFFFFFu;
inline constexpr std::uint64_t kCodeHalf = 0x80000000u;
inline constexpr std::uint64_t kCodeQuarter = 0x40000000u;
// A symbol's total must be at most this (after renormalisation the interval holds more than a
// quarter of the range, 2^30 values, so every symbol gets at least 2^5 of them).
inline constexpr std::uint32_t kMaxCodeTotal = 1u << 25;

// The coder's interval [low, high], the same in the encoder and the decoder.
struct CodeInterval {
  std::uint64_t low = 0, high = kCodeTop;
  // Narrows the interval to the symbol [c, c + f) of units of `r` values each.
  void narrow(std::uint64_t r, std::uint32_t c, std::uint32_t f) {
    high = low + r * (c + f) - 1;
    low += r * c;
  }
  // One renormalising doubling, where the interval lies in the lower half of the range (0), the
  // upper half (1) or the middle half (2: a pending bit); -1, and nothing done, where it does
  // not. `offset` is what the doubling took off the interval first (0, half, quarter).
  int double_once(std::uint64_t& offset) {
    const int kind = high < kCodeHalf ? 0
                     : low >= kCodeHalf ? 1
                     : low >= kCodeQuarter && high < kCodeHalf + kCodeQuarter ? 2
                                                                              : -1;
    if (kind < 0) return kind;
    offset = kind == 0 ? 0 : kind == 1 ? kCodeHalf : kCodeQuarter;
    low = (low - offset) << 1;
    high = (high - offset) << 1 | 1;
    return kind;
  }
};

// Bits appended to a byte string, most significant bit of each byte first.
struct BitSink {
  std::string& bytes;
  std::uint64_t& bits;  // bits in `bytes` (the last byte's unused low bits are 0)
  void put(unsigned bit) {
    if ((bits & 7) == 0) bytes += '\0';
    if (bit) bytes.back() = static_cast<char>(static_cast<unsigned char>(bytes.back()) | (0x80u >> (bits & 7)));
    ++bits;
  }
};

// The bit at `index` of `bytes` (0 past the end).
inline unsigned bit_at(std::string_view bytes, std::uint64_t index) {
  const std::uint64_t byte = index >> 3;
  return byte < bytes.size() ? (static_cast<unsigned char>(bytes[byte]) >> (7 - (index & 7))) & 1u : 0u;
}

// The `n` bits (1 <= n <= 32) from `index` of `bytes` on, the first the most significant (0 past
// the end): bit_at of each.
inline std::uint64_t bits_at(std::string_view bytes, std::uint64_t index, int n) {
  const std::uint64_t byte = index >> 3;
  std::uint64_t window = 0;  // the 8 bytes from `byte` on, the first the most significant
  if (byte < bytes.size() && bytes.size() - byte >= 8) {
    std::memcpy(&window, bytes.data() + byte, 8);
    if constexpr (std::endian::native == std::endian::little) window = __builtin_bswap64(window);
  } else {
    for (std::uint64_t i = 0; i < 8; ++i)
      window = window << 8 | (byte + i < bytes.size() ? static_cast<unsigned char>(bytes[byte + i]) : 0u);
  }
  return (window << (index & 7)) >> (64 - n);
}

class ArithEncoder {
 public:
  explicit ArithEncoder(BitSink out) : out_(out) {}
  // Codes the symbol [c, c + f) of total T (0 < f, c + f <= T <= kMaxCodeTotal).
  void encode(std::uint32_t c, std::uint32_t f, std::uint32_t total);
  // Ends the codeword (nothing if no symbol was coded).
  void finish();

 private:
  void emit(unsigned bit);
  BitSink out_;
  CodeInterval interval_;
  std::uint64_t pending_ = 0;
  bool any_ = false;
};

class ArithDecoder {
 public:
  // Starts a codeword at bit `start` of `bytes`.
  void start(std::string_view bytes, std::uint64_t start);
  // The position of the next symbol within the current total T: a value v in [0, T) such that
  // the symbol [c, c + f) with c <= v < c + f is the one coded; false if the codeword's value lies
  // in the part of the interval that no symbol has (damage).
  bool target(std::uint32_t total, std::uint32_t& v) {
    r_ = (interval_.high - interval_.low + 1) / total;
    const std::uint64_t q = (value_ - interval_.low) / r_;
    if (q >= total) return false;
    v = static_cast<std::uint32_t>(q);
    return true;
  }
  // Takes the symbol [c, c + f) of the total given to the last target(), which found it.
  // (Inline, as target(): the symbols of moves, clocks and columns call them in their loops.)
  void consume(std::uint32_t c, std::uint32_t f) {
    any_ = true;
    interval_.narrow(r_, c, f);
    std::uint64_t& low = interval_.low;
    std::uint64_t& high = interval_.high;
    for (;;) {
      // The doublings of an interval in one half (double_once's kinds 0 and 1), all at once: as
      // many as the leading bits that low and high share. Each takes that bit off low, high and
      // the value (which lies between them) and shifts one more bit in. (A symbol keeps at least
      // 2^5 values, so they share at most 27.)
      const int n = std::countl_zero(static_cast<std::uint32_t>(low ^ high));
      if (n > 0) {
        low = (low << n) & kCodeTop;
        high = (high << n | ((std::uint64_t{1} << n) - 1)) & kCodeTop;
        value_ = (value_ << n | bits_at(bytes_, start_ + 32 + shifts_, n)) & kCodeTop;
        shifts_ += static_cast<std::uint64_t>(n);
        pending_ = 0;
      }
      // A doubling of an interval in the middle half (kind 2), one at a time.
      if (low < kCodeQuarter || high >= kCodeHalf + kCodeQuarter) return;
      low = (low - kCodeQuarter) << 1;
      high = (high - kCodeQuarter) << 1 | 1;
      value_ = (value_ - kCodeQuarter) << 1 | bit_at(bytes_, start_ + 32 + shifts_);
      ++shifts_;
      ++pending_;
    }
  }
  // Ends the codeword: checks its closing bits; returns its length in bits, or -1 if the closing
  // bits are not the ones a coder writes.
  std::int64_t finish() const;

 private:
  std::string_view bytes_;
  std::uint64_t start_ = 0;
  CodeInterval interval_;
  std::uint64_t value_ = 0, pending_ = 0;
  std::uint64_t shifts_ = 0;  // renormalising doublings: bits of the codeword before its closing bits
  std::uint64_t r_ = 0;       // the last target()'s unit
  bool any_ = false;
};

}  // namespace pgnarc::codec
