// FEN text as the position codes read and write it (internal; chess's 5.2 and Xiangqi's 5.7
// alike): a board's placement, the fields, the move counters.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgnarc::codec {

// `fen`'s fields split at single spaces (any other spacing gives a text that the coded forms do
// not write, so that the comparison with the written text refuses it).
inline std::vector<std::string_view> fen_fields(std::string_view fen) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t space = fen.find(' ', at);
    out.push_back(fen.substr(at, space == std::string_view::npos ? std::string_view::npos : space - at));
    if (space == std::string_view::npos) return out;
    at = space + 1;
  }
}

// A move counter's digits as a number up to 65535 (leading zeros and signs are not read here: the
// comparison with the written text refuses them).
template <class Unsigned>
bool parse_fen_counter(std::string_view s, Unsigned& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v <= 65535;
}

// The placement as FEN writes it: the ranks from the last down to the first, separated by '/',
// each square's letter, a digit for each run of empty squares as long as it goes. Appends the
// placement of `squares` (symbol of square file + files * rank, 0 for an empty one)
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
