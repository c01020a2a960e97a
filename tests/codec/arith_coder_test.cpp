// The arithmetic coder of move symbols: codewords that end themselves, decode exactly, are within
// two bits of the symbols' information, and are the only codewords of their symbols.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "codec/entropy/arith_coder.h"

namespace pgnarc::codec {
namespace {

struct Symbol {
  std::uint32_t c, f, total;
};

// A random symbol: a total from 1 to kMaxCodeTotal, heavily skewed frequencies as the model's.
Symbol random_symbol(std::mt19937_64& rng) {
  const std::uint32_t total = 1 + static_cast<std::uint32_t>(rng() % (rng() % 4 == 0 ? kMaxCodeTotal : 90000));
  const std::uint32_t f = 1 + static_cast<std::uint32_t>(rng() % (rng() % 2 ? total : std::min<std::uint32_t>(total, 64)));
  const std::uint32_t c = static_cast<std::uint32_t>(rng() % (total - f + 1));
  return Symbol{c, f, total};
}

// A random word of 1 to `most` symbols, coded on its own: the codeword in `bytes`, `bits` long.
std::vector<Symbol> random_word(std::mt19937_64& rng, std::size_t most, std::string& bytes, std::uint64_t& bits) {
  std::vector<Symbol> word(1 + rng() % most);
  for (Symbol& s : word) s = random_symbol(rng);
  bytes.clear();
  bits = 0;
  ArithEncoder e(BitSink{bytes, bits});
  for (const Symbol& s : word) e.encode(s.c, s.f, s.total);
  e.finish();
  return word;
}

// Decodes `n` symbols of the totals of `want` from bit `start`; the symbols found go to `got`.
std::int64_t decode(std::string_view bytes, std::uint64_t start, const std::vector<Symbol>& want,
                    std::vector<Symbol>& got) {
  ArithDecoder d;
  d.start(bytes, start);
  got.clear();
  for (const Symbol& s : want) {
    std::uint32_t v;
    if (!d.target(s.total, v)) return -2;
    // The symbol holding v: the wanted one if v lies in it, else a neighbour's range.
    Symbol found = s;
    if (v < s.c) found = Symbol{0, s.c, s.total};
    else if (v >= s.c + s.f) found = Symbol{s.c + s.f, s.total - s.c - s.f, s.total};
    d.consume(found.c, found.f);
    got.push_back(found);
  }
  return d.finish();
}

TEST(ArithCoder, CodewordsFollowEachOtherAndDecodeExactly) {
  std::mt19937_64 rng(7);
  std::string bytes;
  std::uint64_t bits = 0;
  std::vector<std::vector<Symbol>> words;
  std::vector<std::uint64_t> starts;
  for (int w = 0; w < 300; ++w) {
    std::vector<Symbol> word(rng() % 60);
    for (Symbol& s : word) s = random_symbol(rng);
    starts.push_back(bits);
    ArithEncoder e(BitSink{bytes, bits});
    double information = 0;
    for (const Symbol& s : word) {
      e.encode(s.c, s.f, s.total);
      information += std::log2(static_cast<double>(s.total) / s.f);
    }
    e.finish();
    const double length = static_cast<double>(bits - starts.back());
    if (word.empty()) EXPECT_EQ(length, 0) << "a codeword of no symbols has no bits";
    // Within the closing bits (2) and the unit's rounding (under 2^-5 of the interval a symbol).
    else EXPECT_LE(length, information + 2 + 0.05 * static_cast<double>(word.size()) + 1e-9) << w;
    words.push_back(std::move(word));
  }
  std::vector<Symbol> got;
  for (std::size_t w = 0; w < words.size(); ++w) {
    const std::int64_t length = decode(bytes, starts[w], words[w], got);
    ASSERT_GE(length, 0) << w;
    EXPECT_EQ(static_cast<std::uint64_t>(length), (w + 1 < starts.size() ? starts[w + 1] : bits) - starts[w]) << w;
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].c, words[w][i].c) << w << " " << i;
  }
}

// A codeword decodes the same whatever bits follow it: all ones, all zeros, past the end.
TEST(ArithCoder, TheBitsAfterACodewordDoNotMatter) {
  std::mt19937_64 rng(11);
  for (int w = 0; w < 200; ++w) {
    std::string bytes;
    std::uint64_t bits;
    const std::vector<Symbol> word = random_word(rng, 40, bytes, bits);
    for (int fill : {0, 1}) {
      std::string padded = bytes;
      std::uint64_t n = bits;
      for (int k = 0; k < 70; ++k) BitSink{padded, n}.put(static_cast<unsigned>(fill));
      std::vector<Symbol> got;
      EXPECT_EQ(decode(padded, 0, word, got), static_cast<std::int64_t>(bits)) << w << " " << fill;
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].c, word[i].c);
    }
  }
}

// Every bit of a codeword is decided by its symbols: a changed bit is refused, or decodes other
// symbols, or a codeword of another length.
TEST(ArithCoder, ACodewordIsTheOnlyOneOfItsSymbols) {
  std::mt19937_64 rng(13);
  for (int w = 0; w < 60; ++w) {
    std::string bytes;
    std::uint64_t bits;
    const std::vector<Symbol> word = random_word(rng, 12, bytes, bits);
    for (std::uint64_t at = 0; at < bits; ++at) {
      std::string changed = bytes;
      changed[at / 8] = static_cast<char>(changed[at / 8] ^ (0x80 >> (at % 8)));
      std::vector<Symbol> got;
      const std::int64_t length = decode(changed, 0, word, got);
      bool same = length == static_cast<std::int64_t>(bits) && got.size() == word.size();
      for (std::size_t i = 0; same && i < got.size(); ++i) same = got[i].c == word[i].c && got[i].f == word[i].f;
      EXPECT_FALSE(same) << w << " bit " << at;
    }
  }
}

// A symbol whose frequency is its whole total costs nothing; the top of the range, past
// r * total, is no symbol's.
TEST(ArithCoder, CertainSymbolsCostNothingAndTheTopIsNoSymbol) {
  std::string bytes;
  std::uint64_t bits = 0;
  ArithEncoder e(BitSink{bytes, bits});
  for (int i = 0; i < 100; ++i) e.encode(0, 7, 7);
  EXPECT_EQ(bits, 0u);
  e.finish();
  EXPECT_EQ(bits, 2u);
  ArithDecoder d;
  const std::string ones(8, '\xff');
  d.start(ones, 0);
  std::uint32_t v;
  EXPECT_FALSE(d.target(3, v)) << "2^32 - 1 lies past 3 * floor(2^32 / 3)";
  d.start(ones, 0);
  EXPECT_TRUE(d.target(4, v));
  EXPECT_EQ(v, 3u);
}

// bits_at reads a window of 8 bytes in one load where they are there and byte by byte near the
// end: both give bit_at's bits, 0 past the end, at every offset and width.
TEST(ArithCoder, BitsAtIsBitAtOfEachBit) {
  std::mt19937_64 rng(54);
  for (std::size_t size = 0; size <= 16; ++size) {
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    for (std::uint64_t index = 0; index < 8 * size + 24; ++index)
      for (int n = 1; n <= 32; ++n) {
        std::uint64_t expected = 0;
        for (int k = 0; k < n; ++k) expected = expected << 1 | bit_at(bytes, index + static_cast<std::uint64_t>(k));
        ASSERT_EQ(bits_at(bytes, index, n), expected) << "size " << size << " index " << index << " n " << n;
      }
  }
}

}  // namespace
}  // namespace pgnarc::codec
