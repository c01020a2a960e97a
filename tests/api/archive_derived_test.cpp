// Tags of layout 3 (format 1.4): a CurrentPosition tag that is the final position of the main line
// is stored as derived from the moves (spec 9.4.5), a Termination that begins with a player's name
// as that name and a rest (9.4.6), and every way of reading them gives them back: read_game,
// read_tags (the first read of a block, which decodes only the games it needs; of some keys), find
// by tag, export_pgn; a merge keeps them; a value that is not the final position (or a game
// without one) stays text. WriterOptions::derive_tags = false writes format 1.3's bytes.
// Tags of layout 4 (format 1.5): typed columns whose codes are a codeword (9.4.7) read back the
// same by every way of reading them, and a merge keeps them; code_tags = false writes 1.4's.
// Tags of layout 5 (format 1.6): an opening's tags as entries of the archive's value table
// (9.4.8) read back the same by every way of reading them; an append adds entries to the table,
// a merge joins the tables; table_tags = false writes 1.5's.
#include <algorithm>

#include "pgnarc/pgnarc.h"
#include "support/archive_fixtures.h"

namespace pgnarc {
namespace {

using test::pack;

// Game i: moves, and its CurrentPosition tag (the final position of games 0 to 3).
const char* const kGames[][2] = {
    {"1. e4 *", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
    {"1. e4 d5 2. e5 f5 *", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
    {"1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Qc2 O-O 1/2-1/2",
     "rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/2N5/PPQ1PPPP/R1B1KBNR w KQ - 4 5"},
    {"*", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    {"1. e4 e5 *", "not a position"},
    {"1. e4 -- 2. d4 *", "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"},
    {"1. e4 e5 2. Ke3 *", "verbatim: an illegal move"},
};

std::string derived_pgn() {
  std::string pgn;
  for (std::size_t i = 0; i < std::size(kGames); ++i)
    pgn += "[Event \"E" + std::to_string(i) + "\"]\n[White \"W" + std::to_string(i) + "\"]\n[Black \"B" + std::to_string(i) +
           "\"]\n[CurrentPosition \"" + kGames[i][1] + "\"]\n[Termination \"" + (i % 2 ? "B" : "W") + std::to_string(i) +
           (i % 3 ? " won on time" : " won by checkmate") + "\"]\n\n" + kGames[i][0] + "\n\n";
  return pgn;
}

std::string read_version(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok());
  auto info = (*a)->info();
  EXPECT_TRUE(info.ok());
  return std::to_string(info->read_version.major) + "." + std::to_string(info->read_version.minor);
}

TEST(DerivedTags, EveryReadGivesTheValueBack) {
  // Blocks of 3 (derived columns and a block of none) and of 7 (the verbatim game beside
  // derived ones).
  for (std::size_t block_games : {3, 7}) {
    SCOPED_TRACE(block_games);
    WriterOptions o = test::small_blocks();
    o.block_games = block_games;
    const std::string derived = pack(derived_pgn(), "derived.pga", o);
    o.derive_tags = false;
    const std::string text = pack(derived_pgn(), "text.pga", o);
    EXPECT_EQ(read_version(derived), "1.4");
    EXPECT_NE(read_version(text), "1.4");
    EXPECT_LT(test::file_bytes(derived).size(), test::file_bytes(text).size());
    EXPECT_EQ(test::unpack_games(derived), test::expected_games(derived_pgn()));
    auto a = Archive::open(derived);
    auto t = Archive::open(text);
    ASSERT_TRUE(a.ok() && t.ok());
    for (std::uint64_t i = 0; i < std::size(kGames); ++i) {
      // read_tags alone first (the block not yet read for a game), then read_game; as the text
      // archive gives them (a verbatim game: the tag pairs read from its bytes).
      auto fresh = Archive::open(derived);
      ASSERT_TRUE(fresh.ok());
      auto tags = (*fresh)->read_tags(i);
      ASSERT_TRUE(tags.ok()) << tags.error().to_string();
      auto want = (*t)->read_tags(i);
      ASSERT_TRUE(want.ok());
      EXPECT_EQ(*tags, *want) << i;
      EXPECT_FALSE(tags->empty()) << i;
      // Only some keys: the game's tags of those keys, in its order (its moves decoded only for
      // CurrentPosition).
      for (const std::vector<std::string>& keys : {std::vector<std::string>{"Termination", "White"},
                                                   std::vector<std::string>{"CurrentPosition"},
                                                   std::vector<std::string>{"Nothing"}}) {
        auto some = (*fresh)->read_tags(i, keys);
        ASSERT_TRUE(some.ok()) << some.error().to_string();
        std::vector<Tag> expected;
        for (const Tag& tag : *want)
          if (std::find(keys.begin(), keys.end(), tag.key) != keys.end()) expected.push_back(tag);
        EXPECT_EQ(*some, expected) << i << " " << keys.front();
      }
      auto g = (*a)->read_game(i);
      ASSERT_TRUE(g.ok());
      if (!g->raw) EXPECT_EQ(g->game.tags, *tags) << i;
      Query q;
      q.tags.emplace_back("CurrentPosition", kGames[i][1]);
      auto found = (*a)->find(q);
      ASSERT_TRUE(found.ok()) << found.error().to_string();
      EXPECT_EQ(*found, std::vector<std::uint64_t>{i}) << kGames[i][1];
    }
    std::string pgn_derived, pgn_text;
    ASSERT_TRUE((*a)->export_pgn([&](std::string_view c) { return pgn_derived.append(c), true; }, 2).ok());
    ASSERT_TRUE((*t)->export_pgn([&](std::string_view c) { return pgn_text.append(c), true; }, 2).ok());
    EXPECT_EQ(pgn_derived, pgn_text);
    EXPECT_TRUE((*a)->verify().ok());
  }
}

TEST(DerivedTags, AMergeKeepsThemDerived) {
  WriterOptions o = test::small_blocks();
  o.block_games = 3;
  const std::string first = pack("[White \"A\"]\n\n1. e4 *\n", "first.pga", o);
  const std::string second = pack(derived_pgn(), "second.pga", o);
  const std::string merged = test::temp_path("merged.pga");
  auto w = ArchiveWriter::create(merged, o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->add_archive_blocks(first).ok());
  ASSERT_TRUE((*w)->add_archive_blocks(second).ok());  // its tags sections coded again (players joined)
  ASSERT_TRUE((*w)->finish().ok());
  EXPECT_EQ(read_version(merged), "1.4");
  auto games = test::unpack_games(merged);
  auto expected = test::expected_games("[White \"A\"]\n\n1. e4 *\n\n" + derived_pgn());
  EXPECT_EQ(games, expected);
  EXPECT_LT(test::file_bytes(merged).size(), test::file_bytes(first).size() + test::file_bytes(second).size());
}

// A lichess export's tags (ratings, rating changes, dates, times of day) with coded columns: a
// smaller archive of format 1.5 whose games, tags read one game at a time and merge are those
// of the archive without them.
TEST(CodedTags, EveryReadAndAMergeGiveTheTagsBack) {
  const std::string pgn = test::read_file(test::corpus_path("pgn/lichess_2021-10_clk_eval.pgn"));
  WriterOptions o;
  const std::string coded = pack(pgn, "coded.pga", o);
  o.code_tags = false;
  const std::string plain = pack(pgn, "plain.pga", o);
  EXPECT_EQ(read_version(coded), "1.5");
  EXPECT_NE(read_version(plain), "1.5");
  // Tags as text (derive_tags false) are never coded, whatever code_tags says.
  WriterOptions text_only;
  text_only.derive_tags = false;
  const std::string text = pack(pgn, "text.pga", text_only);
  EXPECT_EQ(test::file_bytes(text), test::file_bytes(plain)) << "(no derived or named column in these games)";
  EXPECT_LT(test::file_bytes(coded).size(), test::file_bytes(plain).size());
  EXPECT_EQ(test::unpack_games(coded), test::unpack_games(plain));
  auto a = Archive::open(coded);
  auto b = Archive::open(plain);
  ASSERT_TRUE(a.ok() && b.ok());
  for (std::uint64_t i = 0; i < 40; i += 7) {
    auto fresh = Archive::open(coded);
    ASSERT_TRUE(fresh.ok());
    auto tags = (*fresh)->read_tags(i);
    ASSERT_TRUE(tags.ok()) << tags.error().to_string();
    auto want = (*b)->read_tags(i);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(*tags, *want) << i;
  }
  // Merged after another archive (its players joined: the tags sections coded again).
  const std::string first = pack("[White \"A\"]\n\n1. e4 *\n", "first.pga", o);
  const std::string merged = test::temp_path("merged.pga");
  auto w = ArchiveWriter::create(merged, WriterOptions{});
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->add_archive_blocks(first).ok());
  ASSERT_TRUE((*w)->add_archive_blocks(coded).ok());
  ASSERT_TRUE((*w)->finish().ok());
  EXPECT_EQ(read_version(merged), "1.5");
  auto games = test::unpack_games(merged);
  auto expected = test::unpack_games(plain);
  expected.insert(expected.begin(), test::expected_games("[White \"A\"]\n\n1. e4 *\n").front());
  EXPECT_EQ(games, expected);
}

// TWIC's games in blocks of 5: their ECO, Opening and Variation tags in a value table.
WriterOptions table_options() {
  WriterOptions o;
  o.block_games = 5;
  o.dictionary_bytes = 0;
  o.name_entries = false;  // (the read versions are the value table's)
  return o;
}

// Games of the value table's keys as a table pays for them: 30 games of three openings, the
// openings of `first` and later.
std::string openings_pgn(int first) {
  std::string pgn;
  for (int g = 0; g < 30; ++g) {
    const int o = first + g % 3;
    pgn += "[White \"p" + std::to_string(g) + "\"]\n[ECO \"A" + std::to_string(10 + o) + "\"]\n[Opening \"Opening number " +
           std::to_string(o) + ", a long name\"]\n\n1. d4 *\n\n";
  }
  return pgn;
}

TEST(TableTags, EveryReadGivesTheTagsBack) {
  const std::string pgn = test::read_file(test::corpus_path("pgn/twic_events.pgn"));
  WriterOptions o = table_options();
  const std::string tabled = pack(pgn, "tabled.pga", o);
  o.table_tags = false;
  const std::string coded = pack(pgn, "coded.pga", o);
  EXPECT_EQ(read_version(tabled), "1.6");
  EXPECT_NE(read_version(coded), "1.6");
  EXPECT_LT(test::file_bytes(tabled).size(), test::file_bytes(coded).size());
  EXPECT_EQ(test::unpack_games(tabled), test::unpack_games(coded));
  auto plain = Archive::open(coded);
  ASSERT_TRUE(plain.ok());
  for (std::uint64_t i = 0; i < (*plain)->game_count(); i += 3) {
    auto fresh = Archive::open(tabled);  // the first read of each block decodes the games it needs
    ASSERT_TRUE(fresh.ok());
    auto tags = (*fresh)->read_tags(i);
    ASSERT_TRUE(tags.ok()) << tags.error().to_string();
    EXPECT_EQ(*tags, *(*plain)->read_tags(i)) << i;
  }
  auto a = Archive::open(tabled);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE((*a)->verify().ok());
  // info counts the table's entries and bytes and the blocks that name them.
  auto info = (*a)->info();
  ASSERT_TRUE(info.ok());
  EXPECT_GT(info->value_table_entries, 10u);
  EXPECT_GT(info->value_table_bytes, 21u);
  EXPECT_LT(info->value_table_bytes, info->index_bytes);
  EXPECT_EQ(info->value_table_blocks, info->blocks);
  EXPECT_NE(archive_info_json(*info).find("\"value_table_entries\": " + std::to_string(info->value_table_entries)),
            std::string::npos);
  EXPECT_EQ((*plain)->info()->value_table_entries, 0u);
}

// An append adds the new games' openings to the table; a merge keeps the first archive's table
// and codes the others' blocks again against it, after an archive without a table too.
TEST(TableTags, AnAppendAndAMergeJoinTheTables) {
  const WriterOptions o = table_options();
  const std::string first = pack(openings_pgn(0), "first.pga", o);
  const std::string second = pack(openings_pgn(2), "second.pga", o);
  EXPECT_EQ(read_version(first), "1.6");
  EXPECT_EQ(read_version(second), "1.6");
  const std::string appended = test::temp_path("appended.pga");
  {
    auto w = ArchiveWriter::create(appended, o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->add_archive_blocks(first).ok());
    PgnReader reader(memory_input(openings_pgn(2)), "more.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  EXPECT_EQ(test::unpack_games(appended), test::expected_games(openings_pgn(0) + openings_pgn(2)));
  for (const bool first_tabled : {true, false}) {
    WriterOptions plain = o;
    plain.table_tags = false;
    const std::string one = first_tabled ? first : pack(openings_pgn(0), "plain.pga", plain);
    const std::string merged = test::temp_path("merged.pga");
    auto w = ArchiveWriter::create(merged, o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->add_archive_blocks(one).ok());
    ASSERT_TRUE((*w)->add_archive_blocks(second).ok());
    ASSERT_TRUE((*w)->finish().ok());
    EXPECT_EQ(read_version(merged) == "1.6", first_tabled) << "the first archive's table, or none";
    EXPECT_EQ(test::unpack_games(merged), test::expected_games(openings_pgn(0) + openings_pgn(2))) << first_tabled;
    auto m = Archive::open(merged);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE((*m)->verify().ok());
  }
}

}  // namespace
}  // namespace pgnarc
