// UTF-8 text: where it is well formed, and Latin-1 read as UTF-8 (internal).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pgnarc::common {

// The length of the well-formed UTF-8 sequence of two or more bytes at the start of `s` (not a
// C1 control, an overlong form or a surrogate), or 0.
inline std::size_t utf8_sequence(std::string_view s) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](std::size_t i) { return i < s.size() && (b(i) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) && !(c == 0xC2 && b(1) < 0xA0) ? 2 : 0;  // U+0080..U+009F: C1
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) >= 0xA0)) return 0;  // overlong, surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) >= 0x90)) return 0;  // overlong, > U+10FFFF
    return 4;
  }
  return 0;
}

// `s` as UTF-8 text: itself where every byte above 0x7F is part of a well-formed sequence
// (utf8_sequence), else read as Latin-1 (each byte the character of its code), as the Python
// package's encoding="latin-1" reads it.
inline std::string utf8_or_latin1(std::string_view s) {
  bool utf8 = true;
  for (std::size_t i = 0; i < s.size() && utf8;) {
    const std::size_t n = static_cast<unsigned char>(s[i]) < 0x80 ? 1 : utf8_sequence(s.substr(i));
    utf8 = n != 0;
    i += n;
  }
  if (utf8) return std::string(s);
  std::string out;
  for (const char b : s) {
    const auto u = static_cast<unsigned char>(b);
    if (u < 0x80) out += b;
    else out += {static_cast<char>(0xC0 | (u >> 6)), static_cast<char>(0x80 | (u & 0x3F))};
  }
  return out;
}

}  // namespace pgnarc::common
