// The builds of the move model's frequencies (move_model.h): the base build, for every CPU, and
// the x86-64-v3 build with PEXT slider lookups, which this machine runs where it can (so the
// codec tests and the conformance vectors check that one), both with tables of the weights'
// sums and exchanges put off to after the move loop; and the reference, each feature's weight
// added on its own. These tests hold the builds to each other and to the reference, position
// by position, on random games and on the corpus's games, with the history each position was
// reached by.
#include <gtest/gtest.h>

#include <random>

#include "codec/model/move_model.h"
#include "support/model_replay.h"
#include "support/test_util.h"

namespace pgnarc::codec::model {
namespace {

TEST(MoveModelBuilds, BaseAndV3GiveTheSameFrequencies) {
#if PGNARC_HAVE_V3
  if (!rules::v3_generator_supported()) GTEST_SKIP() << "this CPU runs only the base build";
  const char* starts[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",  // Chess960
  };
  std::mt19937_64 rng(11);
  long positions = 0;
  for (const char* start : starts) {
    for (int game = 0; game < 25; ++game) {
      LineState line{test::fen(start), {}};
      for (int ply = 0; ply < 160; ++ply) {
        rules::PieceTargets t;
        rules::generate_targets(line.pos, t);
        if (t.total == 0) break;
        std::uint32_t a[kMaxLegalMoves], b[kMaxLegalMoves];
        const std::uint32_t total_a = frequencies_base(line.pos, t, line.history, a, kWeights.data());
        const std::uint32_t total_b = frequencies_v3(line.pos, t, line.history, b, kWeights.data());
        ASSERT_EQ(total_a, total_b) << line.pos.fen();
        for (int i = 0; i < t.total; ++i) ASSERT_EQ(a[i], b[i]) << line.pos.fen() << " move " << i;
        ++positions;
        // Now and then a null move, which forgets the history.
        if (rng() % 40 == 0 && !t.check) {
          line.play_null();
          continue;
        }
        line.play(rules::move_at_index(line.pos, t, static_cast<int>(rng() % static_cast<unsigned>(t.total))));
      }
    }
  }
  EXPECT_GT(positions, 10000);
#else
  GTEST_SKIP() << "no v3 build with this compiler";
#endif
}

// Every position of `line` (its history included): the base build's frequencies (and the v3
// build's, where the CPU runs it) equal the reference's.
void expect_builds_equal_reference(const test::MainLine& line, long& positions) {
  test::replay_line(line, [&](const LineState& at, const rules::PieceTargets& t) {
    std::uint32_t want[kMaxLegalMoves], got[kMaxLegalMoves];
    const std::uint32_t total = frequencies_reference(at.pos, t, at.history, want, kWeights.data());
    bool same = frequencies_base(at.pos, t, at.history, got, kWeights.data()) == total;
    for (int i = 0; i < t.total && same; ++i) same = got[i] == want[i];
#if PGNARC_HAVE_V3
    if (same && rules::v3_generator_supported()) {
      same = frequencies_v3(at.pos, t, at.history, got, kWeights.data()) == total;
      for (int i = 0; i < t.total && same; ++i) same = got[i] == want[i];
    }
#endif
    EXPECT_TRUE(same) << line.label << " " << at.pos.fen();
    positions += same;
    return same;
  });
}

TEST(MoveModelBuilds, EqualTheReferenceOnRealGames) {
  long positions = 0;
  for (const char* file : {"pgn/twic_events.pgn", "pgn/lichess_2021-10_clk_eval.pgn", "pgn/pgnmentor_crlf.pgn",
                           "pgn/chess960_misc.pgn", "pgn/setup_fen.pgn", "pgn/annotated_human.pgn"}) {
    std::vector<test::MainLine> lines;
    ASSERT_TRUE(test::read_main_lines("test", test::corpus_path(file), lines)) << file;
    for (const auto& line : lines) {
      expect_builds_equal_reference(line, positions);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(positions, 15000);
}

TEST(MoveModelBuilds, EqualTheReferenceOnRandomGames) {
  long positions = 0;
  for (const auto& line : test::random_lines({"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                              "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                              "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
                                             30, 200, 23)) {
    expect_builds_equal_reference(line, positions);
    if (HasFailure()) return;
  }
  EXPECT_GT(positions, 10000);
}

// King of the hill, whose moves are standard chess's while the side to move has a king: null
// moves in check let a king be taken, which standard chess never does.
TEST(MoveModelBuilds, EqualTheReferenceWhereAKingIsTaken) {
  long positions = 0, king_captures = 0;
  for (const auto& line : test::king_taken_lines(200, 29, king_captures)) {
    expect_builds_equal_reference(line, positions);
    if (HasFailure()) return;
  }
  EXPECT_GT(king_captures, 20);
  EXPECT_GT(positions, 5000);
}

}  // namespace
}  // namespace pgnarc::codec::model
