// Perft against published counts: the move generator is exactly right, or the format is wrong.
#include <cstdlib>
#include <vector>

#include "support/test_util.h"

namespace pgnarc {
namespace {

struct PerftCase {
  std::string name;
  std::string fen;
  Variant variant = Variant::kStandard;  // from the ";variant NAME" operation
  std::vector<std::pair<int, std::uint64_t>> depths;
};

std::vector<PerftCase> load(const std::string& file) {
  std::vector<PerftCase> cases;
  std::istringstream in(test::read_file(test::corpus_path("perft/" + file)));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    PerftCase c;
    c.name = file.substr(0, file.find('.')) + "_" + std::to_string(cases.size());
    c.fen = line.substr(0, line.find(" ;"));
    if (const auto at = line.find(";variant "); at != std::string::npos) {
      const std::string name = line.substr(at + 9, line.find(" ;", at + 1) - at - 9);
      if (!variant_from_name(name, c.variant)) ADD_FAILURE() << "unknown variant " << name;
    }
    for (auto pos = line.find(";D"); pos != std::string::npos; pos = line.find(";D", pos + 1)) {
      std::istringstream field(line.substr(pos + 2));
      int depth;
      std::uint64_t nodes;
      field >> depth >> nodes;
      c.depths.emplace_back(depth, nodes);
    }
    cases.push_back(c);
  }
  return cases;
}

// Depths whose published count exceeds this budget are skipped, so the suite runs in seconds
// (PGNARC_PERFT_MAX_NODES raises or lowers it, e.g. for sanitizer builds).
std::uint64_t node_budget() {
  const char* env = std::getenv("PGNARC_PERFT_MAX_NODES");
  return env ? std::strtoull(env, nullptr, 10) : 20'000'000;
}

// Names the case in test output instead of dumping its bytes.
void PrintTo(const PerftCase& c, std::ostream* os) { *os << c.fen; }

class Perft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(Perft, MatchesPublishedCounts) {
  const PerftCase& c = GetParam();
  auto pos = Position::from_fen(c.fen, false, c.variant);
  ASSERT_TRUE(pos.ok()) << pos.error().to_string();
  int checked = 0;
  for (auto [depth, nodes] : c.depths) {
    if (nodes > node_budget()) continue;
    EXPECT_EQ(pos->perft(depth), nodes) << c.fen << " depth " << depth;
    ++checked;
  }
  EXPECT_GE(checked, std::min<int>(3, static_cast<int>(c.depths.size()))) << "too few depths within the node budget for " << c.fen;
}

std::string case_name(const ::testing::TestParamInfo<PerftCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Standard, Perft, ::testing::ValuesIn(load("standard.epd")), case_name);
INSTANTIATE_TEST_SUITE_P(Chess960, Perft, ::testing::ValuesIn(load("chess960.epd")), case_name);
INSTANTIATE_TEST_SUITE_P(Variants, Perft, ::testing::ValuesIn(load("variants.epd")), case_name);

TEST(PerftFiles, LoadedEveryPosition) {
  EXPECT_EQ(load("standard.epd").size(), 7u);
  EXPECT_EQ(load("chess960.epd").size(), 29u);
  EXPECT_EQ(load("variants.epd").size(), 23u);
}

}  // namespace
}  // namespace pgnarc
