// The container and reader library: round trips, random access, determinism, append and merge,
// search, and detection of every single-byte flip and every truncation.
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "support/pgn_util.h"
#include "pgnarc/pgnarc.h"
#include "support/archive_fixtures.h"
#include "scan_oracle.h"

namespace pgnarc {
namespace {

using test::read_all;
using test::ReadGame;
using test::expected_games;
using test::file_bytes;
using test::pack;
using test::sample_pgn;
using test::small_blocks;
using test::temp_path;
using test::unpack_games;

TEST(Archive, RoundTripNothingLost) {
  const std::string path = pack(sample_pgn(), "rt.pga", small_blocks());
  const auto got = unpack_games(path);
  const auto want = expected_games(sample_pgn());
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].ok, want[i].ok) << "game " << i + 1;
    if (want[i].ok) ASSERT_EQ(got[i].game, want[i].game) << "game " << i + 1;
    else ASSERT_EQ(got[i].raw, want[i].raw) << "game " << i + 1;
  }
  auto a = Archive::open(path);
  EXPECT_GT((*a)->block_count(), 50u);
}

TEST(Archive, RandomAccessEqualsSequentialDecode) {
  const std::string path = pack(sample_pgn(), "ra.pga", small_blocks());
  const auto seq = unpack_games(path);
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  std::mt19937_64 rng(1);
  for (int k = 0; k < 400; ++k) {
    const std::uint64_t i = rng() % seq.size();
    auto g = (*a)->read_game(i);
    ASSERT_TRUE(g.ok()) << g.error().to_string();
    EXPECT_EQ(!g->raw, seq[i].ok);
    if (!g->raw) {
      EXPECT_EQ(g->game, seq[i].game);
      auto tags = (*a)->read_tags(i);
      ASSERT_TRUE(tags.ok());
      EXPECT_EQ(*tags, seq[i].game.tags);
    }
  }
  EXPECT_EQ((*a)->read_game(seq.size()).error().code(), ErrorCode::InvalidInput);
}

// Every game read by number, in a random order, so that most reads are the first of their
// block (each decodes only its own games' tags), then in order (two reads of a block so, then
// the whole section), with every move coder (uniform: several games a directory group, the
// ones before it in the group decoded too): the games and tags of a pass in order.
TEST(Archive, EveryGameReadByNumberEqualsThePass) {
  for (const MoveCoding coding : {MoveCoding::kFast, MoveCoding::kMax, MoveCoding::kUniform}) {
    WriterOptions o;
    o.block_games = 40;
    o.moves = coding;
    const std::string path = pack(sample_pgn(), "by_number.pga", o);
    const auto seq = unpack_games(path);
    auto a = Archive::open(path);
    ASSERT_TRUE(a.ok());
    ASSERT_GT((*a)->block_count(), 5u);
    std::vector<std::uint64_t> order(seq.size());
    for (std::uint64_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(3));
    for (const std::uint64_t i : order) {
      auto g = (*a)->read_game(i);
      ASSERT_TRUE(g.ok()) << g.error().to_string();
      ASSERT_EQ(!g->raw, seq[i].ok) << "game " << i + 1;
      if (g->raw) continue;
      EXPECT_EQ(g->game, seq[i].game) << "game " << i + 1;
      auto fresh = Archive::open(path);
      auto tags = (*fresh)->read_tags(i);
      ASSERT_TRUE(tags.ok());
      EXPECT_EQ(*tags, seq[i].game.tags) << "game " << i + 1;
    }
    auto in_order = Archive::open(path);
    for (std::uint64_t i = 0; i < seq.size(); ++i) {
      auto g = (*in_order)->read_game(i);
      ASSERT_TRUE(g.ok()) << g.error().to_string();
      if (!g->raw) EXPECT_EQ(g->game, seq[i].game) << "game " << i + 1;
    }
  }
}

// Tag columns of every reference width (one value: none; up to 255 values: one byte; more: two
// bytes), a key used twice in one game and games without tags: one game's tags read on their
// own (a fresh reader, so that no other game of the block was decoded) equal the whole block's
// decode and the input.
TEST(Archive, OneGamesTagsEqualTheWholeBlocks) {
  std::string pgn;
  for (int i = 0; i < 700; ++i) {
    if (i % 97 == 5) {  // no tags at all
      pgn += "1. d4 d5 *\n\n";
      continue;
    }
    pgn += "[Event \"Open\"]\n[Round \"" + std::to_string(i) + "\"]\n[White \"Player " + std::to_string(i % 40) + "\"]\n";
    if (i % 3 == 0) pgn += "[Annotator \"A" + std::to_string(i % 5) + "\"]\n";
    pgn += "\n1. e4 e5 *\n\n";
  }
  std::vector<Game> games;
  for (auto& g : expected_games(pgn)) games.push_back(std::move(g.game));
  ASSERT_EQ(games.size(), 700u);
  for (std::size_t i = 0; i < games.size(); i += 3)  // a key twice in one game (PGN text cannot say this)
    if (!games[i].tags.empty()) games[i].tags.push_back(Tag{"Annotator", "B" + std::to_string(i % 7)});
  const std::string path = temp_path("tagcols.pga");
  {
    WriterOptions one_block;
    one_block.block_bytes = std::size_t{1} << 24;
    auto w = ArchiveWriter::create(path, one_block);
    ASSERT_TRUE(w.ok());
    for (const Game& g : games) ASSERT_TRUE((*w)->add_game(g).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  const auto whole = unpack_games(path);
  ASSERT_EQ(whole.size(), games.size());
  for (std::uint64_t i = 0; i < whole.size(); i += 1 + i % 5) {
    auto a = Archive::open(path);
    ASSERT_TRUE(a.ok());
    ASSERT_EQ((*a)->block_count(), 1u);
    auto tags = (*a)->read_tags(i);
    ASSERT_TRUE(tags.ok()) << tags.error().to_string();
    EXPECT_EQ(*tags, whole[i].game.tags) << "game " << i;
    EXPECT_EQ(*tags, games[i].tags) << "game " << i;
  }
  EXPECT_EQ(whole[5].game.tags.size(), 0u);
  ASSERT_EQ(whole[3].game.tags.size(), 5u);
  EXPECT_EQ(whole[3].game.tags[4].value, "B3");
}

TEST(Archive, SameBytesWhateverTheThreadCount) {
  WriterOptions one = small_blocks(), four = small_blocks();
  one.threads = 1;
  four.threads = 4;
  EXPECT_EQ(file_bytes(pack(sample_pgn(), "t1.pga", one)), file_bytes(pack(sample_pgn(), "t4.pga", four)));
}

TEST(Archive, EmptyArchive) {
  const std::string path = pack("", "empty.pga");
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_EQ((*a)->game_count(), 0u);
  EXPECT_TRUE((*a)->verify().ok());
  // Header, index (magic, encoding, size; 6 empty counts: dictionaries, block table chunks, the
  // 3 name fields' chunks and extensions), footer.
  EXPECT_EQ(file_bytes(path).size(), 32u + 4 + 1 + 4 + 6 + 48);
}

// The sample cut in two at a game boundary, each half packed with `parts`, then joined two ways
// by writers with `joined`: merged (both archives' blocks copied) and appended to (the first
// archive's blocks copied, the second half added as PGN). Returns the two paths.
std::pair<std::string, std::string> join_halves(const std::string& prefix, const WriterOptions& parts,
                                                const WriterOptions& joined) {
  const std::string text = sample_pgn();
  const std::size_t cut = text.find("\n\n[Event", text.size() / 2) + 2;
  const std::string first = text.substr(0, cut), second = text.substr(cut);
  const std::string a = pack(first, prefix + "_a.pga", parts), b = pack(second, prefix + "_b.pga", parts);
  const std::string merged = temp_path(prefix + "_merged.pga");
  {
    auto w = ArchiveWriter::create(merged, joined);
    EXPECT_TRUE(w.ok());
    EXPECT_TRUE((*w)->add_archive_blocks(a).ok());
    EXPECT_TRUE((*w)->add_archive_blocks(b).ok());
    EXPECT_TRUE((*w)->finish().ok());
  }
  const std::string appended = pack(first, prefix + "_appended.pga", parts);
  {
    auto w = ArchiveWriter::create(appended, joined);
    EXPECT_TRUE(w.ok());
    EXPECT_TRUE((*w)->add_archive_blocks(appended).ok());
    PgnReader reader(memory_input(second), "second.pgn");
    EXPECT_TRUE((*w)->add_pgn(reader).ok());
    EXPECT_TRUE((*w)->finish().ok());
  }
  return {merged, appended};
}

TEST(Archive, AppendAndMergeEqualASinglePack) {
  const auto whole = unpack_games(pack(sample_pgn(), "whole.pga", small_blocks()));
  const auto [merged, appended] = join_halves("join", small_blocks(), small_blocks());
  EXPECT_EQ(unpack_games(merged), whole);
  EXPECT_EQ(unpack_games(appended), whole);
}

// [BLOCK-7] A merge copies a block's optional sections (of a later minor version) with it, also
// where it codes the block's tags section again for the joined players' table: the merged archive
// reads as its sources do, and the copied block still holds them.
TEST(Archive, MergeKeepsOptionalSections) {
  const std::string players = pack("[White \"a\"]\n[Black \"b\"]\n\n1. e4 *\n", "players.pga", small_blocks());
  const std::string optional = test::corpus_path("conformance/valid/optional_sections.pga");
  const std::string merged = temp_path("merged_optional.pga");
  {
    auto w = ArchiveWriter::create(merged, small_blocks());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->add_archive_blocks(players).ok());
    ASSERT_TRUE((*w)->add_archive_blocks(optional).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  auto expected = unpack_games(players);
  for (const auto& g : unpack_games(optional)) expected.push_back(g);
  EXPECT_EQ(unpack_games(merged), expected);
  auto a = Archive::open(merged);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE((*a)->verify().ok());
  const std::string bytes = file_bytes(merged);
  const std::size_t second = bytes.find("PGAB", bytes.find("PGAB") + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_EQ(bytes[second + 5], 7) << "the copied block's section count";
  EXPECT_NE(bytes.find("even later"), std::string::npos) << "an optional section's bytes";
}

// [TABLE-1] The same with block tables of many chunks: sources of two blocks a chunk, the
// joined archive of three, so that every copied chunk is read and cut again. Its games, a
// search by the block summaries and its verification agree with a single pack.
TEST(Archive, AppendAndMergeReadEveryTableChunk) {
  WriterOptions two = small_blocks(), three = small_blocks();
  two.table_chunk_blocks = 2;
  three.table_chunk_blocks = 3;
  const auto whole = unpack_games(pack(sample_pgn(), "tables_whole.pga", small_blocks()));
  const auto [merged, appended] = join_halves("tables", two, three);
  for (const std::string& path : {merged, appended}) {
    EXPECT_EQ(unpack_games(path), whole) << path;
    auto arc = Archive::open(path);
    ASSERT_TRUE(arc.ok());
    EXPECT_TRUE((*arc)->verify().ok()) << path;
    auto info = (*arc)->info();
    ASSERT_TRUE(info.ok());
    ASSERT_GT(info->blocks, 6u);
    EXPECT_EQ(info->table_chunks, (info->blocks + 2) / 3) << path;
    Query q;
    q.result = "1-0";
    q.date_from = "1990";
    auto fast = (*arc)->find(q);
    auto slow = test::find_by_scan(**arc, q);
    ASSERT_TRUE(fast.ok() && slow.ok()) << path;
    EXPECT_EQ(*fast, *slow) << path;
    EXPECT_FALSE(fast->empty()) << path;
  }
}

// [NAME-1] Append and merge carry the copied archives' name chunks over, renumbered: in an
// archive merged from two (and in one appended to), with small chunks and names spilled to the
// scratch file at every step, an exact search for every White, Black, Event and Site value finds
// what a scan finds, and finds something.
TEST(Archive, AppendAndMergeKeepEveryName) {
  const char* const fields[4] = {"White", "Black", "Event", "Site"};
  WriterOptions o = small_blocks();
  o.name_chunk_bytes = 64;
  o.name_memory_bytes = 1;
  const auto [merged, appended] = join_halves("names", o, o);
  for (const std::string& path : {merged, appended}) {
    auto arc = Archive::open(path);
    ASSERT_TRUE(arc.ok());
    ASSERT_TRUE((*arc)->verify().ok()) << path;
    std::set<std::pair<int, std::string>> values;
    for (const ReadGame& g : unpack_games(path))
      for (int f = 0; f < 4; ++f)
        if (const std::string* v = g.game.tag(fields[f])) values.insert({f, *v});
    ASSERT_GT(values.size(), 20u);
    for (const auto& [f, v] : values) {
      Query q;
      q.exact_names = true;
      (f == 0 ? q.white : f == 1 ? q.black : f == 2 ? q.event : q.site) = v;
      auto fast = (*arc)->find(q);
      auto slow = test::find_by_scan(**arc, q);
      ASSERT_TRUE(fast.ok() && slow.ok()) << v;
      EXPECT_EQ(*fast, *slow) << path << ": " << fields[f] << " " << v;
      EXPECT_FALSE(fast->empty()) << v;
    }
  }
}

// The writer's name scratch file is gone as soon as it is made: a pack that spills names at
// every step leaves nothing beside its archive, finished or not.
TEST(Archive, NameScratchFileLeavesNothing) {
  const test::ScratchDir dir("scratch");
  WriterOptions o = small_blocks();
  o.name_memory_bytes = 1;
  for (const bool finish : {true, false}) {
    auto w = ArchiveWriter::create(dir.file("spilled.pga"), o);
    ASSERT_TRUE(w.ok());
    PgnReader reader(memory_input(sample_pgn()), "s.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    if (finish) ASSERT_TRUE((*w)->finish().ok());
    w->reset();
    std::vector<std::string> left;
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
    EXPECT_EQ(left, finish ? std::vector<std::string>{"spilled.pga"} : std::vector<std::string>{}) << finish;
    std::filesystem::remove(dir.file("spilled.pga"));
  }
}

TEST(Archive, UnfinishedWriterLeavesNothing) {
  const std::string path = temp_path("unfinished.pga");
  {
    auto w = ArchiveWriter::create(path);
    PgnReader reader(memory_input(sample_pgn()), "s.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
  }  // destroyed without finish()
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_FALSE(e.path().filename().string().starts_with("unfinished.pga.tmp.")) << e.path();
}

// [NAME-1] Name tables in many small chunks (64 bytes each), collected with a memory budget so
// small that every name goes to the scratch file: the archive is byte for byte the one made with
// the names held in memory, and an exact search for each White and Black value (reading only the
// chunk whose range holds it) and substring searches find what a scan finds.
TEST(ArchiveSearch, SmallNameChunksAndSpilledNamesFindTheSame) {
  WriterOptions o = small_blocks();
  o.name_chunk_bytes = 64;
  const std::string held = file_bytes(pack(sample_pgn(), "chunks_held.pga", o));
  o.name_memory_bytes = 1;
  const std::string path = pack(sample_pgn(), "chunks_spilled.pga", o);
  ASSERT_EQ(file_bytes(path), held) << "the archive depends on the writer's name memory";
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  auto info = (*a)->info();
  ASSERT_TRUE(info.ok());
  EXPECT_GT(info->name_chunks, 8u) << "the sample should need many chunks";
  ASSERT_TRUE((*a)->verify().ok());
  std::set<std::string> names;
  for (const ReadGame& g : unpack_games(path))
    for (const char* key : {"White", "Black"})
      if (const std::string* v = g.game.tag(key)) names.insert(*v);
  ASSERT_GT(names.size(), 10u);
  std::vector<Query> queries;
  for (const std::string& n : names) {
    Query q;
    q.player = n;
    q.exact_names = true;
    queries.push_back(q);
  }
  for (const char* part : {"a", "carlsen", "zz-nobody", "Kasparov"}) {
    Query q;
    q.player = part;
    queries.push_back(q);
  }
  for (const Query& q : queries) {
    const auto found = test::expect_find_equals_scan(**a, q, *q.player);
    if (q.exact_names) EXPECT_FALSE(found.empty()) << *q.player;
  }
}

// [INDEX-1] A name chunk may hold more entries than it has bytes: 4,000 players named by
// numbers, whose sorted table compresses to about a byte per name, make an archive that opens,
// verifies and finds each of them.
TEST(ArchiveSearch, NameChunkOfMoreEntriesThanBytes) {
  std::string pgn;
  for (int i = 0; i < 2000; ++i)
    pgn += "[White \"" + std::to_string(10000 + 2 * i) + "\"]\n[Black \"" + std::to_string(10001 + 2 * i) +
           "\"]\n\n1. e4 *\n\n";
  const std::string path = pack(pgn, "many_names.pga");
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  ASSERT_TRUE((*a)->verify().ok());
  auto info = (*a)->info();
  ASSERT_TRUE(info.ok());
  EXPECT_LT(info->name_bytes, 4000u) << "the table should compress below a byte a name";
  for (const int n : {10000, 12345, 13999}) {
    Query q;
    q.player = std::to_string(n);
    q.exact_names = true;
    EXPECT_EQ(test::expect_find_equals_scan(**a, q, *q.player).size(), 1u) << n;
  }
}

// A malformed date is refused, not read as "any date" (a typo of --date-from once matched
// every dated game); "-" and "/" stand for "." and give the same games.
TEST(ArchiveSearch, MalformedDatesAreRefused) {
  const std::string path = pack(sample_pgn(), "dates.pga", small_blocks());
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  for (const char* bad : {"20xx", "2012.13", "2012.12.32", "2012.00", "12", "2012.1.5", "", "2012.12.04 "}) {
    Query q;
    q.date_to = bad;
    EXPECT_NE(query_error(q), "") << bad;
    for (bool indexed : {true, false}) {
      auto r = indexed ? (*a)->find(q) : test::find_by_scan(**a, q);
      ASSERT_FALSE(r.ok()) << bad;
      EXPECT_EQ(r.error().code(), ErrorCode::InvalidInput) << bad;
      EXPECT_NE(r.error().message().find(std::string("'") + bad + "'"), std::string::npos) << r.error().message();
    }
  }
  Query dots, dashes, slashes;
  dots.date_from = "2012.12.01";
  dashes.date_from = "2012-12-01";
  slashes.date_from = "2012/12/01";
  for (const Query* q : {&dots, &dashes, &slashes}) EXPECT_EQ(query_error(*q), "");
  const auto want = (*a)->find(dots);
  ASSERT_TRUE(want.ok());
  EXPECT_FALSE(want->empty());
  EXPECT_EQ(*(*a)->find(dashes), *want);
  EXPECT_EQ(*(*a)->find(slashes), *want);
}

TEST(ArchiveSearch, IndexedFindEqualsScanAndBruteForce) {
  const std::string path = pack(sample_pgn(), "find.pga", small_blocks());
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  const auto games = unpack_games(path);
  std::vector<Query> queries(12);
  queries[0].player = "carlsen";
  queries[1].white = "Carlsen,M";
  queries[1].exact_names = true;
  queries[2].black = "ANAND";
  queries[3].event = "olympiad";
  queries[4].result = "1/2-1/2";
  queries[5].eco = "B9";
  queries[6].date_from = "2012.12.01";
  queries[6].date_to = "2012.12.31";
  queries[7].date_from = "1900";
  queries[7].date_to = "1950";
  queries[8].tags = {{"Variant", "Standard"}};
  queries[9].player = "nobody-at-all";
  queries[10].site = "lichess";
  queries[10].result = "0-1";
  queries[11].date_to = "1800";
  for (std::size_t k = 0; k < queries.size(); ++k) {
    auto fast = (*a)->find(queries[k]);
    auto slow = test::find_by_scan(**a, queries[k]);
    ASSERT_TRUE(fast.ok() && slow.ok());
    EXPECT_EQ(*fast, *slow) << "query " << k;
    if (k != 9) EXPECT_FALSE(fast->empty()) << "query " << k << " should match something";
  }
  // Brute force for one query: games whose White or Black contains "carlsen".
  std::vector<std::uint64_t> brute;
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (!games[i].ok) continue;
    for (const char* key : {"White", "Black"}) {
      const std::string* v = games[i].game.tag(key);
      std::string low = v ? *v : "";
      for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (low.find("carlsen") != std::string::npos) {
        brute.push_back(i);
        break;
      }
    }
  }
  EXPECT_EQ(*(*a)->find(queries[0]), brute);
  // ECO prefixes match in either case.
  Query lower_eco;
  lower_eco.eco = "b9";
  EXPECT_EQ(*(*a)->find(lower_eco), *(*a)->find(queries[5]));
  // A search right after single-game reads (whose block keeps only that game's tags) sees every
  // game's tags: once per block, the block of the game read is the one cached.
  const auto all = *test::find_by_scan(**a, queries[4]);
  auto b = Archive::open(path);
  ASSERT_TRUE(b.ok());
  for (std::uint64_t i = 0; i < (*b)->game_count(); i += 7) {
    ASSERT_TRUE((*b)->read_game(i).ok());
    auto fast = (*b)->find(queries[4]);
    auto slow = test::find_by_scan(**b, queries[4]);
    ASSERT_TRUE(fast.ok() && slow.ok());
    ASSERT_EQ(*fast, all) << "after reading game " << i;
    ASSERT_EQ(*slow, all) << "after reading game " << i;
  }
}

// [NAME-1] A Site that is a web address (http:// or https://, any case) names one game and stays
// out of the Site table: the name tables are those of the same games without their Site tags;
// searches for an address, by substring and for a place name still find what a scan finds.
TEST(ArchiveSearch, SiteWebAddressesStayOutOfTheNameTable) {
  std::string with_sites, without_sites;
  std::vector<std::string> sites;
  for (int i = 0; i < 60; ++i) {
    const std::string site = i % 10 == 0   ? "Berlin GER"
                             : i % 10 == 1 ? "HTTP://Example.org/game/" + std::to_string(i)
                                           : "https://lichess.org/g" + std::to_string(1000 + i * 7);
    sites.push_back(site);
    const std::string rest = "[White \"w" + std::to_string(i % 13) + "\"]\n[Black \"b" + std::to_string(i % 7) +
                             "\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n";
    const bool address = site.find("://") != std::string::npos;
    with_sites += "[Event \"E\"]\n[Site \"" + site + "\"]\n" + rest;
    without_sites += "[Event \"E\"]\n" + (address ? "" : "[Site \"" + site + "\"]\n") + rest;
  }
  const std::string path = pack(with_sites, "sites.pga", small_blocks());
  const std::string bare = pack(without_sites, "sites_bare.pga", small_blocks());
  auto a = Archive::open(path);
  auto b = Archive::open(bare);
  ASSERT_TRUE(a.ok() && b.ok());
  auto ia = (*a)->info();
  auto ib = (*b)->info();
  ASSERT_TRUE(ia.ok() && ib.ok());
  EXPECT_GT(ia->blocks, 1u);
  EXPECT_EQ(ia->name_chunks, ib->name_chunks);
  EXPECT_EQ(ia->name_bytes, ib->name_bytes);
  std::vector<Query> queries;
  for (const std::string& site : {sites[0], sites[1], sites[5], sites[59]}) {
    Query q;
    q.site = site;
    q.exact_names = true;
    queries.push_back(q);
  }
  for (const char* part : {"lichess.org/g1", "EXAMPLE", "berlin"}) {
    Query q;
    q.site = part;
    queries.push_back(q);
  }
  for (const Query& q : queries) EXPECT_FALSE(test::expect_find_equals_scan(**a, q, *q.site).empty()) << *q.site;
}

// Every single-byte change anywhere in the file is detected: open or verify fails with
// Corruption (or Unsupported for a future read version), never a crash or a wrong game.
TEST(ArchiveDamage, EverySingleByteFlipIsDetected) {
  const std::string text = test::read_file(test::corpus_path("pgn/annotated_human.pgn")).substr(0, 6000);
  const std::string path = pack(text, "flip.pga", small_blocks());
  const std::string good = file_bytes(path);
  const std::string damaged = temp_path("damaged.pga");
  int detected = 0;
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    { std::ofstream(damaged, std::ios::binary) << bad; }
    auto a = Archive::open(damaged);
    Status st = a.ok() ? (*a)->verify() : Status(a.error());
    ASSERT_FALSE(st.ok()) << "flip at byte " << i << " not detected";
    EXPECT_TRUE(st.error().code() == ErrorCode::Corruption || st.error().code() == ErrorCode::Unsupported)
        << st.error().to_string();
    ++detected;
  }
  EXPECT_EQ(detected, static_cast<int>(good.size()));
}

// The same flips met by random reads, each game by a fresh reader (so that the first read of its
// block decodes only its own games' tags): a read gives the game and tags it gave before or
// fails, never other ones; and some read of the archive fails.
TEST(ArchiveDamage, EverySingleByteFlipFailsARandomReadOrChangesNothing) {
  const std::string text = test::read_file(test::corpus_path("pgn/twic_events.pgn")).substr(0, 9000);
  const std::string path = pack(text, "flip_read.pga", small_blocks());
  const std::string good = file_bytes(path);
  const auto want = unpack_games(path);
  ASSERT_GT(want.size(), 7u);
  std::vector<std::vector<Tag>> want_tags;  // verbatim games' too (the tags they could read)
  auto original = Archive::open(path);
  for (std::uint64_t g = 0; g < want.size(); ++g) want_tags.push_back(*(*original)->read_tags(g));
  const std::string damaged = temp_path("damaged_read.pga");
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    { std::ofstream(damaged, std::ios::binary) << bad; }
    if (!Archive::open(damaged).ok()) continue;
    bool failed = false;
    for (std::uint64_t g = 0; g < want.size(); ++g) {
      auto a = Archive::open(damaged);
      ASSERT_TRUE(a.ok());
      auto tags = (*a)->read_tags(g);
      if (tags.ok()) EXPECT_EQ(*tags, want_tags[g]) << "flip at byte " << i << ", game " << g + 1;
      auto b = Archive::open(damaged);
      auto game = (*b)->read_game(g);
      if (game.ok()) {
        EXPECT_EQ(game->raw, !want[g].ok) << "flip at byte " << i << ", game " << g + 1;
        if (game->raw) EXPECT_EQ(game->raw_text, want[g].raw) << "flip at byte " << i << ", game " << g + 1;
        else EXPECT_EQ(game->game, want[g].game) << "flip at byte " << i << ", game " << g + 1;
      }
      failed = failed || !tags.ok() || !game.ok();
    }
    if (!failed) {  // the flip is in a part no game reads (a name chunk): verify finds it
      auto a = Archive::open(damaged);
      EXPECT_FALSE((*a)->verify().ok()) << "flip at byte " << i << " not detected";
    }
  }
}

TEST(ArchiveDamage, EveryTruncationIsDetected) {
  const std::string path = pack(sample_pgn().substr(0, 20000), "trunc.pga", small_blocks());
  const std::string good = file_bytes(path);
  const std::string damaged = temp_path("truncated.pga");
  for (std::size_t len = 0; len < good.size(); ++len) {
    { std::ofstream(damaged, std::ios::binary) << good.substr(0, len); }
    auto a = Archive::open(damaged);
    ASSERT_FALSE(a.ok()) << "truncation to " << len << " bytes opened";
    EXPECT_EQ(a.error().code(), ErrorCode::Corruption);
  }
}

TEST(ArchiveDamage, ErrorsNameTheBlockAndOffset) {
  const std::string path = pack(sample_pgn().substr(0, 20000), "where.pga", small_blocks());
  std::string bad = file_bytes(path);
  bad[100] = static_cast<char>(bad[100] ^ 1);  // inside block 0
  const std::string damaged = temp_path("where_damaged.pga");
  { std::ofstream(damaged, std::ios::binary) << bad; }
  auto a = Archive::open(damaged);
  ASSERT_TRUE(a.ok());
  auto g = (*a)->read_game(0);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message().find("block 0 at offset 32"), std::string::npos) << g.error().message();
  EXPECT_NE(g.error().message().find("checksum mismatch"), std::string::npos) << g.error().message();
  // The checksum's bytes by their offset in the file (the block's offset plus their place in it).
  const std::string m = g.error().message();
  const auto file_at = m.find(" at offset ", m.find("checksum mismatch")), block_at = m.find("(block byte ");
  ASSERT_NE(file_at, std::string::npos) << m;
  ASSERT_NE(block_at, std::string::npos) << m;
  EXPECT_EQ(std::stoull(m.substr(file_at + 11)), 32 + std::stoull(m.substr(block_at + 12))) << m;
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

TEST(ArchiveExport, ParallelExportEqualsGameByGame) {
  WriterOptions o;
  o.block_games = 7;
  const std::string path = temp_path("export.pga");
  {
    auto w = ArchiveWriter::create(path, o);
    std::string text;
    for (const std::string& f : test::pgn_corpus_files()) text += test::read_file(f) + "\n\n";
    PgnReader reader(memory_input(text), "s.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  std::string one_by_one;
  for (std::uint64_t i = 0; i < (*a)->game_count(); ++i) one_by_one += *(*a)->read_pgn(i);
  for (unsigned threads : {1u, 4u}) {
    std::string exported;
    std::uint64_t last_progress = 0;
    ASSERT_TRUE((*a)->export_pgn([&](std::string_view c) { exported += c; return true; }, threads,
                                 [&](std::uint64_t g) { last_progress = g; })
                    .ok());
    EXPECT_EQ(exported, one_by_one) << threads << " threads";
    EXPECT_EQ(last_progress, (*a)->game_count());
  }
  std::string first;
  ASSERT_TRUE((*a)->export_pgn([&](std::string_view c) { first = c; return false; }).ok()) << "stopping early is not an error";
  EXPECT_TRUE(one_by_one.starts_with(first));
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// A damaged block stops a parallel export with Corruption while later blocks are under way:
// what was delivered is the blocks before it, whole, and the workers are stopped and joined.
TEST(ArchiveExport, DamagedBlockStopsTheWorkersCleanly) {
  WriterOptions o;
  o.block_games = 5;
  const std::string path = pack(test::read_file(test::corpus_path("pgn/twic_events.pgn")), "export_damage.pga", o);
  std::string full;
  std::vector<std::size_t> block_ends;
  ASSERT_TRUE((*Archive::open(path))->export_pgn([&](std::string_view c) {
    full += c;
    block_ends.push_back(full.size());
    return true;
  }).ok());
  ASSERT_EQ(block_ends.size(), 12u);
  std::string bad = test::read_file(path);
  bad[bad.size() / 2] ^= 0x20;  // inside a block in the middle of the file
  const std::string bad_path = path + ".bad";
  { std::ofstream(bad_path, std::ios::binary) << bad; }
  for (unsigned threads : {2u, 4u, 8u}) {
    auto a = Archive::open(bad_path);
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    std::string exported;
    const Status st = (*a)->export_pgn([&](std::string_view c) { exported += c; return true; }, threads);
    ASSERT_FALSE(st.ok()) << threads << " threads";
    EXPECT_EQ(st.error().code(), ErrorCode::Corruption) << st.error().to_string();
    EXPECT_NE(st.error().to_string().find("block"), std::string::npos) << st.error().to_string();
    EXPECT_TRUE(full.starts_with(exported)) << threads << " threads";
    EXPECT_LT(exported.size(), full.size());
    EXPECT_TRUE(exported.empty() || std::count(block_ends.begin(), block_ends.end(), exported.size()) == 1)
        << "delivered part of a block";
  }
}

// A sink that throws ends the export with its exception, the workers stopped and joined (a
// joinable thread left behind would end the process).
TEST(ArchiveExport, SinkThatThrowsStopsTheWorkers) {
  WriterOptions o;
  o.block_games = 5;
  const std::string path = pack(test::read_file(test::corpus_path("pgn/twic_events.pgn")), "export_throw.pga", o);
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  int chunks = 0;
  EXPECT_THROW((void)(*a)->export_pgn([&](std::string_view) {
    if (++chunks == 3) throw std::runtime_error("disk full");
    return true;
  }, 4), std::runtime_error);
  EXPECT_EQ(chunks, 3);
}

// Clock and evaluation commands do not count towards a block's size (a clocked game's PGN is two
// to three times its moves'): the same games with and without their clocks make as many blocks,
// added as PGN or as games. A comment's other text still counts, and a block's PGN stays within
// eight times its size however much of it is clocks.
TEST(Archive, ClockCommandsDoNotCountTowardsBlockSize) {
  std::string plain, clocked, annotated;
  for (int game = 0; game < 60; ++game) {
    const std::string tags = "[Event \"Blitz\"]\n[Round \"" + std::to_string(game + 1) + "\"]\n\n";
    plain += tags;
    clocked += tags;
    annotated += tags;
    for (int move = 1; move <= 20; ++move) {
      const std::string white = move % 2 ? "Nf3" : "Ng1", black = move % 2 ? "Nf6" : "Ng8";
      const std::string n = std::to_string(move) + ". ";
      const std::string clock = "[%clk 0:0" + std::to_string(9 - move / 3) + ":1" + std::to_string(move % 10) + "]";
      plain += n + white + " " + black + " ";
      clocked += n + white + " { [%eval 0." + std::to_string(move) + "] " + clock + " } " + black + " { " + clock + " } ";
      annotated += n + white + " { a quiet move " + clock + " } " + black + " { " + clock + " } ";
    }
    plain += "*\n\n";
    clocked += "*\n\n";
    annotated += "*\n\n";
  }
  WriterOptions o;
  o.block_bytes = 4096;
  const auto blocks = [](const std::string& path) {
    auto a = Archive::open(path);
    EXPECT_TRUE(a.ok());
    return a.ok() ? (*a)->block_count() : 0;
  };
  const auto blocks_of_games = [&](const std::string& pgn, const std::string& name) {
    const std::string path = temp_path(name);
    auto w = ArchiveWriter::create(path, o);
    EXPECT_TRUE(w.ok());
    for (const ReadGame& g : expected_games(pgn)) EXPECT_TRUE((*w)->add_game(g.game).ok());
    EXPECT_TRUE((*w)->finish().ok());
    return blocks(path);
  };
  const std::uint64_t plain_blocks = blocks(pack(plain, "plain_blocks.pga", o));
  ASSERT_GT(plain_blocks, 2u);
  EXPECT_EQ(blocks(pack(clocked, "clocked_blocks.pga", o)), plain_blocks);
  EXPECT_GT(blocks(pack(annotated, "annotated_blocks.pga", o)), plain_blocks);
  const std::uint64_t plain_game_blocks = blocks_of_games(plain, "plain_game_blocks.pga");
  ASSERT_GT(plain_game_blocks, 2u);
  EXPECT_EQ(blocks_of_games(clocked, "clocked_game_blocks.pga"), plain_game_blocks);
  EXPECT_GT(blocks_of_games(annotated, "annotated_game_blocks.pga"), plain_game_blocks);
  // 20 games of one move and a comment of 1,000 clock commands (15 KB): at most three a block.
  std::string all_clocks;
  for (int game = 0; game < 20; ++game) {
    all_clocks += "[Event \"Clocks\"]\n\n1. e4 {";
    for (int k = 0; k < 1000; ++k) all_clocks += " [%clk 0:00:01]";
    all_clocks += " } *\n\n";
  }
  EXPECT_GE(blocks(pack(all_clocks, "all_clocks.pga", o)), 7u);
  EXPECT_GE(blocks_of_games(all_clocks, "all_clocks_games.pga"), 7u);
}

// Block limits a writer cannot meet (a block of no games, or more than a reader takes) are
// refused when the writer is made, with nothing written.
TEST(Archive, BlockLimitsOutOfRangeAreRefused) {
  const std::string path = temp_path("no_blocks.pga");
  for (int k = 0; k < 3; ++k) {
    WriterOptions o;
    if (k == 0) o.block_games = 0;
    if (k == 1) o.block_games = (1u << 20) + 1;
    if (k == 2) o.block_bytes = 0;
    auto w = ArchiveWriter::create(path, o);
    ASSERT_FALSE(w.ok()) << k;
    EXPECT_EQ(w.error().code(), ErrorCode::InvalidInput);
    EXPECT_FALSE(std::filesystem::exists(path));
  }
}

// A writer told not to overwrite never replaces a file: one that exists when it starts, nor one
// that another process makes while it writes (two packs to one new name: the first to finish
// keeps it, the other fails with IO and leaves no temporary file). Nor does any writer replace
// a file that appeared after it started.
TEST(Archive, WriterWithoutOverwriteReplacesNoFile) {
  const std::string path = temp_path("no_overwrite.pga");
  { std::ofstream(path) << "someone's file"; }
  WriterOptions o;
  o.overwrite = false;
  auto refused = ArchiveWriter::create(path, o);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), ErrorCode::IO);
  EXPECT_EQ(file_bytes(path), "someone's file");
  std::filesystem::remove(path);
  auto w = ArchiveWriter::create(path, o);
  ASSERT_TRUE(w.ok()) << w.error().to_string();
  PgnReader reader(memory_input(sample_pgn()), "sample.pgn");
  ASSERT_TRUE((*w)->add_pgn(reader).ok());
  { std::ofstream(path) << "made meanwhile"; }
  auto stats = (*w)->finish();
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.error().code(), ErrorCode::IO);
  EXPECT_NE(stats.error().message().find("appeared while it was being written"), std::string::npos)
      << stats.error().to_string();
  EXPECT_EQ(file_bytes(path), "made meanwhile");
  const std::string temp = (*w)->temp_path();
  w->reset();
  EXPECT_FALSE(std::filesystem::exists(temp)) << temp;
  // With overwrite, a file that existed at the start is replaced, but one that did not exist
  // and was made meanwhile is not: there was nothing the user asked to overwrite.
  std::filesystem::remove(path);
  auto forced = ArchiveWriter::create(path, WriterOptions{});
  ASSERT_TRUE(forced.ok());
  { std::ofstream(path) << "made meanwhile"; }
  auto done = (*forced)->finish();
  ASSERT_FALSE(done.ok());
  EXPECT_EQ(done.error().code(), ErrorCode::IO);
  EXPECT_EQ(file_bytes(path), "made meanwhile");
}

// An archive truncated by another process after it was opened: reading what is gone is an IO
// error naming the block (the reader reads with pread, so no SIGBUS ends the program), and
// what is left still reads.
TEST(Archive, TruncatedWhileOpenIsAnIoError) {
  const std::string path = pack(sample_pgn(), "truncated_later.pga", small_blocks());
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  auto first = (*a)->read_pgn(0);
  ASSERT_TRUE(first.ok());
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  auto last = (*a)->read_pgn((*a)->game_count() - 1);
  ASSERT_FALSE(last.ok());
  EXPECT_EQ(last.error().code(), ErrorCode::IO);
  EXPECT_NE(last.error().message().find("truncated while it was read"), std::string::npos) << last.error().to_string();
  EXPECT_NE(last.error().message().find("block "), std::string::npos) << last.error().to_string();
  Status verified = (*a)->verify();
  ASSERT_FALSE(verified.ok());
  EXPECT_EQ(verified.error().code(), ErrorCode::IO);
  EXPECT_EQ(*(*a)->read_pgn(0), *first);
}

}  // namespace
}  // namespace pgnarc
