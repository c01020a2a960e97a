// Text between UTF-8 and another encoding, by the C library's iconv (internal): names typed at
// the command line looked for in an archive's GB18030 or Big5 tags (find --names-in), an
// archive's text shown as UTF-8 (serve --encoding), and the independent side of the tests of
// Xiangqi move texts in those encodings. Nothing an archive's
// bytes depend on goes through it.
#pragma once

#include <iconv.h>

#include <optional>
#include <string>
#include <string_view>

namespace pgnarc::common {

// `text` converted by iconv from the encoding it names `from` to `to` ("UTF-8", "GB18030",
// "BIG5"), or nullopt where iconv cannot (a character `to` lacks, bytes that are not `from`'s, an
// encoding iconv does not know).
inline std::optional<std::string> iconv_convert(const char* to, const char* from, std::string_view text) {
  iconv_t cd = iconv_open(to, from);
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string in(text), out(4 * text.size() + 8, '\0');
  char* ip = in.data();
  char* op = out.data();
  std::size_t il = in.size(), ol = out.size();
  const std::size_t r = iconv(cd, &ip, &il, &op, &ol);
  iconv_close(cd);
  if (r == static_cast<std::size_t>(-1)) return std::nullopt;
  out.resize(out.size() - ol);
  return out;
}

// `text` (UTF-8) in the encoding iconv names `to`.
inline std::optional<std::string> iconv_to(const char* to, std::string_view text) {
  return iconv_convert(to, "UTF-8", text);
}

}  // namespace pgnarc::common
