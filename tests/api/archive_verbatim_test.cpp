// Games kept verbatim are found by their readable tags (format spec 8.5, REC-RAW-1) and still
// come back as their bytes; info counts plies and verbatim games without decoding a game.
#include "pgnarc/pgnarc.h"
#include "support/archive_fixtures.h"
#include "scan_oracle.h"

namespace pgnarc {
namespace {

using test::pack;

// Game 1 is coded; 2 (crazyhouse) and 3 (an illegal move) fail in their movetext, so all their
// tags are readable; 4 fails at a malformed tag pair, so only the tags before it are.
const std::string kCrazyhouse =
    "[Event \"Zh Arena\"]\n[Date \"2021.03.04\"]\n[White \"Zhang\"]\n[Black \"Hikaru\"]\n[Result \"1-0\"]\n"
    "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. N@e5 1-0";
const std::string kIllegal =
    "[Event \"Blitz\"]\n[Date \"1999.??.??\"]\n[White \"Nobody\"]\n[Black \"Zhang\"]\n[Result \"0-1\"]\n\n"
    "1. e4 e5 2. Ke3 0-1";
const std::string kBadTag = "[Event \"Broken\"]\n[White \"Ostrov\"]\n[Black Zhang]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2";
const std::string kPgn = "[Event \"Open\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"*\"]\n\n1. e4 *\n\n" +
                         kCrazyhouse + "\n\n" + kIllegal + "\n\n" + kBadTag + "\n";

std::vector<std::uint64_t> found(Archive& a, const Query& q) {
  auto r = a.find(q);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  auto oracle = test::find_by_scan(a, q);
  EXPECT_TRUE(oracle.ok());
  if (r.ok() && oracle.ok()) EXPECT_EQ(*r, *oracle) << "the index and the scan disagree";
  return r.ok() ? *r : std::vector<std::uint64_t>{};
}

TEST(ArchiveVerbatim, FoundByTheirReadableTags) {
  auto a = Archive::open(pack(kPgn, "verbatim_tags.pga"));
  ASSERT_TRUE(a.ok());
  ASSERT_EQ((*a)->game_count(), 4u);
  Query by_player;
  by_player.player = "zhang";
  EXPECT_EQ(found(**a, by_player), (std::vector<std::uint64_t>{1, 2}));  // not 3: its Black is unreadable
  Query exact;
  exact.white = "Zhang";
  exact.exact_names = true;  // one name chunk, then the tags
  EXPECT_EQ(found(**a, exact), (std::vector<std::uint64_t>{1}));
  Query event;
  event.event = "broken";
  EXPECT_EQ(found(**a, event), (std::vector<std::uint64_t>{3}));
  Query dated;  // the block summary's dates come from the verbatim games' tags too
  dated.date_from = "2021.03";
  dated.date_to = "2021.03.04";
  EXPECT_EQ(found(**a, dated), (std::vector<std::uint64_t>{1}));
  Query result;
  result.result = "0-1";
  EXPECT_EQ(found(**a, result), (std::vector<std::uint64_t>{2}));
  Query variant;
  variant.tags = {{"Variant", "Crazyhouse"}};
  EXPECT_EQ(found(**a, variant), (std::vector<std::uint64_t>{1}));

  auto tags = (*a)->read_tags(3);
  ASSERT_TRUE(tags.ok());
  // The well-formed pairs before and after the malformed [Black Zhang].
  EXPECT_EQ(*tags, (std::vector<Tag>{{"Event", "Broken"}, {"White", "Ostrov"}, {"Result", "1/2-1/2"}}));
}

TEST(ArchiveVerbatim, StillTheirBytesAndNothingMore) {
  auto a = Archive::open(pack(kPgn, "verbatim_bytes.pga"));
  ASSERT_TRUE(a.ok());
  const std::string raws[] = {kCrazyhouse, kIllegal, kBadTag};
  for (std::uint64_t i = 1; i < 4; ++i) {
    auto g = (*a)->read_game(i);
    ASSERT_TRUE(g.ok());
    EXPECT_TRUE(g->raw);
    EXPECT_EQ(g->raw_text, raws[i - 1]);
    EXPECT_TRUE(g->game.tags.empty());
    auto pgn = (*a)->read_pgn(i);
    ASSERT_TRUE(pgn.ok());
    EXPECT_EQ(*pgn, raws[i - 1] + "\n\n") << "the tags are not written again";
  }
  std::string all;
  ASSERT_TRUE((*a)->export_pgn([&](std::string_view s) { all += s; return true; }).ok());
  EXPECT_EQ(all.substr(all.find("[Event \"Zh")), kCrazyhouse + "\n\n" + kIllegal + "\n\n" + kBadTag + "\n\n");
  EXPECT_TRUE((*a)->verify().ok());
}

// ArchiveWriter::add_game keeps a value written without escapes (Tag::unescaped) as it is where it
// reads back so, refuses one that does not (no quote or backslash, a line break that would start
// a tag pair of its own), and writes them escaped in an archive that may not hold them.
TEST(ArchiveVerbatim, AddGameKeepsUnescapedValuesThatReadBack) {
  Game g;
  g.tags = {Tag{"Event", "Cup \"A\" 1990", true}, Tag{"Site", "C:\\games", true}};
  g.events = {GameEvent::make_move(Move(make_square(4, 1), make_square(4, 3)))};
  const auto write = [&](const Game& game, const WriterOptions& o, const std::string& name) {
    const std::string path = test::temp_path(name);
    auto w = ArchiveWriter::create(path, o);
    EXPECT_TRUE(w.ok());
    const Status added = (*w)->add_game(game);
    EXPECT_TRUE((*w)->finish().ok());
    return std::make_pair(added, path);
  };
  auto [ok, path] = write(g, WriterOptions{}, "add_unescaped.pga");
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*(*a)->read_tags(0), g.tags);
  EXPECT_TRUE((*a)->read_pgn(0)->starts_with("[Event \"Cup \"A\" 1990\"]\n[Site \"C:\\games\"]\n\n1. e4"));
  for (const std::string bad : {"plain", "x\"]\n[Inject \"1", "a\\\\b"}) {
    Game b = g;
    b.tags[0].value = bad;
    auto [refused, unused] = write(b, WriterOptions{}, "add_unescaped_bad.pga");
    EXPECT_FALSE(refused.ok()) << bad;
  }
  WriterOptions coded;
  coded.table_tags = false;
  auto [escaped, escaped_path] = write(g, coded, "add_unescaped_escaped.pga");
  ASSERT_TRUE(escaped.ok());
  auto e = Archive::open(escaped_path);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(*(*e)->read_tags(0), (std::vector<Tag>{{"Event", "Cup \"A\" 1990"}, {"Site", "C:\\games"}}));
  EXPECT_TRUE((*e)->read_pgn(0)->starts_with("[Event \"Cup \\\"A\\\" 1990\"]\n[Site \"C:\\\\games\"]\n"));
}

}  // namespace
}  // namespace pgnarc
