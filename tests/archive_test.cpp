// The container and reader library: round trips, random access, determinism, append and merge,
// search, and detection of every single-byte flip and every truncation.
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "pgn_util.h"
#include "pgnarc/pgnarc.h"
#include "support/scan_oracle.h"

namespace pgnarc {
namespace {

using test::read_all;
using test::ReadGame;

// Files of this test program live in one scratch directory, removed when the program ends.
std::string temp_path(const std::string& name) {
  static const test::ScratchDir dir("archive_test");
  return dir.file(name);
}

// All sample files, as one PGN text.
const std::string& sample_pgn() {
  static const std::string text = [] {
    std::string t;
    for (const std::string& f : test::pgn_corpus_files()) t += test::read_file(f) + "\n\n";
    return t;
  }();
  return text;
}

std::string pack(const std::string& pgn, const std::string& name, WriterOptions o = {}) {
  const std::string path = temp_path(name);
  auto w = ArchiveWriter::create(path, o);
  EXPECT_TRUE(w.ok());
  PgnReader reader(memory_input(pgn), "sample.pgn");
  EXPECT_TRUE((*w)->add_pgn(reader).ok());
  auto stats = (*w)->finish();
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().to_string());
  return path;
}

std::vector<ReadGame> unpack_games(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().to_string());
  std::vector<ReadGame> out;
  if (!a.ok()) return out;
  auto st = (*a)->for_each([&](std::uint64_t, ArchiveGame& g) {
    ReadGame r;
    r.ok = !g.raw;
    if (g.raw) r.raw = g.raw_text;
    else r.game = std::move(g.game);
    out.push_back(std::move(r));
    return true;
  });
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
  return out;
}

// Games as the archive must give them back: parsed games, or raw bytes for unreadable ones.
std::vector<ReadGame> expected_games(const std::string& pgn) {
  auto games = read_all(pgn);
  for (auto& g : games) g.error.clear();
  return games;
}

std::string file_bytes(const std::string& path) { return test::read_file(path); }

WriterOptions small_blocks() {
  WriterOptions o;
  o.block_games = 7;
  o.threads = 2;
  return o;
}

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

// An archive of format version 2 (layout 0 blocks) merged with, and appended to by, this writer
// (layout 1 blocks): both kinds of block in one file read as the games packed alone, in order,
// at random and through search.
TEST(Archive, OlderBlocksMixWithNewOnes) {
  const std::string old_path = test::corpus_path("conformance/valid/v2_many_blocks.pga");
  const std::string old_pgn = test::read_file(test::corpus_path("conformance/valid/v2_many_blocks.pgn"));
  const std::string more = "[Event \"E\"]\n[White \"P1\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
  const auto whole = unpack_games(pack(old_pgn + "\n" + more, "mixed_whole.pga", small_blocks()));
  const std::string mixed = temp_path("mixed.pga");
  {
    auto w = ArchiveWriter::create(mixed, small_blocks());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->add_archive_blocks(old_path).ok());
    PgnReader reader(memory_input(more), "more.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  const auto got = unpack_games(mixed);
  EXPECT_EQ(got, whole);
  auto a = Archive::open(mixed);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE((*a)->verify().ok());
  for (std::uint64_t i = (*a)->game_count(); i-- > 0;) {  // backwards: every read a random one
    auto g = (*a)->read_game(i);
    ASSERT_TRUE(g.ok()) << g.error().to_string();
    EXPECT_EQ(g->game, got[i].game) << "game " << i;
  }
  Query q;
  q.player = "P1";
  auto fast = (*a)->find(q);
  auto slow = test::find_by_scan(**a, q);
  ASSERT_TRUE(fast.ok() && slow.ok());
  EXPECT_EQ(*fast, *slow);
  EXPECT_EQ(fast->back(), (*a)->game_count() - 1) << "the appended game is found";
  EXPECT_GE(fast->size(), 2u);
}

TEST(Archive, EmptyArchive) {
  const std::string path = pack("", "empty.pga");
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_EQ((*a)->game_count(), 0u);
  EXPECT_TRUE((*a)->verify().ok());
  EXPECT_EQ(file_bytes(path).size(), 32u + 4 + 1 + 4 + 6 + 48);  // header, index (6 empty counts), footer
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
  EXPECT_NE(::access((path + ".tmp." + std::to_string(::getpid())).c_str(), F_OK), 0);
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
    auto fast = (*a)->find(q);
    auto slow = test::find_by_scan(**a, q);
    ASSERT_TRUE(fast.ok() && slow.ok()) << *q.player;
    EXPECT_EQ(*fast, *slow) << *q.player;
    if (q.exact_names) EXPECT_FALSE(fast->empty()) << *q.player;
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

// A damaged archive still yields the games of its sound blocks, never a game that was not in
// it; with no damage, salvage equals a normal export.
TEST(ArchiveSalvage, SoundBlocksSurviveAnySingleByteDamage) {
  WriterOptions o;
  o.block_games = 5;
  const std::string path = pack(test::read_file(test::corpus_path("pgn/twic_events.pgn")), "salvage.pga", o);
  std::string full;
  ASSERT_TRUE((*Archive::open(path))->export_pgn([&](std::string_view c) { full += c; return true; }).ok());
  auto sound = salvage_pgn(path, [&](std::string_view) { return true; });
  ASSERT_TRUE(sound.ok());
  EXPECT_TRUE(sound->skipped.empty());
  EXPECT_EQ(sound->games, 60u);
  const std::string good = test::read_file(path);
  const std::string bad_path = path + ".bad";
  std::mt19937_64 rng(4);
  for (int k = 0; k < 300; ++k) {
    std::string bad = good;
    const std::size_t at = rng() % bad.size();
    bad[at] = static_cast<char>(bad[at] ^ (1 + rng() % 255));
    { std::ofstream(bad_path, std::ios::binary) << bad; }
    std::string out;
    auto rep = salvage_pgn(bad_path, [&](std::string_view c) { out += c; return true; });
    ASSERT_TRUE(rep.ok());
    EXPECT_GE(rep->games, 55u) << "at most one block of 5 games lost, byte " << at;
    EXPECT_NE(full.find(out.substr(0, 200)), std::string::npos) << "salvaged text must come from the archive";
    if (rep->games < 60) EXPECT_FALSE(rep->skipped.empty()) << "lost games are reported, byte " << at;
  }
}

}  // namespace
}  // namespace pgnarc

#include <sys/resource.h>

#include "container/format.h"

namespace pgnarc {
namespace {

// The footer and index (its body read as `read_version`) of the archive bytes `pga`.
void read_footer_and_index(const std::string& pga, container::Footer& f, container::Index& index,
                           std::uint16_t read_version = kFormatVersion) {
  using namespace container;
  ASSERT_TRUE(decode_footer(std::string_view(pga).substr(pga.size() - kFooterSize), pga.size(), f).ok());
  ASSERT_TRUE(decode_index(std::string_view(pga).substr(f.index_offset, f.index_size), f.index_offset, read_version, index).ok());
}

// A block whose zstd section claims 256 MiB (with its checksum made right again) is rejected
// without allocating what it claims: the buffer only grows with real output.
TEST(ArchiveDamage, LyingSectionSizeCostsNoMemory) {
  const std::string good = test::read_file(test::corpus_path("conformance/valid/zstd_sections.pga"));
  std::string bad = good;
  std::size_t entry = 0;  // the first zstd section's table entry
  for (int s = 0; s < container::kSections && !entry; ++s) {
    const std::size_t e = 32 + container::kBlockHeaderSize + container::kSectionEntrySize * s;
    if (bad[e + 1] == container::kZstd) entry = e;
  }
  ASSERT_NE(entry, 0u) << "this vector has a zstd section";
  const std::uint32_t huge = 1u << 28;
  for (int i = 0; i < 4; ++i) bad[entry + 8 + i] = static_cast<char>(huge >> (8 * i));
  // Recompute the block checksum: the block ends where the next block, the name chunks or the
  // index begin.
  std::size_t end = bad.find("PGAB", 33);
  if (end == std::string::npos) end = bad.find("PGAN", 33);  // the name chunks
  if (end == std::string::npos) end = bad.find("PGAI", 33);
  const std::uint64_t sum = container::hash64(std::string_view(bad).substr(32, end - 8 - 32));
  for (int i = 0; i < 8; ++i) bad[end - 8 + i] = static_cast<char>(sum >> (8 * i));
  const std::string path = temp_path("lying.pga");
  { std::ofstream(path, std::ios::binary) << bad; }
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  auto g = (*a)->read_game(0);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message().find("does not decompress to its size"), std::string::npos) << g.error().message();
  getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 * 1024) << "KB: the claimed 256 MiB was not allocated";
}

// A layout 0 block (format versions 1 and 2: no game directory) of two games whose moves section
// runs on after its last game (a line record of 0 plies, with every checksum made right) is
// rejected by a pass in order and by a read of its last game.
TEST(ArchiveDamage, LayoutZeroBytesAfterTheLastGame) {
  using namespace container;
  const std::string good = test::read_file(test::corpus_path("conformance/valid/v2_many_blocks.pga"));
  Footer f;
  Index index;
  ASSERT_NO_FATAL_FAILURE(read_footer_and_index(good, f, index, 2));
  ASSERT_GT(index.blocks.size(), 1u);
  ASSERT_EQ(index.blocks[0].games, 2u);
  std::string block = good.substr(kHeaderSize, index.blocks[0].size - 8);
  ASSERT_EQ(block[6], 0) << "a layout 0 block";
  const std::size_t moves_entry = kBlockHeaderSize + kSectionEntrySize;
  ASSERT_EQ(block[moves_entry + 1], kStored);
  const std::uint64_t tags_size = get_le(block.data() + kBlockHeaderSize + 4, 4);
  const std::uint64_t moves_size = get_le(block.data() + moves_entry + 4, 4);
  block.insert(kBlockHeaderSize + kSections * kSectionEntrySize + tags_size + moves_size, std::string(2, '\0'));
  for (int field : {4, 8})
    for (int i = 0; i < 4; ++i) block[moves_entry + field + i] = static_cast<char>((moves_size + 2) >> (8 * i));
  put_le(block, hash64(block), 8);
  index.blocks[0].size = block.size();
  for (std::size_t b = 1; b < index.blocks.size(); ++b) index.blocks[b].offset += 2;
  WriterOptions stored;
  stored.compress = false;
  const std::string idx = encode_index(index, stored, 2);
  const std::string rest = good.substr(kHeaderSize + block.size() - 2, f.index_offset - (kHeaderSize + block.size() - 2));
  const std::string bad = good.substr(0, kHeaderSize) + block + rest + idx +
                          encode_footer(f.index_offset + 2, idx.size(), f.games, index.blocks.size(), hash64(idx));
  const std::string path = temp_path("layout0_left_over.pga");
  { std::ofstream(path, std::ios::binary) << bad; }
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  const Status st = (*a)->verify();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("left over"), std::string::npos) << st.error().to_string();
  auto fresh = Archive::open(path);
  ASSERT_TRUE(fresh.ok());
  auto last = (*fresh)->read_game(1);  // the block's last game
  ASSERT_FALSE(last.ok());
  EXPECT_NE(last.error().message().find("left over"), std::string::npos) << last.error().to_string();
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// The sample games with a long comment after every ply (words drawn from a small vocabulary,
// seeded), so that blocks have texts sections worth framing by group.
// The sample's games with a comment after every move: words with random numbers, or (`engine`)
// an engine's report in the same words at every move, numbers drifting as in engine games.
std::string commented_pgn(bool engine = false) {
  static const char* kWords[] = {"depth", "nodes", "pv", "eval", "book", "tb", "time", "score", "line", "best"};
  std::mt19937_64 rng(5);
  std::uint64_t depth = 20, nodes = 1000000, clock = 7200;
  std::string out;
  for (const ReadGame& g : read_all(sample_pgn())) {
    if (!g.ok) continue;
    Game game = g.game;
    std::vector<GameEvent> events;
    for (const GameEvent& e : game.events) {
      events.push_back(e);
      if (e.type != GameEvent::kMove) continue;
      GameEvent c;
      c.type = GameEvent::kComment;
      if (engine) {
        depth = std::max<std::uint64_t>(10, depth + rng() % 5 - 2);
        nodes += rng() % 500000;
        clock -= rng() % 60;
        c.text = "d=" + std::to_string(depth) + ", mt=00:0" + std::to_string(rng() % 10) + ":" +
                 std::to_string(10 + rng() % 50) + ", tl=" + std::to_string(clock) + ", n=" + std::to_string(nodes) +
                 ", ev=0." + std::to_string(10 + rng() % 90) + ", tb=0";
      } else {
        for (int w = 0; w < 12; ++w) c.text += std::string(w ? " " : "") + kWords[rng() % 10] + "=" + std::to_string(rng() % 1000);
      }
      events.push_back(c);
    }
    game.events = std::move(events);
    std::string pgn;
    EXPECT_TRUE(write_pgn(game, pgn).ok());
    out += pgn + "\n";
  }
  return out;
}

WriterOptions framed_blocks() {
  WriterOptions o;
  o.block_games = 40;
  o.frame_bytes = 2048;
  o.threads = 2;
  return o;
}

// Each block's section encodings (file bytes: blocks back to back from offset 32 to the index,
// with a tag dictionary element among them), and the offset of each block's texts section.
struct BlockSections {
  std::size_t offset = 0, texts_at = 0;
  std::uint32_t games = 0;
  std::uint8_t encoding[container::kSections] = {};
  std::uint32_t stored[container::kSections] = {};
};
std::vector<BlockSections> block_sections(const std::string& file) {
  using namespace container;
  std::vector<BlockSections> out;
  std::size_t pos = kHeaderSize;
  for (;;) {
    if (const std::size_t n = dictionary_element_size(std::string_view(file).substr(pos))) pos += n;
    if (file.compare(pos, 4, "PGAB") != 0) break;
    BlockSections b;
    b.offset = pos;
    b.games = static_cast<std::uint32_t>(get_le(file.data() + pos + 8, 4));
    std::size_t size = kBlockHeaderSize + kSections * kSectionEntrySize + 8;
    for (int s = 0; s < kSections; ++s) {
      const char* e = file.data() + pos + kBlockHeaderSize + s * kSectionEntrySize;
      b.encoding[s] = static_cast<std::uint8_t>(e[1]);
      b.stored[s] = static_cast<std::uint32_t>(get_le(e + 4, 4));
      if (s == kTexts) b.texts_at = pos + size - 8;
      size += get_le(e + 4, 4);
    }
    out.push_back(b);
    pos += size;
  }
  return out;
}

// Texts framed by group (encodings 2 and 5) read back as they were written: in order, at random
// (each read decompresses only its group), by export, and as the same games an archive of one
// plain frame per section gives; with and without the column form (9.3.2).
TEST(ArchiveFrames, GroupFramedTextsRoundTrip) {
  const std::string pgn = commented_pgn(true);
  WriterOptions whole = framed_blocks();
  whole.frame_bytes = 0;
  whole.text_columns = false;
  const std::string plain = pack(pgn, "unframed.pga", whole);
  for (const BlockSections& b : block_sections(file_bytes(plain))) EXPECT_LE(b.encoding[container::kTexts], container::kZstd);
  const auto want = expected_games(pgn);
  auto b = Archive::open(plain);
  ASSERT_TRUE(b.ok());
  std::string eb;
  ASSERT_TRUE((*b)->export_pgn([&](std::string_view s) { eb += s; return true; }, 2).ok());

  for (const bool columns : {false, true}) {
    for (const bool by_group : {false, true}) {
      SCOPED_TRACE(std::string(columns ? "column form" : "plain") + (by_group ? ", by group" : ", one frame"));
      WriterOptions o = framed_blocks();
      o.text_columns = columns;
      if (!by_group) o.frame_bytes = 0;
      const std::string framed = pack(pgn, "framed.pga", o);
      const std::uint8_t encoding = by_group ? (columns ? container::kZstdColumnsByGroup : container::kZstdByGroup)
                                             : (columns ? container::kZstdColumns : container::kZstd);
      int same = 0, blocks = 0;
      for (const BlockSections& s : block_sections(file_bytes(framed))) {
        ++blocks;
        same += s.encoding[container::kTexts] == encoding;
        EXPECT_FALSE(container::by_group(s.encoding[container::kTags]));
      }
      ASSERT_GT(blocks, 3);
      // (The writer keeps the plain form where it compresses smaller: for one block of these.)
      EXPECT_GE(same, blocks * 3 / 4);

      const auto seq = unpack_games(framed);
      ASSERT_EQ(seq.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(seq[i].game, want[i].game) << "game " << i + 1;
      auto a = Archive::open(framed);
      ASSERT_TRUE(a.ok());
      std::mt19937_64 rng(3);
      for (int k = 0; k < 300; ++k) {
        const std::uint64_t i = rng() % seq.size();
        auto g = (*a)->read_pgn(i);
        ASSERT_TRUE(g.ok()) << g.error().to_string();
        EXPECT_EQ(*g, *(*b)->read_pgn(i)) << "game " << i + 1;
      }
      std::string ea;
      ASSERT_TRUE((*a)->export_pgn([&](std::string_view s) { ea += s; return true; }, 2).ok());
      EXPECT_EQ(ea, eb);
    }
  }
}

// The writer keeps a block's texts in the column form where that compresses them smaller:
// engine reports (numbers in the same places from move to move) are; random words with random
// numbers are not, and keep the plain form. Either way the archive is no larger than without
// the column form. A block whose texts hold a marker byte has no column form.
TEST(ArchiveFrames, ColumnFormOnlyWhereSmaller) {
  for (const bool engine : {true, false}) {
    SCOPED_TRACE(engine ? "engine reports" : "random words");
    const std::string pgn = commented_pgn(engine);
    WriterOptions o = framed_blocks();
    const std::string columns = pack(pgn, "columns.pga", o);
    o.text_columns = false;
    const std::string plain = pack(pgn, "plain.pga", o);
    std::uint64_t texts_columns = 0, texts_plain = 0;
    int column_blocks = 0, blocks = 0;
    for (const BlockSections& s : block_sections(file_bytes(columns))) {
      texts_columns += s.stored[container::kTexts];
      column_blocks += s.encoding[container::kTexts] >= container::kZstdColumns;
      ++blocks;
    }
    for (const BlockSections& s : block_sections(file_bytes(plain))) texts_plain += s.stored[container::kTexts];
    if (engine) {
      EXPECT_LT(texts_columns, texts_plain);
      EXPECT_GE(column_blocks, blocks * 3 / 4);
    } else {
      EXPECT_EQ(texts_columns, texts_plain);
      EXPECT_EQ(column_blocks, 0);
    }
  }

  // One comment of the first block's with a marker byte: that block's texts keep the plain form.
  std::string pgn = commented_pgn(true);
  pgn.replace(pgn.find("tb=0"), 4, "tb=\x01");
  const std::string path = pack(pgn, "marker.pga", framed_blocks());
  const auto blocks = block_sections(file_bytes(path));
  ASSERT_GT(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].encoding[container::kTexts], container::kZstdByGroup);
  EXPECT_EQ(blocks[1].encoding[container::kTexts], container::kZstdColumnsByGroup);
  const auto games = unpack_games(path);
  const auto want = expected_games(pgn);
  ASSERT_EQ(games.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(games[i].game, want[i].game) << "game " << i + 1;
}

// Verbatim games (crazyhouse: another variant) in the column form of the raw section come back
// byte for byte, in order and at random, and take less room than in the plain form.
TEST(ArchiveFrames, VerbatimGamesInColumnForm) {
  const std::string pgn = test::read_file(test::corpus_path("pgn/variant_crazyhouse.pgn"));
  WriterOptions o = small_blocks();
  const std::string columns = pack(pgn, "raw_columns.pga", o);
  o.text_columns = false;
  const std::string plain = pack(pgn, "raw_plain.pga", o);
  std::uint64_t raw_columns = 0, raw_plain = 0;
  int column_blocks = 0;
  for (const BlockSections& s : block_sections(file_bytes(columns))) {
    raw_columns += s.stored[container::kRaw];
    column_blocks += s.encoding[container::kRaw] >= container::kZstdColumns;
  }
  for (const BlockSections& s : block_sections(file_bytes(plain))) raw_plain += s.stored[container::kRaw];
  EXPECT_GT(column_blocks, 0);
  EXPECT_LT(raw_columns, raw_plain);
  const auto want = expected_games(pgn);
  const auto got = unpack_games(columns);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_FALSE(want[i].ok) << "game " << i + 1 << " is a crazyhouse game, kept verbatim";
    ASSERT_EQ(got[i].raw, want[i].raw) << "game " << i + 1;
  }
  auto a = Archive::open(columns);
  ASSERT_TRUE(a.ok());
  std::mt19937_64 rng(9);
  for (int k = 0; k < 100; ++k) {
    const std::uint64_t i = rng() % got.size();
    auto g = (*a)->read_game(i);
    ASSERT_TRUE(g.ok()) << g.error().to_string();
    EXPECT_EQ(g->raw_text, want[i].raw) << "game " << i + 1;
  }
}

// A block whose first group's frame is damaged (its magic number changed, the block checksum
// made right again) is rejected even by a read of a game in its last group, which would not
// decompress that frame: every frame header is checked against the directory first (BLOCK-4).
// Other blocks still read.
TEST(ArchiveFrames, DamagedFrameFailsEveryReadOfItsBlock) {
  const std::string path = pack(commented_pgn(true), "framed_bad.pga", framed_blocks());
  std::string bytes = file_bytes(path);
  const auto blocks = block_sections(bytes);
  ASSERT_GT(blocks.size(), 2u);
  ASSERT_EQ(blocks[0].encoding[container::kTexts], container::kZstdColumnsByGroup);
  bytes[blocks[0].texts_at] ^= 1;
  const std::size_t end = blocks[1].offset;
  const std::uint64_t sum = container::hash64(std::string_view(bytes).substr(blocks[0].offset, end - 8 - blocks[0].offset));
  for (int i = 0; i < 8; ++i) bytes[end - 8 + i] = static_cast<char>(sum >> (8 * i));
  { std::ofstream(path, std::ios::binary) << bytes; }
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  auto last = (*a)->read_game(blocks[0].games - 1);
  ASSERT_FALSE(last.ok());
  EXPECT_EQ(last.error().code(), ErrorCode::Corruption);
  EXPECT_NE(last.error().message().find("block 0"), std::string::npos) << last.error().to_string();
  EXPECT_NE(last.error().message().find("no Zstandard frame"), std::string::npos) << last.error().to_string();
  EXPECT_TRUE((*a)->read_game(blocks[0].games).ok()) << "block 1 is sound";
  EXPECT_FALSE((*a)->verify().ok());
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// 400 games whose tags repeat enough for a tag dictionary (the input of valid/tag_dictionary).
const std::string& dictionary_pgn() {
  static const std::string text = test::read_file(test::corpus_path("conformance/valid/tag_dictionary.pgn"));
  return text;
}
WriterOptions dictionary_blocks(unsigned threads = 2) {
  WriterOptions o;
  o.block_games = 50;
  o.dictionary_bytes = 4096;
  o.threads = threads;
  return o;
}
ArchiveInfo info_of(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().to_string());
  auto i = (*a)->info();
  EXPECT_TRUE(i.ok());
  return *i;
}

// [DICT-1] [BLOCK-5] The writer trains one dictionary on the first blocks' tags and compresses
// every block's tags with it; the archive is smaller than without, reads back the same games in
// order, at random and by export, and its bytes do not depend on the thread count.
TEST(ArchiveDictionary, TrainedOnceUsedByEveryBlock) {
  ASSERT_GT(dictionary_pgn().size(), 50000u);
  const std::string with = pack(dictionary_pgn(), "dict.pga", dictionary_blocks());
  WriterOptions none = dictionary_blocks();
  none.dictionary_bytes = 0;
  const std::string without = pack(dictionary_pgn(), "nodict.pga", none);
  const ArchiveInfo i = info_of(with);
  EXPECT_EQ(i.dictionaries, 1u);
  EXPECT_EQ(i.dictionary_blocks, i.blocks);
  EXPECT_GT(i.blocks, 4u);
  EXPECT_EQ(info_of(without).dictionaries, 0u);
  EXPECT_LT(file_bytes(with).size(), file_bytes(without).size());
  EXPECT_LT(i.section(Section::Tags).stored + i.dictionary_bytes, info_of(without).section(Section::Tags).stored);

  EXPECT_EQ(unpack_games(with), unpack_games(without));
  auto a = Archive::open(with);
  auto b = Archive::open(without);
  ASSERT_TRUE(a.ok() && b.ok());
  std::mt19937_64 rng(5);
  for (int k = 0; k < 200; ++k) {
    const std::uint64_t g = rng() % (*a)->game_count();
    auto x = (*a)->read_pgn(g);
    ASSERT_TRUE(x.ok()) << x.error().to_string();
    EXPECT_EQ(*x, *(*b)->read_pgn(g));
  }
  std::string ea, eb;
  ASSERT_TRUE((*a)->export_pgn([&](std::string_view s) { ea += s; return true; }, 2).ok());
  ASSERT_TRUE((*b)->export_pgn([&](std::string_view s) { eb += s; return true; }, 2).ok());
  EXPECT_EQ(ea, eb);
  Query q;
  q.event = "rapid";
  EXPECT_EQ(*(*a)->find(q), *(*b)->find(q));

  for (unsigned threads : {1u, 3u})
    EXPECT_EQ(file_bytes(pack(dictionary_pgn(), "dict_t.pga", dictionary_blocks(threads))), file_bytes(with))
        << threads << " threads";
  // A few games (too little tags to train on) get no dictionary.
  EXPECT_EQ(info_of(pack(test::read_file(test::corpus_path("pgn/twic_events.pgn")), "small.pga")).dictionaries, 0u);
}

// Games given one by one (ArchiveWriter::add_game) go through the same hold and training.
TEST(ArchiveDictionary, GamesAddedOneByOneGetOneToo) {
  std::vector<Game> games;
  for (const auto& g : test::read_all(dictionary_pgn())) games.push_back(g.game);
  const std::string path = temp_path("dgames.pga");
  {
    WriterOptions o = dictionary_blocks();
    o.block_bytes = 1 << 30;  // blocks close by count: 50 games
    auto w = ArchiveWriter::create(path, o);
    for (const Game& g : games) ASSERT_TRUE((*w)->add_game(g).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  const ArchiveInfo i = info_of(path);
  EXPECT_EQ(i.dictionaries, 1u);
  EXPECT_EQ(i.dictionary_blocks, i.blocks);
  const auto back = unpack_games(path);
  ASSERT_EQ(back.size(), games.size());
  for (std::size_t k = 0; k < games.size(); ++k) EXPECT_EQ(back[k].game, games[k]) << k;
}

// An archive appended to keeps its dictionary for the new blocks; a merge copies each input's
// dictionary once (the same dictionary twice is kept once).
TEST(ArchiveDictionary, AppendKeepsItMergeCopiesEach) {
  const std::string text = dictionary_pgn();
  const std::string first = pack(text, "d1.pga", dictionary_blocks());
  ASSERT_EQ(info_of(first).dictionaries, 1u);

  const std::string appended = temp_path("dappended.pga");
  {
    auto w = ArchiveWriter::create(appended, dictionary_blocks());
    ASSERT_TRUE((*w)->add_archive_blocks(first).ok());
    PgnReader reader(memory_input(text), "again.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  const ArchiveInfo ai = info_of(appended);
  EXPECT_EQ(ai.dictionaries, 1u);
  EXPECT_EQ(ai.blocks, 2 * info_of(first).blocks);
  EXPECT_EQ(ai.dictionary_blocks, ai.blocks) << "the new blocks use the archive's dictionary";
  auto twice = unpack_games(first);
  for (auto& g : unpack_games(first)) twice.push_back(g);
  EXPECT_EQ(unpack_games(appended), twice);

  WriterOptions bigger = dictionary_blocks();
  bigger.dictionary_bytes = 6144;  // another dictionary
  const std::string other = pack(text + "\n\n" + text, "d2.pga", bigger);
  ASSERT_EQ(info_of(other).dictionaries, 1u);
  const std::string merged = temp_path("dmerged.pga");
  {
    auto w = ArchiveWriter::create(merged, dictionary_blocks());
    for (const std::string& p : {first, other, first}) ASSERT_TRUE((*w)->add_archive_blocks(p).ok());
    ASSERT_TRUE((*w)->finish().ok());
  }
  const ArchiveInfo mi = info_of(merged);
  EXPECT_EQ(mi.dictionaries, 2u);
  EXPECT_EQ(mi.dictionary_bytes, info_of(first).dictionary_bytes + info_of(other).dictionary_bytes);
  auto expect = unpack_games(first);
  for (auto& g : unpack_games(other)) expect.push_back(g);
  for (auto& g : unpack_games(first)) expect.push_back(g);
  EXPECT_EQ(unpack_games(merged), expect);
}

// Every single-byte change of the dictionary element is detected when the archive opens; salvage
// without the index still finds the dictionary and reads every block.
TEST(ArchiveDictionary, DamageToTheDictionaryIsDetected) {
  using namespace container;
  const std::string path = pack(dictionary_pgn(), "ddamage.pga", dictionary_blocks());
  const std::string good = file_bytes(path);
  const std::size_t size = dictionary_element_size(std::string_view(good).substr(kHeaderSize));
  ASSERT_GT(size, 100u);
  const std::string damaged = temp_path("ddamaged.pga");
  for (std::size_t i = kHeaderSize; i < kHeaderSize + size; ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x10);
    { std::ofstream(damaged, std::ios::binary) << bad; }
    auto a = Archive::open(damaged);
    ASSERT_FALSE(a.ok()) << "flip at byte " << i;
    EXPECT_EQ(a.error().code(), ErrorCode::Corruption);
    EXPECT_NE(a.error().message().find("dictionary at offset 32"), std::string::npos) << a.error().to_string();
  }
  std::string salvaged, exported;
  auto rep = salvage_pgn(path, [&](std::string_view s) { salvaged += s; return true; });
  ASSERT_TRUE(rep.ok());
  EXPECT_TRUE(rep->skipped.empty()) << rep->skipped.front();
  auto a = Archive::open(path);
  ASSERT_TRUE((*a)->export_pgn([&](std::string_view s) { exported += s; return true; }, 1).ok());
  EXPECT_EQ(salvaged, exported);
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// Opening reads only the index (its tables and the name directory); a name chunk is read and
// checked when a search or verify first needs it. So an archive whose name chunk is damaged (a
// posting naming a block that does not exist, every checksum made right) opens and reads games,
// while an indexed search and verify report the damage.
TEST(ArchiveDamage, NameTablesAreCheckedWhenFirstUsed) {
  using namespace container;
  WriterOptions o = small_blocks();
  o.dictionary_bytes = 0;  // chunks compressed without a dictionary: this test rewrites them
  const std::string path = pack(sample_pgn(), "names.pga", o);
  const std::string good = file_bytes(path);
  Footer f;
  Index index;
  ASSERT_NO_FATAL_FAILURE(read_footer_and_index(good, f, index));
  ASSERT_TRUE(load_block_table(good, "x", f.index_offset, f.games, index).ok());
  ASSERT_FALSE(index.name_chunks[0].empty());
  // Every chunk read back and written again after the blocks, the first White value's last
  // posting pointing past the blocks; then the block table.
  const std::uint64_t names_start = index.name_chunks[0][0].offset;
  std::string tail;
  for (int field = 0; field < 4; ++field)
    for (std::size_t k = 0; k < index.name_chunks[field].size(); ++k) {
      NameChunkEntry& c = index.name_chunks[field][k];
      std::vector<NameEntry> entries;
      const auto& chunks = index.name_chunks[field];
      ASSERT_TRUE(read_name_chunk(std::string_view(good).substr(c.offset, c.size), "chunk", field, c,
                                  k + 1 < chunks.size() ? &chunks[k + 1].first : nullptr, index.blocks.size(), entries)
                      .ok());
      if (field == 0 && k == 0) entries[0].blocks.back() = static_cast<std::uint32_t>(index.blocks.size() + 5);
      std::string body;
      for (const NameEntry& e : entries) put_name_entry(body, e.value, e.blocks);
      const std::string element = encode_name_chunk(field, entries.size(), body, o);
      c.offset = names_start + tail.size();
      c.size = element.size();
      tail += element;
    }
  tail += encode_block_table(index, names_start + tail.size(), o.table_chunk_blocks, o);
  const std::uint64_t index_offset = names_start + tail.size();
  const std::string idx = encode_index(index, o);
  const std::string bad = good.substr(0, names_start) + tail + idx +
                          encode_footer(index_offset, idx.size(), f.games, index.blocks.size(), hash64(idx));
  const std::string damaged = temp_path("names_damaged.pga");
  { std::ofstream(damaged, std::ios::binary) << bad; }
  auto a = Archive::open(damaged);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_TRUE((*a)->read_pgn((*a)->game_count() - 1).ok());
  Query q;
  q.white = "a";
  auto found = (*a)->find(q);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().code(), ErrorCode::Corruption);
  EXPECT_NE(found.error().message().find("posting names a block that does not exist"), std::string::npos)
      << found.error().to_string();
  EXPECT_TRUE(test::find_by_scan(**a, q).ok()) << "a scan needs no name table";
  auto b = Archive::open(damaged);
  Status st = (*b)->verify();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code(), ErrorCode::Corruption);
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// The block table read alone (IndexParts::kBlocks) equals the one a full decode gives, also when
// it spans several of the growing decompression steps (10,000 blocks: about 90 KB of body), and
// a body cut short in its block table is still Corruption.
TEST(ArchiveIndex, BlockTableAloneEqualsTheFullDecode) {
  using namespace container;
  Index index;
  const std::uint64_t n = 10000;
  for (std::uint64_t i = 0; i < n; ++i) {
    IndexEntry e;
    e.offset = kHeaderSize + i * 1000;
    e.size = 1000;
    e.games = static_cast<std::uint32_t>(1 + i % 7);
    e.summary.date_min = static_cast<std::uint32_t>(20200101 + i % 28);
    e.summary.date_max = e.summary.date_min;
    e.summary.results = static_cast<std::uint8_t>(1 << (i % 4));
    index.blocks.push_back(e);
  }
  index.names[0].push_back({"Carlsen, Magnus", {1, 5, 9999}});
  const std::uint64_t index_offset = kHeaderSize + n * 1000;
  constexpr std::uint16_t kV8 = 8;  // the last format with the name tables in the index body
  const std::string bytes = encode_index(index, WriterOptions{}, kV8);
  ASSERT_EQ(bytes[4], kZstd);
  Index all, blocks;
  ASSERT_TRUE(decode_index(bytes, index_offset, kV8, all).ok());
  ASSERT_TRUE(decode_index(bytes, index_offset, kV8, blocks, IndexParts::kBlocks).ok());
  ASSERT_EQ(blocks.blocks.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) {
    EXPECT_EQ(blocks.blocks[i].offset, all.blocks[i].offset);
    EXPECT_EQ(blocks.blocks[i].first_game, all.blocks[i].first_game);
    EXPECT_EQ(blocks.blocks[i].summary.results, all.blocks[i].summary.results);
  }
  EXPECT_TRUE(blocks.names[0].empty());
  EXPECT_EQ(all.names[0].size(), 1u);
  // The same body as one zstd frame cut short: the block table runs past what it yields.
  for (std::size_t keep : {bytes.size() / 4, bytes.size() / 2, bytes.size() - 3}) {
    Index cut;
    const Status st = decode_index(std::string_view(bytes).substr(0, keep), index_offset, kV8, cut, IndexParts::kBlocks);
    ASSERT_FALSE(st.ok()) << keep;
    EXPECT_EQ(st.error().code(), ErrorCode::Corruption);
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

std::string pgn_of(const ArchiveGame& g) {
  if (g.raw) return g.raw_text;
  std::string out;
  EXPECT_TRUE(write_pgn(g.game, out).ok());
  return out;
}

std::string with_byte_flipped(std::string bytes, std::uint64_t at) {
  bytes[at] = static_cast<char>(bytes[at] ^ 0x20);
  return bytes;
}

// Format 10: the block table is in chunks that a reader reads when first needed. Reading games
// by number through many small chunks gives what a sequential pass gives; a damaged chunk does
// not stop the archive opening or the games whose blocks other chunks list, but reading a game
// it lists, verifying and searching report it as Corruption naming the chunk.
TEST(ArchiveIndex, BlockTableIsReadChunkByChunk) {
  using namespace container;
  WriterOptions o = small_blocks();
  o.block_games = 2;
  o.table_chunk_blocks = 3;
  const std::string path = pack(sample_pgn(), "table_chunks.pga", o);
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  auto info = (*a)->info();
  ASSERT_TRUE(info.ok());
  ASSERT_GT(info->blocks, 9u);
  EXPECT_EQ(info->table_chunks, (info->blocks + 2) / 3);
  std::vector<std::string> in_order;
  ASSERT_TRUE((*a)->for_each([&](std::uint64_t, ArchiveGame& g) {
                    in_order.push_back(pgn_of(g));
                    return true;
                  }).ok());
  ASSERT_EQ(in_order.size(), (*a)->game_count());
  auto fresh = Archive::open(path);  // each chunk read on demand, from the last game back
  for (std::uint64_t i = (*fresh)->game_count(); i-- > 0;) {
    auto g = (*fresh)->read_game(i);
    ASSERT_TRUE(g.ok()) << g.error().to_string();
    EXPECT_EQ(pgn_of(*g), in_order[i]) << "game " << i + 1;
  }

  // The second chunk damaged (a byte of its entries flipped: its checksum no longer holds).
  const std::string good = file_bytes(path);
  Footer f;
  Index index;
  ASSERT_NO_FATAL_FAILURE(read_footer_and_index(good, f, index));
  ASSERT_GE(index.table_chunks.size(), 3u);
  const TableChunkEntry c = index.table_chunks[1];
  const std::string damaged = temp_path("table_chunk_damaged.pga");
  { std::ofstream(damaged, std::ios::binary) << with_byte_flipped(good, c.offset + kTableChunkHeaderSize + 1); }
  auto d = Archive::open(damaged);
  ASSERT_TRUE(d.ok()) << "opening reads no table chunk: " << d.error().to_string();
  EXPECT_TRUE((*d)->read_pgn(0).ok()) << "chunk 0 is sound";
  EXPECT_TRUE((*d)->read_pgn((*d)->game_count() - 1).ok()) << "the last chunk is sound";
  const std::string named = "block table chunk at offset " + std::to_string(c.offset);
  auto bad = (*d)->read_pgn(c.first_game);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), ErrorCode::Corruption);
  EXPECT_NE(bad.error().message().find(named), std::string::npos) << bad.error().to_string();
  const Status verified = (*d)->verify();
  ASSERT_FALSE(verified.ok());
  EXPECT_NE(verified.error().message().find(named), std::string::npos) << verified.error().to_string();
  Query q;
  q.result = "1-0";
  auto found = (*d)->find(q);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().code(), ErrorCode::Corruption);
  // An exact name whose games all lie before the damaged chunk: the search reads only the
  // chunks of the blocks the name table gives, and finds what it finds in the sound archive.
  auto first_tags = (*a)->read_tags(0);
  ASSERT_TRUE(first_tags.ok());
  Query by_name;
  by_name.exact_names = true;
  for (const Tag& t : *first_tags)
    if (t.key == "White") by_name.white = t.value;
  ASSERT_TRUE(by_name.white.has_value());
  auto expected = (*a)->find(by_name);
  ASSERT_TRUE(expected.ok());
  ASSERT_FALSE(expected->empty());
  ASSERT_LT(expected->back(), c.first_game) << "the test needs a name found only before the damaged chunk";
  auto named_found = (*d)->find(by_name);
  ASSERT_TRUE(named_found.ok()) << named_found.error().to_string();
  EXPECT_EQ(*named_found, *expected);

  // The directory moved the second chunk's first game one earlier: the first chunk, whose
  // checksum holds, lists one game more than the directory leaves it. Reading a game of it
  // fails, and fails again: a chunk that fails its checks is not kept as read.
  Index moved = index;
  moved.table_chunks[1].first_game -= 1;
  const std::string idx = encode_index(moved, o);
  const std::string renumbered = temp_path("table_chunk_renumbered.pga");
  {
    std::ofstream(renumbered, std::ios::binary)
        << good.substr(0, f.index_offset) + idx + encode_footer(f.index_offset, idx.size(), f.games, f.blocks, hash64(idx));
  }
  auto r = Archive::open(renumbered);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto g = (*r)->read_pgn(0);
    ASSERT_FALSE(g.ok()) << "attempt " << attempt;
    EXPECT_EQ(g.error().code(), ErrorCode::Corruption);
    EXPECT_NE(g.error().message().find("its blocks hold"), std::string::npos) << g.error().to_string();
  }
}

TEST(ArchiveIndex, TableChunkSizeOutOfRangeIsRefused) {
  WriterOptions o;
  o.table_chunk_blocks = 0;
  auto w = ArchiveWriter::create(temp_path("no_table.pga"), o);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code(), ErrorCode::InvalidInput);
}

}  // namespace
}  // namespace pgnarc
