// Xiangqi rules: each rule on a small position, FEN and ICCS in both directions, the legal move
// order, and perft against Fairy-Stockfish's counts (corpus/perft/xiangqi.txt, made by
// tools/dev/xiangqi-perft).
#include <algorithm>
#include <fstream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rules/xiangqi.h"
#include "rules/xiangqi_test_support.h"

namespace pgnarc::rules::xiangqi {

namespace {

constexpr const char* kStartFen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

Position parse(const std::string& fen) {
  auto r = Position::from_fen(fen);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? *r : Position();
}

Position board(const std::vector<std::pair<std::string, char>>& pieces, char side = 'w') {
  return parse(fen_of(pieces, side));
}

int sq(const char* name) { return make_square(name[0] - 'a', name[1] - '0'); }

// The ICCS to-squares of the legal moves from `from`, ascending.
std::vector<std::string> targets(const Position& pos, const char* from) {
  std::vector<std::string> out;
  for (const Move m : legal_moves(pos))
    if (m.from == sq(from)) out.push_back(square_name(m.to));
  return out;
}

using Squares = std::vector<std::string>;

TEST(XiangqiPerft, StartPositionMatchesPublishedCounts) {
  const Position start;
  EXPECT_EQ(start.fen(), kStartFen);
  const std::uint64_t expected[] = {1, 44, 1920, 79666, 3290240};
  for (int depth = 0; depth <= 4; ++depth) EXPECT_EQ(perft(start, depth), expected[depth]) << "depth " << depth;
}

// Every line of the corpus: the FEN reads, writes back unchanged, and has Fairy-Stockfish's
// count; its legal moves are listed in strictly ascending (from, to) order.
TEST(XiangqiPerft, MatchesFairyStockfishCorpus) {
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/perft/xiangqi.txt");
  ASSERT_TRUE(in) << "cannot open " << PGNARC_CORPUS_DIR << "/perft/xiangqi.txt";
  std::string line;
  int cases = 0, no_moves = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find(';'), b = line.find(';', a + 1);
    ASSERT_NE(b, std::string::npos) << "malformed line: " << line;
    const std::string fen = line.substr(0, a);
    const int depth = std::stoi(line.substr(a + 1, b - a - 1));
    const std::uint64_t nodes = std::stoull(line.substr(b + 1));
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << pos.error().to_string();
    EXPECT_EQ(pos->fen(), fen);
    EXPECT_EQ(perft(*pos, depth), nodes) << fen << " depth " << depth;
    const MoveList moves = legal_moves(*pos);
    EXPECT_TRUE(std::adjacent_find(moves.begin(), moves.end(), [](Move x, Move y) { return !(x < y); }) ==
                moves.end())
        << "legal moves out of order in " << fen;
    no_moves += moves.size == 0;
    ++cases;
  }
  EXPECT_GE(cases, 1000);
  EXPECT_GT(no_moves, 0);  // the corpus has mates and stalemates
}

TEST(XiangqiRules, MoveOrderIsAscendingAlongAGame) {
  // Always the middle legal move: a deterministic game that visits many shapes of position.
  Position pos;
  for (int ply = 0; ply < 200; ++ply) {
    const MoveList moves = legal_moves(pos);
    if (moves.size == 0) break;
    for (int i = 1; i < moves.size; ++i) ASSERT_LT(moves[i - 1], moves[i]) << pos.fen();
    for (const Move m : moves) ASSERT_TRUE(is_legal(pos, m));
    pos.play(moves[moves.size / 2]);
  }
}

TEST(XiangqiRules, IsLegalIsMembershipOfTheLegalMoves) {
  // Every pair of squares, in positions of the perft corpus (every tenth) and along a game.
  int positions = 0;
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/perft/xiangqi.txt");
  std::vector<Position> all;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#' && positions++ % 10 == 0)
      all.push_back(*Position::from_fen(line.substr(0, line.find(';'))));
  Position pos;
  for (int ply = 0; ply < 40; ++ply) {
    all.push_back(pos);
    const MoveList moves = legal_moves(pos);
    if (moves.size == 0) break;
    pos.play(moves[(ply * 7) % moves.size]);
  }
  ASSERT_GE(all.size(), 140u);
  for (const Position& p : all) {
    const MoveList moves = legal_moves(p);
    for (int from = 0; from < kSquares; ++from)
      for (int to = 0; to < kSquares; ++to) {
        const Move m{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
        ASSERT_EQ(is_legal(p, m), std::binary_search(moves.begin(), moves.end(), m)) << p.fen() << " " << to_iccs(m);
      }
  }
}

TEST(XiangqiRules, FlyingGeneralPinsTheOnlyPieceBetween) {
  // The red horse is the only piece between the generals: every horse move would leave them
  // facing each other.
  const Position pos = board({{"e0", 'K'}, {"e4", 'N'}, {"e9", 'k'}});
  EXPECT_EQ(targets(pos, "e4"), Squares{});
  EXPECT_EQ(targets(pos, "e0"), (Squares{"d0", "f0", "e1"}));  // e1 keeps the horse between
  EXPECT_FALSE(pos.in_check());
}

TEST(XiangqiRules, FlyingGeneralForbidsStepOntoOpenFile) {
  const Position pos = board({{"d0", 'K'}, {"e9", 'k'}});
  EXPECT_EQ(targets(pos, "d0"), (Squares{"d1"}));  // e0 faces the black general
  const Position black = board({{"d0", 'K'}, {"e9", 'k'}}, 'b');
  EXPECT_EQ(targets(black, "e9"), (Squares{"e8", "f9"}));  // d9 faces the red general
}

TEST(XiangqiRules, StalemateByFacingGeneralHasNoMoves) {
  // Black is not in check, but d8 is covered by the chariot and e9 faces the red general.
  const Position pos = board({{"e0", 'K'}, {"a8", 'R'}, {"d9", 'k'}}, 'b');
  EXPECT_FALSE(pos.in_check());
  EXPECT_EQ(legal_moves(pos).size, 0);
  EXPECT_EQ(perft(pos, 3), 0u);
}

TEST(XiangqiRules, CheckmateHasNoMoves) {
  const Position pos = board({{"f0", 'K'}, {"a8", 'R'}, {"a9", 'R'}, {"d9", 'k'}}, 'b');
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(legal_moves(pos).size, 0);
}

TEST(XiangqiRules, CannonMovesFreelyAndCapturesOverExactlyOneScreen) {
  const Position pos = board({{"d0", 'K'}, {"f9", 'k'}, {"b2", 'C'}, {"b5", 'n'}, {"b8", 'r'}, {"a2", 'n'},
                              {"e2", 'B'}, {"g2", 'p'}, {"h2", 'r'}});
  // Down b1, b0; along rank 2 to d2 (e2 is the screen for g2, h2 is behind a second piece);
  // up b3, b4, and b8 over the screen b5. Not a2: no screen between.
  EXPECT_EQ(targets(pos, "b2"), (Squares{"b0", "b1", "c2", "d2", "g2", "b3", "b4", "b8"}));
}

TEST(XiangqiRules, CannonChecksOverAScreenAndAPieceMayNotBecomeOne) {
  const Position checked = board({{"e0", 'K'}, {"e5", 'C'}, {"e7", 'n'}, {"e9", 'k'}}, 'b');
  EXPECT_TRUE(checked.in_check());
  // The red horse may not step between the black cannon and its general (e2, e4): it would
  // become the cannon's screen.
  const Position pos = board({{"e0", 'K'}, {"c3", 'N'}, {"e7", 'c'}, {"d9", 'k'}});
  EXPECT_FALSE(pos.in_check());
  EXPECT_EQ(targets(pos, "c3"), (Squares{"b1", "d1", "a2", "a4", "b5", "d5"}));
}

TEST(XiangqiRules, ElephantNeedsItsEyeEmptyAndStaysHome) {
  EXPECT_EQ(targets(board({{"d0", 'K'}, {"f9", 'k'}, {"e2", 'B'}}), "e2"), (Squares{"c0", "g0", "c4", "g4"}));
  // An eye taken by either side blocks.
  EXPECT_EQ(targets(board({{"d0", 'K'}, {"f9", 'k'}, {"e2", 'B'}, {"d3", 'n'}, {"f1", 'r'}}), "e2"),
            (Squares{"c0", "g4"}));
  // From the river bank, not over it.
  EXPECT_EQ(targets(board({{"d0", 'K'}, {"f9", 'k'}, {"c4", 'B'}}), "c4"), (Squares{"a2", "e2"}));
  EXPECT_EQ(targets(board({{"d0", 'K'}, {"f9", 'k'}, {"g5", 'b'}}, 'b'), "g5"), (Squares{"e7", "i7"}));
  // Elephants on squares they can never reach are not a position.
  EXPECT_FALSE(Position::from_fen(fen_of({{"d0", 'K'}, {"f9", 'k'}, {"e6", 'B'}}, 'w')).ok());
}

TEST(XiangqiRules, HorseNeedsItsLegEmpty) {
  const auto pos = [](std::vector<std::pair<std::string, char>> extra) {
    extra.push_back({"d0", 'K'});
    extra.push_back({"f9", 'k'});
    extra.push_back({"e5", 'N'});
    return board(extra);
  };
  EXPECT_EQ(targets(pos({}), "e5"), (Squares{"d3", "f3", "c4", "g4", "c6", "g6", "d7", "f7"}));
  // A red soldier on e6 blocks the way up; a black piece on d5 the way left (no capture).
  EXPECT_EQ(targets(pos({{"e6", 'P'}, {"d5", 'n'}}), "e5"), (Squares{"d3", "f3", "g4", "g6"}));
  // The black horse on d2 checks e0 over d1; the chariot on d1 blocks that leg and may only take
  // the horse.
  EXPECT_TRUE(board({{"e0", 'K'}, {"d2", 'n'}, {"d9", 'k'}}).in_check());
  const Position leg = board({{"e0", 'K'}, {"d1", 'R'}, {"d2", 'n'}, {"d9", 'k'}});
  EXPECT_FALSE(leg.in_check());
  EXPECT_EQ(targets(leg, "d1"), (Squares{"d2"}));
}

TEST(XiangqiRules, GeneralAndAdvisorsStayInThePalace) {
  EXPECT_EQ(targets(board({{"d0", 'K'}, {"f9", 'k'}}), "d0"), (Squares{"e0", "d1"}));
  // (The black horse keeps the f-file closed, so that f1 does not face the black general.)
  EXPECT_EQ(targets(board({{"e1", 'K'}, {"f9", 'k'}, {"f5", 'n'}}), "e1"), (Squares{"e0", "d1", "f1", "e2"}));
  EXPECT_EQ(targets(board({{"d2", 'K'}, {"f9", 'k'}}), "d2"), (Squares{"d1", "e2"}));
  EXPECT_EQ(targets(board({{"f0", 'K'}, {"d7", 'k'}}, 'b'), "d7"), (Squares{"e7", "d8"}));
  EXPECT_EQ(targets(board({{"f0", 'K'}, {"d9", 'k'}, {"e1", 'A'}}), "e1"), (Squares{"d0", "d2", "f2"}));
  EXPECT_EQ(targets(board({{"f0", 'K'}, {"d9", 'k'}, {"d0", 'A'}}), "d0"), (Squares{"e1"}));
  EXPECT_EQ(targets(board({{"e1", 'K'}, {"d9", 'k'}, {"f7", 'a'}}, 'b'), "f7"), (Squares{"e8"}));
}

TEST(XiangqiRules, SoldierGoesSidewaysOnlyOverTheRiverAndNeverBack) {
  const auto red = [](const char* at) { return board({{"d0", 'K'}, {"f9", 'k'}, {at, 'P'}}); };
  EXPECT_EQ(targets(red("c3"), "c3"), (Squares{"c4"}));
  EXPECT_EQ(targets(red("c4"), "c4"), (Squares{"c5"}));
  EXPECT_EQ(targets(red("c5"), "c5"), (Squares{"b5", "d5", "c6"}));
  EXPECT_EQ(targets(red("a6"), "a6"), (Squares{"b6", "a7"}));
  EXPECT_EQ(targets(red("c9"), "c9"), (Squares{"b9", "d9"}));
  const auto black = [](const char* at) { return board({{"d0", 'K'}, {"f9", 'k'}, {at, 'p'}}, 'b'); };
  EXPECT_EQ(targets(black("c6"), "c6"), (Squares{"c5"}));
  EXPECT_EQ(targets(black("c4"), "c4"), (Squares{"c3", "b4", "d4"}));
  EXPECT_EQ(targets(black("b0"), "b0"), (Squares{"a0", "c0"}));
}

TEST(XiangqiRules, PlayKeepsTheClocksAsFairyStockfish) {
  Position pos;
  for (const char* m : {"h2e2", "h9g7", "a3a4"}) pos.play(*parse_legal_iccs(pos, m));
  // Fairy-Stockfish after "h3e3 h10g8 a4a5": soldier moves do not reset the halfmove clock.
  EXPECT_EQ(pos.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/P8/2P1P1P1P/1C2C4/9/RNBAKABNR b - - 3 2");
  pos.play(*parse_legal_iccs(pos, "b7b0"));  // the cannon takes the horse over the red cannon
  EXPECT_EQ(pos.halfmove_clock(), 0);
  EXPECT_EQ(pos.fullmove_number(), 3);
  EXPECT_EQ(pos.side_to_move(), kRed);
  EXPECT_EQ(pos.piece_on(sq("b0")), make_piece(kBlack, kCannon));
  EXPECT_EQ(pos.piece_on(sq("b7")), kNoPiece);
}

TEST(XiangqiRules, TheClocksStopAtTheMostAFenGives) {
  Position pos = *Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 65535 65535");
  pos.play(*parse_legal_iccs(pos, "e9e8"));
  EXPECT_EQ(pos.halfmove_clock(), 65535);
  EXPECT_EQ(pos.fullmove_number(), 65535);
  EXPECT_EQ(Position::from_fen(pos.fen()).value(), pos);
}

TEST(XiangqiFen, RoundTripsAndReadsOtherLetters) {
  for (const char* fen : {kStartFen, "3ak1b2/4a4/2rn5/9/2P2n3/7p1/9/N1N1K4/9/p1BA1cB2 b - - 3 129",
                          "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 65535 65535"})
    EXPECT_EQ(parse(fen).fen(), fen);
  EXPECT_EQ(parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1").fen(), kStartFen);
  EXPECT_EQ(parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r").fen(), kStartFen);
  EXPECT_EQ(parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 0").fen(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 1");
  EXPECT_EQ(Position(), parse(kStartFen));
  // A general anywhere in its palace, an advisor on any of its five points.
  EXPECT_TRUE(Position::from_fen("3k5/4a4/3a5/9/9/9/9/9/4K4/5A3 w").ok());
}

TEST(XiangqiFen, RejectsBadInputWithAReason) {
  const std::string board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
  const std::pair<std::string, std::string> cases[] = {
      {"", "expected 2 to 6 fields"},
      {board, "expected 2 to 6 fields"},
      {board + " w - - 0 1 x", "more than 6"},
      {board + "  w", "empty"},
      {"3k5/9/9/9/9/9/9/9/4K4 w", "expected 10 ranks, found 9"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", "more than 10 ranks"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w", "rank 1 has 8 squares"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "more than 9 squares"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB5 w", "more than 9 squares"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w", "bad piece letter 'Q'"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNK w", "red general on i0"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "more than 1 red general"},
      {"rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "no black general"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKAABNR w", "red advisor on e0"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/4B4/P1P1P1P1P/1C5C1/9/RNBAKA1NR w", "red elephant on e4"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/P8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 5 red soldiers"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P3P/1C5CP/9/RNBAKABNR w", "red soldier on i2"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/1P7/P3P1P1P/1C5C1/9/RNBAKABNR w", "red soldier on b4"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABRR w", "more than 2 red chariots"},
      {board + " x", "expected 'w' (or 'r') or 'b'"},
      {board + " w KQkq", "field 3 (castling)"},
      {board + " w - e3", "field 4 (en passant)"},
      {board + " w - - x 1", "field 5 (halfmove clock)"},
      {board + " w - - 0 70000", "field 6 (fullmove number)"},
      {"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "is in check or its general faces the other"},
      {"3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "the side not to move (black) is in check"},
  };
  for (const auto& [fen, reason] : cases) {
    const auto r = Position::from_fen(fen);
    ASSERT_FALSE(r.ok()) << fen;
    EXPECT_NE(r.error().message().find(reason), std::string::npos) << r.error().message();
    EXPECT_NE(r.error().message().find(fen), std::string::npos) << r.error().message();
  }
}

TEST(XiangqiIccs, ConvertsBothWays) {
  const Move m{static_cast<std::uint8_t>(sq("h2")), static_cast<std::uint8_t>(sq("e2"))};
  EXPECT_EQ(m.from, 25);
  EXPECT_EQ(m.to, 22);
  EXPECT_EQ(to_iccs(m), "h2e2");
  for (const char* text : {"h2e2", "H2E2", "H2-E2", "h2-e2"}) {
    const auto r = parse_iccs(text);
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_EQ(*r, m) << text;
  }
  for (int from = 0; from < kSquares; ++from)
    for (int to = 0; to < kSquares; ++to) {
      const Move x{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
      ASSERT_EQ(*parse_iccs(to_iccs(x)), x);
    }
  EXPECT_EQ(square_name(0), "a0");
  EXPECT_EQ(square_name(89), "i9");
  for (const char* bad : {"", "h2", "h2e", "j2e2", "h2e:", "h2xe2", "h2e2 ", "h2--e2", "h10e2", "`2e2"}) {
    const auto r = parse_iccs(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message().find("bad ICCS move \"" + std::string(bad) + "\""), std::string::npos);
  }
}

TEST(XiangqiIccs, ParsesLegalMovesOnly) {
  const Position start;
  EXPECT_TRUE(parse_legal_iccs(start, "h2e2").ok());
  EXPECT_TRUE(parse_legal_iccs(start, "h2h9").ok());  // the cannon takes the horse over its cannon
  for (const char* illegal : {"h2h7", "h2h8", "e0e2", "a0a4", "b0d1"}) {
    const auto r = parse_legal_iccs(start, illegal);
    ASSERT_FALSE(r.ok()) << illegal;
    EXPECT_NE(r.error().message().find(kStartFen), std::string::npos) << r.error().message();
  }
  EXPECT_FALSE(is_legal(start, Move{200, 3}));
}

}  // namespace
}  // namespace pgnarc::rules::xiangqi
