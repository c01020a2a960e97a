// Value tables (spec 9.4.8): the index extension of an archive's tables, read back and checked
// (INDEX-3), and the table columns of a tags section (coding 11, TAGS-12), whole and game by game.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/endian.h"
#include "common/hash.h"
#include "container/format.h"
#include "container/tag_values.h"
#include "container/tags_section.h"
#include "container/value_tables.h"

namespace pgnarc::container {
namespace {

using Games = std::vector<std::vector<Tag>>;

// The value tables of an archive, as a tags section's reader is given them.
class Tables : public PlayerNames {
 public:
  explicit Tables(ValueTables t) : tables_(std::move(t)) {}
  Status append(std::uint64_t, const std::string& where, std::string&) const override {
    return corruption(where + ": no players");
  }
  const ValueTables* value_tables() const override { return &tables_; }

 private:
  ValueTables tables_;
};

Tables tables_of(const TableBuilder& b) {
  auto t = ValueTables::decode(b.extension(0), "t");
  EXPECT_TRUE(t.ok()) << t.error().to_string();
  return Tables(std::move(*t));
}

const Games kExample = {{Tag{"ECO", "C20"}, Tag{"Opening", "King's Pawn Game"}},
                       {Tag{"ECO", "B01"}, Tag{"Opening", "Scandinavian Defense"}}};

// Spec 9.4.8's example: the table of (B01, Scandinavian Defense) and (C20, King's Pawn Game) in an
// extension of 82 bytes, and the two games' columns: ECO 0b 04 00 02 07 e6, Opening 0b 03 00 01 04.
TEST(ValueTables, TheSpecExample) {
  TableBuilder b({"ECO", "Opening"});
  EXPECT_EQ(b.number({kExample[1], kExample[0]}), (std::vector<std::int64_t>{0, 1}));
  const std::string extension = b.extension(0);
  ASSERT_EQ(extension.size(), 82u);
  EXPECT_EQ(extension.substr(0, 13), std::string("PGAV\x00\x3d\x00\x00\x00\x3d\x00\x00\x00", 13));
  EXPECT_EQ(common::get_le(extension.data() + 74, 8), 0x8ef3ba41261b6e78u);
  const TableColumns columns{{"ECO", "Opening"}, {1, 0}};
  const std::string section = encode_tags_section(kExample, 0, nullptr, nullptr, false, &columns);
  const std::string want = std::string("\x0b\x04\x00\x02\x07\xe6", 6) + std::string("\x0b\x03\x00\x01\x04", 5);
  ASSERT_GT(section.size(), want.size());
  EXPECT_EQ(section.substr(section.size() - want.size()), want);
  const Tables tables = tables_of(b);
  BlockTags tags;
  const Status st = decode_tags_section(section, 2, "t", tags, &tables, kTableTagsLayout);
  ASSERT_TRUE(st.ok()) << st.error().to_string();
  EXPECT_EQ(tags.game(0), kExample[0]);
  EXPECT_EQ(tags.game(1), kExample[1]);
  // Only in a block of layout 5, and only with the archive's tables.
  for (std::uint8_t layout : {kBlockLayout, kDerivedTagsLayout, kCodedTagsLayout})
    EXPECT_FALSE(decode_tags_section(section, 2, "t", tags, &tables, layout).ok()) << int(layout);
  EXPECT_FALSE(decode_tags_section(section, 2, "t", tags, nullptr, kTableTagsLayout).ok());
}

// The tables read back as the builder numbered them; what INDEX-3 rejects is rejected.
TEST(ValueTables, ExtensionsReadBackAndDamageIsRefused) {
  TableBuilder b({"ECO", "Opening", "ECOUrl"});
  Games games;
  for (int i = 0; i < 200; ++i)
    games.push_back({Tag{"ECO", "B" + std::to_string(i % 37)}, Tag{"Opening", "Opening " + std::to_string(i % 41)}});
  games.push_back({Tag{"White", "x"}});  // none of the keys: no entry
  const std::vector<std::int64_t> entries = b.number(games);
  EXPECT_EQ(entries.back(), -1);
  for (int level : {0, 19}) {
    const std::string extension = b.extension(level);
    EXPECT_EQ(extension[4], level > 0 ? 1 : 0) << "compressed where smaller";
    auto t = ValueTables::decode(extension, "t");
    ASSERT_TRUE(t.ok()) << t.error().to_string();
    ASSERT_EQ(t->tables().size(), 1u);
    EXPECT_EQ(t->tables()[0].entries, b.entries());
    for (std::size_t g = 0; g < 200; ++g) {
      EXPECT_EQ(*t->value(0, static_cast<std::uint32_t>(entries[g]), 0), games[g][0].value);
      EXPECT_EQ(*t->value(0, static_cast<std::uint32_t>(entries[g]), 1), games[g][1].value);
      EXPECT_FALSE(t->value(0, static_cast<std::uint32_t>(entries[g]), 2).has_value()) << "no ECOUrl";
    }
    // Each byte changed is refused: the checksum covers them all.
    for (std::size_t at = 0; at < extension.size(); at += 7) {
      std::string bad = extension;
      bad[at] = static_cast<char>(bad[at] ^ 0x20);
      EXPECT_FALSE(ValueTables::decode(bad, "t").ok()) << at;
    }
  }
  // Tables whose checksum holds but whose contents INDEX-3 rejects.
  const auto wrap = [](const std::string& tables) {
    std::string out("PGAV\x00", 5);
    common::put_le(out, tables.size(), 4);
    common::put_le(out, tables.size(), 4);
    out += tables;
    common::put_le(out, common::hash64(out), 8);
    return out;
  };
  EXPECT_TRUE(ValueTables::decode(wrap(std::string("\x01\x01\x03" "ECO\x01\x04" "B01", 11)), "t").ok());
  for (const std::string& bad : {std::string("\x00", 1), std::string("\x01\x00\x01\x00", 4),
                                 std::string("\x01\x01\x00\x01\x00", 5), std::string("\x01\x02\x03" "ECO\x03" "ECO\x01\x00\x00", 13),
                                 std::string("\x01\x01\x03" "ECO\x00", 7), std::string("\x01\x01\x03" "ECO\x01\x05" "B01", 11),
                                 std::string("\x01\x01\x03" "ECO\x01\x04" "B01x", 12)})
    EXPECT_FALSE(ValueTables::decode(wrap(bad), "t").ok()) << bad.size();
  // More than 256 tables, more than 2^24 values in all, an extension shorter than its header
  // and checksum.
  std::string many("\x81\x02", 2);
  for (int t = 0; t < 257; ++t) many += std::string("\x01\x02k", 3) + static_cast<char>('0' + t % 10) + static_cast<char>('a' + t / 10) + "\x01\x00";
  EXPECT_FALSE(ValueTables::decode(wrap(many), "t").ok());
  std::string values("\x01\x02\x01" "a\x01" "b\x81\x80\x80\x04", 10);  // 2 keys of 2^23 + 1 entries
  values += std::string(2 * ((1u << 23) + 1), '\0');
  EXPECT_FALSE(ValueTables::decode(wrap(values), "t").ok());
  for (std::size_t n : {0, 4, 20}) EXPECT_FALSE(ValueTables::decode(std::string("PGAV", 4) + std::string(n, '\0'), "t").ok()) << n;
}

// Table columns of many games, with games whose entry is the table's (code entry + 1, then 1),
// a game without an entry (a full table: its tags kept as text) and a game whose second ECO
// differs from its entry's (kept as text): whole and game by game, the tags come back.
TEST(ValueTables, TableColumnsRoundTrip) {
  TableBuilder b({"ECO", "Opening"});
  Games games;
  for (int i = 0; i < 300; ++i) {
    std::vector<Tag> g = {Tag{"White", "w" + std::to_string(i)}};
    if (i % 11 != 4) g.push_back(Tag{"ECO", "C" + std::to_string(i % 13)});
    if (i % 17 != 5) g.push_back(Tag{"Opening", "The opening of " + std::to_string(i % 13)});
    if (i == 77) g.push_back(Tag{"ECO", "Z99"});
    games.push_back(g);
  }
  std::vector<std::int64_t> entries = b.number(games);
  entries[150] = -1;  // as if the table were full when game 150 came
  const TableColumns columns{b.keys(), entries};
  const Tables tables = tables_of(b);
  const std::string section = encode_tags_section(games, 3, nullptr, nullptr, true, &columns);
  std::vector<TagColumnView> heads;
  ASSERT_TRUE(read_tag_columns(section, 300, "t", heads).ok());
  int table_columns = 0;
  for (const TagColumnView& c : heads) table_columns += c.coding == static_cast<std::uint8_t>(TagCoding::kTable);
  EXPECT_EQ(table_columns, 2);
  BlockTags tags, alone;
  const Status st = decode_tags_section(section, 300, "t", tags, &tables, kTableTagsLayout);
  ASSERT_TRUE(st.ok()) << st.error().to_string();
  for (std::uint32_t g = 0; g < 300; ++g) {
    EXPECT_EQ(tags.game(g), games[g]) << g;
    if (g % 23 == 0 || g == 77 || g == 150) {
      ASSERT_TRUE(decode_game_tags(section, 300, g, g, "t", alone, &tables, kTableTagsLayout).ok()) << g;
      EXPECT_EQ(alone.game(g), games[g]) << g;
    }
  }
  // Against a table without its last entry, the game that names it fails every read of the
  // block, of one game too (every entry is checked).
  TableBuilder fewer({"ECO", "Opening"});
  Games first;
  for (const auto& g : games)
    if (b.number({g}).front() + 1 < static_cast<std::int64_t>(b.entries())) first.push_back(g);
  fewer.number(first);
  ASSERT_EQ(fewer.entries() + 1, b.entries());
  const Tables short_tables = tables_of(fewer);
  EXPECT_FALSE(decode_tags_section(section, 300, "t", tags, &short_tables, kTableTagsLayout).ok());
  EXPECT_FALSE(decode_game_tags(section, 300, 0, 0, "t", alone, &short_tables, kTableTagsLayout).ok());
}

}  // namespace
}  // namespace pgnarc::container
