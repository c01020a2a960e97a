// The Xiangqi model (format 7.9): its check feature is the rules' check on every move of the perft
// positions, attacks are what the pieces capture, its frequencies are those of MOVE-MODEL-1 within
// their bounds, and on real games it gives the played moves more than the uniform coder does.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codec/model/move_model.h"
#include "codec/model/xiangqi_model.h"
#include "rules/xiangqi.h"

namespace pgnarc::codec::model::xq {
namespace {

std::vector<rx::Position> perft_positions() {
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/perft/xiangqi.txt");
  EXPECT_TRUE(in) << "cannot open corpus/perft/xiangqi.txt";
  std::vector<rx::Position> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto pos = rx::Position::from_fen(line.substr(0, line.find(';')));
    EXPECT_TRUE(pos.ok());
    if (pos) out.push_back(*pos);
  }
  return out;
}

bool has(const MoveFeatures& f, int k) { return std::find(f.k, f.k + f.n, k) != f.k + f.n; }

// A move has the check feature exactly when the opponent is in check after it (the model tests
// the move's own attack first and the whole board only where a line or a leg may open).
TEST(XiangqiModel, CheckIsTheRulesCheck) {
  const auto positions = perft_positions();
  ASSERT_GE(positions.size(), 1000u);
  MoveFeatures f[rx::kMaxMoves];
  int checks = 0;
  for (const rx::Position& pos : positions) {
    const rx::MoveList list = rx::legal_moves(pos);
    if (list.size == 0) continue;
    xiangqi_features(pos, list, History{}, f);
    for (int i = 0; i < list.size; ++i) {
      const int kind = rx::type_of(pos.piece_on(list[i].from)) - 1;
      const bool check = pos.after(list[i]).in_check();
      EXPECT_EQ(has(f[i], kCheck + kind), check) << pos.fen() << " " << rx::to_iccs(list[i]);
      checks += check;
      ASSERT_LE(f[i].n, kMaxMoveFeatures);
    }
  }
  EXPECT_GT(checks, 500);
}

// attacks(): a piece of the side to move attacks the enemy-held squares it can capture on;
// checked where the capture is also legal, on every position. attacked_pieces() is the part of
// attacks() that holds pieces, square for square.
TEST(XiangqiModel, AttacksHoldTheLegalCaptures) {
  std::uint8_t squares[24], pieces[24];
  int captures = 0;
  for (const rx::Position& pos : perft_positions()) {
    for (int s = 0; s < rx::kSquares; ++s) {
      const int n = rx::attacks(pos.board(), s, squares);
      std::vector<int> held;
      for (int i = 0; i < n; ++i)
        if (pos.piece_on(squares[i]) != rx::kNoPiece) held.push_back(squares[i]);
      const int k = rx::attacked_pieces(pos.board(), s, pieces);
      std::vector<int> found(pieces, pieces + k);
      std::sort(held.begin(), held.end());
      std::sort(found.begin(), found.end());
      EXPECT_EQ(found, held) << pos.fen() << " " << rx::square_name(s);
    }
    for (const rx::Move m : rx::legal_moves(pos)) {
      if (pos.piece_on(m.to) == rx::kNoPiece) continue;
      const int n = rx::attacks(pos.board(), m.from, squares);
      EXPECT_NE(std::find(squares, squares + n, m.to), squares + n) << pos.fen() << " " << rx::to_iccs(m);
      ++captures;
    }
  }
  EXPECT_GT(captures, 1000);
}

// Frequencies are MOVE-MODEL-1's: the best move 4096, each at least 1, the total their sum.
TEST(XiangqiModel, FrequenciesAreWithinTheirBounds) {
  std::uint32_t freq[rx::kMaxMoves];
  for (const rx::Position& pos : perft_positions()) {
    const rx::MoveList list = rx::legal_moves(pos);
    if (list.size == 0) continue;
    const std::uint32_t total = frequencies(pos, list, History{}, freq);
    std::uint32_t sum = 0;
    for (int i = 0; i < list.size; ++i) {
      EXPECT_GE(freq[i], 1u);
      EXPECT_LE(freq[i], kTopFrequency);
      sum += freq[i];
    }
    EXPECT_EQ(total, sum);
    EXPECT_EQ(*std::max_element(freq, freq + list.size), kTopFrequency);
  }
}

// On the corpus's master games (in ICCS), the played moves cost fewer bits than uniform coding's
// log2(legal moves), and the central cannon opening is the model's first choice at the start.
TEST(XiangqiModel, RealGamesCostLessThanUniformCoding) {
  std::uint32_t freq[rx::kMaxMoves];
  const rx::Position start;
  const rx::MoveList first = rx::legal_moves(start);
  frequencies(start, first, History{}, freq);
  const int h2e2 = static_cast<int>(std::find(first.begin(), first.end(), rx::Move{25, 22}) - first.begin());
  ASSERT_EQ(rx::to_iccs(first[h2e2]), "h2e2");
  EXPECT_EQ(freq[h2e2], kTopFrequency);
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/xiangqi/wukong_iccs.pgn");
  double model = 0, uniform = 0;
  int plies = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '[') continue;
    rx::Position pos;
    History h;
    std::size_t at = 0;
    while ((at = line.find_first_of("abcdefghi", at)) != std::string::npos && at + 4 <= line.size()) {
      auto m = rx::parse_legal_iccs(pos, line.substr(at, 4));
      ASSERT_TRUE(m.ok()) << line.substr(at, 4);
      const rx::MoveList list = rx::legal_moves(pos);
      const std::uint32_t total = frequencies(pos, list, h, freq);
      const int i = static_cast<int>(std::lower_bound(list.begin(), list.end(), *m) - list.begin());
      model += std::log2(static_cast<double>(total) / freq[i]);
      uniform += std::log2(static_cast<double>(list.size));
      ++plies;
      h = history_after(h, pos, *m);
      pos.play(*m);
      at += 4;
    }
  }
  EXPECT_EQ(plies, 1378);
  EXPECT_LT(model, 0.85 * uniform) << model / plies << " bits a ply against " << uniform / plies;
}

}  // namespace
}  // namespace pgnarc::codec::model::xq
