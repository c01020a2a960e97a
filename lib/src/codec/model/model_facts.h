// The move model's facts of a position (internal; format specification 7.6.2), for the builds
// of the move model (move_model.cpp) and of the fast model (fast_model.cpp), which reads a part
// of them (7.8.2): compute_facts<Sliders> with the slider lookups of a build.
#pragma once

#include "codec/model/move_model.h"
#include "rules/bitboard.h"

namespace pgnarc::codec::model {

namespace facts_impl {

// Non-pawn material of both sides, in minor-piece units (knight, bishop 1, rook 2, queen 4).
PGNARC_ALWAYS_INLINE int material(const Position& pos) {
  const Bitboard minors = pos.pieces(kWhite, kKnight) | pos.pieces(kWhite, kBishop) |
                          pos.pieces(kBlack, kKnight) | pos.pieces(kBlack, kBishop);
  const Bitboard rooks = pos.pieces(kWhite, kRook) | pos.pieces(kBlack, kRook);
  const Bitboard queens = pos.pieces(kWhite, kQueen) | pos.pieces(kBlack, kQueen);
  return rules::popcount(minors) + 2 * rules::popcount(rooks) + 4 * rules::popcount(queens);
}

// The game phase both models read (0 to 4), from the material and the move number.
PGNARC_ALWAYS_INLINE int phase(const Position& pos) {
  const int npm = material(pos);
  const int move = pos.fullmove_number();
  return npm >= 20 && move <= 10 ? 0 : npm >= 20 && move <= 20 ? 1 : npm >= 16 ? 2 : npm >= 8 ? 3 : 4;
}

// The squares pawns of color `c` on `pawns` attack towards the a-file and towards the h-file.
inline void pawn_attack_directions(Bitboard pawns, Color c, Bitboard out[2]) {
  const Bitboard not_a = ~rules::file_bb(0), not_h = ~rules::file_bb(7);
  if (c == kWhite) {
    out[0] = (pawns & not_a) << 7;
    out[1] = (pawns & not_h) << 9;
  } else {
    out[0] = (pawns & not_a) >> 9;
    out[1] = (pawns & not_h) >> 7;
  }
}

// The squares knights on `knights` attack, in each of the eight directions.
inline void knight_attack_directions(Bitboard knights, Bitboard out[8]) {
  const Bitboard not_a = ~rules::file_bb(0), not_h = ~rules::file_bb(7);
  const Bitboard not_ab = ~(rules::file_bb(0) | rules::file_bb(1)), not_gh = ~(rules::file_bb(6) | rules::file_bb(7));
  out[0] = (knights & not_h) << 17;   // one file right, two ranks up
  out[1] = (knights & not_a) << 15;   // one file left, two ranks up
  out[2] = (knights & not_gh) << 10;  // two files right, one rank up
  out[3] = (knights & not_ab) << 6;   // two files left, one rank up
  out[4] = (knights & not_a) >> 17;   // one file left, two ranks down
  out[5] = (knights & not_h) >> 15;   // one file right, two ranks down
  out[6] = (knights & not_ab) >> 10;  // two files left, one rank down
  out[7] = (knights & not_gh) >> 6;   // two files right, one rank down
}

// The squares from which a piece of each type of ours would attack their king (f.their_king),
// and our pieces whose move would uncover an attack on it by a rook, bishop or queen of ours:
// none without a king. Reads f.us and f.their_king.
template <class Sliders>
PGNARC_ALWAYS_INLINE void check_facts(const rules::AttackTables& T, const Position& pos, Bitboard occ, PlyFacts& f) {
  const Color us = f.us, them = ~us;
  const Square k = f.their_king;
  f.discoverers = 0;
  for (int t = 0; t < 7; ++t) f.check_squares[t] = 0;
  if (k == kNoSquare) return;
  f.check_squares[kPawn] = T.pawn[them][k];
  f.check_squares[kKnight] = T.knight[k];
  f.check_squares[kBishop] = Sliders::bishop(T, k, occ);
  f.check_squares[kRook] = Sliders::rook(T, k, occ);
  f.check_squares[kQueen] = f.check_squares[kBishop] | f.check_squares[kRook];
  const Bitboard rq = pos.pieces(us, kRook) | pos.pieces(us, kQueen);
  const Bitboard bq = pos.pieces(us, kBishop) | pos.pieces(us, kQueen);
  for (Bitboard s = (T.rook_rays[k] & rq) | (T.bishop_rays[k] & bq); s;) {
    const Bitboard between = T.between[k][rules::pop_lsb(s)] & occ;
    if (between && !rules::more_than_one(between)) f.discoverers |= between & pos.pieces(us);
  }
}

// The squares behind `pawns` on their files, seen from `us` (towards our first rank).
PGNARC_ALWAYS_INLINE Bitboard behind_pawns(Bitboard pawns, Color us) {
  Bitboard behind = pawns;
  if (us == kWhite) {
    for (int i = 0; i < 3; ++i) behind |= behind >> (8 << i);
    return behind >> 8;
  }
  for (int i = 0; i < 3; ++i) behind |= behind << (8 << i);
  return behind << 8;
}

}  // namespace facts_impl

template <class Sliders>
void compute_facts(const Position& pos, const History& history, PlyFacts& f) {
  const rules::AttackTables& T = rules::attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.occupied();
  f.us = us;
  f.flip = us == kWhite ? 0 : 56;
  f.occ = occ;
  f.phase = facts_impl::phase(pos);
  f.our_king = pos.king_square(us);
  f.their_king = pos.king_square(them);

  // Pawns and knights attack by shifts of their bitboards, one per direction: no square is
  // attacked twice from one direction, so counting attacks direction by direction counts them
  // piece by piece. Sliders and kings one by one.
  Bitboard pawn_dirs[2][2], knight_dirs[2][8];
  for (Color c : {kWhite, kBlack}) {
    facts_impl::pawn_attack_directions(pos.pieces(c, kPawn), c, pawn_dirs[c]);
    facts_impl::knight_attack_directions(pos.pieces(c, kKnight), knight_dirs[c]);
  }
  Bitboard* by_type = f.their_attacks_of;
  for (int t = 0; t < 7; ++t) by_type[t] = 0;
  by_type[kPawn] = pawn_dirs[them][0] | pawn_dirs[them][1];
  for (Bitboard a : knight_dirs[them]) by_type[kKnight] |= a;
  for (int t = kBishop; t <= kKing; ++t)
    for (Bitboard b = pos.pieces(them, static_cast<PieceType>(t)); b;)
      by_type[t] |= piece_attacks<Sliders>(T, static_cast<PieceType>(t), them, rules::pop_lsb(b), occ);
  f.their_attacks = by_type[kPawn] | by_type[kKnight] | by_type[kBishop] | by_type[kRook] | by_type[kQueen] | by_type[kKing];
  f.lower[kNoPieceType] = 0;
  f.lower[kPawn] = 0;
  f.lower[kKnight] = f.lower[kBishop] = by_type[kPawn];
  f.lower[kRook] = by_type[kPawn] | by_type[kKnight] | by_type[kBishop];
  f.lower[kQueen] = f.lower[kRook] | by_type[kRook];
  f.lower[kKing] = f.their_attacks;

  f.our_once = f.our_twice = 0;
  const auto add_ours = [&f](Bitboard a) {
    f.our_twice |= f.our_once & a;
    f.our_once |= a;
  };
  add_ours(pawn_dirs[us][0]);
  add_ours(pawn_dirs[us][1]);
  f.our_pawn_attacks = f.our_once;
  for (Bitboard a : knight_dirs[us]) add_ours(a);
  for (int t = kBishop; t <= kKing; ++t)
    for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)); b;)
      add_ours(piece_attacks<Sliders>(T, static_cast<PieceType>(t), us, rules::pop_lsb(b), occ));
  f.in_check = f.our_king != kNoSquare && (f.their_attacks >> f.our_king & 1);

  facts_impl::check_facts<Sliders>(T, pos, occ, f);

  const Bitboard their_pieces = pos.pieces(them) & ~pos.pieces(them, kKing);
  f.undefended = their_pieces & ~f.their_attacks;
  // Their pieces worth more than each type (kValue: P 1, N B 3, R 5, Q 9, K 100).
  f.higher[kQueen] = f.higher[kKing] = 0;
  f.higher[kRook] = pos.pieces(them, kQueen);
  f.higher[kKnight] = f.higher[kBishop] = f.higher[kRook] | pos.pieces(them, kRook);
  f.higher[kPawn] = f.higher[kKnight] | pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  f.higher[kNoPieceType] = f.higher[kPawn] | pos.pieces(them, kPawn);

  f.last_to = history.last_to;
  f.our_last_from = history.our_last_from;
  f.our_last_to = history.our_last_to;
  f.last_captured = history.last_captured;
  f.our_last_captured = history.our_last_captured;
  f.last_type = history.last_type;
  f.our_pawns = pos.pieces(us, kPawn);
  f.their_pawns = pos.pieces(them, kPawn);
  {
    const Bitboard pushed = (them == kWhite ? f.their_pawns << 8 : f.their_pawns >> 8) & ~occ;
    const Bitboard kicks = them == kWhite ? ((pushed << 7) & ~rules::file_bb(7)) | ((pushed << 9) & ~rules::file_bb(0))
                                          : ((pushed >> 9) & ~rules::file_bb(7)) | ((pushed >> 7) & ~rules::file_bb(0));
    f.pawn_kicks = kicks & ~f.their_attacks_of[kPawn];
  }
  {
    const int n = f.our_king != kNoSquare ? rules::popcount(T.king[f.our_king] & f.their_attacks) : 0;
    f.king_danger = n == 0 ? 0 : n <= 2 ? 1 : 2;
  }
  f.last_attacks = 0;
  if (history.last_to != kNoSquare) {
    const Piece p = pos.piece_on(history.last_to);
    if (p != kNoPiece && color_of(p) == them) f.last_attacks = piece_attacks<Sliders>(T, type_of(p), them, history.last_to, occ);
  }

  {
    const Bitboard behind = facts_impl::behind_pawns(f.their_pawns, us);
    f.pawn_span_sides = ((behind & ~rules::file_bb(0)) >> 1) | ((behind & ~rules::file_bb(7)) << 1);
    f.pawn_span = behind | f.pawn_span_sides;
  }

  f.diagonal_sliders = pos.pieces(kWhite, kBishop) | pos.pieces(kBlack, kBishop) | pos.pieces(kWhite, kQueen) |
                       pos.pieces(kBlack, kQueen);
  f.straight_sliders = pos.pieces(kWhite, kRook) | pos.pieces(kBlack, kRook) | pos.pieces(kWhite, kQueen) |
                       pos.pieces(kBlack, kQueen);

  {
    static constexpr int kClass[7] = {0, 1, 2, 2, 3, 4, 0};
    int n = 0;
    f.en_prise[0] = f.en_prise[1] = kNoSquare;
    f.en_prise_class[0] = f.en_prise_class[1] = 0;
    for (int t = kQueen; t >= kPawn && n < 2; --t)
      for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)) &
                        (f.lower[t] | (f.their_attacks & ~f.our_once));
           b && n < 2; ++n) {
        f.en_prise[n] = rules::pop_lsb(b);
        f.en_prise_class[n] = kClass[t];
      }
  }

  f.our_pieces = pos.pieces(us);
  f.wing_base = kToByTheirWing + (f.their_king == kNoSquare  ? 1
                             : file_of(f.their_king) < 3 ? 0
                             : file_of(f.their_king) < 5 ? 1
                                                         : 2) * kTypes * 64;
  f.own_wing_base = kToByOurWing + (f.our_king == kNoSquare  ? 1
                                    : file_of(f.our_king) < 3 ? 0
                                    : file_of(f.our_king) < 5 ? 1
                                                              : 2) * kTypes * 64;
  f.our_sliders = pos.pieces(us, kBishop) | pos.pieces(us, kRook) | pos.pieces(us, kQueen);
  f.our_queens = pos.pieces(us, kQueen);
  f.our_rooks = pos.pieces(us, kRook);
  f.our_minors = pos.pieces(us, kKnight) | pos.pieces(us, kBishop);
  f.their_queens = pos.pieces(them, kQueen);
  f.their_rooks = pos.pieces(them, kRook);
  f.their_minors = pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  f.their_pawn_attacks = by_type[kPawn];
  f.king_zone = f.their_king != kNoSquare ? T.king[f.their_king] : 0;

  f.castle_rooks = 0;
  for (CastleSide side : {kKingSide, kQueenSide})
    if (const Square r = pos.castling_rook(us, side); r != kNoSquare) f.castle_rooks |= rules::bb(r);
}

#if PGNARC_HAVE_V3
// Slider attacks by PEXT lookups, for the x86-64-v3 builds of the models.
struct PextSliders {
  PGNARC_V3_TARGET static Bitboard bishop(const rules::AttackTables& T, Square s, Bitboard occ) {
    return rules::pext_bishop_attacks(T, s, occ);
  }
  PGNARC_V3_TARGET static Bitboard rook(const rules::AttackTables& T, Square s, Bitboard occ) {
    return rules::pext_rook_attacks(T, s, occ);
  }
};
#endif

}  // namespace pgnarc::codec::model
