// The canonical move order and legal move generation, tested against a naive reference
// generator written independently here (array board, ray walking, no bitboards).
#include <algorithm>
#include <array>
#include <vector>

#include "support/test_util.h"

namespace pgnarc {
namespace {

using Board = std::array<Piece, 64>;

Board board_of(const Position& pos) {
  Board b{};
  for (int s = 0; s < 64; ++s) b[s] = pos.piece_on(static_cast<Square>(s));
  return b;
}

bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

bool naive_attacked(const Board& b, int sq, Color by) {
  const int f = sq & 7, r = sq >> 3;
  auto is = [&](int ff, int rr, PieceType t) {
    return on_board(ff, rr) && b[ff + 8 * rr] == make_piece(by, t);
  };
  const int pawn_dir = by == kWhite ? -1 : 1;  // a white pawn attacks from one rank below
  if (is(f - 1, r + pawn_dir, kPawn) || is(f + 1, r + pawn_dir, kPawn)) return true;
  for (auto [df, dr] : {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
    if (is(f + df, r + dr, kKnight)) return true;
  for (int df = -1; df <= 1; ++df)
    for (int dr = -1; dr <= 1; ++dr)
      if ((df || dr) && is(f + df, r + dr, kKing)) return true;
  for (int df = -1; df <= 1; ++df) {
    for (int dr = -1; dr <= 1; ++dr) {
      if (!df && !dr) continue;
      const PieceType slider = (df && dr) ? kBishop : kRook;
      for (int ff = f + df, rr = r + dr; on_board(ff, rr); ff += df, rr += dr) {
        const Piece p = b[ff + 8 * rr];
        if (p == kNoPiece) continue;
        if (p == make_piece(by, slider) || p == make_piece(by, kQueen)) return true;
        break;
      }
    }
  }
  return false;
}

int king_of(const Board& b, Color c) {
  return static_cast<int>(std::find(b.begin(), b.end(), make_piece(c, kKing)) - b.begin());
}

// All legal moves by brute force: every piece to every square it reaches, played on an array
// board, kept if the king is then safe. Returned in no particular order.
std::vector<Move> naive_legal_moves(const Position& pos) {
  const Board b = board_of(pos);
  const Color us = pos.side_to_move(), them = ~us;
  std::vector<Move> out;
  auto try_move = [&](int from, int to, Move m) {
    Board after = b;
    after[to] = after[from];
    after[from] = kNoPiece;
    if (m.kind() == Move::kEnPassant) after[to + (us == kWhite ? -8 : 8)] = kNoPiece;
    if (m.kind() == Move::kPromotion) after[to] = make_piece(us, m.promotion());
    if (!naive_attacked(after, king_of(after, us), them)) out.push_back(m);
  };
  for (int from = 0; from < 64; ++from) {
    const Piece p = b[from];
    if (p == kNoPiece || color_of(p) != us) continue;
    const int f = from & 7, r = from >> 3;
    auto target_ok = [&](int ff, int rr) {
      return on_board(ff, rr) && (b[ff + 8 * rr] == kNoPiece || color_of(b[ff + 8 * rr]) == them);
    };
    std::vector<int> targets;
    switch (type_of(p)) {
      case kPawn: {
        const int dir = us == kWhite ? 1 : -1;
        if (on_board(f, r + dir) && b[f + 8 * (r + dir)] == kNoPiece) {
          targets.push_back(f + 8 * (r + dir));
          const int start = us == kWhite ? 1 : 6;
          if (r == start && b[f + 8 * (r + 2 * dir)] == kNoPiece) targets.push_back(f + 8 * (r + 2 * dir));
        }
        for (int df : {-1, 1}) {
          if (!on_board(f + df, r + dir)) continue;
          const int t = f + df + 8 * (r + dir);
          if ((b[t] != kNoPiece && color_of(b[t]) == them) || t == pos.ep_square()) targets.push_back(t);
        }
        for (int t : targets) {
          if ((t >> 3) == 0 || (t >> 3) == 7) {
            for (PieceType pr : {kKnight, kBishop, kRook, kQueen})
              try_move(from, t, Move(static_cast<Square>(from), static_cast<Square>(t), Move::kPromotion, pr));
          } else {
            try_move(from, t, Move(static_cast<Square>(from), static_cast<Square>(t),
                                   t == pos.ep_square() ? Move::kEnPassant : Move::kNormal));
          }
        }
        continue;
      }
      case kKnight:
        for (auto [df, dr] : {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
          if (target_ok(f + df, r + dr)) targets.push_back(f + df + 8 * (r + dr));
        break;
      case kKing:
        for (int df = -1; df <= 1; ++df)
          for (int dr = -1; dr <= 1; ++dr)
            if ((df || dr) && target_ok(f + df, r + dr)) targets.push_back(f + df + 8 * (r + dr));
        break;
      default:
        for (int df = -1; df <= 1; ++df) {
          for (int dr = -1; dr <= 1; ++dr) {
            if (!df && !dr) continue;
            const bool diagonal = df && dr;
            if (type_of(p) == kBishop && !diagonal) continue;
            if (type_of(p) == kRook && diagonal) continue;
            for (int ff = f + df, rr = r + dr; on_board(ff, rr); ff += df, rr += dr) {
              if (!target_ok(ff, rr)) break;
              targets.push_back(ff + 8 * rr);
              if (b[ff + 8 * rr] != kNoPiece) break;
            }
          }
        }
    }
    for (int t : targets) try_move(from, t, Move(static_cast<Square>(from), static_cast<Square>(t)));
  }
  // Castling by the Chess960 rules, stated directly.
  const int k = king_of(b, us);
  if (!naive_attacked(b, k, them)) {
    for (CastleSide side : {kKingSide, kQueenSide}) {
      const int rook = pos.castling_rook(us, side);
      if (rook == kNoSquare) continue;
      const int base = us == kWhite ? 0 : 56;
      const int kto = base + (side == kKingSide ? 6 : 2), rto = base + (side == kKingSide ? 5 : 3);
      bool ok = true;
      for (int s = std::min({k, kto, rook, rto}); s <= std::max({k, kto, rook, rto}); ++s) {
        const bool on_path = (s >= std::min(k, kto) && s <= std::max(k, kto)) ||
                             (s >= std::min(rook, rto) && s <= std::max(rook, rto));
        if (on_path && s != k && s != rook && b[s] != kNoPiece) ok = false;
      }
      Board lifted = b;
      lifted[k] = lifted[rook] = kNoPiece;
      for (int s = std::min(k, kto); s <= std::max(k, kto); ++s)
        if (naive_attacked(lifted, s, them)) ok = false;
      if (ok) out.push_back(Move(static_cast<Square>(k), static_cast<Square>(rook), Move::kCastling));
    }
  }
  return out;
}

// The canonical sort key of the specification: (from, to, promotion N<B<R<Q).
int order_key(Move m) {
  const int promo = m.kind() == Move::kPromotion ? m.promotion() - kKnight : 0;
  return (m.from() * 64 + m.to()) * 4 + promo;
}

const char* kStarts[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
    "nnrkrbbq/pppp2pp/8/4pp2/4P3/P7/1PPPBPPP/NNKRR1BQ w c - 0 9",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
};

TEST(MoveGen, MatchesNaiveReferenceOnRandomGames) {
  std::mt19937_64 rng(20261122);
  int positions = 0;
  for (const char* start : kStarts) {
    const Position pos = test::fen(start);
    for (int game = 0; game < 40; ++game) {
      test::random_walk(pos, 120, rng, [&](const Position& p) {
        std::vector<Move> expected = naive_legal_moves(p);
        std::sort(expected.begin(), expected.end(),
                  [](Move a, Move b) { return order_key(a) < order_key(b); });
        const MoveList got = p.legal_moves();
        ASSERT_EQ(std::vector<Move>(got.begin(), got.end()), expected) << p.fen();
        ASSERT_EQ(p.legal_move_count(), got.size) << p.fen();
        ++positions;
      });
    }
  }
  EXPECT_GT(positions, 20000);
}

// [MOVE-ORDER-1] legal_moves() is strictly ascending in (from, to, promotion) without sorting.
TEST(MoveOrder, StrictlyAscendingByKey) {
  std::mt19937_64 rng(7);
  for (const char* start : kStarts) {
    test::random_walk(test::fen(start), 200, rng, [](const Position& p) {
      const MoveList list = p.legal_moves();
      for (int i = 1; i < list.size; ++i) ASSERT_LT(order_key(list[i - 1]), order_key(list[i])) << p.fen();
    });
  }
}

std::vector<std::string> ucis(const Position& p) {
  std::vector<std::string> out;
  for (Move m : p.legal_moves()) out.push_back(p.uci(m));
  return out;
}

TEST(MoveOrder, StartPositionExactly) {
  const std::vector<std::string> want = {
      "b1a3", "b1c3", "g1f3", "g1h3", "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4",
      "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4", "h2h3", "h2h4"};
  EXPECT_EQ(ucis(Position()), want);
}

TEST(MoveOrder, PromotionsKnightBishopRookQueen) {
  // White pawn b7 takes a8 or pushes to b8; king e1.
  const Position p = test::fen("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  const std::vector<std::string> want = {"e1d1", "e1f1", "e1d2", "e1e2", "e1f2", "b7a8n", "b7a8b",
                                         "b7a8r", "b7a8q", "b7b8n", "b7b8b", "b7b8r", "b7b8q"};
  EXPECT_EQ(ucis(p), want);
}

TEST(MoveOrder, CastlingSortsByRookSquare) {
  const Position p = test::fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const MoveList list = p.legal_moves();
  std::vector<std::string> king_moves;
  for (Move m : list)
    if (m.from() == 4) king_moves.push_back(p.san(m));
  // (e1,a1)=O-O-O, (e1,d1), (e1,f1), (e1,h1)=O-O, (e1,d2), (e1,e2), (e1,f2).
  EXPECT_EQ(king_moves, (std::vector<std::string>{"O-O-O", "Kd1", "Kf1", "O-O", "Kd2", "Ke2", "Kf2"}));
}

TEST(MoveIndex, IndexAndMoveAtAreInverse) {
  std::mt19937_64 rng(99);
  for (const char* start : kStarts) {
    test::random_walk(test::fen(start), 150, rng, [](const Position& p) {
      const MoveList list = p.legal_moves();
      for (int i = 0; i < list.size; ++i) {
        ASSERT_EQ(p.move_index(list[i]), i) << p.fen();
        ASSERT_EQ(p.move_at(i), list[i]) << p.fen();
      }
      ASSERT_EQ(p.move_at(list.size), Move::none());
      ASSERT_EQ(p.move_at(-1), Move::none());
    });
  }
}

TEST(MoveIndex, RejectsMovesThatAreNotLegal) {
  const Position p;
  EXPECT_EQ(p.move_index(Move(12, 36)), -1);                       // e2e5
  EXPECT_EQ(p.move_index(Move(12, 28, Move::kEnPassant)), -1);      // e2e4 with a wrong kind
  EXPECT_EQ(p.move_index(Move::null()), -1);
  EXPECT_EQ(p.move_index(Move::none()), -1);
  EXPECT_EQ(p.move_index(Move(12, 28)), 13);
}

TEST(EnPassant, RankPinExposingTheKingIsIllegal) {
  // After ...c7-c5, bxc6 e.p. would clear the fifth rank between the rook and the king.
  const Position p = test::fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
  for (Move m : p.legal_moves()) EXPECT_NE(m.kind(), Move::kEnPassant) << p.uci(m);
  const Position q = test::fen("8/8/8/1Pp4r/K7/8/8/7k w - c6 0 1");
  bool found = false;
  for (Move m : q.legal_moves()) found |= m.kind() == Move::kEnPassant;
  EXPECT_TRUE(found);
}

TEST(EnPassant, CapturesTheCheckingPawn) {
  // The double-stepped pawn gives check; taking it en passant is one of the evasions.
  const Position p = test::fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
  bool found = false;
  for (Move m : p.legal_moves()) found |= p.uci(m) == "e4d3";
  EXPECT_TRUE(found);
}

TEST(Castling, Chess960KingDoesNotMove) {
  // King on g1, rook on h1: O-O moves only the rook (to f1).
  const Position p = test::fen("4k3/8/8/8/8/8/8/6KR w H - 0 1");
  Move castle;
  for (Move m : p.legal_moves())
    if (m.kind() == Move::kCastling) castle = m;
  ASSERT_FALSE(castle.is_none());
  EXPECT_EQ(p.san(castle), "O-O");
  Position after = p;
  after.play(castle);
  EXPECT_EQ(after.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

TEST(Castling, Chess960RookShieldingTheDestinationIsLifted) {
  // Queenside: king c1 stays, rook b1 goes to d1; the queen on a1 then attacks c1. Illegal.
  const Position p = test::fen("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
  for (Move m : p.legal_moves()) EXPECT_NE(m.kind(), Move::kCastling) << p.uci(m);
}

TEST(Castling, NotThroughOrOutOfOrIntoCheck) {
  EXPECT_EQ(test::fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").legal_move_count(), 26);
  // A rook on f8 covers f1: no O-O; O-O-O still fine.
  const Position through = test::fen("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  int castles = 0;
  for (Move m : through.legal_moves()) castles += m.kind() == Move::kCastling;
  EXPECT_EQ(castles, 1);
  // In check: no castling at all.
  const Position in_check = test::fen("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  for (Move m : in_check.legal_moves()) EXPECT_NE(m.kind(), Move::kCastling);
  // b1 attacked does not stop O-O-O (the king does not pass b1).
  const Position b1 = test::fen("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
  castles = 0;
  for (Move m : b1.legal_moves()) castles += m.kind() == Move::kCastling;
  EXPECT_EQ(castles, 1);
}

TEST(Play, UpdatesCastlingRightsAndClocks) {
  Position p = test::fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 10");
  p.play(*p.parse_san("Rxa8+"));
  EXPECT_EQ(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 10");
  p.play(*p.parse_san("Ke7"));
  EXPECT_EQ(p.fen(), "R6r/4k3/8/8/8/8/8/4K2R w K - 1 11");
}

TEST(Play, NullMovePassesTheTurn) {
  Position p;
  p.play(*p.parse_san("e4"));
  p.play_null();
  EXPECT_EQ(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
}

// A null move played in check lets the other side capture the king (a diagonal step onto an
// enemy piece, spec 5.3); the side left without its king has no legal move and is not in check
// (found by fuzz_codec: the generator read the attack tables at square 64).
TEST(Play, KingCapturedAfterANullMoveInCheck) {
  Position p;
  for (const char* san : {"e4", "f5", "Qh5+"}) p.play(*p.parse_san(san));
  ASSERT_TRUE(p.in_check());
  p.play_null();
  auto capture = p.parse_san("Qxe8");
  ASSERT_TRUE(capture.ok()) << capture.error().message();
  EXPECT_TRUE(p.is_legal(*capture));
  p.play(*capture);
  EXPECT_EQ(p.legal_move_count(), 0);
  EXPECT_TRUE(p.legal_moves().size == 0);
  EXPECT_FALSE(p.in_check());
  EXPECT_FALSE(p.parse_san("Kf7").ok());
  EXPECT_FALSE(p.parse_san("O-O").ok());
  EXPECT_EQ(p.castling_rook(kBlack, kKingSide), kNoSquare);  // rights go with the king
  EXPECT_EQ(p.perft(2), 0u);
}

}  // namespace
}  // namespace pgnarc

#include "rules/bitboard.h"

namespace pgnarc {
namespace {

Bitboard naive_slider(int s, Bitboard occ, bool diagonal) {
  Bitboard out = 0;
  for (int df = -1; df <= 1; ++df) {
    for (int dr = -1; dr <= 1; ++dr) {
      if ((!df && !dr) || (diagonal != (df && dr))) continue;
      for (int f = (s & 7) + df, r = (s >> 3) + dr; on_board(f, r); f += df, r += dr) {
        out |= Bitboard{1} << (f + 8 * r);
        if (occ >> (f + 8 * r) & 1) break;
      }
    }
  }
  return out;
}

TEST(AttackTables, SlidersMatchRayWalkingForRandomOccupancies) {
  const auto& T = rules::attack_tables();
  std::mt19937_64 rng(3);
  for (int s = 0; s < 64; ++s) {
    for (int i = 0; i < 2000; ++i) {
      const Bitboard occ = rng() & rng();
      ASSERT_EQ(T.rook_attacks(s, occ), naive_slider(s, occ, false)) << s;
      ASSERT_EQ(T.bishop_attacks(s, occ), naive_slider(s, occ, true)) << s;
    }
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// is_legal() decides without the full generator; it must agree with it on every candidate move,
// legal or not, of every kind.
TEST(MoveIndex, IsLegalAgreesWithTheGenerator) {
  std::mt19937_64 rng(11);
  long checked = 0;
  for (const char* start : kStarts) {
    test::random_walk(test::fen(start), 100, rng, [&](const Position& p) {
      for (int from = 0; from < 64; ++from) {
        for (int to = 0; to < 64; ++to) {
          for (Move::Kind kind : {Move::kNormal, Move::kPromotion, Move::kEnPassant, Move::kCastling}) {
            for (PieceType promo : {kKnight, kQueen}) {
              if (kind != Move::kPromotion && promo != kKnight) continue;
              const Move m(static_cast<Square>(from), static_cast<Square>(to), kind, promo);
              ASSERT_EQ(p.is_legal(m), p.move_index(m) >= 0) << p.fen() << " " << p.uci(m);
              ++checked;
            }
          }
        }
      }
    });
  }
  EXPECT_GT(checked, 10'000'000);
}

}  // namespace
}  // namespace pgnarc

#include "rules/movegen.h"

namespace pgnarc {
namespace {

// The two builds of the generator (rules::base for every CPU, rules::v3 with PEXT slider
// lookups where the CPU has x86-64-v3) give the same targets and the same move at every index.
// The library runs v3 here when it can, so the other tests check v3 against the naive
// reference; this one holds base to it.
TEST(MoveGen, BaseAndV3BuildsAgree) {
#if PGNARC_HAVE_V3
  if (!rules::v3_generator_supported()) GTEST_SKIP() << "this CPU runs only the base build";
  std::mt19937_64 rng(5);
  long positions = 0;
  for (const char* start : kStarts) {
    for (int game = 0; game < 20; ++game) {
      test::random_walk(test::fen(start), 150, rng, [&](const Position& p) {
        rules::PieceTargets a, b;
        rules::base::generate_targets(p, a);
        rules::v3::generate_targets(p, b);
        ASSERT_EQ(a.total, b.total) << p.fen();
        ASSERT_EQ(a.check, b.check) << p.fen();
        ASSERT_EQ(a.promoting, b.promoting) << p.fen();
        for (Bitboard m = a.movers | b.movers; m; m &= m - 1) {
          const int s = std::countr_zero(m);
          ASSERT_EQ((a.movers >> s & 1) ? a.to[s] : 0, (b.movers >> s & 1) ? b.to[s] : 0) << p.fen() << " square " << s;
        }
        for (int i = 0; i < a.total; ++i)
          ASSERT_EQ(rules::base::move_at_index(p, a, i), rules::v3::move_at_index(p, b, i)) << p.fen() << " " << i;
        ++positions;
      });
    }
  }
  EXPECT_GT(positions, 10000);
#else
  GTEST_SKIP() << "no v3 build with this compiler";
#endif
}

}  // namespace
}  // namespace pgnarc
