// The double-byte encodings of Xiangqi move texts: the table of format 5.7.1.
#include "rules/xiangqi_encoding.h"

#include "common/utf8.h"

namespace pgnarc::rules::xiangqi {

namespace {

// Every character a move text may hold beyond ASCII (format 5.7.1's table, in its order): its
// GB18030 bytes and its Big5 bytes (0: Big5 has none), high byte first.
struct Encoded {
  char32_t c;
  std::uint16_t gb18030;
  std::uint16_t big5;
};
constexpr Encoded kTable[] = {
    {U'帅', 0xcba7, 0},
    {U'帥', 0x8e9b, 0xabd3},
    {U'将', 0xbdab, 0},
    {U'將', 0x8ca2, 0xb14e},
    {U'仕', 0xcacb, 0xa54b},
    {U'士', 0xcabf, 0xa468},
    {U'相', 0xcfe0, 0xacdb},
    {U'象', 0xcff3, 0xb648},
    {U'马', 0xc2ed, 0},
    {U'馬', 0xf152, 0xb0a8},
    {U'傌', 0x82d8, 0xd858},
    {U'车', 0xb3b5, 0},
    {U'車', 0xdc87, 0xa8ae},
    {U'俥', 0x8265, 0},
    {U'炮', 0xc5da, 0xacb6},
    {U'砲', 0xb368, 0xafa5},
    {U'包', 0xb0fc, 0xa55d},
    {U'兵', 0xb1f8, 0xa74c},
    {U'卒', 0xd7e4, 0xa8f2},
    {U'一', 0xd2bb, 0xa440},
    {U'二', 0xb6fe, 0xa447},
    {U'三', 0xc8fd, 0xa454},
    {U'四', 0xcbc4, 0xa57c},
    {U'五', 0xcee5, 0xa4ad},
    {U'六', 0xc1f9, 0xa4bb},
    {U'七', 0xc6df, 0xa443},
    {U'八', 0xb0cb, 0xa44b},
    {U'九', 0xbec5, 0xa445},
    {U'１', 0xa3b1, 0xa2b0},
    {U'２', 0xa3b2, 0xa2b1},
    {U'３', 0xa3b3, 0xa2b2},
    {U'４', 0xa3b4, 0xa2b3},
    {U'５', 0xa3b5, 0xa2b4},
    {U'６', 0xa3b6, 0xa2b5},
    {U'７', 0xa3b7, 0xa2b6},
    {U'８', 0xa3b8, 0xa2b7},
    {U'９', 0xa3b9, 0xa2b8},
    {U'进', 0xbdf8, 0},
    {U'進', 0xdf4d, 0xb669},
    {U'退', 0xcdcb, 0xb068},
    {U'平', 0xc6bd, 0xa5ad},
    {U'前', 0xc7b0, 0xab65},
    {U'中', 0xd6d0, 0xa4a4},
    {U'后', 0xbaf3, 0xa65a},
    {U'後', 0xe1e1, 0xabe1},
    {U'＋', 0xa3ab, 0xa1cf},
    {U'－', 0xa3ad, 0xa1d0},
    {U'．', 0xa3ae, 0xa144},
    {U'＝', 0xa3bd, 0xa1d7},
    {U'Ａ', 0xa3c1, 0xa2cf},
    {U'Ｂ', 0xa3c2, 0xa2d0},
    {U'Ｃ', 0xa3c3, 0xa2d1},
    {U'Ｅ', 0xa3c5, 0xa2d3},
    {U'Ｈ', 0xa3c8, 0xa2d6},
    {U'Ｋ', 0xa3cb, 0xa2d9},
    {U'Ｎ', 0xa3ce, 0xa2dc},
    {U'Ｐ', 0xa3d0, 0xa2de},
    {U'Ｒ', 0xa3d2, 0xa2e0},
    {U'ａ', 0xa3e1, 0xa2e9},
    {U'ｂ', 0xa3e2, 0xa2ea},
    {U'ｃ', 0xa3e3, 0xa2eb},
    {U'ｅ', 0xa3e5, 0xa2ed},
    {U'ｈ', 0xa3e8, 0xa2f0},
    {U'ｋ', 0xa3eb, 0xa2f3},
    {U'ｎ', 0xa3ee, 0xa2f6},
    {U'ｐ', 0xa3f0, 0xa2f8},
    {U'ｒ', 0xa3f2, 0xa2fa},
};

std::uint16_t bytes_of(const Encoded& row, Encoding e) { return e == Encoding::kGb18030 ? row.gb18030 : row.big5; }

}  // namespace

std::uint16_t double_byte(char32_t c, Encoding e) {
  for (const Encoded& row : kTable)
    if (row.c == c) return bytes_of(row, e);
  return 0;
}

std::u32string encoded_characters() {
  std::u32string out;
  for (const Encoded& row : kTable) out += row.c;
  return out;
}

bool decode_text(std::string_view bytes, Encoding e, std::u32string& out) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  for (std::size_t i = 0; i < bytes.size();) {
    if (b(i) < 0x80) {
      out += static_cast<char32_t>(b(i++));
      continue;
    }
    if (e == Encoding::kUnset || e == Encoding::kUtf8) {
      const std::size_t n = common::utf8_sequence(bytes.substr(i));
      if (n == 0) return false;
      char32_t c = b(i) & (0x7F >> n);
      for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (b(i + k) & 0x3F);
      out += c;
      i += n;
      continue;
    }
    if (i + 1 == bytes.size()) return false;
    const auto pair = static_cast<std::uint16_t>(b(i) << 8 | b(i + 1));
    const Encoded* found = nullptr;
    for (const Encoded& row : kTable)
      if (bytes_of(row, e) == pair) {
        found = &row;
        break;
      }
    if (!found) return false;
    out += found->c;
    i += 2;
  }
  return true;
}

bool append_char(std::string& out, char32_t c, Encoding e) {
  if (c < 0x80) {
    out += static_cast<char>(c);
    return true;
  }
  if (e == Encoding::kGb18030 || e == Encoding::kBig5) {
    const std::uint16_t pair = double_byte(c, e);
    if (pair == 0) return false;
    out += static_cast<char>(pair >> 8);
    out += static_cast<char>(pair & 0xFF);
    return true;
  }
  if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (c >> 12));  // every character of a move text is in the BMP
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return true;
}

}  // namespace pgnarc::rules::xiangqi
