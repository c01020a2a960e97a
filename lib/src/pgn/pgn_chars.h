// The characters and words of PGN (internal): the character classes both the game splitter
// (pgn_reader.cpp) and the game parser (pgn_parser.cpp) scan by, and the result tokens.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "pgnarc/game.h"

namespace pgnarc::pgn {

// Character classes, one table lookup each in the hot loops.
enum : std::uint8_t { kSpace = 1, kNewline = 2, kDelimiter = 4 };
inline constexpr auto kClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned char c : {' ', '\t', '\f', '\v'}) t[c] = kSpace;
  t['\n'] = t['\r'] = kSpace | kNewline;
  for (unsigned char c : {'{', '}', '[', ']', '(', ')', ';', '$'}) t[c] = kDelimiter;
  return t;
}();
inline std::uint8_t char_class(char c) { return kClass[static_cast<unsigned char>(c)]; }
inline bool is_space(char c) { return char_class(c) & kSpace; }
inline bool is_newline(char c) { return char_class(c) & kNewline; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Characters that end a word and are tokens of their own.
inline bool is_delimiter(char c) { return char_class(c) & kDelimiter; }
inline bool ends_word(char c) { return char_class(c) & (kSpace | kDelimiter); }

// The result a word stands for (kNone: the word is not a result).
inline GameResult parse_result(std::string_view w) {
  if (w.empty() || (w[0] != '0' && w[0] != '1' && w[0] != '*')) return GameResult::kNone;
  if (w == "1-0") return GameResult::kWhiteWins;
  if (w == "0-1") return GameResult::kBlackWins;
  if (w == "1/2-1/2") return GameResult::kDraw;
  if (w == "*") return GameResult::kUnknown;
  return GameResult::kNone;
}

}  // namespace pgnarc::pgn
