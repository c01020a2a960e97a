#include "rules/bitboard.h"

namespace pgnarc {

using namespace rules;

std::string square_name(Square s) {
  if (s >= 64) return "-";
  return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

Position::Position() {
  static const Position start = from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").value();
  *this = start;
}

void Position::put(Piece p, Square s) {
  board_[s] = p;
  by_type_[0] |= bb(s);
  by_type_[type_of(p)] |= bb(s);
  by_color_[color_of(p)] |= bb(s);
}

void Position::remove(Square s) {
  const Piece p = board_[s];
  board_[s] = kNoPiece;
  by_type_[0] &= ~bb(s);
  by_type_[type_of(p)] &= ~bb(s);
  by_color_[color_of(p)] &= ~bb(s);
}

void Position::play_special(Move m) {
  if (variant_ != Variant::kStandard) play_variant(m);
  else play_castling_or_en_passant(m);
}

void Position::play_castling_or_en_passant(Move m) {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  ++halfmove_;
  fullmove_ = static_cast<std::uint16_t>(fullmove_ + us);
  ep_ = kNoSquare;
  side_ = them;
  if (m.kind() == Move::kCastling) {
    const bool king_side = to > from;
    const Square base = us == kWhite ? 0 : 56;
    remove(from);
    remove(to);
    put(make_piece(us, kKing), static_cast<Square>(base + (king_side ? 6 : 2)));
    put(make_piece(us, kRook), static_cast<Square>(base + (king_side ? 5 : 3)));
    castle_rook_[us][kKingSide] = castle_rook_[us][kQueenSide] = kNoSquare;
    return;
  }
  halfmove_ = 0;
  const Piece pawn = board_[from];
  remove(static_cast<Square>(us == kWhite ? to - 8 : to + 8));
  remove(from);
  put(pawn, to);
}

Square Position::legal_ep_square() const {
  if (ep_ == kNoSquare) return kNoSquare;
  for (const Move m : legal_moves())
    if (m.kind() == Move::kEnPassant) return ep_;
  return kNoSquare;
}

bool same_position(const Position& a, const Position& b) {
  if (a.occupied() != b.occupied() || a.side_to_move() != b.side_to_move() || a.variant() != b.variant()) return false;
  for (Color c : {kWhite, kBlack}) {
    if (a.remaining_checks(c) != b.remaining_checks(c)) return false;
    for (int t = kPawn; t <= kQueen; ++t)
      if (a.pocket(c, static_cast<PieceType>(t)) != b.pocket(c, static_cast<PieceType>(t))) return false;
  }
  for (Color c : {kWhite, kBlack}) {
    if (a.pieces(c) != b.pieces(c)) return false;
    for (int t = kPawn; t <= kKing; ++t)
      if (a.pieces(c, static_cast<PieceType>(t)) != b.pieces(c, static_cast<PieceType>(t))) return false;
    for (CastleSide side : {kKingSide, kQueenSide})
      if (a.castling_rook(c, side) != b.castling_rook(c, side)) return false;
  }
  // Equal pieces and side: the en passant squares differ only if one of them is set.
  return a.ep_square() == b.ep_square() || a.legal_ep_square() == b.legal_ep_square();
}

bool may_still_reach(const Position& from, const Position& to) {
  if (from.variant() != to.variant()) return false;
  for (Color c : {kWhite, kBlack}) {
    for (CastleSide s : {kKingSide, kQueenSide})
      if (to.castling_rook(c, s) != kNoSquare && from.castling_rook(c, s) != to.castling_rook(c, s)) return false;
    // Crazyhouse's drops bring pieces back, pawns to their start rank too; horde's pawns step
    // onto theirs from the first rank.
    if (from.variant() == Variant::kCrazyhouse) continue;
    if (std::popcount(from.pieces(c)) < std::popcount(to.pieces(c))) return false;
    if (from.variant() == Variant::kHorde && c == kWhite) continue;
    const Bitboard start_rank = c == kWhite ? 0xFF00ULL : 0xFF000000000000ULL;
    if (to.pieces(c, kPawn) & start_rank & ~from.pieces(c, kPawn)) return false;
  }
  return true;
}

void Position::play_null() {
  ++halfmove_;
  if (side_ == kBlack) ++fullmove_;
  ep_ = kNoSquare;
  side_ = ~side_;
}

}  // namespace pgnarc
