// End-to-end: games kept verbatim are found and listed by their readable tags (format spec 8.5)
// and unpack still gives back their bytes; progress lines end cleanly; info decodes no game.
#include <filesystem>
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

// Every command that reads an archive takes - for standard input, a file or a pipe, and gives
// what it gives for the path.
TEST_F(CliVerbatim, ArchiveOnStandardInput) {
  const std::string pga = dir_ + "/zh.pga";
  for (const std::string args : {"unpack", "get * 2-3", "get * --list 1-", "find * --player zhang --count",
                                 "find * --player zhang --pgn", "info", "info --json", "verify"}) {
    const auto with = [&](const std::string& what) {
      std::string a = args;
      if (const auto star = a.find('*'); star != std::string::npos) a.replace(star, 1, what);
      else a += " " + what;
      return a;
    };
    const auto by_path = run_cli(with(p("zh.pga")));
    ASSERT_EQ(by_path.exit_code, 0) << args << by_path.err;
    const auto from_file = run_cli(with("-"), pga);
    EXPECT_EQ(from_file.exit_code, 0) << args << from_file.err;
    EXPECT_EQ(from_file.out, by_path.out) << args;
    const std::string piped = dir_ + "/piped.out";
    const int rc = std::system(("cat " + p("zh.pga") + " | '" + PGNARC_CLI + "' " + with("-") + " > '" + piped +
                                "' 2>/dev/null").c_str());
    EXPECT_EQ(rc, 0) << args;
    EXPECT_EQ(test::read_file(piped), by_path.out) << args << " from a pipe";
  }
  const auto v = run_cli("verify -", pga);
  EXPECT_NE(v.err.find("<stdin>: sound: 3 games"), std::string::npos) << v.err;
  const auto bad = run_cli("info -", dir_ + "/zh.pgn");
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.err.find("<stdin>: file header"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find("/proc/self"), std::string::npos) << bad.err;
}

// A PGN file where an archive is expected suggests pack; a damaged archive, unpack --salvage.
TEST_F(CliVerbatim, ErrorsSuggestTheWayOut) {
  for (const char* cmd : {"unpack", "get * 1", "find * --count", "info", "verify"}) {
    const auto with = [&](const std::string& what) {
      std::string a = cmd;
      if (const auto star = a.find('*'); star != std::string::npos) a.replace(star, 1, what);
      else a += " " + what;
      return a;
    };
    auto r = run_cli(with(p("zh.pgn")));
    EXPECT_EQ(r.exit_code, 3) << cmd;
    EXPECT_NE(r.err.find("looks like PGN, not an archive; to make one: pgnarc pack " + dir_ + "/zh.pgn\n"),
              std::string::npos)
        << cmd << r.err;
    std::string bytes = test::read_file(dir_ + "/zh.pga");
    bytes[100] = static_cast<char>(bytes[100] ^ 1);
    std::ofstream(dir_ + "/bad.pga", std::ios::binary) << bytes;
    r = run_cli(with(p("bad.pga")));
    EXPECT_EQ(r.exit_code, 3) << cmd;
    EXPECT_NE(r.err.find("pgnarc unpack --salvage " + dir_ + "/bad.pga -o OUT.pgn\n"), std::string::npos)
        << cmd << r.err;
  }
  auto r = run_cli("unpack --salvage " + p("bad.pga"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err.find("--salvage"), std::string::npos) << "salvage does not suggest itself: " << r.err;
  r = run_cli("unpack " + p("missing.pga"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.err.find("pgnarc unpack --salvage"), std::string::npos) << "a missing file is not damaged: " << r.err;
}

// Answers that say what is wrong: an empty FEN is a bad FEN, an archive cut short before its
// first block (or empty) is damaged for --salvage too, binary data is neither an archive nor PGN,
// and a share token is refused for what is actually wrong with it.
TEST_F(CliVerbatim, HonestAnswers) {
  for (const char* cmd : {"find", "tree"}) {
    const auto r = run_cli(std::string(cmd) + " " + p("zh.pga") + " --position ''");
    EXPECT_EQ(r.exit_code, 2) << cmd << r.out;
    EXPECT_NE(r.err.find("--position: bad FEN"), std::string::npos) << cmd << r.err;
    EXPECT_TRUE(r.out.empty()) << cmd;
  }
  const std::string bytes = test::read_file(dir_ + "/zh.pga");
  std::ofstream(dir_ + "/cut.pga", std::ios::binary) << bytes.substr(0, 100);
  std::ofstream(dir_ + "/empty.pga", std::ios::binary);
  for (const char* name : {"cut.pga", "empty.pga"}) {
    const auto r = run_cli("unpack --salvage " + p(name) + " -o " + p("salvaged.pgn") + " --force");
    EXPECT_EQ(r.exit_code, 3) << name << r.err;
    EXPECT_NE(r.err.find(dir_ + "/" + name), std::string::npos) << "says which file: " << r.err;
  }
  std::ofstream(dir_ + "/zeros.pga", std::ios::binary) << std::string(1 << 20, '\0');
  auto r = run_cli("info " + p("zeros.pga"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err.find("looks like PGN"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is not an archive, nor text (a NUL byte at offset 0)"), std::string::npos) << r.err;
  r = run_cli("share --open -");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is 1 characters, a length no base64url text has"), std::string::npos) << r.err;
  r = run_cli("share --open 'ab*d'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("holds '*' at character 3"), std::string::npos) << r.err;
}

// -o naming a directory is a usage error before any work, for every command that writes a file.
TEST_F(CliVerbatim, OutputDirectoryRefusedFirst) {
  for (const std::string args : {"pack --force " + p("zh.pgn") + " -o " + p(""),
                                 "merge --force " + p("zh.pga") + " --output " + p(""),
                                 "unpack " + p("zh.pga") + " -o " + p(""),
                                 "unpack --salvage " + p("zh.pga") + " --output=" + p("")}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 1) << args << r.err;
    EXPECT_NE(r.err.find("is a directory; give the name of the file to write"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  for (const auto& e : std::filesystem::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << "no temporary file was begun";
}

}  // namespace
}  // namespace pgnarc
