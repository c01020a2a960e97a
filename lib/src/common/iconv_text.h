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

// A converter by iconv from the encoding it names `from` to `to` ("UTF-8", "GB18030", "BIG5"),
// opened once for many texts.
class Iconv {
 public:
  Iconv(const char* to, const char* from) : cd_(iconv_open(to, from)) {}
  ~Iconv() {
    if (ok()) iconv_close(cd_);
  }
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;
  // Whether iconv knows both encodings.
  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }
  // `text` converted, or nullopt where it cannot be (a character `to` lacks, bytes that are not
  // `from`'s, an encoding iconv does not know).
  std::optional<std::string> operator()(std::string_view text) {
    if (!ok()) return std::nullopt;
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);  // the initial shift state
    std::string in(text), out(4 * text.size() + 8, '\0');
    char* ip = in.data();
    char* op = out.data();
    std::size_t il = in.size(), ol = out.size();
    if (iconv(cd_, &ip, &il, &op, &ol) == static_cast<std::size_t>(-1)) return std::nullopt;
    out.resize(out.size() - ol);
    return out;
  }

 private:
  iconv_t cd_;
};

// `text` converted from `from` to `to` (Iconv's names), or nullopt where it cannot be.
inline std::optional<std::string> iconv_convert(const char* to, const char* from, std::string_view text) {
  return Iconv(to, from)(text);
}

// `text` (UTF-8) in the encoding iconv names `to`.
inline std::optional<std::string> iconv_to(const char* to, std::string_view text) {
  return iconv_convert(to, "UTF-8", text);
}

}  // namespace pgnarc::common
