// JSON text for the library's one-line JSON outputs (info --json, tree --json).
#pragma once

#include <string>
#include <string_view>

namespace pgnarc::api {

// `s` as a JSON string: quotes and backslashes escaped, control characters as \u00XX, other bytes
// as they are.
inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xF];
      out += kHex[c & 0xF];
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace pgnarc::api
