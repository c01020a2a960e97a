// End-to-end: hostile and mistaken input to pack and append (other compressed formats, archives,
// UTF-16, binary data, endless games, malformed tags, control bytes), reading a terminal, and an
// archive that is not a regular file.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <utility>

#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::run_cli;

bool have(const std::string& tool) { return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0; }

class CliInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.path();
    pgn_ = dir_ + "/games.pgn";
    write(pgn_, test::read_file(test::corpus_path("pgn/twic_events.pgn")));
  }
  std::string p(const std::string& name) const { return "'" + dir_ + "/" + name + "'"; }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  static void write(const std::string& file, const std::string& bytes) { std::ofstream(file, std::ios::binary) << bytes; }
  static bool exists(const std::string& file) { return ::access(file.c_str(), F_OK) == 0; }
  int sh(const std::string& cmd) const { return std::system(("cd '" + dir_ + "' && " + cmd).c_str()); }
  test::ScratchDir scratch_{"cli_input"};
  std::string dir_, pgn_;
};

// Before: each was packed as "games kept verbatim" with exit 0, and unpack did not give the
// input back.
TEST_F(CliInput, InputThatIsNotPgnTextIsRefusedWithTheCommandThatWouldReadIt) {
  struct Case {
    std::string tool, make, file, says;
  };
  const Case cases[] = {
      {"bzip2", "bzip2 -k games.pgn", "games.pgn.bz2", "games.pgn.bz2 is bzip2-compressed, not PGN; make it PGN through "
                                                       "a pipe: bzip2 -dc " + path("games.pgn.bz2") + " | pgnarc pack - -o games.pga"},
      {"xz", "xz -k games.pgn", "games.pgn.xz", "games.pgn.xz is xz-compressed, not PGN; make it PGN through a pipe: xz -dc"},
      {"iconv", "iconv -f UTF-8 -t UTF-16 games.pgn > u16.pgn", "u16.pgn", "u16.pgn is UTF-16 text, not PGN; make it PGN "
                                                                           "through a pipe: iconv -f UTF-16 -t UTF-8"},
      {"head", "head -c 20000 /dev/urandom > random.bin", "random.bin", "random.bin is binary data"},
  };
  for (const Case& c : cases) {
    if (!have(c.tool)) continue;
    ASSERT_EQ(sh(c.make), 0) << c.make;
    auto r = run_cli("pack " + p(c.file) + " -o " + p("out.pga"));
    EXPECT_EQ(r.exit_code, 2) << c.file << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(exists(path("out.pga"))) << c.file;
    // The same from standard input.
    auto s = run_cli("pack - -o " + p("out.pga"), path(c.file));
    EXPECT_EQ(s.exit_code, 2) << c.file << ": " << s.err;
    EXPECT_NE(s.err.find("standard input is "), std::string::npos) << s.err;
  }
}

TEST_F(CliInput, AnArchiveGivenAsPgnIsRefusedAndLeftAsItWas) {
  ASSERT_EQ(run_cli("pack -q " + p("games.pgn")).exit_code, 0);
  const std::string before = test::read_file(path("games.pga"));
  // Appended to itself, the archive is first an output that is also an input: refused (exit 1).
  auto r = run_cli("append " + p("games.pga") + " " + p("games.pga"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("is also an input"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(path("games.pga")), before);
  // Given as PGN to another archive, it is recognised and the command that joins archives named.
  auto q = run_cli("pack " + p("games.pga") + " -o " + p("again.pga"));
  EXPECT_EQ(q.exit_code, 2) << q.err;
  EXPECT_NE(q.err.find("games.pga is a pgnarc archive, not PGN: archives are joined with pgnarc merge"), std::string::npos)
      << q.err;
  EXPECT_FALSE(exists(path("again.pga")));
  ASSERT_EQ(run_cli("pack -q " + p("games.pgn") + " -o " + p("other.pga")).exit_code, 0);
  const std::string other = test::read_file(path("other.pga"));
  auto a = run_cli("append " + p("other.pga") + " " + p("games.pga"));
  EXPECT_EQ(a.exit_code, 2) << a.err;
  EXPECT_NE(a.err.find("pgnarc merge"), std::string::npos) << a.err;
  EXPECT_EQ(test::read_file(path("other.pga")), other);
}

// pzstd writes each frame after a skippable frame: before, the stream was not recognised as zstd.
TEST_F(CliInput, PzstdOutputIsRead) {
  if (!have("pzstd")) GTEST_SKIP() << "no pzstd";
  ASSERT_EQ(sh("pzstd -q -p 2 games.pgn -o games.pgn.zst"), 0);
  ASSERT_EQ(run_cli("pack -q " + p("games.pgn")).exit_code, 0);
  auto r = run_cli("pack " + p("games.pgn.zst") + " -o " + p("z.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("60 games (0 kept verbatim)"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("unpack " + p("z.pga")).out, run_cli("unpack " + p("games.pga")).out);
}

// Before: `yes | pgnarc pack -` grew without bound (3 GB in 10 s), one game of 64 MB took about
// 1 GB.
TEST_F(CliInput, AnEndlessGameIsRefusedInBoundedMemory) {
  const std::string cmd = "yes '1. Nf3 Nf6 2. Ng1 Ng8' | head -c 67108864 | '" + std::string(PGNARC_CLI) + "' pack - -o " +
                          p("y.pga") + " 2>" + p("err.txt");
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_TRUE(test::read_file(path("err.txt")).starts_with("pgnarc: invalid input: <stdin>:1:1: game 1: longer than 16 MiB"))
      << test::read_file(path("err.txt"));
  EXPECT_FALSE(exists(path("y.pga")));
  rusage ru{};
  ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &ru), 0);
  EXPECT_LT(ru.ru_maxrss, 400 * 1024) << "KiB, the largest child's peak";
}

// One game of 200,000 nested variations (1.6 MB): kept verbatim, as deeper than the 256 levels
// a line may be nested, in memory of at most 8 times its size beyond a constant (zstd's
// contexts and the program's own); it took 144 MB, 90 times its size, when every level kept its
// positions.
TEST_F(CliInput, DeeplyNestedVariationsInBoundedMemory) {
  constexpr int kLevels = 200000;
  std::string game = "[Event \"nested\"]\n\n1. e4 ";
  for (int i = 0; i < kLevels; ++i) game += "(1. d4 ";
  game += std::string(kLevels, ')') + " e5 *\n";
  write(path("nested.pgn"), game);
  const auto r = run_cli("pack --threads 1 " + p("nested.pgn") + " -o " + p("nested.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("nested.pgn:3:1799: game 1: variations nested more than 256 deep"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 games (1 kept verbatim)"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("unpack " + p("nested.pga")).out, game + "\n") << "the game as it came (and the blank line after it)";
#if !defined(__SANITIZE_ADDRESS__)  // (the sanitizer's shadow memory is not the program's)
  rusage ru{};
  ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &ru), 0);
  EXPECT_LT(ru.ru_maxrss, static_cast<long>(8 * game.size() / 1024 + 64 * 1024)) << "KiB, the largest child's peak";
#endif
}

// Salvage reads a file through a window, not a map of the whole: an archive, 96 MiB of noise and
// the archive again give both copies' games in bounded memory (the whole file was mapped and
// resident: 100 MB); a 1 TiB sparse file behind an archive is scanned in a moment (its holes
// skipped; it was still scanning after 30 s at 6.3 GB).
TEST_F(CliInput, SalvageReadsAnyFileInBoundedMemory) {
  write(path("one.pgn"), "[Event \"a\"]\n\n1. e4 e5 *\n");
  ASSERT_EQ(run_cli("pack -q " + p("one.pgn") + " -o " + p("one.pga")).exit_code, 0);
  const std::string archive = test::read_file(path("one.pga"));
  {  // (written a MiB at a time: a child forked from a large test process would count its pages)
    std::ofstream out(path("noisy.pga"), std::ios::binary);
    out << archive;
    std::string noise(1u << 20, '\0');
    std::uint64_t x = 0x9E3779B97F4A7C15u;
    for (int mib = 0; mib < 96; ++mib) {
      for (std::size_t i = 0; i < noise.size(); i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        std::memcpy(&noise[i], &x, 8);
      }
      out << noise;
    }
    out << archive;
  }
  auto r = run_cli("unpack --salvage " + p("noisy.pga") + " -o " + p("noisy.pgn"));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("salvaged 2 games from 2 sound blocks"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(path("noisy.pgn")), "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"a\"]\n\n1. e4 e5 *\n\n") << r.err;
  write(path("sparse.pga"), archive);
  std::error_code ec;
  std::filesystem::resize_file(path("sparse.pga"), std::uint64_t{1} << 40, ec);
  if (!ec) {
    const auto start = std::chrono::steady_clock::now();
    r = run_cli("unpack --salvage " + p("sparse.pga") + " -o " + p("sparse.pgn"));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("salvaged 1 games from 1 sound blocks"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sparse.pga: index or footer at offset "), std::string::npos) << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60)) << "the holes were read";
    std::filesystem::remove(path("sparse.pga"));
  }
#if !defined(__SANITIZE_ADDRESS__)  // (the sanitizer's shadow memory is not the program's)
  rusage ru{};
  ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &ru), 0);
  EXPECT_LT(ru.ru_maxrss, 64 * 1024) << "KiB, the largest child's peak";
#endif
}

TEST_F(CliInput, LimitsAreInThePackHelp) {
  std::string help;
  for (char c : run_cli("pack --help").out)
    if (c != '\n' && !(c == ' ' && help.ends_with(' '))) help += c;
    else if (c == '\n' && !help.ends_with(' ')) help += ' ';
  const auto r = test::CliResult{0, help, ""};
  EXPECT_NE(r.out.find("more than 1024 tag pairs is kept verbatim"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("16 MiB"), std::string::npos) << r.out;
}

TEST_F(CliInput, AMalformedTagIsKeptVerbatimAndReported) {
  const std::string bad = "[Event \"x\"]\n[White \"\"X\"\"y]\n\n1. e4 e5 *";
  write(path("bad.pgn"), "[Event \"ok\"]\n\n1. d4 *\n\n" + bad + "\n");
  auto r = run_cli("pack " + p("bad.pgn"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("game 2 kept verbatim: " + path("bad.pgn") + ":6:10: game 2: bad tag pair [White]"), std::string::npos)
      << r.err;
  EXPECT_NE(test::read_file(path("bad.pga.log")).find(":6:10: game 2: bad tag pair [White]"), std::string::npos);
  auto u = run_cli("get " + p("bad.pga") + " 2");
  EXPECT_EQ(u.out, bad + "\n\n");
  EXPECT_EQ(run_cli("pack --strict " + p("bad.pgn") + " -o " + p("s.pga")).exit_code, 2);
}

// Tag values written without escapes (a quote left unescaped, a backslash that escapes nothing,
// Big5's 許 ending in 5C) are coded in archives of format 1.11 and written back as they came;
// found by their values; kept verbatim, with where and why, where the archive may not hold them
// (--tags coded, an append to an archive below 1.11).
TEST_F(CliInput, TagValuesWrittenWithoutEscapesComeBackAsTheyWere) {
  const std::string tags = "[Event \"Cup \"A\" 1990\"]\n[Site \"C:\\games\"]\n[White \"\xB3\x5C\"]\n[Black \"b\"]\n\n";
  write(path("q.pgn"), "[Event \"plain\"]\n\n1. d4 *\n\n" + tags + "1. e4 e5 *\n");
  auto r = run_cli("pack " + p("q.pgn"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("2 games (0 kept verbatim)"), std::string::npos) << r.out << r.err;
  // (1.14: its games' own events are entries of the Event table, the one written without escapes
  // ranked so, 9.4.3; with --tags tables, an unescaped text column of 1.11.)
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("q.pga")).out)["read_version"], "1.14");
  ASSERT_EQ(run_cli("pack --tags tables " + p("q.pgn") + " -o " + p("t.pga")).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("t.pga")).out)["read_version"], "1.11");
  EXPECT_EQ(run_cli("unpack " + p("t.pga")).out, run_cli("unpack " + p("q.pga")).out);
  EXPECT_EQ(run_cli("get " + p("q.pga") + " 2").out, tags + "1. e4 e5 *\n\n");
  EXPECT_EQ(run_cli("unpack " + p("q.pga")).out, "[Event \"plain\"]\n\n1. d4 *\n\n" + tags + "1. e4 e5 *\n\n");
  EXPECT_EQ(run_cli("find --numbers --exact --event 'Cup \"A\" 1990' " + p("q.pga")).out, "2\n");
  EXPECT_EQ(run_cli("find --numbers --site 'C:\\games' " + p("q.pga")).out, "2\n");
  EXPECT_EQ(run_cli("verify -q " + p("q.pga")).exit_code, 0);
  // Merged (the second archive's tags coded again), as they were.
  ASSERT_EQ(run_cli("pack " + p("q.pgn") + " -o " + p("q2.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("merge -o " + p("m.pga") + " " + p("q.pga") + " " + p("q2.pga")).exit_code, 0);
  EXPECT_EQ(run_cli("get " + p("m.pga") + " 4").out, tags + "1. e4 e5 *\n\n");
  // Where the archive may not hold them: verbatim, reported at the tag pair.
  r = run_cli("pack --tags coded " + p("q.pgn") + " -o " + p("c.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("game 2 kept verbatim: " + path("q.pgn") + ":5:1: game 2: bad tag pair [Event]: a quote inside "
                       "the value is not escaped"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("format 1.11"), std::string::npos) << r.err;
  EXPECT_NE(nlohmann::json::parse(run_cli("info --json " + p("c.pga")).out)["read_version"], "1.11");
  EXPECT_EQ(run_cli("get " + p("c.pga") + " 2").out, tags + "1. e4 e5 *\n\n");
  EXPECT_EQ(run_cli("find --numbers --black b " + p("c.pga")).out, "2\n");  // its other tags index it
  write(path("plain.pgn"), "[Event \"plain\"]\n\n1. d4 *\n");
  ASSERT_EQ(run_cli("pack --tags tables " + p("plain.pgn")).exit_code, 0);
  ASSERT_EQ(run_cli("append " + p("plain.pga") + " " + p("q.pgn")).exit_code, 0);
  const auto info = nlohmann::json::parse(run_cli("info --json " + p("plain.pga")).out);
  EXPECT_EQ(info["verbatim_games"], 1);
  EXPECT_NE(info["read_version"], "1.11");
  EXPECT_EQ(run_cli("get " + p("plain.pga") + " 3").out, tags + "1. e4 e5 *\n\n");
  EXPECT_EQ(run_cli("pack --strict --tags coded " + p("q.pgn") + " -o " + p("s.pga")).exit_code, 2);
  // A value that escapes read too (a backslash that escapes nothing) is coded there, written
  // escaped, as any value.
  write(path("b.pgn"), "[Site \"C:\\games\"]\n\n1. e4 *\n");
  r = run_cli("pack --tags coded " + p("b.pgn"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("1 games (0 kept verbatim)"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(run_cli("get " + p("b.pga") + " 1").out, "[Site \"C:\\\\games\"]\n\n1. e4 *\n\n");
}

// Before: `find --black b` found nothing, the tags after the malformed one were not stored.
TEST_F(CliInput, AVerbatimGameIsFoundByTheTagsAfterAMalformedOne) {
  const std::string bad = "[White \"A\"] [Bad \"\"X\"\"y] [Black \"b\"]\n\n1. e4 *";
  write(path("bad.pgn"), "[White \"c\"]\n[Black \"d\"]\n\n1. d4 *\n\n" + bad + "\n");
  auto r = run_cli("pack " + p("bad.pgn"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("(1 kept verbatim)"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("find " + p("bad.pga") + " --black b").out, "2\n");
  EXPECT_EQ(run_cli("find " + p("bad.pga") + " --white A").out, "2\n");
  EXPECT_EQ(run_cli("get " + p("bad.pga") + " 2").out, bad + "\n\n");
}

// Before: 50 KB of random bytes after the first 4 KiB were packed as about 60 games kept
// verbatim, with exit 0, and unpack did not give them back.
TEST_F(CliInput, BinaryDataInsideAPgnFileIsRefusedWhereItStands) {
  const std::string text = test::read_file(pgn_);
  ASSERT_TRUE(sh("head -c 50000 /dev/urandom > random.bin") == 0);
  write(path("mixed.pgn"), text + test::read_file(path("random.bin")) + text);
  auto r = run_cli("pack " + p("mixed.pgn") + " -o " + p("out.pga"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(path("mixed.pgn") + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": binary data at offset "), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out.pga")));
  auto s = run_cli("pack - -o " + p("out.pga"), path("mixed.pgn"));
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_NE(s.err.find("binary data at offset "), std::string::npos) << s.err;
}

// Before: a ^Z after the last game (TWIC with one appended) was one more game, kept verbatim.
TEST_F(CliInput, ADosEndOfFileAfterTheLastGameIsNotAGame) {
  ASSERT_EQ(run_cli("pack " + p("games.pgn") + " -o " + p("plain.pga")).exit_code, 0);
  write(path("eof.pgn"), test::read_file(pgn_) + "\r\n\x1A");
  auto r = run_cli("pack " + p("eof.pgn") + " -o " + p("eof.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("(0 kept verbatim)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("eof.pgn: 1 DOS end-of-file byte (^Z) after the last game, not stored"), std::string::npos)
      << "never dropped in silence: " << r.err;
  EXPECT_EQ(run_cli("unpack " + p("eof.pga")).out, run_cli("unpack " + p("plain.pga")).out);
}

// Before: the escape sequences, CR and NUL of a bad game reached the terminal and the log raw.
TEST_F(CliInput, ControlBytesAreEscapedOnTheTerminalAndInTheLog) {
  std::string text = test::read_file(pgn_);  // more than the bytes judged, so that the NUL below is let through
  const std::string bad("[Event \"\x1B]0;owned\x07\"]\n\n1. e4 \x1BZ\r\0 *", 34);
  text += "\n" + bad + "\n";
  write(path("ctl.pgn"), text);
  auto r = run_cli("pack " + p("ctl.pgn"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string log = test::read_file(path("ctl.pga.log"));
  for (const std::string* s : {&std::as_const(r.err), &log}) {
    EXPECT_NE(s->find("kept verbatim"), std::string::npos) << *s;
    EXPECT_NE(s->find("\\x1b"), std::string::npos) << *s;
    for (char c : *s) EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 || c == '\n') << int(c) << " in " << *s;
  }
  EXPECT_TRUE(run_cli("unpack " + p("ctl.pga")).out.ends_with("\n" + bad + "\n\n"));
}

// Before: `pack -` on a terminal waited without a word.
TEST_F(CliInput, ReadingATerminalSaysSo) {
  if (!have("script")) GTEST_SKIP() << "no script(1)";
  write(path("in.pgn"), "[Event \"typed\"]\n\n1. e4 e5 *\n");
  const std::string cmd = "timeout 20 script -qec \"'" + std::string(PGNARC_CLI) + "' pack - -o " + path("t.pga") +
                          "\" /dev/null <" + p("in.pgn") + " >" + p("transcript.txt") + " 2>&1";
  ASSERT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0) << test::read_file(path("transcript.txt"));
  EXPECT_NE(test::read_file(path("transcript.txt")).find("pgnarc: reading PGN from the terminal until end of input (Ctrl-D)"),
            std::string::npos)
      << test::read_file(path("transcript.txt"));
  EXPECT_EQ(run_cli("unpack " + p("t.pga")).out, "[Event \"typed\"]\n\n1. e4 e5 *\n\n");
  // Not from a pipe or a file.
  EXPECT_EQ(run_cli("pack - -o " + p("f.pga"), path("in.pgn")).err.find("terminal"), std::string::npos);
}

// Before: a FIFO read as an empty file, reported as a damaged archive (exit 3), or open waited
// for a writer for ever.
TEST_F(CliInput, AnArchiveThatIsNotARegularFileIsAnIoErrorNotDamage) {
  ASSERT_EQ(run_cli("pack -q " + p("games.pgn")).exit_code, 0);
  ASSERT_EQ(::mkfifo(path("fifo.pga").c_str(), 0600), 0);
  // A writer that gives up after a while if no reader comes.
  ASSERT_EQ(sh("(timeout 10 sh -c 'cat games.pga > fifo.pga' >/dev/null 2>&1 &)"), 0);
  for (const std::string& cmd : {"info " + p("fifo.pga"), "unpack " + p("fifo.pga"), "verify " + p("dir")}) {
    ::mkdir(path("dir").c_str(), 0700);
    // Through timeout(1): an open that waits for a writer fails the test instead of hanging it.
    const int status = std::system(("timeout 10 '" + std::string(PGNARC_CLI) + "' " + cmd + " >/dev/null 2>" + p("err")).c_str());
    const test::CliResult r{WEXITSTATUS(status), "", test::read_file(path("err"))};
    EXPECT_EQ(r.exit_code, 4) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("an archive must be a regular file"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("corrupt"), std::string::npos) << r.err;
  }
  EXPECT_NE(run_cli("info " + p("fifo.pga")).err.find("it is a pipe (FIFO)"), std::string::npos);
}

}  // namespace
}  // namespace pgnarc
