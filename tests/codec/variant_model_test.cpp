// The move coders under the variants (format specification 7.5, MOVE-CODER-1, and 7.7): the
// crazyhouse model's features and frequencies on random crazyhouse games; three-check and king
// of the hill coded exactly as standard chess while their games go on; the other variants
// uniform in either block.
#include <algorithm>
#include <random>

#include "support/codec_util.h"
#include "codec/entropy/move_coder.h"
#include "codec/model/variant_model.h"
#include "rules/bitboard.h"
#include "rules/movegen.h"

namespace pgnarc {
namespace {

using namespace test;
using namespace codec;

// The positions of random games of `variant` from its start, with the history of each: captures
// first where there is one (in crazyhouse they fill the pockets, so drops soon make most of the
// moves), and now and then a null move, in check too (the opponent may then take the king).
template <class Visit>
void random_positions(const Position& start, int games, Visit&& visit) {
  std::mt19937_64 rng(77);
  for (int g = 0; g < games; ++g) {
    model::LineState at{start, {}};
    for (int ply = 0; ply < 120; ++ply) {
      const MoveList list = at.pos.legal_moves();
      if (list.size == 0) break;
      visit(at, list);
      if (rng() % (at.pos.in_check() ? 3 : 23) == 0) {
        at.play_null();
        continue;
      }
      Move m = list[static_cast<int>(rng() % static_cast<unsigned>(list.size))];
      for (int i = 0; i < list.size && rng() % 2; ++i)
        if (at.pos.piece_on(list[i].to()) != kNoPiece && !list[i].is_castling()) m = list[i];
      at.play(m);
    }
  }
}

// [MOVE-MODEL-3] Every move has its fixed features, inside the table and within the bound, and
// frequencies from 1 to 4096 with the best move's 4096.
TEST(CrazyhouseModel, FeaturesAndFrequenciesOfRandomPositions) {
  std::uint64_t positions = 0, drops = 0;
  model::zh::MoveFeatures f[kMaxLegalMoves];
  std::uint32_t freq[kMaxLegalMoves];
  std::uint64_t checked = 0;  // positions whose side not to move is in check (after a null move)
  // From the start, and from a Chess960 start with full pockets (castling across, drops at once).
  const Position starts[] = {
      Position::start(Variant::kCrazyhouse),
      *Position::from_fen("rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ[QRBNPqrbnp] w KQkq - 0 1", true,
                          Variant::kCrazyhouse)};
  for (const Position& start : starts)
  random_positions(start, 30, [&](const model::LineState& at, const MoveList& list) {
    ++positions;
    Position passed = at.pos;
    passed.play_null();
    checked += passed.in_check();
    model::zh::crazyhouse_features(at.pos, list, at.history, f);
    const int flip = at.pos.side_to_move() == kWhite ? 0 : 56;
    for (int i = 0; i < list.size; ++i) {
      const Move m = list[i];
      const bool drop = m.is_drop();
      drops += drop;
      ASSERT_LE(f[i].n, drop ? 8 : model::zh::kMaxMoveFeatures);
      for (int j = 0; j < f[i].n; ++j) {
        ASSERT_GE(f[i].k[j], 0);
        ASSERT_LT(f[i].k[j], model::zh::kFeatures);
      }
      // The first feature is the landing square by kind: a drop's kind is 6 + the piece's index.
      const int kind = drop ? 5 + m.drop_piece() : type_of(at.pos.piece_on(m.from())) - 1;
      if (!m.is_castling()) EXPECT_EQ(f[i].k[0], model::zh::kSquare + kind * 64 + (m.to() ^ flip));
      // A board move, and only one, has a from-square feature.
      int from_features = 0;
      for (int j = 0; j < f[i].n; ++j)
        from_features += f[i].k[j] >= model::zh::kFrom && f[i].k[j] < model::zh::kThreat;
      EXPECT_EQ(from_features, drop ? 0 : 1);
      // The check feature says what playing the move does.
      Position after = at.pos;
      after.play(m);
      bool check = false;
      for (int j = 0; j < f[i].n; ++j) check |= f[i].k[j] == model::zh::kCheck + kind;
      EXPECT_EQ(check, after.in_check()) << at.pos.fen() << " " << at.pos.san(m);
      // The victim and the landing square's safety, from the pieces that attack it.
      const Color us = at.pos.side_to_move();
      const Square to = m.is_castling() ? after.king_square(us) : m.to();
      const int victim = m.kind() == Move::kEnPassant ? 1
                         : !drop && !m.is_castling() && at.pos.piece_on(to) != kNoPiece ? type_of(at.pos.piece_on(to))
                                                                                         : 0;
      const Bitboard attackers = rules::attackers_to(at.pos, to, at.pos.occupied());
      const int safety = ((attackers & at.pos.pieces(~us)) ? 2 : 0) + ((attackers & at.pos.pieces(us) & ~rules::bb(m.from())) ? 1 : 0);
      const auto has = [&](int k) { return std::find(f[i].k, f[i].k + f[i].n, k) != f[i].k + f[i].n; };
      EXPECT_TRUE(has(model::zh::kVictim + kind * 7 + victim)) << at.pos.fen() << " " << at.pos.san(m);
      EXPECT_TRUE(has(model::zh::kSafety + kind * 4 + safety)) << at.pos.fen() << " " << at.pos.san(m);
    }
    const std::uint32_t total = model::zh::frequencies(at.pos, list, at.history, freq);
    std::uint32_t sum = 0, top = 0;
    for (int i = 0; i < list.size; ++i) {
      ASSERT_GE(freq[i], 1u);
      ASSERT_LE(freq[i], 4096u);
      sum += freq[i];
      top = std::max(top, freq[i]);
    }
    EXPECT_EQ(total, sum);
    EXPECT_EQ(top, 4096u);
  });
  EXPECT_GT(positions, 3000u);
  EXPECT_GT(drops, positions * 10);  // the games reach pockets and drops
  EXPECT_GT(checked, 10u);
}

// The game's moves codeword in a block of `coder`.
std::string moves_of(const std::string& pgn, codec::MoveCoder coder, Variant untagged = Variant::kStandard) {
  Game g = parse_one(pgn);
  g.variant = untagged;
  codec::CodecStreams s;
  s.coder = coder;
  EXPECT_TRUE(codec::encode_game(g, s).ok()) << pgn;
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
  c.coder = coder;
  c.variants = s.variants;
  auto d = codec::decode_game(c, g.tags);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().to_string());
  if (d.ok()) EXPECT_EQ(d->game, g);
  return s.moves;
}

// [MOVE-CODER-1] Where the side to move has a king, three-check's and king of the hill's legal
// moves are standard chess's, in the same order, whatever null moves and taken kings came
// before; and such games, kings taken and all, come back whole from either block.
TEST(VariantCoders, ThreeCheckAndKingOfTheHillMovesAreStandardChessWhereTheSideToMoveHasAKing) {
  for (Variant v : {Variant::kThreeCheck, Variant::kKingOfTheHill}) {
    std::uint64_t compared = 0, kingless = 0;
    // From the start, from a Chess960 start, and from a crowded position of 27 queens.
    const Position starts[] = {
        Position::start(v),
        *Position::from_fen("rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1", true, v),
        *Position::from_fen("3q3Q/Q2q2QK/1qnqnq2/1NQQQN1k/QQq1qqqq/1NQqqn2/1qNQNq2/Q2Q2Q1 w - - 0 1", false, v)};
    for (const Position& start : starts)
    random_positions(start, 70, [&](const model::LineState& at, const MoveList& list) {
      if (!at.pos.pieces(at.pos.side_to_move(), kKing)) {
        ++kingless;
        return;
      }
      rules::PieceTargets t;
      rules::generate_targets(at.pos, t);
      ASSERT_EQ(t.total, list.size) << at.pos.fen();
      for (int i = 0; i < list.size; ++i) ASSERT_EQ(rules::move_at_index(at.pos, t, i), list[i]) << at.pos.fen();
      ++compared;
    });
    EXPECT_GT(compared, 10000u);
    EXPECT_GT(kingless, 0u) << variant_name(v);
  }
  // A king taken after a null move in check: the kingless side's plies are coded uniformly. And
  // an exchange of more than 32 pieces, which only a variant's position can hold, on the first
  // ply and at the line's end.
  for (const char* pgn : {"[Variant \"King of the Hill\"]\n\n1. e4 f6 2. Qh5+ -- 3. Qxe8 a6 4. Qxf8 *",
                          "[Variant \"Three-check\"]\n\n1. e4 f6 2. Qh5+ -- 3. Qxe8 a6 4. Qxf8 *",
                          "[Variant \"Three-check\"]\n[FEN \"3q3Q/Q2q2QK/1qnqnq2/1NQQQN1k/QQq1qqqq/1NQqqn2/1qNQNq2/"
                          "Q2Q2Q1 w - - 0 1\"]\n\n1. Nb3d4 *",
                          "[Variant \"King of the Hill\"]\n[FEN \"3q3Q/Q2q2QK/1qnqnq2/1NQQQN1k/QQq1qqqq/1NQqqn2/"
                          "1qNQNq2/Q2Q2Q1 w - - 0 1\"]\n\n*"})
    for (codec::MoveCoder coder : {codec::MoveCoder::kModel, codec::MoveCoder::kUniform}) moves_of(pgn, coder);
}

// [MOVE-CODER-1] Three-check and king of the hill are coded as standard chess while their games
// go on: the same codeword as the same moves under standard chess, in a block of either coder.
// Crazyhouse has a model of its own: the same moves cost fewer bits than uniformly, and a block
// of the uniform coder codes them as standard chess's uniform coder would (same legal moves
// while no piece was captured).
TEST(VariantCoders, ThreeCheckAndKingOfTheHillAreCodedAsStandardChess) {
  const std::string moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *";
  for (codec::MoveCoder coder : {codec::MoveCoder::kModel, codec::MoveCoder::kUniform}) {
    const std::string standard = moves_of(moves, coder);
    EXPECT_EQ(moves_of("[Variant \"Three-check\"]\n\n" + moves, coder), standard);
    EXPECT_EQ(moves_of("[Variant \"King of the Hill\"]\n\n" + moves, coder), standard);
    EXPECT_EQ(moves_of(moves, coder, Variant::kThreeCheck), standard);
    EXPECT_EQ(moves_of("[Variant \"Crazyhouse\"]\n\n" + moves, coder) == standard, coder == codec::MoveCoder::kUniform);
  }
  // Atomic's moves here are standard chess's too, but it is coded uniformly in either block.
  const std::string atomic = "1. e4 e5 2. Nf3 Nc6 *";
  EXPECT_EQ(moves_of("[Variant \"Atomic\"]\n\n" + atomic, codec::MoveCoder::kModel),
            moves_of(atomic, codec::MoveCoder::kUniform));
}

TEST(VariantCoders, TheCrazyhouseModelCodesRealisticGamesInFewerBits) {
  const std::string game =
      "[Variant \"Crazyhouse\"]\n\n1. e4 e6 2. d4 d5 3. e5 c5 4. c3 Nc6 5. Nf3 Qb6 6. Bd3 cxd4 7. cxd4 Nxd4 "
      "8. Nxd4 Qxd4 9. N@f3 Qb6 10. O-O Bd7 11. P@c5 Bxc5 12. Nc3 N@d4 13. Nxd4 Bxd4 14. N@d6+ Kf8 15. Qf3 "
      "Bxe5 16. Qxf7# 1-0";
  const std::string model = moves_of(game, codec::MoveCoder::kModel),
                    uniform = moves_of(game, codec::MoveCoder::kUniform);
  EXPECT_LT(model.size() * 4, uniform.size() * 3) << model.size() << " vs " << uniform.size();
}

}  // namespace
}  // namespace pgnarc
