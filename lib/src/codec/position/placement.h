// A board's placement as FEN writes it (internal; chess's 5.2 and Xiangqi's 5.7 alike): the ranks
// from the last down to the first, separated by '/', each square's letter, a digit for each run
// of empty squares as long as it goes.
#pragma once

#include <cstdint>
#include <string>

namespace pgnarc::codec {

// Appends the placement of `squares` (symbol of square file + files * rank, 0 for an empty one)
// to `text`, symbol s written as letters[s].
inline void append_placement(std::string& text, const std::uint8_t* squares, int files, int ranks, const char* letters) {
  for (int rank = ranks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < files; ++file) {
      const int s = squares[file + files * rank];
      if (s == 0) {
        ++empty;
        continue;
      }
      if (empty) text += static_cast<char>('0' + empty);
      empty = 0;
      text += letters[s];
    }
    if (empty) text += static_cast<char>('0' + empty);
    if (rank) text += '/';
  }
}

}  // namespace pgnarc::codec
