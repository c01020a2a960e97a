// The move model's frequencies of positions met again (codec/model/frequency_cache.h): what a cache
// gives is what the model computes, however few its slots (a slot shared by many positions is
// taken over, never read for another), on the corpus's games played twice.
#include <gtest/gtest.h>

#include <random>

#include "codec/model/frequency_cache.h"
#include "support/model_replay.h"
#include "support/test_util.h"

namespace pgnarc::codec::model {
namespace {

// Each ply of every line of `files`, twice (the second time mostly from the cache where it has
// room): the cache's frequencies equal the model's. Returns the plies compared.
long compare_with_model(FrequencyCache& cache, const std::vector<test::MainLine>& lines) {
  long plies = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& line : lines) {
      bool same = true;
      test::replay_line(line, [&](const LineState& at, const rules::PieceTargets& t) {
        std::uint32_t want[kMaxLegalMoves], got[kMaxLegalMoves];
        const std::uint32_t total = frequencies(at.pos, t, at.history, want);
        EXPECT_EQ(cache.frequencies(at.pos, t, at.history, got), total) << line.label << " " << at.pos.fen();
        for (int i = 0; i < t.total && same; ++i) {
          EXPECT_EQ(got[i], want[i]) << line.label << " " << at.pos.fen() << " move " << i;
          same = got[i] == want[i];
        }
        plies += same;
        return same;
      });
      if (!same) return plies;
    }
  }
  return plies;
}

std::vector<test::MainLine> corpus_lines() {
  std::vector<test::MainLine> lines;
  for (const char* file : {"pgn/twic_events.pgn", "pgn/lichess_2021-10_clk_eval.pgn", "pgn/chess960_misc.pgn",
                           "pgn/setup_fen.pgn"})
    EXPECT_TRUE(test::read_main_lines("test", test::corpus_path(file), lines)) << file;
  return lines;
}

TEST(FrequencyCache, GivesTheModelsFrequencies) {
  const auto lines = corpus_lines();
  for (unsigned slots : {4096u, 64u, 1u}) {
    FrequencyCache cache(slots);
    EXPECT_GT(compare_with_model(cache, lines), 20000) << slots << " slots";
  }
}

// Positions and histories, each next to one that differs in one thing the key must tell apart:
// the en passant square, a castling right, the fullmove number (the phase), where the last two
// moves went, whether they captured, what moved last. With one slot, each lookup meets the
// position before it.
TEST(FrequencyCache, TellsApartWhatTheModelReads) {
  const std::string board = "r3k2r/ppp1qppp/2n1bn2/3pP3/8/2N1BN2/PPPQ1PPP/R3K2R w ";
  const std::vector<Position> positions = {test::fen(board + "KQkq d6 0 9"),  test::fen(board + "KQkq - 0 9"),
                                           test::fen(board + "KQkq d6 0 9"),  test::fen(board + "Kkq d6 0 9"),
                                           test::fen(board + "KQkq d6 0 9"),  test::fen(board + "KQkq d6 0 11"),
                                           test::fen(board + "KQkq d6 0 30"), test::fen(board + "KQkq d6 0 21")};
  const std::vector<History> histories = {
      History{}, History{51, 35, kNoSquare, kNoSquare, false, false, kPawn}, History{51, 35, 12, 28, false, false, kPawn},
      History{51, 35, 12, 28, true, false, kPawn}, History{51, 35, 12, 28, true, true, kPawn},
      History{51, 35, 12, 28, true, true, kKnight}, History{51, 35, 12, 20, true, true, kKnight}};
  FrequencyCache cache(1);
  long differ = 0;  // neighbours whose frequencies differ: the test can fail
  std::vector<std::uint32_t> last;
  auto check = [&](const Position& p, const History& h) {
    rules::PieceTargets t;
    rules::generate_targets(p, t);
    std::uint32_t want[kMaxLegalMoves], got[kMaxLegalMoves];
    const std::uint32_t total = frequencies(p, t, h, want);
    ASSERT_EQ(cache.frequencies(p, t, h, got), total) << p.fen();
    for (int i = 0; i < t.total; ++i) ASSERT_EQ(got[i], want[i]) << p.fen() << " move " << i;
    std::vector<std::uint32_t> now(want, want + t.total);
    differ += now != last;
    last = now;
  };
  for (const History& h : histories)
    for (const Position& p : positions) check(p, h);
  for (const Position& p : positions)
    for (const History& h : histories) check(p, h);
  EXPECT_GT(differ, 80);
}

}  // namespace
}  // namespace pgnarc::codec::model
