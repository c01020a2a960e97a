// The tags section (spec 9.4): the typed forms of values and their canonical spellings, the
// layout of each column coding, round trips of awkward and random tags, the rating prediction
// across columns, the rejection of damaged columns, and a few games' tags decoded alone.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "support/pgn_util.h"
#include "container/format.h"
#include "container/tag_values.h"
#include "container/tags_section.h"

namespace pgnarc::container {
namespace {

using Games = std::vector<std::vector<Tag>>;

// Games `from` to `to` of a section decoded on their own (decode_game_tags) are those of the
// whole section's decode, read into a BlockTags that held another block's games before.
void expect_window_equals_whole(const std::string& section, const Games& whole, std::uint32_t from, std::uint32_t to,
                                const PlayerNames* players = nullptr) {
  static BlockTags reused;
  const auto games = static_cast<std::uint32_t>(whole.size());
  const Status st = decode_game_tags(section, games, from, to, "test", reused, players);
  ASSERT_TRUE(st.ok()) << st.error().to_string();
  for (std::uint32_t g = from; g <= to; ++g) EXPECT_EQ(reused.game(g), whole[g]) << "game " << g << " of " << from << "-" << to;
}

// Every game alone, and runs of a few games (a directory group), as the whole section gives them.
void expect_windows_equal_whole(const std::string& section, const Games& whole, const PlayerNames* players = nullptr) {
  const auto games = static_cast<std::uint32_t>(whole.size());
  for (std::uint32_t g = 0; g < games; ++g) {
    expect_window_equals_whole(section, whole, g, g, players);
    expect_window_equals_whole(section, whole, g, std::min(games - 1, g + g % 5), players);
  }
  if (games > 0) expect_window_equals_whole(section, whole, 0, games - 1, players);
}

Games decode(const std::string& section, std::uint32_t games) {
  BlockTags tags;
  const Status st = decode_tags_section(section, games, "test", tags);
  EXPECT_TRUE(st.ok()) << st.error().to_string();
  Games out;
  if (!st.ok()) return out;
  for (std::uint32_t g = 0; g < games; ++g) out.push_back(tags.game(g));
  expect_windows_equal_whole(section, out);
  return out;
}

// Both writer settings (codings chosen by raw or by compressed size) give sections that decode
// to the tags given.
void expect_round_trip(const Games& games) {
  for (int level : {0, 3}) {
    const std::string section = encode_tags_section(games, level);
    EXPECT_EQ(decode(section, static_cast<std::uint32_t>(games.size())), games) << "choice level " << level;
  }
}

// The coding byte of each column of a section of games of one tag each (one key): after the
// key table and the per-game key lists, the column is its coding, a size and its body.
int coding_of_only_column(const Games& games, int level = 0) {
  const std::string section = encode_tags_section(games, level);
  std::size_t at = 1 + 1 + games.front().front().key.size();  // key count, key length, key
  at += 2 * games.size();                                     // per game: count 1, key 0
  return static_cast<unsigned char>(section.at(at));
}

Games one_column(const std::string& key, const std::vector<std::string>& values) {
  Games g;
  for (const auto& v : values) g.push_back({Tag{key, v}});
  return g;
}

TEST(TagValues, IntegersHaveOneSpelling) {
  std::int64_t v;
  EXPECT_TRUE(parse_tag_integer("0", false, v) && v == 0);
  EXPECT_TRUE(parse_tag_integer("-17", false, v) && v == -17);
  EXPECT_TRUE(parse_tag_integer("999999999999999999", false, v) && v == 999999999999999999);
  for (const char* bad : {"", "-", "-0", "+5", "007", " 5", "5 ", "1e3", "1000000000000000000"})
    EXPECT_FALSE(parse_tag_integer(bad, false, v)) << bad;
  EXPECT_TRUE(parse_tag_integer("+0", true, v) && v == 0);
  EXPECT_TRUE(parse_tag_integer("+12", true, v) && v == 12);
  EXPECT_TRUE(parse_tag_integer("-3", true, v) && v == -3);
  for (const char* bad : {"12", "0", "-0", "+012", "+"}) EXPECT_FALSE(parse_tag_integer(bad, true, v)) << bad;
  std::string s;
  format_tag_integer(12, true, s);
  format_tag_integer(-3, false, s);
  EXPECT_EQ(s, "+12-3");
}

TEST(TagValues, DatesWithUnknownParts) {
  for (const char* d : {"2016.05.31", "????.??.??", "1851.??.??", "2021.10.??", "????.03.07", "0000.01.01"}) {
    std::int64_t v;
    ASSERT_TRUE(parse_tag_date(d, v)) << d;
    EXPECT_LT(v, kTagDateLimit);
    std::string back;
    format_tag_date(v, back);
    EXPECT_EQ(back, d);
  }
  std::int64_t v;
  EXPECT_TRUE(parse_tag_date("2016.05.31", v));
  EXPECT_EQ(v, (2017 * 13 + 5) * 32 + 31);
  for (const char* bad : {"2016.5.31", "2016.13.01", "2016.00.01", "2016.05.32", "2016.05.00", "2016-05-31",
                          "16.05.31", "2016.05.31 ", "20?6.05.31", "2016.?5.31"})
    EXPECT_FALSE(parse_tag_date(bad, v)) << bad;
}

TEST(TagValues, TimesOfDay) {
  std::int64_t v;
  EXPECT_TRUE(parse_tag_time("23:59:59", v) && v == 86399);
  EXPECT_TRUE(parse_tag_time("99:00:00", v) && v == 356400);
  for (const char* bad : {"1:02:03", "12:60:00", "12:00:60", "12:00", "12:00:00.5", "ab:cd:ef"})
    EXPECT_FALSE(parse_tag_time(bad, v)) << bad;
  std::string s;
  format_tag_time(3723, s);
  EXPECT_EQ(s, "01:02:03");
}

TEST(TagValues, IdentifiersInBase62AndDecimal) {
  IdentifierForm f;
  ASSERT_TRUE(identifier_form_of("https://lichess.org/SXUUbfSF", false, f));
  EXPECT_EQ(f.prefix, "https://lichess.org/");
  EXPECT_EQ(f.length, 8);
  std::int64_t v;
  ASSERT_TRUE(parse_tag_identifier("https://lichess.org/zzzzzzzz", f, v));
  EXPECT_EQ(v, identifier_limit(8) - 1);
  ASSERT_TRUE(parse_tag_identifier("https://lichess.org/00000001", f, v));
  EXPECT_EQ(v, 1);
  std::string s;
  format_tag_identifier(62 + 10, f, s);
  EXPECT_EQ(s, "https://lichess.org/0000001A");
  for (const char* bad : {"https://lichess.org/SXUUbfS", "https://lichess.org/SXUUbfSF/black",
                          "http://lichess.org/SXUUbfSF", "https://lichess.org/SXUU-fSF"})
    EXPECT_FALSE(parse_tag_identifier(bad, f, v)) << bad;

  IdentifierForm d;
  ASSERT_TRUE(identifier_form_of("https://www.chess.com/game/live/123456789", true, d));
  EXPECT_EQ(d.prefix, "https://www.chess.com/game/live/");
  EXPECT_EQ(d.length, 0);
  EXPECT_TRUE(parse_tag_identifier("https://www.chess.com/game/live/7", d, v) && v == 7);
  EXPECT_FALSE(parse_tag_identifier("https://www.chess.com/game/live/07", d, v));
  // A base-62 tail is at most 10 characters; a prefix at most 64 bytes.
  EXPECT_FALSE(identifier_form_of("abcdefghijk", false, f));
  EXPECT_FALSE(identifier_form_of(std::string(65, '/') + "x", false, f));
  EXPECT_FALSE(identifier_form_of("ends in a space ", false, f));
}

// Each typed form codes the column it suits; values out of the form stay text in it.
TEST(TagsSection, ColumnsTakeTheirTypedCodings) {
  EXPECT_EQ(coding_of_only_column(one_column("Event", {"Rated Blitz game", "Casual game", "Rated Blitz game"})),
            static_cast<int>(TagCoding::kText));
  EXPECT_EQ(coding_of_only_column(one_column("PlyCount", {"37", "36", "120", "41", "88", "12"})),
            static_cast<int>(TagCoding::kInteger));
  EXPECT_EQ(coding_of_only_column(one_column("UTCDate", {"2016.05.31", "2016.06.01", "2016.06.02", "2016.06.04"})),
            static_cast<int>(TagCoding::kDate));
  EXPECT_EQ(coding_of_only_column(one_column("UTCTime", {"23:59:59", "00:00:01", "00:00:05", "00:01:05"})),
            static_cast<int>(TagCoding::kTime));
  EXPECT_EQ(coding_of_only_column(one_column("Site", {"https://lichess.org/SXUUbfSF", "https://lichess.org/QKETTbBo",
                                                      "https://lichess.org/8cvDSKv5"})),
            static_cast<int>(TagCoding::kIdentifier));
  const Games mixed = one_column("PlyCount", {"37", "036", "120", "?", "88", "-0", "12", "88"});
  EXPECT_EQ(coding_of_only_column(mixed), static_cast<int>(TagCoding::kInteger));
  expect_round_trip(mixed);
}

// An integer column of prediction 0, signed form: header byte 01, then per value 1 + the
// zigzag of the value (0 for a value kept as text), then the text body of the values kept.
TEST(TagsSection, LayoutOfASignedIntegerColumn) {
  const Games g = one_column("D", {"+3", "-1", "+0", "x", "+0", "+0", "+0", "+0"});
  const std::string section = encode_tags_section(g, 0);
  const std::string head = std::string("\x01\x01" "D", 3) + std::string("\x01\x00", 2) + std::string("\x01\x00", 2) +
                           std::string("\x01\x00", 2) + std::string("\x01\x00", 2) + std::string("\x01\x00", 2) +
                           std::string("\x01\x00", 2) + std::string("\x01\x00", 2) + std::string("\x01\x00", 2);
  ASSERT_EQ(section.substr(0, head.size()), head);
  // Coding 1, body of 13 bytes: header 01; codes 07 02 01 00 01 01 01 01; text body of "x":
  // one value, list of 2 bytes (length 1, "x"), no references.
  const std::string column = std::string("\x01\x0d\x01\x07\x02\x01\x00\x01\x01\x01\x01\x01\x02\x01x", 15);
  EXPECT_EQ(section.substr(head.size()), column);
  expect_round_trip(g);
}

// A rating is predicted from the same player's previous rating, in either colour; a player's
// first rating from the rating before it in the game; the first of a game from the block's last
// (1500 before any).
TEST(TagsSection, RatingsFollowTheirPlayers) {
  const auto game = [](const char* w, const char* b, const char* we, const char* be) {
    return std::vector<Tag>{Tag{"White", w}, Tag{"Black", b}, Tag{"WhiteElo", we}, Tag{"BlackElo", be}};
  };
  const Games g = {game("german11", "asusa52f", "1331", "2038"), game("cmvicentuco", "german11", "1954", "1332"),
                   game("german11", "boloro", "1340", "?"), game("boloro", "german11", "1201", "1341")};
  const std::string section = encode_tags_section(g, 0);
  // WhiteElo (coding 2, 8 bytes, player key 0): 1331 - 1500, 1954 - 2038 (the block's last),
  // 1340 - 1332 (german11 as Black), 1201 - 1340; as codes 1 + zigzag: 338, 168, 17, 278.
  // BlackElo (player key 1): 2038 - 1331 (the game's rating before it), 1332 - 1331, "?" kept as
  // text (code 0), 1341 - 1340: 1415, 3, 0, 3; then the text body of "?".
  const std::string want = std::string("\x02\x08\x00\xd2\x02\xa8\x01\x11\x96\x02", 10) +
                           std::string("\x02\x0a\x01\x87\x0b\x03\x00\x03\x01\x02\x01?", 12);
  ASSERT_GT(section.size(), want.size());
  EXPECT_EQ(section.substr(section.size() - want.size()), want);
  expect_round_trip(g);
  BlockTags tags;
  ASSERT_TRUE(decode_tags_section(section, 4, "t", tags).ok());
  // Moving the BlockTags keeps its views valid (typed values live in its arenas).
  BlockTags moved = std::move(tags);
  EXPECT_EQ(moved.game(3), g[3]);
  // A rating column must name a player column that is not itself a rating column.
  std::string bad = section;
  bad[section.size() - want.size() + 2] = 3;  // WhiteElo's player: key 3, BlackElo
  EXPECT_FALSE(decode_tags_section(bad, 4, "t", tags).ok());
}

// Spec 9.4.7's example: a Round column of 1, 2, 3 coded (coding 10, base 1, prediction): the
// codes 3, 3, 3 in the codeword 0a 50. Read only in a block of layout 4; a base other than 1 to
// 4, or a bit 1 after the codeword's end, is rejected.
TEST(TagsSection, CodedColumnOfTheSpecExample) {
  const std::string head = std::string("\x01\x05Round", 7) + std::string("\x01\x00\x01\x00\x01\x00", 6);
  const std::string section = head + std::string("\x0a\x05\x01\x02\x02\x0a\x50", 7);
  BlockTags tags;
  const Status st = decode_tags_section(section, 3, "t", tags, nullptr, kCodedTagsLayout);
  ASSERT_TRUE(st.ok()) << st.error().to_string();
  for (std::uint32_t g = 0; g < 3; ++g) EXPECT_EQ(tags.game(g), (std::vector<Tag>{Tag{"Round", std::to_string(g + 1)}}));
  BlockTags alone;
  ASSERT_TRUE(decode_game_tags(section, 3, 1, 1, "t", alone, nullptr, kCodedTagsLayout).ok());
  EXPECT_EQ(alone.game(1), (std::vector<Tag>{Tag{"Round", "2"}}));
  for (std::uint8_t layout : {kBlockLayout, kDerivedTagsLayout})
    EXPECT_FALSE(decode_tags_section(section, 3, "t", tags, nullptr, layout).ok()) << int(layout);
  std::string bad = section;
  bad[head.size() + 2] = 5;  // base 5: identifiers
  EXPECT_FALSE(decode_tags_section(bad, 3, "t", tags, nullptr, kCodedTagsLayout).ok());
  bad = section;
  bad.back() = 0x51;  // a bit after the 12 bits of the codeword
  EXPECT_FALSE(decode_tags_section(bad, 3, "t", tags, nullptr, kCodedTagsLayout).ok());
  bad = section;
  bad[head.size() + 4] = 3;  // the codeword runs past the body
  EXPECT_FALSE(decode_tags_section(bad, 3, "t", tags, nullptr, kCodedTagsLayout).ok());
}

// Ratings and other numbers of many games are coded where that is smaller (by raw size and
// compressed), and the coded section decodes to the same tags, whole and game by game; a writer
// not allowed to code (layout 1 or 3) codes none.
TEST(TagsSection, CodedColumnsRoundTrip) {
  std::mt19937 rng(7);
  Games games;
  for (int i = 0; i < 300; ++i) {
    const int white = 1000 + static_cast<int>(rng() % 1500), black = white - 150 + static_cast<int>(rng() % 301);
    games.push_back({Tag{"White", "p" + std::to_string(rng() % 200)}, Tag{"Black", "p" + std::to_string(rng() % 200)},
                     Tag{"WhiteElo", i % 50 == 3 ? "?" : std::to_string(white)}, Tag{"BlackElo", std::to_string(black)},
                     Tag{"WhiteRatingDiff", i % 7 == 0 ? "+0" : (rng() % 2 ? "+" : "-") + std::to_string(1 + rng() % 12)},
                     Tag{"UTCTime", "1" + std::to_string(rng() % 10) + ":3" + std::to_string(rng() % 10) + ":0" +
                                        std::to_string(rng() % 10)}});
  }
  for (int level : {0, 3}) {
    const std::string plain = encode_tags_section(games, level);
    const std::string coded = encode_tags_section(games, level, nullptr, nullptr, true);
    EXPECT_LT(coded.size(), plain.size()) << "level " << level;
    std::vector<TagColumnView> columns;
    ASSERT_TRUE(read_tag_columns(coded, 300, "t", columns).ok());
    int coded_columns = 0;
    for (const TagColumnView& c : columns) coded_columns += c.coding == static_cast<std::uint8_t>(TagCoding::kCoded);
    EXPECT_GE(coded_columns, 2) << "level " << level;
    ASSERT_TRUE(read_tag_columns(plain, 300, "t", columns).ok());
    for (const TagColumnView& c : columns) EXPECT_NE(c.coding, static_cast<std::uint8_t>(TagCoding::kCoded));
    BlockTags tags, alone;
    ASSERT_TRUE(decode_tags_section(coded, 300, "t", tags, nullptr, kCodedTagsLayout).ok());
    EXPECT_FALSE(decode_tags_section(coded, 300, "t", alone, nullptr, kDerivedTagsLayout).ok());
    for (std::uint32_t g = 0; g < 300; g += 37) {
      EXPECT_EQ(tags.game(g), games[g]) << g;
      ASSERT_TRUE(decode_game_tags(coded, 300, g, g, "t", alone, nullptr, kCodedTagsLayout).ok());
      EXPECT_EQ(alone.game(g), games[g]) << g;
    }
  }
}

// Random tags of every form, with values near each form's edges, round trip.
TEST(TagsSection, RandomTagsRoundTrip) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> keys = {"White", "Black", "WhiteElo", "BlackElo", "Date",   "UTCTime", "Site",
                                         "Diff",  "Round", "Elo",      "XElo",     "XEloElo", "X"};
  const auto pick = [&](std::vector<std::string> v) { return v[rng() % v.size()]; };
  for (int trial = 0; trial < 200; ++trial) {
    Games games(1 + rng() % 40);
    for (auto& game : games) {
      const int n = static_cast<int>(rng() % 8);
      for (int i = 0; i < n; ++i) {
        const std::string key = pick(keys);
        std::string v;
        switch (rng() % 9) {
          case 0: v = std::to_string(static_cast<std::int64_t>(rng() % 3000) - 500); break;
          case 1: v = pick({"999999999999999999", "-999999999999999999", "0", "-0", "00", "+0", "+7", "-7"}); break;
          case 2: v = pick({"2016.05.31", "????.??.??", "9999.12.31", "0000.01.01", "2016.5.31", "1999.12.??"}); break;
          case 3: v = pick({"00:00:00", "99:59:59", "23:59:59", "1:00:00", "12:60:00"}); break;
          case 4: v = "https://lichess.org/" + std::string(8, "0aZz9Ab"[rng() % 7]); break;
          case 5: v = "https://lichess.org/" + pick({"zzzzzzzz", "00000000", "abc", "abcdefghi"}); break;
          case 6: v = pick({"german11", "boloro", "x", ""}); break;
          case 7: v = "https://www.chess.com/game/live/" + std::to_string(rng() % 1000000000); break;
          default: v = std::string(rng() % 3, static_cast<char>(rng() % 256)); break;
        }
        game.push_back(Tag{key, v});
      }
    }
    expect_round_trip(games);
  }
}

// A column whose coding is not defined, or whose body is damaged, is an error; never a
// different value.
TEST(TagsSection, DamagedColumnsAreRejected) {
  const Games g = one_column("PlyCount", {"37", "36", "120", "41"});
  const std::string section = encode_tags_section(g, 0);
  const std::size_t column = 1 + 1 + 8 + 2 * 4;
  ASSERT_EQ(section[column], static_cast<char>(TagCoding::kInteger));
  BlockTags tags;
  std::string bad = section;
  bad[column] = static_cast<char>(kTagCodings);
  EXPECT_FALSE(decode_tags_section(bad, 4, "t", tags).ok());
  bad = section;
  bad[column + 2] = 4;  // an integer header with an undefined bit
  EXPECT_FALSE(decode_tags_section(bad, 4, "t", tags).ok());
  bad = section + std::string(1, '\0');
  EXPECT_FALSE(decode_tags_section(bad, 4, "t", tags).ok());
  bad = section;
  bad[column + 1] = static_cast<char>(bad[column + 1] - 1);  // the body one byte short
  EXPECT_FALSE(decode_tags_section(bad, 4, "t", tags).ok());
  // A date beyond 9999.12.31.
  Games d = one_column("Date", {"9999.12.31", "9999.12.31", "9999.12.30", "9999.12.31"});
  std::string ds = encode_tags_section(d, 0);
  ASSERT_EQ(ds[1 + 1 + 4 + 8], static_cast<char>(TagCoding::kDate));
  const std::size_t first_code = 1 + 1 + 4 + 8 + 2;
  std::string dbad = ds;
  // The first code is 1 + zigzag(v) (a varint of several bytes); one more is past the limit.
  std::uint64_t code = 0;
  int shift = 0;
  std::size_t i = first_code;
  for (;; ++i, shift += 7) {
    code |= std::uint64_t(static_cast<unsigned char>(dbad[i]) & 0x7F) << shift;
    if (!(static_cast<unsigned char>(dbad[i]) & 0x80)) break;
  }
  EXPECT_EQ(code, 1 + 2 * std::uint64_t(kTagDateLimit - 1));
  dbad[first_code] = static_cast<char>(dbad[first_code] + 2);  // one more
  EXPECT_FALSE(decode_tags_section(dbad, 4, "t", tags).ok());
}

// A player column is never a rating column: `XEloElo` (whose player column `XElo` is one) is
// coded otherwise, and the section decodes.
TEST(TagsSection, ARatingOfARatingIsNotMade) {
  const Games g = {{Tag{"X", "a"}, Tag{"XElo", "1500"}, Tag{"XEloElo", "1500"}}};
  expect_round_trip(g);
}

// A game with many ratings and no player decodes in time linear in its tags (each game's first
// tag of a key is found once, not once per rating): 200,000 ratings of one game.
TEST(TagsSection, ManyRatingsWithoutAPlayer) {
  Games g(2);
  g[0].push_back(Tag{"P", "p."});
  for (int i = 0; i < 200000; ++i) g[1].push_back(Tag{"PElo", std::to_string(1500 + i % 7)});
  expect_round_trip(g);
}

// The key table is canonical: keys distinct, in order of first use, each used (TAGS-1); a
// value kept as text is one the column's form cannot read (TAGS-3).
TEST(TagsSection, NonCanonicalSectionsAreRejected) {
  BlockTags tags;
  // Two games, keys "A" and "B", used by game 0 and game 1: 02 01 41 01 42 | 01 00 | 01 01 |
  // then two text columns of one value each: 00 04 01 02 01 x.
  const std::string text_col = std::string("\x00\x04\x01\x02\x01x", 6);
  const std::string good = std::string("\x02\x01" "A\x01" "B\x01\x00\x01\x01", 9) + text_col + text_col;
  ASSERT_TRUE(decode_tags_section(good, 2, "t", tags).ok());
  std::string bad = good;
  bad[4] = 'A';  // a key listed twice
  EXPECT_FALSE(decode_tags_section(bad, 2, "t", tags).ok());
  bad = good;
  bad[6] = 1, bad[8] = 0;  // key 1 used before key 0
  EXPECT_FALSE(decode_tags_section(bad, 2, "t", tags).ok());
  bad = good;
  bad[8] = 0;  // key 1 never used (and its column has a value of no tag)
  EXPECT_FALSE(decode_tags_section(bad, 2, "t", tags).ok());
  // One game [N "5"] as an integer column whose one value is kept as text: header 00, code 00,
  // then a text body of "5"; the writer codes it 00 0b (1 + zigzag(5)).
  const std::string as_text = std::string("\x01\x01N\x01\x00\x01\x06\x00\x00\x01\x02\x01" "5", 13);
  EXPECT_FALSE(decode_tags_section(as_text, 1, "t", tags).ok());
  const std::string typed = std::string("\x01\x01N\x01\x00\x01\x02\x00\x0b", 9);
  EXPECT_EQ(decode(typed, 1), (Games{{Tag{"N", "5"}}}));
  EXPECT_EQ(encode_tags_section({{Tag{"N", "5"}}}, 0), typed);
}

// A base-62 identifier of 10 digits takes eight byte planes, which can hold numbers above 62^10
// and above any signed 64-bit number: both are out of range (a fuzzer found the second decoded
// as a negative number).
TEST(TagsSection, IdentifiersBeyondTheirDigitsAreRejected) {
  const Games g = one_column("Id", {"zzzzzzzzzz", "0000000000"});
  const std::string section = encode_tags_section(g, 0);
  // Key table (01 02 "Id"), two games of one tag (01 00 01 00), then the column: coding 05, size,
  // L = 0a, prefix length 00, flags 01 01, then 2 x 8 plane bytes.
  const std::size_t column = 1 + 1 + 2 + 4;
  ASSERT_EQ(section[column], static_cast<char>(TagCoding::kIdentifier));
  ASSERT_EQ(section[column + 2], '\x0a');
  const std::size_t planes = column + 2 + 1 + 1 + 2;
  ASSERT_EQ(section.size(), planes + 16);
  EXPECT_EQ(decode(section, 2), g);
  BlockTags tags;
  for (const unsigned char top : {0x7F, 0xFF}) {  // the first number's highest byte (plane 7)
    std::string bad = section;
    bad[planes + 7 * 2] = static_cast<char>(top);
    EXPECT_FALSE(decode_tags_section(bad, 2, "t", tags).ok()) << int(top);
  }
}

}  // namespace
}  // namespace pgnarc::container

namespace pgnarc::container {
namespace {

// A players' table of the given values, entry by entry.
class Table : public PlayerNames {
 public:
  explicit Table(std::vector<std::string> values) : values_(std::move(values)) {}
  Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const override {
    if (ordinal >= values_.size()) return corruption(where + ": no entry " + std::to_string(ordinal));
    out += values_[ordinal];
    return {};
  }

 private:
  std::vector<std::string> values_;
};

// [TAGS-5] White and Black columns given their players' table entries are coded as entries,
// whatever the entries' order and however many there are (references of one and two bytes),
// and decode through the table to the same tags, ratings predicted from their players as before;
// without the table, such a section is refused; without entries, the columns are text.
TEST(TagsSection, PlayersAsEntriesOfTheTable) {
  for (const std::size_t players : {1u, 3u, 300u}) {
    std::vector<std::string> table;
    for (std::size_t p = 0; p < players + 5; ++p) table.push_back("player " + std::to_string(p * 7919 % 1000));
    Games games;
    std::vector<std::uint32_t> entries;
    std::mt19937 rng(static_cast<unsigned>(players));
    for (int g = 0; g < 400; ++g) {
      const auto w = static_cast<std::uint32_t>(5 + rng() % players), b = static_cast<std::uint32_t>(5 + rng() % players);
      games.push_back({Tag{"White", table[w]}, Tag{"Black", table[b]}, Tag{"WhiteElo", std::to_string(1500 + g)}});
      entries.push_back(w);
      entries.push_back(b);
    }
    const Table names(table);
    for (int level : {0, 3}) {
      const std::string section = encode_tags_section(games, level, &entries);
      BlockTags tags;
      const Status st = decode_tags_section(section, 400, "t", tags, &names);
      ASSERT_TRUE(st.ok()) << st.error().to_string();
      for (std::uint32_t g = 0; g < 400; ++g) EXPECT_EQ(tags.game(g), games[g]) << g;
      if (level == 3) expect_windows_equal_whole(section, games, &names);
      // Player columns need the table.
      EXPECT_FALSE(decode_tags_section(section, 400, "t", tags).ok()) << players;
      // A table that lacks the highest entry named.
      const Table short_table(std::vector<std::string>(table.begin(), table.begin() + 5 + players - 1));
      const bool named_last = std::find(entries.begin(), entries.end(), 5 + players - 1) != entries.end();
      EXPECT_EQ(decode_tags_section(section, 400, "t", tags, &short_table).ok(), !named_last) << players;
      EXPECT_LT(section.size(), encode_tags_section(games, level).size()) << "entries are smaller than names";
    }
  }
  // The columns as stored: the example of 9.4.3, White and Black of two games as entries.
  const Games named = {{Tag{"White", "a"}, Tag{"Black", "b"}}, {Tag{"White", "b"}, Tag{"Black", "a"}}};
  const std::vector<std::uint32_t> ab = {0, 1, 1, 0};
  const std::string section = encode_tags_section(named, 0, &ab);
  std::vector<TagColumnView> columns;
  ASSERT_TRUE(read_tag_columns(section, 2, "t", columns).ok());
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[0].key, "White");
  EXPECT_EQ(columns[1].key, "Black");
  for (const TagColumnView& c : columns) {
    EXPECT_EQ(c.coding, static_cast<std::uint8_t>(TagCoding::kPlayer));
    EXPECT_EQ(c.tags, 2u);
  }
  EXPECT_EQ(columns[0].body, std::string("\x02\x00\x00\x00\x01", 5));
  EXPECT_EQ(columns[1].body, std::string("\x02\x00\x00\x01\x00", 5));
  EXPECT_FALSE(read_tag_columns(section + "x", 2, "t", columns).ok()) << "bytes left over";
  // The players' entries must be one per White and Black tag.
  const Games one = {{Tag{"White", "a"}, Tag{"Black", "b"}}};
  const std::vector<std::uint32_t> too_few = {0};
  EXPECT_THROW(encode_tags_section(one, 0, &too_few), std::logic_error);
}

// The tags of corpus files (ratings, dates, times, game ids, FENs, values kept as text), in
// blocks of 150 games, White and Black as text and as entries of a table that lists each name
// twice (a rating's player is its name, whichever entry names it: 9.4.2): each game's tags read
// alone, and those of a few games together, are the whole section's.
TEST(TagsSection, OneGamesTagsOfCorpusFilesEqualTheWholeSections) {
  for (const char* file : {"pgn/twic_events.pgn", "pgn/lichess_2016-05_no_event.pgn", "pgn/setup_fen.pgn",
                           "pgn/lichess_2021-10_clk_eval.pgn", "pgn/frc_fen_only.pgn"}) {
    const auto read = test::read_all(test::read_file(test::corpus_path(file)));
    Games all;
    for (const auto& g : read)
      if (g.ok) all.push_back(g.game.tags);
    ASSERT_GT(all.size(), 20u) << file;
    for (std::size_t first = 0; first < all.size(); first += 150) {
      const Games games(all.begin() + static_cast<std::ptrdiff_t>(first),
                        all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), first + 150)));
      std::vector<std::string> table;
      std::map<std::string, std::uint32_t> entry;
      std::vector<std::uint32_t> entries;
      std::uint32_t turn = 0;
      for (const auto& tags : games)
        for (const Tag& t : tags) {
          if (t.key != "White" && t.key != "Black") continue;
          if (!entry.count(t.value)) {
            entry[t.value] = static_cast<std::uint32_t>(table.size());
            table.push_back(t.value);
            table.push_back(t.value);
          }
          entries.push_back(entry[t.value] + (turn++ % 2));
        }
      const Table names(table);
      const auto n = static_cast<std::uint32_t>(games.size());
      for (const bool as_entries : {false, true}) {
        const std::string section = encode_tags_section(games, 3, as_entries ? &entries : nullptr);
        BlockTags whole;
        const Status st = decode_tags_section(section, n, "t", whole, &names);
        ASSERT_TRUE(st.ok()) << st.error().to_string();
        Games decoded;
        for (std::uint32_t g = 0; g < n; ++g) decoded.push_back(whole.game(g));
        ASSERT_EQ(decoded, games) << file;
        expect_windows_equal_whole(section, decoded, &names);
      }
    }
  }
}

}  // namespace
}  // namespace pgnarc::container
