// The move model's tables in the specification's appendix (format-spec/move-model-tables.md), the
// crazyhouse model's (format-spec/crazyhouse-model-tables.md) and the Xiangqi model's
// (format-spec/xiangqi-model-tables.md) are the library's, number for number, and the feature
// groups of all four models (the fast model's too) are the library's
// tables of groups, name for name and offset for offset, in the appendices and in the
// specification's sections, so that the documents cannot drift from the code.
#include <gtest/gtest.h>

#include <array>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "codec/model/fast_model.h"
#include "codec/model/move_model.h"
#include "codec/model/variant_model.h"
#include "codec/model/xiangqi_model.h"
#include "codec/record/clock_model.h"
#include "support/test_util.h"

namespace pgnarc::codec::model {
namespace {

// The part of `doc` from the heading that starts with `heading` to the next heading of its level
// or above (`end`, e.g. "\n### " for a section "### 7.7").
std::string part_of(const std::string& doc, const std::string& heading, const std::string& end) {
  const std::size_t from = doc.find("\n" + heading);
  EXPECT_NE(from, std::string::npos) << heading;
  if (from == std::string::npos) return {};
  const std::size_t to = doc.find(end, from + heading.size() + 1);
  return doc.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

// The integers of the ```text blocks under the heading line `heading` (up to the next "## ").
std::vector<long> numbers_under(const std::string& doc, const std::string& heading) {
  std::vector<long> out;
  const std::string part = part_of(doc, heading + "\n", "\n## ");
  for (std::size_t at = part.find("```text\n"); at != std::string::npos; at = part.find("```text\n", at)) {
    at += 8;
    const std::size_t end = part.find("```", at);
    std::istringstream in(part.substr(at, end - at));
    for (long v; in >> v;) out.push_back(v);
    at = end + 3;
  }
  return out;
}

std::string spec_text() {
  return test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/pgnarc-format.md");
}

// The cells of each row ("| a | b |") of the tables of `text` whose header row's first cell is
// `first`, but the header and rule rows.
std::vector<std::vector<std::string>> table_rows(const std::string& text, const std::string& first) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  bool in_table = false, taken = false;
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 2 || line[0] != '|') {
      in_table = false;
      continue;
    }
    if (line.find("---") != std::string::npos) continue;
    std::vector<std::string> cells;
    for (std::size_t at = 1; at < line.size();) {
      const std::size_t bar = line.find(" |", at);
      if (bar == std::string::npos) break;
      std::string cell = line.substr(at, bar - at);
      cell.erase(0, cell.find_first_not_of(' '));
      cells.push_back(cell);
      at = bar + 2;
    }
    if (!in_table) {  // a header row
      in_table = true;
      taken = !cells.empty() && cells[0] == first;
      continue;
    }
    if (taken) rows.push_back(cells);
  }
  return rows;
}

// The appendix's table of groups ("| offset | size | group [index] |") is the library's table.
void expect_appendix_groups(const std::string& appendix, std::span<const FeatureGroup> groups) {
  const std::string doc = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/" + appendix);
  const auto rows = table_rows(part_of(doc, "## Groups", "\n## "), "offset");
  ASSERT_EQ(rows.size(), groups.size()) << appendix;
  int at = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::vector<std::string> want = {std::to_string(at), std::to_string(groups[g].size), appendix_label(groups[g])};
    EXPECT_EQ(rows[g], want) << appendix << ": group " << g;
    at += groups[g].size;
  }
}

TEST(ModelTables, TheAppendicesListTheLibrarysGroups) {
  expect_appendix_groups("move-model-tables.md", kGroups);
  expect_appendix_groups("crazyhouse-model-tables.md", zh::kGroups);
  expect_appendix_groups("fast-model-tables.md", fast::kGroups);
  expect_appendix_groups("xiangqi-model-tables.md", xq::kGroups);
}

// Section 7.6.5 names the move model's groups with their offsets in its tables (castling in its
// text): each row names a group of the library's at the library's offset, and every group of the
// library is named there.
TEST(ModelTables, TheSpecificationNamesTheMoveModelsGroups) {
  const std::string section = part_of(spec_text(), "#### 7.6.5 ", "\n#### ");
  std::vector<bool> named(std::size(kGroups));
  for (const auto& row : table_rows(section, "group")) {
    int at = 0;
    std::size_t g = 0;
    while (g < std::size(kGroups) && kGroups[g].name != row[0]) at += kGroups[g++].size;
    ASSERT_LT(g, std::size(kGroups)) << "7.6.5 names a group the library does not have: " << row[0];
    EXPECT_EQ(row[1], std::to_string(at)) << row[0];
    named[g] = true;
  }
  const std::string castling = "castling (offset " + std::to_string(kCastling) + ")";
  EXPECT_NE(section.find(castling), std::string::npos) << castling;
  for (std::size_t g = 0; g < named.size(); ++g) named[g] = named[g] || kGroups[g].name == "castling";
  for (std::size_t g = 0; g < named.size(); ++g) EXPECT_TRUE(named[g]) << "7.6.5 does not name " << kGroups[g].name;
}

// Section 7.8.3's table gives the fast model's groups, name, offset and size, in the library's order.
TEST(ModelTables, TheSpecificationListsTheFastModelsGroups) {
  const std::string section = part_of(spec_text(), "#### 7.8.3 ", "\n#### ");
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : table_rows(section, "group"))
    if (row.size() >= 3) rows.push_back(row);
  ASSERT_EQ(rows.size(), std::size(fast::kGroups));
  int at = 0;
  for (std::size_t g = 0; g < rows.size(); ++g) {
    EXPECT_EQ(rows[g][0], fast::kGroups[g].name);
    EXPECT_EQ(rows[g][1], std::to_string(at)) << rows[g][0];
    EXPECT_EQ(rows[g][2], std::to_string(fast::kGroups[g].size)) << rows[g][0];
    at += fast::kGroups[g].size;
  }
}

TEST(ModelTables, TheSpecificationListsTheLibrarysTables) {
  const std::string doc = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/move-model-tables.md");
  EXPECT_NE(doc.find("K = " + std::to_string(kFeatures) + " features."), std::string::npos);
  const std::vector<long> w = numbers_under(doc, "## W");
  ASSERT_EQ(w.size(), kWeights.size());
  for (std::size_t k = 0; k < w.size(); ++k) EXPECT_EQ(w[k], kWeights[k]) << "W[" << k << "]";
  const std::vector<long> h = numbers_under(doc, "## H");
  ASSERT_EQ(h.size(), kEndHazard.size());
  for (std::size_t k = 0; k < h.size(); ++k) {
    EXPECT_EQ(h[k], static_cast<long>(kEndHazard[k])) << "H[" << k << "]";
    EXPECT_GE(h[k], 1);
    EXPECT_LE(h[k], static_cast<long>(kMaxEndHazard));
  }
}

// A variant's model: its appendix lists its table W (the library's `weights`, named `name` in
// the spec) and the spec's section `heading` gives K (as "K_<name> = K") and each group's offset
// and size, in the library's order.
template <std::size_t K>
void expect_variant_table(const std::string& appendix, const std::array<std::int8_t, K>& weights,
                          std::span<const FeatureGroup> groups, const std::string& heading, const std::string& name) {
  const std::string doc = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/" + appendix);
  EXPECT_NE(doc.find("K = " + std::to_string(K) + " features."), std::string::npos);
  const std::vector<long> w = numbers_under(doc, "## W");
  ASSERT_EQ(w.size(), K);
  for (std::size_t k = 0; k < w.size(); ++k) EXPECT_EQ(w[k], weights[k]) << name << "[" << k << "]";
  const std::string section = part_of(spec_text(), heading, "\n## ");
  ASSERT_FALSE(section.empty());
  EXPECT_NE(section.find("K_" + name + " = " + std::to_string(K)), std::string::npos);
  std::size_t at = 0;
  int offset = 0;
  for (const FeatureGroup& g : groups) {
    const std::string row = "\n| " + std::to_string(offset) + " | " + std::to_string(g.size) + " | ";
    const std::size_t found = section.find(row, at);
    EXPECT_NE(found, std::string::npos) << "group " << g.name << " at " << offset;
    if (found != std::string::npos) at = found + row.size();
    offset += g.size;
  }
}

TEST(ModelTables, TheSpecificationListsTheLibrarysCrazyhouseTable) {
  expect_variant_table("crazyhouse-model-tables.md", zh::kWeights, zh::kGroups, "### 7.7 ", "Z");
}

TEST(ModelTables, TheSpecificationListsTheLibrarysXiangqiTable) {
  expect_variant_table("xiangqi-model-tables.md", xq::kWeights, xq::kGroups, "### 7.9 ", "X");
  // 7.9 gives the most features a move has.
  const std::string section = part_of(spec_text(), "### 7.9 ", "\n## ");
  EXPECT_NE(section.find("at most " + std::to_string(xq::kMaxMoveFeatures) + " features"), std::string::npos);
}

// The clock model's appendix (format-spec/clock-model-tables.md) lists the library's tables: each
// row's frequencies, whose running sums are the library's cumulative rows.
TEST(ModelTables, TheSpecificationListsTheLibrarysClockTables) {
  const std::string doc = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/clock-model-tables.md");
  const auto expect_rows = [](const std::vector<long>& listed, const std::uint32_t* rows, int count, int symbols,
                              const char* name) {
    ASSERT_EQ(listed.size(), static_cast<std::size_t>(count * symbols)) << name;
    for (int r = 0; r < count; ++r) {
      const std::uint32_t* row = rows + r * (symbols + 1);
      for (int s = 0; s < symbols; ++s)
        EXPECT_EQ(listed[static_cast<std::size_t>(r * symbols + s)], static_cast<long>(row[s + 1] - row[s]))
            << name << " row " << r << " symbol " << s;
    }
  };
  expect_rows(numbers_under(doc, "## Times"), &kTimeTable[0][0], kTimeContexts, kTimeSymbols, "times");
  expect_rows(numbers_under(doc, "## Evaluations"), &kEvalTable[0][0], kEvalContexts, kEvalSymbols, "evaluations");
  expect_rows(numbers_under(doc, "## Mates"), kMateTable, 1, kChangeSymbols, "mates");
}

}  // namespace
}  // namespace pgnarc::codec::model
