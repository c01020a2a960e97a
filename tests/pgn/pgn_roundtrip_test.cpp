// The canonical writer: exact output, and parse -> write -> parse giving the same games on real
// files and on generated games.
#include <filesystem>

#include "support/pgn_util.h"

namespace pgnarc {
namespace {

using test::read_all;

std::string rewrite(const std::string& text) { return test::write_all(read_all(text)); }

TEST(PgnWrite, CanonicalLayout) {
  EXPECT_EQ(rewrite("[White \"A \\\\ \\\"B\\\"\"]\n[Black \"C\"]\n\n1.e4 e5 2.Nf3 {good} Nc6!? (2...d6 3.d4) 3.Bb5 a6 1-0"),
            "[White \"A \\\\ \\\"B\\\"\"]\n[Black \"C\"]\n\n"
            "1. e4 e5 2. Nf3 {good} 2... Nc6 $5 (2... d6 3. d4) 3. Bb5 a6 1-0\n\n");
  // Canonical SAN, checks and mates, promotions, castling.
  EXPECT_EQ(rewrite("1. f3 e5 2. g4 Qh4 0-1"), "1. f3 e5 2. g4 Qh4# 0-1\n\n");
  EXPECT_EQ(rewrite("[FEN \"4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n\n1. b8Q+ Kd7 2. 0-0-0+ *"),
            "[FEN \"4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n\n1. b8=Q+ Kd7 2. O-O-O+ *\n\n");
  // Line comments end their line; escape lines stand alone in column 1.
  EXPECT_EQ(rewrite("1. e4 ; note\n e5\n%escape\n2. Nf3 *"), "1. e4 ; note\n1... e5\n%escape\n2. Nf3 *\n\n");
  // A variation that opens with an escape line ends its "(" line (written "(%escape" once, which
  // reads back as a move).
  EXPECT_EQ(rewrite("1. e4 (\n%escape\n1. d4) 1... e5 *"), "1. e4 (\n%escape\n1. d4) 1... e5 *\n\n");
  EXPECT_EQ(rewrite("1. e4 (; note\n1. d4) *"), "1. e4 (; note\n1. d4) *\n\n");
  // Null moves, prelude and epilogue.
  EXPECT_EQ(rewrite("{before}\n[Event \"x\"]\n\n1. e4 -- 2. d4 * {after}"),
            "{before}\n[Event \"x\"]\n\n1. e4 -- 2. d4 * {after}\n\n");
  // A game with tags only, and one with moves only.
  EXPECT_EQ(rewrite("[Event \"x\"]\n\n[Event \"y\"]\n\n1. e4 *"), "[Event \"x\"]\n\n[Event \"y\"]\n\n1. e4 *\n\n");
  EXPECT_EQ(rewrite("1. e4 e5"), "1. e4 e5\n\n");
}

TEST(PgnWrite, WrapsAtEightyColumns) {
  std::string moves;
  for (int i = 0; i < 20; ++i) moves += "Nf3 Nf6 Ng1 Ng8 ";
  const std::string out = rewrite(moves + "*");
  std::size_t line_start = 0;
  int lines = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != '\n') continue;
    EXPECT_LE(i - line_start, 80u) << out.substr(line_start, i - line_start);
    line_start = i + 1;
    ++lines;
  }
  EXPECT_GT(lines, 4);
  EXPECT_EQ(out.substr(0, 40), "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 ");
}

// A game that cannot be written (a move that is not legal where it stands, a variation left
// open) fails and leaves the output as it was, even after its tags were written.
TEST(PgnWrite, AGameThatCannotBeWrittenLeavesTheOutputAsItWas) {
  Game g;
  g.tags = {{"Event", "x"}};
  g.events.push_back(GameEvent::make_move(Move(12, 28)));  // e2e4
  g.events.push_back(GameEvent::make_move(Move(12, 28)));  // e2e4 again, for Black: illegal
  std::string out = "before";
  auto st = write_pgn(g, out);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code(), ErrorCode::InvalidInput);
  EXPECT_EQ(out, "before");
  g.events.pop_back();
  g.events.insert(g.events.begin() + 1, GameEvent::begin_variation());
  EXPECT_FALSE(write_pgn(g, out).ok());
  EXPECT_EQ(out, "before");
}

TEST(PgnWrite, RawGamesAreWrittenByteForByte) {
  std::string out;
  write_raw_game("[Event \"x\"]\r\n\r\n1. N@f3 *", out);
  EXPECT_EQ(out, "[Event \"x\"]\r\n\r\n1. N@f3 *\n\n");
}

// parse -> write -> parse: the same games (and for unreadable ones, the same bytes and error);
// write -> parse -> write: the same bytes.
void check_round_trip(const std::string& text, const std::string& what) {
  const auto first = read_all(text);
  const std::string written = test::write_all(first);
  const auto second = read_all(written);
  ASSERT_EQ(second.size(), first.size()) << what;
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(second[i].ok, first[i].ok) << what << " game " << i + 1;
    if (first[i].ok) EXPECT_EQ(second[i].game, first[i].game) << what << " game " << i + 1;
    else EXPECT_EQ(second[i].raw, first[i].raw) << what << " game " << i + 1;
  }
  EXPECT_EQ(test::write_all(second), written) << what;
  // Each game written on its own reads back the same too (then it ends the input: what it ends
  // with, such as a ';' comment with spaces after its text, is not followed by another game).
  for (std::size_t i = 0; i < first.size(); ++i) {
    if (!first[i].ok) continue;
    const auto alone = read_all(test::write_all({first[i]}));
    ASSERT_EQ(alone.size(), 1u) << what << " game " << i + 1;
    EXPECT_TRUE(alone[0].ok && alone[0].game == first[i].game) << what << " game " << i + 1 << " written alone";
  }
}

TEST(PgnRoundTrip, CorpusSamples) {
  int readable = 0;
  for (const std::string& f : test::pgn_corpus_files()) {
    const std::string text = test::read_file(f);
    ASSERT_FALSE(text.empty()) << f;
    check_round_trip(text, f);
    for (const auto& g : read_all(text)) readable += g.ok;
  }
  EXPECT_GT(readable, 450);
}

TEST(PgnRoundTrip, EdgeCaseFiles) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::corpus_path("pgn/edge"))) {
    check_round_trip(test::read_file(entry.path().string()), entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 100);
}

// Random games with variations, comments, NAGs and null moves, from several start positions.
Game random_game(std::mt19937_64& rng, const std::string& fen) {
  Game g;
  if (!fen.empty()) g.tags.push_back({"FEN", fen});
  g.tags.push_back({"Event", "random " + std::to_string(rng() % 1000)});
  Position pos = fen.empty() ? Position() : *Position::from_fen(fen);
  const std::vector<std::string> texts = {"plain", "with [%clk 0:01:02]", "multi\nline", "", " spaces "};
  std::function<void(Position, int, int)> line = [&](Position p, int plies, int depth) {
    Position before = p;
    bool have_move = false;
    for (int i = 0; i < plies; ++i) {
      const MoveList moves = p.legal_moves();
      if (moves.size == 0) break;
      const int r = static_cast<int>(rng() % 20);
      if (r == 0 && !p.in_check()) {
        g.events.push_back(GameEvent::null_move());
        before = p;
        p.play_null();
        have_move = true;
        continue;
      }
      const Move m = moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size))];
      g.events.push_back(GameEvent::make_move(m));
      before = p;
      p.play(m);
      have_move = true;
      if (r == 1) g.events.push_back(GameEvent::make_nag(static_cast<std::uint8_t>(rng() % 256)));
      if (r == 2) g.events.push_back(GameEvent::comment(texts[rng() % texts.size()]));
      if (r == 3) g.events.push_back(GameEvent::comment("line comment", CommentKind::kLine));
      if (r == 5) g.events.push_back(GameEvent::comment("escape line", CommentKind::kEscape));
      if (r == 4 && have_move && depth < 3) {
        g.events.push_back(GameEvent::begin_variation());
        if (rng() % 3 == 0) g.events.push_back(GameEvent::comment("variation start"));
        else if (rng() % 4 == 0) g.events.push_back(GameEvent::comment("escape at a variation's start", CommentKind::kEscape));
        line(before, static_cast<int>(rng() % 6), depth + 1);
        g.events.push_back(GameEvent::end_variation());
      }
    }
  };
  if (rng() % 4 == 0) g.events.push_back(GameEvent::comment("game comment"));
  line(pos, static_cast<int>(rng() % 120), 0);
  g.result = static_cast<GameResult>(rng() % 5);
  return g;
}

TEST(PgnRoundTrip, GeneratedGames) {
  std::mt19937_64 rng(42);
  const std::vector<std::string> fens = {"", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                         "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                                         "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 40"};
  int plies = 0;
  for (int i = 0; i < 400; ++i) {
    const Game g = random_game(rng, fens[i % fens.size()]);
    std::string text;
    ASSERT_TRUE(write_pgn(g, text).ok());
    const auto back = read_all(text);
    ASSERT_EQ(back.size(), 1u) << text;
    ASSERT_TRUE(back[0].ok) << back[0].error << "\n" << text;
    EXPECT_EQ(back[0].game, g) << text;
    plies += g.mainline_plies();
  }
  EXPECT_GT(plies, 10000);
}

}  // namespace
}  // namespace pgnarc
