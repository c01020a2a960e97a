// The position commands end to end: get --fen, find --position, tree (tests/cli/position_oracle.py
// checks the same against pgn-extract on corpus files).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::run_cli;

// Three games that share 1. e4 c5, with ratings (one game without), a set-up game whose
// en passant capture is pinned, and a game kept verbatim.
constexpr const char* kGames = R"([Event "a"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[WhiteElo "2401"]
[BlackElo "2300"]

1. e4 c5 2. e5 d5 3. exd6 Nf6 4. Nf3 1-0

[Event "b"]
[White "Bob"]
[Black "Ann"]
[Result "1/2-1/2"]
[WhiteElo "2300"]
[BlackElo "2400"]

1. e4 c5 2. Nf3 d6 1/2-1/2

[Event "c"]
[White "Cy"]
[Black "Ann"]
[Result "0-1"]

1. Nf3 c5 2. e4 Nc6 0-1

[Event "pin"]
[SetUp "1"]
[FEN "7k/2p5/8/KP5r/8/8/8/8 b - - 0 1"]
[Result "*"]

1... c5 2. Ka4 *

[Event "bad"]
[Result "*"]

1. e4 Ke3 *
)";

class CliPosition : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.path();
    std::ofstream(dir_ + "/games.pgn", std::ios::binary) << kGames;
    ASSERT_EQ(run_cli("pack -q '" + dir_ + "/games.pgn'").exit_code, 0);
    a_ = "'" + dir_ + "/games.pga'";
  }
  test::ScratchDir scratch_{"cli_position"};
  std::string dir_, a_;
};

TEST_F(CliPosition, FenAfterPlies) {
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen 0").out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
  // After a double step the standard FEN names the square; --ep legal only where a pawn can take.
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen 1").out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n");
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen 1 --ep legal").out,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen=4 --ep=legal").out,
            "rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3\n");
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen 7").out, "rnbqkb1r/pp2pppp/3P1n2/2p5/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 4\n");
  // A range gives one line per game.
  const auto r = run_cli("get " + a_ + " 1-3 --fen 2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3);
  // The pinned pawn: the square after the double step, but no legal capture.
  EXPECT_EQ(run_cli("get " + a_ + " 4 --fen 1").out, "7k/8/8/KPp4r/8/8/8/8 w - c6 0 2\n");
  EXPECT_EQ(run_cli("get " + a_ + " 4 --fen 1 --ep legal").out, "7k/8/8/KPp4r/8/8/8/8 w - - 0 2\n");
}

TEST_F(CliPosition, FenErrors) {
  auto r = run_cli("get " + a_ + " 2 --fen 5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("game 2: the main line has 4 plies, not 5"), std::string::npos) << r.err;
  r = run_cli("get " + a_ + " 5 --fen 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("game 5 is kept verbatim"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen 1 --list").exit_code, 1);
  EXPECT_EQ(run_cli("get " + a_ + " 1 --fen 1 --ep sometimes").exit_code, 1);
}

// The pieces of an SVG picture (its data-square/data-piece pairs) and of a FEN's board, each as
// 64 characters from a8 to h1, '.' for an empty square.
std::string svg_board(const std::string& svg) {
  std::string board(64, '.');
  for (std::size_t i = svg.find("data-square=\""); i != std::string::npos; i = svg.find("data-square=\"", i + 1)) {
    const std::string square = svg.substr(i + 13, 2);
    const std::size_t piece = svg.find("data-piece=\"", i);
    if (piece == std::string::npos || piece > svg.find('>', i)) continue;  // a marked square
    board[(7 - (square[1] - '1')) * 8 + (square[0] - 'a')] = svg[piece + 12];
  }
  return board;
}
std::string fen_board(const std::string& fen) {
  std::string board;
  for (const char c : fen.substr(0, fen.find(' ')))
    if (c >= '1' && c <= '8') board.append(static_cast<std::size_t>(c - '0'), '.');
    else if (c != '/') board += c;
  return board;
}

TEST_F(CliPosition, SvgIsTheFenPosition) {
  for (const std::string game : {"1", "2", "4"})
    for (const std::string k : {"0", "1", "2", "4"}) {
      if (game == "4" && k == "4") continue;  // (game 4 has two plies)
      const auto svg = run_cli("get " + a_ + " " + game + " --svg " + k);
      ASSERT_EQ(svg.exit_code, 0) << svg.err;
      const auto fen = run_cli("get " + a_ + " " + game + " --fen " + k);
      EXPECT_EQ(svg_board(svg.out), fen_board(fen.out)) << "game " << game << " ply " << k;
      EXPECT_EQ(svg.out.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
      // Flipped: the same pieces.
      EXPECT_EQ(svg_board(run_cli("get " + a_ + " " + game + " --svg " + k + " --flip").out), fen_board(fen.out));
    }
  // The last move is marked: 1. e4 from e2 to e4; none at the start.
  const std::string after_e4 = run_cli("get " + a_ + " 1 --svg 1").out;
  EXPECT_NE(after_e4.find("class=\"last-move\" data-square=\"e2\""), std::string::npos);
  EXPECT_NE(after_e4.find("class=\"last-move\" data-square=\"e4\""), std::string::npos);
  EXPECT_NE(after_e4.find("class=\"to-move\" data-color=\"b\""), std::string::npos);
  EXPECT_EQ(run_cli("get " + a_ + " 1 --svg 0").out.find("last-move"), std::string::npos);
  // The same bytes every run, and well-formed XML as Python's parser reads it.
  EXPECT_EQ(run_cli("get " + a_ + " 1 --svg 1").out, after_e4);
  std::ofstream(dir_ + "/board.svg", std::ios::binary) << after_e4;
  EXPECT_EQ(std::system(("/usr/bin/python3 -c 'import sys, xml.dom.minidom; "
                         "d = xml.dom.minidom.parse(sys.argv[1]); "
                         "sys.exit(d.documentElement.tagName != \"svg\")' '" + dir_ + "/board.svg'").c_str()),
            0);
}

TEST_F(CliPosition, SvgFlip) {
  const std::string plain = run_cli("get " + a_ + " 1 --svg 2").out;
  const std::string flipped = run_cli("get " + a_ + " 1 --svg 2 --flip").out;
  EXPECT_NE(plain, flipped);
  EXPECT_NE(flipped.find("data-flip=\"1\""), std::string::npos);
  // White's king: at the bottom (y 472 of 508), flipped at the top (y 52).
  EXPECT_NE(plain.find("data-square=\"e1\" data-piece=\"K\" x=\"290\" y=\"472\""), std::string::npos) << plain;
  EXPECT_NE(flipped.find("data-square=\"e1\" data-piece=\"K\" x=\"230\" y=\"52\""), std::string::npos) << flipped;
}

TEST_F(CliPosition, SvgErrors) {
  auto r = run_cli("get " + a_ + " 2 --svg 5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("game 2: the main line has 4 plies, not 5"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = run_cli("get " + a_ + " 5 --svg 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("game 5 is kept verbatim"), std::string::npos) << r.err;
  r = run_cli("get " + a_ + " 1-2 --svg 1");  // one picture, one game
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--svg draws one game"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("get " + a_ + " 1 2 --svg 1").exit_code, 1);
  EXPECT_EQ(run_cli("get " + a_ + " 1 --svg -1").exit_code, 1);
  EXPECT_EQ(run_cli("get " + a_ + " 1 --svg x").exit_code, 1);
  EXPECT_EQ(run_cli("get " + a_ + " 1 --svg 1 --fen 1").exit_code, 1);
  EXPECT_EQ(run_cli("get " + a_ + " 1 --svg 1 --list").exit_code, 1);
  r = run_cli("get " + a_ + " 1 --flip");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--flip"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("get " + a_ + " 9 --svg 0").exit_code, 2);  // no such game
}

TEST_F(CliPosition, FindPosition) {
  const std::string sicilian_nf3 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
  // Reached by game 2 directly and by game 3 by transposition; counters do not matter.
  auto r = run_cli("find " + a_ + " --position '" + sicilian_nf3 + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2\n3\n");
  EXPECT_NE(r.err.find("1 games kept verbatim in the blocks decoded were not searched"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("-q find " + a_ + " --position 'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 7 30' --count").out,
            "2\n");
  // With tag filters: both must match.
  EXPECT_EQ(run_cli("-q find " + a_ + " --position '" + sicilian_nf3 + "' --white Cy").out, "3\n");
  EXPECT_EQ(run_cli("-q find " + a_ + " --position '" + sicilian_nf3 + "' --white Ann --count").out, "0\n");
  // The pinned en passant capture is no capture: the square is ignored on both sides.
  EXPECT_EQ(run_cli("-q find " + a_ + " --position '7k/8/8/KPp4r/8/8/8/8 w - - 0 2'").out, "4\n");
  EXPECT_EQ(run_cli("-q find " + a_ + " --position '7k/8/8/KPp4r/8/8/8/8 w - c6 0 2'").out, "4\n");
  // A legal capture is part of the position: after 2...d5 only with d6.
  EXPECT_EQ(run_cli("-q find " + a_ + " --position 'rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3'").out, "1\n");
  EXPECT_EQ(run_cli("-q find " + a_ + " --position 'rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3' --count").out,
            "0\n");
  // Castling rights are part of it.
  EXPECT_EQ(run_cli("-q find " + a_ + " --position 'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b Kkq - 1 2' --count").out,
            "0\n");
  r = run_cli("find " + a_ + " --position 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--position: "), std::string::npos) << r.err;
}

TEST_F(CliPosition, TreeCountsMovesResultsAndRatings) {
  auto r = run_cli("-q tree " + a_ + " --moves '1. e4 c5' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["position"], "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  EXPECT_EQ(j["games"], 2);
  EXPECT_EQ(j["white"], 1);
  EXPECT_EQ(j["draws"], 1);
  ASSERT_EQ(j["moves"].size(), 2u);
  // One game each: canonical move order breaks the tie (g1f3 before e4e5).
  EXPECT_EQ(j["moves"][0]["san"], "Nf3");
  EXPECT_EQ(j["moves"][0]["uci"], "g1f3");
  EXPECT_EQ(j["moves"][0]["draws"], 1);
  EXPECT_EQ(j["moves"][0]["avg_elo"], 2300);
  EXPECT_EQ(j["moves"][1]["san"], "e5");
  EXPECT_EQ(j["moves"][1]["white"], 1);
  EXPECT_EQ(j["moves"][1]["avg_elo"], 2401);

  // From the position after 1. e4 c5 2. Nf3 (both orders), Black to move: Black's ratings.
  r = run_cli("-q tree " + a_ + " --position 'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2' --json");
  const auto k = nlohmann::json::parse(r.out);
  EXPECT_EQ(k["games"], 2);
  ASSERT_EQ(k["moves"].size(), 2u);
  // (A tie again: d7d6 before b8c6, the from-square d7 being below b8.)
  EXPECT_EQ(k["moves"][0]["san"], "d6");
  EXPECT_EQ(k["moves"][0]["avg_elo"], 2400);
  EXPECT_EQ(k["moves"][1]["san"], "Nc6");
  EXPECT_EQ(k["moves"][1]["avg_elo"], nullptr) << "game 3 gives no ratings";

  // The start: three games, --limit keeps the most played move.
  r = run_cli("-q tree " + a_ + " --json --limit 1");
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_EQ(s["games"], 3);
  ASSERT_EQ(s["moves"].size(), 1u);
  EXPECT_EQ(s["moves"][0]["san"], "e4");
  EXPECT_EQ(s["moves"][0]["games"], 2);
  EXPECT_EQ(s["moves"][0]["avg_elo"], 2351) << "(2401 + 2300) / 2, rounded half up";

  // The text form names the position and each move.
  r = run_cli("-q tree " + a_ + " --moves 'e4'");
  EXPECT_NE(r.out.find("position: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("c5 "), std::string::npos) << r.out;

  r = run_cli("tree " + a_ + " --moves 'e4 e4'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--moves: move 2 'e4'"), std::string::npos) << r.err;
}

// An archive packed with position filters answers every search as one without: the filters only
// let blocks be skipped (blocks of 4 games here, so that some are).
TEST(CliPositionFilter, SameAnswersWithAndWithoutFilters) {
  test::ScratchDir scratch("cli_position_filter");
  const std::string dir = scratch.path();
  const std::string pgn = test::corpus_path("pgn/twic_events.pgn");
  ASSERT_EQ(run_cli("pack -q --block-games 4 '" + pgn + "' -o '" + dir + "/plain.pga'").exit_code, 0);
  ASSERT_EQ(run_cli("pack -q --block-games 4 --position-filter '" + pgn + "' -o '" + dir + "/filtered.pga'").exit_code, 0);
  const auto size = [&](const char* name) {
    return nlohmann::json::parse(run_cli("info --json '" + dir + "/" + name + "'").out)["file_bytes"].get<std::uint64_t>();
  };
  EXPECT_GT(size("filtered.pga"), size("plain.pga"));
  const auto filters = [&](const char* name) {
    const auto j = nlohmann::json::parse(run_cli("info --json '" + dir + "/" + name + "'").out);
    return std::pair{j["position_filter_blocks"].get<std::uint64_t>(), j["blocks"].get<std::uint64_t>()};
  };
  EXPECT_EQ(filters("plain.pga").first, 0u);
  EXPECT_EQ(filters("filtered.pga").first, filters("filtered.pga").second) << "every block of games has one";
  EXPECT_NE(run_cli("info '" + dir + "/filtered.pga'").out.find("positions: a position filter in "), std::string::npos);
  EXPECT_EQ(run_cli("verify '" + dir + "/filtered.pga'").exit_code, 0);
  // Positions of game 1 at several plies (the start, the opening, the middle game, the end), and
  // one no game reaches.
  std::vector<std::string> targets;
  for (const char* k : {"0", "6", "20", "40"}) {
    const auto r = run_cli("get '" + dir + "/plain.pga' 1 --fen " + k);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    targets.push_back(r.out.substr(0, r.out.size() - 1));
  }
  targets.push_back("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
  for (const std::string& t : targets) {
    const auto plain = run_cli("-q find '" + dir + "/plain.pga' --position '" + t + "'");
    const auto filtered = run_cli("-q find '" + dir + "/filtered.pga' --position '" + t + "'");
    EXPECT_EQ(plain.exit_code, 0);
    EXPECT_EQ(filtered.out, plain.out) << t;
    EXPECT_EQ(run_cli("-q tree '" + dir + "/filtered.pga' --position '" + t + "' --json").out,
              run_cli("-q tree '" + dir + "/plain.pga' --position '" + t + "' --json").out)
        << t;
  }
  // A middle-game position (past the opening: progress 10 or more): most blocks skipped.
  const auto r = run_cli("find '" + dir + "/filtered.pga' --position '" + targets[3] + "' --count");
  EXPECT_EQ(r.out, "1\n") << "the game's own position, reached by it alone";
  unsigned skipped = 0, blocks = 0;
  ASSERT_EQ(std::sscanf(r.err.c_str(), "pgnarc: %u of %u blocks skipped", &skipped, &blocks), 2) << r.err;
  EXPECT_GE(skipped, blocks * 3 / 4) << r.err;
  const auto plain = run_cli("find '" + dir + "/plain.pga' --position '" + targets[3] + "' --count");
  EXPECT_EQ(plain.err.find("skipped"), std::string::npos);
  // The hint to pack with filters only after a search that took over a second: not here.
  EXPECT_EQ(plain.err.find("--position-filter"), std::string::npos) << plain.err;
}

}  // namespace
}  // namespace pgnarc
