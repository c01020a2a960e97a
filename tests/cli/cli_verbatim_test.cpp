// End-to-end: games kept verbatim are found and listed by their readable tags (format spec 8.5)
// and unpack still gives back their bytes; progress lines end cleanly; info decodes no game.
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::run_cli;

class CliVerbatim : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.path();
    std::ofstream(dir_ + "/zh.pgn", std::ios::binary) << kPgn;
    ASSERT_EQ(run_cli("pack -q " + p("zh.pgn")).exit_code, 0);
  }
  std::string p(const std::string& name) const { return "'" + dir_ + "/" + name + "'"; }
  static constexpr const char* kPgn =
      "[Event \"Zh Arena\"]\n[Date \"2021.03.04\"]\n[White \"Zhang\"]\n[Black \"Hikaru\"]\n[Result \"1-0\"]\n"
      "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. N@e5 1-0\n\n"
      "[Event \"Zh Arena\"]\n[Date \"2021.03.05\"]\n[White \"Hikaru\"]\n[Black \"Zhang\"]\n[Result \"0-1\"]\n"
      "[Variant \"Crazyhouse\"]\n\n1. d4 d5 2. P@e5 0-1\n\n"
      "[Event \"Classical\"]\n[White \"Zhang\"]\n[Black \"Anand\"]\n[Result \"*\"]\n\n1. e4 *\n";
  test::ScratchDir scratch_{"cli_verbatim"};
  std::string dir_;
};

TEST_F(CliVerbatim, FindCountsVariantGamesByPlayer) {
  auto r = run_cli("find --count " + p("zh.pga") + " --player zhang");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "3\n");
  EXPECT_EQ(run_cli("find " + p("zh.pga") + " --player Zhang --exact --black Zhang").out, "2\n");
  EXPECT_EQ(run_cli("find --count " + p("zh.pga") + " --tag Variant=Crazyhouse").out, "2\n");
  EXPECT_EQ(run_cli("find " + p("zh.pga") + " --date-from 2021.03.05").out, "2\n");
  EXPECT_EQ(run_cli("get --list " + p("zh.pga") + " 1-2").out,
            "1\tZhang\tHikaru\t1-0\t2021.03.04\tZh Arena\n2\tHikaru\tZhang\t0-1\t2021.03.05\tZh Arena\n");
  // The tags are for the index only: unpack gives the games' bytes, once.
  r = run_cli("unpack " + p("zh.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string pgn = kPgn;
  EXPECT_EQ(r.out.substr(0, pgn.find("[Event \"Classical\"]")), pgn.substr(0, pgn.find("[Event \"Classical\"]")));
  EXPECT_EQ(run_cli("verify -q " + p("zh.pga")).exit_code, 0);
}

}  // namespace
}  // namespace pgnarc
