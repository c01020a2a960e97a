// Xiangqi (Chinese chess): board, FEN, legal moves in canonical order, perft and ICCS move text
// (internal to the rules layer).
//
// The rules are Fairy-Stockfish's "xiangqi" variant, move for move: an archive stores a move as
// its index among the legal moves, so legal_moves() must list exactly Fairy-Stockfish's legal
// moves, in the order documented there. corpus/perft/xiangqi.txt holds Fairy-Stockfish's perft
// counts for a thousand and more positions, and tests/rules/xiangqi_test.cpp checks every one.
//
// Not here, on purpose: the rules on repetition and perpetual check or chase, which decide the
// result of a game but never whether a move is legal (a repeating move is legal; the arbiter
// judges the repetition afterwards), and the move counting rules. A side without legal moves
// has lost, checkmated or stalemated alike; that too is a result, not move generation.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/status.h"

namespace pgnarc::rules::xiangqi {

// The board has 9 files (a..i, 0..8) and 10 ranks (0..9). Rank 0 is Red's back rank, rank 9
// Black's; the river runs between ranks 4 and 5. A square is file + 9 * rank, 0 (a0) to 89 (i9).
inline constexpr int kFiles = 9;
inline constexpr int kRanks = 10;
inline constexpr int kSquares = 90;
constexpr int make_square(int file, int rank) { return file + kFiles * rank; }
constexpr int file_of(int square) { return square % kFiles; }
constexpr int rank_of(int square) { return square / kFiles; }

// Red moves first and is written in upper case in FEN ("w" to move, as in chess FEN).
enum Side : std::uint8_t { kRed = 0, kBlack = 1 };
constexpr Side opponent(Side s) { return static_cast<Side>(s ^ 1); }

enum PieceType : std::uint8_t {
  kNoPieceType = 0,
  kGeneral = 1,   // K: one step orthogonally, inside its palace
  kAdvisor = 2,   // A: one step diagonally, inside its palace
  kElephant = 3,  // B (also read: E): two steps diagonally, not over the river, not over a piece
  kHorse = 4,     // N (also read: H): one step orthogonally then one diagonally outwards
  kChariot = 5,   // R: slides orthogonally
  kCannon = 6,    // C: slides orthogonally; captures by jumping exactly one piece
  kSoldier = 7,   // P: one step forwards; once over the river also one step sideways
};
// Zero is an empty square, so that a zeroed board is empty; otherwise side * 8 + type.
using Piece = std::uint8_t;
inline constexpr Piece kNoPiece = 0;
constexpr Piece make_piece(Side s, PieceType t) { return static_cast<Piece>(s * 8 + t); }
constexpr PieceType type_of(Piece p) { return static_cast<PieceType>(p & 7); }
constexpr Side side_of(Piece p) { return static_cast<Side>(p >> 3); }

// How many pieces of each type a side starts with; no position has more (nothing promotes).
inline constexpr int kStartCount[8] = {0, 1, 2, 2, 2, 2, 2, 5};

// Whether a piece of side `s` and type `t` may stand on `square` (format 5.7): a general inside
// its palace, an advisor on the palace's corners and centre, an elephant on its seven points, a
// soldier on its own ranks 3 and 4 of files a, c, e, g, i or across the river; the others
// anywhere.
constexpr bool can_stand(Side s, PieceType t, int square) {
  const int f = file_of(square), r = rank_of(square);
  const int own = s == kRed ? r : kRanks - 1 - r;  // rank counted from the side's back rank
  switch (t) {
    case kGeneral: return f >= 3 && f <= 5 && own <= 2;
    case kAdvisor: return (own == 0 || own == 2) ? (f == 3 || f == 5) : own == 1 && f == 4;
    case kElephant:
      return ((own == 0 || own == 4) && (f == 2 || f == 6)) || (own == 2 && (f == 0 || f == 4 || f == 8));
    case kSoldier: return own >= 5 || (own >= 3 && f % 2 == 0);
    case kHorse: case kChariot: case kCannon: return true;
    case kNoPieceType: return false;
  }
  return false;
}

// A move: the square a piece leaves and the square it goes to (a capture if that holds an enemy
// piece). Moves compare by (from, to): the order legal_moves lists them in.
struct Move {
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  friend constexpr auto operator<=>(const Move&, const Move&) = default;
};

// No position allowed by Position::from_fen has more legal moves: each side has at most its
// starting pieces (no piece ever promotes or returns), and those have at most 2 * 17 (chariots)
// + 2 * 17 (cannons) + 2 * 8 (horses) + 2 * 4 (elephants) + 2 * 4 (advisors) + 4 (general)
// + 5 * 3 (soldiers) = 119 moves, even before legality.
inline constexpr int kMaxMoves = 128;

// The legal moves of a position, in ascending order of (from, to) (invariant: strictly
// increasing by Move's <=>). The index of a move in this list is what the archive format
// stores, so the order is the format's, not the generator's.
struct MoveList {
  std::array<Move, kMaxMoves> moves;
  int size = 0;
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
  const Move& operator[](int i) const { return moves[static_cast<std::size_t>(i)]; }
};

class Position {
 public:
  // The start position, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".
  Position();

  // Parses a FEN as Fairy-Stockfish reads and writes xiangqi positions: ten ranks from Black's
  // back rank (rank 9) down, pieces K A B N R C P (Red) and k a b n r c p (Black), E/e and H/h
  // read as elephant and horse; the side to move, "w" (or "r", the other convention; Fairy-
  // Stockfish 11.1 reads it as Black) for Red, "b" for Black; then
  // optionally "-" (castling), "-" (en passant), the halfmove clock and the fullmove number
  // ("- - 0 1" where missing; fullmove 0 reads as 1). Fails with InvalidInput naming the field
  // and the reason when the text is malformed, a side has not exactly one general, more pieces
  // of a kind than it starts with, a piece on a square it can never reach (a general or advisor
  // outside its palace points, an elephant off its seven points, a soldier behind its start),
  // or when the side not to move is in check (which includes generals facing each other).
  static Result<Position> from_fen(std::string_view fen);

  // The canonical FEN, as Fairy-Stockfish writes it: letters K A B N R C P, "w" or "b",
  // "- -", the halfmove clock and the fullmove number.
  std::string fen() const;

  Piece piece_on(int square) const { return board_[static_cast<std::size_t>(square)]; }
  const std::array<Piece, kSquares>& board() const { return board_; }
  Side side_to_move() const { return side_; }
  int general_square(Side s) const { return general_[s]; }
  // The squares of a side's pieces as a 90-bit set in two words: square s is bit s % 64 of
  // word s / 64.
  const std::array<std::uint64_t, 2>& squares_of(Side s) const { return squares_[s]; }
  // Plies since the last capture (moves of soldiers do not reset it, as in Fairy-Stockfish).
  int halfmove_clock() const { return halfmove_; }
  // Starts at 1 and grows after each move of Black.
  int fullmove_number() const { return fullmove_; }

  // Whether the side to move's general is attacked (facing the other general counts).
  bool in_check() const;

  // Plays `m`, which must be one of legal_moves(*this) (anything else breaks the position's
  // invariants; check with is_legal first when the move comes from outside).
  void play(Move m);
  Position after(Move m) const {
    Position p = *this;
    p.play(m);
    return p;
  }

  // Same pieces on the same squares and the same side to move (the clocks aside).
  bool same_placement(const Position& other) const {
    return board_ == other.board_ && side_ == other.side_;
  }
  friend bool operator==(const Position&, const Position&) = default;

 private:
  struct Empty {};
  explicit Position(Empty) {}  // an empty board, for from_fen to fill

  std::array<Piece, kSquares> board_{};
  Side side_ = kRed;
  std::array<std::uint8_t, 2> general_{};
  std::array<std::array<std::uint64_t, 2>, 2> squares_{};  // [side]: see squares_of
  std::uint16_t halfmove_ = 0;
  std::uint16_t fullmove_ = 1;
};

// Fills `out` with the legal moves of `pos` in ascending (from, to) order; returns their number.
// Without allocating: this runs once per decoded ply.
int legal_moves(const Position& pos, MoveList& out);
inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  legal_moves(pos, list);
  return list;
}

// Whether `m` is a legal move of `pos` (false for squares beyond 89).
bool is_legal(const Position& pos, Move m);

// The squares the piece on `from` of board `board` attacks (format 7.9): those it would capture
// on were an enemy piece there, whatever stands there now and whether or not the capture would
// be legal. A general's and an advisor's palace steps, an elephant's steps whose eye is empty, a
// horse's whose leg is empty, a soldier's steps; a chariot's rays up to and including their
// first piece; a cannon's beyond their first piece (its screen) up to and including the next.
// Into `out` (at most 17 squares, in no set order); returns their number (0 on an empty square).
int attacks(const std::array<Piece, kSquares>& board, int from, std::uint8_t* out);
// The squares of attacks() that hold a piece (at most 8).
int attacked_pieces(const std::array<Piece, kSquares>& board, int from, std::uint8_t* out);

// Whether the general on `general` is attacked by the pieces of `by` on `board`, as
// Position::in_check decides (a general facing it on an open file attacks it).
bool general_attacked(const std::array<Piece, kSquares>& board, int general, Side by);

// Whether, on `after`, the board after a move of a piece of `by` from `from` to `to` before which
// the general on `general` was not attacked, it is attacked otherwise than by the moved piece
// from `to`: along the general's file or rank through `from` or `to` (a line opened, a cannon's
// screen made or taken away), or by a horse whose leg `from` was. Only those lines are looked at.
bool uncovers_attack(const std::array<Piece, kSquares>& after, int general, Side by, int from, int to);

// The number of move sequences of `depth` plies from `pos` (1 for depth 0), counting the last
// ply's moves without playing them.
std::uint64_t perft(const Position& pos, int depth);

// ICCS coordinates: a square is its file letter and rank digit ("h2"; rank 0 is Red's back
// rank), a move is its from- and to-square ("h2e2"). The canonical form is lower case with
// nothing between the squares.
std::string square_name(int square);
std::string to_iccs(Move m);
// Reads "h2e2", in either case, with or without a hyphen between the squares ("H2-E2"). Fails
// with InvalidInput quoting the text when it is not of that form; says nothing about legality.
Result<Move> parse_iccs(std::string_view text);
// The same, for a move that must be legal in `pos`: fails with InvalidInput quoting the text
// and the position's FEN when it is not.
Result<Move> parse_legal_iccs(const Position& pos, std::string_view text);

}  // namespace pgnarc::rules::xiangqi
