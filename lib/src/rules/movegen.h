// Legal move generation in canonical order (internal to the rules layer).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "rules/bitboard.h"

namespace pgnarc::rules {

// The legal moves of a position as one target set per moving piece, indexed by the piece's
// square. Expanding the sets of `movers` in ascending square order, each in ascending target
// order (and each promotion into N, B, R, Q), gives the canonical move order directly, so nothing
// is ever sorted, and the index of a move (or the move at an index) is found by counting bits.
struct PieceTargets {
  Bitboard movers = 0;     // squares whose entry of `to` is set (entries may be empty)
  Bitboard promoting = 0;  // pawns whose every move promotes: each target is 4 moves
  int total = 0;           // the number of legal moves
  bool check = false;      // the side to move is in check
  Bitboard to[64];         // only the entries of `movers` are written

  int weight(Square s) const { return (promoting >> s & 1) ? 4 : 1; }
};

void generate_targets(const Position& pos, PieceTargets& out);

// The index of `m` among the moves of `t` (generated for `pos`), or -1 if it is not one of them.
int index_in(const Position& pos, const PieceTargets& t, Move m);
// The move at `index` of `t` (0 <= index < t.total).
Move move_at_index(const Position& pos, const PieceTargets& t, int index);

// generate_targets and move_at_index run one of two builds of the same code, chosen when the
// library loads: `base` (any x86-64-v2 or other CPU) or, where v3_generator_supported(), `v3`
// (x86-64-v3 instructions, slider attacks by PEXT lookups). Both are reachable for tests.
namespace base {
void generate_targets(const Position& pos, PieceTargets& out);
Move move_at_index(const Position& pos, const PieceTargets& t, int index);
}  // namespace base
#if PGNARC_HAVE_V3
namespace v3 {
void generate_targets(const Position& pos, PieceTargets& out);
Move move_at_index(const Position& pos, const PieceTargets& t, int index);
}  // namespace v3
#endif

// Builds the Move for a target of the piece on `from` (castling, en passant and promotion kinds
// are decided by the board); `promo` is 0..3 (N, B, R, Q) for promotions.
inline Move make_move(const Position& pos, Square from, Square to, int promo) {
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

// For a move of the side to move from `from` to `to` (not castling) that is pseudo-legal: does it
// leave the mover's king unattacked? `en_passant` says the pawn on the square behind `to` goes.
bool king_safe_after(const Position& pos, Square from, Square to, bool en_passant);

// The squares of the side to move's pieces of type `pt` that could move to `to` by the way that
// piece moves (pawns: pushes to an empty `to`, captures of an enemy or the en passant square),
// not yet checked for king safety. `to` must not hold a piece of the side to move.
Bitboard pseudo_movers_to(const Position& pos, PieceType pt, Square to);

// SAN beyond what the board shows: which part of the from-square a piece move must show (0
// none, 1 file, 2 rank, 3 both) and the suffix (0 none, 1 "+", 2 "#").
enum SanSuffix : int { kNoSuffix = 0, kCheck = 1, kMate = 2 };
// From the squares of the other pieces of the mover's type that can legally reach the target.
int san_disambiguation(Square from, Bitboard rivals);
// From targets generated for `pos`, for a legal move `m` of `pos`.
int san_disambiguation(const Position& pos, const PieceTargets& t, Move m);
// From targets generated for the position after the move.
inline int san_suffix(const PieceTargets& after) { return after.check ? (after.total == 0 ? kMate : kCheck) : kNoSuffix; }
// Appends the canonical SAN of legal move `m` of `pos`, given those two facts.
void append_san(const Position& pos, Move m, int disambiguation, int suffix, std::string& out);
// The same from what SAN takes from the board (the moving piece's type and whether it captures),
// into a buffer of at least kMaxSanLength bytes; returns the end of what it wrote.
inline constexpr int kMaxSanLength = 8;  // "Qa1xb2+", "exd8=Q#", "O-O-O+"
char* write_san(Move m, PieceType piece, bool capture, int disambiguation, int suffix, char* out);

// Piece letters by type, as SAN and FEN write them (index 0, kNoPieceType, is a space).
inline constexpr std::string_view kPieceLetters = " PNBRQK";
// The type a piece letter names, in either case (FEN writes black's in lower case; SAN input is
// lenient); kNoPieceType for any other character. A table, not a search: FEN starts are parsed
// once per decoded game.
inline PieceType piece_from_letter(char c) {
  static constexpr auto kTypes = [] {
    std::array<std::uint8_t, 256> t{};
    for (std::size_t i = 1; i < kPieceLetters.size(); ++i) {
      t[static_cast<unsigned char>(kPieceLetters[i])] = static_cast<std::uint8_t>(i);
      t[static_cast<unsigned char>(kPieceLetters[i] + 32)] = static_cast<std::uint8_t>(i);
    }
    return t;
  }();
  return static_cast<PieceType>(kTypes[static_cast<unsigned char>(c)]);
}

// A SAN note (the hint of codec/record/decode_game_with_hints.h): everything SAN needs beyond the move, so that PGN
// is written without a board. Bits 0-1 disambiguation, 2-3 suffix (set once the next position is known),
// 4 capture, 5-7 the moving piece's type.
inline int note_disambiguation(std::uint8_t note) { return note & 3; }
inline int note_suffix(std::uint8_t note) { return note >> 2 & 3; }
inline bool note_capture(std::uint8_t note) { return note >> 4 & 1; }
inline PieceType note_piece(std::uint8_t note) { return static_cast<PieceType>(note >> 5); }
std::uint8_t san_note(const Position& pos, const PieceTargets& t, Move m);
// The same for a variant's position from its legal moves (a drop's piece is the one it drops).
std::uint8_t listed_san_note(const Position& pos, const MoveList& legal, Move m);

// Attackers of either color on `s` given occupancy `occ`.
Bitboard attackers_to(const Position& pos, Square s, Bitboard occ);

}  // namespace pgnarc::rules
