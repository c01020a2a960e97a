#include "pgnarc/status.h"
#include "pgnarc/version.h"

#include "common/utf8.h"

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

using common::utf8_sequence;

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
