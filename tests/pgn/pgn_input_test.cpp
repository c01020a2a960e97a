// Hostile input to the PGN reader: what is not PGN text is refused before it is parsed, a game
// cannot grow without bound, many tags cost linear time, and messages quote input escaped.
#include <zstd.h>

#include "support/pgn_util.h"

namespace pgnarc {
namespace {

using test::ChunkedSource;
using test::read_all;

std::string zstd_frame(const std::string& s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3));
  return out;
}

// A skippable frame (magic 0x184D2A50 + n, little-endian), as pzstd writes before each frame.
std::string skippable_frame(unsigned n, const std::string& payload) {
  std::string out = {static_cast<char>(0x50 + n), 0x2A, 0x4D, 0x18};
  for (int i = 0; i < 4; ++i) out += static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
  return out + payload;
}

Result<std::unique_ptr<ByteSource>> open_bytes(const std::string& data, std::size_t chunk, const std::string& path = "x.pgn") {
  return pgn_input(std::make_unique<ChunkedSource>(data, chunk), path);
}

std::string error_of(const std::string& data, const std::string& path = "x.pgn") {
  auto r = open_bytes(data, 7, path);
  if (r) return "";
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidInput);
  return r.error().message();
}

std::string utf16le(const std::string& ascii) {
  std::string out;
  for (char c : ascii) out += std::string{c, '\0'};
  return out;
}

const std::string kGame = "[Event \"e\"]\n[White \"M\xFCller\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";

TEST(PgnInput, WhatIsNotPgnTextIsRefusedWithTheCommandThatWouldReadIt) {
  const std::string text = kGame + kGame;
  struct Case {
    std::string bytes, path, says;
  };
  const Case cases[] = {
      {std::string("BZh91AY&SY") + std::string(30, '\x01'), "x.pgn.bz2",
       "x.pgn.bz2 is bzip2-compressed, not PGN; make it PGN through a pipe: bzip2 -dc x.pgn.bz2 | pgnarc pack - -o x.pga"},
      {std::string("\xFD" "7zXZ\0\0\x04", 8) + "junk", "dir/a b.pgn.xz",
       "dir/a b.pgn.xz is xz-compressed, not PGN; make it PGN through a pipe: xz -dc 'dir/a b.pgn.xz' | pgnarc pack - -o 'a b.pga'"},
      {std::string("\x5D\0\0\x80\0", 5) + "junk", "-",
       "standard input is lzma-compressed, not PGN; make it PGN through a pipe: xz -dc | pgnarc pack - -o OUT.pga"},
      {std::string("\x04\x22\x4D\x18") + "junk", "x.lz4", "lz4 -dc x.lz4"},
      {std::string("7z\xBC\xAF\x27\x1C") + "junk", "x.7z", "7z x -so x.7z"},
      {std::string("PK\x03\x04") + "junk", "x.zip", "unzip -p x.zip"},
      {std::string("\x89PGA\r\n\x1A\n") + std::string(100, '\0'), "a.pga",
       "a.pga is a pgnarc archive, not PGN: archives are joined with pgnarc merge -o OUT.pga a.pga"},
      {"\xFF\xFE" + utf16le(text), "w.pgn", "w.pgn is UTF-16 text, not PGN; make it PGN through a pipe: iconv -f UTF-16 -t UTF-8 w.pgn"},
      {"\xFE\xFF" + utf16le(text).substr(1) + '\0', "w.pgn", "iconv -f UTF-16 -t UTF-8"},
      {utf16le(text), "w.pgn", "w.pgn is UTF-16LE text"},
      {'\0' + utf16le(text), "w.pgn", "w.pgn is UTF-16BE text"},
      {std::string("\xFF\xFE\0\0", 4) + "x", "w.pgn", "w.pgn is UTF-32 text"},
      {kGame + std::string("\0", 1) + kGame, "b.pgn", "b.pgn is binary data (a NUL byte at offset 55), not PGN text"},
      {std::string(100, '\x01') + kGame, "b.pgn", "b.pgn is binary data (100 of its first 155 bytes are control characters)"},
      {zstd_frame(std::string(5000, '\x02')), "z.pgn.zst", "z.pgn.zst decompresses to binary data"},
      {zstd_frame(std::string("\x89PGA\r\n\x1A\n") + std::string(100, '\0')), "z.pga.zst",
       "z.pga.zst decompresses to a pgnarc archive, not PGN text"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(c.bytes, c.path);
    EXPECT_TRUE(e.starts_with(c.says) || (e.find(c.says) != std::string::npos && !e.empty())) << e << "\nwant: " << c.says;
  }
}

TEST(PgnInput, PgnTextIsAccepted) {
  // Plain, with a UTF-8 byte-order mark, Latin-1, with a stray control byte, empty, and after a
  // NUL beyond the bytes that are judged (that game is kept verbatim).
  const std::string far = std::string(kSniffBytes, ' ') + "1. e4 \x01\0 *";
  for (const std::string& text : {kGame, "\xEF\xBB\xBF" + kGame, kGame + "{\x1B[0m}\n*\n", std::string(), far,
                                   zstd_frame(kGame)}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{1} << 20}) {
      auto src = open_bytes(text, chunk);
      ASSERT_TRUE(src.ok()) << src.error().message();
      EXPECT_EQ(read_all(std::move(*src)), read_all(text == zstd_frame(kGame) ? kGame : text));
    }
  }
}

// Before: the run of binary bytes after the first kSniffBytes was read as games kept verbatim.
TEST(PgnInput, BinaryDataAfterTheJudgedBytesIsRefusedWhereItStands) {
  const std::string text = std::string(kSniffBytes, ' ') + kGame;  // 4096 + 55 bytes, 5 lines
  std::string random;
  std::uint32_t x = 12345;
  for (int i = 0; i < 50000; ++i) random += static_cast<char>((x = x * 1103515245u + 12345u) >> 24);
  const std::string controls("ab", 10);
  for (const std::string& tail : {random, std::string(8, '\0'), controls}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{1} << 20}) {
      auto src = open_bytes(text + tail, chunk);
      ASSERT_TRUE(src.ok()) << "the first kSniffBytes are text";
      PgnReader reader(std::move(*src), "b.pgn");
      GameBuilder b;
      Result<bool> got = true;
      std::uint64_t games = 0;
      while (got.ok() && *got) games += (got = reader.next(b)).ok() && *got;
      ASSERT_FALSE(got.ok()) << "games: " << games;
      EXPECT_EQ(got.error().code(), ErrorCode::InvalidInput);
      const std::string& m = got.error().message();
      EXPECT_TRUE(m.starts_with("b.pgn:6:") || m.starts_with("b.pgn:7:")) << m;
      EXPECT_NE(m.find(": binary data at offset "), std::string::npos) << m;
      EXPECT_NE(m.find("not PGN text"), std::string::npos) << m;
      EXPECT_LE(games, 1u) << m;
    }
  }
  // The error names the last byte of the run: the 8th control byte, at offset 4151 + 9, line 6,
  // column 10.
  auto src = open_bytes(text + controls, 3);
  PgnReader reader(std::move(*src), "b.pgn");
  GameBuilder b;
  Result<bool> got = true;
  while (got.ok() && *got) got = reader.next(b);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message(), "b.pgn:6:10: binary data at offset 4160 (8 NUL or control bytes close together), not PGN text");
}

// Text as real files have it: stray NUL or control bytes (a real file ends a game with two NULs),
// and every byte 0x80-0xFF (Latin-1, CP1252, UTF-8), are read as before.
TEST(PgnInput, StrayControlBytesAndEightBitTextAreNotBinary) {
  std::string high;
  for (int c = 0x80; c < 0x100; ++c) high += static_cast<char>(c);
  using namespace std::string_literals;
  const std::string text = std::string(kSniffBytes, ' ') + kGame + "[Event \"" + high + "\"]\r\n\r\n1. d4 0-1\0\0\r\n"s +
                           std::string(100, ' ') + "{\x01 \x02}" + std::string(40, ' ') + "\x03\x04 *\n";
  for (std::size_t chunk : {std::size_t{1}, std::size_t{1} << 20}) {
    auto src = open_bytes(text, chunk);
    ASSERT_TRUE(src.ok());
    // kGame, and the game with 0x80-0xFF, which runs on past "0-1\0\0" (not a result word) to "*".
    const auto games = read_all(std::move(*src));
    ASSERT_EQ(games.size(), 2u);
    EXPECT_TRUE(games[0].ok);
    EXPECT_EQ(games[1].raw, text.substr(kSniffBytes + kGame.size(), text.size() - kSniffBytes - kGame.size() - 1));
  }
}

// Before: a ^Z after the last game (as DOS editors and TWIC leave it) was a game kept verbatim.
TEST(PgnInput, DosEndOfFileAfterTheLastGameIsNotAGame) {
  for (const std::string& end : {std::string("\x1A"), std::string("\r\n\x1A"), std::string("\x1A\r\n \x1A\n")}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{1} << 20}) {
      PgnReader reader(std::make_unique<test::ChunkedSource>(kGame + kGame + end, chunk), "t.pgn");
      GameBuilder b;
      std::uint64_t games = 0;
      for (Result<bool> got = true; got.ok() && *got;) {
        got = reader.next(b);
        ASSERT_TRUE(got.ok());
        if (*got) {
          EXPECT_TRUE(b.ok()) << b.error().message();
          ++games;
        }
      }
      EXPECT_EQ(games, 2u);
      EXPECT_EQ(reader.trailing_eof_markers(), static_cast<std::uint64_t>(std::count(end.begin(), end.end(), '\x1A')));
    }
  }
  // Followed by more text, a ^Z is part of what follows (kept verbatim, not dropped).
  const auto games = read_all(kGame + "\x1A 1. e4 *\n");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[1].ok);
}

// Before: the tags after a malformed one were not reported, so a verbatim game was not found by them.
TEST(PgnErrors, TagsAfterAMalformedOneAreStillRead) {
  const std::string one_line = "[White \"A\"] [Bad \"\"X\"\"y] [Black \"b\"]\n\n1. e4 *\n";
  const std::string lines = "[White \"A\"]\n[Bad \"\"X\"\"y]\n[Site \"C:\\\"x]\n[Black \"b\"]\r\n[Round \"1\"]\n\n1. e4 *\n";
  for (const std::string& text : {one_line, lines}) {
    GameBuilder b;
    parse_game(text, "t.pgn", 1, SourcePos{1, 1}, b);
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message().find("bad tag pair [Bad]"), std::string::npos) << b.error().message();
    EXPECT_EQ(b.raw_text(), text);
    const Game& g = b.game();
    ASSERT_TRUE(g.tag("White") && g.tag("Black")) << text;
    EXPECT_EQ(*g.tag("White"), "A");
    EXPECT_EQ(*g.tag("Black"), "b");
    EXPECT_EQ(g.tags.size(), text == lines ? 3u : 2u) << "the malformed pairs are not read";
  }
}

// pzstd writes a skippable frame before each zstd frame; a stream may also begin with one.
TEST(PgnInput, ZstdSkippableAndManyFramesAreRead) {
  const std::string text = test::read_file(test::corpus_path("pgn/twic_events.pgn"));
  const std::string a = text.substr(0, text.size() / 3), b = text.substr(text.size() / 3);
  const std::string packed = skippable_frame(0, "\x10\x00\x00\x00") + zstd_frame(a) + skippable_frame(15, "") +
                             zstd_frame(b) + skippable_frame(7, std::string(300, 'x'));
  const auto want = read_all(text);
  ASSERT_GT(want.size(), 50u);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{1} << 20}) {
    auto src = open_bytes(packed, chunk, "x.pgn.zst");
    ASSERT_TRUE(src.ok()) << src.error().message();
    EXPECT_EQ(read_all(std::move(*src)), want);
    EXPECT_EQ(read_all(decompressing_input(std::make_unique<ChunkedSource>(packed, chunk), "x").value()), want);
  }
}

// Endless bytes of moves with no result: one game that never ends.
class EndlessMoves : public ByteSource {
 public:
  explicit EndlessMoves(std::string lead = "") : lead_(std::move(lead)) {}
  Result<std::size_t> read(char* buf, std::size_t n) override {
    if (given_ >= kCap) return std::size_t{0};  // a bound, so that a reader without a limit fails rather than hangs
    static const std::string kLine = "1. Nf3 Nf6 2. Ng1 Ng8\n";
    std::size_t k = 0;
    for (; k < n; ++k, ++given_) {
      const std::size_t at = static_cast<std::size_t>(given_);
      buf[k] = at < lead_.size() ? lead_[at] : kLine[(at - lead_.size()) % kLine.size()];
    }
    return k;
  }
  static constexpr std::uint64_t kCap = 4 * kMaxGameBytes;
  std::uint64_t given_ = 0;

 private:
  std::string lead_;
};

TEST(PgnLimits, AGameLongerThanTheLimitStopsTheReaderBeforeItIsBuffered) {
  auto src = std::make_unique<EndlessMoves>(kGame + kGame);
  EndlessMoves* endless = src.get();
  PgnReader reader(std::move(src), "y.pgn");
  PgnReader::RawGame g;
  ASSERT_TRUE(reader.next_raw(g).value());
  ASSERT_TRUE(reader.next_raw(g).value());
  auto third = reader.next_raw(g);
  ASSERT_FALSE(third.ok()) << "a game of " << g.text.size() << " bytes was read";
  EXPECT_EQ(third.error().code(), ErrorCode::InvalidInput);
  EXPECT_TRUE(third.error().message().starts_with("y.pgn:11:1: game 3: longer than 16 MiB")) << third.error().message();
  EXPECT_LE(endless->given_, kMaxGameBytes + (4u << 20)) << "read on past the limit";
}

TEST(PgnLimits, ALongGameWithinTheLimitIsRead) {
  std::string text = "[Event \"long\"]\n\n{" + std::string(kMaxGameBytes - 100, 'c') + "} *\n";
  const auto games = read_all(text);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].ok) << games[0].error;
}

// The splitter looks up each tag name once (a repeated name begins the next game), in a hash
// set: 200,000 tags cost milliseconds where a list search cost minutes.
TEST(PgnLimits, TagsPerGameAreLimitedAndCostLinearTime) {
  const auto tags = [](std::size_t n) {
    std::string t;
    for (std::size_t i = 0; i < n; ++i) t += "[T" + std::to_string(i) + " \"v\"]\n";
    return t + "\n1. e4 *\n";
  };
  const auto at_limit = read_all(tags(kMaxGameTags));
  ASSERT_EQ(at_limit.size(), 1u);
  EXPECT_TRUE(at_limit[0].ok) << at_limit[0].error;
  for (std::size_t n : {kMaxGameTags + 1, std::size_t{200000}}) {
    const std::string text = tags(n);
    const auto over = read_all(text, 1 << 20, "t.pgn");
    ASSERT_EQ(over.size(), 1u);
    EXPECT_FALSE(over[0].ok);
    EXPECT_EQ(over[0].error, "t.pgn:1025:1: game 1: more than 1024 tag pairs, the most one game may have");
    EXPECT_EQ(over[0].raw + "\n", text) << "kept as it was";
  }
}

TEST(PgnErrors, MessagesQuoteInputWithControlBytesEscaped) {
  EXPECT_EQ(printable(std::string("a\x1B[2Jb\r\n\t\0\x7F\xFF\xC3\xBC\xC2\x9B\xE2\x82\xAC\xED\xA0\x80", 22)),
            "a\\x1b[2Jb\\r\\n\\t\\0\\x7f\\xff\xC3\xBC\\xc2\\x9b\xE2\x82\xAC\\xed\\xa0\\x80");
  const std::string once = printable("\x1B\\x1b\xC0\xAF");
  EXPECT_EQ(once, "\\x1b\\x1b\\xc0\\xaf");
  EXPECT_EQ(printable(once), once);
  const auto games = read_all(std::string("[Event \"e\"]\n\n1. e4 \x1BZ\x07\r e5 *\n"), 1 << 20, "t\x1B.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].error, "t\\x1b.pgn:3:7: game 1: unreadable move \"\\x1bZ\\x07\" in position "
                            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

}  // namespace
}  // namespace pgnarc
