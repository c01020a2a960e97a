// Move symbols (internal): what each ply of a line codes, with the frequencies of a move coder
// (format specification, "Move codewords"). At a coded ply the symbols are the position's legal
// moves in canonical order, each with its frequency (the move model's, or under a variant the
// crazyhouse model's or the move model's as 7.5 says, or 4096 each for the uniform coder), and,
// in a line whose ply count is not stored (an unannotated main line), first
// of all the end of the line: with the model a frequency from the end hazard of the ply number,
// with the uniform coder 1/256 of the moves' total. A game's symbols, line after line, form one
// codeword of the arithmetic coder (arith_coder.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codec/entropy/arith_coder.h"
#include "codec/codec.h"

#include "codec/model/move_model.h"
#include "codec/model/xiangqi_model.h"
#include "rules/movegen.h"
#include "rules/xiangqi.h"

namespace pgnarc::codec {

// The symbol of one ply: [c, c + f) of total.
struct PlySymbol {
  std::uint32_t c, f, total;
};

// Appends the codeword of `symbols` (7.3: one codeword, its closing bits included; none for no
// symbols) to `bytes`, from its bit `bits` on, and counts its bits into `bits`.
void put_codeword(const std::vector<PlySymbol>& symbols, std::string& bytes, std::uint64_t& bits);

// The frequencies of a ply's symbols (moves in canonical order, the end first where a line
// `ends`); `total` is 0 where the ply has nothing to code (one legal move in a line of known
// length).
struct PlyFrequencies {
  std::uint32_t end = 0;  // the end's frequency (0: no end symbol)
  std::uint32_t total = 0;
  std::uint32_t freq[kMaxLegalMoves];
};

// The frequency of the end of a line at `ply` (plies played in the line before it) where the
// moves' frequencies sum to `moves`.
inline std::uint32_t end_frequency(std::uint32_t moves, std::uint64_t ply,
                                   const std::uint32_t* hazard = model::kEndHazard.data()) {
  const std::uint64_t f = (static_cast<std::uint64_t>(moves) * hazard[ply < 255 ? ply : 255]) >> 16;
  return f ? static_cast<std::uint32_t>(f) : 1u;
}

// The uniform coder's frequencies for a ply of `moves` legal moves.
void uniform_frequencies(bool ends, int moves, PlyFrequencies& out);

// Fills `out` for the position `pos` (targets `t`, model history `h`) at `ply` of a line (the
// model's tables can be given, for the trainer).
void ply_frequencies(MoveCoder coder, bool ends, std::uint64_t ply, const Position& pos, const rules::PieceTargets& t,
                     const model::History& h, PlyFrequencies& out, const std::int8_t* weights = model::kWeights.data(),
                     const std::uint32_t* hazard = model::kEndHazard.data());

// The frequencies of a ply of a variant's position `at` (legal moves `list`), as 7.5 gives them.
void variant_frequencies(MoveCoder coder, bool ends, std::uint64_t ply, const model::LineState& at,
                         const MoveList& list, PlyFrequencies& out);

// The frequencies of a ply of a Xiangqi game (5.7.2) at `pos` (legal moves `list`, model history
// `h`) at `ply` of a line: the Xiangqi model's with the end hazard H where `modelled` (codecs 11,
// 12, 14, 15, 17 and 18 under the model or the fast coder, 7.9), the book's in place of the model's
// where also `booked` and the book holds `pos` (codecs 17 and 18, 7.9.1), else the uniform
// coder's. True where the book gave them.
bool xiangqi_frequencies(bool modelled, bool booked, bool ends, std::uint64_t ply, const rules::xiangqi::Position& pos,
                         const rules::xiangqi::MoveList& list, const model::xq::History& h, PlyFrequencies& out);

// The legal moves of a ply as the codec sees them, in canonical order: a standard position's as
// targets (rules/movegen.h), a variant's as a list (Position::legal_moves).
struct PlyMoves {
  bool listed = false;  // a variant's position: `list`, else `targets`
  bool check = false;   // the side to move is in check
  bool won = false;     // a variant's position without a legal move, whose game has a winner
  rules::PieceTargets targets;
  MoveList list;

  // False where a variant's position has more legal moves than a list holds (MoveList::overflow).
  bool generate(const Position& pos) {
    listed = pos.variant() != Variant::kStandard;
    if (!listed) [[likely]] {
      rules::generate_targets(pos, targets);
      check = targets.check;
      won = false;
      return true;
    }
    list = pos.legal_moves();
    check = pos.in_check();
    won = list.size == 0 && pos.ended_with_winner();
    return !list.overflow;
  }
  int count() const { return listed ? list.size : targets.total; }
  // The index of `m`, or -1 where it is not legal.
  int index_of(const Position& pos, Move m) const {
    if (!listed) return rules::index_in(pos, targets, m);
    for (int i = 0; i < list.size; ++i)
      if (list[i] == m) return i;
    return -1;
  }
  Move at(const Position& pos, int index) const {
    return listed ? list[index] : rules::move_at_index(pos, targets, index);
  }
  // The SAN note of legal move `m` (san_note), and the suffix of a move to this position: "#"
  // where the game has ended with a winner (checkmate, or a variant's end), else "+" in check.
  std::uint8_t note(const Position& pos, Move m) const {
    return listed ? rules::listed_san_note(pos, list, m) : rules::san_note(pos, targets, m);
  }
  int suffix() const {
    return count() == 0 && (check || won) ? rules::kMate : check ? rules::kCheck : rules::kNoSuffix;
  }
  // The frequencies of the ply's symbols: the coder's (for a variant's position, 7.5: the
  // move model's for three-check and king of the hill, the crazyhouse model's for crazyhouse,
  // the uniform coder's for the others).
  void frequencies(MoveCoder coder, bool ends, std::uint64_t ply, const model::LineState& at,
                   PlyFrequencies& out) const {
    if (listed) variant_frequencies(coder, ends, ply, at, list, out);
    else ply_frequencies(coder, ends, ply, at.pos, targets, at.history, out);
  }
};

// The symbol of the move at `index` (-1: the end) among `p`.
inline PlySymbol symbol_of(const PlyFrequencies& p, int index) {
  if (index < 0) return PlySymbol{0, p.end, p.total};
  std::uint32_t c = p.end;
  for (int i = 0; i < index; ++i) c += p.freq[i];
  return PlySymbol{c, p.freq[index], p.total};
}

// Reads the next symbol among `p` off `dec`: the move's index, -1 for the end, or -2 if the
// codeword's value lies where no symbol is (damage).
inline int read_symbol(ArithDecoder& dec, const PlyFrequencies& p) {
  std::uint32_t v;
  if (!dec.target(p.total, v)) return -2;
  if (v < p.end) {
    dec.consume(0, p.end);
    return -1;
  }
  std::uint32_t c = p.end;
  int i = 0;
  while (v >= c + p.freq[i]) c += p.freq[i++];
  dec.consume(c, p.freq[i]);
  return i;
}

}  // namespace pgnarc::codec
