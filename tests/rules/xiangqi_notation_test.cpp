// Xiangqi move notations: the 15 wukong games (corpus/xiangqi) read in ICCS, WXF and Chinese to
// the same moves and written back byte for byte in each game's learnt style; hand-made positions
// for tandem pieces (two of a kind on a file, three and five soldiers, two files of soldiers) in
// every form, both ways; rejected texts and their messages; the corpus games in GB18030 and Big5
// (transcoded by iconv), and the encodings' table against iconv's.
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rules/xiangqi.h"
#include "rules/xiangqi_game.h"
#include "rules/xiangqi_notation.h"
#include "rules/xiangqi_test_support.h"
#include "common/iconv_text.h"

namespace pgnarc::rules::xiangqi {

namespace {

// ---- the corpus ----

Move move(const char* iccs) { return parse_iccs(iccs).value(); }

// The move texts of each game of a wukong file: tag lines, then one line `1. a b 2. a b ...`
// with no result token; move numbers are the tokens ending in '.'.
std::vector<std::vector<std::string>> games_of(const std::string& name) {
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/xiangqi/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::vector<std::vector<std::string>> games;
  bool in_tags = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '[') {
      if (!in_tags) games.emplace_back();
      in_tags = true;
      continue;
    }
    std::istringstream words(line);
    for (std::string w; words >> w;) {
      in_tags = false;
      if (w.back() != '.') games.back().push_back(w);
    }
  }
  return games;
}

struct CorpusFile {
  const char* name;
  Notation notation;
};
constexpr CorpusFile kCorpus[] = {{"wukong_iccs.pgn", Notation::kIccs},
                                 {"wukong_wxf_fullwidth.pgn", Notation::kWxf},
                                 {"wukong_chinese.pgn", Notation::kChinese}};

TEST(XiangqiNotation, TheThreeFilesReadToTheSameLegalMoves) {
  std::vector<std::vector<std::vector<std::string>>> files;
  for (const CorpusFile& f : kCorpus) files.push_back(games_of(f.name));
  ASSERT_EQ(files[0].size(), 15u);
  int plies = 0;
  for (std::size_t g = 0; g < files[0].size(); ++g) {
    ASSERT_EQ(files[1][g].size(), files[0][g].size()) << "game " << g + 1;
    ASSERT_EQ(files[2][g].size(), files[0][g].size()) << "game " << g + 1;
    // The ICCS file and the two text files (wukong's DPXQ decoder) disagree once, in game 2 at
    // ply 71: red soldiers stand on e3 and e5; the ICCS file plays e5e6, while "－Ｐ＋１" and
    // 后兵进一 name the rear one, e3e4. From there the ICCS game goes on in its own position.
    Position iccs_pos, text_pos;
    for (std::size_t i = 0; i < files[0][g].size(); ++i, ++plies) {
      const bool diverged = g == 1 && i >= 70;
      const Result<Move> iccs = parse_move(iccs_pos, files[0][g][i], Notation::kIccs);
      const Result<Move> wxf = parse_move(text_pos, files[1][g][i], Notation::kWxf);
      const Result<Move> chinese = parse_move(text_pos, files[2][g][i], Notation::kChinese);
      ASSERT_TRUE(iccs.ok()) << iccs.error().to_string();
      ASSERT_TRUE(wxf.ok()) << wxf.error().to_string();
      ASSERT_TRUE(chinese.ok()) << chinese.error().to_string();
      ASSERT_EQ(*chinese, *wxf) << "game " << g + 1 << " ply " << i + 1 << ": " << files[2][g][i];
      if (!diverged) {
        ASSERT_EQ(*wxf, *iccs) << "game " << g + 1 << " ply " << i + 1 << ": " << files[1][g][i];
      }
      if (g == 1 && i == 70) {
        EXPECT_EQ(*iccs, move("e5e6"));
        EXPECT_EQ(*wxf, move("e3e4"));
      }
      iccs_pos.play(*iccs);
      text_pos.play(*wxf);
    }
  }
  EXPECT_EQ(plies, 1378);
}

TEST(XiangqiNotation, EveryCorpusMoveIsWrittenBackInItsGamesStyle) {
  for (const CorpusFile& f : kCorpus) {
    int game = 0;
    for (const std::vector<std::string>& texts : games_of(f.name)) {
      ++game;
      NotationStyle style;
      Position pos;
      std::vector<Position> before;
      std::vector<Move> moves;
      for (const std::string& text : texts) {
        const Result<LearntMove> m = learn_move(style, pos, text, f.notation);
        ASSERT_TRUE(m.ok()) << m.error().to_string();
        EXPECT_TRUE(m->reproducible) << f.name << " game " << game << ": " << text;
        before.push_back(pos);
        moves.push_back(m->move);
        pos.play(m->move);
      }
      // The finished style, not only the one each move was learnt with, writes every move back.
      for (std::size_t i = 0; i < texts.size(); ++i)
        EXPECT_EQ(write_move(before[i], moves[i], f.notation, style), texts[i]) << f.name << " game " << game;
      if (f.notation == Notation::kIccs) {
        EXPECT_EQ(style.iccs_case, LetterCase::kLower);
        EXPECT_EQ(style.iccs_hyphen, Toggle::kNo);
      } else if (f.notation == Notation::kWxf) {
        EXPECT_EQ(style.wxf_width, Width::kFullWidth);
        EXPECT_EQ(style.wxf_sideways, Sideways::kEquals);
      } else {
        EXPECT_EQ(style.digits[kRed], Digits::kChinese);
        EXPECT_EQ(style.digits[kBlack], Digits::kFullWidth);
        EXPECT_EQ(style.advance, Script::kSimplified);
      }
    }
  }
}

TEST(XiangqiNotation, TheCorpusStylesHoldWhatTheFilesShow) {
  // Game 1 has tandem soldiers and cannons in both notations.
  NotationStyle wxf, chinese;
  Position a, b;
  const auto w = games_of("wukong_wxf_fullwidth.pgn")[0];
  const auto c = games_of("wukong_chinese.pgn")[0];
  for (std::size_t i = 0; i < w.size(); ++i) {
    a.play(learn_move(wxf, a, w[i], Notation::kWxf)->move);
    b.play(learn_move(chinese, b, c[i], Notation::kChinese)->move);
  }
  EXPECT_EQ(wxf.tandem, TandemPlace::kBefore);  // ＋Ｐ＋１
  EXPECT_EQ(wxf.wxf_elephant, ElephantLetter::kE);
  EXPECT_EQ(wxf.wxf_horse, HorseLetter::kH);
  EXPECT_EQ(chinese.tandem, TandemPlace::kBefore);  // 前卒进１
  EXPECT_EQ(chinese.piece_char[kRed][kAdvisor], 1);   // 仕
  EXPECT_EQ(chinese.piece_char[kBlack][kAdvisor], 2); // 士
  EXPECT_EQ(chinese.piece_char[kRed][kElephant], 1);  // 相
  EXPECT_EQ(chinese.piece_char[kBlack][kSoldier], 2); // 卒
}

// ---- hand-made positions ----

// A position given as {"e0", 'K'} pairs (ICCS squares, FEN letters).
Position board(const std::vector<std::pair<std::string, char>>& pieces, char side = 'w') {
  const Result<Position> pos = Position::from_fen(fen_of(pieces, side));
  EXPECT_TRUE(pos.ok()) << pos.error().to_string();
  return pos.ok() ? *pos : Position();
}

NotationStyle with(void (*set)(NotationStyle&)) {
  NotationStyle s;
  set(s);
  return s;
}

// Writes `iccs` in `style` and expects `text`; reads `text` back to the move; learns it into an
// empty style and expects it reproducible.
void both_ways(const Position& pos, const char* iccs, Notation n, const NotationStyle& style, const std::string& text) {
  SCOPED_TRACE(text);
  EXPECT_EQ(write_move(pos, move(iccs), n, style), text);
  const Result<Move> m = parse_move(pos, text, n);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(*m, move(iccs));
  NotationStyle learnt;
  const Result<LearntMove> l = learn_move(learnt, pos, text, n);
  ASSERT_TRUE(l.ok());
  EXPECT_TRUE(l->reproducible);
}

const NotationStyle kDefault;
const NotationStyle kBefore = with([](NotationStyle& s) { s.tandem = TandemPlace::kBefore; });
const NotationStyle kAfter = with([](NotationStyle& s) { s.tandem = TandemPlace::kAfter; });
const NotationStyle kNumbered = with([](NotationStyle& s) { s.soldiers = SoldierOrder::kNumbered; });

TEST(XiangqiNotation, PlainMovesInAsciiWxfAndItsVariants) {
  const Position start;
  both_ways(start, "h2e2", Notation::kWxf, kDefault, "C2.5");
  both_ways(start, "h0g2", Notation::kWxf, kDefault, "H2+3");
  both_ways(start, "g0e2", Notation::kWxf, kDefault, "E3+5");
  both_ways(start, "f0e1", Notation::kWxf, kDefault, "A4+5");
  both_ways(start, "i0i2", Notation::kWxf, kDefault, "R1+2");
  both_ways(start, "g3g4", Notation::kWxf, kDefault, "P3+1");
  both_ways(start, "e0e1", Notation::kWxf, kDefault, "K5+1");
  both_ways(start, "h2e2", Notation::kWxf, with([](NotationStyle& s) { s.wxf_sideways = Sideways::kEquals; }), "C2=5");
  both_ways(start, "h2e2", Notation::kWxf, with([](NotationStyle& s) { s.wxf_sideways = Sideways::kNone; }), "C25");
  both_ways(start, "h0g2", Notation::kWxf, with([](NotationStyle& s) { s.wxf_horse = HorseLetter::kN; }), "N2+3");
  both_ways(start, "g0e2", Notation::kWxf, with([](NotationStyle& s) { s.wxf_elephant = ElephantLetter::kB; }), "B3+5");
  both_ways(start, "h2e2", Notation::kWxf, with([](NotationStyle& s) { s.wxf_case = LetterCase::kLower; }), "c2.5");
  both_ways(start, "h2e2", Notation::kWxf, with([](NotationStyle& s) { s.wxf_width = Width::kFullWidth; }), "Ｃ２．５");
  // Black counts files from its own right: its b-file cannon is on its file 2, its h-file one on 8.
  const Position black = start.after(move("h2e2"));
  both_ways(black, "h9g7", Notation::kWxf, kDefault, "H8+7");
  both_ways(black, "b7e7", Notation::kWxf, kDefault, "C2.5");
  both_ways(black, "h7h1", Notation::kWxf, kDefault, "C8+6");
}

TEST(XiangqiNotation, ChineseCharactersDigitsAndScripts) {
  const Position start;
  both_ways(start, "h2e2", Notation::kChinese, kDefault, "炮二平五");
  both_ways(start, "h0g2", Notation::kChinese, with([](NotationStyle& s) {
              s.piece_char[kRed][kHorse] = 3;
              s.advance = Script::kTraditional;
            }), "傌二進三");
  both_ways(start, "i0i1", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kRed][kChariot] = 2; }), "車一进一");
  both_ways(start, "b2b9", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kRed][kCannon] = 2; }), "砲八进七");
  both_ways(start, "h2e2", Notation::kChinese, with([](NotationStyle& s) { s.digits[kRed] = Digits::kAscii; }), "炮2平5");
  both_ways(start, "e0e1", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kRed][kGeneral] = 2; }), "帥五进一");
  const Position black = start.after(move("h2e2"));
  both_ways(black, "h9g7", Notation::kChinese, kDefault, "马８进７");
  both_ways(black, "h9g7", Notation::kChinese, with([](NotationStyle& s) { s.digits[kBlack] = Digits::kAscii; }), "马8进7");
  both_ways(black, "h7e7", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kBlack][kCannon] = 3; }), "包８平５");
  both_ways(black, "e9e8", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kBlack][kGeneral] = 4; }), "將５进１");
  both_ways(black, "d9e8", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kBlack][kAdvisor] = 1; }), "仕４进５");
  // 士 and 象 for both sides, as the xqbase files.
  both_ways(start, "f0e1", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kRed][kAdvisor] = 2; }), "士四进五");
  both_ways(start, "c0e2", Notation::kChinese, with([](NotationStyle& s) { s.piece_char[kRed][kElephant] = 2; }), "象七进五");
}

// Red: chariots a0 a3 (file 9), horses c2 c4 (file 7), cannons h2 h5 (file 2).
Position red_pairs() {
  return board({{"e0", 'K'}, {"a0", 'R'}, {"a3", 'R'}, {"c2", 'N'}, {"c4", 'N'}, {"h2", 'C'}, {"h5", 'C'}, {"d9", 'k'}});
}

TEST(XiangqiNotation, TwoChariotsHorsesAndCannonsOnAFile) {
  const Position pos = red_pairs();
  both_ways(pos, "a3a4", Notation::kWxf, kDefault, "R++1");  // the WXF page: "R+.3", "C--1"
  both_ways(pos, "a3a4", Notation::kWxf, kBefore, "+R+1");   // wukong: ＋Ｒ＝８
  both_ways(pos, "a0a1", Notation::kWxf, kDefault, "R-+1");
  both_ways(pos, "a0a1", Notation::kWxf, kBefore, "-R+1");
  both_ways(pos, "a3b3", Notation::kWxf, kDefault, "R+.8");
  both_ways(pos, "c4d6", Notation::kWxf, kDefault, "H++6");
  both_ways(pos, "c2b0", Notation::kWxf, kBefore, "-H-8");
  both_ways(pos, "h5e5", Notation::kWxf, kDefault, "C+.5");
  both_ways(pos, "h2h1", Notation::kWxf, kDefault, "C--1");
  both_ways(pos, "a3a4", Notation::kChinese, kDefault, "前车进一");
  both_ways(pos, "a0a1", Notation::kChinese, kDefault, "后车进一");
  both_ways(pos, "a0a1", Notation::kChinese, with([](NotationStyle& s) {
              s.rear = Script::kTraditional;
              s.piece_char[kRed][kChariot] = 2;
              s.advance = Script::kTraditional;
            }), "後車進一");
  both_ways(pos, "a3a4", Notation::kChinese, kAfter, "车前进一");  // the WXF page: 車前平三
  both_ways(pos, "c4d6", Notation::kChinese, kDefault, "前马进六");
  both_ways(pos, "c2b4", Notation::kChinese, kDefault, "后马进八");
  both_ways(pos, "h5e5", Notation::kChinese, kDefault, "前炮平五");
  both_ways(pos, "h2e2", Notation::kChinese, kDefault, "后炮平五");
}

// With tandem_file, two horses, chariots or cannons on a file are named by their file where the
// other could not make a move of that direction and number, check aside (as the Chinese Chess
// Practical Dataset writes them); else front / rear as by default.
TEST(XiangqiNotation, TandemPiecesByTheirFileWhereTheTwinCannotMoveSo) {
  const Position pos = red_pairs();
  const NotationStyle by_file = with([](NotationStyle& s) { s.tandem_file = Toggle::kYes; });
  both_ways(pos, "a3a9", Notation::kChinese, by_file, "车九进六");  // a0 cannot pass a3
  both_ways(pos, "a3a9", Notation::kChinese, kDefault, "前车进六");
  both_ways(pos, "a3a9", Notation::kWxf, by_file, "R9+6");
  both_ways(pos, "a0a1", Notation::kChinese, by_file, "后车进一");  // a3 could go to a4
  both_ways(pos, "a3b3", Notation::kChinese, by_file, "前车平八");  // a0 could go to b0
  both_ways(pos, "c4d6", Notation::kChinese, by_file, "前马进六");  // c2 could go to d4
  both_ways(pos, "c2a1", Notation::kChinese, by_file, "马七退九");  // c4's a3 holds a chariot
  both_ways(pos, "h5h9", Notation::kChinese, by_file, "炮二进四");  // h2 cannot pass h5
  both_ways(pos, "h2e2", Notation::kChinese, by_file, "后炮平五");  // h5 could go to e5
  // What a text shows: the file where marks were due, or marks where the file would do.
  for (const auto& [text, shown] : {std::pair{"车九进六", Toggle::kYes}, std::pair{"前车进六", Toggle::kNo}}) {
    NotationStyle learnt;
    ASSERT_TRUE(learn_move(learnt, pos, text, Notation::kChinese).ok());
    EXPECT_EQ(learnt.tandem_file, shown) << text;
  }
  NotationStyle learnt;  // both ways can't be one game's
  ASSERT_TRUE(learn_move(learnt, pos, "车九进六", Notation::kChinese)->reproducible);
  EXPECT_FALSE(learn_move(learnt, pos, "前车进六", Notation::kChinese)->reproducible);
  EXPECT_TRUE(learn_move(learnt, pos, "后车进一", Notation::kChinese)->reproducible);
}

// ---- encodings ----

using common::iconv_to;

std::string utf8_of(char32_t c) {
  std::string s;
  append_char(s, c, Encoding::kUtf8);
  return s;
}

TEST(XiangqiEncoding, TheTableIsIconvsGb18030AndBig5) {
  const std::u32string chars = encoded_characters();
  EXPECT_EQ(chars.size(), 67u);
  for (const char32_t c : chars) {
    const std::string u = utf8_of(c);
    for (const auto& [name, e] : {std::pair{"GB18030", Encoding::kGb18030}, std::pair{"BIG5", Encoding::kBig5}}) {
      const std::optional<std::string> theirs = iconv_to(name, u);
      const std::uint16_t ours = double_byte(c, e);
      if (!ours) {
        EXPECT_FALSE(theirs) << name << " " << u;
        continue;
      }
      ASSERT_TRUE(theirs) << name << " " << u;
      EXPECT_EQ(*theirs, std::string({static_cast<char>(ours >> 8), static_cast<char>(ours & 0xFF)})) << name << " " << u;
      std::u32string back;
      ASSERT_TRUE(decode_text(*theirs, e, back));
      EXPECT_EQ(back, std::u32string(1, c));
    }
  }
  std::u32string out;
  EXPECT_FALSE(decode_text("\xA4", Encoding::kBig5, out));          // half a pair
  EXPECT_FALSE(decode_text("\xB0\xA1", Encoding::kGb18030, out));  // 啊: not a move text's
}

// The traditional forms of a Chinese text (帅 将 马 车 进 后 as Big5 has them).
std::string traditional(std::string text) {
  for (const auto& [from, to] : {std::pair{"帅", "帥"}, {"将", "將"}, {"马", "馬"}, {"车", "車"}, {"进", "進"}, {"后", "後"}})
    for (std::size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, std::string(from).size(), to);
  return text;
}

// The corpus games' texts in GB18030 and (Chinese, in traditional characters) Big5, as iconv
// writes them, read to the same moves and written back byte for byte; the style's notation bytes
// hold the encoding.
TEST(XiangqiEncoding, CorpusGamesInGb18030AndBig5AreWrittenBack) {
  struct Case {
    const char* file;
    Notation notation;
    const char* iconv;
    Encoding encoding;
  };
  const Case cases[] = {{"wukong_chinese.pgn", Notation::kChinese, "GB18030", Encoding::kGb18030},
                        {"wukong_wxf_fullwidth.pgn", Notation::kWxf, "GB18030", Encoding::kGb18030},
                        {"wukong_chinese.pgn", Notation::kChinese, "BIG5", Encoding::kBig5},
                        {"wukong_wxf_fullwidth.pgn", Notation::kWxf, "BIG5", Encoding::kBig5}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.file) + " in " + c.iconv);
    int plies = 0;
    for (const std::vector<std::string>& texts : games_of(c.file)) {
      NotationStyle style;
      Position pos;
      for (const std::string& utf8 : texts) {
        const std::string text =
            iconv_to(c.iconv, c.encoding == Encoding::kBig5 ? traditional(utf8) : utf8).value();
        const Result<LearntMove> m = learn_move(style, pos, text, c.notation);
        ASSERT_TRUE(m.ok()) << m.error().to_string();
        EXPECT_EQ(m->move, parse_move(pos, utf8, c.notation).value());
        ASSERT_TRUE(m->reproducible) << utf8;
        EXPECT_EQ(write_move(pos, m->move, c.notation, style), text);
        pos.play(m->move);
        ++plies;
      }
      EXPECT_EQ(style.encoding, c.encoding);
    }
    EXPECT_GT(plies, 1000);
  }
  // A UTF-8 text, then one in GB18030: one game has one encoding.
  NotationStyle style;
  Position pos;
  ASSERT_TRUE(learn_move(style, pos, "炮二平五", Notation::kChinese)->reproducible);
  pos.play(move("h2e2"));
  EXPECT_FALSE(learn_move(style, pos, iconv_to("GB18030", "马８进７").value(), Notation::kChinese)->reproducible);
}

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 3) out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

// Format 5.7.1's examples of tandem by file and the encodings: the row's notation bytes write its
// text, and the text alone, learnt, gives the bytes the paragraph after the table names.
TEST(XiangqiEncoding, TheSpecsExamples) {
  const std::string S = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
  const std::string S1 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
  const std::string T = "3k5/9/9/9/7C1/2N6/R8/2N4C1/9/R3K4 w - - 0 1";
  struct Row {
    std::string fen;
    const char* move;
    const char* bytes;
    std::string text;
  };
  const Row rows[] = {
      {T, "a3a9", "02 00 00 00 00 00 00 10", "车九进六"},
      {T, "a3a9", "02 00 00 00 00 00 00 00", "前车进六"},
      {T, "a0a1", "02 00 00 00 00 00 00 10", "后车进一"},
      {T, "c2a1", "02 00 00 00 00 00 00 10", "马七退九"},
      {T, "c4d6", "02 00 00 00 00 00 00 10", "前马进六"},
      {T, "h5h9", "01 00 10", "C2+4"},
      {T, "h2e2", "01 00 10", "C-.5"},
      {S, "h2e2", "02 00 00 00 00 00 00 04", from_hex("c5 da b6 fe c6 bd ce e5")},
      {S, "h2e2", "02 00 00 00 00 00 00 08", from_hex("ac b6 a4 47 a5 ad a4 ad")},
      {S, "e0e1", "02 00 00 00 00 00 00 08", from_hex("ab d3 a4 ad b6 69 a4 40")},
      {S1, "h9g7", "02 00 00 00 00 00 00 08", from_hex("b0 a8 a2 b7 b6 69 a2 b6")},
      {S, "h2e2", "a9 00 04", from_hex("a3 c3 a3 b2 a3 bd a3 b5")},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.text);
    const Position pos = Position::from_fen(r.fen).value();
    Notation n;
    NotationStyle style;
    ASSERT_TRUE(read_notation(from_hex(r.bytes), n, style).ok());
    EXPECT_EQ(write_move(pos, move(r.move), n, style), r.text);
    EXPECT_EQ(parse_move(pos, r.text, n).value(), move(r.move));
  }
  const Row learnt[] = {
      {T, "a3a9", "06 10 00 10 00 00 00 10", "车九进六"},
      {T, "a3a9", "46 10 00 10 00 00 00 00", "前车进六"},
      {S, "h2e2", "02 10 00 80 00 00 00 04", from_hex("c5 da b6 fe c6 bd ce e5")},
      {S1, "h9g7", "0a 80 00 00 00 80 00 08", from_hex("b0 a8 a2 b7 b6 69 a2 b6")},
  };
  for (const Row& r : learnt) {
    SCOPED_TRACE(r.text);
    const Position pos = Position::from_fen(r.fen).value();
    NotationStyle style;
    ASSERT_TRUE(learn_move(style, pos, r.text, Notation::kChinese)->reproducible);
    EXPECT_EQ(notation_bytes(Notation::kChinese, style), from_hex(r.bytes));
  }
}

TEST(XiangqiNotation, TandemBlackPiecesCountFromBlacksSide) {
  // Black soldiers c3 c4 (its file 3); its front is the one nearer Red's back rank.
  const Position pos = board({{"d0", 'K'}, {"e9", 'k'}, {"c3", 'p'}, {"c4", 'p'}, {"b9", 'r'}, {"b6", 'r'}}, 'b');
  both_ways(pos, "c3d3", Notation::kChinese, kDefault, "前卒平４");
  both_ways(pos, "c4d4", Notation::kChinese, kDefault, "后卒平４");
  both_ways(pos, "c3c2", Notation::kWxf, kDefault, "P++1");
  both_ways(pos, "b6b5", Notation::kWxf, kBefore, "+R+1");
  both_ways(pos, "b9b8", Notation::kChinese, kDefault, "后车进１");
}

TEST(XiangqiNotation, ThreeSoldiersOnAFile) {
  const Position pos = board({{"e0", 'K'}, {"d9", 'k'}, {"c5", 'P'}, {"c6", 'P'}, {"c7", 'P'}, {"g6", 'P'}});
  both_ways(pos, "c7d7", Notation::kWxf, kDefault, "P+.6");
  both_ways(pos, "c6d6", Notation::kWxf, kDefault, "P7.6");  // the WXF page: the middle one by its file
  both_ways(pos, "c5d5", Notation::kWxf, kDefault, "P-.6");
  both_ways(pos, "c7d7", Notation::kWxf, kBefore, "+P.6");
  both_ways(pos, "c6d6", Notation::kWxf, kNumbered, "2P.6");
  both_ways(pos, "c7d7", Notation::kChinese, kDefault, "前兵平六");
  both_ways(pos, "c6d6", Notation::kChinese, kDefault, "中兵平六");
  both_ways(pos, "c5d5", Notation::kChinese, kDefault, "后兵平六");
  both_ways(pos, "c5d5", Notation::kChinese, kNumbered, "三兵平六");
  both_ways(pos, "c7c8", Notation::kChinese, kNumbered, "一兵进一");
  both_ways(pos, "g6g7", Notation::kChinese, kDefault, "兵三进一");
}

TEST(XiangqiNotation, FourAndFiveSoldiersOnAFile) {
  const Position five = board({{"e0", 'K'}, {"f9", 'k'}, {"c5", 'P'}, {"c6", 'P'}, {"c7", 'P'}, {"c8", 'P'}, {"c9", 'P'}});
  const char* moves[] = {"c9d9", "c8d8", "c7d7", "c6d6", "c5d5"};
  const char* wxf[] = {"++.6", "P+.6", "P7.6", "P-.6", "--.6"};  // the WXF page's example
  const char* chinese[] = {"前兵平六", "二兵平六", "三兵平六", "四兵平六", "后兵平六"};  // as DPXQ
  for (int i = 0; i < 5; ++i) {
    both_ways(five, moves[i], Notation::kWxf, kDefault, wxf[i]);
    both_ways(five, moves[i], Notation::kChinese, kDefault, chinese[i]);
  }
  both_ways(five, "c8d8", Notation::kWxf, kBefore, "+P.6");
  both_ways(five, "c8d8", Notation::kWxf, kNumbered, "2P.6");
  both_ways(five, "c9d9", Notation::kChinese, kNumbered, "一兵平六");
  both_ways(five, "c5d5", Notation::kChinese, kNumbered, "五兵平六");
  NotationStyle style;  // the middle ones are numbered either way: they show no order
  ASSERT_TRUE(learn_move(style, five, "三兵平六", Notation::kChinese)->reproducible);
  EXPECT_EQ(style.soldiers, SoldierOrder::kUnset);
  ASSERT_TRUE(learn_move(style, five, "五兵平六", Notation::kChinese)->reproducible);
  EXPECT_EQ(style.soldiers, SoldierOrder::kNumbered);
  const Position four = board({{"e0", 'K'}, {"f9", 'k'}, {"c5", 'P'}, {"c6", 'P'}, {"c7", 'P'}, {"c8", 'P'}});
  const char* wxf4[] = {"++.6", "P+.6", "P-.6", "--.6"};
  for (int i = 0; i < 4; ++i) both_ways(four, moves[i + 1], Notation::kWxf, kDefault, wxf4[i]);
}

TEST(XiangqiNotation, TwoFilesWithTwoOrMoreSoldiers) {
  // c5 c6 c7 (file 7) and g5 g6 (file 3): the WXF page's example of tandem soldiers on two files.
  const Position pos = board({{"e0", 'K'}, {"d9", 'k'}, {"c5", 'P'}, {"c6", 'P'}, {"c7", 'P'}, {"g5", 'P'}, {"g6", 'P'}});
  both_ways(pos, "c7d7", Notation::kWxf, kDefault, "7+.6");
  both_ways(pos, "c6d6", Notation::kWxf, kDefault, "77.6");
  both_ways(pos, "c5d5", Notation::kWxf, kDefault, "7-.6");
  both_ways(pos, "g6f6", Notation::kWxf, kDefault, "3+.4");
  both_ways(pos, "g5f5", Notation::kWxf, kBefore, "-3.4");
  both_ways(pos, "g6g7", Notation::kWxf, kDefault, "3++1");
  both_ways(pos, "c7d7", Notation::kChinese, kDefault, "前七平六");
  both_ways(pos, "c6d6", Notation::kChinese, kDefault, "中七平六");
  both_ways(pos, "g5f5", Notation::kChinese, kDefault, "后三平四");
  both_ways(pos, "g5f5", Notation::kChinese, kAfter, "三后平四");
}

TEST(XiangqiNotation, AdvisorsAndElephantsKeepTheirFileUnlessTheGameMarksThem) {
  const Position pos = board({{"e0", 'K'}, {"d0", 'A'}, {"d2", 'A'}, {"c0", 'B'}, {"c4", 'B'}, {"f9", 'k'}});
  both_ways(pos, "d0e1", Notation::kChinese, kDefault, "仕六进五");
  both_ways(pos, "d2e1", Notation::kChinese, kDefault, "仕六退五");
  both_ways(pos, "c0e2", Notation::kWxf, kDefault, "E7+5");
  both_ways(pos, "c4a2", Notation::kWxf, kDefault, "E7-9");
  const NotationStyle marked = with([](NotationStyle& s) { s.tandem_advisor_elephant = Toggle::kYes; });
  both_ways(pos, "d2e1", Notation::kChinese, marked, "前仕退五");
  both_ways(pos, "d0e1", Notation::kWxf, marked, "A-+5");
  NotationStyle style;
  ASSERT_TRUE(learn_move(style, pos, "后相进五", Notation::kChinese)->reproducible);
  EXPECT_EQ(style.tandem_advisor_elephant, Toggle::kYes);
  EXPECT_FALSE(learn_move(style, pos, "仕六进五", Notation::kChinese)->reproducible);  // now 后仕进五
}

TEST(XiangqiNotation, IccsCaseAndHyphen) {
  const Position start;
  both_ways(start, "h2e2", Notation::kIccs, kDefault, "h2e2");
  both_ways(start, "h2e2", Notation::kIccs, with([](NotationStyle& s) {
              s.iccs_case = LetterCase::kUpper;
              s.iccs_hyphen = Toggle::kYes;
            }), "H2-E2");
  NotationStyle style;
  EXPECT_FALSE(learn_move(style, start, "H2e2", Notation::kIccs)->reproducible);  // mixed case
  EXPECT_EQ(style, NotationStyle{});
}

TEST(XiangqiNotation, TextsAStyleCannotHoldAreFlagged) {
  const Position start;
  NotationStyle style;
  EXPECT_TRUE(learn_move(style, start, "C2.5", Notation::kWxf)->reproducible);
  const Position black = start.after(move("h2e2"));
  const Result<LearntMove> equals = learn_move(style, black, "C8=5", Notation::kWxf);  // "." seen before
  ASSERT_TRUE(equals.ok());
  EXPECT_EQ(equals->move, move("h7e7"));
  EXPECT_FALSE(equals->reproducible);
  EXPECT_EQ(style.wxf_sideways, Sideways::kDot);
  NotationStyle fresh;  // mixed widths, with nothing learnt before
  const Result<LearntMove> mixed = learn_move(fresh, black, "Ｃ8.5", Notation::kWxf);
  ASSERT_TRUE(mixed.ok());
  EXPECT_FALSE(mixed->reproducible);
  EXPECT_EQ(fresh, NotationStyle{});
  // A plain file where front/rear is due even with tandem_file, readable because the other
  // chariot, pinned to its general by a1's, may not go two ranks up the file.
  const Position pinned = board({{"e1", 'K'}, {"c1", 'R'}, {"c5", 'R'}, {"a1", 'r'}, {"d9", 'k'}});
  NotationStyle fresh_chinese;
  const Result<LearntMove> plain = learn_move(fresh_chinese, pinned, "车七进二", Notation::kChinese);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->move, move("c5c7"));
  EXPECT_FALSE(plain->reproducible);
  EXPECT_EQ(write_move(pinned, move("c5c7"), Notation::kChinese, with([](NotationStyle& s) { s.tandem_file = Toggle::kYes; })),
            "前车进二");
  NotationStyle chinese;
  EXPECT_TRUE(learn_move(chinese, start, "炮二平五", Notation::kChinese)->reproducible);
  EXPECT_TRUE(learn_move(chinese, black, "马8进7", Notation::kChinese)->reproducible);  // each side its digits
  EXPECT_EQ(chinese.digits[kBlack], Digits::kAscii);
  EXPECT_FALSE(learn_move(chinese, black.after(move("h9g7")), "炮8平7", Notation::kChinese)->reproducible);
}

TEST(XiangqiNotation, AmbiguousIllegalAndMalformedTextsAreRejected) {
  const Position start;
  const std::string fen = start.fen();
  const auto message = [](const Result<Move>& m) { return m.ok() ? std::string("(accepted)") : m.error().message(); };
  EXPECT_EQ(message(parse_move(start, "R1+3", Notation::kWxf)),
            "no legal move matches WXF move \"R1+3\" in " + fen);
  EXPECT_EQ(message(parse_move(start, "炮二平十", Notation::kChinese)),
            "bad Chinese move \"炮二平十\" in " + fen + ": expected a number as the fourth character");
  EXPECT_EQ(message(parse_move(start, "炮二走五", Notation::kChinese)),
            "bad Chinese move \"炮二走五\" in " + fen + ": expected 进, 退 or 平 as the third character");
  EXPECT_EQ(message(parse_move(start, "X2.5", Notation::kWxf)),
            "bad WXF move \"X2.5\" in " + fen +
                ": expected a piece letter (K A E H R C P) with a file 1-9 or a + or -");
  EXPECT_EQ(message(parse_move(start, "h2e3", Notation::kIccs)), "no legal move matches ICCS move \"h2e3\" in " + fen);
  EXPECT_EQ(message(parse_move(start, "h2", Notation::kIccs)),
            "bad ICCS move \"h2\" in " + fen + ": expected a file a-i and a rank 0-9 twice, as in \"h2e2\" or \"H2-E2\"");
  // Two chariots on file 9 can both advance one.
  const Position pairs = red_pairs();
  EXPECT_EQ(message(parse_move(pairs, "车九进一", Notation::kChinese)),
            "Chinese move \"车九进一\" in " + pairs.fen() + " is ambiguous: it matches a0a1, a3a4");
  EXPECT_EQ(message(parse_move(pairs, "R9+1", Notation::kWxf)),
            "WXF move \"R9+1\" in " + pairs.fen() + " is ambiguous: it matches a0a1, a3a4");
  // A soldier numbered beyond five, a front mark with no second piece on the file.
  EXPECT_NE(message(parse_move(start, "六兵平五", Notation::kChinese)).find("numbered beyond 5"), std::string::npos);
  for (const char* junk : {"", "\xff\xfe\xfd\xfc", "ＣＣＣＣＣ", "C2.", "++++", "前前前前", "h2e2e"})
    for (const Notation n : {Notation::kIccs, Notation::kWxf, Notation::kChinese}) {
      const Result<Move> m = parse_move(start, junk, n);
      EXPECT_FALSE(m.ok()) << junk;
      if (!m.ok()) {
        EXPECT_EQ(m.error().code(), ErrorCode::InvalidInput);
      }
    }
  EXPECT_EQ(message(parse_move(start, "前炮平五", Notation::kChinese)),
            "no legal move matches Chinese move \"前炮平五\" in " + fen);
}

// Every legal move of many positions, written in several styles, reads back to itself: the
// conventions never write an ambiguous text.
TEST(XiangqiNotation, EveryLegalMoveWrittenReadsBack) {
  std::vector<Position> positions = {red_pairs(),
      board({{"e0", 'K'}, {"d9", 'k'}, {"c5", 'P'}, {"c6", 'P'}, {"c7", 'P'}, {"g5", 'P'}, {"g6", 'P'}}),
      board({{"e0", 'K'}, {"f9", 'k'}, {"c5", 'P'}, {"c6", 'P'}, {"c7", 'P'}, {"c8", 'P'}, {"c9", 'P'}}),
      board({{"e0", 'K'}, {"d0", 'A'}, {"d2", 'A'}, {"c0", 'B'}, {"c4", 'B'}, {"f9", 'k'}}),
      board({{"d0", 'K'}, {"e9", 'k'}, {"c3", 'p'}, {"c4", 'p'}, {"c2", 'p'}, {"b9", 'r'}, {"b6", 'r'}}, 'b')};
  for (const std::vector<std::string>& game : games_of("wukong_iccs.pgn")) {
    Position pos;
    for (const std::string& text : game) {
      positions.push_back(pos);
      pos.play(parse_move(pos, text, Notation::kIccs).value());
    }
  }
  const NotationStyle styles[] = {kDefault, kBefore, kNumbered, with([](NotationStyle& s) {
                                    s.tandem = TandemPlace::kAfter;
                                    s.tandem_advisor_elephant = Toggle::kYes;
                                    s.wxf_width = Width::kFullWidth;
                                    s.wxf_sideways = Sideways::kNone;
                                  }),
                                  with([](NotationStyle& s) {
                                    s.tandem_file = Toggle::kYes;
                                    s.encoding = Encoding::kGb18030;
                                    s.wxf_width = Width::kFullWidth;
                                  }),
                                  with([](NotationStyle& s) {
                                    s.tandem_file = Toggle::kYes;
                                    s.encoding = Encoding::kBig5;
                                    s.tandem = TandemPlace::kAfter;
                                  })};
  int checked = 0;
  for (const Position& pos : positions)
    for (const Move m : legal_moves(pos))
      for (const Notation n : {Notation::kWxf, Notation::kChinese})
        for (const NotationStyle& style : styles) {
          const std::string text = write_move(pos, m, n, style);
          const Result<Move> back = parse_move(pos, text, n);
          ASSERT_TRUE(back.ok()) << back.error().to_string();
          ASSERT_EQ(*back, m) << text << " in " << pos.fen();
          ++checked;
        }
  EXPECT_GT(checked, 100000) << checked;
}

}  // namespace
}  // namespace pgnarc::rules::xiangqi
