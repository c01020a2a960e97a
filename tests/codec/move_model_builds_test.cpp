// The two builds of the move model's frequencies (move_model.h): the base build, for every CPU,
// and the x86-64-v3 build with PEXT slider lookups, which this machine runs where it can (so the
// codec tests and the conformance vectors check that one). This test holds the base build to it,
// position by position, on random games with the history each position was reached by.
#include <gtest/gtest.h>

#include <random>

#include "codec/move_model.h"
#include "support/test_util.h"

namespace pgnarc::detail::model {
namespace {

TEST(MoveModelBuilds, BaseAndV3GiveTheSameFrequencies) {
#if PGNARC_HAVE_V3
  if (!v3_generator_supported()) GTEST_SKIP() << "this CPU runs only the base build";
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
        PieceTargets t;
        generate_targets(line.pos, t);
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
        line.play(move_at_index(line.pos, t, static_cast<int>(rng() % static_cast<unsigned>(t.total))));
      }
    }
  }
  EXPECT_GT(positions, 10000);
#else
  GTEST_SKIP() << "no v3 build with this compiler";
#endif
}

}  // namespace
}  // namespace pgnarc::detail::model
