#include "rules/movegen.h"

namespace pgnarc::rules {

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

// The generator and the move selection, twice: `base` for every CPU and, on x86-64 with GCC,
// `v3` built for x86-64-v3 with PEXT slider lookups; the library picks one when it loads.
#define PGNARC_IMPL_NS base
#define PGNARC_IMPL_TARGET
#define PGNARC_IMPL_PEXT 0
#include "rules/movegen_impl.h"
#if PGNARC_HAVE_V3
#define PGNARC_IMPL_NS v3
#define PGNARC_IMPL_TARGET PGNARC_V3_TARGET
#define PGNARC_IMPL_PEXT 1
#include "rules/movegen_impl.h"
#endif

}  // namespace pgnarc::rules

// The entry points resolve to one copy when the library is loaded (an ifunc: no indirection
// per call). The resolvers run before constructors, so they only ask the CPU.
#if PGNARC_HAVE_V3
extern "C" {
PGNARC_NO_SANITIZE static auto pgnarc_resolve_generate_targets() -> decltype(&pgnarc::rules::base::generate_targets) {
  return pgnarc::rules::v3_generator_supported() ? pgnarc::rules::v3::generate_targets
                                                  : pgnarc::rules::base::generate_targets;
}
PGNARC_NO_SANITIZE static auto pgnarc_resolve_move_at_index() -> decltype(&pgnarc::rules::base::move_at_index) {
  return pgnarc::rules::v3_generator_supported() ? pgnarc::rules::v3::move_at_index
                                                  : pgnarc::rules::base::move_at_index;
}
}
namespace pgnarc::rules {
void generate_targets(const Position& pos, PieceTargets& out) __attribute__((ifunc("pgnarc_resolve_generate_targets")));
Move move_at_index(const Position& pos, const PieceTargets& t, int index) __attribute__((ifunc("pgnarc_resolve_move_at_index")));
}  // namespace pgnarc::rules
#else
namespace pgnarc::rules {
void generate_targets(const Position& pos, PieceTargets& out) { base::generate_targets(pos, out); }
Move move_at_index(const Position& pos, const PieceTargets& t, int index) { return base::move_at_index(pos, t, index); }
}  // namespace pgnarc::rules
#endif

namespace pgnarc::rules {

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

}  // namespace pgnarc::rules

namespace pgnarc {

using namespace rules;

bool Position::is_legal(Move m) const {
  if (m.is_none() || m.is_null()) return false;
  if (variant_ != Variant::kStandard) [[unlikely]]
    return move_index(m) >= 0;
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
  if (variant_ != Variant::kStandard) [[unlikely]]
    return variant_in_check();
  return pieces(side_, kKing) && (attackers_to(*this, king_square(side_), occupied()) & pieces(~side_));
}

MoveList Position::legal_moves() const {
  if (variant_ != Variant::kStandard) [[unlikely]] {
    MoveList list;
    variant_moves(list);
    return list;
  }
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
  if (variant_ != Variant::kStandard) [[unlikely]]
    return legal_moves().size;
  PieceTargets pt;
  generate_targets(*this, pt);
  return pt.total;
}

int Position::move_index(Move m) const {
  if (m.is_none() || m.is_null()) return -1;
  if (variant_ != Variant::kStandard) [[unlikely]] {
    const MoveList list = legal_moves();
    for (int i = 0; i < list.size; ++i)
      if (list[i] == m) return i;
    return -1;
  }
  PieceTargets pt;
  generate_targets(*this, pt);
  return index_in(*this, pt, m);
}

Move Position::move_at(int index) const {
  if (variant_ != Variant::kStandard) [[unlikely]] {
    const MoveList list = legal_moves();
    return index >= 0 && index < list.size ? list[index] : Move::none();
  }
  PieceTargets pt;
  generate_targets(*this, pt);
  if (index < 0 || index >= pt.total) return Move::none();
  return move_at_index(*this, pt, index);
}

std::uint64_t Position::perft(int depth) const {
  if (depth <= 0) return 1;
  if (variant_ != Variant::kStandard) [[unlikely]] {
    const MoveList list = legal_moves();
    if (depth == 1) return static_cast<std::uint64_t>(list.size);
    std::uint64_t nodes = 0;
    for (const Move m : list) {
      Position child = *this;
      child.play_variant(m);
      nodes += child.perft(depth - 1);
    }
    return nodes;
  }
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
