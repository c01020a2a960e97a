// Games of lichess's variants through the whole library: random games of each variant (drops,
// explosions, forced captures, promotions to king, checks counted, the hill, the race, the
// horde), with comments, NAGs and variations, tagged and untagged, written as PGN and read back,
// packed and read back by number: nothing lost.
#include <random>

#include "pgnarc/pgnarc.h"
#include "support/pgn_util.h"
#include "support/archive_fixtures.h"
#include "support/test_util.h"

namespace pgnarc {
namespace {

// A random game of `variant`: up to `plies` random legal moves from its start, with now and
// then a comment, a NAG or a one-move variation.
Game random_game(Variant variant, bool tagged, std::mt19937_64& rng, int plies) {
  Game g;
  if (tagged) g.tags.push_back({"Variant", variant_name(variant)});
  else g.variant = variant;
  g.tags.push_back({"Event", "random " + std::string(variant_name(variant))});
  Position pos = Position::start(variant);
  for (int ply = 0; ply < plies; ++ply) {
    const MoveList moves = pos.legal_moves();
    if (moves.size == 0) break;
    const Move m = moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size))];
    g.events.push_back(GameEvent::make_move(m));
    if (rng() % 13 == 0 && moves.size > 1) {
      g.events.push_back(GameEvent::begin_variation());
      g.events.push_back(GameEvent::make_move(moves[(m == moves[0]) ? 1 : 0]));
      g.events.push_back(GameEvent::end_variation());
    }
    if (rng() % 17 == 0) g.events.push_back(GameEvent::make_nag(static_cast<std::uint8_t>(1 + rng() % 6)));
    if (rng() % 19 == 0) g.events.push_back(GameEvent::comment("ply " + std::to_string(ply)));
    pos.play(m);
  }
  g.result = GameResult::kUnknown;
  return g;
}

TEST(ArchiveVariants, RandomGamesOfEveryVariantComeBackWhole) {
  std::mt19937_64 rng(36);
  std::vector<Game> games;
  for (int v = 1; v < kVariantCount; ++v)
    for (int k = 0; k < 24; ++k) games.push_back(random_game(static_cast<Variant>(v), k % 2 == 0, rng, 40 + k * 6));
  // PGN and back: the SAN written is read as the same moves, the untagged games under their
  // variant.
  for (const Game& g : games) {
    std::string text;
    ASSERT_TRUE(write_pgn(g, text).ok()) << variant_name(g.variant);
    GameBuilder b;
    parse_game(text, "random.pgn", 1, {}, b, g.variant);
    ASSERT_TRUE(b.ok()) << b.error().to_string() << "\n" << text;
    ASSERT_EQ(b.game(), g) << text;
  }
  // An archive and back, with every block coder (in the models' blocks, crazyhouse, three-check
  // and king of the hill under their models).
  for (MoveCoding coding : {MoveCoding::kFast, MoveCoding::kMax, MoveCoding::kUniform}) {
    const std::string path = test::temp_path(coding == MoveCoding::kFast  ? "variants_fast.pga"
                                             : coding == MoveCoding::kMax ? "variants_model.pga"
                                                                          : "variants_uniform.pga");
    WriterOptions o;
    o.moves = coding;
    o.block_games = 50;
    o.name_entries = false;  // (the read version is the variants' codec's)
    {
      auto w = ArchiveWriter::create(path, o);
      ASSERT_TRUE(w.ok());
      for (const Game& g : games) ASSERT_TRUE((*w)->add_game(g).ok());
      auto stats = (*w)->finish();
      ASSERT_TRUE(stats.ok()) << stats.error().to_string();
      EXPECT_EQ(stats->raw_games, 0u);
    }
    auto a = Archive::open(path);
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    EXPECT_EQ((*a)->info()->read_version.text(), coding == MoveCoding::kFast ? "1.2" : "1.1");
    for (std::size_t i = 0; i < games.size(); ++i) {
      auto got = (*a)->read_game(i);
      ASSERT_TRUE(got.ok()) << got.error().to_string();
      ASSERT_FALSE(got->raw);
      ASSERT_EQ(got->game, games[i]) << "game " << i + 1;
    }
    Query q;
    q.variant = Variant::kHorde;
    auto horde = (*a)->find(q);
    ASSERT_TRUE(horde.ok());
    EXPECT_EQ(horde->size(), 24u);
    EXPECT_TRUE((*a)->verify().ok());
  }
}

// Archive::find_xiangqi_position: the Xiangqi games whose main lines reach a position, each with
// the move played from it and the rating of the side to move there; chess games are not read and
// their blocks not decoded; a FEN that is not Xiangqi's is InvalidInput.
TEST(ArchiveXiangqi, FindPosition) {
  const std::string pgn =
      "[White \"a\"]\n\n1. e4 e5 *\n\n"
      "[Game \"Chinese Chess\"]\n[RedElo \"2500\"]\n\n1. h2e2 h9g7 2. h0g2 (2. b0c2) i9h9 *\n\n"
      "[Game \"Chinese Chess\"]\n\n1. b0c2 h9g7 *\n\n"
      "[Game \"Chinese Chess\"]\n\n1. h2e2 b9c7 *\n";
  WriterOptions o = test::small_blocks();
  o.block_games = 1;
  const std::string path = test::pack(pgn, "xq_position.pga", o);
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  // After 1. h2e2 h9g7: Red to move, reached by game 2 alone (game 4 played b9c7; a variation
  // does not count).
  auto hits = (*a)->find_xiangqi_position("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
  ASSERT_TRUE(hits.ok()) << hits.error().to_string();
  ASSERT_EQ(hits->hits.size(), 1u);
  EXPECT_EQ(hits->hits[0].game, 1u);
  EXPECT_EQ(hits->hits[0].next, Move::xiangqi(7, 24));  // h0g2
  EXPECT_EQ(hits->hits[0].elo, 2500);
  EXPECT_EQ(hits->hits[0].result, GameResult::kUnknown);
  // The start: every Xiangqi game, each with its first move; a game's end: no move after it.
  hits = (*a)->find_xiangqi_position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->hits.size(), 3u);
  EXPECT_EQ(hits->hits[1].next, Move::xiangqi(1, 20));  // b0c2
  hits = (*a)->find_xiangqi_position("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->hits.size(), 1u);
  EXPECT_EQ(hits->hits[0].game, 3u);
  EXPECT_TRUE(hits->hits[0].next.is_none());
  auto bad = (*a)->find_xiangqi_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), ErrorCode::InvalidInput);
}

}  // namespace
}  // namespace pgnarc
