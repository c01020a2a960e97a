// What the Xiangqi tests share: readable failure output and positions written as piece lists.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "rules/xiangqi.h"

namespace pgnarc::rules::xiangqi {

// Readable failure output (found by argument-dependent lookup, so in the rules' namespace).
inline void PrintTo(const Move& m, std::ostream* os) { *os << to_iccs(m); }
inline void PrintTo(const Position& p, std::ostream* os) { *os << p.fen(); }

// The FEN of a position given as {"e0", 'K'} pairs (ICCS squares, FEN letters) and the side to
// move ('w' or 'b').
inline std::string fen_of(const std::vector<std::pair<std::string, char>>& pieces, char side) {
  char grid[kRanks][kFiles] = {};
  for (const auto& [square, letter] : pieces) grid[square[1] - '0'][square[0] - 'a'] = letter;
  std::string fen;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      if (!grid[rank][file]) {
        ++empty;
        continue;
      }
      if (empty) fen += static_cast<char>('0' + empty);
      empty = 0;
      fen += grid[rank][file];
    }
    if (empty) fen += static_cast<char>('0' + empty);
    if (rank) fen += '/';
  }
  return fen + ' ' + side + " - - 0 1";
}

}  // namespace pgnarc::rules::xiangqi
