// The move model's tables in the specification's appendix (format-spec/move-model-tables.md), and
// the crazyhouse model's (format-spec/crazyhouse-model-tables.md), are the library's, number for
// number, so that the documents cannot drift from the code.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "codec/move_model.h"
#include "codec/variant_model.h"
#include "support/test_util.h"

namespace pgnarc::detail::model {
namespace {

// The integers of the ```text blocks under the heading `heading` (up to the next "## ").
std::vector<long> numbers_under(const std::string& doc, const std::string& heading) {
  std::vector<long> out;
  const std::size_t from = doc.find("\n" + heading + "\n");
  EXPECT_NE(from, std::string::npos) << heading;
  if (from == std::string::npos) return out;
  const std::size_t to = doc.find("\n## ", from + heading.size() + 2);
  const std::string part = doc.substr(from, to == std::string::npos ? std::string::npos : to - from);
  for (std::size_t at = part.find("```text\n"); at != std::string::npos; at = part.find("```text\n", at)) {
    at += 8;
    const std::size_t end = part.find("```", at);
    std::istringstream in(part.substr(at, end - at));
    for (long v; in >> v;) out.push_back(v);
    at = end + 3;
  }
  return out;
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

TEST(ModelTables, TheSpecificationListsTheLibrarysCrazyhouseTable) {
  const std::string doc =
      test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/crazyhouse-model-tables.md");
  EXPECT_NE(doc.find("K = " + std::to_string(zh::kFeatures) + " features."), std::string::npos);
  const std::vector<long> w = numbers_under(doc, "## W");
  ASSERT_EQ(w.size(), zh::kWeights.size());
  for (std::size_t k = 0; k < w.size(); ++k) EXPECT_EQ(w[k], zh::kWeights[k]) << "Z[" << k << "]";
  // Section 7.7 gives K and each group's offset and size, in the library's order.
  const std::string spec = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/pgnarc-format.md");
  const std::size_t from = spec.find("### 7.7 "), to = spec.find("\n## 8. ");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const std::string section = spec.substr(from, to - from);
  EXPECT_NE(section.find("K_Z = " + std::to_string(zh::kFeatures)), std::string::npos);
  const int offsets[] = {zh::kSquare, zh::kVictim,   zh::kSafety, zh::kFromSafety, zh::kCheck,    zh::kKingDistance,
                         zh::kEvasion, zh::kRecapture, zh::kFrom,   zh::kThreat,     zh::kKingZone, zh::kFeatures};
  std::size_t at = 0;
  for (std::size_t g = 0; g + 1 < std::size(offsets); ++g) {
    const std::string row = "\n| " + std::to_string(offsets[g]) + " | " + std::to_string(offsets[g + 1] - offsets[g]) + " | ";
    const std::size_t found = section.find(row, at);
    EXPECT_NE(found, std::string::npos) << "group at " << offsets[g];
    if (found != std::string::npos) at = found + row.size();
  }
}

}  // namespace
}  // namespace pgnarc::detail::model
