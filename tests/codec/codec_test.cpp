// The move codec: exact bytes, round trips of random and real games, canonical output, and
// rejection of damaged records.
#include <functional>

#include "support/codec_util.h"
#include "support/pgn_util.h"
#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"
#include "codec/codec.h"
#include "codec/record/decode_game_with_hints.h"
#include "common/bytes.h"
#include "pgn/write_pgn_with_hints.h"

namespace pgnarc {
namespace {

using test::read_all;
using namespace test;

// The game of `pgn` coded: its structure stream is `structure` (hex bytes), its texts stream
// `texts`, and it decodes back to itself. Returns the streams.
codec::CodecStreams expect_coded(const char* pgn, const char* structure, std::string_view texts = {}) {
  const Game g = parse_one(pgn);
  const codec::CodecStreams s = encode(g);
  EXPECT_EQ(hex(s.structure), structure) << pgn;
  EXPECT_EQ(s.texts, texts) << pgn;
  expect_decodes_to(s, g);
  return s;
}

// [MOVE-AC-1] An annotated line stores its ply count, so its symbols are the moves alone. With
// the uniform coder each of the 20 legal moves has frequency 4096 of 81920: 1. e4 is index 13
// (b1a3 b1c3 g1f3 g1h3 a2a3 a2a4 ... e2e3 e2e4), 1... e5 index 8 (a7a5 a7a6 ... e7e5: the double
// step has the lower target square). Worked by hand (format specification, 12.1): e4 gives
// r = 52428, the interval [2791686144, 3006431231], bits 1 0 1; e5 gives r = 20971, bits 0 1
// and three pending doublings; the end is 0 then four 1s: 1010101111.
TEST(CodecBytes, TwoPlies) {
  codec::CodecStreams s;
  s.coder = codec::MoveCoder::kUniform;
  const Game g = parse_one("1. e4 e5 {c}");
  ASSERT_TRUE(codec::encode_game(g, s).ok());
  EXPECT_EQ(s.move_bits, 10u);
  EXPECT_EQ(hex(s.moves), "ab c0");
  // Header annotated; 2 plies; no nulls, no track; 1 item: slot 2, brace comment.
  EXPECT_EQ(hex(s.structure), "08 02 00 01 02 00");
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw, codec::MoveCoder::kUniform};
  auto d = codec::decode_game(c, g.tags);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->game, g);
  EXPECT_EQ(c.move_bit, 2);
  EXPECT_EQ(c.moves.size(), 1u);
}

// [MOVE-SYM-2] A game of moves only has no ply count: its symbols end with the end of the line,
// and the codeword is read to exactly there, however many bits follow it. Every move here is the
// first of the canonical order (b1a3, a7a5, a1b1, a8a6).
TEST(CodecBytes, UnannotatedLineEndsItself) {
  Game g;
  Position p;
  for (int i = 0; i < 4; ++i) {
    g.events.push_back(GameEvent::make_move(p.move_at(0)));
    p.play(p.move_at(0));
  }
  g.result = GameResult::kUnknown;
  for (codec::MoveCoder coder : {codec::MoveCoder::kUniform, codec::MoveCoder::kModel}) {
    codec::CodecStreams s;
    s.coder = coder;
    ASSERT_TRUE(codec::encode_game(g, s).ok());
    EXPECT_EQ(hex(s.structure), "04");  // result * = 4, nothing else
    const std::uint64_t bits = s.move_bits;
    for (const char* after : {"", "\xff\xff\xff\xff\xff", "\x00\x00\x00\x00\x00"}) {
      std::string moves = s.moves;
      std::uint64_t n = bits;
      for (const char* b = after; *b; ++b)
        for (int k = 7; k >= 0; --k) codec::BitSink{moves, n}.put((static_cast<unsigned char>(*b) >> k) & 1u);
      codec::CodecCursor c{moves, s.structure, s.texts, s.raw, coder};
      auto d = codec::decode_game(c, g.tags);
      ASSERT_TRUE(d.ok()) << d.error().to_string();
      EXPECT_EQ(d->game, g);
      EXPECT_EQ((moves.size() - c.moves.size()) * 8 + c.move_bit, bits);
    }
  }
  // No moves at all: still the end symbol (a codeword of a few bits).
  codec::CodecStreams s;
  ASSERT_TRUE(codec::encode_game(Game{}, s).ok());
  EXPECT_GT(s.move_bits, 0u);
  auto d = decode(s, {});
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->game.events.empty());
}

// [REC-HDR-1] [MOVE-SYM-1] A main line counted by the game's PlyCount tag (header bit 6) codes
// no end, and an annotated one stores no ply count; the codeword is shorter than the same game's
// without the tag. A PlyCount that differs from the plies, or is not in its plain form, is not
// used; decoding a counted game without its PlyCount tag is an error.
TEST(CodecBytes, MainLinesCountedByPlyCount) {
  const Game plain = parse_one("1. e4 e5 2. Nf3 Nc6 3. Bb5 *");
  Game counted = plain;
  counted.tags.push_back(Tag{"PlyCount", "5"});
  const codec::CodecStreams a = encode(plain), b = encode(counted);
  EXPECT_EQ(hex(a.structure), "04");
  EXPECT_EQ(hex(b.structure), "44");  // * = 4, counted = 0x40
  EXPECT_LT(b.move_bits, a.move_bits);
  auto d = decode(b, counted.tags);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->game, counted);
  expect_corrupt(b, plain.tags, "counted without a PlyCount tag");

  // Annotated: header 0x4c (counted, annotated, *), then no ply count: the null-move byte first.
  Game annotated = parse_one("[PlyCount \"3\"]\n\n1. e4 {c} e5 2. Nf3 *");
  const codec::CodecStreams c = encode(annotated);
  EXPECT_EQ(hex(c.structure), "4c 00 01 01 00");
  d = decode(c, annotated.tags);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->game, annotated);

  for (const char* value : {"4", "05", "+5", "5 ", "99999"}) {
    Game other = plain;
    other.tags.push_back(Tag{"PlyCount", value});
    EXPECT_EQ(hex(encode(other).structure), "04") << value;
  }
}

// [REC-HDR-1] A result that the game's Result tag repeats is coded as the tag's (result field 5);
// a Result tag that differs from the marker, or is not one of the four tokens, leaves the marker
// coded as itself; decoding a result 5 without the tag is an error.
TEST(CodecBytes, ResultsTakenFromTheResultTag) {
  Game g = parse_one("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1");
  const codec::CodecStreams s = encode(g);
  EXPECT_EQ(hex(s.structure), "05");
  expect_decodes_to(s, g);
  expect_corrupt(s, {}, "result 5 without a Result tag");
  for (const char* tag : {"1-0", "*", "0-1 ", "1/2"}) {
    Game other = g;
    other.tags = {Tag{"Result", tag}};
    EXPECT_EQ(hex(encode(other).structure), "02") << tag;
  }
  Game none = parse_one("[Result \"*\"]\n\n1. e4");
  EXPECT_EQ(hex(encode(none).structure), "00");  // no marker: nothing to take from the tag
}

TEST(CodecBytes, AnnotatedGame) {
  const Game g = parse_one("[Event \"x\"]\n\n{c} 1. e4 $1 (1. d4) -- 1-0");
  const codec::CodecStreams s = encode(g);
  // Header 1-0|annotated; main line: 2 plies (e4 and the null move), 1 null at ply 1; 3 items:
  // comment at slot 0, NAG 1 at slot 1, variation at slot 1 (a line's null-move varint is
  // nulls * 2 + clock track, here 1 * 2 + 0). Variation line: 1 ply, no nulls, no clock track,
  // no items.
  EXPECT_EQ(hex(s.structure), "09 02 02 01 03 00 00 01 03 01 00 04 01 00 00");
  EXPECT_EQ(s.texts, std::string("\x01" "c", 2));
  expect_decodes_to(s, g);
}

// [REC-CLK-2] A canonical clock command in a brace comment is coded as a number: the first
// clock of each parity is its value, the next ones the difference (zigzag); the text around the
// command goes to the texts stream.
TEST(CodecBytes, ClockComments) {
  // Not every ply has a clock first (the third has another comment first), so the clocks are
  // items.
  const codec::CodecStreams s = encode(parse_one("1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 {x} {[%clk 0:00:58]} *"));
  // header 0x0c (result *, annotated); 3 plies; no null moves; no clock track; 4 items:
  // slot 1, type 5, zigzag(60) = 120; slot 2, type 5, 120; slot 3, brace comment; slot 3,
  // type 5, zigzag(58 - 60) = 3.
  EXPECT_EQ(hex(s.structure), "0c 03 00 04 01 05 78 01 05 78 01 00 00 05 03");
  EXPECT_EQ(hex(s.texts), "01 20 01 20 01 20 01 20 01 78 00 00");  // " " around twice, "x", then none
}

// [REC-CLK-3] When every ply of a line is followed first by a clock comment, the clocks form the
// line's clock track [REC-CLK-7]: the frames as runs (varint count, then varint
// (length - 1) * 16 + frame each), then per ply the clock's symbol zigzag(predicted - clock), one
// byte below 255. Frame 1 is the text " " before and after the command (lichess), 2 no text, 0
// two texts in the texts stream. Without a TimeControl tag the prediction is 0 for each
// player's first clock, then that player's previous clock.
TEST(CodecBytes, ClockTrack) {
  // header 0x0c; 3 plies; 0 null moves * 2 + track 1; 3 runs of one ply: frames 1, 2, 0; symbols
  // zigzag(0 - 60) = 119 = 77 twice, zigzag(60 - 58) = 4 (texts " think " and " "); then 1
  // item: slot 3, NAG 1.
  expect_coded("1. e4 { [%clk 0:01:00] } e5 {[%clk 0:01:00]} 2. Nf3 $1 { think [%clk 0:00:58] } *",
               "0c 03 01 03 01 02 00 77 77 04 01 03 03 01", std::string("\x07 think \x01 ", 10));
}

// [REC-CLK-7] With [TimeControl "B+I"], each player's first clock is predicted as B and each
// later one as that player's previous clock plus I; a symbol of 255 or more is the byte 255 and
// a varint of the rest. One frame for the whole track is one run, the last, written as its frame
// alone (it runs to the line's end).
TEST(CodecBytes, ClockTrackPredictedFromTimeControl) {
  const Game g = parse_one("[TimeControl \"60+1\"]\n\n1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:00]} "
                           "2. Nf3 {[%clk 0:01:00]} Nc6 {[%clk 0:00:30]} 3. Bc4 {[%clk 3:00:00]} *");
  const codec::CodecStreams s = encode(g);
  // 5 plies. One run (the last) of frame 2: 02. Symbols: 60 - 60 = 0 twice;
  // (60 + 1) - 60 = 1: zigzag 2; (60 + 1) - 30 = 31: zigzag 62 = 3e; (60 + 1) - 10800 = -10739:
  // zigzag 21477 = 255 + 21222 = ff, varint e6 a5 01.
  EXPECT_EQ(hex(s.structure), "0c 05 01 01 02 00 00 02 3e ff e6 a5 01 00");
  expect_decodes_to(s, g);
  // The prediction is part of the code: the same bytes under other tags are other clocks.
  auto other = decode(s, {Tag{"TimeControl", "60+2"}});
  ASSERT_TRUE(other.ok()) << other.error().to_string();
  EXPECT_NE(other->game.events, g.events);
  // "B" alone is a base without increment.
  {
    Game h = g;
    h.tags = {Tag{"TimeControl", "60"}};
    Game with_plus = g;
    with_plus.tags = {Tag{"TimeControl", "60+0"}};
    EXPECT_EQ(encode(h).structure, encode(with_plus).structure);
    EXPECT_NE(encode(h).structure, s.structure);
  }
  // Values that are not "B+I" or "B" of 1 to 9 digits each predict from 0 and 0, like no tag.
  for (const char* tc : {"-", "60+", "+1", "1234567890+0", "60+1+1", "6O+1", "60+ 1"}) {
    Game h = g;
    h.tags = {Tag{"TimeControl", tc}};
    const codec::CodecStreams t = encode(h);
    Game bare = g;
    bare.tags.clear();
    EXPECT_EQ(t.structure, encode(bare).structure) << tc;
    auto back = decode(t, h.tags);
    ASSERT_TRUE(back.ok()) << tc;
    EXPECT_EQ(back->game, h) << tc;
  }
}

// [REC-CLK-3] Clocks with tenths or hundredths of a second (chess.com writes
// "{[%clk 0:02:59.9]}") form a track too: each entry's frame carries its precision (frame + 4 *
// digits), and its symbol is zigzag(predicted - clock) in its own units, the prediction (kept
// in hundredths) divided down. [TimeControl "180"] is a base of 180 seconds, no increment.
TEST(CodecBytes, ClockTrackWithFractions) {
  // 3 plies; track; 2 runs: 2 plies of frame 2 + 4 * 1 = 6: (2 - 1) * 64 + 6 = 46; 1 ply of
  // frame 2 + 4 * 2 = 10: 0a. Symbols: 1800 - 1800 = 0; 1800 - 1795 = 5: 0a; the first
  // player's 18000 hundredths + 0, less 17875: zigzag(125) = 250 = fa. No items, no texts.
  expect_coded("[TimeControl \"180\"]\n\n1. e4 {[%clk 0:03:00.0]} e5 {[%clk 0:02:59.5]} 2. Nf3 {[%clk 0:02:58.75]} *",
               "0c 03 01 02 46 0a 00 0a fa 00");
  // A fraction outside a track is a comment, byte for byte (clock items hold whole seconds);
  // forms with other digits stay text too.
  expect_round_trips({"1. e4 {[%clk 0:03:00.5]} e5 {x} {[%clk 0:03:00]} *",
                      "1. e4 {[%clk 0:03:00.]} e5 {[%clk 0:03:00.123]} *", "1. e4 {[%clk 0:03:00,5]} *"});
}

// [REC-CLK-3] Two-digit hours ("[%clk 01:30:00]", as boards and some servers write them) and
// elapsed move times ("[%emt 0:00:05]", as ChessBase writes them) form tracks too, each entry's
// frame carrying its form (precision + 3 * two-digit hours + 6 * elapsed time). An elapsed time
// (the time the move took, as a clock's symbol is) is predicted as 0; a clock from the same
// player's last clock (the base after an elapsed time).
TEST(CodecBytes, ClockTrackOfTwoDigitHoursAndElapsedTimes) {
  // 5 plies; track; 2 runs: 2 plies of frame 2 + 4 * 3 = 14, (2 - 1) * 64 + 14 = 78 = 4e; the
  // last of frame 2 + 4 * 6 = 26 = 1a. Symbols: 5400 - 5400 = 0 twice; the elapsed times
  // against 0: zigzag(-7) = 13 = 0d, zigzag(-5) = 09, zigzag(-9) = 17 = 11.
  expect_coded("[TimeControl \"5400+30\"]\n\n1. d4 {[%clk 01:30:00]} d5 {[%clk 01:30:00]} 2. c4 {[%emt 0:00:07]} "
               "e6 {[%emt 0:00:05]} 3. Nc3 {[%emt 0:00:09]} *",
               "0c 05 01 02 4e 1a 00 00 0d 09 11 00");
  // Hours of three digits with a leading zero, or of two digits as a clock item outside a track,
  // stay text.
  expect_round_trips({"1. e4 {[%clk 001:30:00]} e5 {[%clk 01:30:00]} *",
                      "1. e4 {[%clk 01:30:00]} e5 {x} {[%clk 01:30:00]} *",
                      "1. e4 {[%emt 0:00:05]} e5 {x} {[%emt 0:00:04]} *", "1. e4 {[%emt 00:00:05.25]} *"});
}

// The track is all or nothing: clocks on every ply but the last, a clock that comes after
// another comment, a ply whose comment is not a canonical clock, and a track in a variation
// while the main line has none: each line round-trips, and only full lines use the track.
TEST(CodecRoundTrip, ClockTrackOnlyWhereEveryPlyHasAClockFirst) {
  const char* games[] = {
      "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 *",
      "1. e4 { [%clk 0:01:00] } e5 {x} { [%clk 0:01:00] } *",
      "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:1:00] } *",
      "1. e4 e5 { [%clk 0:01:00] } (1... c5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:59] }) *",
      "1. e4 { [%clk 0:01:00] } -- { [%clk 0:01:00] } 2. d4 { [%clk 0:00:59] } { [%clk 0:00:58] } *",
      "1. e4 $1 $3 { [%clk 0:01:00] } { after } e5 $2 { [%clk 0:01:00] } (1... c5) *",
      "1. e4 { [%clk 0:01:00] } $1 e5 { [%clk 0:01:00] } *",
  };
  // (NAGs may come before a slot's clock, not right after it.)
  const bool main_line_track[] = {false, false, false, false, true, true, false};
  for (std::size_t i = 0; i < std::size(games); ++i) {
    const Game g = parse_one(games[i]);
    const codec::CodecStreams s = encode(g);
    auto d = decode(s, g.tags);
    ASSERT_TRUE(d.ok()) << games[i] << ": " << d.error().to_string();
    EXPECT_EQ(d->game, g) << games[i];
    // header, then the main line's plies and nulls * 2 + track
    std::string_view st = s.structure;
    common::ByteReader r(st);
    std::uint8_t header;
    std::uint64_t v;
    ASSERT_TRUE(r.u8(header) && r.varint(v) && r.varint(v));
    EXPECT_EQ(v & 1, main_line_track[i] ? 1u : 0u) << games[i];
  }
}

// [REC-CLK-5] lichess's analysed form, " [%eval E] " before a track's clock and " " after it,
// is frame 3: the evaluation follows the clock's symbol, zigzag(centipawns) * 2 or
// zigzag(mate) * 2 + 1.
TEST(CodecBytes, EvaluationInAClockTrack) {
  // 2 plies; one run (the last) of frame 3: 03; 77 (the clock), zigzag(17) * 2 = 68 = 44; 77,
  // zigzag(-3) * 2 + 1 = 11 = 0b.
  const codec::CodecStreams s =
      expect_coded("1. e4 { [%eval 0.17] [%clk 0:01:00] } e5 { [%eval #-3] [%clk 0:01:00] } *",
                   "0c 02 01 01 03 77 44 77 0b 00");
  // The skipper steps over the evaluation's varint too.
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
  ASSERT_TRUE(codec::skip_game(c, {}).ok());
  EXPECT_TRUE(c.structure.empty() && moves_consumed(c));
}

// Every evaluation text comes back byte for byte; only the forms lichess writes become numbers.
TEST(CodecRoundTrip, EvaluationsKeepTheirText) {
  const char* evals[] = {"0.17", "0.2",  "-1.0",  "0.0",  "#3",        "#-12",      "123456.78", "-0.05",
                         "0.20", "-0.0", "+0.5",  "1",    ".5",        "00.5",      "#0",        "#-0",
                         "#03",  "1.",   "0.1.2", "#1000", "1234567.0", "0.5] [%eval 1.0", "", "0.x"};
  const int canonical = 8;
  std::vector<std::string> comments;
  for (const char* e : evals) comments.push_back(std::string(" [%eval ") + e + "] [%clk 0:01:00] ");
  const Game g = knights_with_comments(comments);
  const codec::CodecStreams s = encode(g);
  expect_decodes_to(s, g);
  // The track: header, plies, nulls * 2 + 1, then the frame runs: the plies of frame 3 add up to the
  // evaluations in lichess's form.
  std::string_view st = s.structure;
  common::ByteReader r(st);
  std::uint8_t header;
  std::uint64_t v, runs;
  ASSERT_TRUE(r.u8(header) && r.varint(v) && r.varint(v) && v == 1 && r.varint(runs));
  std::uint64_t frames3 = 0, plies = 0;
  for (std::uint64_t i = 0; i < runs; ++i) {
    ASSERT_TRUE(r.varint(v));
    const std::uint64_t length = i + 1 == runs ? std::size(evals) - plies : (v >> 6) + 1;  // the last: to the end
    plies += length;
    if ((v & 63) == 3) frames3 += length;
  }
  EXPECT_EQ(plies, std::size(evals));
  EXPECT_EQ(frames3, static_cast<std::uint64_t>(canonical));
}

// [REC-CLK-6] A mate in 0 and an evaluation out of range are refused.
TEST(CodecDecode, RejectsBadEvaluations) {
  const Game g = parse_one("1. e4 { [%eval #2] [%clk 0:01:00] } *");
  const codec::CodecStreams good = encode(g);
  ASSERT_EQ(hex(good.structure), "0c 01 01 01 03 77 09 00");  // zigzag(2) * 2 + 1 = 9
  // (Evaluations need no tags: the skipper checks them too.)
  codec::CodecStreams s = good;
  s.structure[6] = 1;  // mate in 0
  expect_corrupt(s, g.tags, "mate in 0");
  s = good;
  s.structure = std::string("\x0c\x01\x01\x01\x03\x77\x80\x90\xbc\xfd\x02\x00", 12);  // zigzag(2e8 cp) * 2
  expect_corrupt(s, g.tags, "evaluation out of range");
}

// [REC-CLK-4] [REC-CLK-7] A track on a line without plies, a track cut short, frame runs that
// reach the line's end before the last run, a last run with a length, runs that repeat a frame,
// and a clock below zero are refused; all but the last (whose prediction needs the game's tags)
// by the skipper too.
TEST(CodecDecode, RejectsBadClockTracks) {
  const Game g = parse_one("1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } *");
  const codec::CodecStreams good = encode(g);
  ASSERT_EQ(hex(good.structure), "0c 02 01 01 01 77 77 00");
  const auto with = [&](const char* bytes, std::size_t n) {
    codec::CodecStreams s = good;
    s.structure = std::string(bytes, n);
    return s;
  };
  codec::CodecStreams s = with("\x0c\x02\x00\x01\x01\x01\x77\x00", 8);
  s.moves.clear();  // the line has no plies, yet a track
  s.move_bits = 0;
  expect_corrupt(s, g.tags, "track without plies");
  s = good;
  s.structure.resize(6);  // the second clock is missing
  expect_corrupt(s, g.tags, "track cut short");
  expect_corrupt(with("\x0c\x02\x01\x00\x77\x77\x00", 7), g.tags, "no runs");
  expect_corrupt(with("\x0c\x02\x01\x02\x42\x02\x77\x77\x00", 9), g.tags,
                 "a run that reaches the line's end before the last");
  expect_corrupt(with("\x0c\x02\x01\x01\x41\x77\x77\x00", 8), g.tags,
                 "a last run with a length");
  expect_corrupt(with("\x0c\x02\x01\x01\x31\x77\x77\x00", 8), g.tags,
                 "a frame of form 12");
  expect_corrupt(with("\x0c\x02\x01\x03\x01\x02\x01\x77\x77\x00", 10), g.tags,
                 "more runs than plies");
  expect_corrupt(with("\x0c\x02\x01\x02\x01\x01\x77\x77\x00", 9), g.tags,
                 "two runs of one frame");
  expect_corrupt(with("\x0c\x02\x01\x01\x01\x02\x77\x00", 8), g.tags,
                 "a clock of 0 - 1 seconds");
  expect_corrupt(with("\x0c\x02\x01\x01\x01\xff\xff\xff\xff\xff\xff\xff\x7f\x77\x00", 15), g.tags,
                 "a symbol beyond any clock");
}

// Comments that are not exactly a canonical clock command stay text, and every form comes back
// byte for byte.
TEST(CodecRoundTrip, ClockCommentsKeepTheirText) {
  const char* texts[] = {
      " [%clk 0:01:00] ",       "[%clk 0:00:00]",          " [%eval 0.2] [%clk 1:30:05] x",
      " [%clk 0:00:40.5] ",     " [%clk 0:1:00] ",          " [%clk 00:01:00] ",
      " [%clk 0:01:60] ",       " [%clk 0:60:00] ",         " [%clk 999999:59:59] ",
      " [%clk 1000000:00:00] ", " [%clk 10:00:00] [%clk 0:00:01] ", " [%clk  0:01:00] ",
      "[%clk 0:01:00",          " [%clk -0:01:00] ",        "[%clk 0:01:00]]",
      " [%CLK 0:01:00] ",       "",                          "[%clk ]",
  };
  const Game g = knights_with_comments(std::vector<std::string>(std::begin(texts), std::end(texts)));
  const codec::CodecStreams s = encode(g);
  expect_decodes_to(s, g);
  // The canonical ones (the first three, the 6-digit hour, the first of two commands, and a
  // command followed by a stray "]") are numbers: count type-5 items in the structure stream,
  // read the way the spec reads it.
  const std::vector<int> types = item_types(s);
  EXPECT_EQ(types.size(), std::size(texts));
  EXPECT_EQ(std::count(types.begin(), types.end(), 5), 6);
}

// A random walk of clocks (increments, long thinks, both players, a variation) round-trips.
TEST(CodecRoundTrip, RandomClocks) {
  std::uint64_t x = 12345;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  const char* moves[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  for (int game = 0; game < 200; ++game) {
    std::int64_t clock[2] = {static_cast<std::int64_t>(next() % 20000), static_cast<std::int64_t>(next() % 20000)};
    std::string pgn;
    for (int i = 0; i < 40; ++i) {
      if (i % 2 == 0) pgn += std::to_string(i / 2 + 1) + ". ";
      std::int64_t& c = clock[i % 2];
      c = std::max<std::int64_t>(0, c - static_cast<std::int64_t>(next() % 300) + static_cast<std::int64_t>(next() % 30));
      // A third of the games in tenths of a second (as chess.com writes them), some plies in
      // hundredths; a sixth with two-digit hours, some plies an elapsed time.
      char text[64];
      const long long sec = c / 10, tenths = c % 10;
      const char* command = game % 6 == 1 && i % 5 == 2 ? "emt" : "clk";
      if (game % 6 == 1)
        std::snprintf(text, sizeof text, "[%%%s %02lld:%02lld:%02lld]", command, sec / 3600, sec / 60 % 60, sec % 60);
      else if (game % 3 != 2)
        std::snprintf(text, sizeof text, " [%%clk %lld:%02lld:%02lld] ", sec / 3600, sec / 60 % 60, sec % 60);
      else if (i % 7 != 3)
        std::snprintf(text, sizeof text, "[%%clk %lld:%02lld:%02lld.%lld]", sec / 3600, sec / 60 % 60, sec % 60, tenths);
      else
        std::snprintf(text, sizeof text, "[%%clk %lld:%02lld:%02lld.%lld%lld]", sec / 3600, sec / 60 % 60, sec % 60,
                      tenths, static_cast<long long>(next() % 10));
      pgn += std::string(moves[i % 4]) + " {" + text + "} ";
      if (i == 20) pgn += "(21. Nh3 {" + std::string(text) + "}) ";  // instead of 21. Nf3
    }
    // Half the games with a time control (the track predicts from it), some of it far from the
    // clocks (symbols of 255 and more), some with the largest base and increment.
    std::string tags;
    if (game % 2 == 1) {
      const std::uint64_t base = game % 7 == 1 ? 999999999 : next() % 20000, inc = game % 7 == 1 ? 999999999 : next() % 60;
      tags = "[TimeControl \"" + std::to_string(base) + "+" + std::to_string(inc) + "\"]\n\n";
    }
    const Game g = parse_one(tags + pgn + "*");
    auto d = decode(encode(g), g.tags);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    ASSERT_EQ(d->game, g) << pgn;
  }
}

// The king captured after a null move in check: the game is coded, decodes, and a coded ply
// after the capture is refused (the side without its king has no legal move).
TEST(CodecRoundTrip, KingCaptureAfterNullMoveInCheck) {
  const Game g = parse_one("1. e4 f5 2. Qh5+ -- 3. Qxe8 *");
  codec::CodecStreams s = encode(g);
  expect_decodes_to(s, g);
  s.moves[0] = static_cast<char>(s.moves[0] + 1);  // one more ply than the line has moves for
  EXPECT_FALSE(decode(s, g.tags).ok());
}

// [REC-CLK-1] A clock comment below zero is refused.
TEST(CodecDecode, RejectsBadClocks) {
  // (The comment before the last clock keeps the clocks out of a clock track: they are type 5
  // items.)
  const Game g = parse_one("1. e4 { [%clk 0:00:05] } e5 { [%clk 0:00:05] } 2. Nf3 {x} { [%clk 0:00:01] } *");
  codec::CodecStreams s = encode(g);
  auto ok = decode(s, g.tags);
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(ok->game, g);
  s.structure.back() = 11;  // the third clock's difference: -4 -> -6, so 5 - 6 < 0
  auto d = decode(s, g.tags);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message().find("clock"), std::string::npos) << d.error().message();
  expect_corrupt(s, g.tags, "a clock item below zero");
}

TEST(CodecBytes, EncodingIsDeterministic) {
  for (const std::string& f : test::pgn_corpus_files()) {
    for (const auto& rg : read_all(test::read_file(f))) {
      if (!rg.ok) continue;
      const codec::CodecStreams a = encode(rg.game), b = encode(rg.game);
      ASSERT_EQ(a.moves, b.moves);
      ASSERT_EQ(a.structure, b.structure);
      ASSERT_EQ(a.texts, b.texts);
    }
  }
}

// Every readable game of the real samples (annotations included) round-trips; unreadable ones
// round-trip as raw records.
TEST(CodecRoundTrip, CorpusSamplesNothingLost) {
  int games = 0, raw = 0;
  for (const std::string& f : test::pgn_corpus_files()) {
    codec::CodecStreams s;
    const auto read = read_all(test::read_file(f));
    for (const auto& rg : read) {
      if (rg.ok) ASSERT_TRUE(codec::encode_game(rg.game, s).ok()) << f;
      else codec::encode_raw_game(rg.raw, s);
    }
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    for (const auto& rg : read) {
      auto d = codec::decode_game(c, rg.game.tags);
      ASSERT_TRUE(d.ok()) << f << ": " << d.error().to_string();
      ASSERT_EQ(d->raw, !rg.ok);
      if (rg.ok) EXPECT_EQ(d->game, rg.game) << f;
      else EXPECT_EQ(d->raw_text, rg.raw) << f;
      ++games;
      raw += !rg.ok;
    }
    EXPECT_TRUE(moves_consumed(c) && c.structure.empty() && c.texts.empty() && c.raw.empty()) << f;
  }
  EXPECT_GT(games, 450);
  EXPECT_GT(raw, 3);
}

// A random legal game: every move drawn uniformly from the legal moves.
Game random_moves_game(std::mt19937_64& rng, const std::string& fen, int max_plies) {
  Game g;
  if (!fen.empty()) g.tags.push_back({"FEN", fen});
  Position p = fen.empty() ? Position() : *Position::from_fen(fen);
  for (int i = 0; i < max_plies; ++i) {
    const MoveList moves = p.legal_moves();
    if (moves.size == 0) break;
    const Move m = moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size))];
    g.events.push_back(GameEvent::make_move(m));
    p.play(m);
  }
  return g;
}

// The SAN hints the decoder gives (codec/record/decode_game_with_hints.h) write the same PGN as write_pgn, which
// computes SAN on its own: checks, mates, disambiguation, variations, null moves, set-ups.
TEST(CodecHints, WriteTheSamePgnAsWritePgn) {
  int games = 0;
  std::vector<std::uint8_t> hints;
  for (const std::string& f : test::pgn_corpus_files()) {
    for (const auto& rg : read_all(test::read_file(f))) {
      if (!rg.ok) continue;
      codec::CodecStreams s;
      ASSERT_TRUE(codec::encode_game(rg.game, s).ok()) << f;
      codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
      auto d = codec::decode_game_with_hints(c, rg.game.tags, hints);
      ASSERT_TRUE(d.ok()) << f << ": " << d.error().to_string();
      std::string plain, hinted;
      ASSERT_TRUE(write_pgn(rg.game, plain).ok());
      ASSERT_TRUE(pgn::write_pgn_with_hints(d->game, hints, hinted).ok());
      ASSERT_EQ(hinted, plain) << f;
      ++games;
    }
  }
  EXPECT_GT(games, 450);
  // Random games: many checks, mates, promotions and pieces that need disambiguating.
  std::mt19937_64 rng(99);
  for (int i = 0; i < 3000; ++i) {
    const Game g = random_moves_game(rng, i % 3 ? "" : "r3k2r/1P4P1/8/2N1N3/8/2N1N3/1p4p1/R3K2R w KQkq - 0 1", 300);
    codec::CodecStreams s;
    ASSERT_TRUE(codec::encode_game(g, s).ok());
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    auto d = codec::decode_game_with_hints(c, g.tags, hints);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    std::string plain, hinted;
    ASSERT_TRUE(write_pgn(g, plain).ok());
    ASSERT_TRUE(pgn::write_pgn_with_hints(d->game, hints, hinted).ok());
    ASSERT_EQ(hinted, plain);
  }
}

// Long games give integers of thousands of bits: the decoder reads digits off short integers
// by a table of limb weights and off longer ones by division alone; both must give the moves.
TEST(CodecRoundTrip, IntegersLongerThanTheWeightTable) {
  std::mt19937_64 rng(77);
  std::size_t longest = 0;
  for (int i = 0; i < 12; ++i) {
    const Game g = random_moves_game(rng, "", 200 + 300 * i);
    codec::CodecStreams s;
    ASSERT_TRUE(codec::encode_game(g, s).ok());
    longest = std::max(longest, s.moves.size());
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    auto d = codec::decode_game(c, g.tags);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    ASSERT_EQ(d->game, g) << "game " << i;
  }
  // 64 limbs of 48 bits are 384 bytes; the longest game must go well past them.
  EXPECT_GT(longest, 600u);
}

TEST(CodecRoundTrip, MillionsOfRandomPlies) {
  std::mt19937_64 rng(2026);
  const std::vector<std::string> fens = {
      "",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  // castling both ways
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                            // en passant pins
      "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",                                    // promotions
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",    // Chess960
      "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",                     // Chess960 castling
      "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",               // 218 legal moves
      "k7/8/1Q6/8/8/8/8/7K b - - 0 1",                                        // one legal move...
  };
  long plies = 0;
  int castles = 0, en_passant = 0, promotions = 0, max_moves = 0, single = 0;
  for (int round = 0; plies < 1'200'000; ++round) {
    codec::CodecStreams s;
    std::vector<Game> games;
    for (int i = 0; i < 200; ++i) {
      games.push_back(random_moves_game(rng, fens[static_cast<std::size_t>(i) % fens.size()], 300));
      ASSERT_TRUE(codec::encode_game(games.back(), s).ok());
    }
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    for (const Game& g : games) {
      auto d = codec::decode_game(c, g.tags);
      ASSERT_TRUE(d.ok()) << d.error().to_string();
      ASSERT_EQ(d->game, g);
      Position p = *start_position(g.tags);
      for (const GameEvent& e : g.events) {
        const int n = p.legal_move_count();
        max_moves = std::max(max_moves, n);
        single += n == 1;
        castles += e.move.kind() == Move::kCastling;
        en_passant += e.move.kind() == Move::kEnPassant;
        promotions += e.move.kind() == Move::kPromotion;
        p.play(e.move);
        ++plies;
      }
    }
  }
  EXPECT_GT(castles, 100);
  EXPECT_GT(en_passant, 50);
  EXPECT_GT(promotions, 1000);
  EXPECT_EQ(max_moves, 218);
  EXPECT_GT(single, 100);
}

// [REC-HDR-1] Random games (from several starts, some with a null move, a comment or a
// variation) with PlyCount and Result tags that match, differ, repeat or are not in their plain
// form, in random order: each decodes to itself, and its header byte has bit 6 and result 5
// exactly where the first PlyCount and Result tags give the main line's plies and marker.
TEST(CodecRoundTrip, RandomGamesWithPlyCountAndResultTags) {
  std::mt19937_64 rng(30);
  const std::vector<std::string> fens = {"", "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", "k7/8/1Q6/8/8/8/8/7K b - - 0 1"};
  const GameResult results[] = {GameResult::kNone, GameResult::kWhiteWins, GameResult::kBlackWins, GameResult::kDraw,
                                GameResult::kUnknown};
  int counted = 0, tagged = 0;
  for (int round = 0; round < 20; ++round) {
    codec::CodecStreams s;
    std::vector<Game> games;
    std::vector<std::uint8_t> want;  // each game's expected header bits 6 and 0-2
    for (int i = 0; i < 100; ++i) {
      Game g = random_moves_game(rng, fens[rng() % fens.size()], static_cast<int>(rng() % 40));
      if (rng() % 4 == 0 && !g.events.empty()) g.events.insert(g.events.begin() + 1, GameEvent::comment("c"));
      std::uint64_t main = 0;
      for (const GameEvent& e : g.events) main += e.type == GameEvent::kMove;
      g.result = results[rng() % 5];
      std::vector<Tag> extra;
      const auto plies = [&](long long v) { return std::to_string(v); };
      switch (rng() % 7) {
        case 0: extra.push_back(Tag{"PlyCount", plies(static_cast<long long>(main))}); break;
        case 1: extra.push_back(Tag{"PlyCount", plies(static_cast<long long>(main) + 1)}); break;
        case 2: extra.push_back(Tag{"PlyCount", "0" + plies(static_cast<long long>(main))}); break;
        case 3: extra.push_back(Tag{"PlyCount", "x"}); extra.push_back(Tag{"PlyCount", plies(static_cast<long long>(main))}); break;
        case 4: extra.push_back(Tag{"PlyCount", rng() % 2 ? "65536" : "65537"}); break;
        default: break;
      }
      switch (rng() % 5) {
        case 0: extra.push_back(Tag{"Result", result_text(g.result)}); break;
        case 1: extra.push_back(Tag{"Result", result_text(results[rng() % 5])}); break;
        case 2: extra.push_back(Tag{"Result", "?"}); break;
        default: break;
      }
      std::shuffle(extra.begin(), extra.end(), rng);
      for (Tag& t : extra) g.tags.push_back(std::move(t));
      // The first PlyCount and Result tags decide, each in its plain form only.
      const Tag* pc = nullptr;
      const Tag* rt = nullptr;
      for (const Tag& t : g.tags) {
        if (!pc && t.key == "PlyCount") pc = &t;
        if (!rt && t.key == "Result") rt = &t;
      }
      const bool is_counted = pc && pc->value == std::to_string(main);
      const bool is_tagged = rt && g.result != GameResult::kNone && rt->value == result_text(g.result);
      counted += is_counted;
      tagged += is_tagged;
      want.push_back(static_cast<std::uint8_t>((is_counted ? 0x40 : 0) | (is_tagged ? 5 : static_cast<int>(g.result))));
      games.push_back(g);
      ASSERT_TRUE(codec::encode_game(g, s).ok());
    }
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    for (std::size_t i = 0; i < games.size(); ++i) {
      ASSERT_FALSE(c.structure.empty());
      EXPECT_EQ(static_cast<std::uint8_t>(c.structure[0]) & 0x47, want[i]) << i;
      auto d = codec::decode_game(c, games[i].tags);
      ASSERT_TRUE(d.ok()) << d.error().to_string();
      ASSERT_EQ(d->game, games[i]);
    }
  }
  EXPECT_GT(counted, 200);
  EXPECT_GT(tagged, 200);
}

TEST(CodecRoundTrip, RawGamesKeepTheirBytes) {
  codec::CodecStreams s;
  const std::string raw = "[Variant \"Crazyhouse\"]\r\n\r\n1. e4 e5 2. N@f3 \xFF *";
  codec::encode_raw_game(raw, s);
  auto d = decode(s, {});
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->raw);
  EXPECT_EQ(d->raw_text, raw);
}

TEST(CodecEncode, RejectsWhatItCannotRepresent) {
  Game g;
  g.events.push_back(GameEvent::make_move(Move(12, 36)));  // e2e5
  codec::CodecStreams s;
  EXPECT_FALSE(codec::encode_game(g, s).ok());
  EXPECT_TRUE(s.moves.empty() && s.structure.empty()) << "a failed encode leaves the streams untouched";
  g.events = {GameEvent::begin_variation(), GameEvent::end_variation()};
  EXPECT_FALSE(codec::encode_game(g, s).ok());
  g.events.clear();
  g.tags = {{"Variant", "Atomic"}};
  EXPECT_EQ(codec::encode_game(g, s).error().code(), ErrorCode::InvalidInput);
}

// Damaged records are Corruption, never a crash and never an exception.
TEST(CodecDecode, RejectsDamagedRecords) {
  const Game g = parse_one("{c} 1. e4 $1 (1. d4 d5) e5 2. Nf3 1-0");
  const codec::CodecStreams good = encode(g);
  auto expect_corrupt = [&](const codec::CodecStreams& s, const std::string& why) {
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    auto d = codec::decode_game(c, g.tags);
    ASSERT_FALSE(d.ok()) << why;
    EXPECT_EQ(d.error().code(), ErrorCode::Corruption) << why;
  };
  codec::CodecStreams s = good;
  s.structure[0] = static_cast<char>(s.structure[0] | 0x40);
  expect_corrupt(s, "reserved header bit");
  s = good;
  s.structure[0] = static_cast<char>((s.structure[0] & ~7) | 6);
  expect_corrupt(s, "reserved result");
  // A game's codeword is the only one of its symbols: any bit of it changed is refused or
  // decodes to other moves or another length (block checksums are what detect damage).
  for (std::uint64_t at = 0; at < good.move_bits; ++at) {
    s = good;
    s.moves[at / 8] = static_cast<char>(s.moves[at / 8] ^ (0x80 >> (at % 8)));
    codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
    auto d = codec::decode_game(c, g.tags);
    if (!d.ok()) continue;
    EXPECT_TRUE(!(d->game == g) || (s.moves.size() - c.moves.size()) * 8 + c.move_bit != good.move_bits) << at;
  }
  for (std::size_t cut = 0; cut < good.moves.size(); ++cut) {
    s = good;
    s.moves.resize(cut);
    expect_corrupt(s, "truncated moves at " + std::to_string(cut));
  }
  for (std::size_t cut = 0; cut < good.structure.size(); ++cut) {
    s = good;
    s.structure.resize(cut);
    expect_corrupt(s, "truncated structure at " + std::to_string(cut));
  }
  s = good;
  s.texts.resize(1);
  expect_corrupt(s, "truncated text");
  // Every single-bit change: an error or some game, never a crash or a hang; whatever decodes
  // is skipped to the same place.
  for (int which = 0; which < 3; ++which) {
    const std::size_t size = which == 0 ? good.moves.size() : which == 1 ? good.structure.size() : good.texts.size();
    for (std::size_t i = 0; i < size; ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        s = good;
        std::string& t = which == 0 ? s.moves : which == 1 ? s.structure : s.texts;
        t[i] = static_cast<char>(t[i] ^ (1 << bit));
        codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
        codec::CodecCursor skip{s.moves, s.structure, s.texts, s.raw};
        const Status skipped = codec::skip_game(skip, g.tags);
        auto d = codec::decode_game(c, g.tags);
        if (!d.ok()) {
          EXPECT_EQ(d.error().code(), ErrorCode::Corruption);
          continue;
        }
        ASSERT_TRUE(skipped.ok()) << which << " " << i << " " << bit << ": " << skipped.error().to_string();
        EXPECT_TRUE(skip.moves == c.moves && skip.move_bit == c.move_bit && skip.structure == c.structure &&
                    skip.texts == c.texts);
      }
    }
  }
}

}  // namespace
}  // namespace pgnarc

namespace pgnarc {
namespace {

// [REC-LINE-1] At most 2^16 plies per game, all lines together: a longer game is refused by the
// encoder (and so kept verbatim by pack), and a record claiming more is corrupt.
TEST(CodecLimits, AtMost65536PliesPerGame) {
  Game g;
  Position p;
  const Move cycle[4] = {*p.parse_san("Nf3"), Move(62, 45), Move(21, 6), Move(45, 62)};  // Nf3 Nf6 Ng1 Ng8
  for (int i = 0; i < 65536; ++i) g.events.push_back(GameEvent::make_move(cycle[i % 4]));
  codec::CodecStreams s;
  ASSERT_TRUE(codec::encode_game(g, s).ok());
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
  auto d = codec::decode_game(c, {});
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->game.mainline_plies(), 65536);
  g.events.push_back(GameEvent::make_move(cycle[0]));
  codec::CodecStreams t;
  EXPECT_EQ(codec::encode_game(g, t).error().code(), ErrorCode::InvalidInput);
  // A codeword of 65537 plies and the end, made by hand (the encoder refuses it), is corrupt;
  // so is an annotated line that claims 65537 plies.
  codec::CodecStreams forged;
  forged.structure = std::string(1, '\0');
  forged.coder = codec::MoveCoder::kUniform;
  {
    codec::ArithEncoder e(codec::BitSink{forged.moves, forged.move_bits});
    Position q;
    rules::PieceTargets t;
    codec::PlyFrequencies pf;
    for (int i = 0; i <= 65537; ++i) {
      rules::generate_targets(q, t);
      codec::ply_frequencies(codec::MoveCoder::kUniform, true, static_cast<std::uint64_t>(i), q, t, {}, pf);
      const codec::PlySymbol y = codec::symbol_of(pf, i == 65537 ? -1 : rules::index_in(q, t, cycle[i % 4]));
      e.encode(y.c, y.f, y.total);
      if (i < 65537) q.play(cycle[i % 4]);
    }
    e.finish();
  }
  codec::CodecCursor f{forged.moves, forged.structure, forged.texts, forged.raw, forged.coder};
  auto got = codec::decode_game(f, {});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code(), ErrorCode::Corruption);
  EXPECT_NE(got.error().message().find("65536"), std::string::npos) << got.error().message();
  codec::CodecStreams claims;
  claims.structure = std::string("\x08\x81\x80\x04\x00\x00", 6);  // annotated; 65537 plies; no nulls, no items
  codec::CodecCursor a{claims.moves, claims.structure, claims.texts, claims.raw};
  EXPECT_EQ(codec::decode_game(a, {}).error().code(), ErrorCode::Corruption);
  // Variations count towards the same budget.
  Game v;
  v.events.push_back(GameEvent::make_move(cycle[0]));
  for (int k = 0; k < 3; ++k) {
    v.events.push_back(GameEvent::begin_variation());
    for (int i = 0; i < 30000; ++i) v.events.push_back(GameEvent::make_move(cycle[i % 4]));
    v.events.push_back(GameEvent::end_variation());
  }
  codec::CodecStreams u;
  EXPECT_FALSE(codec::encode_game(v, u).ok());
}

}  // namespace
}  // namespace pgnarc
