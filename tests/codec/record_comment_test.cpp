// Record comments (format specification 8.3.3): the exact bytes of the specification's example,
// byte-exact round trips of engine reports and of edited ones, what stays text, and damaged
// records rejected.
#include <random>

#include "support/codec_util.h"
#include "codec/entropy/arith_coder.h"
#include "codec/record/comment_record.h"
#include "common/bytes.h"

namespace pgnarc {
namespace {

using namespace test;

// [REC-RCD-4] [MOVE-SYM-3] The specification's example (8.3.3), with the uniform coder: the
// structure and texts bytes it gives, and the codeword made of the symbols it lists, worked here
// by hand: the plies, then ply 1's record (three new fields: 40, 9 and 5 as zigzag 80, 18, 10:
// each a width of 65 symbols at frequency 1, then the bits below the top one), then ply 2's (9;
// the run's length 2 as zigzag 4; e5 the only hint, symbol 0 of (1, 1); Nf3 without hints, index
// 13 of the 29 legal moves).
TEST(RecordBytes, SpecificationExample) {
  const Game g = parse_one("1. e4 {+0.40/9 0.5s} e5 {d=9, pv=e5 Nf3}");
  codec::CodecStreams s;
  s.coder = codec::MoveCoder::kUniform;
  ASSERT_TRUE(codec::encode_game(g, s).ok());
  EXPECT_EQ(hex(s.structure), "08 02 00 02 01 06 00 01 06 00");
  EXPECT_EQ(s.texts, std::string("\x09\x04\x0c/\x04\x02 \x04\x03s"
                                 "\x0b" "d=\x04\x02, pv=\x02\x02"));
  const std::vector<codec::PlySymbol> symbols = {
      {13 * 4096, 4096, 20 * 4096}, {8 * 4096, 4096, 20 * 4096},         // e4, e5
      {7, 1, 65}, {16, 1, 64}, {5, 1, 65}, {2, 1, 16}, {4, 1, 65}, {2, 1, 8},  // +0.40 / 9 0.5
      {5, 1, 65}, {2, 1, 16}, {3, 1, 65}, {0, 1, 4},                      // d=9, the run's length
      {0, 1, 2}, {13 * 4096, 4096, 29 * 4096},                            // e5 (the hint), Nf3
  };
  std::string bytes;
  std::uint64_t bits = 0;
  codec::put_codeword(symbols, bytes, bits);
  EXPECT_EQ(hex(s.moves), hex(bytes));
  EXPECT_EQ(s.move_bits, bits);
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw, codec::MoveCoder::kUniform};
  auto d = codec::decode_game(c, {});
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->game, g);
}

// Engine reports in the forms engines write them, and texts at the edges of the split, come back
// byte for byte; those with a value are records, the others text.
TEST(RecordRoundTrip, FormsComeBackByteForByte) {
  const std::vector<std::string> records = {
      " d=27, pd=Nf6, mt=00:06:16, tl=01:54:13, s=22597 kN/s, n=8512418665, pv=Ng1 Nf6 Nf3, tb=0, wv=0.02, ",
      "d=24, sd=24, mt=40510, tl=1762490, s=0, n=0, pv=Ng1, tb=null, h=0.0, mb=+0+0-1+0+0,",
      "+0.45/23 12s", "-0.45/9 0.023s", "0.22/24 400 (Ng1)", "-0.00", "007", "+0", "1234567890123456789",
      "123456789012345678", "1.12345678", "0:60:00 10:00:00 00:00:00 9999999999:59:59", "x=-5 y=+5 z=5.",
      "book 1\r\n2", "\xe9t\xe9 3", "Ng1Nf6 Ng1 3", "pv=Ng1 Nf6 Nf3 d=3", "a 1 b 2 c 3 d 4 e 5 f 6 g 7 h 8",
      "R50=50, Rd=-1000", std::string("zero\0byte 1", 11), "one\x01" "byte 2", "M1 -M28 #3",
  };
  const std::vector<std::string> texts = {"", "book", "White wins by adjudication", "x\x02 1", "\x03", "d=\x04 "};
  std::vector<std::string> all = records;
  all.insert(all.end(), texts.begin(), texts.end());
  const Game g = knights_with_comments(all);
  const codec::CodecStreams s = encode(g);
  expect_decodes_to(s, g);
  const std::vector<int> types = item_types(s);
  ASSERT_EQ(types.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(types[i], i < records.size() ? 6 : 0) << all[i];
}

// Cutechess writes `+0.40` and `-0.45` in one shape: the negative number takes the sign style of
// the game's recent shape, so the game has one shape (one texts entry). A positive one written
// without a sign is another shape.
TEST(RecordRoundTrip, NegativeNumbersTakeTheRecentSignStyle) {
  const Game g = knights_with_comments({"+0.40/9 0.5s", "-0.45/9 0.7s", "+0.55/10 0.2s", "-1.45/9 0.1s"});
  const codec::CodecStreams s = encode(g);
  expect_decodes_to(s, g);
  EXPECT_EQ(s.texts, std::string("\x09\x04\x0c/\x04\x02 \x04\x03s"));
  const Game h = knights_with_comments({"0.40/9 0.5s", "-0.45/9 0.7s", "+0.55/10 0.2s"});
  const codec::CodecStreams t = encode(h);
  expect_decodes_to(t, h);
  EXPECT_EQ(t.texts, std::string("\x09\x04\x04/\x04\x02 \x04\x03s"
                                 "\x09\x04\x0c/\x04\x02 \x04\x03s"));
}

// Runs of moves: from the position after the ply (pd, a reply in brackets) or before it (pv), at
// the first slot, after a null move and in a variation; runs stop at an illegal or non-canonical
// token, and a token followed by a letter is text.
TEST(RecordRoundTrip, Runs) {
  // Runs of both kinds in shapes: `{(Nc6)}` from after the ply, `{pv=Bb5 ...}` from before it.
  const codec::CodecStreams s = encode(parse_one("1. e4 e5 2. Nf3 {(Nc6)} Nc6 3. Bb5 {pv=Bb5 a6 Bxc6} *"));
  EXPECT_EQ(s.texts, std::string("\x04(\x02\x03)\x05pv=\x02\x02"));
  expect_round_trips({
      "{e4 e5 Nf3} 1. e4 {pv=e4 e5 Nf3 Nc6, pd=e5} e5 {pv=e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7} "
      "2. Nf3 {(Nc6)} Nc6 (2... d6 {pv=d6 d4 exd4, e4e5 Nxd4}) 3. Bb5 {pv=Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4 Qxd4 "
      "Qxd4 Nxd4} a6 4. Ba4 -- {pv=Nf6} 5. O-O {Ba4Nf6 Ba4 Nf6x Ba4 N1f3} *",
      "[Variant \"fischerandom\"]\n[FEN \"rknqbbrn/pppppppp/8/8/8/8/PPPPPPPP/RKNQBBRN w KQkq - 0 1\"]\n"
      "[SetUp \"1\"]\n\n1. Ng3 {pv=Ng3 Ng6 d4 d5 e3 a5 a4 e6 Nd3 b6 b3 Nd6 Be2 Be7 Bc3 Bc6 f3 f6 Qd2 Qd7 Ka2 Kb7 Bb2 "
      "Nf7 f4, tb=0} e6 {pv=e6 a4 a5 Ra2 d5 d4 Ng6 e3 Nb6 Nb3 Bxa4} *",
      "1. e4 {d=1} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {pv=Qxf7#} 1-0",
  });
}

// Random edits of engine reports (bytes inserted, deleted or replaced: digits, letters, spaces,
// signs, points, colons, marks) come back byte for byte, and most stay records.
TEST(RecordRoundTrip, RandomEditsFallBackCleanly) {
  const std::string report =
      " d=27, pd=Nf6, mt=00:06:16, tl=01:54:13, s=22597 kN/s, n=8512418665, pv=Ng1 Nf6 Nf3 Ng8, tb=0, R50=50, "
      "wv=0.02, ";
  const std::string alphabet = std::string("0123456789 ,.:=+-/NfgK#xabcdeO") + '\x02' + '\x03' + '\x04' + '\0';
  std::mt19937_64 rng(31);
  int records = 0, comments = 0;
  for (int round = 0; round < 60; ++round) {
    std::vector<std::string> texts;
    for (int k = 0; k < 16; ++k) {
      std::string t = report;
      for (int e = static_cast<int>(rng() % 4); e > 0; --e) {
        const std::size_t at = rng() % (t.size() + 1);
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0: t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), c); break;
          case 1: if (at < t.size()) t.erase(at, 1); break;
          default: if (at < t.size()) t[at] = c;
        }
      }
      if (t.find('}') != std::string::npos) t.erase(t.find('}'));
      texts.push_back(t);
    }
    const Game g = knights_with_comments(texts);
    const codec::CodecStreams s = encode(g);
    expect_decodes_to(s, g);
    for (int type : item_types(s)) {
      records += type == 6;
      ++comments;
    }
  }
  EXPECT_GT(records, comments * 3 / 4);
}

// [REC-RCD-2] A game's records hold at most 2^18 shape bytes, values and run moves: the writer
// keeps the comments past that as text, and the game comes back.
TEST(RecordRoundTrip, WorkLimitKeepsTheRestAsText) {
  std::string many;
  for (int i = 0; i < 1024; ++i) many += "1 ";
  const Game g = knights_with_comments(std::vector<std::string>(70, many));
  const codec::CodecStreams s = encode(g);
  expect_decodes_to(s, g);
  const std::vector<int> types = item_types(s);
  ASSERT_EQ(types.size(), 70u);
  // Each record counts its shape's 3072 bytes and its 1024 values: 64 of them reach 2^18; the
  // last six are text.
  for (std::size_t i = 0; i < types.size(); ++i) ASSERT_EQ(types[i], i < 64 ? 6 : 0) << i;
}

// [REC-RCD-2] A reader rejects the record that takes a game past 2^18: records written by a model
// without the limit read back up to it, and the next fails. (One record naming a long shape
// again and again, in a byte each, would otherwise make a long text of a few bytes.)
TEST(RecordCorrupt, WorkLimitIsEnforcedWhenReading) {
  codec::RecordSplit r;
  const codec::model::LineState start{};
  ASSERT_TRUE(codec::split_record(std::string(4000, '=') + " 1", nullptr, start.pos, r));
  const std::uint64_t cost = r.shape.size() + r.values.size();  // 4003 + 1
  const std::uint64_t fit = codec::kMaxGameRecordWork / cost;
  codec::RecordModel unlimited(codec::MoveCoder::kModel, ~std::uint64_t{0});
  std::vector<codec::PlySymbol> symbols;
  for (std::uint64_t k = 0; k <= fit; ++k) unlimited.encode(r, nullptr, start, symbols);
  std::string bytes;
  std::uint64_t bits = 0;
  codec::put_codeword(symbols, bytes, bits);
  codec::ArithDecoder in;
  in.start(bytes, 0);
  codec::RecordModel reader(codec::MoveCoder::kModel);
  for (std::uint64_t k = 0; k < fit; ++k) {
    std::string text;
    const char* why = nullptr;
    ASSERT_TRUE(reader.decode(r.shape, nullptr, start, in, text, why)) << k;
    ASSERT_EQ(text, std::string(4000, '=') + " 1");
  }
  std::string text;
  const char* why = nullptr;
  EXPECT_FALSE(reader.decode(r.shape, nullptr, start, in, text, why));
  EXPECT_NE(why, nullptr);
}

// Damaged records are rejected as Corruption: a shape rank past the recent shapes, a format out
// of range, a shape that ends after a mark or has no value, a codeword that ends inside the
// values (REC-RCD-1, REC-RCD-3).
TEST(RecordCorrupt, DamageIsRejected) {
  const Game g = parse_one("1. e4 {d=9} e5 {d=8} *");
  const codec::CodecStreams s = encode(g);
  ASSERT_EQ(hex(s.structure), "0c 02 00 02 01 06 00 01 06 01");
  ASSERT_EQ(s.texts, std::string("\x04" "d=\x04\x02"));
  codec::CodecStreams bad = s;
  bad.structure[9] = 2;
  expect_corrupt(bad, {}, "a rank past the game's one shape");
  bad = s;
  bad.texts[4] = '\xf2';
  expect_corrupt(bad, {}, "a number's format byte above 241");
  bad = s;
  bad.texts[4] = '\x12';
  expect_corrupt(bad, {}, "sign style 2 on a positive number");
  bad = s;
  bad.texts = std::string("\x03" "d=\x04");
  expect_corrupt(bad, {}, "a shape ending after its mark");
  bad = s;
  bad.texts = std::string("\x02" "d=");
  expect_corrupt(bad, {}, "a shape without values");
  bad = s;
  bad.structure[6] = 1;
  expect_corrupt(bad, {}, "a first record naming a shape before any");
  // A time value of 10^12 seconds or more: the shape's number made a time, its value the same.
  const Game big = parse_one("1. e4 {999999999999999} *");
  codec::CodecStreams t = encode(big);
  ASSERT_EQ(t.texts[1], '\x04');
  t.texts[1] = '\x03';
  expect_corrupt(t, {}, "a time of 10^15 seconds");
}

}  // namespace
}  // namespace pgnarc
