// The hot part of the move generator, included twice by movegen.cpp: once as namespace `base`
// for every CPU, once as namespace `v3` with each function built for x86-64-v3 (BMI2, LZCNT,
// AVX2), where slider attacks are PEXT table lookups. The includer defines PGNARC_IMPL_NS,
// PGNARC_IMPL_TARGET (the function attribute) and PGNARC_IMPL_PEXT (0 or 1), which this file
// undefines at its end. Helpers from bitboard.h inlined here are built for the including
// function's target; any out-of-line copy of them is the baseline one, so nothing here leaks
// x86-64-v3 code into other callers.

namespace PGNARC_IMPL_NS {

#if PGNARC_IMPL_PEXT
PGNARC_IMPL_TARGET static inline Bitboard rook_attacks(const AttackTables& T, int s, Bitboard occ) {
  return pext_rook_attacks(T, s, occ);
}
PGNARC_IMPL_TARGET static inline Bitboard bishop_attacks(const AttackTables& T, int s, Bitboard occ) {
  return pext_bishop_attacks(T, s, occ);
}
PGNARC_IMPL_TARGET static inline Square nth_set_bit(Bitboard b, int k) {
  return static_cast<Square>(__builtin_ctzll(_pdep_u64(Bitboard{1} << k, b)));
}
#else
static inline Bitboard rook_attacks(const AttackTables& T, int s, Bitboard occ) { return T.rook_attacks(s, occ); }
static inline Bitboard bishop_attacks(const AttackTables& T, int s, Bitboard occ) { return T.bishop_attacks(s, occ); }
static inline Square nth_set_bit(Bitboard b, int k) { return nth_bit(b, k); }
#endif
PGNARC_IMPL_TARGET static inline Bitboard queen_attacks(const AttackTables& T, int s, Bitboard occ) {
  return rook_attacks(T, s, occ) | bishop_attacks(T, s, occ);
}

// Is `s` attacked by `by` with occupancy `occ`? (Pieces removed from `occ` still attack: callers
// that remove a piece also make sure it is not one of `by`'s.)
PGNARC_IMPL_TARGET static bool attacked(const Position& pos, const AttackTables& T, Square s, Color by, Bitboard occ) {
  return (T.pawn[~by][s] & pos.pieces(by, kPawn)) || (T.knight[s] & pos.pieces(by, kKnight)) ||
         (T.king[s] & pos.pieces(by, kKing)) ||
         (rook_attacks(T, s, occ) & (pos.pieces(by, kRook) | pos.pieces(by, kQueen))) ||
         (bishop_attacks(T, s, occ) & (pos.pieces(by, kBishop) | pos.pieces(by, kQueen)));
}

// The squares the enemy attacks, with our king lifted off the board (so that sliders see through
// its square). Without data-dependent branches but the loops over sliders: a filter on which
// sliders can reach the king's neighbourhood, and a loop over knights, cost more in mispredicted
// branches than the lookups they save (decode +5%, codec benchmark on PGN Mentor). Always
// inlined: as a call it cost 3% of move generation in saved and restored registers.
PGNARC_IMPL_TARGET PGNARC_ALWAYS_INLINE static Bitboard king_danger(const Position& pos, const AttackTables& T, Color them, Bitboard occ_no_king) {
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  Bitboard danger = them == kWhite ? ((their_pawns & ~file_bb(0)) << 7) | ((their_pawns & ~file_bb(7)) << 9)
                                   : ((their_pawns & ~file_bb(0)) >> 9) | ((their_pawns & ~file_bb(7)) >> 7);
  if (pos.pieces(them, kKing)) danger |= T.king[pos.king_square(them)];
  {
    // Knights: each one file aside, then two ranks up or down; and two files aside, then one
    // rank up or down (the file masks drop the squares that would wrap around the board).
    const Bitboard n = pos.pieces(them, kKnight);
    const Bitboard one_file = ((n >> 1) & ~file_bb(7)) | ((n << 1) & ~file_bb(0));
    const Bitboard two_files = ((n >> 2) & ~(file_bb(6) | file_bb(7))) | ((n << 2) & ~(file_bb(0) | file_bb(1)));
    danger |= (one_file << 16) | (one_file >> 16) | (two_files << 8) | (two_files >> 8);
  }
  for (Bitboard b = pos.pieces(them, kBishop) | pos.pieces(them, kQueen); b;) {
    const Square sq = pop_lsb(b);
    danger |= bishop_attacks(T, sq, occ_no_king);
  }
  for (Bitboard b = pos.pieces(them, kRook) | pos.pieces(them, kQueen); b;) {
    const Square sq = pop_lsb(b);
    danger |= rook_attacks(T, sq, occ_no_king);
  }
  return danger;
}

// Targets are computed piece type by piece type into the per-square table (no branch on the
// piece type of each square), counting moves as they are found; built once per side to move, so
// that pawn directions and ranks are constants.
template <Color Us>
PGNARC_IMPL_TARGET static inline void generate_for(const Position& pos, PieceTargets& out) {
  constexpr Color them = ~Us;
  // A pawn's forward step, as a shift of its bitboard (bits pushed off the board vanish).
  const auto forward = [](Bitboard b) { return Us == kWhite ? b << 8 : b >> 8; };
  const AttackTables& T = attack_tables();
  const Bitboard occ = pos.occupied(), own = pos.pieces(Us), enemy = pos.pieces(them);
  const Square ksq = pos.king_square(Us);
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
  Bitboard checkers = (T.pawn[Us][ksq] & pos.pieces(them, kPawn)) | (T.knight[ksq] & pos.pieces(them, kKnight));
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
    Bitboard t = zone ? zone & ~king_danger(pos, T, them, occ ^ bb(ksq)) : 0;
    const auto castle = [&](Square rsq) {
      if (rsq == kNoSquare || (T.castle_empty[Us][file_of(ksq)][file_of(rsq)] & occ)) return;
      const Bitboard lifted = occ ^ bb(ksq) ^ bb(rsq);
      for (Bitboard kpath = T.castle_safe[Us][file_of(ksq)][file_of(rsq)]; kpath;)
        if (attacked(pos, T, pop_lsb(kpath), them, lifted)) return;
      t |= bb(rsq);
    };
    if (!checkers) {
      castle(pos.castling_rook(Us, kKingSide));
      castle(pos.castling_rook(Us, kQueenSide));
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
  for (Bitboard b = pos.pieces(Us, kKnight); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = T.knight[s] & target);
  }
  for (Bitboard b = pos.pieces(Us, kBishop); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = bishop_attacks(T, s, occ) & target);
  }
  for (Bitboard b = pos.pieces(Us, kRook); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = rook_attacks(T, s, occ) & target);
  }
  for (Bitboard b = pos.pieces(Us, kQueen); b;) {
    const Square s = pop_lsb(b);
    n += popcount(tgt[s] = queen_attacks(T, s, occ) & target);
  }
  // Pawns: the destinations of all pawns at once (one step; two from the start rank, whose
  // first step lands on rank 3 or 6; captures), counted there and then handed to each pawn.
  const Bitboard our_pawns = pos.pieces(Us, kPawn);
  const Bitboard step = forward(our_pawns) & ~occ;
  const Bitboard steps = step & target;
  const Bitboard double_steps = forward(step & rank_bb(Us == kWhite ? 2 : 5)) & ~occ & target;
  const Bitboard captures = enemy & target;
  const Bitboard west = Us == kWhite ? (our_pawns & ~file_bb(0)) << 7 : (our_pawns & ~file_bb(0)) >> 9;
  const Bitboard east = Us == kWhite ? (our_pawns & ~file_bb(7)) << 9 : (our_pawns & ~file_bb(7)) >> 7;
  n += popcount(steps) + popcount(double_steps) + popcount(west & captures) + popcount(east & captures);
  for (Bitboard b = our_pawns; b;) {
    const Square s = pop_lsb(b);
    const Bitboard ahead = forward(bb(s));
    tgt[s] = (ahead & steps) | (forward(ahead) & double_steps) | (T.pawn[Us][s] & captures);
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
    const Square captured = static_cast<Square>(Us == kWhite ? ep - 8 : ep + 8);
    for (Bitboard b = T.pawn[them][ep] & our_pawns; b;) {
      const Square s = pop_lsb(b);
      const Bitboard after = (occ ^ bb(s) ^ bb(captured)) | bb(ep);
      const bool exposed = (rook_attacks(T, ksq, after) & their_rq) || (bishop_attacks(T, ksq, after) & their_bq) ||
                           (T.knight[ksq] & pos.pieces(them, kKnight)) ||
                           (T.pawn[Us][ksq] & pos.pieces(them, kPawn) & ~bb(captured));
      if (!exposed) {
        tgt[s] |= bb(ep);
        ++n;
      }
    }
  }
  // Each promoting pawn's target is four moves (N, B, R, Q): three more than counted.
  out.promoting = our_pawns & rank_bb(Us == kWhite ? 6 : 1);
  for (Bitboard b = out.promoting; b;) n += 3 * popcount(tgt[pop_lsb(b)]);
  out.movers = own;
  out.total += n;
}

PGNARC_IMPL_TARGET void generate_targets(const Position& pos, PieceTargets& out) {
  if (pos.side_to_move() == kWhite) generate_for<kWhite>(pos, out);
  else generate_for<kBlack>(pos, out);
}

PGNARC_IMPL_TARGET Move move_at_index(const Position& pos, const PieceTargets& pt, int index) {
  if (!pt.promoting) {  // every target is one move
    // Every mover is visited, the one holding `index` picked without a branch: an early exit
    // mispredicts about once per call (decode +2%).
    Square from = kNoSquare;
    int at = 0;
    for (Bitboard b = pt.movers; b;) {
      const Square s = pop_lsb(b);
      const int n = popcount(pt.to[s]);
      const bool here = static_cast<unsigned>(index) < static_cast<unsigned>(n);
      from = here ? s : from;
      at = here ? index : at;
      index -= n;
    }
    return from == kNoSquare ? Move::none() : make_move(pos, from, nth_set_bit(pt.to[from], at), 0);
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
    return make_move(pos, s, nth_set_bit(pt.to[s], promoting ? index >> 2 : index), promoting ? index & 3 : 0);
  }
  return Move::none();
}

}  // namespace PGNARC_IMPL_NS

#undef PGNARC_IMPL_NS
#undef PGNARC_IMPL_TARGET
#undef PGNARC_IMPL_PEXT
