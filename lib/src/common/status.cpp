#include "pgnarc/status.h"
#include "pgnarc/version.h"

namespace pgnarc {

const char* to_string(ErrorCode code) {
  // No default: a new code without a name fails to compile (-Wswitch, -Werror=return-type).
  switch (code) {
    case ErrorCode::InvalidInput: return "invalid input";
    case ErrorCode::Corruption: return "corruption";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::IO: return "I/O error";
  }
  return "unknown error";
}

namespace {

// The length of the well-formed UTF-8 sequence of two or more bytes at the start of `s` (not a
// C1 control, an overlong form or a surrogate), or 0.
std::size_t utf8_sequence(std::string_view s) {
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

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (const std::size_t n = c >= 0x80 ? utf8_sequence(text.substr(i)) : 0) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case 0: out += "\\0"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    }
    ++i;
  }
  return out;
}

std::string Error::to_string() const { return std::string(pgnarc::to_string(code_)) + ": " + message_; }

const char* library_version() { return PGNARC_VERSION_STRING; }

}  // namespace pgnarc
