// Lichess's variants (rules/variant.cpp): what their rules change, and where they change nothing,
// agreement with the standard generator. Their perft against published counts is in
// rules_perft_test.cpp.
#include <random>

#include "support/test_util.h"

namespace pgnarc {
namespace {

Position fen(const std::string& f, Variant v) {
  auto p = Position::from_fen(f, false, v);
  EXPECT_TRUE(p.ok()) << f << ": " << (p.ok() ? "" : p.error().to_string());
  return p.ok() ? *p : Position();
}

std::vector<std::string> uci_moves(const Position& p) {
  std::vector<std::string> out;
  for (const Move m : p.legal_moves()) out.push_back(p.uci(m));
  return out;
}

TEST(VariantNames, EverySpellingSeenInTheWild) {
  const std::pair<const char*, Variant> names[] = {
      {"Crazyhouse", Variant::kCrazyhouse},      {"crazyhouse", Variant::kCrazyhouse},
      {"Crazy House", Variant::kCrazyhouse},     {"ZH", Variant::kCrazyhouse},
      {"Atomic", Variant::kAtomic},              {"atomic chess", Variant::kAtomic},
      {"Antichess", Variant::kAntichess},        {"giveaway", Variant::kAntichess},
      {"Suicide", Variant::kAntichess},          {"Three-check", Variant::kThreeCheck},
      {"threeCheck", Variant::kThreeCheck},      {"3check", Variant::kThreeCheck},
      {"3-check", Variant::kThreeCheck},         {"King of the Hill", Variant::kKingOfTheHill},
      {"kingOfTheHill", Variant::kKingOfTheHill}, {"KOTH", Variant::kKingOfTheHill},
      {"Racing Kings", Variant::kRacingKings},   {"racingKings", Variant::kRacingKings},
      {"racing_kings", Variant::kRacingKings},   {"Horde", Variant::kHorde},
  };
  for (const auto& [name, want] : names) {
    Variant v = Variant::kStandard;
    EXPECT_TRUE(variant_from_name(name, v)) << name;
    EXPECT_EQ(v, want) << name;
  }
  for (const char* other : {"Standard", "Chess960", "chess", "Seirawan", "Sittuyin", ""}) {
    Variant v = Variant::kStandard;
    EXPECT_FALSE(variant_from_name(other, v)) << other;
  }
  for (int v = 1; v < kVariantCount; ++v) {
    Variant back = Variant::kStandard;
    EXPECT_TRUE(variant_from_name(variant_name(static_cast<Variant>(v)), back));
    EXPECT_EQ(back, static_cast<Variant>(v));
  }
}

TEST(VariantStart, FromTheTagsOrTheGame) {
  auto zh = start_position(std::vector<Tag>{{"Variant", "crazyhouse"}});
  ASSERT_TRUE(zh.ok());
  EXPECT_EQ(zh->variant(), Variant::kCrazyhouse);
  EXPECT_EQ(zh->fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
  auto race = start_position(std::vector<Tag>{}, Variant::kRacingKings);
  ASSERT_TRUE(race.ok());
  EXPECT_EQ(race->fen(), "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1");
  // A Variant tag decides over the untagged rules.
  auto tagged = start_position(std::vector<Tag>{{"Variant", "Standard"}}, Variant::kHorde);
  ASSERT_TRUE(tagged.ok());
  EXPECT_EQ(tagged->variant(), Variant::kStandard);
  auto other = start_position(std::vector<Tag>{{"Variant", "Seirawan"}});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code(), ErrorCode::Unsupported);
  EXPECT_NE(other.error().message().find("Seirawan"), std::string::npos);
}

// fen_after writes the en passant square after a two-step from the second rank only: horde's
// first-rank pawns leave none (a FEN with one on rank 2 would not read back).
TEST(VariantFen, HordeTwoStepsFromTheFirstRankLeaveNoEnPassantSquare) {
  Game g;
  g.tags = {{"Variant", "Horde"}, {"FEN", "4k3/8/8/8/8/8/8/P7 w - - 0 1"}};
  const Position start = *start_position(g);
  g.events.push_back(GameEvent::make_move(*start.parse_san("a3")));
  auto f = fen_after(g, 1);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, "4k3/8/8/8/8/P7/8/8 b - - 0 1");
  EXPECT_TRUE(Position::from_fen(*f, false, Variant::kHorde).ok());
}

TEST(VariantFen, PocketsPromotedPiecesAndChecks) {
  // Pockets in brackets or as a ninth rank; "~" marks a promoted piece.
  const Position a = fen("4k3/1Q~6/8/8/4b3/8/Kpp5/8/Qn b - - 0 1", Variant::kCrazyhouse);
  EXPECT_EQ(a.fen(), "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Qn] b - - 0 1");
  EXPECT_EQ(a.pocket(kWhite, kQueen), 1);
  EXPECT_EQ(a.pocket(kBlack, kKnight), 1);
  EXPECT_EQ(a.promoted(), Bitboard{1} << 49);
  EXPECT_EQ(fen(a.fen(), Variant::kCrazyhouse), a);
  // Three-check: remaining ("3+1", fifth field) or given ("+0+2", seventh), written as given.
  const Position b = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 3+1 0 1", Variant::kThreeCheck);
  EXPECT_EQ(b.remaining_checks(kWhite), 3);
  EXPECT_EQ(b.remaining_checks(kBlack), 1);
  EXPECT_EQ(b.fen(), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 +0+2");
  EXPECT_EQ(fen(b.fen(), Variant::kThreeCheck), b);
  // Horde's white has no king and pawns on the first rank; antichess any number of kings.
  EXPECT_TRUE(Position::from_fen("4k3/8/8/8/8/8/8/PPPPPPPP w - - 0 1", false, Variant::kHorde).ok());
  EXPECT_FALSE(Position::from_fen("4k3/8/8/8/8/8/8/PPPPPPPP w - - 0 1").ok());
  EXPECT_TRUE(Position::from_fen("KK6/8/8/8/8/8/8/8 w - - 0 1", false, Variant::kAntichess).ok());
  EXPECT_FALSE(Position::from_fen("k7/8/8/8/8/8/8/R3KK2 w Q - 0 1", false, Variant::kAntichess).ok());
  EXPECT_TRUE(Position::from_fen("k7/8/8/8/8/8/8/R3K3 w Q - 0 1", false, Variant::kAntichess).ok());
  for (const char* bad : {"4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1"}) {
    auto p = Position::from_fen(bad, false, Variant::kCrazyhouse);
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.error().message().find("pockets"), std::string::npos) << p.error().message();
  }
  EXPECT_FALSE(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 4+1 0 1", false, Variant::kThreeCheck).ok());
  // "~" only after a piece: not after an empty square (a fuzzer's find), a pawn or another "~".
  for (const char* bad : {"4k3/3~4/8/8/8/8/8/4K3[] w - - 0 1", "4k3/P~7/8/8/8/8/8/4K3[] w - - 0 1",
                          "4k3/8/8/8/8/8/8/4K~3[] w - - 0 1",
                          "4k3/Q~~7/8/8/8/8/8/4K3[] w - - 0 1", "~4k3/8/8/8/8/8/8/4K3[] w - - 0 1"})
    EXPECT_FALSE(Position::from_fen(bad, false, Variant::kCrazyhouse).ok()) << bad;
}

TEST(VariantMoves, DropsComeAfterTheBoardsMovesInTheirOrder) {
  const Position p = fen("4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1", Variant::kCrazyhouse);
  const MoveList list = p.legal_moves();
  // King moves first (from e1), then pawns on a2..h7, then knights on every empty square.
  ASSERT_EQ(list.size, 5 + 48 + 62);
  EXPECT_EQ(p.uci(list[5]), "P@a2");
  EXPECT_EQ(p.uci(list[5 + 48]), "N@a1");
  EXPECT_EQ(p.san(list[5]), "P@a2");
  for (int i = 0; i < list.size; ++i) EXPECT_EQ(p.move_index(list[i]), i);
  // In check, drops only between the king and its one checker.
  const Position check = fen("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", Variant::kCrazyhouse);
  std::vector<std::string> drops;
  for (const Move m : check.legal_moves())
    if (m.is_drop()) drops.push_back(check.uci(m));
  EXPECT_EQ(drops, (std::vector<std::string>{"N@b1", "N@c1", "N@d1"}));
}

TEST(VariantMoves, WhatEachRuleChanges) {
  // Antichess: a capture is forced; a pawn promotes to a king too.
  const Position anti = fen("8/P7/8/p7/8/8/8/R7 w - - 0 1", Variant::kAntichess);
  EXPECT_EQ(uci_moves(anti), (std::vector<std::string>{"a1a5"}));
  const Position promo = fen("7k/P7/8/8/8/8/8/8 w - - 0 1", Variant::kAntichess);
  EXPECT_EQ(uci_moves(promo), (std::vector<std::string>{"a7a8n", "a7a8b", "a7a8r", "a7a8q", "a7a8k"}));
  const Move king = promo.legal_moves()[4];
  EXPECT_TRUE(king.is_king_promotion());
  EXPECT_EQ(promo.san(king), "a8=K");
  EXPECT_EQ(*promo.parse_san("a8=K"), king);
  // A king just promoted on the last rank never castles (a castling from there would read as a
  // promotion to king); the rights go when a king moves.
  Position rights = fen("7k/P7/8/8/8/8/8/R3K3 w Q - 0 1", Variant::kAntichess);
  rights.play(*rights.parse_san("a8=K"));
  rights.play(*rights.parse_san("Kg8"));
  std::vector<std::string> castles;
  for (const Move m : rights.legal_moves())
    if (m.kind() == Move::kCastling) castles.push_back(rights.uci(m));
  EXPECT_EQ(castles, (std::vector<std::string>{"e1c1"}));
  // Atomic: a capture explodes the capturer and the pieces but pawns around; exploding the other
  // king wins; a king never captures.
  const Position atomic = fen("3qk3/2p5/8/8/8/8/8/3QK3 w - - 0 1", Variant::kAtomic);
  Position exploded = atomic;
  exploded.play(*atomic.parse_san("Qxd8"));
  EXPECT_EQ(exploded.fen(), "8/2p5/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(exploded.variant_over());
  EXPECT_EQ(exploded.legal_move_count(), 0);
  EXPECT_FALSE(fen("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", Variant::kAtomic).parse_san("Kxd2").ok());
  // Three-check: the third check ends the game.
  const Position three = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 1+3 0 1", Variant::kThreeCheck);
  Position checked = three;
  checked.play(*three.parse_san("Ra8+"));
  EXPECT_TRUE(checked.variant_over());
  EXPECT_EQ(checked.legal_move_count(), 0);
  EXPECT_EQ(three.san(*three.parse_san("Ra8")), "Ra8#");
  // Racing kings: no move may give check.
  const Position race = fen("8/8/8/8/8/k7/8/1R5K w - - 0 1", Variant::kRacingKings);
  EXPECT_FALSE(race.parse_san("Rb3").ok());
  EXPECT_FALSE(race.parse_san("Ra1").ok());
  EXPECT_TRUE(race.parse_san("Rb2").ok());
  EXPECT_EQ(race.legal_move_count() + 2, Position::from_fen(race.fen())->legal_move_count());
  // King of the hill: a king on the hill ends the game.
  const Position hill = fen("4k3/8/8/8/4K3/8/8/8 b - - 0 1", Variant::kKingOfTheHill);
  EXPECT_TRUE(hill.variant_over());
  EXPECT_EQ(hill.legal_move_count(), 0);
}

// Where a variant's rules are standard chess's (king of the hill before a king reaches the hill,
// three-check before a check, crazyhouse with empty pockets), its generator gives the standard
// generator's moves in the same order: random playouts from the standard start and Chess960
// starts.
TEST(VariantMoves, AgreeWithTheStandardGeneratorWhereTheRulesDo) {
  std::mt19937_64 rng(20261126);
  const char* starts[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  };
  int positions = 0;
  for (int game = 0; game < 400; ++game) {
    Position pos = *Position::from_fen(starts[game % 4]);
    for (int ply = 0; ply < 120; ++ply) {
      const MoveList standard = pos.legal_moves();
      if (standard.size == 0) break;
      for (Variant v : {Variant::kKingOfTheHill, Variant::kCrazyhouse, Variant::kThreeCheck}) {
        auto same = Position::from_fen(pos.fen(), pos.chess960(), v);
        ASSERT_TRUE(same.ok()) << pos.fen();
        if (same->variant_over()) continue;
        const MoveList variant = same->legal_moves();
        ASSERT_EQ(variant.size, standard.size) << pos.fen() << " as " << variant_name(v);
        for (int i = 0; i < standard.size; ++i) ASSERT_EQ(variant[i], standard[i]) << pos.fen() << " index " << i;
        ++positions;
      }
      pos.play(standard[static_cast<int>(rng() % static_cast<unsigned>(standard.size))]);
    }
  }
  EXPECT_GT(positions, 50000);
}

// "#" where the move ends the game with a winner, as lichess writes it: checkmate, an explosion,
// the hill, the third check, the race won, antichess's side left without a move; not a draw.
TEST(VariantSan, MateSignWhereTheMoveWins) {
  const auto san = [](const char* f, Variant v, const char* move) {
    const Position p = fen(f, v);
    auto m = p.parse_san(move);
    return m ? p.san(*m) : m.error().message();
  };
  EXPECT_EQ(san("4k3/4p3/8/8/7Q/8/8/4K3 w - - 0 1", Variant::kAtomic, "Qxe7"), "Qxe7#");
  EXPECT_EQ(san("4k3/8/8/8/8/4K3/8/8 w - - 0 1", Variant::kKingOfTheHill, "Ke4"), "Ke4#");
  EXPECT_EQ(san("4k3/8/8/8/8/8/8/R3K3 w Q - 1+3 0 1", Variant::kThreeCheck, "Ra8"), "Ra8#");
  EXPECT_EQ(san("8/6K1/8/8/8/8/8/k7 w - - 0 1", Variant::kRacingKings, "Kg8"), "Kg8#");
  EXPECT_EQ(san("8/1k4K1/8/8/8/8/8/8 w - - 0 1", Variant::kRacingKings, "Kg8"), "Kg8") << "Black may reach it too";
  EXPECT_EQ(san("8/1p6/1P6/8/8/8/8/R7 w - - 0 1", Variant::kAntichess, "Ra2"), "Ra2#") << "Black, without a move, wins";
  EXPECT_EQ(san("8/8/8/8/8/8/8/k1K5 w - - 0 1", Variant::kStandard, "Kc2"), "Kc2") << "stalemate";
}

TEST(VariantSan, DropsReadAndWritten) {
  const Position p = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 2 3", Variant::kCrazyhouse);
  for (const char* text : {"P@d5", "@d5", "p@d5", "P@d5+"}) {
    auto m = p.parse_san(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error().to_string();
    EXPECT_TRUE(m->is_drop());
    EXPECT_EQ(m->drop_piece(), kPawn);
    EXPECT_EQ(p.san(*m), "P@d5");
  }
  for (const char* bad : {"N@d5", "P@e4", "P@a8", "K@d3", "@"}) EXPECT_FALSE(p.parse_san(bad).ok()) << bad;
  // A drop that checks is written with its suffix.
  const Position q = fen("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", Variant::kCrazyhouse);
  EXPECT_EQ(q.san(*q.parse_san("Q@e7")), "Q@e7+");
}

}  // namespace
}  // namespace pgnarc
