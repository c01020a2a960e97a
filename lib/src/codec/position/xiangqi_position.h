// The Xiangqi position code (internal; format specification 5.7.3): a Xiangqi FEN (5.7) as
// arithmetic-coder symbols. A value takes one of two forms, whichever is shorter:
// - squares: the 90 squares, each a symbol among 15 with the frequencies of a table fitted on
//   real games plus what the coder has seen on that square (a position of a real game costs
//   about 12 bytes, its counters included);
// - sets: for each side and kind of piece, how many there are and which squares among those the
//   kind may stand on, every choice as likely (any position with counters 0 1 costs at most 165
//   bits);
// then the side to move and the FEN's last fields. A FEN that neither gives back byte for byte
// (another spelling: "r" for Red, E and H, "45", leading zeros, three or five fields) has no
// code. The coder's state follows the values it codes, the same in the writer and the reader.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"

namespace pgnarc::codec {

// The square table (format-spec/xiangqi-position-table.md): [square a0..i9][symbol], symbols 0
// empty, 1-7 Red's general, advisor, elephant, horse, chariot, cannon, soldier, 8-14 Black's;
// each row totals 4096, 0 where the piece can never stand.
extern const std::array<std::array<std::uint16_t, 15>, 90> kXiangqiSquareFrequencies;

class XiangqiPositionCoder {
 public:
  // Appends the symbols of the Xiangqi FEN `fen` and returns true if a coded value gives `fen`
  // back exactly; else appends nothing and returns false.
  bool encode(std::string_view fen, std::vector<PlySymbol>& out);
  // Reads the next value and appends its FEN to `text`. False, with `why`, if the codeword holds
  // no value here or one whose FEN is not valid (5.7).
  bool decode(ArithDecoder& in, std::string& text, const char*& why);

  enum Form : int { kSquares = 0, kSets = 1 };
  // The fields after the side to move: "- - 0 1", "- -" and the counters given, "- -", none.
  enum Fields : int { kZeroOne = 0, kCounters = 1, kFour = 2, kTwo = 3 };
  struct Value {
    int form = kSquares;
    std::array<std::uint8_t, 90> squares{};  // symbols as the table's
    int side = 0;                            // 0 Red, 1 Black
    int fields = kZeroOne;
    std::uint32_t halfmove = 0, fullmove = 1;
  };

 private:
  template <class Side>
  bool code(Side& side, Value& v, const char*& why);
  // The bits of `v`'s symbols alone in a codeword, under this coder's state.
  std::uint64_t cost(const Value& v) const;

  std::array<std::array<std::uint16_t, 15>, 90> seen_{};  // the symbols coded so far, by square
};

// The FEN text of a value (5.7's spelling, its fields as `v.fields` says).
std::string xiangqi_fen_text(const XiangqiPositionCoder::Value& v);

}  // namespace pgnarc::codec
