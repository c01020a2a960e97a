// The start-position code (internal; format specification 9.4.4): the values of a FEN tag as
// arithmetic-coder symbols instead of text. A value takes one of three forms:
// - derived: a start arrangement (the standard one, a Chess960 one, or one for each side) and
//   the moves that lead from it to the position, each a symbol of the move model (a book
//   position a few moves deep costs a few bytes);
// - placement: the 64 squares, each a symbol among 13 with the frequencies of a table fitted on
//   real games plus what the column has coded on that square, then the side to move, castling
//   rights, en passant square and move counters;
// - kept as text, where neither gives the value back byte for byte (odd spacing, counters with
//   leading zeros, Shredder-FEN castling letters, an invalid FEN).
// The coder's state follows the column from value to value, the same in the writer and the
// reader.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"
#include "codec/entropy/symbol_coder.h"
#include "pgnarc/chess.h"

namespace pgnarc::codec {

// The placement table (format-spec/position-table.md): [square a1..h8][symbol], symbols 0 empty,
// 1-6 White's pawn to king, 7-12 Black's; each row totals 4096.
extern const std::array<std::array<std::uint16_t, 13>, 64> kSquareFrequencies;

// The pieces of a Chess960 arrangement's first rank, files a to h, by its number 0-959
// (Scharnagl's numbering: 518 is the standard arrangement).
std::array<PieceType, 8> chess960_rank(int number);
inline constexpr int kStandardArrangement = 518;
inline constexpr int kArrangements = 960;
// The start position of arrangement `white` for White and `black` for Black (mirrored on rank 8):
// pawns on ranks 2 and 7, castling with both rooks of each side, White to move, counters 0 1.
Position arranged_start(int white, int black);

// A derived value's plies are at most this (a reader rejects more).
inline constexpr std::uint64_t kMaxDerivedPlies = 1023;

class PositionCoder {
 public:
  PositionCoder();
  // Appends the symbols of the FEN text `fen`: a coded form if one gives `fen` back exactly,
  // else the form "kept as text". Returns the form (kText: kept as text).
  int encode(std::string_view fen, std::vector<PlySymbol>& out);
  // Reads the next value: `coded` false for one kept as text, else its FEN text appended to
  // `text`. False, with `why`, if the codeword holds no value here or one that is not a FEN.
  bool decode(ArithDecoder& in, bool& coded, std::string& text, const char*& why);

  enum Form : int { kText = 0, kDerived = 1, kPlacement = 2 };
  enum Start : int { kStandard = 0, kChess960 = 1, kDouble960 = 2 };
  enum Counters : int { kReplayed = 0, kGiven = 1, kNoCounters = 2 };
  // A value as coded.
  struct Value {
    int form = kText;
    // Derived: the start, the moves' indices (in canonical order), how the en passant square
    // is written after a double step (0 where a capture is legal, 1 always).
    int start = kStandard;
    std::uint32_t white = kStandardArrangement, black = kStandardArrangement;
    std::vector<int> moves;
    int ep_style = 0;
    // Placement: symbols of the squares a1..h8, side, each castling right's rook as its place
    // among the candidates (-1: none), the en passant square's place among its candidates.
    std::array<std::uint8_t, 64> squares{};
    int side = 0;
    std::array<int, 4> castling{{-1, -1, -1, -1}};
    int ep = -1;
    // Both forms.
    int counters = kReplayed;
    std::uint64_t halfmove = 0, fullmove = 1;
  };

 private:
  template <class Side>
  bool code(Side& side, Value& v, std::string& text, const char*& why);
  template <class Side>
  bool code_counters(Side& side, Value& v, bool replayable);
  // The value's FEN text, the position it gives (derived: replayed, else from the text).
  bool text_of(const Value& v, std::string& text) const;

  AdaptiveFrequencies<3> form_, start_, counters_;
  AdaptiveFrequencies<2> ep_style_, side_, castle_[4], ep_present_;
  AdaptiveFrequencies<65> plies_, halfmove_, fullmove_;
  std::array<std::array<std::uint16_t, 13>, 64> seen_{};  // the column's symbols by square
  rules::PieceTargets targets_;
  PlyFrequencies freq_;
};

// The writer's search for a derived value: moves that lead from an arranged start to `target`'s
// pieces, side to move and castling rights in exactly `plies` plies, within a budget of nodes.
// Fills v.start, v.white, v.black and v.moves; false if none was found.
bool derive_position(const Position& target, int plies, PositionCoder::Value& v);

}  // namespace pgnarc::codec
