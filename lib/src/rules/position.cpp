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

void Position::play(Move m) {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece piece = board_[from];
  ++halfmove_;
  fullmove_ = static_cast<std::uint16_t>(fullmove_ + us);  // after Black's move
  ep_ = kNoSquare;
  side_ = them;
  // Castling rights change only while some remain, and then only when a king moves or a piece
  // leaves or lands on a castling rook's square (a capture of the king itself happens only
  // after a null move in check).
  const bool rights = (castle_rook_[0][0] & castle_rook_[0][1] & castle_rook_[1][0] & castle_rook_[1][1]) != kNoSquare;

  if (m.kind() == Move::kCastling) [[unlikely]] {
    const bool king_side = to > from;
    const Square base = us == kWhite ? 0 : 56;
    remove(from);
    remove(to);
    put(make_piece(us, kKing), static_cast<Square>(base + (king_side ? 6 : 2)));
    put(make_piece(us, kRook), static_cast<Square>(base + (king_side ? 5 : 3)));
    castle_rook_[us][kKingSide] = castle_rook_[us][kQueenSide] = kNoSquare;
    return;
  }
  Square captured = to;
  if (m.kind() == Move::kEnPassant) [[unlikely]]
    captured = static_cast<Square>(us == kWhite ? to - 8 : to + 8);
  const Piece victim = board_[captured];
  if (victim != kNoPiece) {
    remove(captured);
    halfmove_ = 0;
    if (rights)
      for (auto& r : castle_rook_[them])
        if (r == captured || type_of(victim) == kKing) r = kNoSquare;
  }
  // `to` is empty now: one exclusive-or per bitboard moves the piece.
  const Piece placed = m.kind() == Move::kPromotion ? make_piece(us, m.promotion()) : piece;
  by_type_[0] ^= bb(from) | bb(to);
  by_type_[type_of(piece)] ^= bb(from);
  by_type_[type_of(placed)] ^= bb(to);
  by_color_[us] ^= bb(from) | bb(to);
  board_[from] = kNoPiece;
  board_[to] = placed;
  if (type_of(piece) == kPawn) {
    halfmove_ = 0;
    // Record the en passant square only when an enemy pawn stands ready to capture there, so
    // that equal positions have equal state.
    if ((from ^ to) == 16) {
      const Square ep = static_cast<Square>((from + to) / 2);
      if (attack_tables().pawn[us][ep] & pieces(them, kPawn)) ep_ = ep;
    }
  } else if (rights) {
    if (type_of(piece) == kKing) castle_rook_[us][kKingSide] = castle_rook_[us][kQueenSide] = kNoSquare;
    for (auto& r : castle_rook_[us])
      if (r == from) r = kNoSquare;
  }
}

void Position::play_null() {
  ++halfmove_;
  if (side_ == kBlack) ++fullmove_;
  ep_ = kNoSquare;
  side_ = ~side_;
}

}  // namespace pgnarc
