// Coding values as arithmetic-coder symbols (internal), the same code for the encoder and the
// decoder: a value's coding is written once as a template over a "side", which the writer's
// SymbolWriter turns into symbols and the reader's SymbolReader into values read off a codeword.
// Used by record comments (comment_record.h), start positions (position_code.h) and coded tag
// columns (tags_section.cpp).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"

namespace pgnarc::codec {

// Frequencies that follow what was coded: each symbol starts at 1, gains 32 when coded, and all
// are halved (rounding up) when their total passes 2^16.
template <int N>
struct AdaptiveFrequencies {
  std::array<std::uint32_t, N> count;
  std::uint32_t total = N;
  AdaptiveFrequencies() { count.fill(1); }
  // Each symbol starting at `initial` (total N * initial), for lists whose symbols are about
  // as likely as each other until shown otherwise.
  explicit AdaptiveFrequencies(std::uint32_t initial) : total(N * initial) { count.fill(initial); }
  PlySymbol symbol(int s) const {
    std::uint32_t c = 0;
    for (int i = 0; i < s; ++i) c += count[i];
    return PlySymbol{c, count[s], total};
  }
  void update(int s) {
    count[s] += 32;
    total += 32;
    if (total > (1u << 16)) {
      total = 0;
      for (auto& c : count) total += c = (c + 1) / 2;
    }
  }
};

// The writer's side: each call appends the symbol of the value it is given.
struct SymbolWriter {
  static constexpr bool kDecoding = false;
  std::vector<PlySymbol>& out;
  template <int N>
  bool adaptive(const AdaptiveFrequencies<N>& f, int& s) {
    out.push_back(f.symbol(s));
    return true;
  }
  // `v` below 2^bits, every value as likely (bits <= 16).
  bool raw(int bits, std::uint32_t& v) {
    out.push_back(PlySymbol{v, 1, 1u << bits});
    return true;
  }
  // `v` below `n`, every value as likely (n <= kMaxCodeTotal).
  bool uniform(std::uint32_t n, std::uint32_t& v) {
    out.push_back(PlySymbol{v, 1, n});
    return true;
  }
  // Symbol `s` of the `n` frequencies `f` (their total at most kMaxCodeTotal, f[s] > 0).
  bool table(const std::uint32_t* f, int n, int& s) {
    std::uint32_t c = 0, total = 0;
    for (int i = 0; i < n; ++i) total += f[i];
    for (int i = 0; i < s; ++i) c += f[i];
    out.push_back(PlySymbol{c, f[s], total});
    return true;
  }
  // Symbol `s` of a row of `n` symbols given as cumulative frequencies (cum[0] = 0, cum[n] the
  // total, at most kMaxCodeTotal; each symbol's frequency cum[s + 1] - cum[s] above 0).
  bool cumulative(const std::uint32_t* cum, int n, int& s) {
    out.push_back(PlySymbol{cum[s], cum[s + 1] - cum[s], cum[n]});
    return true;
  }
  bool move(const PlyFrequencies& p, int& index) {
    out.push_back(symbol_of(p, index));
    return true;
  }
};

// The reader's side: each call reads a value; false where the codeword holds no symbol there.
struct SymbolReader {
  static constexpr bool kDecoding = true;
  ArithDecoder& in;
  // (An adaptive list keeps its total: only the scan for the symbol is left.)
  template <int N>
  bool adaptive(const AdaptiveFrequencies<N>& f, int& s) {
    return find(f.count.data(), f.total, s);
  }
  bool raw(int bits, std::uint32_t& v) { return uniform(1u << bits, v); }
  bool uniform(std::uint32_t n, std::uint32_t& v) {
    if (!in.target(n, v)) return false;
    in.consume(v, 1);
    return true;
  }
  bool table(const std::uint32_t* f, int n, int& s) {
    std::uint32_t total = 0;
    for (int i = 0; i < n; ++i) total += f[i];
    return find(f, total, s);
  }
  // The symbol `s` of the frequencies `f` of total `total`, by a scan from the first.
  bool find(const std::uint32_t* f, std::uint32_t total, int& s) {
    std::uint32_t v;
    if (!in.target(total, v)) return false;
    std::uint32_t c = 0;
    s = 0;
    while (v >= c + f[s]) c += f[s++];
    in.consume(c, f[s]);
    return true;
  }
  bool cumulative(const std::uint32_t* cum, int n, int& s) {
    std::uint32_t v;
    if (!in.target(cum[n], v)) return false;
    // The symbol s with cum[s] <= v < cum[s + 1]: as cum rises, the count of cum[1 .. n - 1] at
    // most v (compares that do not wait on each other, unlike a search's).
    int count = 0;
    for (int i = 1; i < n; ++i) count += cum[i] <= v ? 1 : 0;
    s = count;
    in.consume(cum[s], cum[s + 1] - cum[s]);
    return true;
  }
  bool move(const PlyFrequencies& p, int& index) {
    index = read_symbol(in, p);
    return index >= 0;
  }
};

// The low `bits` bits of `v` (bits <= 64), top first, 16 at a time, each value as likely; `v`
// becomes them.
template <class Side>
bool code_low_bits(Side& side, int bits, std::uint64_t& v) {
  std::uint64_t out = 0;
  for (int left = bits; left > 0;) {
    const int k = left < 16 ? left : 16;
    left -= k;
    std::uint32_t chunk = Side::kDecoding ? 0 : static_cast<std::uint32_t>((v >> left) & ((1u << k) - 1));
    if (!side.raw(k, chunk)) return false;
    out = out << k | chunk;
  }
  v = out;
  return true;
}

// A number `u` below 2^64: its bit width under the adaptive frequencies `widths`, then the bits
// below its top bit, 16 at a time from the top, each as likely as the other.
template <class Side>
bool code_width_number(Side& side, AdaptiveFrequencies<65>& widths, std::uint64_t& u) {
  int width = Side::kDecoding ? 0 : static_cast<int>(std::bit_width(u));
  if (!side.adaptive(widths, width)) return false;
  widths.update(width);
  if (width < 2) {
    u = static_cast<std::uint64_t>(width);
    return true;
  }
  const int bits = width - 1;
  std::uint64_t rest = u;
  if (!code_low_bits(side, bits, rest)) return false;
  u = std::uint64_t{1} << bits | rest;
  return true;
}

}  // namespace pgnarc::codec
