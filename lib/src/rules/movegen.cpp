#include "rules/movegen.h"

// The two hottest functions of decoding and encoding get a second copy built for x86-64-v3
// (BMI1/2, LZCNT, AVX2), picked when the library loads (GCC function multiversioning); other
// x86-64 CPUs run the default copy. Measured: 6% more plies/s decoded (pgnarc-bench codec).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PGNARC_HOT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define PGNARC_HOT_CLONES
#endif

namespace pgnarc::detail {

Bitboard attackers_to(const Position& pos, Square s, Bitboard occ) {
  const AttackTables& T = attack_tables();
  Bitboard rq = pos.pieces(kWhite, kRook) | pos.pieces(kBlack, kRook) | pos.pieces(kWhite, kQueen) |
                pos.pieces(kBlack, kQueen);
  Bitboard bq = pos.pieces(kWhite, kBishop) | pos.pieces(kBlack, kBishop) |
                pos.pieces(kWhite, kQueen) | pos.pieces(kBlack, kQueen);
  return (T.pawn[kBlack][s] & pos.pieces(kWhite, kPawn)) |
         (T.pawn[kWhite][s] & pos.pieces(kBlack, kPawn)) |
         (T.knight[s] & (pos.pieces(kWhite, kKnight) | pos.pieces(kBlack, kKnight))) |
         (T.king[s] & (pos.pieces(kWhite, kKing) | pos.pieces(kBlack, kKing))) |
         (T.rook_attacks(s, occ) & rq) | (T.bishop_attacks(s, occ) & bq);
}

namespace {

// Is `s` attacked by `by` with occupancy `occ`? (Pieces removed from `occ` still attack: callers
// that remove a piece also make sure it is not one of `by`'s.)
bool attacked(const Position& pos, const AttackTables& T, Square s, Color by, Bitboard occ) {
  return (T.pawn[~by][s] & pos.pieces(by, kPawn)) || (T.knight[s] & pos.pieces(by, kKnight)) ||
         (T.king[s] & pos.pieces(by, kKing)) ||
         (T.rook_attacks(s, occ) & (pos.pieces(by, kRook) | pos.pieces(by, kQueen))) ||
         (T.bishop_attacks(s, occ) & (pos.pieces(by, kBishop) | pos.pieces(by, kQueen)));
}

// The squares the enemy attacks, with our king lifted off the board (so that sliders see through
// its square), restricted to what matters: only sliders whose empty-board rays reach `zone` are
// looked up.
Bitboard king_danger(const Position& pos, const AttackTables& T, Color them, Bitboard occ_no_king, Bitboard zone) {
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  Bitboard danger = them == kWhite ? ((their_pawns & ~file_bb(0)) << 7) | ((their_pawns & ~file_bb(7)) << 9)
                                   : ((their_pawns & ~file_bb(0)) >> 9) | ((their_pawns & ~file_bb(7)) >> 7);
  if (pos.pieces(them, kKing)) danger |= T.king[pos.king_square(them)];
  for (Bitboard b = pos.pieces(them, kKnight); b;) danger |= T.knight[pop_lsb(b)];
  for (Bitboard b = pos.pieces(them, kBishop) | pos.pieces(them, kQueen); b;) {
    const Square sq = pop_lsb(b);
    if (T.bishop_rays[sq] & zone) danger |= T.bishop_attacks(sq, occ_no_king);
  }
  for (Bitboard b = pos.pieces(them, kRook) | pos.pieces(them, kQueen); b;) {
    const Square sq = pop_lsb(b);
    if (T.rook_rays[sq] & zone) danger |= T.rook_attacks(sq, occ_no_king);
  }
  return danger;
}

}  // namespace

// Targets are computed piece type by piece type into the per-square table (no branch on the
// piece type of each square), counting moves as they are found.
PGNARC_HOT_CLONES void generate_targets(const Position& pos, PieceTargets& out) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.occupied(), own = pos.pieces(us), enemy = pos.pieces(them);
  const Square ksq = pos.king_square(us);
  const Bitboard their_rq = pos.pieces(them, kRook) | pos.pieces(them, kQueen);
  const Bitboard their_bq = pos.pieces(them, kBishop) | pos.pieces(them, kQueen);
  Bitboard* tgt = out.to;
  if (ksq == kNoSquare) {  // a side without its king (captured after a null move in check) cannot move
    out.movers = out.promoting = 0;
    out.total = 0;
    out.check = false;
    return;
  }

  // Enemy sliders that would attack the king on an empty board: with nothing between they give
  // check; with exactly one of our pieces between, that piece is pinned to the line.
  Bitboard checkers = (T.pawn[us][ksq] & pos.pieces(them, kPawn)) | (T.knight[ksq] & pos.pieces(them, kKnight));
  Bitboard pinned = 0;
  Bitboard snipers = (T.rook_rays[ksq] & their_rq) | (T.bishop_rays[ksq] & their_bq);
  while (snipers) {
    const Square s = pop_lsb(snipers);
    const Bitboard b = T.between[ksq][s] & occ;
    if (!b) checkers |= bb(s);
    else if (!more_than_one(b)) pinned |= b & own;
  }

  {
    // The king: every square the enemy does not attack, then castling (Chess960 rules, which
    // include the standard ones): not out of check; every square between king and its
    // destination and between rook and its destination empty but for the two castling pieces; no
    // square from the king's start to its destination attacked, tested with both castling pieces
    // lifted so that neither shields the king's path.
    const Bitboard zone = T.king[ksq] & ~own;
    Bitboard t = zone ? zone & ~king_danger(pos, T, them, occ ^ bb(ksq), zone) : 0;
    if (!checkers) {
      for (CastleSide side : {kKingSide, kQueenSide}) {
        const Square rsq = pos.castling_rook(us, side);
        if (rsq == kNoSquare || (T.castle_empty[us][file_of(ksq)][file_of(rsq)] & occ)) continue;
        const Bitboard lifted = occ ^ bb(ksq) ^ bb(rsq);
        Bitboard kpath = T.castle_safe[us][file_of(ksq)][file_of(rsq)];
        bool safe = true;
        while (kpath && safe) safe = !attacked(pos, T, pop_lsb(kpath), them, lifted);
        if (safe) t |= bb(rsq);
      }
    }
    tgt[ksq] = t;
    out.check = checkers != 0;
    out.movers = bb(ksq);
    out.promoting = 0;
    out.total = popcount(t);
  }
  if (more_than_one(checkers)) return;  // double check: only the king moves

  int n = 0;
  const Bitboard target = ~own & (checkers ? T.between[ksq][lsb(checkers)] | checkers : ~Bitboard{0});
  for (Bitboard b = pos.pieces(us, kKnight); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = T.knight[s] & target);
  }
  for (Bitboard b = pos.pieces(us, kBishop); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = T.bishop_attacks(s, occ) & target);
  }
  for (Bitboard b = pos.pieces(us, kRook); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = T.rook_attacks(s, occ) & target);
  }
  for (Bitboard b = pos.pieces(us, kQueen); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = T.queen_attacks(s, occ) & target);
  }
  const Bitboard empty = ~occ;
  const Bitboard our_pawns = pos.pieces(us, kPawn);
  for (Bitboard b = our_pawns; b;) {
    const Square s = pop_lsb(b);
    // One step, then two from the start rank (the square one step ahead lies on rank 3 or 6).
    const Bitboard one = (us == kWhite ? bb(s) << 8 : bb(s) >> 8) & empty;
    const Bitboard two = (us == kWhite ? (one & rank_bb(2)) << 8 : (one & rank_bb(5)) >> 8) & empty;
    n += popcount(tgt[s] = (one | two | (T.pawn[us][s] & enemy)) & target);
  }
  // A pinned piece keeps only the moves along its pin (a pinned knight has none).
  for (Bitboard b = pinned; b;) {
    const Square s = pop_lsb(b);
    n -= popcount(tgt[s] & ~T.line[ksq][s]);
    tgt[s] &= T.line[ksq][s];
  }
  // En passant removes two pawns from one rank and adds one on another, which no pin or check
  // mask describes fully (the rank pin that exposes the king); test the resulting position.
  const Square ep = pos.ep_square();
  if (ep != kNoSquare) {
    const Square captured = static_cast<Square>(us == kWhite ? ep - 8 : ep + 8);
    for (Bitboard b = T.pawn[them][ep] & our_pawns; b;) {
      const Square s = pop_lsb(b);
      const Bitboard after = (occ ^ bb(s) ^ bb(captured)) | bb(ep);
      const bool exposed = (T.rook_attacks(ksq, after) & their_rq) || (T.bishop_attacks(ksq, after) & their_bq) ||
                           (T.knight[ksq] & pos.pieces(them, kKnight)) ||
                           (T.pawn[us][ksq] & pos.pieces(them, kPawn) & ~bb(captured));
      if (!exposed) {
        tgt[s] |= bb(ep);
        ++n;
      }
    }
  }
  // Each promoting pawn's target is four moves (N, B, R, Q): three more than counted.
  out.promoting = our_pawns & rank_bb(us == kWhite ? 6 : 1);
  for (Bitboard b = out.promoting; b;) n += 3 * popcount(tgt[pop_lsb(b)]);
  out.movers = own;
  out.total += n;
}

Move make_move(const Position& pos, Square from, Square to, int promo) {
  // Without branches: the kinds exclude one another, so their codes combine by addition.
  const Piece p = pos.piece_on(from), captured = pos.piece_on(to);
  const bool king = type_of(p) == kKing, pawn = type_of(p) == kPawn;
  const bool own_target = captured != kNoPiece && color_of(captured) == color_of(p);
  const bool last_rank = static_cast<unsigned>(rank_of(to) - 1) >= 6u;  // rank 1 or 8
  const bool castling = king && own_target;
  const bool promotion = pawn && last_rank;
  const bool en_passant = pawn && to == pos.ep_square();
  const int kind = castling * Move::kCastling + promotion * Move::kPromotion + en_passant * Move::kEnPassant;
  return Move(from, to, static_cast<Move::Kind>(kind), static_cast<PieceType>(kKnight + (promotion ? promo : 0)));
}

bool king_safe_after(const Position& pos, Square from, Square to, bool en_passant) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Square captured = en_passant ? static_cast<Square>(us == kWhite ? to - 8 : to + 8) : to;
  const Bitboard occ = (pos.occupied() ^ bb(from) ^ (en_passant ? bb(captured) : 0)) | bb(to);
  const Bitboard alive = ~bb(captured);  // the captured piece no longer attacks
  const Square ksq = type_of(pos.piece_on(from)) == kKing ? to : pos.king_square(us);
  if (ksq == kNoSquare) return false;  // no king: no legal move (see generate_targets)
  return !((T.pawn[us][ksq] & pos.pieces(them, kPawn) & alive) || (T.knight[ksq] & pos.pieces(them, kKnight) & alive) ||
           (T.king[ksq] & pos.pieces(them, kKing)) ||
           (T.rook_attacks(ksq, occ) & (pos.pieces(them, kRook) | pos.pieces(them, kQueen)) & alive) ||
           (T.bishop_attacks(ksq, occ) & (pos.pieces(them, kBishop) | pos.pieces(them, kQueen)) & alive));
}

Bitboard pseudo_movers_to(const Position& pos, PieceType pt, Square to) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.occupied(), mine = pos.pieces(us, pt);
  switch (pt) {
    case kPawn: {
      const int fwd = us == kWhite ? 8 : -8;
      if (!(occ & bb(to))) {
        Bitboard movers = 0;
        const int one = to - fwd;
        if (one >= 0 && one < 64) {
          movers |= mine & bb(one);
          const int two = one - fwd;
          const bool double_rank = rank_of(to) == (us == kWhite ? 3 : 4);
          if (double_rank && !(occ & bb(one)) && two >= 0 && two < 64) movers |= mine & bb(two);
        }
        if (to == pos.ep_square()) movers |= T.pawn[them][to] & mine;
        return movers;
      }
      return (pos.pieces(them) & bb(to)) ? T.pawn[them][to] & mine : 0;
    }
    case kKnight: return T.knight[to] & mine;
    case kBishop: return T.bishop_attacks(to, occ) & mine;
    case kRook: return T.rook_attacks(to, occ) & mine;
    case kQueen: return T.queen_attacks(to, occ) & mine;
    case kKing: return T.king[to] & mine;
    default: return 0;
  }
}

int index_in(const Position& pos, const PieceTargets& pt, Move m) {
  if (m.is_none() || m.is_null()) return -1;
  const Square from = m.from(), to = m.to();
  if (!(pt.movers & bb(from)) || !(pt.to[from] & bb(to))) return -1;
  const int promo = m.kind() == Move::kPromotion ? m.promotion() - kKnight : 0;
  // The move must be exactly the one the board implies (kind and promotion included).
  if (make_move(pos, from, to, promo) != m) return -1;
  int index = 0;
  for (Bitboard b = pt.movers & (bb(from) - 1); b;) {
    const Square s = pop_lsb(b);
    index += popcount(pt.to[s]) * pt.weight(s);
  }
  return index + popcount(pt.to[from] & (bb(to) - 1)) * pt.weight(from) + promo;
}

PGNARC_HOT_CLONES Move move_at_index(const Position& pos, const PieceTargets& pt, int index) {
  if (!pt.promoting) {  // every target is one move
    for (Bitboard b = pt.movers; b;) {
      const Square s = pop_lsb(b);
      const int n = popcount(pt.to[s]);
      if (index < n) return make_move(pos, s, nth_bit(pt.to[s], index), 0);
      index -= n;
    }
    return Move::none();
  }
  for (Bitboard b = pt.movers; b;) {
    const Square s = pop_lsb(b);
    const int w = pt.weight(s);
    const int n = popcount(pt.to[s]) * w;
    if (index >= n) {
      index -= n;
      continue;
    }
    // A promoting pawn's moves come in fours (N, B, R, Q) per target.
    const bool promoting = w == 4;
    return make_move(pos, s, nth_bit(pt.to[s], promoting ? index >> 2 : index), promoting ? index & 3 : 0);
  }
  return Move::none();
}

}  // namespace pgnarc::detail

namespace pgnarc {

using namespace detail;

bool Position::is_legal(Move m) const {
  if (m.is_none() || m.is_null()) return false;
  const Square from = m.from(), to = m.to();
  const Piece p = board_[from];
  if (p == kNoPiece || color_of(p) != side_) return false;
  if (m.kind() == Move::kCastling) return move_index(m) >= 0;  // rare: the full generator decides
  if (board_[to] != kNoPiece && color_of(board_[to]) == side_) return false;
  const int promo = m.kind() == Move::kPromotion ? m.promotion() - kKnight : 0;
  if (make_move(*this, from, to, promo) != m) return false;
  if (!(pseudo_movers_to(*this, type_of(p), to) & bb(from))) return false;
  return king_safe_after(*this, from, to, m.kind() == Move::kEnPassant);
}


bool Position::in_check() const {
  return pieces(side_, kKing) && (attackers_to(*this, king_square(side_), occupied()) & pieces(~side_));
}

MoveList Position::legal_moves() const {
  PieceTargets pt;
  generate_targets(*this, pt);
  MoveList list;
  for (Bitboard b = pt.movers; b;) {
    const Square from = pop_lsb(b);
    const int w = pt.weight(from);
    for (Bitboard t = pt.to[from]; t;) {
      const Square to = pop_lsb(t);
      for (int p = 0; p < w; ++p) list.moves[list.size++] = make_move(*this, from, to, p);
    }
  }
  return list;
}

int Position::legal_move_count() const {
  PieceTargets pt;
  generate_targets(*this, pt);
  return pt.total;
}

int Position::move_index(Move m) const {
  if (m.is_none() || m.is_null()) return -1;
  PieceTargets pt;
  generate_targets(*this, pt);
  return index_in(*this, pt, m);
}

Move Position::move_at(int index) const {
  PieceTargets pt;
  generate_targets(*this, pt);
  if (index < 0 || index >= pt.total) return Move::none();
  return move_at_index(*this, pt, index);
}

std::uint64_t Position::perft(int depth) const {
  if (depth <= 0) return 1;
  PieceTargets pt;
  generate_targets(*this, pt);
  if (depth == 1) return static_cast<std::uint64_t>(pt.total);
  std::uint64_t nodes = 0;
  for (Bitboard b = pt.movers; b;) {
    const Square from = pop_lsb(b);
    const int w = pt.weight(from);
    for (Bitboard t = pt.to[from]; t;) {
      const Square to = pop_lsb(t);
      for (int p = 0; p < w; ++p) {
        Position child = *this;
        child.play(make_move(*this, from, to, p));
        nodes += child.perft(depth - 1);
      }
    }
  }
  return nodes;
}

}  // namespace pgnarc
