// game_tree and read_comment: a game's moves as a tree, its comments' clocks and evaluations as
// numbers.
#include "pgnarc/game_tree.h"

#include <cmath>

#include "support/pgn_util.h"

namespace pgnarc {
namespace {

Game one_game(const std::string& pgn) {
  auto games = test::read_all(pgn);
  EXPECT_EQ(games.size(), 1u);
  EXPECT_TRUE(!games.empty() && games[0].ok) << (games.empty() ? "" : games[0].error);
  return games.empty() ? Game{} : games[0].game;
}

MoveNotes notes_of(std::string_view text) {
  MoveNotes n;
  read_comment(text, n);
  return n;
}

TEST(ReadComment, LichessClockAndEvaluation) {
  const MoveNotes n = notes_of(" [%eval 0.17] [%clk 0:03:00] ");
  EXPECT_EQ(n.clock, 180.0);
  EXPECT_EQ(n.eval, 0.17);
  EXPECT_FALSE(n.mate);
  EXPECT_FALSE(n.comment);
}

TEST(ReadComment, MatesSignedAsWritten) {
  EXPECT_EQ(notes_of("[%eval #-3]").mate, -3);
  EXPECT_EQ(notes_of("[%eval #4]").mate, 4);
  EXPECT_FALSE(notes_of("[%eval #4]").eval);
  EXPECT_EQ(notes_of("[%eval -1.5]").eval, -1.5);
  EXPECT_EQ(notes_of("[%eval +2,24]").eval, 2.0);  // a search depth read past
}

TEST(ReadComment, ChessComFractionsAndTwoDigitHours) {
  EXPECT_EQ(notes_of("[%clk 0:02:59.9]").clock, 179.9);
  EXPECT_EQ(notes_of("[%clk 01:30:00]").clock, 5400.0);
  EXPECT_EQ(notes_of("[%clk 12:00:05.25]").clock, 43205.25);
  // A line wrapped after the command's name; one-digit minutes and seconds.
  EXPECT_EQ(notes_of("[%clk\n1:31:36]").clock, 5496.0);
  EXPECT_EQ(notes_of("[%clk 0:1:2]").clock, 62.0);
}

TEST(ReadComment, TextAroundCommandsKeptAndOtherCommandsStay) {
  const MoveNotes n = notes_of("Good move [%clk 0:01:00] here [%emt 0:00:03]");
  EXPECT_EQ(n.clock, 60.0);
  EXPECT_EQ(n.comment, "Good move here [%emt 0:00:03]");
  // A malformed command is text; so is a second clock.
  const MoveNotes bad = notes_of("[%clk 0:100:00] [%clk 0:00:61] [%clk1:00:00] [%clk 1.55:05] [%eval x]");
  EXPECT_FALSE(bad.clock);
  EXPECT_FALSE(bad.eval);
  EXPECT_EQ(bad.comment, "[%clk 0:100:00] [%clk 0:00:61] [%clk1:00:00] [%clk 1.55:05] [%eval x]");
  MoveNotes two;
  read_comment("[%clk 0:00:10]", two);
  read_comment("[%clk 0:00:09] and more", two);
  EXPECT_EQ(two.clock, 10.0);
  EXPECT_EQ(two.comment, "[%clk 0:00:09] and more");
}

TEST(GameTree, MainLineVariationsCommentsAndNags) {
  const Game g = one_game(
      "[Event \"t\"]\n\n{Start} 1. e4 {[%clk 0:01:00]} e5 $1 (1... c5 {Sicilian} 2. Nf3 (2. c3) 2... d6) "
      "({alone} 1... e6 $2) 2. Nf3 -- 3. Bc4 *\n");
  auto tree = game_tree(g);
  ASSERT_TRUE(tree.ok()) << tree.error().to_string();
  const std::vector<GameNode>& t = *tree;
  ASSERT_EQ(t.size(), 11u);  // the start and ten moves
  EXPECT_EQ(t[0].parent, -1);
  ASSERT_EQ(t[0].comments.size(), 1u);
  EXPECT_EQ(t[0].comments[0].text, "Start");
  // The main line follows the first variation of each node.
  std::vector<std::string> main;
  for (int n = t[0].variations.empty() ? -1 : t[0].variations[0]; n >= 0;
       n = t[n].variations.empty() ? -1 : t[n].variations[0])
    main.push_back(t[n].san);
  EXPECT_EQ(main, (std::vector<std::string>{"e4", "e5", "Nf3", "--", "Bc4"}));
  const GameNode& e4 = t[t[0].variations[0]];
  EXPECT_EQ(e4.uci, "e2e4");
  EXPECT_EQ(e4.notes.clock, 60.0);
  ASSERT_EQ(e4.variations.size(), 3u);  // e5, c5, e6
  const GameNode& e5 = t[e4.variations[0]];
  const GameNode& c5 = t[e4.variations[1]];
  const GameNode& e6 = t[e4.variations[2]];
  EXPECT_EQ(e5.nags, std::vector<std::uint8_t>{1});
  EXPECT_EQ(c5.san, "c5");
  EXPECT_EQ(c5.ply, 2);
  EXPECT_EQ(c5.notes.comment, "Sicilian");
  EXPECT_EQ(e6.san, "e6");
  ASSERT_EQ(e6.starting_comments.size(), 1u);
  EXPECT_EQ(e6.starting_comments[0].text, "alone");
  EXPECT_EQ(e6.nags, std::vector<std::uint8_t>{2});
  const GameNode& nf3 = t[c5.variations[0]];
  ASSERT_EQ(nf3.variations.size(), 1u);
  EXPECT_EQ(t[nf3.variations[0]].san, "d6");
  // 2. c3 is an alternative to 2. Nf3 after 1... c5.
  ASSERT_EQ(c5.variations.size(), 2u);
  EXPECT_EQ(t[c5.variations[1]].san, "c3");
  EXPECT_EQ(t[c5.variations[1]].parent, e4.variations[1]);
  // Every node comes after its parent.
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_LT(t[i].parent, static_cast<int>(i));
}

TEST(GameTree, NagsAndCommentsBeforeAVariationsFirstMove) {
  const Game g = one_game("1. e4 e5 2. Nf3 ( $2 {sc} 2. d4 ) ( $5 ) ( {only} ) Nc6 *\n");
  auto tree = game_tree(g);
  ASSERT_TRUE(tree.ok()) << tree.error().to_string();
  const std::vector<GameNode>& t = *tree;
  const GameNode& e5 = t[t[t[0].variations[0]].variations[0]];
  EXPECT_TRUE(e5.nags.empty());
  ASSERT_EQ(e5.variations.size(), 2u);  // Nf3, d4
  const GameNode& nf3 = t[e5.variations[0]];
  const GameNode& d4 = t[e5.variations[1]];
  EXPECT_EQ(d4.nags, std::vector<std::uint8_t>{2});
  ASSERT_EQ(d4.starting_comments.size(), 1u);
  EXPECT_EQ(d4.starting_comments[0].text, "sc");
  // The empty variations' NAG and comment follow the move they were alternatives to.
  EXPECT_EQ(nf3.nags, std::vector<std::uint8_t>{5});
  EXPECT_EQ(nf3.notes.comment, "only");
}

TEST(ReadComment, NoMateInZeroNorMinusZero) {
  EXPECT_FALSE(notes_of("[%eval #0]").mate);
  EXPECT_EQ(notes_of("[%eval #0]").comment, "[%eval #0]");
  const MoveNotes z = notes_of("[%eval -0.00]");
  ASSERT_TRUE(z.eval);
  EXPECT_FALSE(std::signbit(*z.eval));
}

TEST(GameTree, WithoutNotationAndRefusingBadEvents) {
  const Game g = one_game("1. d4 d5 *\n");
  auto quick = game_tree(g, false);
  ASSERT_TRUE(quick.ok());
  EXPECT_EQ(quick->size(), 3u);
  EXPECT_TRUE((*quick)[1].san.empty());
  EXPECT_EQ((*quick)[1].move, g.events[0].move);

  Game bad = g;
  bad.events.insert(bad.events.begin(), GameEvent::begin_variation());
  auto refused = game_tree(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("event 1"), std::string::npos) << refused.error().message();

  Game illegal = g;
  illegal.events[1].move = illegal.events[0].move;  // d2d4 again, for Black
  auto r = game_tree(illegal);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("not legal"), std::string::npos) << r.error().message();

  Game unended = g;
  unended.events.push_back(GameEvent::end_variation());
  EXPECT_FALSE(game_tree(unended).ok());
}

}  // namespace
}  // namespace pgnarc
