// The fast model (fast_model.h): its builds (base, x86-64-v3, and the reference that adds each
// feature's weight on its own) give the same frequencies position by position, on the corpus's
// games and on random ones; the opening book holds the openings and gives 7.8's frequencies;
// and the fast coder's frequencies are the book's where it holds a position, else the model's.
#include <gtest/gtest.h>

#include "codec/model/fast_model.h"
#include "codec/entropy/move_coder.h"
#include "support/model_replay.h"
#include "support/test_util.h"

namespace pgnarc::codec::fast {
namespace {

using model::LineState;

// Every position of `line`: the base build's frequencies (and the v3 build's, where the CPU
// runs it) equal the reference's.
void expect_builds_equal_reference(const test::MainLine& line, long& positions) {
  test::replay_line(line, [&](const LineState& at, const rules::PieceTargets& t) {
    std::uint32_t want[kMaxLegalMoves], got[kMaxLegalMoves];
    const std::uint32_t total = model_frequencies_reference(at.pos, t, at.history, want, kWeights.data());
    bool same = model_frequencies_base(at.pos, t, at.history, got, kWeights.data()) == total;
    for (int i = 0; i < t.total && same; ++i) same = got[i] == want[i];
#if PGNARC_HAVE_V3
    if (same && rules::v3_generator_supported()) {
      same = model_frequencies_v3(at.pos, t, at.history, got, kWeights.data()) == total;
      for (int i = 0; i < t.total && same; ++i) same = got[i] == want[i];
    }
#endif
    // The library's entry point (the combined to-square table) too.
    if (same) {
      same = model_frequencies(at.pos, t, at.history, got) == total;
      for (int i = 0; i < t.total && same; ++i) same = got[i] == want[i];
    }
    EXPECT_TRUE(same) << line.label << " " << at.pos.fen();
    positions += same;
    return same;
  });
}

TEST(FastModel, BuildsEqualTheReferenceOnRealGames) {
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

TEST(FastModel, BuildsEqualTheReferenceOnRandomGames) {
  long positions = 0;
  for (const auto& line : test::random_lines({"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                              "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                              "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                                              "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"},
                                             30, 200, 31)) {
    expect_builds_equal_reference(line, positions);
    if (HasFailure()) return;
  }
  EXPECT_GT(positions, 15000);
}

// King of the hill after a null move in check: the side to move may face no king (its king was
// taken), which the model's facts must meet without reading past a table.
TEST(FastModel, BuildsEqualTheReferenceWhereTheirKingIsTaken) {
  long positions = 0, king_captures = 0;
  for (const auto& line : test::king_taken_lines(200, 37, king_captures)) {
    expect_builds_equal_reference(line, positions);
    if (HasFailure()) return;
  }
  EXPECT_GT(king_captures, 20);
  EXPECT_GT(positions, 5000);
}

TEST(FastModel, BookFrequenciesFollowTheFormula) {
  // N = 10 games: move 0 played 7 times, move 3 three times; 20 legal moves.
  const BookEntry entries[] = {{0, 7}, {3, 3}};
  const BookNode node{entries, 10};
  std::uint32_t f[kMaxLegalMoves];
  const std::uint32_t total = book_frequencies(node, 20, f);
  // Escape floor(3 * 65536 / (13 * 20)) + 1 = 757; move 0 floor(7 * 65536 / 13) = 35288.
  EXPECT_EQ(f[1], 757u);
  EXPECT_EQ(f[0], 35288u + 757u);
  EXPECT_EQ(f[3], 15123u + 757u);
  EXPECT_EQ(total, 35288u + 15123u + 20u * 757u);
}

TEST(FastModel, TheBookHoldsOpeningsOfStandardChessOnly) {
  const Position start;
  const BookNode* node = book_node(start);
  ASSERT_NE(node, nullptr) << "the book holds the start position";
  rules::PieceTargets t;
  rules::generate_targets(start, t);
  std::uint64_t sum = 0;
  int e4 = -1;
  for (const BookEntry& e : node->entries) {
    ASSERT_LT(e.index, t.total);
    sum += e.count;
    if (start.uci(rules::move_at_index(start, t, e.index)) == "e2e4") e4 = e.index;
  }
  EXPECT_EQ(sum, node->games);
  ASSERT_GE(e4, 0) << "1. e4 is in the book";
  // 1. e4 e5 2. Nf3: in the book, by position, whatever the move order that reached it.
  EXPECT_NE(book_node(test::fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")), nullptr);
  // The same placement at move 21 is not looked up; nor a variant's start.
  EXPECT_EQ(book_node(test::fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 21")), nullptr);
  EXPECT_EQ(book_node(Position::start(Variant::kThreeCheck)), nullptr);
  // Castling rights are part of the position.
  EXPECT_EQ(book_node(test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")), nullptr);
}

TEST(FastModel, TheFastCoderTakesTheBookWhereItHoldsThePosition) {
  const Position start;
  rules::PieceTargets t;
  rules::generate_targets(start, t);
  PlyFrequencies coded;
  ply_frequencies(codec::MoveCoder::kFast, false, 0, start, t, {}, coded);
  std::uint32_t want[kMaxLegalMoves];
  ASSERT_NE(book_node(start), nullptr);
  EXPECT_EQ(coded.total, book_frequencies(*book_node(start), t.total, want));
  for (int i = 0; i < t.total; ++i) EXPECT_EQ(coded.freq[i], want[i]) << i;
  // Out of the book: the model's.
  const Position late = test::fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 25");
  rules::generate_targets(late, t);
  ply_frequencies(codec::MoveCoder::kFast, true, 48, late, t, {}, coded);
  const std::uint32_t model_total = model_frequencies(late, t, {}, want);
  EXPECT_EQ(coded.total, model_total + coded.end);
  for (int i = 0; i < t.total; ++i) EXPECT_EQ(coded.freq[i], want[i]) << i;
}

}  // namespace
}  // namespace pgnarc::codec::fast
