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

// Under a terminal (script(1) gives the program a pty), verify's bar ends complete (100%) and
// its summary starts a line of its own; info shows its progress too, and its figures come out
// whole on stdout.
TEST(CliProgressEnd, BarReachesTheEndAndTheSummaryItsOwnLine) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) not installed";
  const test::ScratchDir scratch("progress_end");
  const std::string& dir = scratch.path();
  const std::string one = test::read_file(test::corpus_path("pgn/twic_events.pgn"));
  std::string big;
  for (int i = 0; i < 20; ++i) big += one;
  std::ofstream(dir + "/big.pgn", std::ios::binary) << big;
  ASSERT_EQ(run_cli("pack -q --block-games 4 '" + dir + "/big.pgn' -o '" + dir + "/big.pga'").exit_code, 0);
  const auto under_tty = [&](const std::string& args, const std::string& out) {
    const std::string cmd = std::string("'") + PGNARC_CLI + "' " + args;
    EXPECT_EQ(std::system(("script -qec \"" + cmd + "\" /dev/null < /dev/null > '" + dir + "/" + out + "'").c_str()), 0);
    return test::read_file(dir + "/" + out);
  };
  const std::string v = under_tty("verify '" + dir + "/big.pga'", "verify.txt");
  const auto sound = v.find(dir + "/big.pga: sound: 1200 games");
  ASSERT_NE(sound, std::string::npos) << v;
  const std::string before = v.substr(0, sound);
  EXPECT_TRUE(before.ends_with("\n")) << "the summary starts a line: " << before.substr(before.size() > 120 ? before.size() - 120 : 0);
  EXPECT_NE(before.find("\rverifying [##############################] 100%"), std::string::npos) << before;
  const std::string i = under_tty("info '" + dir + "/big.pga'", "info.txt");
  EXPECT_NE(i.find("\rreading ["), std::string::npos) << i.substr(0, 200);
  EXPECT_NE(i.find("games:    1200 (0 kept verbatim)"), std::string::npos) << i;
  auto r = run_cli("info '" + dir + "/big.pga'");
  EXPECT_EQ(r.err, "") << "no progress when stderr is not a terminal";
  EXPECT_TRUE(r.out.starts_with("format:")) << r.out;
}

// info reads no game: it describes an archive whose one game header has a reserved bit (checksum
// right), which verify refuses.
TEST(CliInfo, DecodesNoGame) {
  const std::string pga = "'" + test::corpus_path("conformance/invalid/record_reserved_bit.pga") + "'";
  EXPECT_EQ(run_cli("verify " + pga).exit_code, 3);
  const auto r = run_cli("info --json " + pga);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(j["plies"], 3);
  EXPECT_EQ(j["verbatim_games"], 0);
}

}  // namespace
}  // namespace pgnarc
