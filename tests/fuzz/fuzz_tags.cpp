// Fuzz target: a block's tags section of arbitrary bytes (spec 9.4). The first byte gives the
// game count and, in its low bit, the block's layout: 0 layout 1, or layout 8 (everything below
// and Event and Site columns of entries, 9.4.3) where the input's size is a multiple of 6, layout
// 7 (Xiangqi positions, 9.4.9, and unescaped text columns, 9.4.10) where it is one of 3 otherwise;
// 1 layout 4 (whose columns may
// be derived, 9.4.5, named, 9.4.6, and coded, 9.4.7) where the input's size is a multiple of 4,
// layout 5 (table columns too, 9.4.8) where it is even otherwise, else layout 3 (coded columns
// rejected); the rest is the section, read with a players' table of 1,000 entries `p0` to
// `p999` (the Event and Site tables too) and a value table of ECO and Opening of 300 entries (`A0`, `Opening 0`, ...; every
// tenth without an Opening). Damage must be an error, never a crash, also where only a few
// games' tags are decoded (decode_game_tags); a section that decodes gives each game's tags
// the same when they are decoded alone, and is the one the writer makes of the tags it decodes
// to, when its columns are chosen by raw size (only the writer's choice of coding may differ),
// White and Black given as entries of that table (values it lacks added to it), in layouts 3 to 7
// derived tags as derived by the same rule (their values, which need the moves, left empty), and
// in layouts 5, 7 and 8 the value table's keys as entries of it (a value it lacks kept as text),
// in layout 8 Event and Site given as entries of that players' table too.
#include <cstdint>
#include <string>
#include <vector>

#include "container/format.h"
#include "container/tags_section.h"
#include "container/value_tables.h"

namespace {

const pgnarc::container::ValueTables& fixed_tables() {
  static const pgnarc::container::ValueTables tables = [] {
    using namespace pgnarc;
    container::TableBuilder b({"ECO", "Opening"});
    std::vector<std::vector<Tag>> games;
    for (int i = 0; i < 300; ++i) {
      games.push_back({Tag{"ECO", "A" + std::to_string(i)}});
      if (i % 10 != 3) games.back().push_back(Tag{"Opening", "Opening " + std::to_string(i)});
    }
    b.number(games);
    return *container::ValueTables::decode(b.extension(0), "fuzz");
  }();
  return tables;
}

class Table : public pgnarc::container::PlayerNames {
 public:
  pgnarc::Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const override {
    if (ordinal < kBase) {
      out += 'p';
      out += std::to_string(ordinal);
    } else if (ordinal - kBase < extra_.size()) {
      out += extra_[ordinal - kBase];
    } else {
      return pgnarc::corruption(where + ": no such player");
    }
    return {};
  }
  // The entry of `value`: pN for N below 1,000 as it is written, others added after them.
  std::uint32_t entry(const std::string& value) {
    if (value.size() >= 2 && value.size() <= 4 && value[0] == 'p' && (value[1] != '0' || value.size() == 2)) {
      std::uint32_t n = 0;
      bool digits = true;
      for (std::size_t i = 1; i < value.size(); ++i) {
        digits = digits && value[i] >= '0' && value[i] <= '9';
        n = n * 10 + static_cast<std::uint32_t>(value[i] - '0');
      }
      if (digits) return n;
    }
    for (std::size_t i = 0; i < extra_.size(); ++i)
      if (extra_[i] == value) return static_cast<std::uint32_t>(kBase + i);
    extra_.push_back(value);
    return static_cast<std::uint32_t>(kBase + extra_.size() - 1);
  }
  const pgnarc::container::ValueTables* value_tables() const override { return &fixed_tables(); }
  const PlayerNames* field_names(int) const override { return this; }

 private:
  static constexpr std::uint32_t kBase = 1000;
  std::vector<std::string> extra_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc;
  using namespace pgnarc::container;
  if (size < 1) return 0;
  const std::uint32_t games = 1 + (data[0] >> 1);  // 1 to 128
  const std::uint8_t layout = (data[0] & 1) == 0 ? (size % 6 == 0   ? kNameEntriesLayout
                                                   : size % 3 == 0 ? kUnescapedTagsLayout
                                                                   : kBlockLayout)
                              : size % 4 == 0 ? kCodedTagsLayout
                              : size % 2 == 0 ? kTableTagsLayout
                                              : kDerivedTagsLayout;
  const bool tables_allowed = table_layout(layout);
  const bool derived_layout = layout != kBlockLayout;
  const std::string_view section(reinterpret_cast<const char*>(data) + 1, size - 1);
  Table table;
  BlockTags whole, alone;
  if (!decode_tags_section(section, games, "fuzz", whole, &table, layout).ok()) {
    for (std::uint32_t g = 0; g < games; g += 1 + g)  // no crash, whatever they give
      (void)decode_game_tags(section, games, g, std::min(games - 1, g + g % 3), "fuzz", alone, &table,
                             layout);
    return 0;
  }
  for (std::uint32_t g = 0; g < games; ++g)
    if (!decode_game_tags(section, games, g, g, "fuzz", alone, &table, layout).ok() ||
        alone.game(g) != whole.game(g) || alone.derives(g) != whole.derives(g))
      __builtin_trap();
  // Decoded again from the section the writer makes of them, the tags are the same.
  std::vector<std::vector<Tag>> tags;
  std::vector<std::uint32_t> players;
  NameEntries names;
  for (std::uint32_t g = 0; g < games; ++g) {
    tags.push_back(whole.game(g));
    for (const Tag& t : tags.back()) {
      const int f = name_field_of(t.key);
      if (f == kPlayerField) players.push_back(table.entry(t.value));
      if (f == kEventField || f == kSiteField) (f == kEventField ? names.event : names.site).push_back(table.entry(t.value));
    }
  }
  const std::vector<std::vector<std::uint8_t>> rules = whole.derived_rules(games);
  // The value table's entries of the games, as far as the table has them.
  TableBuilder numbers = TableBuilder::from(fixed_tables());
  TableColumns columns{numbers.keys(), numbers.number(tags)};
  for (std::int64_t& e : columns.entry)
    if (e >= static_cast<std::int64_t>(fixed_tables().tables()[0].entries)) e = -1;
  const std::vector<std::uint32_t>* const ways[] = {nullptr, &players};  // as text, as entries
  for (const std::vector<std::uint32_t>* given : ways) {
    const std::string again = encode_tags_section(tags, 0, given, derived_layout ? &rules : nullptr,
                                                 layout == kCodedTagsLayout || tables_allowed,
                                                 tables_allowed ? &columns : nullptr, unescaped_layout(layout),
                                                 given && layout == kNameEntriesLayout ? &names : nullptr);
    BlockTags back;
    if (!decode_tags_section(again, games, "fuzz", back, &table, layout).ok()) __builtin_trap();
    for (std::uint32_t g = 0; g < games; ++g)
      if (back.game(g) != tags[g]) __builtin_trap();
  }
  return 0;
}
