// The writer's moves dictionary (format 1.13, 9.9) where the held blocks' moves and structure
// sections do not fit a dictionary.
#include <random>

#include "container/tag_dictionary.h"
#include "support/archive_fixtures.h"
#include "support/test_util.h"

namespace pgnarc {
namespace {

using namespace test;

// `n` games of `plies` random legal moves each (fewer where one ends the game), drawn from `seed`,
// each with an Event naming it.
std::vector<Game> random_games(std::uint64_t seed, int n, int plies) {
  std::mt19937_64 rng(seed);
  std::vector<Game> games;
  for (int k = 0; k < n; ++k) {
    Game g;
    g.tags.push_back({"Event", "random " + std::to_string(seed) + "." + std::to_string(k)});
    Position pos = Position::start(Variant::kStandard);
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList moves = pos.legal_moves();
      if (moves.size == 0) break;
      const Move m = moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size))];
      g.events.push_back(GameEvent::make_move(m));
      pos.play(m);
    }
    g.result = GameResult::kUnknown;
    games.push_back(std::move(g));
  }
  return games;
}

std::string pack_games(const std::vector<Game>& games, const std::string& name, const WriterOptions& o) {
  const std::string path = temp_path(name);
  auto w = ArchiveWriter::create(path, o);
  EXPECT_TRUE(w.ok());
  for (const Game& g : games) EXPECT_TRUE((*w)->add_game(g).ok());
  auto stats = (*w)->finish();
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().to_string());
  return path;
}

std::vector<Game> joined(std::initializer_list<const std::vector<Game>*> parts) {
  std::vector<Game> out;
  for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

// 200 games four times in the first blocks, then more than a dictionary's mebibyte of other
// games' moves: the dictionary ends with the repeated codewords after the last sections, so that
// the three copies cost little, where the last sections alone hold none of them (and, as these
// games are random, do not pay for a dictionary).
TEST(ArchiveMovesDictionary, GamesRepeatedBeforeTheLastMebibyteCostLittle) {
  const std::vector<Game> repeated = random_games(1, 200, 120), others = random_games(2, 15000, 120);
  WriterOptions o;
  o.moves = MoveCoding::kUniform;
  o.block_games = 200;
  o.block_bytes = std::size_t{1} << 30;
  o.threads = 2;
  const std::vector<Game> games = joined({&repeated, &repeated, &repeated, &repeated, &others});
  const std::string with = pack_games(games, "mrep.pga", o);
  WriterOptions plain = o;
  plain.moves_dictionary = false;
  const std::string without = pack_games(games, "mrep_none.pga", plain);
  const ArchiveInfo w = info_of(with), n = info_of(without);
  const ArchiveInfo one = info_of(pack_games(repeated, "mrep_once.pga", o));
  ASSERT_EQ(w.blocks, 79u);
  EXPECT_GT(w.section(Section::Moves).dictionary_blocks, 0u);
  EXPECT_GT(w.section(Section::Moves).raw - 4 * one.section(Section::Moves).raw, 1u << 20);
  // The three copies' codewords (more than 60 bytes a game): the dictionary saves more than half.
  const std::uint64_t copies = 3 * one.section(Section::Moves).raw;
  EXPECT_GT(copies, 3u * 200 * 60);
  EXPECT_LT(w.file_bytes, n.file_bytes - copies / 2) << w.file_bytes << " against " << n.file_bytes;

  auto a = Archive::open(with);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE((*a)->verify().ok());
  for (std::uint64_t g : {0u, 199u, 200u, 799u, 800u, 15799u}) {
    auto x = (*a)->read_game(g);
    ASSERT_TRUE(x.ok()) << x.error().to_string();
    const Game& want = g < 800 ? repeated[g % 200] : others[g - 800];
    EXPECT_EQ(x->game.events, want.events) << "game " << g;
  }
}

// Past the training's 256 blocks, the writer holds blocks on (for the dictionaries of an archive
// whose blocks it holds all) only where the first 256 blocks' games share codewords: 300 blocks
// of one game each, every game with the same comment, get a text dictionary where their games
// are 150 games twice, and none where they are 300 distinct games.
TEST(ArchiveMovesDictionary, BlocksPastTheTrainingAreHeldWhereGamesRepeat) {
  const std::string comment = "the same words after every game's first move, which a text dictionary holds once";
  const auto commented = [&comment](std::vector<Game> games) {
    for (Game& g : games) g.events.insert(g.events.begin() + 1, GameEvent::comment(comment));
    return games;
  };
  const std::vector<Game> half = random_games(4, 150, 60);
  const std::vector<Game> repeated = commented(joined({&half, &half})), distinct = commented(random_games(5, 300, 60));
  WriterOptions o;
  o.block_games = 1;
  o.threads = 2;
  const ArchiveInfo r = info_of(pack_games(repeated, "mheld_repeated.pga", o));
  const ArchiveInfo d = info_of(pack_games(distinct, "mheld_distinct.pga", o));
  ASSERT_EQ(r.blocks, 300u);
  ASSERT_EQ(d.blocks, 300u);
  EXPECT_EQ(r.section(Section::Texts).dictionary_blocks, 300u);
  EXPECT_GT(r.section(Section::Moves).dictionary_blocks, 256u);
  EXPECT_EQ(d.section(Section::Texts).dictionary_blocks, 0u);
  EXPECT_EQ(d.section(Section::Moves).dictionary_blocks, 0u);
}

// Where the first 256 blocks' games repeat but their moves take more than 2 MiB (twice what a
// dictionary holds), the writer holds no more blocks: 300 blocks, every game with the same
// comment, get no text dictionary (which they would, held all, as in
// BlocksPastTheTrainingAreHeldWhereGamesRepeat) and no moves dictionary.
TEST(ArchiveMovesDictionary, BlocksPastTheTrainingAreNotHeldPast2MiBOfMoves) {
  const std::vector<Game> distinct = random_games(6, 6000, 600);
  std::vector<Game> pairs;  // each game twice in a row, with the same comment as every other
  for (Game g : distinct) {
    g.events.insert(g.events.begin() + 1, GameEvent::comment("the same words after every game's first move"));
    pairs.insert(pairs.end(), {g, g});
  }
  WriterOptions o;
  o.moves = MoveCoding::kUniform;
  o.block_games = 40;
  o.block_bytes = std::size_t{1} << 30;
  o.threads = 2;
  const ArchiveInfo i = info_of(pack_games(pairs, "mheld_2mib.pga", o));
  ASSERT_EQ(i.blocks, 300u);
  EXPECT_GT(i.section(Section::Moves).raw * 256 / 300, std::uint64_t{2} << 20);
  EXPECT_EQ(i.section(Section::Texts).dictionary_blocks, 0u);
  EXPECT_EQ(i.section(Section::Moves).dictionary_blocks, 0u);
}

// The repeated codewords of a moves dictionary: each group that another group repeats, of at
// least 16 bytes, once, in the order in which each is first repeated.
TEST(RepeatedCodewords, EachRepeatedGroupOnceInTheOrderOfItsRepeat) {
  const std::string a(16, 'a'), b(20, 'b'), c(16, 'c'), d(15, 'd');
  // Block 0: a b d c; block 1: b a d a b.
  const std::string zero = a + b + d + c, one = b + a + d + a + b;
  const std::vector<std::string_view> moves = {zero, one};
  const std::vector<std::vector<std::uint32_t>> groups = {{16, 20, 15, 16}, {20, 16, 15, 16, 20}};
  EXPECT_EQ(container::repeated_codewords(moves, groups), b + a);
  // Groups of two games are whole groups: "ab" again is one codeword.
  const std::string two = a + b, again = a + b + c;
  EXPECT_EQ(container::repeated_codewords({two, again}, {{36}, {36, 16}}), a + b);
  EXPECT_EQ(container::repeated_codewords({two, again}, {{16, 20}, {16, 36}}), a);
}

}  // namespace
}  // namespace pgnarc
