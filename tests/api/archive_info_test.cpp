// Archive::info counts plies and verbatim games from the moves and raw sections, without
// replaying a move: the same figures as the writer's, on archives that a full decode rejects too.
#include <algorithm>
#include <cstdio>

#include "pgnarc/pgnarc.h"
#include "support/archive_fixtures.h"

namespace pgnarc {
namespace {

std::string pgn_of_every_kind() {
  std::string pgn;
  for (int i = 0; i < 40; ++i) {
    pgn += "[Event \"e" + std::to_string(i) + "\"]\n\n1. e4 -- 2. d4 (2. c4 e5 (2... c5)) 2... d5 *\n\n";
    pgn += "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. N@e5 {a comment of some length, " +
           std::to_string(i * 7919) + " to keep the frames apart} *\n\n";
  }
  return pgn + test::sample_pgn();
}

PackStats pack_with(const std::string& pgn, const std::string& path, const WriterOptions& o) {
  auto w = ArchiveWriter::create(path, o);
  EXPECT_TRUE(w.ok());
  PgnReader reader(memory_input(pgn), "kinds.pgn");
  EXPECT_TRUE((*w)->add_pgn(reader).ok());
  auto stats = (*w)->finish();
  EXPECT_TRUE(stats.ok());
  return stats.ok() ? *stats : PackStats{};
}

TEST(ArchiveInfo, PliesAndVerbatimGamesAsTheWriterCountedThem) {
  WriterOptions whole, framed = test::small_blocks(), stored;
  framed.frame_bytes = 256;  // raw sections in one frame per group
  stored.compress = false;
  for (const WriterOptions* o : {&whole, &framed, &stored}) {
    const std::string path = test::temp_path("info_kinds.pga");
    std::remove(path.c_str());
    const PackStats stats = pack_with(pgn_of_every_kind(), path, *o);
    ASSERT_GT(stats.raw_games, 40u);
    auto a = Archive::open(path);
    ASSERT_TRUE(a.ok());
    std::vector<std::uint64_t> seen;
    auto info = (*a)->info([&](std::uint64_t games) { seen.push_back(games); });
    ASSERT_TRUE(info.ok()) << info.error().to_string();
    EXPECT_EQ(info->plies, stats.plies);
    EXPECT_EQ(info->verbatim_games, stats.raw_games);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), stats.games) << "progress ends at every game";
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    if (o == &framed) EXPECT_GT(info->section(Section::Raw).framed_blocks, 0u);
  }
}

// Verbatim games of a hundred bytes: framed by groups of about a frame (any number of games a
// group where the block has no codewords), but not one game a group (a block made for position
// search), where the frames would compress too little alone.
TEST(ArchiveInfo, FramesHoldAboutAFrameOfGames) {
  std::string pgn;
  for (int i = 0; i < 2000; ++i)
    pgn += "[Event \"v\"]\n[Variant \"Seirawan\"]\n\n1. e4 e5 2. Nf3 {note " + std::to_string(i * 7919) + "} *\n\n";
  WriterOptions grouped, filtered;
  filtered.position_filter = true;
  WriterOptions filtered_whole = filtered;
  filtered_whole.frame_bytes = 0;
  std::uint64_t sizes[3] = {};
  std::uint64_t framed[3] = {};
  int k = 0;
  for (const WriterOptions* o : {&grouped, &filtered, &filtered_whole}) {
    const std::string path = test::temp_path("info_frames.pga");
    std::remove(path.c_str());
    const PackStats stats = pack_with(pgn, path, *o);
    ASSERT_EQ(stats.raw_games, 2000u);
    auto a = Archive::open(path);
    ASSERT_TRUE(a.ok());
    auto info = (*a)->info();
    ASSERT_TRUE(info.ok()) << info.error().to_string();
    sizes[k] = info->file_bytes;
    framed[k++] = info->section(Section::Raw).framed_blocks;
  }
  EXPECT_GT(framed[0], 0u);
  EXPECT_EQ(framed[1], 0u);
  EXPECT_LE(sizes[1], sizes[2] + sizes[2] / 50);
}

// A game header with a reserved bit set (its block's checksum right): every decode refuses it,
// info, which decodes no game, does not.
TEST(ArchiveInfo, DecodesNoGame) {
  auto a = Archive::open(test::corpus_path("conformance/invalid/record_reserved_bit.pga"));
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE((*a)->verify().ok());
  auto info = (*a)->info();
  ASSERT_TRUE(info.ok()) << info.error().to_string();
  EXPECT_EQ(info->games, 1u);
  EXPECT_EQ(info->verbatim_games, 0u);
  EXPECT_EQ(info->plies, 3u);  // 1. e4 e5 2. Nf3
}

}  // namespace
}  // namespace pgnarc
