// Text in another encoding, as glibc's iconv writes it: the independent side of the tests of
// Xiangqi move texts in GB18030 and Big5.
#pragma once

#include <iconv.h>

#include <optional>
#include <string>

namespace pgnarc::test {

// `text` (UTF-8) in the encoding iconv names `to` ("GB18030", "BIG5"), or nullopt where iconv
// cannot convert it (a character the encoding lacks).
inline std::optional<std::string> iconv_to(const char* to, const std::string& text) {
  iconv_t cd = iconv_open(to, "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string in = text, out(4 * text.size() + 8, '\0');
  char* ip = in.data();
  char* op = out.data();
  std::size_t il = in.size(), ol = out.size();
  const std::size_t r = iconv(cd, &ip, &il, &op, &ol);
  iconv_close(cd);
  if (r == static_cast<std::size_t>(-1)) return std::nullopt;
  out.resize(out.size() - ol);
  return out;
}

}  // namespace pgnarc::test
