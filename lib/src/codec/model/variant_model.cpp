#include "codec/model/variant_model.h"

#include <algorithm>

#include "rules/bitboard.h"
#include "rules/movegen.h"

namespace pgnarc::codec::model::zh {

using namespace pgnarc::rules;

void crazyhouse_features(const Position& pos, const MoveList& list, const History& h, MoveFeatures* out) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const int flip = us == kWhite ? 0 : 56;
  const Bitboard occ = pos.occupied(), ours = pos.pieces(us), theirs = pos.pieces(them);
  const bool their_king = pos.pieces(them, kKing) != 0;
  const Square their_king_sq = their_king ? pos.king_square(them) : kNoSquare;
  const Bitboard zone = their_king ? T.king[their_king_sq] : 0;
  const bool in_check = pos.in_check();
  // Their attacks; the squares our pieces attack at least once and at least twice (a piece of
  // ours other than the one on `from` attacks s: s is attacked twice, or once and not by it).
  Bitboard their_attacks = 0, once = 0, twice = 0;
  for (Bitboard b = theirs; b;) {
    const Square s = pop_lsb(b);
    their_attacks |= piece_attacks(T, type_of(pos.piece_on(s)), them, s, occ);
  }
  for (Bitboard b = ours; b;) {
    const Square s = pop_lsb(b);
    const Bitboard a = piece_attacks(T, type_of(pos.piece_on(s)), us, s, occ);
    twice |= once & a;
    once |= a;
  }
  const bool their_checked = their_king && (once & bb(their_king_sq));
  // Our pieces that alone stand between one of our sliders and their king, each with the
  // squares between them: moving one off that line checks.
  Bitboard discoverers = 0;
  Bitboard blocked_line[64];
  if (their_king) {
    const Bitboard rooks = pos.pieces(us, kRook) | pos.pieces(us, kQueen);
    const Bitboard bishops = pos.pieces(us, kBishop) | pos.pieces(us, kQueen);
    Bitboard sliders = (T.rook_rays[their_king_sq] & rooks) | (T.bishop_rays[their_king_sq] & bishops);
    while (sliders) {
      const Square s = pop_lsb(sliders);
      const Bitboard between = T.between[s][their_king_sq];
      const Bitboard blockers = between & occ;
      if (blockers && !more_than_one(blockers) && (blockers & ours)) {
        discoverers |= blockers;
        blocked_line[lsb(blockers)] = between;
      }
    }
  }
  Square own_from = kNoSquare;  // the board moves come by from-square: `own` is its piece's attacks
  Bitboard own = 0;
  for (int i = 0; i < list.size; ++i) {
    const Move m = list[i];
    MoveFeatures& f = out[i];
    f.n = 0;
    const bool drop = m.is_drop();
    const Square from = m.from();
    const PieceType mover = drop ? m.drop_piece() : type_of(pos.piece_on(from));
    const int kind = drop ? 5 + mover : mover - 1;
    // The landing square (7.6.1): castling's is the king's destination.
    const bool castling = m.is_castling();
    const Square to = castling ? make_square(m.to() > from ? 6 : 2, rank_of(from)) : m.to();
    f.add(kSquare + kind * 64 + (to ^ flip));
    int victim = 0;
    if (m.kind() == Move::kEnPassant) victim = kPawn;
    else if (!castling && (theirs & bb(to))) victim = type_of(pos.piece_on(to));
    f.add(kVictim + kind * 7 + victim);
    if (!drop && from != own_from) own = piece_attacks(T, mover, us, from, occ), own_from = from;
    const bool to_defended = (twice & bb(to)) || ((once & ~(drop ? 0 : own)) & bb(to));
    f.add(kSafety + kind * 4 + ((their_attacks & bb(to)) != 0) * 2 + to_defended);
    if (!drop) {
      f.add(kFromSafety + kind * 4 + ((their_attacks & bb(from)) != 0) * 2 + ((once & bb(from)) != 0));
      f.add(kFrom + kind * 64 + (from ^ flip));
    }
    // What the piece (a promotion's new piece) attacks from where it lands, after the move.
    const PieceType type = m.promoted_piece() != kNoPieceType ? m.promoted_piece() : mover;
    const Bitboard att = piece_attacks(T, type, us, to, (occ & ~bb(from)) | bb(to));
    // A check: by the piece where it lands, or by a slider it uncovers (castling and en passant,
    // which move or take a second piece, are played out, and so is every move where their king
    // is attacked already, after a null move in check).
    bool check = (att & pos.pieces(them, kKing)) != 0;
    if (castling || m.kind() == Move::kEnPassant || their_checked) {
      Position after = pos;
      after.play(m);
      check = after.in_check();
    } else if (!drop && (discoverers & bb(from)) && !(blocked_line[from] & bb(to))) {
      check = true;
    }
    if (check) f.add(kCheck + kind);
    const int dist = their_king ? std::max(std::abs(file_of(to) - file_of(their_king_sq)),
                                           std::abs(rank_of(to) - rank_of(their_king_sq)))
                                : 0;
    f.add(kKingDistance + kind * 8 + std::min(dist, 7));
    if (in_check) f.add(kEvasion + kind);
    if (h.last_to != kNoSquare && h.last_to == to) f.add(kRecapture + kind);
    int threat = 0;
    for (Bitboard b = att & theirs & ~pos.pieces(them, kKing) & ~bb(to); b && threat != 1;) {
      const Square s = pop_lsb(b);
      if (model::kValue[type_of(pos.piece_on(s))] > model::kValue[type]) threat = 1;  // 7.6.2's values
      else if (!(their_attacks & bb(s))) threat = 2;
    }
    f.add(kThreat + kind * 3 + threat);
    f.add(kKingZone + kind * 4 + std::min(popcount(att & zone), 3));
  }
}

std::uint32_t frequencies(const Position& pos, const MoveList& list, const History& h, std::uint32_t* freq,
                          const std::int8_t* weights) {
  MoveFeatures features[kMaxLegalMoves];
  crazyhouse_features(pos, list, h, features);
  int score[kMaxLegalMoves];
  for (int i = 0; i < list.size; ++i) score[i] = features[i].score(weights);
  return frequencies_of_scores(score, list.size, freq);
}

}  // namespace pgnarc::codec::model::zh
