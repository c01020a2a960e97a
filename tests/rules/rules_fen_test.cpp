// FEN: strict parsing with errors that name the field and the reason; output.
#include "support/test_util.h"

namespace pgnarc {
namespace {

std::string fen_error(const std::string& fen) {
  auto r = Position::from_fen(fen);
  return r.ok() ? "ok" : r.error().message();
}

bool mentions(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(Fen, RoundTripsCanonicalFens) {
  for (const char* f : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
           "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9",
           "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
           "1r1kr3/8/8/8/8/8/8/RR1K4 w Bq - 0 1",
       }) {
    EXPECT_EQ(test::fen(f).fen(), f);
  }
}

TEST(Fen, ShredderAndXFenCastlingAreTheSamePosition) {
  EXPECT_EQ(test::fen("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9"),
            test::fen("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9"));
  Position shredder = test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  shredder.set_chess960(false);
  EXPECT_EQ(shredder, Position());
}

TEST(Fen, Chess960IsInferredFromCastlingRights) {
  EXPECT_FALSE(Position().chess960());
  EXPECT_TRUE(test::fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1").chess960());
  EXPECT_TRUE(test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").chess960());
  EXPECT_TRUE(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true)->chess960());
}

TEST(Fen, OptionalClocksAndExtraSpaces) {
  EXPECT_EQ(test::fen("4k3/8/8/8/8/8/8/4K3 w - -").fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(test::fen("  4k3/8/8/8/8/8/8/4K3  b  -  -  3  40 ").fen(), "4k3/8/8/8/8/8/8/4K3 b - - 3 40");
}

TEST(Fen, EnPassantSquareKeptOnlyWhenACaptureIsPossible) {
  EXPECT_EQ(test::fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").ep_square(), kNoSquare);
  EXPECT_EQ(test::fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").ep_square(), 20);
}

TEST(Fen, ErrorsNameTheFieldAndTheReason) {
  struct Case {
    const char* fen;
    const char* field;
    const char* reason;
  };
  const Case cases[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "field 1 (piece placement)", "expected 8 ranks, found 7"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1", "field 1", "more than 8 ranks"},
      {"rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1", "bad piece letter 'X'"},
      {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1", "rank 7 has 7 squares, not 8"},
      {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1", "rank 7 has more than 8 squares"},
      {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1", "bad piece letter '9'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", "field 1", "more than one white king"},
      {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "field 1", "no black king"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PNBQKBNR w k - 0 1", "field 1", "pawn on a1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "field 2 (side to move)", "expected 'w' or 'b'"},
      {"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "field 3 (castling)", "right 'K' but no rook"},
      {"4k3/8/8/8/8/8/4K3/R6R w Q - 0 1", "field 3 (castling)", "king is not on its first rank"},
      {"4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", "field 3 (castling)", "two rights for the same side"},
      {"4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", "field 3 (castling)", "bad character 'X'"},
      {"4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "field 4 (en passant)", "must be on rank 6"},
      {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "field 4 (en passant)", "no pawn can just have made a double step"},
      {"4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "field 4 (en passant)", "is not a square"},
      {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "field 5 (halfmove clock)", "is not a number"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "field 6 (fullmove number)", "is not a number"},
      {"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "field 2 (side to move)", "the side not to move (black) is in check"},
      {"4k3/8/8/8/8/8/8/4K3 w", "", "expected 4 to 6 fields, found 2"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 2", "", "expected 4 to 6 fields, found 7 or more"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 2 3 4 5", "", "expected 4 to 6 fields, found 7 or more"},
      {"4k3/8/8/8/8/8/8/4X3 w - - 0 1", "field 1", "bad piece letter 'X'"},
      {"4k3/8/8/8/8/8/8/4\xc3\xa9K2 w - - 0 1", "field 1", "bad piece letter"},
      {"QQQQQQQQ/QQQQQQQk/QQ6/8/8/8/8/4K3 w - - 0 1", "field 1", "more than 16 white pieces"},
  };
  for (const Case& c : cases) {
    const std::string msg = fen_error(c.fen);
    EXPECT_TRUE(mentions(msg, c.field)) << c.fen << " -> " << msg;
    EXPECT_TRUE(mentions(msg, c.reason)) << c.fen << " -> " << msg;
    EXPECT_TRUE(mentions(msg, c.fen)) << "error should quote the FEN: " << msg;
  }
}

// What a position search compares: pieces, side to move, castling rights and the en passant
// square only where the capture is legal.
TEST(Fen, SamePositionIgnoresCountersAndIllegalEnPassant) {
  const auto pos = [](const char* fen) { return Position::from_fen(fen).value(); };
  const Position a = pos("rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
  EXPECT_TRUE(same_position(a, pos("rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 9 40")));
  EXPECT_FALSE(same_position(a, pos("rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")));
  EXPECT_FALSE(same_position(a, pos("rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w Kkq d6 0 3")));
  EXPECT_EQ(a.legal_ep_square(), make_square(3, 5));
  // The pawn on b5 may not take on c6: the rook on h5 would check its king.
  const Position pinned = pos("7k/8/8/KPp4r/8/8/8/8 w - c6 0 2");
  EXPECT_EQ(pinned.ep_square(), make_square(2, 5)) << "a pawn stands ready, so the square is kept";
  EXPECT_EQ(pinned.legal_ep_square(), kNoSquare);
  EXPECT_TRUE(same_position(pinned, pos("7k/8/8/KPp4r/8/8/8/8 w - - 0 2")));
  EXPECT_FALSE(same_position(pinned, pos("7k/8/8/KPp4r/8/8/8/8 b - - 0 2")));
  EXPECT_EQ(pinned.fen(kNoSquare), "7k/8/8/KPp4r/8/8/8/8 w - - 0 2");
}

TEST(Fen, AfterPliesOfAMainLine) {
  Game g;
  EXPECT_EQ(fen_after(g, 0).value(), Position().fen());
  EXPECT_FALSE(fen_after(g, 1).ok()) << "no ply to play";
  EXPECT_FALSE(fen_after(g, -1).ok()) << "no position before the start";
  g.events = {GameEvent::make_move(Position().parse_san("e4").value()), GameEvent::begin_variation(),
              GameEvent::make_move(Position().parse_san("d4").value()), GameEvent::end_variation()};
  EXPECT_EQ(fen_after(g, 1).value(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") << "the variation skipped";
  EXPECT_EQ(fen_after(g, 1, FenEnPassant::kWhenLegal).value(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST(Fen, MayStillReachFollowsWhatNeverComesBack) {
  const auto pos = [](const char* fen) { return Position::from_fen(fen).value(); };
  const Position start;
  const Position e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_TRUE(may_still_reach(start, e4));
  EXPECT_FALSE(may_still_reach(e4, start)) << "the e-pawn cannot go back to e2";
  EXPECT_FALSE(may_still_reach(pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1"), start))
      << "a castling right lost";
  EXPECT_FALSE(may_still_reach(pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1"), start))
      << "a piece gone";
  EXPECT_TRUE(may_still_reach(pos("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"), start))
      << "the knight may go back";
}

}  // namespace
}  // namespace pgnarc
