// The PGN reader and writer: tolerances, located errors with resynchronisation, streaming with
// tiny buffers and truncation, compressed input, and parse -> write -> parse round trips.
#include <zlib.h>
#include <zstd.h>

#include <filesystem>

#include "support/pgn_util.h"

namespace pgnarc {
namespace {

using test::read_all;
using test::ReadGame;

std::vector<std::string> sans(const Game& g) {
  auto start = start_position(g.tags);
  EXPECT_TRUE(start.ok());
  GameWalker w(*start);
  std::vector<std::string> out;
  for (const GameEvent& e : g.events) {
    if (e.type == GameEvent::kMove) out.push_back(w.current().san(e.move));
    if (e.type == GameEvent::kNullMove) out.push_back("--");
    EXPECT_TRUE(w.step(e).ok());
  }
  return out;
}

const ReadGame& only(const std::vector<ReadGame>& games) {
  EXPECT_EQ(games.size(), 1u);
  static const ReadGame empty;
  return games.empty() ? empty : games[0];
}

// ----- Tolerances -------------------------------------------------------------------------------

TEST(PgnRead, SevenTagRosterAndMoves) {
  const auto g = only(read_all("[Event \"E\"]\n[Site \"S\"]\n[White \"W\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n"));
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_EQ(g.game.tags.size(), 4u);
  EXPECT_EQ(g.game.tags[2], (Tag{"White", "W"}));
  EXPECT_EQ(sans(g.game), (std::vector<std::string>{"e4", "e5", "Nf3"}));
  EXPECT_EQ(g.game.result, GameResult::kWhiteWins);
}

TEST(PgnRead, ByteOrderMarkCrLfLoneCrAndTabs) {
  for (const std::string text : {"\xEF\xBB\xBF[Event \"x\"]\r\n\r\n1.\te4\te5\r\n2. Nf3 *\r\n",
                                 "[Event \"x\"]\r\r1. e4\re5 2. Nf3 *\r",
                                 "[Event\t\"x\"]\n\n1.e4 e5 2.Nf3 *"}) {
    const auto g = only(read_all(text));
    ASSERT_TRUE(g.ok) << g.error;
    EXPECT_EQ(g.game.tags, (std::vector<Tag>{{"Event", "x"}}));
    EXPECT_EQ(sans(g.game), (std::vector<std::string>{"e4", "e5", "Nf3"}));
    EXPECT_EQ(g.game.result, GameResult::kUnknown);
  }
}

TEST(PgnRead, MoveNumbersInAnyStyle) {
  for (const std::string text : {"1. e4 e5 2. Nf3 Nc6 *", "1.e4 e5 2.Nf3 Nc6 *", "1. e4 1... e5 2. Nf3 2... Nc6 *",
                                 "1 . e4 1 ... e5 2 . Nf3 2 ... Nc6 *", "1.e4 1...e5 2.Nf3 2..Nc6 *",
                                 "e4 e5 Nf3 Nc6 *", "1. e4 e5 7. Nf3 Nc6 *", "1. e4 1. ...e5 2. Nf3 2. ...Nc6 *",
                                 "1. e4 ...e5 2. Nf3 ..Nc6 *"}) {
    const auto g = only(read_all(text));
    ASSERT_TRUE(g.ok) << text << ": " << g.error;
    EXPECT_EQ(sans(g.game), (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6"})) << text;
  }
}

TEST(PgnRead, MissingBlankLinesAndMissingResults) {
  const auto games = read_all("[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4\n[Event \"c\"]\n[Site \"s\"]\n1. c4 1/2-1/2");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(sans(games[0].game), std::vector<std::string>{"e4"});
  EXPECT_EQ(games[1].game.result, GameResult::kNone);
  EXPECT_EQ(sans(games[1].game), std::vector<std::string>{"d4"});
  EXPECT_EQ(games[2].game.tags.size(), 2u);
  EXPECT_EQ(games[2].game.result, GameResult::kDraw);
}

TEST(PgnRead, ConsecutiveTagOnlyGamesSplitAtARepeatedTagName) {
  // Broadcast exports: games with tags only, later ones without [Event]; a ChessBase export with
  // a blank line inside the tag section stays one game.
  const auto games = read_all("[Event \"CB\"]\n\n[Date \"2017\"]\n[Round \"1\"]\n\n1. e4 0-1\n\n"
                              "[Event \"E\"]\n[Round \"1.1\"]\n\n[Round \"1.2\"]\n[White \"w\"]\n\n[Round \"1.3\"]\n");
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(games[0].game.tags.size(), 3u);
  EXPECT_EQ(games[0].game.events.size(), 1u);
  EXPECT_EQ(games[1].game.tags, (std::vector<Tag>{{"Event", "E"}, {"Round", "1.1"}}));
  EXPECT_EQ(games[2].game.tags, (std::vector<Tag>{{"Round", "1.2"}, {"White", "w"}}));
  EXPECT_EQ(games[3].game.tags, (std::vector<Tag>{{"Round", "1.3"}}));
}

TEST(PgnRead, TagsWithoutMovesAndMovesWithoutTags) {
  const auto games = read_all("[Event \"only tags\"]\n[Result \"*\"]\n\n[Event \"next\"]\n\n1. e4 *\n\n1. d4 d5 0-1\n");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_TRUE(games[0].game.events.empty());
  EXPECT_EQ(games[0].game.result, GameResult::kNone);
  EXPECT_EQ(games[1].game.tags, (std::vector<Tag>{{"Event", "next"}}));
  EXPECT_TRUE(games[2].game.tags.empty());
  EXPECT_EQ(sans(games[2].game), (std::vector<std::string>{"d4", "d5"}));
  EXPECT_EQ(games[2].game.result, GameResult::kBlackWins);
}

TEST(PgnRead, TagValuesEscapedAndByteExact) {
  const auto g = only(read_all("[A \"b\\\"\"] [B \"A]][\"] [C \"\\\"A]][\\\"\\\\\"]\n[L \"M\xFCller \xE9\"]\n[U \"\xC3\xBC\"]\n*"));
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_EQ(g.game.tags, (std::vector<Tag>{{"A", "b\""}, {"B", "A]]["}, {"C", "\"A]][\"\\"},
                                           {"L", "M\xFCller \xE9"}, {"U", "\xC3\xBC"}}));
}

// A tag value written without escapes, though it holds a quote or a backslash, is read as it is
// written and says so (Tag::unescaped), so that write_pgn gives its bytes back: quotes left
// unescaped, a closing quote after a stray backslash, a backslash that escapes nothing (Big5's
// 許, B3 5C, before the closing quote too). Values that escapes read are read so, and written
// with escapes.
TEST(PgnRead, TagValuesWrittenWithoutEscapesAreReadAndWrittenAsTheyAre) {
  struct Case {
    std::string line, value;
    bool unescaped;
    std::string written;  // the tag line write_pgn gives
  };
  const Case cases[] = {
      {"[White \"\"X\"\"]", "\"X\"", true, "[White \"\"X\"\"]"},
      {"[Event \"Tournament \"Championship\" Finals\"]", "Tournament \"Championship\" Finals", true,
       "[Event \"Tournament \"Championship\" Finals\"]"},
      {"[Site \"Club \\\"]", "Club \\", true, "[Site \"Club \\\"]"},
      {"[Site \"C:\\games\" ]", "C:\\games", true, "[Site \"C:\\games\"]"},
      {"[Red \"\xB3\x5C\xBB\xC8\"]", "\xB3\x5C\xBB\xC8", true, "[Red \"\xB3\x5C\xBB\xC8\"]"},
      {"[Red \"\xB3\x5C\"]", "\xB3\x5C", true, "[Red \"\xB3\x5C\"]"},
      {"[A \"b\\\"\"]", "b\"", false, "[A \"b\\\"\"]"},
      {"[S \"C:\\\\games\"]", "C:\\games", false, "[S \"C:\\\\games\"]"},
      {"[S \"a\\\\b\\c\"]", "a\\b\\c", false, "[S \"a\\\\b\\\\c\"]"},
  };
  for (const Case& c : cases) {
    const auto g = only(read_all(c.line + "\n[Black \"b\"]\n\n1. e4 *"));
    ASSERT_TRUE(g.ok) << c.line << ": " << g.error;
    ASSERT_EQ(g.game.tags.size(), 2u) << c.line;
    EXPECT_EQ(g.game.tags[0].value, c.value) << c.line;
    EXPECT_EQ(g.game.tags[0].unescaped, c.unescaped) << c.line;
    EXPECT_EQ(g.game.tags[1], (Tag{"Black", "b"}));
    std::string out;
    ASSERT_TRUE(write_pgn(g.game, out));
    EXPECT_TRUE(out.starts_with(c.written + "\n[Black \"b\"]\n")) << out;
  }
}

// Where no quote that a `]` follows ends a value on its line (or a `]` comes before one, which
// would take in the pairs after it), the tag pair is malformed: the game is an error, located at
// the byte where the pair went wrong, and its bytes are kept as they were.
TEST(PgnRead, TagValuesThatNoQuoteEndsAreErrors) {
  const std::string games[] = {"[White \"\"X\"\"y]\n\n1. e4 *", "[Event \"a\"b] [Site \"c\"]\n\n1. e4 *",
                               "[Event \"x\"]\n[Site \"Club \\\"x]\n\n1. e4 *"};
  const std::string where[] = {"t.pgn:1:10: game 1: bad tag pair [White]: text after the value's closing quote",
                               "t.pgn:1:11: game 1: bad tag pair [Event]: text after the value's closing quote",
                               "t.pgn:2:17: game 1: bad tag pair [Site]: the value has no closing quote on its line"};
  for (int i = 0; i < 3; ++i) {
    const auto g = only(read_all(games[i], 1 << 20, "t.pgn"));
    EXPECT_FALSE(g.ok) << games[i];
    EXPECT_TRUE(g.error.starts_with(where[i])) << g.error;
    EXPECT_EQ(g.raw, games[i]);
  }
}

TEST(PgnRead, CommentsNagsVariationsNullMovesEscapes) {
  const auto g = only(read_all(
      "%escape before\n{prelude}\n[Event \"x\"]\n\n{lead} 1. e4! {c1} $14 (1. d4 ?? ; rest of line\n d5 (1... Nf6 !?)) 1... "
      "e5 +- 2. -- Z0 3. Nf3 {a}{b} * {after}\n"));
  ASSERT_TRUE(g.ok) << g.error;
  using E = GameEvent;
  const Position start;
  const std::vector<GameEvent> want = {
      E::comment("lead"),
      E::make_move(*start.parse_san("e4")),
      E::make_nag(1),
      E::comment("c1"),
      E::make_nag(14),
      E::begin_variation(),
      E::make_move(*start.parse_san("d4")),
      E::make_nag(4),
      E::comment(" rest of line", CommentKind::kLine),
      E::make_move(Move(51, 35)),  // d5
      E::begin_variation(),
      E::make_move(Move(62, 45)),  // Nf6
      E::make_nag(5),
      E::end_variation(),
      E::end_variation(),
      E::make_move(Move(52, 36)),  // e5
      E::make_nag(18),
      E::null_move(),
      E::null_move(),
      E::make_move(Move(6, 21)),  // Nf3
      E::comment("a"),
      E::comment("b"),
  };
  EXPECT_EQ(g.game.events, want);
  EXPECT_EQ(g.game.prelude, (std::vector<Comment>{{CommentKind::kEscape, "escape before"}, {CommentKind::kBrace, "prelude"}}));
  EXPECT_EQ(g.game.epilogue, (std::vector<Comment>{{CommentKind::kBrace, "after"}}));
}

TEST(PgnRead, SetUpFenAndChess960) {
  auto g = only(read_all("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 *"));
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_EQ(sans(g.game), (std::vector<std::string>{"Kd7", "e4"}));
  g = only(read_all("[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n1. O-O *"));
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_EQ(g.game.events[0].move, Move(1, 7, Move::kCastling));  // king b1 takes rook h1
  g = only(read_all("[Variant \"fischerandom\"]\n\n1. e4 *"));
  EXPECT_TRUE(g.ok) << g.error;
  g = only(read_all("[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n\n1. O-O-O *"));
  ASSERT_TRUE(g.ok) << g.error;  // Chess960 inferred from the castling rights
  EXPECT_EQ(g.game.events[0].move, Move(1, 0, Move::kCastling));
}

// A board's fullmove counter is of 16 bits (it turns to 0 after 65535), the move numbers of the
// movetext are not: after 65535. comes 65536., on the main line and in a variation, as the
// movetext had them.
TEST(PgnWrite, MoveNumbersGoOnPast65535) {
  const std::string text =
      "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 65535\"]\n\n"
      "65535... Kd7 65536. Ke2 (65536. Kd2 Kc7 65537. Kc2) 65536... Ke7 65537. Ke3 *\n";
  const auto g = only(read_all(text));
  ASSERT_TRUE(g.ok) << g.error;
  std::string out;
  ASSERT_TRUE(write_pgn(g.game, out));
  EXPECT_NE(out.find("65535... Kd7 65536. Ke2 (65536. Kd2 Kc7 65537. Kc2) 65536... Ke7 65537. Ke3 *"),
            std::string::npos)
      << out;
  // The board's counter: 0 after Black's move at 65535 (5.5).
  auto start = start_position(g.game.tags);
  ASSERT_TRUE(start.ok());
  GameWalker w(*start);
  ASSERT_TRUE(w.step(g.game.events[0]).ok());
  EXPECT_EQ(w.current().fullmove_number(), 0);
}

TEST(PgnRead, EventsCarryLineAndColumn) {
  struct Recorder : PgnVisitor {
    std::vector<std::string> seen;
    void tag(std::string_view k, std::string_view, SourcePos p) override { add("tag " + std::string(k), p); }
    void move(const Position& b, Move m, SourcePos p) override { add("move " + b.san(m), p); }
    void comment(std::string_view t, CommentKind, SourcePos p) override { add("comment " + std::string(t), p); }
    void nag(int n, SourcePos p) override { add("nag " + std::to_string(n), p); }
    void begin_variation(SourcePos p) override { add("(", p); }
    void end_variation(SourcePos p) override { add(")", p); }
    void result(GameResult r, SourcePos p) override { add(std::string("result ") + result_text(r), p); }
    void add(const std::string& what, SourcePos p) {
      seen.push_back(what + " @" + std::to_string(p.line) + ":" + std::to_string(p.column));
    }
  } rec;
  PgnReader reader(memory_input("\n[Event \"x\"]\r\n\r\n1. e4 {hi}\r\n  (1. d4 $2) e5 *\n"), "t.pgn");
  ASSERT_TRUE(*reader.next(rec));
  EXPECT_EQ(rec.seen, (std::vector<std::string>{"tag Event @2:1", "move e4 @4:4", "comment hi @4:7", "( @5:3",
                                                "move d4 @5:7", "nag 2 @5:10", ") @5:12", "move e5 @5:14",
                                                "result * @5:17"}));
}

// ----- Errors and resynchronisation ---------------------------------------------------------------

struct ErrorCase {
  std::string text;
  std::string message;  // the whole message of the error of game 2
};

TEST(PgnErrors, LocatedAndTheNextGamesAreStillRead) {
  const std::string before = "[Event \"1\"]\n\n1. e4 e5 *\n\n";
  const std::string after = "\n\n[Event \"3\"]\n\n1. d4 *\n";
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const ErrorCase cases[] = {
      {"[Event \"2\"]\n\n1. e4 e5 2. Ke3 *",
       "f.pgn:7:13: game 2: illegal move \"Ke3\" in position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
      {"[Event \"2\"]\n[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *",
       "f.pgn:8:4: game 2: ambiguous move \"Nd2\" (Nbd2, Nfd2) in position 4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"},
      {"[Event \"2\"]\n\n1. e4 {never closed e5 2. Nf3 *", "f.pgn:7:7: game 2: comment opened here is never closed"},
      {"[Event \"2\"]\n\n1. e4 (1. d4 d5 2. c4 e5 *", "f.pgn:7:26: game 2: game termination marker * inside a variation"},
      {"[Event \"2\"]\n\n1. e4 (1. d4 d5", "f.pgn:7:16: game 2: variation not closed at the end of the game"},
      {"[Event 2]\n\n1. e4 *", "f.pgn:5:1: game 2: bad tag pair [Event]: the value must be in quotes"},
      {"[Event \"2]\n\n1. e4 *", "f.pgn:5:11: game 2: bad tag pair [Event]: the value has no closing quote on its line"},
      {"[Event \"2\"]\n\n1. e4 ) *", "f.pgn:7:7: game 2: ')' without a matching '('"},
      {"[Event \"2\"]\n\n( 1. e4 ) *", "f.pgn:7:1: game 2: variation '(' with no move before it to replace"},
      {"[Event \"2\"]\n\n1. e4 $300 *", "f.pgn:7:7: game 2: bad NAG \"$300\": must be $0 to $255"},
      {"[Event \"2\"]\n\n1. N@f3 *", "f.pgn:7:4: game 2: unreadable move \"N@f3\" in position " + start},
      {"[Event \"2\"]\n[Variant \"Seirawan\"]\n\n1. e4 *",
       "f.pgn:8:1: game 2: variant \"Seirawan\" is not one pgnarc knows the rules of"},
      {"[Event \"2\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Q@f3 *",
       "f.pgn:8:13: game 2: illegal move \"Q@f3\" in position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"},
      {"[Event \"2\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *",
       "f.pgn:8:1: game 2: bad FEN \"8/8/8 w - - 0 1\": field 1 (piece placement): expected 8 ranks, found 3"},
  };
  for (const ErrorCase& c : cases) {
    const auto games = read_all(before + c.text + after, 1 << 20, "f.pgn");
    ASSERT_EQ(games.size(), 3u) << c.text;
    EXPECT_TRUE(games[0].ok);
    EXPECT_FALSE(games[1].ok) << c.text;
    EXPECT_EQ(games[1].error, c.message);
    EXPECT_EQ(games[1].raw, c.text) << "the raw text of the bad game is exactly its bytes";
    EXPECT_TRUE(games[2].ok) << c.text << ": " << games[2].error;
    EXPECT_EQ(games[2].game.tags, (std::vector<Tag>{{"Event", "3"}}));
  }
}

TEST(PgnErrors, UnclosedCommentStopsAtTheNextGamesTags) {
  const auto games = read_all("[Event \"1\"]\n\n1. e4 {oops\n\n[Event \"2\"]\n[Site \"s\"]\n\n1. d4 *\n");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[0].ok);
  EXPECT_EQ(games[0].raw, "[Event \"1\"]\n\n1. e4 {oops");
  EXPECT_TRUE(games[1].ok);
  EXPECT_EQ(games[1].game.tags.size(), 2u);
}

TEST(PgnErrors, OneBadGameAmongManyLosesNothingElse) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "[Round \"" + std::to_string(i) + "\"]\n\n1. e4 " + (i == 17 ? "Qxh7 " : "") + "e5 *\n\n";
  const auto games = read_all(text);
  ASSERT_EQ(games.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(games[i].ok, i != 17);
    if (games[i].ok) EXPECT_EQ(*games[i].game.tag("Round"), std::to_string(i));
  }
}

// ----- Streaming ----------------------------------------------------------------------------------

TEST(PgnStream, TinyBuffersGiveTheSameGames) {
  for (const std::string& file : {test::corpus_path("pgn/annotated_human.pgn"), test::corpus_path("pgn/edge/pgn4web_test.pgn"),
                                  test::corpus_path("pgn/dortmund_latin1_crlf.pgn")}) {
    const std::string text = test::read_file(file);
    const auto whole = read_all(text);
    ASSERT_GT(whole.size(), 5u);
    for (std::size_t chunk = 1; chunk <= 8; ++chunk) EXPECT_EQ(read_all(text, chunk), whole) << file << " chunk " << chunk;
  }
}

TEST(PgnStream, TruncationNeverCrashesAndKeepsEveryCompleteGame) {
  const std::string text = test::read_file(test::corpus_path("pgn/twic_events.pgn")).substr(0, 8000);
  const auto whole = read_all(text);
  for (std::size_t cut = 0; cut <= text.size(); cut += 7) {
    const auto part = read_all(text.substr(0, cut), 3);
    // Games whose successor's tags begin before the cut are complete: they must be read exactly.
    std::size_t complete = 0;
    for (std::size_t next = text.find("\n[Event ", 1); next != std::string::npos && next < cut;
         next = text.find("\n[Event ", next + 1))
      ++complete;
    ASSERT_GE(part.size(), complete) << "cut at " << cut;
    for (std::size_t i = 0; i < complete; ++i) ASSERT_EQ(part[i], whole[i]) << "cut at " << cut;
  }
}

std::string zstd_compress(const std::string& s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3));
  return out;
}

std::string gzip_compress(const std::string& s) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, s.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(PgnStream, ZstdAndGzipDetectedByMagicBytes) {
  const std::string text = test::read_file(test::corpus_path("pgn/twic_events.pgn"));
  const auto plain = read_all(text);
  ASSERT_GT(plain.size(), 50u);
  const std::string half1 = text.substr(0, text.size() / 2), half2 = text.substr(text.size() / 2);
  for (const std::string& packed : {zstd_compress(text), gzip_compress(text), zstd_compress(half1) + zstd_compress(half2),
                                    gzip_compress(half1) + gzip_compress(half2)}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{1} << 20})
      EXPECT_EQ(read_all(decompressing_input(std::make_unique<test::ChunkedSource>(packed, chunk), "x").value()), plain);
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// A comment still open at the end of the input is one unreadable game, whatever the read size:
// the splitter must not end the game before the '{', where it would find an empty game again and
// again (found by fuzz_pgn and fuzz_roundtrip).
TEST(PgnErrors, CommentOpenAtEndOfInputIsOneBadGame) {
  for (const std::string text : {"1. e4 -- {. d6 -- 3. c4 *\n", "1. e4 e5 2. Nf3 { never closed\n\n  ",
                                 "[Event \"x\"]\n\n1. d4 {"}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{1} << 20}) {
      const auto games = read_all(text, chunk);
      ASSERT_EQ(games.size(), 1u) << text;
      EXPECT_FALSE(games[0].ok);
      EXPECT_EQ(games[0].raw, text.substr(0, text.find_last_not_of(" \n") + 1));
      EXPECT_NE(games[0].error.find("never closed"), std::string::npos) << games[0].error;
    }
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// Text with only move numbers is an unreadable game, not an empty one: an empty game writes as
// nothing and would vanish on a round trip (found by fuzz_pgn).
TEST(PgnErrors, MoveNumbersAloneAreNotAGame) {
  const auto games = read_all("[Event \"a\"]\n\n1. e4 *\n\n1 0.\n\n[Event \"b\"]\n\n1. d4 *\n");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_TRUE(games[0].ok);
  EXPECT_FALSE(games[1].ok);
  EXPECT_EQ(games[1].raw, "1 0.");
  EXPECT_NE(games[1].error.find("no tags, moves, comments or result"), std::string::npos) << games[1].error;
  EXPECT_TRUE(games[2].ok);
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// A game without tags has no prelude: a comment before its first move belongs to the movetext,
// with or without a move number before it, so that the game written and read again is the same
// game (found by fuzz_pgn).
TEST(PgnRead, GameWithoutTagsHasNoPrelude) {
  for (const std::string text : {"1. ;note\n e4 *", "{c} 1. e4 *", "%esc\n{c}\n1. e4 *"}) {
    const auto g = only(read_all(text));
    ASSERT_TRUE(g.ok) << g.error;
    EXPECT_TRUE(g.game.prelude.empty()) << text;
    EXPECT_EQ(g.game.events.front().type, GameEvent::kComment) << text;
    EXPECT_EQ(only(read_all(test::write_all({g}))).game, g.game) << text;
  }
  const auto with_tags = only(read_all("{c}\n[Event \"x\"]\n\n1. e4 *"));
  EXPECT_EQ(with_tags.game.prelude.size(), 1u);
}

}  // namespace
}  // namespace pgnarc
