// End-to-end: the pgnarc binary on small files, every subcommand and exit code, and pipes.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>  // header-only, on the system include path (tools/deps.sh installs it)

#include "cli/cli_util.h"
#include "pgnarc/version.h"

namespace pgnarc {
namespace {

using test::run_cli;

class CliArchive : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.path();
    pgn_ = dir_ + "/games.pgn";
    std::ofstream(pgn_, std::ios::binary) << test::read_file(test::corpus_path("pgn/twic_events.pgn"))
                                          << "\n\n[Event \"bad\"]\n\n1. e4 Ke3 *\n";
  }
  std::string p(const std::string& name) const { return "'" + dir_ + "/" + name + "'"; }
  // The read version `info --json` gives of the archive `name` in the scratch directory.
  std::string read_version(const std::string& name) const {
    return nlohmann::ordered_json::parse(run_cli("info --json " + p(name)).out)["read_version"].get<std::string>();
  }
  test::ScratchDir scratch_{"cli"};
  std::string dir_, pgn_;
};

TEST_F(CliArchive, PackUnpackRoundTrip) {
  auto r = run_cli("pack '" + pgn_ + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("61 games (1 kept verbatim)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("game 61 kept verbatim"), std::string::npos) << r.err;
  EXPECT_NE(test::read_file(dir_ + "/games.pga.log").find("illegal move \"Ke3\""), std::string::npos);
  auto u = run_cli("unpack " + p("games.pga"));
  ASSERT_EQ(u.exit_code, 0) << u.err;
  EXPECT_TRUE(u.out.starts_with("[Event \"4th London Chess Classic\"]\n"));
  EXPECT_TRUE(u.out.ends_with("[Event \"bad\"]\n\n1. e4 Ke3 *\n\n")) << "the bad game comes back byte for byte";
  // unpack -o writes the same bytes; packing the output again and unpacking is stable.
  ASSERT_EQ(run_cli("unpack " + p("games.pga") + " -o " + p("out.pgn")).exit_code, 0);
  EXPECT_EQ(test::read_file(dir_ + "/out.pgn"), u.out);
  // The same bytes on one thread as on all cores.
  auto one = run_cli("unpack --threads 1 " + p("games.pga"));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, u.out);
  ASSERT_EQ(run_cli("pack -q " + p("out.pgn") + " -o " + p("again.pga")).exit_code, 0);
  EXPECT_EQ(run_cli("unpack " + p("again.pga")).out, u.out);
}

TEST_F(CliArchive, PackFromStdinAndCompressedInput) {
  ASSERT_EQ(std::system(("gzip -c '" + pgn_ + "' > " + p("games.pgn.gz")).c_str()), 0);
  ASSERT_EQ(run_cli("pack -q " + p("games.pgn.gz")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q - -o " + p("stdin.pga"), pgn_).exit_code, 0);
  const std::string a = run_cli("unpack " + p("games.pga")).out, b = run_cli("unpack " + p("stdin.pga")).out;
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_EQ(run_cli("pack -q -").exit_code, 1) << "stdin needs -o";
}

TEST_F(CliArchive, GetPrintsGamesAsUnpackDoes) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  const std::string all = run_cli("unpack " + p("games.pga")).out;
  std::vector<std::string> games;  // split the full output at game starts
  std::size_t pos = 0;
  while (pos < all.size()) {
    std::size_t next = all.find("\n\n[Event ", pos);
    next = next == std::string::npos ? all.size() : next + 2;
    games.push_back(all.substr(pos, next - pos));
    pos = next;
  }
  ASSERT_EQ(games.size(), 61u);
  EXPECT_EQ(run_cli("get " + p("games.pga") + " 1").out, games[0]);
  test::CliResult r;
  EXPECT_EQ(run_cli("get " + p("games.pga") + " 3-5 61").out, games[2] + games[3] + games[4] + games[60]);
  EXPECT_EQ(run_cli("get " + p("games.pga") + " 60-").out, games[59] + games[60]) << "N- runs to the last game";
  r = run_cli("get " + p("games.pga") + " 62-");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no game 62"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("get " + p("games.pga") + " -3").exit_code, 1);
  r = run_cli("get " + p("games.pga") + " 62");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no game 62"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("get " + p("games.pga") + " 0").exit_code, 1);
  EXPECT_EQ(run_cli("get " + p("games.pga") + " x").exit_code, 1);
}

TEST_F(CliArchive, FindCountNumbersPgn) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  auto r = run_cli("find " + p("games.pga") + " --player carlsen");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("1\n")) << r.out;
  const std::string count = run_cli("find " + p("games.pga") + " --player carlsen --count").out;
  EXPECT_EQ(count, std::to_string(std::count(r.out.begin(), r.out.end(), '\n')) + "\n");
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --white Carlsen,M --exact --result 1-0 --count").out, "2\n");  // counted with grep on the sample
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --tag Round=4.1 --pgn").out, run_cli("get " + p("games.pga") + " 1").out);
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --result 2-0").exit_code, 1);
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --tag nokey").exit_code, 1);
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --date-from 2030 --count").out, "0\n");
  r = run_cli("find " + p("games.pga") + " --date-from 20xx --count");
  EXPECT_EQ(r.exit_code, 1) << "a typo is not 'any date'";
  EXPECT_NE(r.err.find("--date-from '20xx' is not YYYY, YYYY.MM or YYYY.MM.DD"), std::string::npos) << r.err;
  const auto dashes = run_cli("find " + p("games.pga") + " --date-from 2012-12-05 --count");
  const auto dots = run_cli("find " + p("games.pga") + " --date-from 2012.12.05 --count");
  EXPECT_EQ(dashes.exit_code, 0) << dashes.err;
  EXPECT_EQ(dashes.out, dots.out);
  EXPECT_NE(dots.out, "0\n");
}

// --min-elo and --max-elo bound the ratings --elo-of names (both players' by default); a rating
// that is missing, "?" or not a number matches no bound; a bad value is a usage error (exit 1).
TEST_F(CliArchive, FindByRating) {
  std::ofstream(dir_ + "/rated.pgn", std::ios::binary)
      << "[White \"a\"]\n[Black \"b\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2600\"]\n\n1. e4 *\n\n"
      << "[White \"c\"]\n[Black \"d\"]\n[WhiteElo \"2500\"]\n[BlackElo \"2800\"]\n\n1. e4 *\n\n"
      << "[White \"e\"]\n[Black \"f\"]\n[WhiteElo \"?\"]\n[BlackElo \"2650\"]\n\n1. e4 *\n\n"
      << "[White \"g\"]\n[Black \"h\"]\n[WhiteElo \"2400\"]\n\n1. e4 *\n";
  ASSERT_EQ(run_cli("pack -q " + p("rated.pgn")).exit_code, 0);
  const std::string find = "find " + p("rated.pga") + " ";
  const std::pair<std::string, std::string> cases[] = {
      {"--min-elo 2600", "1\n"},
      {"--min-elo 2600 --elo-of both", "1\n"},
      {"--min-elo 2600 --elo-of either", "1\n2\n3\n"},
      {"--min-elo 2600 --elo-of white", "1\n"},
      {"--min-elo 2600 --elo-of black", "1\n2\n3\n"},
      {"--max-elo 2500 --elo-of white", "2\n4\n"},
      {"--max-elo 2500", ""},
      {"--min-elo 2500 --max-elo 2700 --elo-of=white", "1\n2\n"},
      {"--min-elo 2650 --max-elo 2650 --elo-of black", "3\n"},
      {"--min-elo 0 --elo-of white --count", "3\n"},
  };
  for (const auto& [args, want] : cases) {
    const auto r = run_cli(find + args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    EXPECT_EQ(r.out, want) << args;
  }
  const std::pair<std::string, std::string> errors[] = {
      {"--min-elo x", "pgnarc: --min-elo takes a number from 0 to 9999\n"},
      {"--max-elo -5", "pgnarc: --max-elo takes a number from 0 to 9999\n"},
      {"--max-elo 10000", "pgnarc: --max-elo takes a number from 0 to 9999\n"},
      {"--min-elo 2800 --max-elo 2700", "pgnarc: --min-elo 2800 is above max-elo 2700: no rating lies between them\n"},
      {"--min-elo 2000 --elo-of nobody", "pgnarc: --elo-of takes both, either, white or black, not 'nobody'\n"},
      {"--elo-of white", "pgnarc: --elo-of says whose rating --min-elo and --max-elo bound: give one of them too\n"},
      {"--min-elo 2000 --min-elo 2100", "pgnarc: --min-elo given twice;"},
      {"--max-elo 1 --elo-of white --elo-of black", "pgnarc: --elo-of given twice;"},
  };
  for (const auto& [args, message] : errors) {
    const auto r = run_cli(find + args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_TRUE(r.err.starts_with(message)) << args << "\n" << r.err;
    EXPECT_TRUE(r.err.ends_with("Try 'pgnarc find --help'.\n")) << args << "\n" << r.err;
  }
}

// --list: one line per game from its tags (number, White, Black, Result, Date, Event), the same
// lines from get and find; each line's values are the game's own tags; a verbatim game (no
// tags coded) has empty fields.
TEST_F(CliArchive, ListLinesFromTags) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  const std::string listed = run_cli("get " + p("games.pga") + " 1-61 --list").out;
  ASSERT_EQ(std::count(listed.begin(), listed.end(), '\n'), 61);
  const std::string first = listed.substr(0, listed.find('\n') + 1);
  const std::string pgn = run_cli("get " + p("games.pga") + " 1").out;
  auto tag = [&](const std::string& key) {
    const auto at = pgn.find("[" + key + " \"");
    return at == std::string::npos ? std::string() : pgn.substr(at + key.size() + 3, pgn.find("\"]", at) - at - key.size() - 3);
  };
  EXPECT_EQ(first, "1\t" + tag("White") + "\t" + tag("Black") + "\t" + tag("Result") + "\t" + tag("Date") + "\t" +
                       tag("Event") + "\n");
  EXPECT_TRUE(listed.ends_with("61\t\t\t\t\tbad\n")) << "the verbatim game, by its readable tags: " << listed.substr(listed.rfind('\n', listed.size() - 2));
  // find --list lists exactly the games find numbers, with get's lines.
  const std::string numbers = run_cli("find " + p("games.pga") + " --player carlsen").out;
  const std::string found = run_cli("find " + p("games.pga") + " --player carlsen --list").out;
  std::string expected;
  std::istringstream in(numbers);
  for (std::string n; std::getline(in, n);) expected += run_cli("get " + p("games.pga") + " " + n + " --list").out;
  EXPECT_EQ(found, expected);
  EXPECT_NE(found.find("Carlsen"), std::string::npos);
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --player carlsen --list --count").exit_code, 1);
}

TEST_F(CliArchive, AppendAndMerge) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "' -o " + p("a.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "' -o " + p("b.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("merge -q -o " + p("m.pga") + " " + p("a.pga") + " " + p("b.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("append -q " + p("a.pga") + " '" + pgn_ + "'").exit_code, 0);
  const std::string one = run_cli("unpack " + p("b.pga")).out;
  EXPECT_EQ(run_cli("unpack " + p("m.pga")).out, one + one);
  EXPECT_EQ(run_cli("unpack " + p("a.pga")).out, one + one);
  EXPECT_EQ(run_cli("merge -o " + p("m.pga") + " " + p("a.pga")).exit_code, 1) << "refuses to overwrite";
}

// Append codes its games as the archive's blocks are coded (the move coder of most of them,
// position filters where all have them) unless told otherwise.
TEST_F(CliArchive, AppendKeepsTheArchiveSettings) {
  ASSERT_EQ(run_cli("pack -q --moves uniform --position-filter --block-games 8 '" + pgn_ + "' -o " + p("a.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("append -q " + p("a.pga") + " '" + pgn_ + "'").exit_code, 0);
  auto j = nlohmann::ordered_json::parse(run_cli("info --json " + p("a.pga")).out);
  EXPECT_EQ(j["blocks"], 9);
  EXPECT_EQ(j["position_filter_blocks"], 9);
  EXPECT_EQ(j["move_coder_blocks"]["uniform"], 9);
  ASSERT_EQ(run_cli("append -q --moves fast " + p("a.pga") + " '" + pgn_ + "'").exit_code, 0);
  j = nlohmann::ordered_json::parse(run_cli("info --json " + p("a.pga")).out);
  EXPECT_EQ(j["move_coder_blocks"]["fast"], 1) << "--moves given: the new block's own";
  EXPECT_EQ(j["position_filter_blocks"], 10);
  EXPECT_EQ(run_cli("find --count " + p("a.pga")).out, "183\n");
}

// pack models clock tracks (format 1.3) unless --clocks bytes; append keeps the archive's coding
// where --clocks is not given (the model only where the archive needs a reader of 1.3 already),
// so that it does not raise what reads the archive; the games come back the same either way.
TEST_F(CliArchive, ClocksModelledOrBytesAndAppendKeepsThem) {
  const std::string lichess = test::corpus_path("pgn/lichess_2021-10_clk_eval.pgn");
  // (Tags as text: the read versions are the clocks'.)
  ASSERT_EQ(run_cli("pack -q --tags text '" + lichess + "' -o " + p("model.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --tags text --clocks bytes '" + lichess + "' -o " + p("bytes.pga")).exit_code, 0);
  EXPECT_EQ(read_version("model.pga"), "1.3");
  EXPECT_EQ(read_version("bytes.pga"), "1.2");
  const auto info = [&](const std::string& a) { return nlohmann::ordered_json::parse(run_cli("info --json " + p(a)).out); };
  EXPECT_EQ(info("model.pga")["clock_model_blocks"], info("model.pga")["blocks"]);
  EXPECT_EQ(info("bytes.pga")["clock_model_blocks"], 0);
  EXPECT_EQ(run_cli("unpack " + p("model.pga")).out, run_cli("unpack " + p("bytes.pga")).out);
  ASSERT_EQ(run_cli("append -q " + p("bytes.pga") + " '" + lichess + "'").exit_code, 0);
  EXPECT_EQ(read_version("bytes.pga"), "1.2") << "append keeps the bytes of a 1.2 archive";
  ASSERT_EQ(run_cli("append -q " + p("model.pga") + " '" + lichess + "'").exit_code, 0);
  EXPECT_EQ(read_version("model.pga"), "1.3");
  EXPECT_EQ(run_cli("unpack " + p("model.pga")).out, run_cli("unpack " + p("bytes.pga")).out);
  ASSERT_EQ(run_cli("append -q --clocks model " + p("bytes.pga") + " '" + lichess + "'").exit_code, 0);
  EXPECT_EQ(read_version("bytes.pga"), "1.3") << "--clocks given: the new blocks' own";
  EXPECT_EQ(run_cli("pack -q --clocks zstd '" + lichess + "' -o " + p("x.pga")).exit_code, 1) << "a usage error";
}

// pack codes typed tag columns (format 1.5) unless --tags derive (1.4) or text; append keeps
// the archive's tag coding where --tags is not given; the games come back the same every way.
TEST_F(CliArchive, TagsCodedDerivedOrTextAndAppendKeepsThem) {
  const std::string lichess = test::corpus_path("pgn/lichess_2021-10_clk_eval.pgn");
  ASSERT_EQ(run_cli("pack -q '" + lichess + "' -o " + p("coded.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --tags derive '" + lichess + "' -o " + p("derive.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --tags text '" + lichess + "' -o " + p("text.pga")).exit_code, 0);
  EXPECT_EQ(read_version("coded.pga"), "1.5");
  EXPECT_EQ(read_version("derive.pga"), "1.3") << "no derived or named column in these games: the clocks' 1.3";
  EXPECT_EQ(read_version("text.pga"), "1.3");
  const std::string games = run_cli("unpack " + p("text.pga")).out;
  EXPECT_EQ(run_cli("unpack " + p("coded.pga")).out, games);
  EXPECT_EQ(run_cli("unpack " + p("derive.pga")).out, games);
  ASSERT_EQ(run_cli("append -q " + p("derive.pga") + " '" + lichess + "'").exit_code, 0);
  EXPECT_EQ(read_version("derive.pga"), "1.3") << "append keeps the tags of a 1.3 archive";
  ASSERT_EQ(run_cli("append -q " + p("coded.pga") + " '" + lichess + "'").exit_code, 0);
  EXPECT_EQ(read_version("coded.pga"), "1.5");
  EXPECT_EQ(run_cli("unpack " + p("coded.pga")).out, run_cli("unpack " + p("derive.pga")).out);
  EXPECT_EQ(run_cli("pack -q --tags zstd '" + lichess + "' -o " + p("x.pga")).exit_code, 1) << "a usage error";
}

// pack stores an opening's tags in a value table (format 1.6) where that is smaller, unless
// --tags coded (1.5); append keeps the table and adds the new games' openings to it.
TEST_F(CliArchive, TagsInAValueTableAndAppendKeepsIt) {
  std::string pgn;
  for (std::int64_t g = 0; g < 3000; ++g) {
    const std::int64_t o = (g * g * 7919 + g * 104729) % 2003 % 300;  // a scatter of 300 openings
    pgn += "[White \"p" + std::to_string(g) + "\"]\n[ECO \"C" + std::to_string(o % 100) + "\"]\n[Opening \"Opening " +
           std::to_string(o) + ": the variation of its year\"]\n\n1. e4 e5 *\n\n";
  }
  std::ofstream(dir_ + "/openings.pgn") << pgn;
  ASSERT_EQ(run_cli("pack -q " + p("openings.pgn") + " -o " + p("tables.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --tags coded " + p("openings.pgn") + " -o " + p("coded.pga")).exit_code, 0);
  EXPECT_EQ(read_version("tables.pga"), "1.6");
  EXPECT_NE(read_version("coded.pga"), "1.6");
  EXPECT_LT(test::read_file(dir_ + "/tables.pga").size(), test::read_file(dir_ + "/coded.pga").size());
  EXPECT_EQ(run_cli("unpack " + p("tables.pga")).out, run_cli("unpack " + p("coded.pga")).out);
  ASSERT_EQ(run_cli("append -q " + p("tables.pga") + " '" + test::corpus_path("pgn/twic_events.pgn") + "'").exit_code, 0);
  ASSERT_EQ(run_cli("append -q " + p("coded.pga") + " '" + test::corpus_path("pgn/twic_events.pgn") + "'").exit_code, 0);
  EXPECT_EQ(read_version("tables.pga"), "1.6");
  EXPECT_NE(read_version("coded.pga"), "1.6") << "append keeps an archive without a table so";
  EXPECT_EQ(run_cli("unpack " + p("tables.pga")).out, run_cli("unpack " + p("coded.pga")).out);
  EXPECT_EQ(run_cli("verify " + p("tables.pga")).exit_code, 0);
}

TEST_F(CliArchive, InfoAndVerify) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  auto r = run_cli("info " + p("games.pga"));
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("games:    61 (1 kept verbatim)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bits per ply"), std::string::npos);
  r = run_cli("info " + p("games.pga") + " --json");
  EXPECT_EQ(std::string(PGNARC_FORMAT_VERSION_STRING), "1.15");
  // The fast model (the default) and no clock tracks: a reader of 1.2.
  EXPECT_TRUE(r.out.starts_with("{\"write_version\": \"1.2\", \"read_version\": \"1.2\",")) << r.out;
  EXPECT_NE(r.out.find("\"games\": 61"), std::string::npos);
  for (const char* threads : {"", " --threads 1", " --threads 3"}) {
    r = run_cli("verify " + p("games.pga") + threads);
    EXPECT_EQ(r.exit_code, 0) << threads;
    EXPECT_NE(r.err.find("sound: 61 games"), std::string::npos) << threads << r.err;
  }
}

// info --json is one JSON object holding every figure of info, under the same names since the
// first version, and agrees with the text.
TEST_F(CliArchive, InfoJsonKeys) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  const auto r = run_cli("info --json " + p("games.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::ordered_json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "write_version", "read_version", "file_bytes", "games", "verbatim_games",
                      "blocks", "plies", "index_bytes", "block_overhead_bytes", "dictionaries",
                      "dictionary_bytes", "dictionary_blocks", "name_chunks", "name_bytes",
                      "table_chunks", "table_bytes", "moves_bits_per_ply", "position_filter_blocks",
                      "position_filter_bytes", "sections", "move_coder_blocks", "clock_model_blocks",
                      "value_table_entries", "value_table_bytes", "value_table_blocks"}));
  EXPECT_EQ(j["move_coder_blocks"], nlohmann::ordered_json::parse(R"({"fast": 1, "max": 0, "uniform": 0})"));
  EXPECT_EQ(j["games"], 61);
  EXPECT_EQ(j["verbatim_games"], 1);
  EXPECT_EQ(j["file_bytes"], test::read_file(dir_ + "/games.pga").size());
  std::vector<std::string> sections;
  for (const auto& [name, figures] : j["sections"].items()) {
    sections.push_back(name);
    for (const char* k : {"stored", "raw", "framed_blocks", "column_blocks", "dictionary_blocks"})
      EXPECT_TRUE(figures.contains(k)) << name << k;
  }
  EXPECT_EQ(sections, (std::vector<std::string>{"tags", "moves", "structure", "texts", "raw"}));
  const std::string text = run_cli("info " + p("games.pga")).out;
  EXPECT_NE(text.find("plies:    " + std::to_string(j["plies"].get<std::uint64_t>()) + "\n"),
            std::string::npos);
  char moves[64];
  std::snprintf(moves, sizeof moves, "moves              %llu",
                (unsigned long long)j["sections"]["moves"]["stored"].get<std::uint64_t>());
  EXPECT_NE(text.find(moves), std::string::npos) << text;
}

// Comments above 64 KiB in a block are framed by group unless --frame-kib 0 says otherwise;
// info says where; both archives unpack to the same PGN. (Line comments: brace comments with
// numbers would be records, their numbers in the move codeword.)
TEST_F(CliArchive, FrameKibFramesLargeComments) {
  std::string pgn;
  for (int g = 0; g < 40; ++g) {
    pgn += "[Event \"long comments\"]\n[Round \"" + std::to_string(g + 1) + "\"]\n\n";
    const char* moves[] = {"1. Nf3", "Nf6", "2. Ng1", "Ng8"};
    for (int m = 0; m < 40; ++m) {
      pgn += std::string(m % 4 == 0 && m ? "1. " : "") + (m % 4 == 0 ? "Nf3" : moves[m % 4]) + " ;";
      for (int w = 0; w < 12; ++w) pgn += "d=" + std::to_string((g * 131 + m * 17 + w * 7) % 97) + " ";
      pgn += "\n";
    }
    pgn += "*\n\n";
  }
  {
    std::ofstream(dir_ + "/long.pgn") << pgn;
  }
  ASSERT_EQ(run_cli("pack -q " + p("long.pgn") + " -o " + p("framed.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --frame-kib 0 " + p("long.pgn") + " -o " + p("whole.pga")).exit_code, 0);
  auto framed = run_cli("info " + p("framed.pga"));
  EXPECT_NE(framed.out.find("texts (comments): one zstd frame per group of games in 1 of 1 blocks"), std::string::npos)
      << framed.out;
  EXPECT_EQ(run_cli("info " + p("whole.pga")).out.find("one zstd frame per group"), std::string::npos);
  const std::string json = run_cli("info --json " + p("framed.pga")).out;
  EXPECT_NE(json.find("\"texts\": {\"stored\""), std::string::npos);
  EXPECT_NE(json.find("\"column_blocks\": "), std::string::npos) << json;
  const std::string unpacked = run_cli("unpack " + p("framed.pga")).out;
  EXPECT_EQ(unpacked, run_cli("unpack " + p("whole.pga")).out);
  EXPECT_NE(unpacked.find("d=0 d=7"), std::string::npos) << "the comments came back";
  EXPECT_EQ(run_cli("pack -q --frame-kib x " + p("long.pgn") + " -o " + p("bad.pga")).exit_code, 1);
}

// --text-level: the comments kept as text compress at their own zstd level (15 by default),
// smaller than at level 1; both archives unpack alike.
TEST_F(CliArchive, TextLevelCompressesComments) {
  const std::string input = "'" + test::corpus_path("pgn/annotated_human.pgn") + "'";
  ASSERT_EQ(run_cli("pack -q " + input + " -o " + p("default.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --text-level=1 " + input + " -o " + p("1.pga")).exit_code, 0);
  const auto texts = [&](const std::string& name) {
    const auto j = nlohmann::json::parse(run_cli("info --json " + p(name)).out);
    return j["sections"]["texts"]["stored"].get<std::uint64_t>();
  };
  EXPECT_LT(texts("default.pga") * 20, texts("1.pga") * 19) << "at least 5% smaller";
  EXPECT_EQ(run_cli("unpack " + p("default.pga")).out, run_cli("unpack " + p("1.pga")).out);
  EXPECT_EQ(run_cli("pack -q --text-level 20 " + input + " -o " + p("x.pga")).exit_code, 1);
}

// --dict-kib: the default trains a tag dictionary on enough tags, info reports it, 0 turns it
// off, and both archives unpack alike.
TEST_F(CliArchive, DictKibTrainsATagDictionary) {
  const std::string input = "'" + test::corpus_path("conformance/valid/tag_dictionary.pgn") + "'";
  ASSERT_EQ(run_cli("pack -q --block-games 50 " + input + " -o " + p("dict.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --block-games 50 --dict-kib 0 " + input + " -o " + p("plain.pga")).exit_code, 0);
  auto with = run_cli("info " + p("dict.pga"));
  EXPECT_NE(with.out.find("\ndictionary "), std::string::npos) << with.out;
  EXPECT_NE(with.out.find("tags: compressed with the archive's tag dictionary in 8 of 8 blocks"), std::string::npos)
      << with.out;
  EXPECT_EQ(run_cli("info " + p("plain.pga")).out.find("dictionary"), std::string::npos);
  // The whole JSON object, however long its numbers (a fixed-size buffer once cut it short).
  const std::string json = run_cli("info --json " + p("dict.pga")).out;
  EXPECT_NE(json.find("\"dictionaries\": 1, \"dictionary_bytes\": "), std::string::npos) << json;
  // Name chunks: one of players, one of events (the Sites are web addresses, in no table).
  EXPECT_NE(json.find("\"dictionary_blocks\": 8, \"name_chunks\": 2, \"name_bytes\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"sections\": {\"tags\": {\"stored\": "), std::string::npos) << json;
  EXPECT_NE(json.find(", \"clock_model_blocks\": 0, \"value_table_entries\": "), std::string::npos) << json;
  EXPECT_TRUE(json.ends_with(", \"value_table_blocks\": 8}\n")) << json << "(the games' openings in a value table)";
  EXPECT_EQ(std::count(json.begin(), json.end(), '{'), std::count(json.begin(), json.end(), '}')) << json;
  EXPECT_EQ(run_cli("unpack " + p("dict.pga")).out, run_cli("unpack " + p("plain.pga")).out);
  EXPECT_EQ(run_cli("pack -q --dict-kib 2000 " + input + " -o " + p("bad.pga")).exit_code, 1);
}

// A new archive's comments go into a text dictionary where that is smaller (format 1.12), which
// info reports; --no-text-dict writes them block by block, for readers of 1.11; both archives
// unpack alike, and an append gives its new blocks none.
TEST_F(CliArchive, TextDictionaryUnlessNoTextDict) {
  const std::string input = "'" + test::corpus_path("pgn/annotated_human.pgn") + "'";
  // (--tags tables: the read version is the text dictionary's, not 1.14's Event entries')
  ASSERT_EQ(run_cli("pack -q --tags tables --block-kib 8 " + input + " -o " + p("text.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --tags tables --block-kib 8 --no-text-dict " + input + " -o " + p("plain.pga")).exit_code, 0);
  const auto figures = [&](const std::string& name) { return nlohmann::json::parse(run_cli("info --json " + p(name)).out); };
  const auto text = figures("text.pga"), plain = figures("plain.pga");
  EXPECT_GT(text["blocks"].get<int>(), 2);
  EXPECT_EQ(text["sections"]["texts"]["dictionary_blocks"], text["blocks"]);
  EXPECT_EQ(plain["sections"]["texts"]["dictionary_blocks"], 0);
  EXPECT_EQ(text["read_version"], "1.12");
  EXPECT_NE(plain["read_version"], "1.12");
  EXPECT_LT(text["file_bytes"].get<int>(), plain["file_bytes"].get<int>());
  const std::string line = "texts (comments): compressed with the archive's text dictionary in " +
                           std::to_string(text["blocks"].get<int>()) + " of " + std::to_string(text["blocks"].get<int>()) + " blocks";
  EXPECT_NE(run_cli("info " + p("text.pga")).out.find(line), std::string::npos) << run_cli("info " + p("text.pga")).out;
  EXPECT_EQ(run_cli("info " + p("plain.pga")).out.find("text dictionary"), std::string::npos);
  const std::string games = run_cli("unpack " + p("plain.pga")).out;
  EXPECT_EQ(run_cli("unpack " + p("text.pga")).out, games);
  EXPECT_EQ(run_cli("get 7 " + p("text.pga")).out, run_cli("get 7 " + p("plain.pga")).out);
  ASSERT_EQ(run_cli("append -q --block-kib 8 " + p("text.pga") + " " + input).exit_code, 0);
  const auto appended = figures("text.pga");
  EXPECT_EQ(appended["blocks"], 2 * text["blocks"].get<int>());
  EXPECT_EQ(appended["sections"]["texts"]["dictionary_blocks"], text["blocks"]);
  EXPECT_EQ(run_cli("unpack " + p("text.pga")).out, games + games);
}

// Repeated games (corpus/xiangqi's 15 ICCS games twelve times, past the 8 KiB of moves from
// which the writer tries a moves dictionary): a moves dictionary unless --no-moves-dict; the same
// games either way, by unpack and get; an append's blocks get none.
TEST_F(CliArchive, MovesDictionaryUnlessNoMovesDict) {
  const std::string one = test::read_file(test::corpus_path("xiangqi/wukong_iccs.pgn"));
  {
    std::ofstream out(dir_ + "/repeated.pgn", std::ios::binary);
    for (int copy = 0; copy < 12; ++copy) out << one << "\n";
  }
  const std::string input = p("repeated.pgn");
  // (--tags tables and --xiangqi model: the read version is the moves dictionary's, not 1.14's
  // Event entries' or 1.15's opening book's)
  ASSERT_EQ(run_cli("pack -q --tags tables --xiangqi model --block-games 36 " + input + " -o " + p("moves.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --tags tables --xiangqi model --block-games 36 --no-moves-dict " + input + " -o " + p("plain.pga")).exit_code, 0);
  const auto figures = [&](const std::string& name) { return nlohmann::json::parse(run_cli("info --json " + p(name)).out); };
  const auto moves = figures("moves.pga"), plain = figures("plain.pga");
  EXPECT_EQ(moves["blocks"], 5);
  EXPECT_EQ(moves["sections"]["moves"]["dictionary_blocks"], moves["blocks"]);
  EXPECT_EQ(plain["sections"]["moves"]["dictionary_blocks"], 0);
  EXPECT_EQ(moves["read_version"], "1.13");
  EXPECT_NE(plain["read_version"], "1.13");
  EXPECT_LT(moves["file_bytes"].get<int>() * 3, plain["file_bytes"].get<int>() * 2) << moves["file_bytes"] << " " << plain["file_bytes"];
  const std::string text = run_cli("info " + p("moves.pga")).out;
  EXPECT_NE(text.find("moves: compressed with the archive's moves dictionary in 5 of 5 blocks"), std::string::npos) << text;
  EXPECT_EQ(run_cli("info " + p("plain.pga")).out.find("moves dictionary"), std::string::npos);
  const std::string games = run_cli("unpack " + p("plain.pga")).out;
  EXPECT_EQ(run_cli("unpack " + p("moves.pga")).out, games);
  for (const char* n : {"3", "22", "150"})
    EXPECT_EQ(run_cli(std::string("get ") + n + " " + p("moves.pga")).out, run_cli(std::string("get ") + n + " " + p("plain.pga")).out) << n;
  EXPECT_EQ(run_cli("verify -q " + p("moves.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("append -q --block-games 36 " + p("moves.pga") + " " + input).exit_code, 0);
  const auto appended = figures("moves.pga");
  EXPECT_EQ(appended["blocks"], 10);
  EXPECT_EQ(appended["sections"]["moves"]["dictionary_blocks"], 5);
  EXPECT_EQ(run_cli("unpack " + p("moves.pga")).out, games + games);
}

TEST_F(CliArchive, ExitCodes) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  auto r = run_cli("pack '" + pgn_ + "'");
  EXPECT_EQ(r.exit_code, 1) << "an existing archive is not overwritten";
  EXPECT_NE(r.err.find("--force"), std::string::npos);
  EXPECT_EQ(run_cli("pack -q --force '" + pgn_ + "'").exit_code, 0);
  r = run_cli("pack --strict '" + pgn_ + "' -o " + p("strict.pga"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("illegal move \"Ke3\""), std::string::npos) << r.err;
  EXPECT_NE(::access((dir_ + "/strict.pga").c_str(), F_OK), 0) << "--strict leaves no archive";
  r = run_cli("pack " + p("missing.pgn") + " -o " + p("x.pga"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  // A damaged archive: exit 3, with the block and offset.
  std::string bytes = test::read_file(dir_ + "/games.pga");
  bytes[200] = static_cast<char>(bytes[200] ^ 1);
  std::ofstream(dir_ + "/bad.pga", std::ios::binary) << bytes;
  r = run_cli("verify " + p("bad.pga"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("block 0 at offset 32"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("unpack " + p("bad.pga")).exit_code, 3);
  std::ofstream(dir_ + "/short.pga", std::ios::binary) << bytes.substr(0, bytes.size() - 1);
  EXPECT_EQ(run_cli("unpack " + p("short.pga")).exit_code, 3);
  EXPECT_EQ(run_cli("unpack " + p("none.pga")).exit_code, 4);
  EXPECT_EQ(run_cli("unpack").exit_code, 1);
  EXPECT_EQ(run_cli("unpack " + p("games.pga") + " --bogus").exit_code, 1);
  for (const char* cmd : {"unpack", "unpack --salvage", "verify"})
    for (const char* bad : {" --threads x", " --threads 257", " --threads"}) {
      r = run_cli(std::string(cmd) + " " + p("games.pga") + bad);
      EXPECT_EQ(r.exit_code, 1) << cmd << bad;
      EXPECT_TRUE(r.out.empty()) << cmd << bad;
    }
}

TEST_F(CliArchive, OutputIsSafeToPipe) {
  // A larger archive, so that unpack is still writing when head exits.
  std::string big;
  const std::string one = test::read_file(pgn_);
  for (int i = 0; i < 30; ++i) big += one;
  std::ofstream(dir_ + "/big.pgn", std::ios::binary) << big;
  ASSERT_EQ(run_cli("pack -q " + p("big.pgn")).exit_code, 0);
  const std::string cmd = std::string("'") + PGNARC_CLI + "' unpack " + p("big.pga") + " 2>" + p("err.txt") +
                          " | head -3 > " + p("head.txt");
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(test::read_file(dir_ + "/err.txt"), "") << "nothing on stderr when the reader goes away";
  EXPECT_EQ(test::read_file(dir_ + "/head.txt").substr(0, 36), "[Event \"4th London Chess Classic\"]\n[");
}

// Options as CLI11 reads them: --opt=value as well as --opt value, and -- ends the options, so a
// file whose name starts with - can be packed.
TEST_F(CliArchive, OptionValuesAfterEqualsAndDoubleDash) {
  ASSERT_EQ(run_cli("pack -q --block-games=10 --level=3 '" + pgn_ + "' --output=" + p("eq.pga"))
                .exit_code,
            0);
  ASSERT_EQ(
      run_cli("pack -q --block-games 10 --level 3 '" + pgn_ + "' -o " + p("sp.pga")).exit_code, 0);
  EXPECT_EQ(test::read_file(dir_ + "/eq.pga"), test::read_file(dir_ + "/sp.pga"));
  EXPECT_NE(run_cli("info " + p("eq.pga")).out.find("blocks:   7\n"), std::string::npos)
      << "61 games, 10 a block";
  EXPECT_EQ(run_cli("find --player=carlsen --result=1-0 --count " + p("eq.pga")).out, "2\n");
  EXPECT_EQ(run_cli("unpack --threads=1 " + p("eq.pga")).out, run_cli("unpack " + p("sp.pga")).out);

  std::ofstream(dir_ + "/-x.pgn", std::ios::binary) << test::read_file(pgn_);
  const std::string in_dir = "cd '" + dir_ + "' && '" + PGNARC_CLI + "' ";
  EXPECT_NE(std::system((in_dir + "pack -x.pgn 2>err.txt").c_str()), 0);
  EXPECT_NE(test::read_file(dir_ + "/err.txt").find("unknown option -x.pgn"), std::string::npos);
  ASSERT_EQ(std::system((in_dir + "pack -q -- -x.pgn").c_str()), 0);
  ASSERT_EQ(std::system((in_dir + "unpack -o out.pgn -- -x.pga").c_str()), 0);
  EXPECT_EQ(test::read_file(dir_ + "/out.pgn"), run_cli("unpack " + p("sp.pga")).out);
}

// `pgnarc help CMD` is `pgnarc CMD --help`; `pgnarc --help` lists every command; each command's
// help lists every option it takes.
TEST_F(CliArchive, HelpCommandAndProgramHelp) {
  const char* commands[] = {"pack",  "unpack", "get",    "find", "append",
                            "merge", "info",   "verify", "perft"};
  const auto program = run_cli("--help");
  EXPECT_EQ(program.exit_code, 0);
  EXPECT_EQ(run_cli("help").out, program.out);
  EXPECT_EQ(run_cli("-h").out, program.out);
  for (const char* c : commands) {
    EXPECT_NE(program.out.find(std::string("\n  ") + c + " "), std::string::npos) << c;
    const auto help = run_cli(std::string("help ") + c);
    EXPECT_EQ(help.exit_code, 0) << c;
    EXPECT_EQ(help.out, run_cli(std::string(c) + " --help").out) << c;
    EXPECT_EQ(help.out, run_cli(std::string(c) + " -h").out) << c;
    EXPECT_NE(help.out.find("\n  -q, --quiet"), std::string::npos) << c;
  }
  const std::string find = run_cli("help find").out;
  for (const char* o : {"--white S", "--black S", "--player S", "--event S", "--site S", "--exact",
                        "--result R", "--eco E", "--date-from D", "--date-to D", "--min-elo N",
                        "--max-elo N", "--elo-of WHO", "--tag KEY=VALUE",
                        "--count", "--numbers", "--pgn", "--list"})
    EXPECT_NE(find.find(std::string("\n  ") + o + " "), std::string::npos) << o << "\n" << find;
  const std::string pack = run_cli("help pack").out;
  for (const char* o :
       {"-o, --output OUT.pga", "--threads N", "--strict", "--force", "--store", "--block-games N",
        "--block-kib N", "--level N", "--text-level N", "--frame-kib N", "--dict-kib N"})
    EXPECT_NE(pack.find(std::string("\n  ") + o + " "), std::string::npos) << o << "\n" << pack;
  EXPECT_NE(pack.find("(default 4096)"), std::string::npos)
      << "defaults come from the library's WriterOptions";
  auto r = run_cli("help frobnicate");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
}

TEST_F(CliArchive, QuietBeforeOrAfterTheCommand) {
  auto r = run_cli("pack '" + pgn_ + "' -o " + p("loud.pga"));
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.err.find("packed "), std::string::npos) << r.err;
  for (const std::string& line :
       {"-q pack '" + pgn_ + "' -o " + p("a.pga"), "--quiet pack '" + pgn_ + "' -o " + p("b.pga"),
        "pack -q '" + pgn_ + "' -o " + p("c.pga"),
        "pack '" + pgn_ + "' -o " + p("d.pga") + " --quiet", "-q verify " + p("loud.pga"),
        "verify " + p("loud.pga") + " -q"}) {
    r = run_cli(line);
    EXPECT_EQ(r.exit_code, 0) << line;
    EXPECT_EQ(r.err, "") << line;
  }
}

// Unknown options, missing values and missing arguments: exit 1, a message naming what is wrong,
// and the command's help suggested.
TEST_F(CliArchive, UsageErrorsNameTheProblemAndSuggestHelp) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  struct Case {
    std::string args, message, help;
  };
  const Case cases[] = {
      {"unpack " + p("games.pga") + " --bogus", "pgnarc: unknown option --bogus\n",
       "pgnarc unpack --help"},
      {"unpack " + p("games.pga") + " --threads", "pgnarc: --threads needs a value\n",
       "pgnarc unpack --help"},
      {"verify " + p("games.pga") + " --threads=257",
       "pgnarc: --threads takes a number from 0 to 256\n", "pgnarc verify --help"},
      {"find " + p("games.pga") + " --player", "pgnarc: --player needs a value\n",
       "pgnarc find --help"},
      {"info", "pgnarc: ARCHIVE is required\n", "pgnarc info --help"},
      {"info " + p("games.pga") + " " + p("games.pga"), "pgnarc: unexpected argument '",
       "pgnarc info --help"},
      {"merge " + p("games.pga"), "pgnarc: --output is required\n", "pgnarc merge --help"},
      {"pack -q --level 20 '" + pgn_ + "' -o " + p("x.pga"),
       "pgnarc: --level takes a number from 1 to 19\n", "pgnarc pack --help"},
      {"get " + p("games.pga") + " 2-1",
       "pgnarc: game numbers start at 1 and ranges go upwards: '2-1'\n", "pgnarc get --help"},
      {"perft startpos 21", "pgnarc: depth must be a number from 0 to 20, not '21'\n",
       "pgnarc perft --help"},
      {"frobnicate", "pgnarc: unknown command 'frobnicate'\n", "pgnarc --help"},
      {"", "pgnarc: no command given\n", "pgnarc --help"},
      {"--bogus pack", "pgnarc: unknown option --bogus\n", "pgnarc pack --help"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 1) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args;
    EXPECT_TRUE(r.err.starts_with(c.message)) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.err.ends_with("Try '" + c.help + "'.\n")) << c.args << "\n" << r.err;
  }
}

TEST_F(CliArchive, VersionNamesTheFormatVersions) {
  for (const char* args : {"--version", "info --version"}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args;
    EXPECT_EQ(r.out, std::string("pgnarc ") + library_version() + " (archive format 1.15)\n")
        << args;
  }
}

// find's filters hold one value each (a game must match all of them): a repeated one is refused
// rather than silently keeping the last; --tag may be repeated and all must match.
TEST_F(CliArchive, FindRefusesARepeatedFilterButTakesManyTags) {
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  for (const char* twice :
       {"--player carlsen --player adams", "--white a --white=b", "--eco B --eco C",
        "--result 1-0 --result 0-1", "--date-from 2012 --date-from 2011", "--site x --site x"}) {
    const auto r = run_cli("find " + p("games.pga") + " " + twice);
    EXPECT_EQ(r.exit_code, 1) << twice;
    const std::string name = std::string(twice).substr(0, std::string(twice).find(' '));
    EXPECT_TRUE(r.err.starts_with("pgnarc: " + name + " given twice;")) << twice << "\n" << r.err;
  }
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --tag Round=4.1 --count").out, "1\n");
  EXPECT_EQ(
      run_cli("find " + p("games.pga") + " --tag Round=4.1 --tag White=Carlsen,M --count").out,
      "1\n");
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --tag Round=4.1 --tag White=Adams,Mi --count").out,
            "0\n");
  EXPECT_EQ(run_cli("find " + p("games.pga") + " --tag=Round=4.1 --tag White=Carlsen,M").out,
            "1\n");
}

// Output that cannot be written (a full disk) is an I/O error, from every command that writes
// to standard output, not a silent success.
TEST_F(CliArchive, FailedWritesAreIoErrors) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  ASSERT_EQ(run_cli("pack -q '" + pgn_ + "'").exit_code, 0);
  for (const std::string& cmd :
       {"get " + p("games.pga") + " 1", "find " + p("games.pga") + " --player carlsen",
        "info " + p("games.pga"), "info --json " + p("games.pga"), "unpack " + p("games.pga"),
        "unpack " + p("games.pga") + " -o /dev/full", std::string("perft startpos 2 --divide")}) {
    const auto r = run_cli(cmd + " >/dev/full");
    EXPECT_EQ(r.exit_code, 4) << cmd;
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << cmd << "\n" << r.err;
  }
}

TEST_F(CliArchive, HelpForEveryCommand) {
  for (const char* c : {"pack", "unpack", "get", "find", "append", "merge", "info", "verify", "perft"}) {
    auto r = run_cli(std::string(c) + " --help");
    EXPECT_EQ(r.exit_code, 0) << c;
    EXPECT_EQ(r.out.substr(0, 14 + std::strlen(c)), std::string("usage: pgnarc ") + c) << c;
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// Golden files: unpack and info of a small archive against expected outputs in corpus/cli/.
TEST(CliGolden, UnpackAndInfoMatchExpectedFiles) {
  const test::ScratchDir scratch("golden");
  const std::string& dir = scratch.path();
  ASSERT_EQ(test::run_cli("pack -q '" + test::corpus_path("cli/input.pgn") + "' -o '" + dir + "/g.pga'").exit_code, 0);
  EXPECT_EQ(test::run_cli("unpack '" + dir + "/g.pga'").out, test::read_file(test::corpus_path("cli/expected_unpack.pgn")));
  EXPECT_EQ(test::run_cli("info '" + dir + "/g.pga'").out, test::read_file(test::corpus_path("cli/expected_info.txt")));
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// Progress appears on a terminal (run under script(1), which gives the program a pty) and
// never when stderr is a file or with --quiet.
TEST(CliProgress, OnlyOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) not installed";
  const test::ScratchDir scratch("progress");
  const std::string& dir = scratch.path();
  std::string big;
  const std::string one = test::read_file(test::corpus_path("pgn/twic_events.pgn"));
  for (int i = 0; i < 80; ++i) big += one;  // about 4 MB: long enough for a progress update
  std::ofstream(dir + "/big.pgn", std::ios::binary) << big;
  const std::string pack = std::string("'") + PGNARC_CLI + "' pack '" + dir + "/big.pgn' -o '" + dir + "/big.pga' --force";
  ASSERT_EQ(std::system(("script -qec \"" + pack + "\" /dev/null < /dev/null > '" + dir + "/tty.txt'").c_str()), 0);
  const std::string tty = test::read_file(dir + "/tty.txt");
  EXPECT_NE(tty.find("\rpacking ["), std::string::npos) << tty.substr(0, 200);
  EXPECT_NE(tty.find("s left"), std::string::npos);
  auto r = test::run_cli("pack '" + dir + "/big.pgn' -o '" + dir + "/big2.pga'");
  EXPECT_EQ(r.err.find("packing"), std::string::npos) << "no progress when stderr is not a terminal";
  ASSERT_EQ(std::system(("script -qec \"" + pack + " --quiet\" /dev/null < /dev/null > '" + dir + "/quiet.txt'").c_str()), 0);
  EXPECT_EQ(test::read_file(dir + "/quiet.txt"), "");
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// Writer faults: a pack stopped by a file size limit (as a full disk would) or killed outright
// leaves no archive that looks complete, and an interrupted append leaves the old archive intact.
TEST(CliFaults, FullDiskAndKillLeaveNoCompleteLookingFile) {
  const test::ScratchDir scratch("faults");
  const std::string& dir = scratch.path();
  std::string big;
  const std::string one = test::read_file(test::corpus_path("pgn/twic_events.pgn"));
  for (int i = 0; i < 40; ++i) big += one;
  std::ofstream(dir + "/big.pgn", std::ios::binary) << big;
  const std::string cli = std::string("'") + PGNARC_CLI + "'";
  // A 64 KiB file size limit: the archive (about 280 KB without a moves dictionary, which would
  // hold the repeated games once) cannot be written.
  int status = std::system(("ulimit -f 64; " + cli + " pack -q --no-moves-dict '" + dir + "/big.pgn' -o '" + dir + "/full.pga' 2>'" +
                            dir + "/err.txt'").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 4);
  EXPECT_NE(test::read_file(dir + "/err.txt").find("cannot write"), std::string::npos);
  EXPECT_NE(::access((dir + "/full.pga").c_str(), F_OK), 0) << "no archive after a failed write";
  EXPECT_EQ(std::system(("ls '" + dir + "' | grep -q tmp").c_str()) == 0, false) << "temporary file removed";

  // Append stopped the same way: the old archive is untouched and still sound.
  ASSERT_EQ(test::run_cli("pack -q '" + test::corpus_path("pgn/twic_events.pgn") + "' -o '" + dir + "/old.pga'").exit_code, 0);
  const std::string before = test::read_file(dir + "/old.pga");
  status = std::system(("ulimit -f 64; " + cli + " append -q '" + dir + "/old.pga' '" + dir + "/big.pgn' 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 4);
  EXPECT_EQ(test::read_file(dir + "/old.pga"), before);
  EXPECT_EQ(test::run_cli("verify -q '" + dir + "/old.pga'").exit_code, 0);

  // SIGKILL at a few moments during a pack: never a file at the output path.
  for (int ms : {5, 20, 60}) {
    const std::string out = dir + "/killed" + std::to_string(ms) + ".pga";
    std::system(("(" + cli + " pack -q '" + dir + "/big.pgn' -o '" + out + "' & p=$!; sleep 0." +
                 (ms < 10 ? "00" : "0") + std::to_string(ms) + "; kill -9 $p; wait $p) 2>/dev/null")
                    .c_str());
    if (::access(out.c_str(), F_OK) == 0)  // the pack may have finished before the kill
      EXPECT_EQ(test::run_cli("verify -q '" + out + "'").exit_code, 0) << ms;
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// pack --moves: the fast model (the default), the strongest model (max, also named model) and
// the uniform coder give the same games back; both models' moves sections are smaller than the
// uniform coder's, max's the smallest; another name is bad usage.
TEST(CliMoves, EveryCoderGivesTheGamesBack) {
  const test::ScratchDir scratch("moves");
  const std::string& dir = scratch.path();
  const std::string input = test::corpus_path("cli/input.pgn");
  ASSERT_EQ(test::run_cli("pack -q '" + input + "' -o '" + dir + "/f.pga'").exit_code, 0);
  ASSERT_EQ(test::run_cli("pack -q --moves fast '" + input + "' -o '" + dir + "/f2.pga'").exit_code, 0);
  ASSERT_EQ(test::run_cli("pack -q --moves uniform '" + input + "' -o '" + dir + "/u.pga'").exit_code, 0);
  ASSERT_EQ(test::run_cli("pack -q --moves=max '" + input + "' -o '" + dir + "/m.pga'").exit_code, 0);
  ASSERT_EQ(test::run_cli("pack -q --moves=model '" + input + "' -o '" + dir + "/m2.pga'").exit_code, 0);
  EXPECT_EQ(test::read_file(dir + "/f.pga"), test::read_file(dir + "/f2.pga"));
  EXPECT_EQ(test::read_file(dir + "/m.pga"), test::read_file(dir + "/m2.pga"));
  const std::string model = test::run_cli("unpack '" + dir + "/m.pga'").out;
  EXPECT_EQ(model, test::run_cli("unpack '" + dir + "/u.pga'").out);
  EXPECT_EQ(model, test::run_cli("unpack '" + dir + "/f.pga'").out);
  EXPECT_EQ(model, test::read_file(test::corpus_path("cli/expected_unpack.pgn")));
  const auto info = [&](const std::string& name) {
    return nlohmann::json::parse(test::run_cli("info --json '" + dir + "/" + name + "'").out);
  };
  const auto moves = [&](const std::string& name) {
    return info(name)["sections"]["moves"]["stored"].get<std::uint64_t>();
  };
  EXPECT_LT(moves("m.pga") * 4, moves("u.pga") * 3) << "the model's moves at most three quarters of the uniform coder's";
  EXPECT_LT(moves("f.pga") * 4, moves("u.pga") * 3) << "the fast model's too";
  EXPECT_LE(moves("m.pga"), moves("f.pga"));
  // The fast model's archive needs a reader of 1.2; the others one of 1.0.
  EXPECT_EQ(info("f.pga")["read_version"], "1.2");
  EXPECT_EQ(info("m.pga")["read_version"], "1.0");
  EXPECT_EQ(info("u.pga")["read_version"], "1.0");
  const auto bad = test::run_cli("pack -q --moves best '" + input + "' -o '" + dir + "/x.pga'");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--moves"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace pgnarc
