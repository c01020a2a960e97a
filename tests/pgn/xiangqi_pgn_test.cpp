// Xiangqi games read from PGN and written back: the corpus's three notations, annotations,
// games in error, and the notation bytes a game keeps.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pgn/xiangqi_pgn.h"
#include "pgnarc/board_svg.h"
#include "pgnarc/game_tree.h"
#include "pgnarc/pgn.h"
#include "rules/xiangqi_game.h"
#include "support/test_util.h"

namespace pgnarc {
namespace {

namespace xq = rules::xiangqi;
using test::move_words;

std::string corpus_file(const std::string& name) {
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/xiangqi/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A game as pack's reading gives it: ok() and game(), or error() and raw_text().
GameBuilder read_one(std::string_view text) {
  GameBuilder b;
  pgn::parse_game_or_xiangqi(text, "test.pgn", 1, SourcePos{}, b);
  return b;
}

struct Read {
  std::vector<Game> games;
  std::vector<std::string> raw;  // each game's bytes
};

Read read_all(const std::string& text) {
  PgnReader reader(memory_input(text), "corpus");
  PgnReader::RawGame rg;
  Read out;
  while (reader.next_raw(rg).value()) {
    GameBuilder b;
    pgn::parse_game_or_xiangqi(rg.text, "corpus", rg.number, rg.start, b);
    EXPECT_TRUE(b.ok()) << b.error().message();
    out.games.push_back(b.game());
    out.raw.push_back(rg.text);
  }
  return out;
}

std::string iccs_of(const Move& m) { return xq::to_iccs(xq::move_of(m)); }

struct CorpusFile {
  const char* name;
  xq::Notation notation;
};
constexpr CorpusFile kCorpus[] = {{"wukong_iccs.pgn", xq::Notation::kIccs},
                                  {"wukong_wxf_fullwidth.pgn", xq::Notation::kWxf},
                                  {"wukong_chinese.pgn", xq::Notation::kChinese}};

TEST(XiangqiPgn, CorpusGamesAreReadInTheirNotation) {
  for (const CorpusFile& f : kCorpus) {
    SCOPED_TRACE(f.name);
    const Read r = read_all(corpus_file(f.name));
    ASSERT_EQ(r.games.size(), 15u);
    for (const Game& g : r.games) {
      EXPECT_EQ(g.rules, GameRules::kXiangqi);
      xq::Notation n;
      xq::NotationStyle style;
      ASSERT_TRUE(xq::read_notation(g.notation, n, style).ok());
      EXPECT_EQ(n, f.notation);
      EXPECT_GT(g.mainline_plies(), 20);
    }
  }
}

TEST(XiangqiPgn, TheThreeNotationsGiveTheSameMoves) {
  std::vector<Read> files;
  for (const CorpusFile& f : kCorpus) files.push_back(read_all(corpus_file(f.name)));
  int differences = 0;
  for (std::size_t g = 0; g < files[0].games.size(); ++g) {
    const auto& iccs = files[0].games[g].events;
    ASSERT_EQ(files[1].games[g].events.size(), iccs.size()) << "game " << g + 1;
    for (std::size_t i = 0; i < iccs.size(); ++i)
      for (std::size_t k = 1; k < 3; ++k)
        if (files[k].games[g].events[i] != iccs[i]) {
          // SOURCES.md: game 2's ply 71 names the front soldier in ICCS, the rear one elsewhere;
          // the two texts agree with each other.
          ++differences;
          EXPECT_EQ(g, 1u);
          EXPECT_EQ(i, 70u);
          EXPECT_EQ(iccs_of(iccs[i].move), "e5e6");
          EXPECT_EQ(iccs_of(files[k].games[g].events[i].move), "e3e4");
        }
  }
  EXPECT_EQ(differences, 2);
}

TEST(XiangqiPgn, EveryMoveIsWrittenBackByteForByte) {
  for (const CorpusFile& f : kCorpus) {
    SCOPED_TRACE(f.name);
    const Read r = read_all(corpus_file(f.name));
    for (std::size_t g = 0; g < r.games.size(); ++g) {
      std::string out;
      ASSERT_TRUE(write_pgn(r.games[g], out).ok());
      EXPECT_EQ(move_words(out), move_words(r.raw[g])) << "game " << g + 1;
      // And the text written reads as the same game, and is written again as it was.
      GameBuilder again = read_one(out);
      ASSERT_TRUE(again.ok()) << again.error().message();
      EXPECT_EQ(again.game(), r.games[g]);
      std::string twice;
      ASSERT_TRUE(write_pgn(again.game(), twice).ok());
      EXPECT_EQ(twice, out);
    }
  }
}

TEST(XiangqiPgn, CanonicalLayoutAsChess) {
  GameBuilder b = read_one(
      "[Game \"Chinese Chess\"]\n[Red \"A\"]\n[Black \"B\"]\n\n"
      "1. 炮二平五 {centre} 1... 马８进７ 2. 马二进三 $1 (2. 兵七进一 卒７进１) 2... 车９平８ 1-0\n");
  ASSERT_TRUE(b.ok()) << b.error().message();
  // Lines of at most 80 bytes, as for chess (a character of these moves takes three).
  std::string out;
  ASSERT_TRUE(write_pgn(b.game(), out).ok());
  EXPECT_EQ(out,
            "[Game \"Chinese Chess\"]\n[Red \"A\"]\n[Black \"B\"]\n\n"
            "1. 炮二平五 {centre} 1... 马８进７ 2. 马二进三 $1 (2. 兵七进一\n"
            "卒７进１) 2... 车９平８ 1-0\n\n");
  EXPECT_EQ(b.game().result, GameResult::kWhiteWins);
}

TEST(XiangqiPgn, AFenTagAndBlackFirst) {
  // Black to move from a set-up position, numbered "1...".
  const std::string text =
      "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n\n"
      "1... h9g7 2. h0g2 *\n";
  GameBuilder b = read_one(text);
  ASSERT_TRUE(b.ok()) << b.error().message();
  ASSERT_EQ(b.game().events.size(), 2u);
  EXPECT_EQ(iccs_of(b.game().events[0].move), "h9g7");
  std::string out;
  ASSERT_TRUE(write_pgn(b.game(), out).ok());
  EXPECT_EQ(out, text + "\n");
}

// A Black move numbered with its dots against it ("2. ...B7-D7", as obsidian-xiangqi writes
// variations) is read as the move, in the notation of the game's others.
TEST(XiangqiPgn, DotsAgainstABlackMove) {
  GameBuilder b = read_one("[Game \"Chinese Chess\"]\n\n1. H2-E2 H9-G7 (1. ...B7-D7) 2. H0-G2 *\n");
  ASSERT_TRUE(b.ok()) << b.error().message();
  std::string out;
  ASSERT_TRUE(write_pgn(b.game(), out).ok());
  EXPECT_NE(out.find("(1... B7-D7)"), std::string::npos) << out;
}

TEST(XiangqiPgn, WxfDigitFirstFormsAreMovesNotNumbers) {
  // Three red soldiers on the e-file, one across the river on each side of it; WXF numbers the
  // soldiers "1P" "2P" "3P" in one style: "2P.6" is a move, not the number 2.
  const std::string fen = "4k4/9/9/4P4/4P4/9/4P4/9/9/3K5 w - - 0 1";
  const std::string text = "[Game \"Chinese Chess\"]\n[FEN \"" + fen + "\"]\n\n1. 2P.6\n";
  GameBuilder b = read_one(text);
  ASSERT_TRUE(b.ok()) << b.error().message();
  ASSERT_EQ(b.game().events.size(), 1u);
  EXPECT_EQ(iccs_of(b.game().events[0].move), "e5d5");
  std::string out;
  ASSERT_TRUE(write_pgn(b.game(), out).ok());
  EXPECT_EQ(out, text + "\n");
}

TEST(XiangqiPgn, GamesInErrorKeepTheirBytesAndSayWhere) {
  struct Case {
    const char* movetext;
    const char* says;
  };
  const Case cases[] = {
      {"1. h2e2 h9g7 2. h2h9", "2:17"},  // no piece on h2 any more
      {"1. h2e2 H8+7", "2:9"},            // another notation than the game's first move
      {"1. h2e2 H9G7", "2:9"},            // upper case after lower: not written back so
      {"1. h2e2 --", "2:9"},              // a null move
      {"1. h2e2 (", "2:"},                // a variation never closed
  };
  for (const Case& c : cases) {
    const std::string text = std::string("[Game \"Chinese Chess\"]\n") + c.movetext;
    GameBuilder b = read_one(text);
    ASSERT_FALSE(b.ok()) << c.movetext;
    EXPECT_NE(b.error().message().find(std::string("test.pgn:") + c.says), std::string::npos) << b.error().message();
    EXPECT_EQ(b.raw_text(), text);
  }
  // A Chinese move in GB18030 or Big5 that cannot be read or played is named in UTF-8, with its
  // encoding (炮二进八 and 炮二進八: the cannon would leave the board), first move or later.
  const struct {
    const char* movetext;
    const char* says;
  } encoded[] = {
      {"1. \xC5\xDA\xB6\xFE\xBD\xF8\xB0\xCB", "no legal move matches Chinese move \"炮二进八\" (GB18030) in "},
      {"1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 \xC5\xDA\xB6\xFE\xBD\xF8\xB0\xCB",
       "no legal move matches Chinese move \"炮二进八\" (GB18030) in "},
      {"1. \xAC\xB6\xA4\x47\xB6\x69\xA4\x4B", "no legal move matches Chinese move \"炮二進八\" (Big5) in "},
      // A Chinese move cut short (炮五进), and a full-width WXF move, which is no Chinese move.
      {"1. \xC5\xDA\xCE\xE5\xBD\xF8", "bad Chinese move \"炮五进\" (GB18030) in "},
      {"1. Ｃ２＋９", "\"Ｃ２＋９\" is no legal move in ICCS, WXF or Chinese notation in "},
  };
  for (const auto& c : encoded) {
    GameBuilder b = read_one(std::string("[Game \"Chinese Chess\"]\n") + c.movetext);
    ASSERT_FALSE(b.ok()) << c.movetext;
    EXPECT_NE(b.error().message().find(c.says), std::string::npos) << b.error().message();
  }
}

TEST(XiangqiPgn, WhichTagsMakeAXiangqiGame) {
  const auto names = [](std::vector<Tag> tags) { return xq::names_xiangqi(tags); };
  EXPECT_TRUE(names({{"Game", "Chinese Chess"}}));
  EXPECT_TRUE(names({{"Game", "xiangqi"}}));
  EXPECT_TRUE(names({{"Variant", "Xiang-Qi"}}));
  EXPECT_TRUE(names({{"Format", "WXF"}}));
  EXPECT_TRUE(names({{"Red", "Lü Qin"}, {"Black", "Xu Yinchuan"}}));
  EXPECT_FALSE(names({{"Game", "Chess"}, {"Red", "x"}}));
  EXPECT_FALSE(names({{"White", "x"}, {"Red", "y"}}));
  EXPECT_FALSE(names({{"Variant", "Crazyhouse"}}));
  EXPECT_FALSE(names({}));
  // A chess game reads as before, and a Xiangqi game through parse_game stays a game in error.
  GameBuilder chess = read_one("[White \"x\"]\n\n1. e4 e5 1-0\n");
  ASSERT_TRUE(chess.ok());
  EXPECT_EQ(chess.game().rules, GameRules::kChess);
  EXPECT_TRUE(chess.game().notation.empty());
  GameBuilder plain;
  parse_game("[Game \"Chinese Chess\"]\n\n1. h2e2\n", "t", 1, SourcePos{}, plain);
  EXPECT_FALSE(plain.ok());
}

TEST(XiangqiPgn, NothingOfChessReadsAXiangqiGame) {
  GameBuilder b = read_one("[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7\n");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(start_position(b.game()).error().code(), ErrorCode::Unsupported);
  EXPECT_EQ(position_after(b.game(), 1).error().code(), ErrorCode::Unsupported);
  // fen_after gives the Xiangqi FEN.
  EXPECT_EQ(fen_after(b.game(), 1).value(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
  EXPECT_FALSE(fen_after(b.game(), 3).ok());
  // An illegal move in the events: nothing written.
  Game bad = b.game();
  bad.events[1].move = Move::xiangqi(0, 89);
  std::string out = "kept";
  EXPECT_FALSE(write_pgn(bad, out).ok());
  EXPECT_EQ(out, "kept");
  bad = b.game();
  bad.notation = "\x03";
  EXPECT_FALSE(write_pgn(bad, out).ok());
}

TEST(XiangqiPgn, NotationBytesRoundTripAndRejectTheRest) {
  std::mt19937 rng(7);
  const auto pick = [&rng](int n) { return static_cast<std::uint8_t>(rng() % static_cast<unsigned>(n)); };
  constexpr int kChars[8] = {0, 4, 2, 2, 3, 3, 3, 2};
  for (int i = 0; i < 300; ++i) {
    xq::NotationStyle s;
    const auto n = static_cast<xq::Notation>(i % 3);
    if (n == xq::Notation::kIccs) {
      s.iccs_case = static_cast<xq::LetterCase>(pick(3));
      s.iccs_hyphen = static_cast<xq::Toggle>(pick(3));
    } else {
      s.tandem = static_cast<xq::TandemPlace>(pick(3));
      s.soldiers = static_cast<xq::SoldierOrder>(pick(3));
      s.tandem_advisor_elephant = static_cast<xq::Toggle>(pick(3));
      s.tandem_file = pick(2) ? xq::Toggle::kYes : xq::Toggle::kUnset;  // "no" is stored as unset
      s.encoding = pick(2) ? xq::Encoding::kGb18030 : xq::Encoding::kUnset;  // Big5 below
    }
    if (n == xq::Notation::kWxf) {
      s.wxf_width = static_cast<xq::Width>(pick(3));
      s.wxf_case = static_cast<xq::LetterCase>(pick(3));
      s.wxf_sideways = static_cast<xq::Sideways>(pick(4));
      s.wxf_elephant = static_cast<xq::ElephantLetter>(pick(3));
      s.wxf_horse = static_cast<xq::HorseLetter>(pick(3));
    }
    if (n == xq::Notation::kChinese) {
      for (auto& side : s.piece_char)
        for (int t = 1; t < 8; ++t) side[static_cast<std::size_t>(t)] = pick(kChars[t] + 1);
      s.digits = {static_cast<xq::Digits>(pick(4)), static_cast<xq::Digits>(pick(4))};
      s.advance = static_cast<xq::Script>(pick(3));
      s.rear = static_cast<xq::Script>(pick(3));
    }
    const std::string bytes = xq::notation_bytes(n, s);
    EXPECT_EQ(bytes.size(), n == xq::Notation::kIccs ? 1u : n == xq::Notation::kWxf ? 3u : 8u);
    xq::Notation n2;
    xq::NotationStyle s2;
    ASSERT_TRUE(xq::read_notation(bytes, n2, s2).ok());
    EXPECT_EQ(n2, n);
    EXPECT_EQ(s2, s);
  }
  xq::Notation n;
  xq::NotationStyle s;
  const std::string bad[] = {
      std::string(),                       // nothing
      std::string("\x03", 1),              // notation 3
      std::string("\x00\x00", 2),          // ICCS of two bytes
      std::string("\x0C", 1),              // ICCS case 3
      std::string("\x40", 1),              // ICCS reserved bit
      std::string("\x01\x00", 2),          // WXF of two bytes
      std::string("\x01\x00\x40", 3),      // WXF reserved bit
      std::string("\x01\x00\x0C", 3),      // WXF encoding 3
      std::string("\x01\x00\x20", 3),      // WXF tandem by file 2
      std::string("\x02\x00\x07\x00\x00\x00\x00\x00", 8),  // Chinese general's character 7
      std::string("\x02\x00\x00\x00\x00\x00\x00\x40", 8),  // Chinese bit 46
      std::string("\x02\x00\x00\x00\x00\x00\x00\x0C", 8),  // Chinese encoding 3
      std::string("\x02\x00\x00\x00\x00\x00\x00\x20", 8),  // Chinese tandem by file 2
      std::string("\x02\x00\x01\x00\x00\x00\x00\x08", 8),  // Big5 and Red's general 帅
      std::string("\x06\x00\x00\x00\x00\x00\x00\x08", 8),  // Big5 and 进
      std::string("\x02\x00\x00\x80\x01\x00\x00\x08", 8),  // Big5 and Red's cannon 包 (A5 5D: `]`)
  };
  for (const std::string& b : bad) EXPECT_FALSE(xq::read_notation(b, n, s).ok()) << b.size();
  // Big5 with 帥 and 進, which it has.
  ASSERT_TRUE(xq::read_notation(std::string("\x0A\x00\x02\x00\x00\x00\x00\x08", 8), n, s).ok());
  EXPECT_EQ(s.encoding, xq::Encoding::kBig5);
  EXPECT_EQ(s.piece_char[xq::kRed][xq::kGeneral], 2);
  EXPECT_EQ(s.advance, xq::Script::kTraditional);
}

// A Xiangqi game as a tree: each move in the game's notation and in ICCS, its comments and
// variations where chess's are, the FEN of every node as fen_after and the reader see it.
TEST(XiangqiGameTree, MovesInTheirNotationAndIccsWithFens) {
  GameBuilder b = read_one("[Game \"Chinese Chess\"]\n\n1. 炮二平五 {centre} 马８进７ (1... 炮８平５ $2) 2. 马二进三 *\n");
  ASSERT_TRUE(b.ok()) << b.error().message();
  const Game& g = b.game();
  auto tree = game_tree(g);
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  const std::vector<GameNode>& nodes = *tree;
  ASSERT_EQ(nodes.size(), 5u);
  // (Preorder: the variation's move, node 3, before the main line's next, node 4.)
  const std::vector<std::pair<std::string, std::string>> moves = {
      {"炮二平五", "h2e2"}, {"马８进７", "h9g7"}, {"炮８平５", "h7e7"}, {"马二进三", "h0g2"}};
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    EXPECT_EQ(nodes[i].san, moves[i - 1].first);
    EXPECT_EQ(nodes[i].uci, moves[i - 1].second);
  }
  EXPECT_EQ(nodes[1].notes.comment, "centre");
  EXPECT_EQ(nodes[1].variations, (std::vector<int>{2, 3}));
  EXPECT_EQ(nodes[3].nags, (std::vector<std::uint8_t>{2}));
  auto fens = node_fens(g, nodes);
  ASSERT_TRUE(fens.ok()) << fens.error().message();
  const std::size_t main_line[] = {0, 1, 2, 4};
  for (int ply = 0; ply <= 3; ++ply) {
    auto fen = fen_after(g, ply);
    ASSERT_TRUE(fen.ok()) << ply;
    EXPECT_EQ((*fens)[main_line[ply]], *fen) << ply;
  }
  EXPECT_EQ((*fens)[3], "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
  // Each node's board, drawn from its FEN and move, is the game's picture at that ply.
  for (int ply = 1; ply <= 3; ++ply) {
    auto drawn = xiangqi_board_svg((*fens)[main_line[ply]], nodes[main_line[ply]].uci);
    auto after = board_svg_after(g, ply);
    ASSERT_TRUE(drawn.ok() && after.ok()) << ply;
    EXPECT_EQ(*drawn, *after) << ply;
  }
  EXPECT_FALSE(xiangqi_board_svg((*fens)[1], "h2").ok());
  EXPECT_FALSE(xiangqi_board_svg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
  // Without notation, and refusing what chess's tree refuses: a node before its parent, an illegal move.
  auto quick = game_tree(g, false);
  ASSERT_TRUE(quick.ok());
  EXPECT_EQ(quick->size(), nodes.size());
  EXPECT_TRUE((*quick)[1].san.empty() && (*quick)[1].uci.empty());
  EXPECT_EQ((*quick)[4].move, nodes[4].move);
  std::vector<GameNode> twisted = nodes;
  twisted[2].parent = 4;
  EXPECT_FALSE(node_fens(g, twisted).ok());
  std::vector<GameNode> illegal = nodes;
  illegal[4].move = illegal[1].move;  // h2e2 again, where the cannon stands on e2
  EXPECT_FALSE(node_fens(g, illegal).ok());
  Game bad = g;
  bad.events.insert(bad.events.begin(), GameEvent::begin_variation());
  EXPECT_FALSE(game_tree(bad).ok());
}

}  // namespace
}  // namespace pgnarc
