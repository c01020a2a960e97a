// The byte encodings a Xiangqi move text may be in (internal to the rules layer): UTF-8, and the
// two double-byte encodings Chinese PGN files are written in, GB18030 (which GBK and GB2312 are
// parts of; xqbase.com and XQStudio files) and Big5 (Taiwan's; the Chinese Chess Practical
// Dataset). A move text uses only the characters its notation writes (xiangqi_notation.h), so
// the double-byte encodings are given by a table of those characters alone (format 5.7.1), the
// same in every build: no locale, no iconv.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnarc::rules::xiangqi {

// kUnset: no text has shown one yet (written as UTF-8); kUtf8: a text showed UTF-8.
enum class Encoding : std::uint8_t { kUnset, kUtf8, kGb18030, kBig5 };

// The characters of `bytes` in encoding `e` (kUnset as kUtf8): ASCII bytes stand for
// themselves; in GB18030 and Big5 every other character is a pair of bytes of the table. False
// when `bytes` is not such a text (a pair the table lacks, a lone byte above 0x7F, ill-formed
// UTF-8).
bool decode_text(std::string_view bytes, Encoding e, std::u32string& out);

// Appends `c` in encoding `e`; false (and nothing appended) when `e` has no bytes for it (Big5
// has no simplified-only characters such as 帅 and 进).
bool append_char(std::string& out, char32_t c, Encoding e);

// The bytes of `c` in a double-byte encoding (high byte first), 0 when it has none.
std::uint16_t double_byte(char32_t c, Encoding e);

// Every character of the table, in table order, for tests against iconv.
std::u32string encoded_characters();

}  // namespace pgnarc::rules::xiangqi
