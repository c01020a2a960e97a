// The start-position code (spec 9.4.4): Chess960 numbering, every form given back byte for byte,
// the writer's search for derived values, and what is kept as text.
#include <random>
#include <set>

#include "codec/position/position_code.h"
#include "support/test_util.h"

namespace pgnarc::codec {
namespace {

std::string rank_letters(int n) {
  std::string s;
  for (PieceType t : chess960_rank(n)) s += ".PNBRQK"[t];
  return s;
}

TEST(Chess960, ScharnaglNumbering) {
  EXPECT_EQ(rank_letters(518), "RNBQKBNR");
  EXPECT_EQ(rank_letters(0), "BBQNNRKR");
  EXPECT_EQ(rank_letters(959), "RKRNNQBB");
  std::set<std::string> seen;
  for (int n = 0; n < kArrangements; ++n) {
    const std::string r = rank_letters(n);
    seen.insert(r);
    const auto b1 = r.find('B'), b2 = r.rfind('B');
    EXPECT_NE(b1 % 2, b2 % 2) << n << " " << r << ": bishops on squares of one colour";
    const auto k = r.find('K');
    EXPECT_LT(r.find('R'), k) << r;
    EXPECT_GT(r.rfind('R'), k) << r;
  }
  EXPECT_EQ(seen.size(), 960u);
  EXPECT_EQ(arranged_start(518, 518).fen(), Position().fen());
  EXPECT_EQ(arranged_start(518, 0).fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

// Codes `fens` in one column and reads them back with a fresh coder: the forms, and the texts
// exactly as given.
std::vector<int> round_trip(const std::vector<std::string>& fens, std::size_t* bytes = nullptr) {
  PositionCoder writer;
  std::vector<PlySymbol> symbols;
  std::vector<int> forms;
  for (const std::string& f : fens) forms.push_back(writer.encode(f, symbols));
  std::string code;
  std::uint64_t bits = 0;
  put_codeword(symbols, code, bits);
  if (bytes) *bytes = code.size();
  ArithDecoder in;
  in.start(code, 0);
  PositionCoder reader;
  for (std::size_t i = 0; i < fens.size(); ++i) {
    bool coded = false;
    std::string text;
    const char* why = nullptr;
    EXPECT_TRUE(reader.decode(in, coded, text, why)) << fens[i] << ": " << (why ? why : "");
    EXPECT_EQ(coded, forms[i] != PositionCoder::kText) << fens[i];
    if (coded) EXPECT_EQ(text, fens[i]);
  }
  EXPECT_EQ(in.finish(), static_cast<std::int64_t>(bits));
  return forms;
}

TEST(PositionCode, EveryFormComesBackByteForByte) {
  constexpr int D = PositionCoder::kDerived, P = PositionCoder::kPlacement, T = PositionCoder::kText;
  const std::vector<std::pair<std::string, int>> cases = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", D},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", D},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", D},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 1", D},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -", D},
      {"b1rb1kqr/pppppppp/n7/1n6/8/3N4/P1PPPPPP/BNRB1KQR w KQkq - 0 4", D},
      {"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", D},
      {"r1bq1rk1/1p1nppbp/p1np2p1/8/2P1P3/2N1QN1P/PP2BPP1/R1B2RK1 w - - 7 11", P},
      {"r3k3/8/8/8/8/8/8/R1R1K2R w KCq - 0 30", P},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 20", P},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - - 0 20", P},
      {"4k3/8/8/8/8/8/8/4K2R w K -", P},
      {"8/8/8/4k3/8/8/4P3/4K3 b - - 5 0", P},
      {"4k3/8/8/8/8/8/8/4K2R w H - 0 30", T},    // Shredder-FEN letter for the outermost rook
      {"4k3/8/8/8/8/8/8/4K2R  w K - 0 30", T},   // two spaces
      {"4k3/8/8/8/8/8/8/4K2R w K - 00 30", T},   // a leading zero
      {"4k3/8/8/8/8/8/8/4K2R w K - 0", T},       // five fields
      {"4k3/8/8/8/8/8/8/4K2R w K - 0 30 ", T},   // a trailing space
      {"4k3/8/8/8/8/8/8/4K2R w kK - 0 30", T},   // castling letters out of order
      {"not a position", T},
      {"", T},
  };
  std::vector<std::string> fens;
  for (const auto& [fen, form] : cases) fens.push_back(fen);
  const std::vector<int> forms = round_trip(fens);
  for (std::size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(forms[i], cases[i].second) << cases[i].first;
}

// Short games of random moves from random arrangements, each position after 0 to 10 plies: the
// writer finds moves for most of them (random moves waste moves, which its search budget does not
// always cover; an opening book's positions nearly all: 125,713 of the corpus's 126,113), and
// every text comes back.
TEST(PositionCode, DerivesRandomOpenings) {
  std::mt19937 rng(11);
  std::vector<std::string> fens;
  for (int g = 0; g < 150; ++g) {
    const int white = static_cast<int>(rng() % 960), black = g % 3 == 0 ? static_cast<int>(rng() % 960) : white;
    Position p = arranged_start(g % 5 == 0 ? kStandardArrangement : white, g % 5 == 0 ? kStandardArrangement : black);
    const int plies = static_cast<int>(rng() % 11);
    for (int k = 0; k < plies; ++k) {
      const MoveList moves = p.legal_moves();
      if (moves.size == 0) break;
      p.play(moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size))]);
    }
    fens.push_back(p.fen());
  }
  const std::vector<int> forms = round_trip(fens);
  int derived = 0;
  for (int f : forms) {
    EXPECT_NE(f, PositionCoder::kText);
    derived += f == PositionCoder::kDerived;
  }
  EXPECT_GE(derived, 130) << "the search gave up on too many";
}

// Damage: a codeword cut short or changed is refused or read as other values, never past its end
// or into an invalid FEN.
TEST(PositionCode, DamagedCodewordsAreRefusedOrValid) {
  PositionCoder writer;
  std::vector<PlySymbol> symbols;
  for (const char* fen : {"r1bq1rk1/1p1nppbp/p1np2p1/8/2P1P3/2N1QN1P/PP2BPP1/R1B2RK1 w - - 7 11",
                          "b1rb1kqr/pppppppp/n7/1n6/8/3N4/P1PPPPPP/BNRB1KQR w KQkq - 0 4"})
    writer.encode(fen, symbols);
  std::string code;
  std::uint64_t bits = 0;
  put_codeword(symbols, code, bits);
  int refused = 0;
  for (std::size_t byte = 0; byte < code.size(); ++byte)
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = code;
      bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
      ArithDecoder in;
      in.start(bad, 0);
      PositionCoder reader;
      bool ok = true;
      for (int v = 0; v < 2 && ok; ++v) {
        bool coded = false;
        std::string text;
        const char* why = nullptr;
        ok = reader.decode(in, coded, text, why);
        if (ok && coded) EXPECT_TRUE(Position::from_fen(text).ok()) << text;
      }
      refused += !ok || in.finish() < 0;
    }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace pgnarc::codec
