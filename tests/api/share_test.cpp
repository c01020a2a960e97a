// Share tokens (spec 14): games back from their tokens, what the header holds, and texts that are
// not tokens.
#include "pgnarc/pgnarc.h"
#include "support/test_util.h"

namespace pgnarc {
namespace {

Game parse(const std::string& pgn) {
  GameBuilder b;
  PgnReader r(memory_input(pgn), "share.pgn");
  auto got = r.next(b);
  EXPECT_TRUE(got.ok() && *got) << pgn;
  return b.game();
}

std::vector<Move> main_line(const Game& g) {
  std::vector<Move> moves;
  int depth = 0;
  for (const GameEvent& e : g.events) {
    depth += e.type == GameEvent::kBeginVariation;
    depth -= e.type == GameEvent::kEndVariation;
    if (depth == 0 && e.type == GameEvent::kMove) moves.push_back(e.move);
  }
  return moves;
}

TEST(Share, GamesComeBackFromTheirTokens) {
  const std::vector<std::string> games = {
      "[Event \"a\"]\n[White \"X\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a comment} (3... Nf6) 4. Ba4 Nf6 5. O-O Be7 1-0\n",
      "1. d4 d5 2. c4 dxc4 0-1\n",
      "1. f3 e5 2. g4 Qh4# 0-1\n",
      "*\n",
      "[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/4P3/4K3 b - - 5 40\"]\n\n40... Kd4 41. e3+ Kd3 1/2-1/2\n",
      "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. g4 g5 2. O-O O-O *\n",
  };
  for (const std::string& pgn : games) {
    const Game g = parse(pgn);
    auto token = share_token(g);
    ASSERT_TRUE(token.ok()) << pgn << token.error().message();
    EXPECT_EQ(token->find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos);
    auto back = open_share_token(*token);
    ASSERT_TRUE(back.ok()) << *token << ": " << back.error().message();
    EXPECT_EQ(main_line(*back), main_line(g)) << pgn;
    EXPECT_EQ(back->result, g.result) << pgn;
    EXPECT_EQ(*back->tag("Result"), g.result == GameResult::kNone ? "*" : result_text(g.result));
    EXPECT_EQ(*start_position(back->tags), *start_position(g.tags)) << pgn;
    EXPECT_EQ(back->tag("Variant") != nullptr, g.tag("Variant") != nullptr) << pgn;
    // The same game gives the same token; its comments, variations and tags change nothing.
    Game bare = g;
    bare.events = {};
    for (Move m : main_line(g)) bare.events.push_back(GameEvent::make_move(m));
    bare.tags.erase(std::remove_if(bare.tags.begin(), bare.tags.end(),
                                   [](const Tag& t) { return t.key != "FEN" && t.key != "Variant"; }),
                    bare.tags.end());
    EXPECT_EQ(share_token(bare).value(), *token) << pgn;
  }
}

// The corpus's tournament games: about 1.2 characters a move (spec 14 says 40 to 60 characters for
// 40 moves); every token opens to its game's moves.
TEST(Share, AboutAByteAMove) {
  PgnReader r(memory_input(test::read_file(test::corpus_path("pgn/twic_events.pgn"))), "twic_events.pgn");
  std::size_t chars = 0, moves = 0, games = 0;
  for (;;) {
    GameBuilder b;
    auto got = r.next(b);
    ASSERT_TRUE(got.ok());
    if (!*got) break;
    const auto token = share_token(b.game());
    ASSERT_TRUE(token.ok());
    EXPECT_EQ(main_line(open_share_token(*token).value()), main_line(b.game()));
    chars += token->size();
    moves += (main_line(b.game()).size() + 1) / 2;
    ++games;
  }
  ASSERT_GT(games, 50u);
  EXPECT_LE(chars, moves * 3 / 2) << chars << " characters for " << moves << " moves";
}

TEST(Share, WhatCannotBeShared) {
  EXPECT_FALSE(share_token(parse("1. e4 -- 2. d4 *\n")).ok()) << "a null move in the main line";
  EXPECT_TRUE(share_token(parse("1. e4 (1. d4 -- 2. c4) 1... e5 *\n")).ok()) << "one in a variation is dropped with it";
  EXPECT_FALSE(share_token(parse("[Variant \"Atomic\"]\n\n1. e4 *\n")).ok());
}

TEST(Share, TextsThatAreNotTokens) {
  const std::string good = share_token(parse("1. e4 e5 2. Nf3 *\n")).value();
  ASSERT_TRUE(open_share_token(good).ok());
  for (const std::string& bad : {std::string(""), std::string("A"), good + "=", good.substr(0, 2) + "+" + good.substr(3),
                                 std::string("AQ"), std::string("AgE"), good + "A", good.substr(0, good.size() - 1)}) {
    auto g = open_share_token(bad);
    EXPECT_FALSE(g.ok()) << "'" << bad << "' opened";
    if (!g.ok()) EXPECT_NE(g.error().message().find("not a share token"), std::string::npos) << g.error().message();
  }
  // The header: version 2, then a reserved result (5 << 4), a reserved coder (2), bit 7.
  const auto with_header = [&](unsigned b0, unsigned b1) {
    // Two header bytes and the good token's codeword (whose first character starts at byte 2).
    const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const unsigned v = b0 << 16 | b1 << 8 | 0;
    std::string head;
    for (int shift = 18; shift >= 0; shift -= 6) head += alphabet[(v >> shift) & 63];
    return head;  // three bytes: the header and a codeword byte of 0
  };
  EXPECT_NE(open_share_token(with_header(2, 1)).error().message().find("token version 2"), std::string::npos);
  EXPECT_NE(open_share_token(with_header(1, 0x51)).error().message().find("reserved"), std::string::npos);
  EXPECT_NE(open_share_token(with_header(1, 0x02)).error().message().find("reserved"), std::string::npos);
  EXPECT_NE(open_share_token(with_header(1, 0x81)).error().message().find("reserved"), std::string::npos);
}

}  // namespace
}  // namespace pgnarc
