// The moves of a line typed as text (internal): "1. e4 e5 2.Nf3", "h2e2 h9g7", for the callers
// that play such a line from a position (play_san_line, xiangqi_fen_after).
#pragma once

#include <string_view>

namespace pgnarc::rules {

// The next move of `rest` into `word`, `rest` left after it: words are separated by white
// space, and a move number ("12." or "12...", alone or glued to its move, "12.e4") is no move.
// False when no move is left.
inline bool next_move_word(std::string_view& rest, std::string_view& word) {
  for (;;) {
    const std::size_t start = rest.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return false;
    rest.remove_prefix(start);
    word = rest.substr(0, rest.find_first_of(" \t\r\n"));
    rest.remove_prefix(word.size());
    const std::size_t digits = word.find_first_not_of("0123456789");
    if (digits > 0 && digits < word.size() && word[digits] == '.') {
      const std::size_t after = word.find_first_not_of('.', digits);
      word = after == std::string_view::npos ? std::string_view() : word.substr(after);
    }
    if (!word.empty()) return true;
  }
}

}  // namespace pgnarc::rules
