#include "rules/bitboard.h"

namespace pgnarc {

using namespace detail;

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

void Position::play_null() {
  ++halfmove_;
  if (side_ == kBlack) ++fullmove_;
  ep_ = kNoSquare;
  side_ = ~side_;
}

}  // namespace pgnarc
