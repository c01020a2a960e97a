// The column form of texts streams (spec 9.3.2): its layout on a worked example, round trips of
// awkward and random texts, and the rejection of every form texts_to_columns would not make.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "container/text_columns.h"

namespace pgnarc::container {
namespace {

std::string stream_of(const std::vector<std::string>& texts) {
  std::string s;
  for (const auto& t : texts) {
    common::put_varint(s, t.size());
    s += t;
  }
  return s;
}

std::string columns_of(const std::vector<std::string>& texts) {
  std::string form;
  EXPECT_TRUE(texts_to_columns(stream_of(texts), form));
  return form;
}

// The form of two engine comments, byte by byte: the entry count, each text with its numbers
// replaced by 01 and ended by 00, then the first number of each text, the second, and so on, each
// ended by 00. "R50" keeps its digits (they follow a letter); "05" keeps its leading zero.
TEST(TextColumns, LayoutOfTheSpecExample) {
  const std::string form = columns_of({"d=27, tl=01:05 R50", "d=9"});
  const std::string want = std::string("\x02", 1) + "d=\x01, tl=\x01:\x01 R50" + std::string(1, '\0') + "d=\x01" +
                           std::string(1, '\0') + "27" + std::string(1, '\0') + "9" + std::string(1, '\0') + "01" +
                           std::string(1, '\0') + "05" + std::string(1, '\0');
  EXPECT_EQ(form, want);
  std::string back;
  EXPECT_EQ(columns_to_texts(form, stream_of({"d=27, tl=01:05 R50", "d=9"}).size(), back), nullptr);
  EXPECT_EQ(back, stream_of({"d=27, tl=01:05 R50", "d=9"}));
}

TEST(TextColumns, AwkwardTextsRoundTrip) {
  const std::vector<std::string> texts = {
      "",
      "7",
      "no numbers at all",
      "Nf3 e4 Qh5+ 0-0-0 1/2-1/2 $14",
      "12345678901234567890123456789012345678901234567890 long run",
      "a1b2c3 -0.27/20 384 (Nxe4) 00:06:16 1.e4 e5 2.Nf3",
      std::string(200, '9'),
      "\xe9t\xe9 2021 caf\xe9" "3",  // Latin-1: 0xE9 is not an ASCII letter, so "3" is a number
      "multi\nline\r\n42",
      "9a9 a9 9 9",
  };
  const std::string stream = stream_of(texts);
  std::string form, back;
  ASSERT_TRUE(texts_to_columns(stream, form));
  EXPECT_LE(form.size(), max_columns_size(stream.size()));
  EXPECT_EQ(columns_to_texts(form, stream.size(), back), nullptr);
  EXPECT_EQ(back, stream);
  // Appends: what `out` held stays in front.
  std::string with_prefix = "prefix";
  EXPECT_EQ(columns_to_texts(form, stream.size(), with_prefix), nullptr);
  EXPECT_EQ(with_prefix, "prefix" + stream);
}

// Random texts over an alphabet heavy in digits, letters and separators round-trip, and the form
// never exceeds its bound (tight for texts of single digits between spaces).
TEST(TextColumns, RandomTextsRoundTrip) {
  std::mt19937_64 rng(11);
  const std::string alphabet = "0123456789012345abcXYZ .,:=/-+()\n\xe9";
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> texts(rng() % 12);
    for (auto& t : texts) {
      t.resize(rng() % 40);
      for (auto& c : t) c = alphabet[rng() % alphabet.size()];
    }
    const std::string stream = stream_of(texts);
    std::string form, back;
    ASSERT_TRUE(texts_to_columns(stream, form));
    ASSERT_LE(form.size(), max_columns_size(stream.size()));
    ASSERT_EQ(columns_to_texts(form, stream.size(), back), nullptr) << "round " << round;
    ASSERT_EQ(back, stream) << "round " << round;
  }
  std::string worst;
  for (int i = 0; i < 100; ++i) worst += "1 ";
  std::string form;
  ASSERT_TRUE(texts_to_columns(stream_of({worst, worst}), form));
  EXPECT_LE(form.size(), max_columns_size(stream_of({worst, worst}).size()));
  EXPECT_GT(form.size(), stream_of({worst, worst}).size() * 3 / 2);
}

TEST(TextColumns, TextsWithMarkerOrTerminatorBytesHaveNoForm) {
  std::string form = "kept";
  EXPECT_FALSE(texts_to_columns(stream_of({"fine", std::string("a\x01" "b")}), form));
  EXPECT_FALSE(texts_to_columns(stream_of({std::string("a\0b", 3)}), form));
  EXPECT_FALSE(texts_to_columns("\x05" "ab", form)) << "an entry longer than the stream";
  EXPECT_EQ(form, "kept");
}

// Every way a form can differ from the one texts_to_columns makes is refused, with a reason.
TEST(TextColumns, FormsTheWriterWouldNotMakeAreRefused) {
  const auto form = [](std::string_view count, std::string_view texts, std::string_view numbers) {
    return std::string(count) + std::string(texts) + std::string(numbers);
  };
  const std::string z(1, '\0');
  // "x 12 y" is the texts stream "\x06x 12 y" (7 bytes); its form:
  const std::string good = form("\x01", "x \x01 y" + z, "12" + z);
  std::string out;
  ASSERT_EQ(columns_to_texts(good, 7, out), nullptr);
  ASSERT_EQ(out, "\x06x 12 y");
  const struct {
    std::string form;
    std::size_t size;
    const char* why;
  } bad[] = {
      {good, 6, "the texts are larger than the section says"},
      {good, 8, "the texts are not the size the section says"},
      {"\x80", 7, "bad entry count"},
      {"\x09", 7, "bad entry count"},  // more entries than bytes of texts
      {"\x05", 7, "bad entry count"},  // more entries than bytes of the form (each ends with a terminator)
      {form("\x02", "x \x01 y" + z, ""), 7, "a text runs past the end of the columns"},
      {form("\x02", "x \x01 y" + z, "12" + z), 7, "a text holds a digit after neither a letter nor a digit"},
      {form("\x01", "x \x01 y", ""), 7, "a text runs past the end of the columns"},
      {form("\x01", "x\x01 y" + z, "12" + z), 6, "a number marker follows a letter, a digit or a marker"},
      {form("\x01", "x \x01\x01y" + z, "1" + z + "2" + z), 7, "a number marker follows a letter, a digit or a marker"},
      {form("\x01", "R5\x01" + z, "1" + z), 4, "a number marker follows a letter, a digit or a marker"},
      {form("\x01", "x \x01" "5y" + z, "1" + z), 7, "a text holds a digit after neither a letter nor a digit"},
      {form("\x01", "5 y" + z, ""), 4, "a text holds a digit after neither a letter nor a digit"},
      {form("\x01", "x \x01 y" + z, "1a" + z), 7, "a number holds a byte that is not a digit"},
      {form("\x01", "x \x01 y" + z, z), 5, "an empty number"},
      {form("\x01", "x \x01 y" + z, "12"), 7, "a number runs past the end of the columns"},
      {form("\x01", "x \x01 y" + z, "12" + z + "3" + z), 7, "bytes after the last column"},
      {form("\x01", "x \x01 y" + z, "12" + z + "3"), 7, "a number runs past the end of the columns"},
  };
  for (const auto& b : bad) {
    out.clear();
    const char* why = columns_to_texts(b.form, b.size, out);
    ASSERT_NE(why, nullptr) << testing::PrintToString(b.form);
    EXPECT_STREQ(why, b.why) << testing::PrintToString(b.form);
  }
}

}  // namespace
}  // namespace pgnarc::container
