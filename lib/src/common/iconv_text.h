// UTF-8 text in another encoding, by the C library's iconv (internal): names typed at the
// command line looked for in an archive's GB18030 or Big5 tags (find --names-in), and the
// independent side of the tests of Xiangqi move texts in those encodings. Nothing an archive's
// bytes depend on goes through it.
#pragma once

#include <iconv.h>

#include <optional>
#include <string>
#include <string_view>

namespace pgnarc::common {

// `text` (UTF-8) in the encoding iconv names `to` ("GB18030", "BIG5"), or nullopt where iconv
// cannot write it (a character the encoding lacks, text that is not UTF-8, an encoding iconv does
// not know).
inline std::optional<std::string> iconv_to(const char* to, std::string_view text) {
  iconv_t cd = iconv_open(to, "UTF-8");
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

}  // namespace pgnarc::common
