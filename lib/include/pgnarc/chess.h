// The rules of chess: squares, moves, positions, legal move generation, FEN, SAN and UCI.
//
// This is the lowest layer of pgnarc. The archive format stores each move as its index in the
// canonical order of the position's legal moves, so everything here must be exactly right:
// legal_moves() returns the moves already sorted in that order (see Position::legal_moves).
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/export.h"
#include "pgnarc/status.h"

namespace pgnarc {

using Bitboard = std::uint64_t;

// Squares are numbered a1=0, b1=1, ..., h1=7, a2=8, ..., h8=63 (file + 8 * rank).
using Square = std::uint8_t;
inline constexpr Square kNoSquare = 64;
constexpr Square make_square(int file, int rank) { return static_cast<Square>(file + 8 * rank); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// "e4"; "-" for kNoSquare.
PGNARC_EXPORT std::string square_name(Square s);

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return static_cast<Color>(c ^ 1); }

// Zero is "no piece", so that a Piece (color * 8 + type) of zero is an empty square.
enum PieceType : std::uint8_t {
  kNoPieceType = 0, kPawn = 1, kKnight = 2, kBishop = 3, kRook = 4, kQueen = 5, kKing = 6
};
enum Piece : std::uint8_t { kNoPiece = 0 };
constexpr Piece make_piece(Color c, PieceType t) { return static_cast<Piece>(c * 8 + t); }
constexpr PieceType type_of(Piece p) { return static_cast<PieceType>(p & 7); }
constexpr Color color_of(Piece p) { return static_cast<Color>(p >> 3); }

enum CastleSide : std::uint8_t { kKingSide = 0, kQueenSide = 1 };

// The rules a position is played under: standard chess (Chess960 is standard chess from another
// start, see Position::chess960) or one of lichess's variants, as lichess plays them.
enum class Variant : std::uint8_t {
  kStandard = 0,
  kCrazyhouse = 1,     // captured pieces change sides into the captor's pocket and are dropped
  kAtomic = 2,         // a capture explodes the capturer and the pieces, not pawns, around it
  kAntichess = 3,      // captures are compulsory, the king is a common piece, no check
  kThreeCheck = 4,     // the third check wins
  kKingOfTheHill = 5,  // a king on d4, e4, d5 or e5 wins
  kRacingKings = 6,    // no check may be given; a king on the eighth rank wins
  kHorde = 7,          // white's pawns, without a king, against black's army
};
inline constexpr int kVariantCount = 8;
// The variant's name as lichess writes it in the Variant tag ("Standard", "Crazyhouse", "Atomic",
// "Antichess", "Three-check", "King of the Hill", "Racing Kings", "Horde").
PGNARC_EXPORT const char* variant_name(Variant v);
// The variant a name means, in any spelling seen in the wild: case, spaces, hyphens and
// underscores aside, and the other names of the same rules ("zh", "3check", "koth", "giveaway",
// "suicide" for antichess's rules as lichess plays them, ...). False for other names (standard
// chess and Chess960 are the caller's: see start_position).
PGNARC_EXPORT bool variant_from_name(std::string_view name, Variant& out);

// A move in 16 bits:
//   bits  0-5   from square
//   bits  6-11  to square; for castling the square of the castling rook ("king takes own rook"),
//               in standard chess and Chess960 alike
//   bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (only for kind Promotion)
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
// Move::none() (all zero) is no move; Move::null() (b1b1) is the PGN null move "--".
// Variants add two shapes that no standard move has:
//   a drop (crazyhouse) has from == to: kind 0 drops a pawn, kind 1 the piece of bits 12-13 (a
//     pawn is never dropped on the first or last rank, so no drop is none() or null());
//   a pawn's promotion to king (antichess) is kind 3 with from and to on different ranks
//     (castling stays on its rank).
// A Xiangqi game's move (Game::rules, game.h) has a shape of its own, which no chess code reads:
// from | to << 7, with Xiangqi's squares 0 to 89 (file + 9 * rank, a0 to i9).
class PGNARC_EXPORT Move {
 public:
  enum Kind : std::uint8_t { kNormal = 0, kPromotion = 1, kEnPassant = 2, kCastling = 3 };
  constexpr Move() = default;
  constexpr Move(Square from, Square to, Kind kind = kNormal, PieceType promo = kKnight)
      : data_(static_cast<std::uint16_t>(from | (to << 6) | ((promo - kKnight) << 12) | (kind << 14))) {}
  static constexpr Move drop(PieceType piece, Square s) {
    return piece == kPawn ? Move(s, s) : Move(s, s, kPromotion, piece);
  }
  static constexpr Move king_promotion(Square from, Square to) { return Move(from, to, kCastling); }
  static constexpr Move none() { return Move(); }
  static constexpr Move null() { return Move(1, 1); }
  static constexpr Move xiangqi(int from, int to) {
    Move m;
    m.data_ = static_cast<std::uint16_t>(from | (to << 7));
    return m;
  }
  constexpr int xiangqi_from() const { return data_ & 127; }
  constexpr int xiangqi_to() const { return data_ >> 7; }
  constexpr Square from() const { return data_ & 63; }
  constexpr Square to() const { return (data_ >> 6) & 63; }
  constexpr Kind kind() const { return static_cast<Kind>(data_ >> 14); }
  constexpr PieceType promotion() const {
    return kind() == kPromotion ? static_cast<PieceType>(((data_ >> 12) & 3) + kKnight) : kNoPieceType;
  }
  constexpr bool is_drop() const { return from() == to() && kind() <= kPromotion && !is_null() && !is_none(); }
  // The piece a drop puts down.
  constexpr PieceType drop_piece() const { return kind() == kPromotion ? promotion() : kPawn; }
  constexpr bool is_king_promotion() const { return kind() == kCastling && rank_of(from()) != rank_of(to()); }
  // Castling proper (kind 3 on one rank), and the piece any promotion makes (a king too).
  constexpr bool is_castling() const { return kind() == kCastling && rank_of(from()) == rank_of(to()); }
  constexpr PieceType promoted_piece() const { return is_king_promotion() ? kKing : promotion(); }
  constexpr bool is_null() const { return data_ == null().data_; }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t data_ = 0;
};

// A position reached by play from the start has at most 218 legal moves; a FEN sets up at most
// 16 pieces a side, which allows at most 15 * 27 + 8 = 413 (fifteen queens and the king).
inline constexpr int kMaxLegalMoves = 416;
struct PGNARC_EXPORT MoveList {
  Move moves[kMaxLegalMoves];
  int size = 0;
  // More legal moves than the list holds (only a crazyhouse position set up with full pockets and
  // a crowded board can have them): the list is then incomplete, and the position cannot be coded.
  bool overflow = false;
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  Move operator[](int i) const { return moves[i]; }
};

class PGNARC_EXPORT Position {
 public:
  // The standard starting position.
  Position();

  // The start position of a variant (racing kings and horde have their own; antichess has no
  // castling rights).
  static Position start(Variant v);

  // Parses a FEN (4 to 6 fields). Castling rights may be KQkq (outermost rook), X-FEN or
  // Shredder-FEN file letters; the position counts as Chess960 (for UCI castling notation) when
  // `chess960` is set or when a castling right cannot be standard. Under a variant: crazyhouse's
  // pockets as "[QRBNPqrbnp]" after the board or as a ninth rank, and "~" after a promoted piece;
  // three-check's checks as remaining ("3+3", the fifth field) or given ("+0+0", a seventh);
  // horde's kingless white and antichess's any number of kings. Fails with InvalidInput naming
  // the field and the reason.
  static Result<Position> from_fen(std::string_view fen, bool chess960 = false,
                                   Variant variant = Variant::kStandard);
  // FEN with X-FEN castling letters (KQkq where the rook is the outermost, else its file). The
  // en passant square is ep_square(), or `ep` where that is given (kNoSquare: "-"). Crazyhouse
  // writes its pockets in brackets and its promoted pieces with "~"; three-check the checks given
  // as a seventh field ("+1+0"), as lichess does.
  std::string fen() const;
  std::string fen(Square ep) const;

  Variant variant() const { return variant_; }
  // Crazyhouse: the pieces of type `t` (pawn to queen) in `c`'s pocket.
  int pocket(Color c, PieceType t) const { return t < kKing ? pocket_[c][t] : 0; }
  // Crazyhouse: the pieces that were promoted pawns (they go back to a pocket as pawns).
  Bitboard promoted() const { return promoted_; }
  // Three-check: the checks `c` still has to give to win (3 at the start).
  int remaining_checks(Color c) const { return checks_[c]; }

  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard occupied() const { return by_type_[0]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Square king_square(Color c) const {
    return static_cast<Square>(std::countr_zero(pieces(c, kKing)));
  }
  // The en passant target square, only where a pawn of the side to move could capture there.
  Square ep_square() const { return ep_; }
  // The en passant target square only where an en passant capture is legal (no pin or check
  // forbids it), else kNoSquare.
  Square legal_ep_square() const;
  // The square of the rook that may castle on that side, or kNoSquare.
  Square castling_rook(Color c, CastleSide s) const { return castle_rook_[c][s]; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  bool chess960() const { return chess960_; }
  void set_chess960(bool v) { chess960_ = v; }
  // Whether the side to move's king is attacked (never in antichess; in atomic, not while the
  // kings stand side by side).
  bool in_check() const;
  // Whether the variant's own rule has ended the game (a king exploded, the third check, a king
  // on the hill, the race won, a side with no pieces left): such a position has no legal move.
  bool variant_over() const;
  // Whether the game has ended here with a winner, for a position whose side to move has no legal
  // move (the caller has seen so): checkmate, or a variant's end but a draw (antichess's side left
  // without a move wins; a race both kings reach is drawn; stalemate is a draw). SAN's "#".
  bool ended_with_winner() const;

  // All legal moves in canonical order: ascending (from square, to square, promotion piece) with
  // promotions ordered N < B < R < Q and castling as (king square, own rook square).
  MoveList legal_moves() const;
  int legal_move_count() const;
  // The index of `m` in legal_moves(), or -1 if `m` is not legal here.
  int move_index(Move m) const;
  // legal_moves()[index], or Move::none() if index is out of range.
  Move move_at(int index) const;
  // Whether `m` is one of legal_moves() (decided without generating them all).
  bool is_legal(Move m) const;

  // Plays a legal move (unchecked: `m` must come from this position's legal moves). Inline, as
  // decoding runs it once a ply; castling and en passant go out of line.
  void play(Move m);
  // Passes the turn (PGN "--"). The side to move must not be in check for this to be a position
  // reachable in chess, but the PGN null move is accepted as written.
  void play_null();

  // Canonical SAN: minimal disambiguation, "=Q", "+"/"#", "O-O"/"O-O-O", drops as "N@f3" and
  // "P@e4". `m` must be legal.
  std::string san(Move m) const;
  // UCI notation; castling as e1g1 in standard chess, as king-takes-rook (e1h1) in Chess960.
  std::string uci(Move m) const;
  // Lenient SAN (also accepts UCI/long algebraic, and drops as "N@f3", "@e4" or "n@f3").
  // Illegal or ambiguous input fails with InvalidInput giving the SAN and the FEN.
  Result<Move> parse_san(std::string_view san) const;

  // Number of leaf nodes of the legal move tree of `depth` plies.
  std::uint64_t perft(int depth) const;

  bool operator==(const Position&) const = default;

 private:
  struct Blank {};
  explicit Position(Blank) {}
  void put(Piece p, Square s);
  void remove(Square s);
  void play_castling_or_en_passant(Move m);
  void play_special(Move m);  // castling, en passant, or any move of a variant
  // Under a variant (rules/variant.cpp): the legal moves in canonical order, a move played, and
  // whether the side to move's king counts as attacked.
  void variant_moves(MoveList& out) const;
  void play_variant(Move m);
  bool variant_in_check() const;
  bool variant_king_safe() const;  // after a move: does the mover's king stand legally?
  Result<Move> parse_variant_san(std::string_view san, std::string_view as_written) const;

  Bitboard by_type_[7] = {};  // [0] = all occupied squares, [t] = pieces of type t
  Bitboard by_color_[2] = {};
  Piece board_[64] = {};
  Square castle_rook_[2][2] = {{kNoSquare, kNoSquare}, {kNoSquare, kNoSquare}};
  Square ep_ = kNoSquare;
  Color side_ = kWhite;
  bool chess960_ = false;
  std::uint16_t halfmove_ = 0;
  std::uint16_t fullmove_ = 1;
  Variant variant_ = Variant::kStandard;
  std::uint8_t checks_[2] = {3, 3};  // three-check: checks still to give
  std::uint8_t pocket_[2][kKing] = {};  // crazyhouse: pocket counts by piece type (pawn to queen)
  Bitboard promoted_ = 0;            // crazyhouse: promoted pieces
};

// Whether `a` and `b` are the same position as a position search compares them: the same
// variant, pieces on the same squares, side to move and castling rights, pockets and checks to
// give, and the same en passant square where an en passant capture is legal (legal_ep_square);
// move counters, crazyhouse's promoted marks and the Chess960 flag aside.
PGNARC_EXPORT bool same_position(const Position& a, const Position& b);

// Whether play from `from` can still reach `to`'s pieces and castling rights as far as what
// never comes back tells: the variant, a castling right, a side's number of pieces, and a pawn on
// its start rank (pawns never move back; but for crazyhouse's drops, and horde's first-rank
// pawns). False means no line from `from` reaches `to`.
PGNARC_EXPORT bool may_still_reach(const Position& from, const Position& to);

// `from` after `moves`: moves in SAN (as parse_san reads them) separated by white space, with or
// without move numbers ("1. e4 e5 2. Nf3", "e4 e5 Nf3", "12...Qd7", "12.e4"). A move that does
// not parse fails with InvalidInput naming it and its number ("move 3 'Nf6': illegal move ...").
PGNARC_EXPORT Result<Position> play_san_line(Position from, std::string_view moves);

inline void Position::play(Move m) {
  if ((m.kind() >= Move::kEnPassant) | (variant_ != Variant::kStandard)) [[unlikely]] {
    play_special(m);
    return;
  }
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Bitboard from_bb = Bitboard{1} << from, to_bb = Bitboard{1} << to;
  const Piece piece = board_[from], victim = board_[to];
  ++halfmove_;
  fullmove_ = static_cast<std::uint16_t>(fullmove_ + us);  // after Black's move
  ep_ = kNoSquare;
  side_ = them;
  // Castling rights change only while some remain, and then only when a king moves or a piece
  // leaves or lands on a castling rook's square (a king is captured only after a null move in
  // check).
  const bool rights = (castle_rook_[0][0] & castle_rook_[0][1] & castle_rook_[1][0] & castle_rook_[1][1]) != kNoSquare;
  if (victim != kNoPiece) {
    by_type_[type_of(victim)] ^= to_bb;
    by_color_[them] ^= to_bb;
    by_type_[0] ^= to_bb;
    halfmove_ = 0;
    if (rights)
      for (auto& r : castle_rook_[them])
        if (r == to || type_of(victim) == kKing) r = kNoSquare;
  }
  // `to` is empty now: one exclusive-or per bitboard moves the piece.
  const Piece placed = m.kind() == Move::kPromotion ? make_piece(us, m.promotion()) : piece;
  by_type_[0] ^= from_bb | to_bb;
  by_type_[type_of(piece)] ^= from_bb;
  by_type_[type_of(placed)] ^= to_bb;
  by_color_[us] ^= from_bb | to_bb;
  board_[from] = kNoPiece;
  board_[to] = placed;
  if (type_of(piece) == kPawn) {
    halfmove_ = 0;
    // Record the en passant square only when an enemy pawn stands beside the pawn that moved
    // two squares, ready to capture, so that equal positions have equal state.
    constexpr Bitboard kFileA = 0x0101010101010101ULL, kFileH = kFileA << 7;
    if ((from ^ to) == 16 && (((to_bb << 1) & ~kFileA) | ((to_bb >> 1) & ~kFileH)) & pieces(them, kPawn))
      ep_ = static_cast<Square>((from + to) / 2);
  } else if (rights) {
    if (type_of(piece) == kKing) castle_rook_[us][kKingSide] = castle_rook_[us][kQueenSide] = kNoSquare;
    for (auto& r : castle_rook_[us])
      if (r == from) r = kNoSquare;
  }
}

}  // namespace pgnarc
