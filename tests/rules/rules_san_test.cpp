// SAN: canonical output, lenient input, located errors.
#include "support/test_util.h"

namespace pgnarc {
namespace {

std::string san_of(const std::string& fen, const std::string& input) {
  const Position p = test::fen(fen);
  auto m = p.parse_san(input);
  if (!m.ok()) return "error: " + m.error().message();
  return p.san(*m);
}

TEST(SanOutput, DisambiguatesMinimally) {
  // Knights b1 and f3 both reach d2: file suffices.
  EXPECT_EQ(san_of("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nbd2"), "Nbd2");
  // Rooks a1 and a5 both reach a3: rank needed.
  EXPECT_EQ(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "R1a3"), "R1a3");
  // Queens on a1, a3, c1 all reach b2: from a1 needs both file and rank.
  EXPECT_EQ(san_of("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "Qa1b2"), "Qa1b2");
  // A pinned knight does not count as a rival.
  EXPECT_EQ(san_of("4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1", "Nd4"), "Nd4");
}

TEST(SanOutput, PromotionCheckMateCastling) {
  EXPECT_EQ(san_of("7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q"), "b8=Q+");
  EXPECT_EQ(san_of("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "Ra8"), "Ra8#");
  EXPECT_EQ(san_of("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O"), "O-O");
  EXPECT_EQ(san_of("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O"), "O-O-O");
  EXPECT_EQ(san_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6"), "exf6");
}

TEST(SanInput, LenientSpellings) {
  const std::string castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  EXPECT_EQ(san_of(castle, "0-0"), "O-O");
  EXPECT_EQ(san_of(castle, "0-0-0"), "O-O-O");
  EXPECT_EQ(san_of(castle, "O-O+"), "O-O");
  EXPECT_EQ(san_of(castle, "e1g1"), "O-O");  // UCI, standard chess
  EXPECT_EQ(san_of(castle, "e1h1"), "O-O");  // king takes own rook
  EXPECT_EQ(san_of(castle, "e1c1"), "O-O-O");
  const std::string promo = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(san_of(promo, "b8Q"), "b8=Q+");
  EXPECT_EQ(san_of(promo, "b8=N"), "b8=N");
  EXPECT_EQ(san_of(promo, "b8(R)"), "b8=R+");
  EXPECT_EQ(san_of(promo, "b7b8q"), "b8=Q+");
  EXPECT_EQ(san_of(promo, "b8=b"), "b8=B");
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(san_of(start, "Ng1f3"), "Nf3");   // over-disambiguated
  EXPECT_EQ(san_of(start, "Ng1-f3"), "Nf3");
  EXPECT_EQ(san_of(start, "g1f3"), "Nf3");    // UCI
  EXPECT_EQ(san_of(start, "nf3"), "Nf3");     // lowercase piece letter
  EXPECT_EQ(san_of(start, "Nf3+"), "Nf3");    // wrong check mark
  EXPECT_EQ(san_of(start, "Nf3#"), "Nf3");
  EXPECT_EQ(san_of(start, "Nf3!?"), "Nf3");
  EXPECT_EQ(san_of(start, "e2-e4"), "e4");
  EXPECT_EQ(san_of(start, "Pe4"), "e4");
  const std::string capture = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
  EXPECT_EQ(san_of(capture, "ed5"), "exd5");    // x missing
  EXPECT_EQ(san_of(capture, "exd5"), "exd5");
  EXPECT_EQ(san_of(capture, "e4xd5"), "exd5");
  EXPECT_EQ(san_of(capture, "Nxc3"), "Nc3");    // x extra
  const std::string ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
  EXPECT_EQ(san_of(ep, "exf6e.p."), "exf6");
  EXPECT_EQ(san_of(ep, "exf6 e.p."), "error: unreadable move \"exf6 e.p.\" in position " + test::fen(ep).fen());
}

TEST(SanInput, LowercaseBMeansWhicheverIsLegal) {
  // Only the bishop can go to c4: "bc4" is the bishop.
  EXPECT_EQ(san_of("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bc4"), "Bc4");
  // Only the b-pawn can take on c5: "bxc5" is the pawn.
  EXPECT_EQ(san_of("4k3/8/8/2p5/1P6/8/8/4K3 w - - 0 1", "bxc5"), "bxc5");
  // Both a b-pawn capture and a bishop capture on c5: the pawn, as canonical SAN means it.
  EXPECT_EQ(san_of("4k3/8/8/2p5/1P1B4/8/8/4K3 w - - 0 1", "bxc5"), "bxc5");
  EXPECT_EQ(san_of("4k3/8/8/2p5/1P1B4/8/8/4K3 w - - 0 1", "Bxc5"), "Bxc5");
  // UCI from b1 is the piece on b1, not a bishop from the first rank.
  EXPECT_EQ(san_of("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", "b1a3"), "Na3");
}

TEST(SanInput, ErrorsGiveTheSanAndTheFen) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(san_of(start, "Nf6"), "error: illegal move \"Nf6\" in position " + start);
  EXPECT_EQ(san_of(start, "e5"), "error: illegal move \"e5\" in position " + start);
  EXPECT_EQ(san_of(start, "O-O"), "error: illegal move \"O-O\" in position " + start);
  EXPECT_EQ(san_of(start, "Zz9"), "error: unreadable move \"Zz9\" in position " + start);
  EXPECT_EQ(san_of(start, ""), "error: empty move \"\" in position " + start);
  const std::string two_knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
  EXPECT_EQ(san_of(two_knights, "Nd2"),
            "error: ambiguous move \"Nd2\" (Nbd2, Nfd2) in position " + two_knights);
  EXPECT_EQ(san_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8"),
            "error: promotion piece missing in move \"b8\" in position 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(san_of("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", "b3=Q").substr(0, 20), "error: illegal move ");
}

TEST(SanRoundTrip, EveryLegalMoveParsesBackFromItsSan) {
  std::mt19937_64 rng(5);
  const char* starts[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
                          "2Q1Q3/8/8/8/1k6/8/8/Q3K2Q w - - 0 1"};
  int checked = 0;
  for (const char* s : starts) {
    test::random_walk(test::fen(s), 150, rng, [&](const Position& p) {
      for (Move m : p.legal_moves()) {
        const std::string san = p.san(m);
        auto back = p.parse_san(san);
        ASSERT_TRUE(back.ok()) << san << " " << p.fen() << ": " << back.error().message();
        ASSERT_EQ(*back, m) << san << " " << p.fen();
        auto uci = p.parse_san(p.uci(m));
        ASSERT_TRUE(uci.ok()) << p.uci(m) << " " << p.fen();
        ASSERT_EQ(*uci, m) << p.uci(m) << " " << p.fen();
        ++checked;
      }
    });
  }
  EXPECT_GT(checked, 5000);
}

}  // namespace
}  // namespace pgnarc
