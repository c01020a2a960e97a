// The archive's bytes: what the writer lays out (frames, column forms, dictionaries, name and
// block table chunks) and what the reader makes of damage to each part, with the container's
// own decoders.
#include <algorithm>
#include <sys/resource.h>

#include <fstream>
#include <random>
#include <set>

#include "container/player_numbers.h"
#include "common/endian.h"
#include "common/hash.h"
#include "container/format.h"
#include "container/tag_dictionary.h"
#include "container/value_tables.h"
#include "support/archive_fixtures.h"
#include "support/archive_surgery.h"
#include "scan_oracle.h"

namespace pgnarc {
using namespace test;
using common::get_le;
using common::hash64;
}  // namespace pgnarc

namespace pgnarc {
namespace {

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
  const std::uint64_t sum = hash64(std::string_view(bad).substr(32, end - 8 - 32));
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

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// The sample's games with a comment after every move, so that blocks have texts sections worth
// framing by group: words with random numbers, or (`engine`) an engine's report in the same words
// at every move, numbers drifting as in engine games. They are line comments (`;...`): a brace
// comment holding numbers would be a record (8.3.3), its numbers in the move codeword.
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
      c.comment_kind = CommentKind::kLine;
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
  // (The level at which these games' column form compresses smaller in nearly every block.)
  o.text_level = 9;
  o.text_dictionary = false;  // frames of each block alone
  return o;
}

// Each block's section encodings (file bytes: blocks back to back from offset 32 to the index,
// with dictionary elements among them), and the offset of each block's texts section.
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
    while (const std::size_t n = dictionary_element_size(std::string_view(file).substr(pos))) pos += n;
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

// A block's directory groups (9.3.1): with every move coder, one game a group, so that reading
// a game decodes no other's codeword; but a uniform block whose codewords take at most 1 KiB
// keeps groups of about 1 KiB of codewords: four engine games, whose codewords hold their
// reports' values and variations, take more and go one to a group, four games of moves and
// human comments less and go eight (all four) to a group.
TEST(ArchiveLayout, DirectoryGroupsByMoveCoder) {
  for (const MoveCoding coding : {MoveCoding::kFast, MoveCoding::kMax, MoveCoding::kUniform}) {
    for (const bool engine : {true, false}) {
      SCOPED_TRACE(std::string(coding == MoveCoding::kFast ? "fast, " : coding == MoveCoding::kMax ? "max, " : "uniform, ") +
                   (engine ? "engine reports" : "human annotations"));
      WriterOptions o;
      o.compress = false;
      o.block_games = 4;
      o.moves = coding;
      const std::string pgn = read_file(test::corpus_path(engine ? "pgn/engine_reports.pgn" : "pgn/annotated_human.pgn"));
      const std::string path = pack(pgn, "step.pga", o);
      const std::string file = file_bytes(path);
      const std::string block = file.substr(container::kHeaderSize);  // the first block, and what follows
      const std::size_t structure = section_of(block, container::kStructure).first;
      EXPECT_EQ(static_cast<int>(block[structure]), coding == MoveCoding::kUniform && !engine ? 8 : 1)
          << "the first block's directory step";
      const auto games = unpack_games(path);
      ASSERT_EQ(games.size(), read_all(pgn).size());
    }
  }
}

// A uniform block of real size (64 games of TWIC, their codewords over 1 KiB) has one game a
// directory group too, and reads back.
TEST(ArchiveLayout, UniformBlockOfRealSizeOneGameAGroup) {
  WriterOptions o;
  o.compress = false;
  o.block_games = 64;
  o.moves = MoveCoding::kUniform;
  const std::string pgn = read_file(test::corpus_path("pgn/twic_events.pgn"));
  const std::string path = pack(pgn, "uniform_step.pga", o);
  const std::string block = file_bytes(path).substr(container::kHeaderSize);
  const std::size_t structure = section_of(block, container::kStructure).first;
  const std::string_view plain = std::string_view(block).substr(structure);
  EXPECT_EQ(static_cast<int>(plain[0]), 1) << "the first block's directory step";
  const auto want = read_all(pgn);
  const auto games = unpack_games(path);
  ASSERT_EQ(games.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(games[i].game, want[i].game) << "game " << i + 1;
  // Read one by one, out of order: each game from its own group.
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  for (std::uint64_t i = want.size(); i-- > 0;) {
    auto g = (*a)->read_game(i);
    ASSERT_TRUE(g.ok()) << g.error().message();
    ASSERT_EQ(g->game, want[i].game) << "game " << i + 1;
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
  const std::uint64_t sum = hash64(std::string_view(bytes).substr(blocks[0].offset, end - 8 - blocks[0].offset));
  for (int i = 0; i < 8; ++i) bytes[end - 8 + i] = static_cast<char>(sum >> (8 * i));
  { std::ofstream(path, std::ios::binary) << bytes; }
  auto a = Archive::open(path);
  ASSERT_TRUE(a.ok());
  auto last = (*a)->read_game(blocks[0].games - 1);
  ASSERT_FALSE(last.ok());
  EXPECT_EQ(last.error().code(), ErrorCode::Corruption);
  EXPECT_NE(last.error().message().find("block 0"), std::string::npos) << last.error().to_string();
  EXPECT_NE(last.error().message().find("no Zstandard frame"), std::string::npos) << last.error().to_string();
  // The damaged byte by its offset in the file, then in the block.
  const std::string at = " at offset " + std::to_string(blocks[0].texts_at) + " (block byte " +
                         std::to_string(blocks[0].texts_at - blocks[0].offset) + ")";
  EXPECT_NE(last.error().message().find(at), std::string::npos) << last.error().to_string();
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

// The archives `a` and `b` hold the same games: in order, at random (`reads` of them) and by
// export on two threads.
void expect_same_games(const std::string& a_path, const std::string& b_path, int reads) {
  EXPECT_EQ(unpack_games(a_path), unpack_games(b_path));
  auto a = Archive::open(a_path);
  auto b = Archive::open(b_path);
  ASSERT_TRUE(a.ok() && b.ok());
  std::mt19937_64 rng(5);
  for (int k = 0; k < reads; ++k) {
    const std::uint64_t g = rng() % (*a)->game_count();
    auto x = (*a)->read_pgn(g);
    ASSERT_TRUE(x.ok()) << x.error().to_string();
    EXPECT_EQ(*x, *(*b)->read_pgn(g)) << g;
  }
  std::string ea, eb;
  ASSERT_TRUE((*a)->export_pgn([&](std::string_view s) { ea += s; return true; }, 2).ok());
  ASSERT_TRUE((*b)->export_pgn([&](std::string_view s) { eb += s; return true; }, 2).ok());
  EXPECT_EQ(ea, eb);
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

  expect_same_games(with, without, 200);
  auto a = Archive::open(with);
  auto b = Archive::open(without);
  ASSERT_TRUE(a.ok() && b.ok());
  Query q;
  q.event = "rapid";
  EXPECT_EQ(*(*a)->find(q), *(*b)->find(q));

  for (unsigned threads : {1u, 3u})
    EXPECT_EQ(file_bytes(pack(dictionary_pgn(), "dict_t.pga", dictionary_blocks(threads))), file_bytes(with))
        << threads << " threads";
  // A few games (too little tags to train on) get no dictionary.
  EXPECT_EQ(info_of(pack(test::read_file(test::corpus_path("pgn/twic_events.pgn")), "small.pga")).dictionaries, 0u);
}

// [DICT-1] The writer tries dictionaries of several sizes (a share of the tags trained on each),
// measured on its worker threads; which one it keeps does not depend on the thread count.
TEST(ArchiveDictionary, SizeChosenWhateverTheThreadCount) {
  std::string bytes[3];
  for (unsigned threads : {1u, 2u, 3u}) {
    WriterOptions o = dictionary_blocks(threads);
    o.dictionary_bytes = 64 * 1024;  // room for each of the shares tried
    const std::string path = pack(dictionary_pgn(), "dict_sizes.pga", o);
    bytes[threads - 1] = file_bytes(path);
    EXPECT_EQ(info_of(path).dictionaries, 1u) << threads << " threads";
  }
  EXPECT_EQ(bytes[1], bytes[0]);
  EXPECT_EQ(bytes[2], bytes[0]);
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

// Games whose Event values are random letters, one value a game: no block's tags repeat
// another's, and each value is in the blocks and in the Event table.
std::string random_event_pgn(int games, std::size_t* event_bytes) {
  std::mt19937_64 rng(11);
  std::string text;
  *event_bytes = 0;
  for (int g = 0; g < games; ++g) {
    std::string event;
    for (int i = 0; i < 48; ++i) event += static_cast<char>('a' + rng() % 26);
    *event_bytes += event.size();
    text += "[Event \"" + event + "\"]\n[White \"w\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
  }
  return text;
}

// [DICT-1] Where the blocks it holds are all the archive's, the writer also tries a dictionary
// that holds their tags sections as they are: each block's tags and the Event table then refer
// to one copy of the values (a trained dictionary cannot help with values that repeat nowhere),
// and every block still reads alone. Where training stops before the last block, it does not.
TEST(ArchiveDictionary, ASmallArchivesDictionaryHoldsItsTags) {
  std::size_t event_bytes = 0;
  const std::string text = random_event_pgn(240, &event_bytes);
  WriterOptions o = dictionary_blocks();
  o.block_games = 30;
  o.dictionary_bytes = 64 * 1024;
  o.name_entries = false;  // (the events as tags, which the dictionary holds)
  const std::string with = pack(text, "dwhole.pga", o);
  WriterOptions none = o;
  none.dictionary_bytes = 0;
  const std::string without = pack(text, "dwhole_none.pga", none);
  const ArchiveInfo i = info_of(with);
  ASSERT_EQ(i.dictionaries, 1u);
  EXPECT_EQ(i.dictionary_blocks, i.blocks);
  EXPECT_EQ(i.blocks, 8u);
  // Without: each value twice (tags and table), zstd's letters at about 4.7 bits; with: once.
  const std::size_t with_size = file_bytes(with).size(), without_size = file_bytes(without).size();
  EXPECT_GT(without_size, event_bytes);
  EXPECT_LT(with_size, without_size * 7 / 10) << with_size << " against " << without_size;
  EXPECT_LT(i.section(Section::Tags).stored, 40u * i.blocks);
  EXPECT_EQ(unpack_games(with), unpack_games(without));
  auto a = Archive::open(with);
  ASSERT_TRUE(a.ok());
  for (std::uint64_t g : {0u, 31u, 239u}) {
    auto x = (*a)->read_pgn(g);
    ASSERT_TRUE(x.ok()) << x.error().to_string();
    EXPECT_NE(x->find("[Event \""), std::string::npos);
  }

  // 1,100 blocks of one game: holding stops at 1,024 blocks, and no dictionary holds the tags
  // themselves (the blocks after them would find nothing of theirs in it).
  std::size_t many_bytes = 0;
  const std::string many = random_event_pgn(1100, &many_bytes);
  WriterOptions one = o;
  one.block_games = 1;
  const std::string held = pack(many, "dwhole_many.pga", one);
  none = one;
  none.dictionary_bytes = 0;
  const std::string held_none = pack(many, "dwhole_many_none.pga", none);
  // (A dictionary holding them would take their letters at zstd's 4.7 bits: above half their bytes.)
  EXPECT_LT(info_of(held).dictionary_bytes, many_bytes / 3);
  EXPECT_LT(file_bytes(held).size(), file_bytes(held_none).size());
  EXPECT_EQ(unpack_games(held), unpack_games(held_none));
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

// The first `games` games of `pgn` (each opens with an `[Event ` tag, as commented_pgn writes
// them), or all of it.
std::string first_games(const std::string& pgn, std::size_t games) {
  std::size_t at = 0;
  for (std::size_t n = 0; n <= games; ++n) {
    at = pgn.find("[Event ", n ? at + 1 : 0);
    if (at == std::string::npos) return pgn;
  }
  return pgn.substr(0, at);
}

// [BLOCK-1] [BLOCK-4] [BLOCK-5] A new archive whose blocks the writer holds all of gets a text
// dictionary (9.9): every block's comments and verbatim games in frames made with it (encodings 7
// to 10, format 1.12), smaller than block by block; the same games back in order, at random (a
// group's frame alone) and by export; bytes whatever the thread count; damage to a frame found.
// Appends and archives past the writer's training get none.
// The archive `path` with block 0's section `s` said to be of encoding `encoding` (the block's
// checksum made good), whose frames then name a dictionary where none may be: block 0's reads
// fail with a corruption that names it, and the next block's do not.
void expect_block_0_fails_with_encoding(const std::string& path, int s, std::uint8_t encoding, const std::string& name) {
  std::string bytes = file_bytes(path);
  const auto blocks = block_sections(bytes);
  ASSERT_GT(blocks.size(), 1u);
  bytes[blocks[0].offset + container::kBlockHeaderSize + s * container::kSectionEntrySize + 1] = static_cast<char>(encoding);
  const std::size_t end = blocks[1].offset;
  const std::uint64_t sum = hash64(std::string_view(bytes).substr(blocks[0].offset, end - 8 - blocks[0].offset));
  for (int k = 0; k < 8; ++k) bytes[end - 8 + k] = static_cast<char>(sum >> (8 * k));
  const std::string damaged = temp_path(name);
  { std::ofstream(damaged, std::ios::binary) << bytes; }
  auto d = Archive::open(damaged);
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE((*d)->verify().ok());
  auto first = (*d)->read_pgn(0);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().code(), ErrorCode::Corruption);
  EXPECT_NE(first.error().message().find("block 0"), std::string::npos) << first.error().to_string();
  EXPECT_TRUE((*d)->read_pgn(blocks[0].games).ok()) << "block 1 is sound";
}

// `archive` copied and `pgn` appended (to `name`) with `o`: an append copies the archive with
// its dictionaries and gives the new blocks none; its info.
ArchiveInfo appended_info(const std::string& archive, const std::string& pgn, const WriterOptions& o, const std::string& name) {
  const std::string appended = temp_path(name);
  auto w = ArchiveWriter::create(appended, o);
  EXPECT_TRUE((*w)->add_archive_blocks(archive).ok());
  PgnReader reader(memory_input(pgn), "again.pgn");
  EXPECT_TRUE((*w)->add_pgn(reader).ok());
  EXPECT_TRUE((*w)->finish().ok());
  return info_of(appended);
}

TEST(ArchiveTextDictionary, CommentsCompressAsOneStreamBlocksReadAlone) {
  const std::string pgn = first_games(commented_pgn(), 60);  // (comments that fit a dictionary)
  WriterOptions o = framed_blocks();
  o.text_level = 15;
  o.text_dictionary = true;
  o.name_entries = false;  // (the read version is the text dictionary's)
  const std::string with = pack(pgn, "tdict.pga", o);
  WriterOptions plain = o;
  plain.text_dictionary = false;
  const std::string without = pack(pgn, "tdict_none.pga", plain);
  const ArchiveInfo i = info_of(with), n = info_of(without);
  EXPECT_GT(i.blocks, 2u);
  EXPECT_EQ(i.section(Section::Texts).dictionary_blocks, i.blocks);
  EXPECT_LT(i.section(Section::Texts).stored * 20, n.section(Section::Texts).stored) << "the dictionary holds them";
  EXPECT_EQ(n.section(Section::Texts).dictionary_blocks, 0u);
  EXPECT_EQ(i.dictionaries, n.dictionaries + 1);
  EXPECT_EQ(i.read_version.minor, 12u);
  EXPECT_LT(n.read_version.minor, 12u);
  EXPECT_LT(file_bytes(with).size(), file_bytes(without).size() * 19 / 20)
      << file_bytes(with).size() << " against " << file_bytes(without).size();
  std::set<int> encodings;
  for (const BlockSections& b : block_sections(file_bytes(with))) encodings.insert(b.encoding[container::kTexts]);
  // (The last block's comments take one frame.)
  EXPECT_EQ(encodings, (std::set<int>{container::kZstdTextDictionary, container::kZstdTextDictionaryByGroup}));

  expect_same_games(with, without, 60);
  const auto want = unpack_games(without);
  EXPECT_TRUE((*Archive::open(with))->verify().ok());
  for (unsigned threads : {1u, 3u}) {
    WriterOptions t = o;
    t.threads = threads;
    EXPECT_EQ(file_bytes(pack(pgn, "tdict_t.pga", t)), file_bytes(with)) << threads << " threads";
  }

  // Block 0's texts section said to be of the encoding without the dictionary.
  const std::uint8_t texts = block_sections(file_bytes(with))[0].encoding[container::kTexts];
  ASSERT_TRUE(texts == 7 || texts == 8);
  expect_block_0_fails_with_encoding(with, container::kTexts, container::without_text_dictionary(texts), "tdict_bad.pga");

  const ArchiveInfo ai = appended_info(with, pgn, o, "tdict_appended.pga");
  EXPECT_EQ(ai.blocks, 2 * i.blocks);
  EXPECT_EQ(ai.section(Section::Texts).dictionary_blocks, i.blocks);
  EXPECT_EQ(ai.dictionaries, i.dictionaries);
  auto twice = want;
  for (auto& g : want) twice.push_back(g);
  EXPECT_EQ(unpack_games(temp_path("tdict_appended.pga")), twice);

  // Blocks of little moves whose games repeat are held past the training's 256 (here 300
  // blocks); past 1,024, none (ArchiveMovesDictionary.RepeatedGamesCostAFewBytesBlocksReadAlone).
  std::string more;
  while (first_games(more, 300).size() == more.size()) more += pgn;
  WriterOptions one = o;
  one.block_games = 1;
  const ArchiveInfo i300 = info_of(pack(first_games(more, 300), "tdict_300.pga", one));
  EXPECT_GT(i300.blocks, 256u);
  EXPECT_EQ(i300.section(Section::Texts).dictionary_blocks, i300.blocks);
}

// Format 1.13: where every block is held, the moves and structure sections are compressed with a
// moves dictionary that holds them all: a game repeated in another block costs a few bytes, and
// each block still reads alone.
TEST(ArchiveMovesDictionary, RepeatedGamesCostAFewBytesBlocksReadAlone) {
  // 40 TWIC games, then the same moves four more times under other tags.
  const std::string games = first_games(read_file(test::corpus_path("pgn/twic_events.pgn")), 40);
  std::string pgn = games;
  for (int copy = 1; copy < 5; ++copy) {
    std::string again = games;
    for (std::size_t at = 0; (at = again.find("[Event \"", at)) != std::string::npos; at += 8)
      again.insert(at + 8, "copy " + std::to_string(copy) + " ");
    pgn += again;
  }
  WriterOptions o;
  o.block_games = 20;
  o.threads = 2;
  o.name_entries = false;  // (the read version is the moves dictionary's)
  const std::string with = pack(pgn, "mdict.pga", o);
  WriterOptions plain = o;
  plain.moves_dictionary = false;
  const std::string without = pack(pgn, "mdict_none.pga", plain);
  const ArchiveInfo i = info_of(with), n = info_of(without);
  ASSERT_EQ(i.blocks, 10u);
  EXPECT_EQ(i.section(Section::Moves).dictionary_blocks, i.blocks);
  EXPECT_EQ(n.section(Section::Moves).dictionary_blocks, 0u);
  EXPECT_EQ(i.dictionaries, n.dictionaries + 1);
  EXPECT_EQ(i.read_version.minor, 13u);
  EXPECT_LT(n.read_version.minor, 13u);
  // The moves of 40 games once, not five times: the moves and structure sections and the moves
  // dictionary's element (the archives' tag dictionaries are the same) take less than a third of
  // what the sections take without.
  const auto sections = [](const ArchiveInfo& a) {
    return a.section(Section::Moves).stored + a.section(Section::Structure).stored;
  };
  const std::uint64_t held = sections(i) + i.dictionary_bytes - n.dictionary_bytes;
  EXPECT_LT(held * 3, sections(n)) << held << " against " << sections(n);
  EXPECT_LT(file_bytes(with).size() * 3, file_bytes(without).size() * 2)
      << file_bytes(with).size() << " against " << file_bytes(without).size();
  for (const BlockSections& b : block_sections(file_bytes(with)))
    EXPECT_EQ(b.encoding[container::kMoves], container::kZstdMovesDictionary);
  // The bits per ply that info reports are the codewords', not the few bytes that refer to them.
  EXPECT_NEAR(moves_bits_per_ply(i), moves_bits_per_ply(n), 0.2 * moves_bits_per_ply(n));

  expect_same_games(with, without, 60);
  const auto want = unpack_games(without);
  EXPECT_TRUE((*Archive::open(with))->verify().ok());
  for (unsigned threads : {1u, 3u}) {
    WriterOptions t = o;
    t.threads = threads;
    EXPECT_EQ(file_bytes(pack(pgn, "mdict_t.pga", t)), file_bytes(with)) << threads << " threads";
  }

  // Block 0's moves section said to be of encoding 1.
  expect_block_0_fails_with_encoding(with, container::kMoves, container::kZstd, "mdict_bad.pga");

  const ArchiveInfo ai = appended_info(with, games, o, "mdict_appended.pga");
  EXPECT_EQ(ai.blocks, i.blocks + 2);
  EXPECT_EQ(ai.section(Section::Moves).dictionary_blocks, i.blocks);
  EXPECT_EQ(ai.dictionaries, i.dictionaries);
  auto more = want;
  for (std::size_t k = 0; k < 40; ++k) more.push_back(want[k]);
  EXPECT_EQ(unpack_games(temp_path("mdict_appended.pga")), more);

  // Blocks of little moves are held past the training's 256 (here 300 blocks), up to 1,024:
  // past them, none.
  WriterOptions one = o;
  one.block_games = 1;
  std::string many;
  while (first_games(many, 1100).size() == many.size()) many += pgn;
  EXPECT_GT(info_of(pack(first_games(many, 300), "mdict_300.pga", one)).section(Section::Moves).dictionary_blocks, 256u);
  EXPECT_EQ(info_of(pack(many, "mdict_many.pga", one)).section(Section::Moves).dictionary_blocks, 0u);
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
    // Every flip breaks the checksum, which is named by its offset in the file.
    const std::string sum = "checksum mismatch at offset " + std::to_string(kHeaderSize + size - 8) + " (dictionary byte " +
                            std::to_string(size - 8) + ")";
    EXPECT_NE(a.error().message().find(sum), std::string::npos) << a.error().to_string();
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
// checked when it is first needed: the players' table when a game's players are read, the others
// by a search or verify. So an archive whose Event chunk is damaged (a posting naming a block that
// does not exist, every checksum made right) opens and reads games, while an indexed search and
// verify report the damage; one whose players' chunk is damaged reports it when a game is read.
TEST(ArchiveDamage, NameTablesAreCheckedWhenFirstUsed) {
  using namespace container;
  WriterOptions o = small_blocks();
  o.dictionary_bytes = 0;  // chunks compressed without a dictionary: this test rewrites them
  // Events and sites as tags: where a block's columns name their entries (layout 8, 9.4.3),
  // reading a game reads the Event and Site chunks as it does the players'.
  o.name_entries = false;
  const std::string path = pack(sample_pgn(), "names.pga", o);
  const std::string good = file_bytes(path);
  const ArchiveParts parts = parts_of(good);
  ASSERT_FALSE(parts.index.name_chunks[kEventField].empty());
  const auto past_blocks = static_cast<std::uint32_t>(parts.blocks.size() + 5);
  // Every chunk read back and written again after the blocks, the first value's last posting of
  // the field's first chunk pointing past the blocks; then the block table.
  const auto damage = [&](int damaged_field) {
    return edit_names(good, [&](int field, std::size_t k, std::vector<NameEntry>& entries) {
      if (field == damaged_field && k == 0) entries[0].blocks.back() = past_blocks;
    });
  };
  const std::string players_damaged = temp_path("players_damaged.pga");
  { std::ofstream(players_damaged, std::ios::binary) << damage(kPlayerField); }
  auto p = Archive::open(players_damaged);
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  auto g = (*p)->read_pgn(0);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code(), ErrorCode::Corruption);
  EXPECT_NE(g.error().message().find("name chunk at offset"), std::string::npos) << g.error().to_string();
  const std::string bad = damage(kEventField);
  const std::string damaged = temp_path("names_damaged.pga");
  { std::ofstream(damaged, std::ios::binary) << bad; }
  auto a = Archive::open(damaged);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_TRUE((*a)->read_pgn((*a)->game_count() - 1).ok());
  Query q;
  q.event = "a";
  auto found = (*a)->find(q);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().code(), ErrorCode::Corruption);
  EXPECT_NE(found.error().message().find("posting names a block that does not exist"), std::string::npos)
      << found.error().to_string();
  EXPECT_TRUE(test::find_by_scan(**a, q).ok()) << "a scan needs no Event table";
  auto b = Archive::open(damaged);
  Status st = (*b)->verify();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code(), ErrorCode::Corruption);
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// The index's directories round-trip (5,000 block table chunks: a body of some 40 KB,
// compressed), and an index cut short anywhere is Corruption.
TEST(ArchiveIndex, IndexRoundTripsAndACutIndexIsCorruption) {
  using namespace container;
  Index index;
  const std::uint64_t n = 5000, base = kHeaderSize + 1000;
  for (std::uint64_t i = 0; i < n; ++i)
    index.table_chunks.push_back(TableChunkEntry{base + i * 100, 100, 1, i});
  const std::uint64_t index_offset = base + n * 100;
  StoreOptions o;
  const std::string bytes = encode_index(index, o);
  ASSERT_EQ(bytes[4], kZstd);
  Index back;
  ASSERT_TRUE(decode_index(bytes, index_offset, back).ok());
  ASSERT_EQ(back.table_chunks.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) {
    EXPECT_EQ(back.table_chunks[i].offset, index.table_chunks[i].offset);
    EXPECT_EQ(back.table_chunks[i].first_game, index.table_chunks[i].first_game);
  }
  for (std::size_t keep : {std::size_t{9}, bytes.size() / 4, bytes.size() / 2, bytes.size() - 3}) {
    Index cut;
    const Status st = decode_index(std::string_view(bytes).substr(0, keep), index_offset, cut);
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

// The block table is in chunks that a reader reads when first needed. Reading games
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
  const Index index = parts_of(good).index;
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
  const std::string renumbered = temp_path("table_chunk_renumbered.pga");
  { std::ofstream(renumbered, std::ios::binary) << with_index(good, moved); }
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

namespace pgnarc {
namespace {

// A damaged archive still yields the games of its sound blocks, never a game that was not in
// it; with no damage, salvage equals a normal export. (Without a tag dictionary: every block's
// tags need the dictionary, whose damage ArchiveDictionary.DamageToTheDictionaryIsDetected covers.
// Every block's players are in the players' table, its events and sites in theirs (layout 8,
// 9.4.3), and its openings in the value table: damage to any loses the games whose tags it no
// longer gives, and says so.) Damage to the index leaves salvage the name tables found by their
// chunks' magic and the value table found by its own (9.4.8).
TEST(ArchiveSalvage, SoundBlocksSurviveAnySingleByteDamage) {
  WriterOptions o;
  o.block_games = 5;
  o.dictionary_bytes = 0;
  const std::string path = pack(test::read_file(test::corpus_path("pgn/twic_events.pgn")), "salvage.pga", o);
  std::string full;
  ASSERT_TRUE((*Archive::open(path))->export_pgn([&](std::string_view c) { full += c; return true; }).ok());
  // Progress: the bytes read of two passes over the file, never backwards, to the end.
  const std::string good = test::read_file(path);
  SalvageOptions options;
  std::vector<std::uint64_t> done;
  options.progress = [&](std::uint64_t d, std::uint64_t total) {
    EXPECT_EQ(total, 2 * good.size());
    done.push_back(d);
  };
  auto sound = salvage_pgn(path, [&](std::string_view) { return true; }, options);
  ASSERT_TRUE(sound.ok());
  EXPECT_TRUE(sound->skipped.empty());
  EXPECT_EQ(sound->games, 60u);
  ASSERT_FALSE(done.empty());
  EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
  EXPECT_EQ(done.back(), 2 * good.size());
  // The name chunks: the players', which player columns name, then the Event and Site tables',
  // which the Event and Site columns of entries name (layout 8).
  const auto& names = parts_of(good).index.name_chunks;
  ASSERT_FALSE(names[container::kPlayerField].empty());
  ASSERT_FALSE(names[container::kSiteField].empty());
  const std::uint64_t players_from = names[container::kPlayerField].front().offset,
                      players_to = names[container::kSiteField].back().offset + names[container::kSiteField].back().size;
  // The value table's bytes, in the stored index.
  const std::size_t tables_from = good.find(std::string_view(container::kValueTablesMagic, 4), players_to);
  ASSERT_NE(tables_from, std::string::npos);
  const std::size_t tables_to = tables_from + container::ValueTables::declared_size(std::string_view(good).substr(tables_from));
  const std::string bad_path = path + ".bad";
  std::mt19937_64 rng(4);
  int in_players = 0, in_tables = 0, in_index = 0;
  for (int k = 0; k < 300; ++k) {
    std::string bad = good;
    const std::size_t at = k == 0 ? players_from + 20 : k == 1 ? good.size() - 100 : rng() % bad.size();
    bad[at] = static_cast<char>(bad[at] ^ (1 + rng() % 255));
    { std::ofstream(bad_path, std::ios::binary) << bad; }
    std::string out;
    auto rep = salvage_pgn(bad_path, [&](std::string_view c) { out += c; return true; });
    ASSERT_TRUE(rep.ok());
    if (at >= players_from && at < players_to) {
      ++in_players;
      EXPECT_TRUE(rep->games == 60 || !rep->skipped.empty()) << "byte " << at;
    } else if (at >= tables_from && at < tables_to) {
      ++in_tables;
      EXPECT_TRUE(rep->games == 60 || !rep->skipped.empty()) << "byte " << at;
    } else {
      in_index += at >= good.size() - 48 - parts_of(good).footer.index_size;
      EXPECT_GE(rep->games, 55u) << "at most one block of 5 games lost, byte " << at;
    }
    EXPECT_NE(full.find(out.substr(0, 200)), std::string::npos) << "salvaged text must come from the archive";
    if (rep->games < 60) EXPECT_FALSE(rep->skipped.empty()) << "lost games are reported, byte " << at;
  }
  EXPECT_GT(in_players, 0);
  EXPECT_GT(in_tables, 0);
  EXPECT_GT(in_index, 0);  // (outside the value table: salvage still reads it)
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// [NAME-1] A name chunk's entries in their three columns come back as written, values holding
// the end byte 00 and the escape byte 01 included, first blocks that fall from entry to entry
// too; an escape followed by another byte, a first block below 0 and columns cut short are
// refused.
TEST(NameChunk, ColumnsRoundTripAndDamageIsRefused) {
  using namespace container;
  const std::vector<NameEntry> entries = {{std::string("a\0b", 3), {3, 4}},
                                          {std::string("a\x01\x01", 3), {1}},
                                          {"abc", {0, 2, 9}},
                                          {std::string("\x01", 1), {9}}};
  ChunkEntries chunk;
  for (const NameEntry& e : entries) chunk.add(e.value, e.blocks);
  const std::string content = chunk.content();
  const auto read = [&](std::string_view c, std::vector<NameEntry>& out) {
    out.clear();
    return visit_name_entries(c, "t", nullptr, nullptr, 10, false, [&](std::string_view v, const std::vector<std::uint32_t>& b) {
      out.push_back(NameEntry{std::string(v), b});
    });
  };
  std::vector<NameEntry> back;
  ASSERT_TRUE(read(content, back).ok());
  ASSERT_EQ(back.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(back[i].value, entries[i].value) << i;
    EXPECT_EQ(back[i].blocks, entries[i].blocks) << i;
  }
  // The first entry's rest, "a" 01 01 "b" 00, starts after the count and the four shared bytes.
  ASSERT_EQ(content.substr(5, 5), std::string("a\x01\x01" "b\x00", 5));
  std::string bad = content;
  bad[7] = 3;  // 01 03: no such escape
  EXPECT_FALSE(read(bad, back).ok());
  for (std::size_t cut = 1; cut < content.size(); ++cut) EXPECT_FALSE(read(content.substr(0, cut), back).ok()) << cut;
  // Values that share the whole of a long value before them are cheap to store but long to read:
  // more than 2^30 bytes in all is refused (a players' table may repeat a value).
  ChunkEntries repeated;
  const std::string long_value(1 << 20, 'x');
  for (int i = 0; i < 1100; ++i) repeated.add(long_value, {0});
  ASSERT_LT(repeated.size(), (2u << 20) + 8000);
  std::size_t seen = 0;
  const Status st = visit_name_entries(repeated.content(), "t", nullptr, nullptr, 1, false,
                                       [&](std::string_view, const std::vector<std::uint32_t>&) { ++seen; });
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("2^30"), std::string::npos) << st.error().to_string();
  EXPECT_LE(seen, 1024u);
  // A chunk of one entry whose first block is zigzag 1: -1.
  ChunkEntries one;
  one.add("x", {0});
  std::string below = one.content();
  ASSERT_EQ(below.back(), '\x00');
  below.back() = '\x01';
  EXPECT_FALSE(read(below, back).ok());
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// The writer's players' numbering: values numbered as first met, found again by value (a value
// added twice keeps its first entry), each given back as it was, through the table's growth.
TEST(PlayerNumbers, NumbersValuesInOrderAndFindsTheFirst) {
  container::PlayerNumbers n;
  EXPECT_EQ(n.find("x"), -1);
  for (int i = 0; i < 5000; ++i) EXPECT_EQ(n.add("player " + std::to_string(i)), static_cast<std::uint32_t>(i));
  EXPECT_EQ(n.add("player 17"), 5000u);  // a repeated value gets an entry of its own
  EXPECT_EQ(n.add(""), 5001u);
  ASSERT_EQ(n.size(), 5002u);
  for (int i = 0; i < 5000; i += 7) {
    EXPECT_EQ(n.find("player " + std::to_string(i)), i);
    EXPECT_EQ(n[static_cast<std::size_t>(i)], "player " + std::to_string(i));
  }
  EXPECT_EQ(n.find("player 17"), 17);
  EXPECT_EQ(n[5000], "player 17");
  EXPECT_EQ(n.find(""), 5001);
  EXPECT_EQ(n[5001], "");
  EXPECT_EQ(n.find("player 5000"), -1);
}

}  // namespace
}  // namespace pgnarc
