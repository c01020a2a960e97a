// The Xiangqi position code (format 5.7.3): every value given back byte for byte in one codeword
// with the coder's state following it, the other spellings left uncoded, the bound of the sets
// form on the worst positions, the squares form on the positions of real games, and damage
// rejected, never read as another position.
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codec/entropy/arith_coder.h"
#include "codec/position/xiangqi_position.h"
#include "rules/xiangqi.h"

namespace pgnarc::codec {
namespace {

namespace rx = rules::xiangqi;

// The positions of the main lines of the corpus's master games in ICCS.
std::vector<std::string> game_positions() {
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/xiangqi/wukong_iccs.pgn");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '[') continue;
    rx::Position pos;
    std::size_t at = 0;
    while ((at = line.find_first_of("abcdefghi", at)) != std::string::npos && at + 4 <= line.size()) {
      auto m = rx::parse_legal_iccs(pos, line.substr(at, 4));
      if (!m) break;
      pos.play(*m);
      out.push_back(pos.fen());
      at += 4;
    }
  }
  return out;
}

// A random valid position: each kind's pieces (up to `most` of them, all when `full`) on random
// squares where they may stand, drawn again until the side not to move is not in check (and
// when a kind finds no free square: the other side's pieces may fill a palace).
std::string random_position(std::mt19937& rng, bool full) {
  for (;;) {
    std::array<char, 90> board{};
    bool placed = true;
    for (int side = 0; side < 2; ++side)
      for (int t = rx::kGeneral; t <= rx::kSoldier; ++t) {
        const int most = rx::kStartCount[t];
        const int n = full || t == rx::kGeneral ? most : static_cast<int>(rng() % (most + 1));
        for (int k = 0, tries = 0; k < n && placed; placed = ++tries < 1000) {
          const int q = static_cast<int>(rng() % 90);
          if (board[q] || !rx::can_stand(static_cast<rx::Side>(side), static_cast<rx::PieceType>(t), q)) continue;
          board[q] = static_cast<char>(" KABNRCP"[t] + (side ? 32 : 0));
          ++k;
        }
      }
    if (!placed) continue;
    std::string fen;
    for (int rank = 9; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < 9; ++file) {
        const char c = board[rx::make_square(file, rank)];
        if (!c) {
          ++empty;
          continue;
        }
        if (empty) fen += static_cast<char>('0' + empty);
        empty = 0;
        fen += c;
      }
      if (empty) fen += static_cast<char>('0' + empty);
      if (rank) fen += '/';
    }
    fen += rng() % 2 ? " b - - 0 1" : " w - - 0 1";
    if (rx::Position::from_fen(fen)) return fen;
  }
}

// Codes `fens` in one codeword and reads them back with a fresh coder: each text exactly.
// Returns the codeword's bits.
std::uint64_t round_trip(const std::vector<std::string>& fens) {
  XiangqiPositionCoder writer;
  std::vector<PlySymbol> symbols;
  for (const std::string& f : fens) EXPECT_TRUE(writer.encode(f, symbols)) << f;
  std::string code;
  std::uint64_t bits = 0;
  put_codeword(symbols, code, bits);
  ArithDecoder in;
  in.start(code, 0);
  XiangqiPositionCoder reader;
  for (const std::string& f : fens) {
    std::string text;
    const char* why = nullptr;
    EXPECT_TRUE(reader.decode(in, text, why)) << f << ": " << (why ? why : "");
    EXPECT_EQ(text, f);
  }
  EXPECT_EQ(in.finish(), static_cast<std::int64_t>(bits));
  return bits;
}

// The bits of `fen` alone in a codeword (a share token's position), and its form.
std::uint64_t alone(const std::string& fen, int* form = nullptr) {
  XiangqiPositionCoder coder;
  std::vector<PlySymbol> symbols;
  EXPECT_TRUE(coder.encode(fen, symbols)) << fen;
  if (form) *form = symbols.empty() ? -1 : static_cast<int>(symbols[0].c);
  std::string code;
  std::uint64_t bits = 0;
  put_codeword(symbols, code, bits);
  return bits;
}

// The square table (format-spec/xiangqi-position-table.md): each row totals 4096, a piece above
// 0 exactly on the squares where it may stand (so that the writer never meets a symbol of
// frequency 0), an empty square always above 0.
TEST(XiangqiPosition, TheSquareTableAllowsWhatTheRulesAllow) {
  for (int q = 0; q < 90; ++q) {
    unsigned total = 0;
    for (int s = 0; s < 15; ++s) {
      const std::uint16_t f = kXiangqiSquareFrequencies[q][s];
      total += f;
      if (s == 0) {
        EXPECT_GT(f, 0) << q;
        continue;
      }
      const auto side = static_cast<rx::Side>(s > 7);
      const auto type = static_cast<rx::PieceType>(s > 7 ? s - 7 : s);
      EXPECT_EQ(f > 0, rx::can_stand(side, type, q)) << "square " << q << " symbol " << s;
    }
    EXPECT_EQ(total, 4096u) << q;
  }
}

TEST(XiangqiPosition, EveryFieldChoiceRoundTrips) {
  const std::string board = "r3kabr1/4a4/2n1b1n2/p3p3p/1c5c1/2R6/P3P3P/2N1C1N2/1C1R5/2BAKAB2";
  round_trip({board + " b - - 0 1", board + " b - - 4 13", board + " w - -", board + " b", board + " w - - 0 0",
              board + " b - - 65535 65535", board + " w - - 1 1", board + " b - - 0 2",
              "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "4k4/9/9/9/9/9/9/9/9/3K5 w"});
}

TEST(XiangqiPosition, OtherSpellingsHaveNoCode) {
  const std::string board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
  for (const std::string& fen : std::vector<std::string>{
           board + " r - - 0 1", "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/45/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", board + " w - - 00 1",
        board + " w -", board + " w - - 0", board + "  w - - 0 1", board + " w - - 0 1 ", board + " w K - 0 1",
        board + " w - - 65536 1", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1" /* the generals face each other */, ""}) {
    XiangqiPositionCoder coder;
    std::vector<PlySymbol> symbols;
    EXPECT_FALSE(coder.encode(fen, symbols)) << fen;
    EXPECT_TRUE(symbols.empty()) << fen;
  }
}

// Whatever the pieces, a value of fields 0 takes at most 165 bits alone in a codeword (5.7.3):
// full material on random squares, where the squares form costs most, takes the sets form.
TEST(XiangqiPosition, EveryPositionFitsTheBound) {
  std::mt19937 rng(20261201);
  std::uint64_t most = 0;
  for (int i = 0; i < 3000; ++i) {
    int form = 0;
    const std::string fen = random_position(rng, i % 2 == 0);
    const std::uint64_t bits = alone(fen, &form);
    EXPECT_LE(bits, 165u) << fen;
    most = std::max(most, bits);
    if (i % 2 == 0) EXPECT_EQ(form, XiangqiPositionCoder::kSets) << fen;
  }
  EXPECT_GT(most, 150u);  // full material comes near the bound
  // Counters given add at most 2 * (log2 17 + 15) bits.
  EXPECT_LE(alone("PPPakaPP1/RNC3CNR/b3b4/9/9/9/9/B3B4/rnc3cnr/pppAKApp1 b - - 65535 65535"), 165u + 39u);
  // A random sequence of them in one codeword, the coder's counts following.
  std::vector<std::string> fens;
  for (int i = 0; i < 300; ++i) fens.push_back(random_position(rng, i % 3 == 0));
  round_trip(fens);
}

// The positions of real games take the squares form, about 10 bytes each alone in a codeword,
// and fewer in a codeword of many (the coder learns the squares).
TEST(XiangqiPosition, PositionsOfRealGamesAreShort) {
  const std::vector<std::string> fens = game_positions();
  ASSERT_GE(fens.size(), 1000u);
  std::uint64_t total = 0, squares = 0;
  for (const std::string& fen : fens) {
    int form = 0;
    total += alone(fen, &form);
    squares += form == XiangqiPositionCoder::kSquares;
  }
  EXPECT_GT(squares * 100, fens.size() * 80);
  EXPECT_LT(total / fens.size(), 14u * 8) << total / fens.size() << " bits a position alone";
  const std::uint64_t together = round_trip(fens);
  EXPECT_LT(together, total);
  std::printf("%zu positions: %.1f bits alone, %.1f in one codeword, %.1f%% squares form\n", fens.size(),
              static_cast<double>(total) / fens.size(), static_cast<double>(together) / fens.size(),
              100.0 * squares / fens.size());
}

// A damaged codeword is rejected or read as a valid position, never one whose FEN is not valid;
// no byte string crashes the reader.
TEST(XiangqiPosition, DamageIsRejectedOrValid) {
  std::mt19937 rng(7);
  int rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string code(1 + rng() % 24, '\0');
    for (char& c : code) c = static_cast<char>(rng());
    ArithDecoder in;
    in.start(code, 0);
    XiangqiPositionCoder reader;
    std::string text;
    const char* why = nullptr;
    if (!reader.decode(in, text, why)) {
      ++rejected;
      EXPECT_NE(why, nullptr);
      continue;
    }
    EXPECT_TRUE(rx::Position::from_fen(text).ok()) << text;
  }
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace pgnarc::codec
