// The position helpers of the public API: play_san_line reads moves as the command line's
// --moves does, and position_tree_json writes what `pgnarc tree --json` prints.
#include <gtest/gtest.h>

#include "pgnarc/pgnarc.h"

namespace pgnarc {
namespace {

TEST(PlaySanLine, MoveNumbersAndSpacesAsPgnWritesThem) {
  const Position start;
  auto plain = play_san_line(start, "e4 c5 Nf3");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->fen(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  for (const char* same : {"1. e4 c5 2. Nf3", "1.e4 c5 2.Nf3", " 1. e4\r\n1... c5\t2. Nf3 "}) {
    auto p = play_san_line(start, same);
    ASSERT_TRUE(p.ok()) << same;
    EXPECT_EQ(p->fen(), plain->fen()) << same;
  }
  auto none = play_san_line(start, "  ");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->fen(), start.fen());
  auto bad = play_san_line(start, "1. e4 e5 2. Ke3");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), ErrorCode::InvalidInput);
  EXPECT_EQ(bad.error().message().rfind("move 3 'Ke3': ", 0), 0u) << bad.error().message();
}

TEST(PositionTreeJson, TheLineTreeJsonPrints) {
  const Position start;
  PositionTree tree;
  tree.games = 5, tree.white = 2, tree.draws = 1, tree.black = 1;
  TreeMove e4;
  e4.san = "e4", e4.uci = "e2e4", e4.games = 3, e4.white = 2, e4.draws = 1;
  e4.elo_sum = 2000 + 2001, e4.elo_games = 2;  // 2000.5: halves round up
  TreeMove null;
  null.san = "--", null.uci = "0000", null.games = 1, null.black = 1;  // no rating known
  tree.moves = {e4, null};
  const std::string head = "{\"position\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\","
                           "\"games\":5,\"white\":2,\"draws\":1,\"black\":1,\"moves\":[";
  const std::string first = "{\"san\":\"e4\",\"uci\":\"e2e4\",\"games\":3,\"white\":2,\"draws\":1,\"black\":0,\"avg_elo\":2001}";
  const std::string second = "{\"san\":\"--\",\"uci\":\"0000\",\"games\":1,\"white\":0,\"draws\":0,\"black\":1,\"avg_elo\":null}";
  EXPECT_EQ(position_tree_json(start, tree), head + first + "," + second + "]}");
  EXPECT_EQ(position_tree_json(start, tree, 1), head + first + "]}");
  EXPECT_EQ(position_tree_json(start, PositionTree{}), "{\"position\":\"" + start.fen() +
                                                           "\",\"games\":0,\"white\":0,\"draws\":0,\"black\":0,\"moves\":[]}");
}

}  // namespace
}  // namespace pgnarc
