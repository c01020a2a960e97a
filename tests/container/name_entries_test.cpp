// Event and Site columns naming entries of the archive's name tables (format 1.14, 9.4.3): what
// the writer gives them, what reads them, and what copies their blocks.
#include "support/archive_fixtures.h"
#include "support/test_util.h"

namespace pgnarc {
namespace {

using namespace test;

// `n` games, each of an event of its own in dated order (as Xiangqi collections name them:
// date, players, result), at one of three sites and, every tenth, a web address; the 7th's event
// written without escapes (Big5's 許, B3 5C, before a space), which a reader gives back so.
std::string red_of(int g) { return "p" + std::to_string(g % 37); }
std::string black_of(int g) { return "p" + std::to_string((g * 7 + 3) % 41); }
std::string event_of(int g) {
  return g == 7 ? "\xB3\x5C Cup" : "1983" + std::to_string(1000 + g) + red_of(g) + " beat " + black_of(g);
}

std::string own_events(int n) {
  std::string pgn;
  for (int g = 0; g < n; ++g) {
    const std::string red = red_of(g), black = black_of(g), event = event_of(g);
    const std::string site = g % 10 == 9 ? "https://example.org/" + std::to_string(g) : "site " + std::to_string(g % 3);
    pgn += "[Event \"" + event + "\"]\n[Site \"" + site + "\"]\n[White \"" + red + "\"]\n[Black \"" + black +
           "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
  }
  return pgn;
}

std::vector<std::string> games_of(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().to_string());
  std::vector<std::string> out;
  if (!a.ok()) return out;
  for (std::uint64_t i = 0; i < (*a)->game_count(); ++i) {
    auto g = (*a)->read_pgn(i);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().to_string());
    out.push_back(g.ok() ? *g : "");
  }
  return out;
}

std::uint8_t read_minor(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok());
  if (!a.ok()) return 0;
  auto info = (*a)->info();
  EXPECT_TRUE(info.ok());
  return info.ok() ? info->read_version.minor : 0;
}

// A small archive (every block held) of games whose events are their own: the Event column names
// entries of the Event table (layout 8, read version 1.14), the archive is smaller than with the
// events as tags, and every game reads back the same, alone and in any order; the event written
// without escapes comes back so; a search by event finds its game through the table.
TEST(ArchiveNameEntries, EventsOfTheirOwnAreEntriesAndReadAlone) {
  const std::string pgn = own_events(600);
  WriterOptions o;
  o.block_games = 50;
  o.threads = 2;
  const std::string with = pack(pgn, "names.pga", o);
  WriterOptions plain = o;
  plain.name_entries = false;
  const std::string without = pack(pgn, "names_none.pga", plain);
  EXPECT_EQ(read_minor(with), 14);
  EXPECT_LT(read_minor(without), 14);
  const ArchiveInfo w = info_of(with), n = info_of(without);
  EXPECT_EQ(w.blocks, 12u);
  // The events' text, held once in the Event table instead of twice: more than 2 bytes a game.
  EXPECT_LT(w.file_bytes + 600 * 2, n.file_bytes) << w.file_bytes << " against " << n.file_bytes;

  const std::vector<std::string> games = games_of(without);
  ASSERT_EQ(games.size(), 600u);
  EXPECT_EQ(games_of(with), games);
  EXPECT_NE(games[7].find("[Event \"\xB3\x5C Cup\"]"), std::string::npos);
  auto a = Archive::open(with);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE((*a)->verify().ok());
  for (std::uint64_t i : {599u, 7u, 0u, 351u, 9u}) {
    auto g = (*a)->read_pgn(i);
    ASSERT_TRUE(g.ok()) << g.error().to_string();
    EXPECT_EQ(*g, games[i]) << i;
  }
  Query q;
  q.event = event_of(351);
  q.exact_names = true;
  auto found = (*a)->find(q);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, std::vector<std::uint64_t>{351});
  q.event = "\xB3\x5C Cup";
  found = (*a)->find(q);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, std::vector<std::uint64_t>{7});
}

// Appending to such an archive, and merging it after another, codes its blocks' tags again
// without entries (the joined tables number the values otherwise): every game reads back, and
// the new archive needs no reader of 1.14.
TEST(ArchiveNameEntries, AppendAndMergeCodeTheirBlocksAgain) {
  WriterOptions o;
  o.block_games = 50;
  const std::string first = pack(own_events(200), "names_first.pga", o);
  ASSERT_EQ(read_minor(first), 14);
  const std::string more = "[Event \"1983 a later cup\"]\n[Site \"site 0\"]\n\n1. d4 d5 *\n\n";
  std::vector<std::string> expected = games_of(first);
  expected.push_back(games_of(pack(more, "names_more.pga", o)).at(0));

  const std::string appended = temp_path("names_appended.pga");
  {
    WriterOptions a = o;
    a.overwrite = true;
    auto w = ArchiveWriter::create(appended, a);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->add_archive_blocks(first).ok());
    PgnReader reader(memory_input(more), "more.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  EXPECT_LT(read_minor(appended), 14);
  EXPECT_EQ(games_of(appended), expected);
  auto a = Archive::open(appended);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE((*a)->verify().ok());

  const std::string other = pack("[Event \"0 first\"]\n[Site \"zz\"]\n\n1. c4 *\n\n", "names_other.pga", o);
  const std::string merged = temp_path("names_merged.pga");
  {
    auto w = ArchiveWriter::create(merged, o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->add_archive_blocks(other).ok());
    ASSERT_TRUE((*w)->add_archive_blocks(first).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  std::vector<std::string> joined = games_of(other);
  const std::vector<std::string> firsts = games_of(first);
  joined.insert(joined.end(), firsts.begin(), firsts.end());
  EXPECT_EQ(games_of(merged), joined);
  auto m = Archive::open(merged);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE((*m)->verify().ok());
}

}  // namespace
}  // namespace pgnarc
