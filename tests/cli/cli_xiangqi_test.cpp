// End-to-end: Xiangqi games (formats 1.7 to 1.10) packed in each of their notations and encodings, unpacked with every
// move written as it came in, found by their players, read as FEN at any ply, and kept verbatim
// where a move cannot be coded.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::move_words;
using test::run_cli;

class CliXiangqi : public ::testing::Test {
 protected:
  std::string p(const std::string& name) const { return "'" + scratch_.path() + "/" + name + "'"; }
  static std::string corpus(const std::string& name) { return "'" + test::corpus_path("xiangqi/" + name) + "'"; }
  test::ScratchDir scratch_{"cli_xiangqi"};
};

TEST_F(CliXiangqi, TheCorpusInEachNotationComesBackMoveForMove) {
  for (const char* name : {"wukong_iccs.pgn", "wukong_wxf_fullwidth.pgn", "wukong_chinese.pgn"}) {
    SCOPED_TRACE(name);
    auto r = run_cli("pack " + corpus(name) + " -o " + p("x.pga") + " --force");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE((r.out + r.err).find("15 games (0 kept verbatim), 1378 plies coded"), std::string::npos) << r.out << r.err;
    // (The Xiangqi model and its opening book, 1.15.)
    const auto info = nlohmann::json::parse(run_cli("info --json " + p("x.pga")).out);
    EXPECT_EQ(info["read_version"], "1.15");
    const std::string once = run_cli("unpack " + p("x.pga")).out;
    // Without the book (--xiangqi model), as readers of 1.14 read them (each game's own event an
    // entry of the Event table): the same games, in a larger archive.
    ASSERT_EQ(run_cli("pack " + corpus(name) + " -o " + p("m.pga") + " --force --xiangqi model").exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("m.pga")).out)["read_version"], "1.14");
    EXPECT_EQ(run_cli("unpack " + p("m.pga")).out, once);
    EXPECT_LT(test::read_file(scratch_.path() + "/x.pga").size() + 30, test::read_file(scratch_.path() + "/m.pga").size());
    // Appended to without --xiangqi, it takes no book (its events coded again as tags, as an append
    // does: readable by 1.8); with --xiangqi book, its new block takes the book.
    ASSERT_EQ(run_cli("append " + p("m.pga") + " " + corpus(name)).exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("m.pga")).out)["read_version"], "1.8");
    ASSERT_EQ(run_cli("append --xiangqi book " + p("m.pga") + " " + corpus(name)).exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("m.pga")).out)["read_version"], "1.15");
    EXPECT_EQ(run_cli("unpack " + p("m.pga")).out, once + once + once);
    // Coded uniformly, the events as tags, as readers of 1.7 read them: the same games, in a
    // larger archive.
    ASSERT_EQ(run_cli("pack " + corpus(name) + " -o " + p("u.pga") + " --force --xiangqi uniform --tags tables").exit_code,
              0);
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("u.pga")).out)["read_version"], "1.7");
    EXPECT_EQ(run_cli("unpack " + p("u.pga")).out, once);
    EXPECT_LT(test::read_file(scratch_.path() + "/x.pga").size() + 150, test::read_file(scratch_.path() + "/u.pga").size());
    EXPECT_EQ(move_words(once), move_words(test::read_file(test::corpus_path(std::string("xiangqi/") + name))));
    // The canonical text packs to the same archive, and comes back as it is.
    std::ofstream(scratch_.path() + "/once.pgn", std::ios::binary) << once;
    ASSERT_EQ(run_cli("pack " + p("once.pgn") + " -o " + p("y.pga") + " --force").exit_code, 0);
    EXPECT_EQ(run_cli("unpack " + p("y.pga")).out, once);
    EXPECT_EQ(test::read_file(scratch_.path() + "/x.pga"), test::read_file(scratch_.path() + "/y.pga"));
    EXPECT_EQ(run_cli("verify -q " + p("x.pga")).exit_code, 0);
    // Searched by the players and read as FEN along the main line.
    EXPECT_EQ(run_cli("find --count --red liu " + p("x.pga")).out, "3\n");
    EXPECT_EQ(run_cli("find --count --red liu --black 'LIU DaHua' --exact " + p("x.pga")).out, "0\n");
    EXPECT_EQ(run_cli("find --numbers --black 'KE YongQing' " + p("x.pga")).out, "1\n");
    // A player is Red too: LIU DaHua is Black in game 2, Red in games 3 and 8.
    EXPECT_EQ(run_cli("find --numbers --player 'liu dahua' " + p("x.pga")).out, "2\n3\n8\n");
    EXPECT_EQ(run_cli("find --numbers --exact --player 'LIU DaHua' --black 'LIU DaHua' " + p("x.pga")).out, "2\n");
    // Listed with Red in White's column.
    EXPECT_EQ(run_cli("get --list " + p("x.pga") + " 1").out,
              "1\tZHAO GuoRong\tKE YongQing\t\t\tZhongli Cup TV fast game Champion 1997\n");
    EXPECT_EQ(run_cli("get --fen 0 " + p("x.pga") + " 1").out,
              "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n");
    EXPECT_EQ(run_cli("get --fen 2 " + p("x.pga") + " 1").out,
              "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n");
    // Found by a position of their main lines (its clocks aside), with the other filters.
    const std::string after_two = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1";
    EXPECT_EQ(run_cli("find --count --position '" + after_two + "' " + p("x.pga")).out, "7\n");
    EXPECT_EQ(run_cli("find --numbers --red liu --position '" + after_two + "' " + p("x.pga")).out, "3\n8\n");
    EXPECT_EQ(run_cli("find --count --position '" + after_two.substr(0, after_two.find(' ')) + " b' " + p("x.pga")).out,
              "0\n");
    r = run_cli("find --position 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNZ w' " + p("x.pga"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--position: bad xiangqi FEN"), std::string::npos) << r.err;
    // Its tree: the 7 games' next moves in WXF and ICCS, Red's wins as white's.
    r = run_cli("tree --json --position '" + after_two + "' " + p("x.pga"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("{\"position\":\"" + after_two + "\",\"games\":7,"), 0u) << r.out;
    EXPECT_NE(r.out.find("\"moves\":[{\"san\":\"H2+3\",\"uci\":\"h0g2\",\"games\":7,"), std::string::npos) << r.out;
    r = run_cli("tree --position '" + after_two + "' " + p("x.pga"));
    EXPECT_NE(r.out.find("games: 7 (red wins"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("iccs"), std::string::npos) << r.out;
    // The same position reached by --moves in ICCS from the start; a move that is not legal there
    // is named.
    const std::string start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    r = run_cli("tree --json --moves '1. h2e2 h9g7' --position '" + start + "' " + p("x.pga"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"games\":7,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"moves\":[{\"san\":\"H2+3\",\"uci\":\"h0g2\",\"games\":7,"), std::string::npos) << r.out;
    r = run_cli("tree --moves 'h2e2 h9h7 h0g2' --position '" + start + "' " + p("x.pga"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--moves: move 2 'h9h7'"), std::string::npos) << r.err;
    // Shared: the token opens to the game's main line in ICCS, whose token is the same.
    r = run_cli("share " + p("x.pga") + " 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string token = r.out.substr(0, r.out.find('\n'));
    r = run_cli("share --open " + token);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("[Format \"ICCS\"]\n\n1. h2e2 "), std::string::npos) << r.out;
    std::ofstream(scratch_.path() + "/opened.pgn", std::ios::binary) << r.out;
    ASSERT_EQ(run_cli("pack " + p("opened.pgn") + " -o " + p("opened.pga") + " --force").exit_code, 0);
    EXPECT_EQ(run_cli("share " + p("opened.pga") + " 1").out, token + "\n");
    EXPECT_EQ(run_cli("get --fen 127 " + p("opened.pga") + " 1").out, run_cli("get --fen 127 " + p("x.pga") + " 1").out);
    r = run_cli("get --fen 999 " + p("x.pga") + " 1");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("game 1: the main line has 127 plies, not 999"), std::string::npos) << r.err;
  }
}

// get --svg draws a Xiangqi board: the position get --fen gives, every piece by its letter and
// square, the last move's points, Black's side below with --flip.
TEST_F(CliXiangqi, PicturesOfTheBoard) {
  ASSERT_EQ(run_cli("pack " + corpus("wukong_chinese.pgn") + " -o " + p("x.pga") + " --force").exit_code, 0);
  const auto count = [](const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  auto r = run_cli("get --svg 0 " + p("x.pga") + " 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_NE(r.out.find("data-fen=\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\""), std::string::npos);
  EXPECT_EQ(count(r.out, "class=\"piece\""), 32u);
  EXPECT_EQ(count(r.out, "class=\"last-move\""), 0u);
  EXPECT_NE(r.out.find("data-square=\"e0\" data-piece=\"K\""), std::string::npos);
  EXPECT_NE(r.out.find("data-square=\"e9\" data-piece=\"k\""), std::string::npos);
  // After 炮二平五 马８进７: h9g7 marked, Red to move.
  r = run_cli("get --svg 2 " + p("x.pga") + " 1");
  const std::string fen = run_cli("get --fen 2 " + p("x.pga") + " 1").out;
  EXPECT_NE(r.out.find("data-fen=\"" + fen.substr(0, fen.size() - 1) + "\""), std::string::npos);
  EXPECT_NE(r.out.find("class=\"last-move\" data-square=\"h9\""), std::string::npos);
  EXPECT_NE(r.out.find("class=\"last-move\" data-square=\"g7\""), std::string::npos);
  EXPECT_NE(r.out.find("data-square=\"g7\" data-piece=\"n\""), std::string::npos);
  EXPECT_NE(r.out.find("data-color=\"w\""), std::string::npos);
  // Flipped: Red's general drawn at the top (its y the smallest of the kings').
  const std::string flipped = run_cli("get --svg 2 --flip " + p("x.pga") + " 1").out;
  EXPECT_NE(flipped.find("data-flip=\"1\""), std::string::npos);
  const auto y_of = [](const std::string& s, const std::string& piece) {
    const std::size_t at = s.find("cy=\"", s.find("data-piece=\"" + piece + "\""));
    return std::stoi(s.substr(at + 4));
  };
  EXPECT_GT(y_of(r.out, "K"), y_of(r.out, "k"));
  EXPECT_LT(y_of(flipped, "K"), y_of(flipped, "k"));
  r = run_cli("get --svg 500 " + p("x.pga") + " 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("plies"), std::string::npos) << r.err;
}

// Fairy-Stockfish's games against itself (tools/dev/xiangqi-selfplay): positions no master game
// reaches, a game of 300 plies, mates of both sides; every move coded and given back.
TEST_F(CliXiangqi, EngineGamesComeBackMoveForMove) {
  auto r = run_cli("pack " + corpus("selfplay_fairy_stockfish.pgn") + " -o " + p("s.pga") + " --force");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("10 games (0 kept verbatim), 1401 plies coded"), std::string::npos) << r.out << r.err;
  const std::string once = run_cli("unpack " + p("s.pga")).out;
  EXPECT_EQ(move_words(once), move_words(test::read_file(test::corpus_path("xiangqi/selfplay_fairy_stockfish.pgn"))));
  EXPECT_EQ(run_cli("find --count --result 0-1 " + p("s.pga")).out, "6\n");
  EXPECT_EQ(run_cli("verify -q " + p("s.pga")).exit_code, 0);
}

// Real files in GB18030 (xqbase.com's exports) and Big5 (the Chinese Chess Practical Dataset, which
// also names tandem pieces by their file): coded (format 1.10), every move written back in its
// bytes; kept verbatim by --xiangqi uniform and by an append to an archive of 1.8.
TEST_F(CliXiangqi, GamesInGb18030AndBig5ComeBackInTheirBytes) {
  struct File {
    const char* name;
    const char* packed;  // what pack says
    std::size_t verbatim;
    const char* encoding;
    const char* red;  // the first game's Red
    const char* read_version;
  };
  // A name matches from a character on: Big5's 二 (A4 47) is no part of 土 (A4 67), whose second
  // byte is 'g', nor of 丁 (A4 42) and 二 (A4 47), ASCII case aside.
  std::ofstream(scratch_.path() + "/names.pgn", std::ios::binary)
      << "[Game \"Chinese Chess\"]\n[Red \"\xA4\x67\"]\n[Black \"\xA4\x42\xA4\x47\"]\n\n1. h2e2 *\n";
  ASSERT_EQ(run_cli("pack " + p("names.pgn") + " -o " + p("names.pga") + " --force").exit_code, 0);
  EXPECT_EQ(run_cli("find --count --red 二 --names-in big5 " + p("names.pga")).out, "0\n");
  EXPECT_EQ(run_cli("find --count --red 土 --names-in big5 " + p("names.pga")).out, "1\n");
  EXPECT_EQ(run_cli("find --count --black 二 --names-in big5 " + p("names.pga")).out, "1\n");
  EXPECT_EQ(run_cli("find --count --black 丁二 --names-in big5 " + p("names.pga")).out, "1\n");
  EXPECT_EQ(run_cli("find --count --black " + std::string("\xE4\xB8\x81") + "g --names-in big5 " + p("names.pga")).out,
            "0\n");  // 丁 and the letter g: a character's second byte is no letter
  // (Format 1.10 and, the Big5 file, 1.11: one game's Event has quotes left unescaped, and Big5's
  // 許 ends in the byte of `\`, values written back as they are; each game's own event an entry
  // of the Event table, 1.14, the unescaped ones ranked so; the opening book's blocks, 1.15.)
  for (const File& f : {File{"xqbase_gb18030.pgn", "12 games (0 kept verbatim), 998 plies coded", 0, "gb18030", "许银川", "1.15"},
                        File{"ccpd_big5.pgn", "12 games (0 kept verbatim), 1208 plies coded", 0, "big5", "柳大華", "1.15"}}) {
    SCOPED_TRACE(f.name);
    const std::string input = test::read_file(test::corpus_path(std::string("xiangqi/") + f.name));
    auto r = run_cli("pack " + corpus(f.name) + " -o " + p("x.pga") + " --force");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE((r.out + r.err).find(f.packed), std::string::npos) << r.out << r.err;
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("x.pga")).out)["read_version"], f.read_version);
    const std::string once = run_cli("unpack " + p("x.pga")).out;
    EXPECT_EQ(move_words(once), move_words(input));
    std::ofstream(scratch_.path() + "/once.pgn", std::ios::binary) << once;
    ASSERT_EQ(run_cli("pack " + p("once.pgn") + " -o " + p("y.pga") + " --force").exit_code, 0);
    EXPECT_EQ(test::read_file(scratch_.path() + "/x.pga"), test::read_file(scratch_.path() + "/y.pga"));
    EXPECT_EQ(run_cli("verify -q " + p("x.pga")).exit_code, 0);
    // Found by Red's name typed in UTF-8, looked for in the file's encoding.
    EXPECT_EQ(run_cli("find --numbers --exact --red " + std::string(f.red) + " --names-in " + f.encoding + " " + p("x.pga")).out,
              "1\n");
    EXPECT_EQ(run_cli("find --count --red " + std::string(f.red) + " " + p("x.pga")).out, "0\n");
    // As readers of 1.7 read them: every game verbatim, as it came.
    r = run_cli("pack " + corpus(f.name) + " -o " + p("u.pga") + " --force --xiangqi uniform");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE((r.out + r.err).find("12 games (12 kept verbatim)"), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.err.find("format 1.10"), std::string::npos) << r.err;
    EXPECT_EQ(move_words(run_cli("unpack " + p("u.pga")).out), move_words(input));
    EXPECT_LT(test::read_file(scratch_.path() + "/x.pga").size() * 2, test::read_file(scratch_.path() + "/u.pga").size());
    // Appended to an archive of 1.8, verbatim too; appended to one of 1.10, coded.
    ASSERT_EQ(run_cli("pack " + corpus("wukong_chinese.pgn") + " -o " + p("a.pga") + " --force --tags tables --xiangqi model")
                  .exit_code,
              0);
    r = run_cli("append " + p("a.pga") + " " + corpus(f.name));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("a.pga")).out)["read_version"], "1.8");
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("a.pga")).out)["verbatim_games"], 12);
    ASSERT_EQ(run_cli("append " + p("x.pga") + " " + corpus(f.name)).exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("x.pga")).out)["verbatim_games"], 2 * f.verbatim);
  }
}

// Xiangqi set-up positions: their FEN column coded by the Xiangqi position code (format 1.9)
// under the default --tags tables, in fewer bytes than as text; --tags coded and an
// append to an archive of 1.8 keep them as text, readable by 1.8.
TEST_F(CliXiangqi, SetUpPositionsTakeTheXiangqiPositionCode) {
  std::string pgn, later;
  const std::string moves = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 c6c5 b0c2 b7b5 b2b6 h7h3 g3g4 g6g5";
  for (int k = 0; k < 28; ++k) {  // the positions along a master game's opening, each a game
    std::string line;
    for (int w = 0, at = 0; w < k % 14 + 1; ++w, at += 5) line += moves.substr(at, 4) + " ";
    std::ofstream(scratch_.path() + "/line.pgn", std::ios::binary)
        << "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. " << line << "*\n";
    ASSERT_EQ(run_cli("pack " + p("line.pgn") + " -o " + p("line.pga") + " --force").exit_code, 0);
    const std::string fen = run_cli("get --fen " + std::to_string(k % 14 + 1) + " " + p("line.pga") + " 1").out;
    (k < 20 ? pgn : later) += "[Game \"Chinese Chess\"]\n[FEN \"" + fen.substr(0, fen.size() - 1) + "\"]\n\n*\n\n";
  }
  std::ofstream(scratch_.path() + "/p.pgn", std::ios::binary) << pgn;
  std::ofstream(scratch_.path() + "/later.pgn", std::ios::binary) << later;
  // (--xiangqi model: the positions are the book's, whose blocks would be 1.15's.)
  ASSERT_EQ(run_cli("pack " + p("p.pgn") + " -o " + p("p.pga") + " --force --xiangqi model").exit_code, 0);
  ASSERT_EQ(run_cli("pack " + p("p.pgn") + " -o " + p("t.pga") + " --force --tags coded --xiangqi model").exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("p.pga")).out)["read_version"], "1.9");
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("t.pga")).out)["read_version"], "1.8");
  EXPECT_EQ(run_cli("unpack " + p("p.pga")).out, pgn);
  EXPECT_EQ(run_cli("unpack " + p("t.pga")).out, pgn);
  EXPECT_LT(test::read_file(scratch_.path() + "/p.pga").size(), test::read_file(scratch_.path() + "/t.pga").size());
  // An append to the archive of 1.8 leaves it readable by 1.8; to the one of 1.9, codes them.
  ASSERT_EQ(run_cli("append " + p("t.pga") + " " + p("later.pgn")).exit_code, 0);
  ASSERT_EQ(run_cli("append " + p("p.pga") + " " + p("later.pgn")).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("t.pga")).out)["read_version"], "1.8");
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("p.pga")).out)["read_version"], "1.9");
  EXPECT_EQ(run_cli("unpack " + p("t.pga")).out, pgn + later);
  EXPECT_EQ(run_cli("unpack " + p("p.pga")).out, pgn + later);
  EXPECT_EQ(run_cli("verify -q " + p("p.pga")).exit_code, 0);
}

TEST_F(CliXiangqi, BesideChessGamesAndKeptVerbatimWhereAMoveCannotBeCoded) {
  const std::string chess = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 1-0\n\n";
  const std::string xiangqi = "[Game \"Chinese Chess\"]\n[Red \"r\"]\n[Black \"b\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n";
  // An illegal move, and a move written unlike the game's first.
  const std::string illegal = "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h2h9 *";
  const std::string mixed = "[Game \"Chinese Chess\"]\n\n1. h2e2 H8+7 *";
  std::ofstream(scratch_.path() + "/mixed.pgn", std::ios::binary) << chess << xiangqi << illegal << "\n\n" << mixed << "\n";
  auto r = run_cli("pack " + p("mixed.pgn") + " -o " + p("m.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("4 games (2 kept verbatim)"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("mixed.pgn:14:17: game 3: no legal move matches ICCS move \"h2h9\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("game 4: move \"H8+7\" is in WXF notation, where the game's moves are in ICCS"), std::string::npos) << r.err;
  r = run_cli("unpack " + p("m.pga"));
  EXPECT_EQ(r.out, chess + xiangqi + illegal + "\n\n" + mixed + "\n\n");
  // (The Xiangqi game's opening in the Xiangqi model's book: 1.15.)
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("m.pga")).out)["read_version"], "1.15");
  // Found by their players, Red among them, beside the chess game's White and Black.
  EXPECT_EQ(run_cli("find --numbers --exact --player r " + p("m.pga")).out, "2\n");
  EXPECT_EQ(run_cli("find --numbers --exact --player b " + p("m.pga")).out, "1\n2\n");
  // In an archive below 1.7, which codes no Xiangqi game, a player is White or Black: a Xiangqi
  // game kept verbatim there is found by Red with --red, whichever games share its block.
  std::ofstream(scratch_.path() + "/old.pgn", std::ios::binary)
      << chess << "[Game \"Chinese Chess\"]\n[Red \"ra\"]\n\n1. h2e2 h9g7 2. h2h9 *\n";
  ASSERT_EQ(run_cli("pack --moves uniform " + p("old.pgn") + " -o " + p("o.pga")).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("o.pga")).out)["read_version"], "1.0");
  EXPECT_EQ(run_cli("find --numbers --red ra " + p("o.pga")).out, "2\n");
  EXPECT_EQ(run_cli("find --numbers --player a " + p("o.pga")).out, "1\n");  // White "a"; not Red "ra"
  EXPECT_EQ(run_cli("find --count --player ra " + p("o.pga")).out, "0\n");
  // Under the uniform coder, or appended to an archive that readers of 1.7 read, Xiangqi games
  // are coded uniformly (codec 9).
  ASSERT_EQ(run_cli("pack --moves uniform " + p("mixed.pgn") + " -o " + p("u.pga")).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("u.pga")).out)["read_version"], "1.7");
  // Its block is decoded whole for a search (groups of games: a small uniform block): a chess
  // position is looked for in the chess games, the Xiangqi games passed over.
  auto found = run_cli("find --numbers --position 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' " +
                       p("u.pga"));
  EXPECT_EQ(found.exit_code, 0) << found.err;
  EXPECT_EQ(found.out, "1\n");
  found = run_cli("tree --json " + p("u.pga"));
  EXPECT_EQ(found.exit_code, 0) << found.err;
  EXPECT_NE(found.out.find("\"games\":1,"), std::string::npos) << found.out;
  ASSERT_EQ(run_cli("pack --xiangqi uniform " + p("mixed.pgn") + " -o " + p("a.pga")).exit_code, 0);
  ASSERT_EQ(run_cli("append " + p("a.pga") + " " + p("mixed.pgn")).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("a.pga")).out)["read_version"], "1.7");
  EXPECT_EQ(run_cli("unpack " + p("a.pga")).out, r.out + r.out);
  // Without a Xiangqi game the archive stays readable by earlier readers.
  std::ofstream(scratch_.path() + "/chess.pgn", std::ios::binary) << chess;
  ASSERT_EQ(run_cli("pack --moves uniform " + p("chess.pgn") + " -o " + p("c.pga")).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(run_cli("info --json " + p("c.pga")).out)["read_version"], "1.0");
  // A Xiangqi game beside chess games is pictured on its own board.
  r = run_cli("get --svg 1 " + p("m.pga") + " 2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<path class=\"lines\""), std::string::npos);
}

}  // namespace
}  // namespace pgnarc
