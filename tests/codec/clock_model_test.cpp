// The clock model (8.3.4): modelled clock tracks round-trip in every form and at their limits,
// their worked example's bytes, the classes and their rests, and a reader's refusal of values
// out of range.
#include <random>

#include "support/codec_util.h"
#include "codec/codec.h"
#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"
#include "codec/record/clock_model.h"

namespace pgnarc {
namespace {

using namespace test;

codec::CodecStreams encode_modelled(const Game& g, codec::MoveCoder coder = codec::MoveCoder::kModel) {
  codec::CodecStreams s;
  s.coder = coder;
  s.modelled_tracks = true;
  auto st = codec::encode_game(g, s);
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
  return s;
}

codec::CodecCursor modelled_cursor(const codec::CodecStreams& s) {
  return codec::CodecCursor{s.moves, s.structure, s.texts, s.raw, s.coder, true, true};
}

void expect_modelled_round_trip(const Game& g, const std::string& what) {
  for (auto coder : {codec::MoveCoder::kUniform, codec::MoveCoder::kModel, codec::MoveCoder::kFast}) {
    const codec::CodecStreams s = encode_modelled(g, coder);
    codec::CodecCursor c = modelled_cursor(s);
    auto d = codec::decode_game(c, g.tags);
    ASSERT_TRUE(d.ok()) << what << ": " << d.error().to_string();
    EXPECT_EQ(d->game, g) << what;
    EXPECT_TRUE(moves_consumed(c) && c.structure.empty() && c.texts.empty()) << what;
  }
}

// Decoding `s` fails as Corruption whose message holds `why`; so does skipping it.
void expect_modelled_corrupt(const codec::CodecStreams& s, const std::vector<Tag>& tags, const char* why) {
  codec::CodecCursor c = modelled_cursor(s);
  auto d = codec::decode_game(c, tags);
  ASSERT_FALSE(d.ok()) << why;
  EXPECT_EQ(d.error().code(), ErrorCode::Corruption) << why;
  EXPECT_NE(d.error().message().find(why), std::string::npos) << d.error().message();
  codec::CodecCursor again = modelled_cursor(s);
  EXPECT_FALSE(codec::skip_game(again, tags).ok()) << why;
}

// [REC-CLK-8] The worked example of 8.3.4: the structure keeps the frame runs alone, the
// codeword the moves, then each slot's time and evaluation; the block takes codec 8.
TEST(ClockModelBytes, WorkedExample) {
  const Game g = parse_one(
      "[TimeControl \"60+0\"]\n\n1. e4 { [%eval 0.17] [%clk 0:01:00] } e5 { [%eval #-3] [%clk 0:00:58] } *");
  const codec::CodecStreams s = encode_modelled(g, codec::MoveCoder::kUniform);
  EXPECT_EQ(hex(s.structure), "0c 02 01 01 03 00");
  EXPECT_TRUE(s.texts.empty());
  EXPECT_EQ(s.codec(), codec::kModelledTracksCodec);
  // The same symbols by hand: the moves (13 and 8 of 20 alike), then slot 1's time and
  // evaluation, slot 2's time and mate.
  std::vector<codec::PlySymbol> symbols = {{13 * 4096, 4096, 20 * 4096}, {8 * 4096, 4096, 20 * 4096}};
  codec::SymbolWriter w{symbols};
  int t0 = 0, rise = 15, t2 = 2, mate = codec::kMateSymbol, fall3 = 6;
  std::uint32_t rest = 1;
  w.cumulative(codec::kTimeTable[34], codec::kTimeSymbols, t0);
  w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, rise);
  w.raw(3, rest);
  w.cumulative(codec::kTimeTable[34], codec::kTimeSymbols, t2);
  w.cumulative(codec::kEvalTable[6], codec::kEvalSymbols, mate);
  w.cumulative(codec::kMateTable, codec::kChangeSymbols, fall3);
  std::string bytes;
  std::uint64_t bits = 0;
  codec::put_codeword(symbols, bytes, bits);
  EXPECT_EQ(hex(s.moves), hex(bytes));
  EXPECT_EQ(s.move_bits, bits);
  // The codeword 8.3.4 gives (with the appendix's tables).
  EXPECT_EQ(hex(s.moves), "ab c4 8d a2 30");
  EXPECT_EQ(s.move_bits, 38u);
  expect_modelled_round_trip(g, "worked example");
  // Without a track the block keeps its older codec: the same bytes as a writer of 1.2.
  codec::CodecStreams plain = encode_modelled(parse_one("1. e4 {x} e5 *"));
  EXPECT_EQ(plain.codec(), codec::kMoveCodec);
}

// Classes: 0-3 alone, two an octave to 4095, then the big class; every magnitude comes back from
// its class and rest.
TEST(ClockModel, ClassesAndRests) {
  EXPECT_EQ(codec::magnitude_class(3), 3);
  EXPECT_EQ(codec::magnitude_class(4), 4);
  EXPECT_EQ(codec::magnitude_class(5), 4);
  EXPECT_EQ(codec::magnitude_class(6), 5);
  EXPECT_EQ(codec::magnitude_class(8), 6);
  EXPECT_EQ(codec::magnitude_class(12), 7);
  EXPECT_EQ(codec::magnitude_class(4095), 23);
  EXPECT_EQ(codec::magnitude_class(4096), codec::kBigClass);
  std::vector<std::uint64_t> values;
  for (std::uint64_t m = 0; m < 10000; ++m) values.push_back(m);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) values.push_back(rng() >> (64 - 13 - static_cast<int>(rng() % 27)));
  values.push_back((std::uint64_t{1} << 40) - 1);
  std::vector<codec::PlySymbol> symbols;
  codec::SymbolWriter w{symbols};
  for (std::uint64_t m : values) {
    int c = codec::magnitude_class(m);
    std::uint64_t v = m;
    ASSERT_TRUE(w.cumulative(codec::kTimeTable[0], codec::kTimeSymbols, c));
    ASSERT_TRUE(codec::code_class_rest(w, c, codec::kTimeBigWidths, v)) << m;
  }
  std::string bytes;
  std::uint64_t bits = 0;
  codec::put_codeword(symbols, bytes, bits);
  codec::ArithDecoder dec;
  dec.start(bytes, 0);
  codec::SymbolReader r{dec};
  for (std::uint64_t m : values) {
    int c = 0;
    std::uint64_t v = 0;
    ASSERT_TRUE(r.cumulative(codec::kTimeTable[0], codec::kTimeSymbols, c));
    ASSERT_TRUE(codec::code_class_rest(r, c, codec::kTimeBigWidths, v));
    ASSERT_EQ(v, m);
  }
  EXPECT_EQ(dec.finish(), static_cast<std::int64_t>(bits));
}

// The tables as the appendix states them: rows of positive frequencies, each row's sum at most 2^16.
TEST(ClockModel, TablesAreRowsOfPositiveFrequencies) {
  const auto check = [](const std::uint32_t* row, int n) {
    EXPECT_EQ(row[0], 0u);
    for (int s = 0; s < n; ++s) EXPECT_LT(row[s], row[s + 1]);
    EXPECT_LE(row[n], 1u << 16);
  };
  for (int k = 0; k < codec::kTimeContexts; ++k) check(codec::kTimeTable[k], codec::kTimeSymbols);
  for (int k = 0; k < codec::kEvalContexts; ++k) check(codec::kEvalTable[k], codec::kEvalSymbols);
  check(codec::kMateTable, codec::kChangeSymbols);
}

// Every form (seconds, tenths, hundredths, two-digit hours, elapsed times), with and without a
// time control, clocks that gain (negative times) and the largest values, evaluations of every
// size and mates either way, kind 0 texts, NAGs before a clock and a variation with its own
// track round-trip under every move coder.
TEST(ClockModelRoundTrip, EveryFormAndLimit) {
  std::mt19937_64 rng(99);
  const char* moves[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  for (int game = 0; game < 120; ++game) {
    std::int64_t clock[2] = {static_cast<std::int64_t>(rng() % 200000), static_cast<std::int64_t>(rng() % 200000)};
    if (game % 10 == 3) clock[0] = clock[1] = (999999LL * 3600 + 3599) * 100 + 99;  // the largest
    std::int64_t eval = 0;
    std::string pgn;
    const int plies = 1 + static_cast<int>(rng() % 50);
    for (int i = 0; i < plies; ++i) {
      if (i % 2 == 0) pgn += std::to_string(i / 2 + 1) + ". ";
      std::int64_t& c = clock[i % 2];
      const std::int64_t step = game % 10 == 3 ? static_cast<std::int64_t>(rng() % 3) * 360000000000LL
                                               : static_cast<std::int64_t>(rng() % (game % 4 == 0 ? 100000 : 3000));
      c = std::max<std::int64_t>(0, c - step + static_cast<std::int64_t>(rng() % 500));
      const long long sec = c / 100, frac = c % 100;
      char time[96];
      const int form = game % 5;
      const char* command = game % 7 == 2 && i % 3 == 1 ? "emt" : "clk";
      if (form == 0) std::snprintf(time, sizeof time, "[%%%s %lld:%02lld:%02lld]", command, sec / 3600, sec / 60 % 60, sec % 60);
      else if (form == 1) std::snprintf(time, sizeof time, "[%%%s %lld:%02lld:%02lld.%lld]", command, sec / 3600, sec / 60 % 60, sec % 60, frac / 10);
      else if (form == 2) std::snprintf(time, sizeof time, "[%%%s %lld:%02lld:%02lld.%02lld]", command, sec / 3600, sec / 60 % 60, sec % 60, frac);
      else if (form == 3 && sec / 3600 < 100) std::snprintf(time, sizeof time, "[%%%s %02lld:%02lld:%02lld]", command, sec / 3600, sec / 60 % 60, sec % 60);
      else std::snprintf(time, sizeof time, "[%%%s %lld:%02lld:%02lld.%lld]", command, sec / 3600, sec / 60 % 60, sec % 60, frac % 10);
      std::string text;
      switch (rng() % 6) {
        case 0: text = std::string(" ") + time + " "; break;
        case 1: text = time; break;
        case 2: text = std::string(" note ") + time + " after"; break;
        default: {
          std::string e;
          if (rng() % 5 == 0) {
            const long long n = static_cast<long long>(rng() % 999) + 1;
            e = "#" + std::string(rng() % 2 ? "-" : "") + std::to_string(n);
          } else {
            eval = rng() % 9 == 0 ? (rng() % 2 ? 99999999 : -99999999)
                                  : std::clamp<std::int64_t>(eval + static_cast<std::int64_t>(rng() % 801) - 400, -99999999, 99999999);
            const long long a = eval < 0 ? -eval : eval;
            e = std::string(eval < 0 ? "-" : "") + std::to_string(a / 100) + "." + std::to_string(a / 10 % 10) +
                (a % 10 ? std::to_string(a % 10) : "");
          }
          text = " [%eval " + e + "] " + time + " ";
        }
      }
      pgn += std::string(moves[i % 4]) + (rng() % 11 == 0 ? " $1" : "") + " {" + text + "} ";
      if (i == 4) pgn += "(3. Nh3 {" + std::string(time) + "} Nh6 {" + std::string(time) + "}) ";
    }
    std::string tags;
    if (game % 3 != 0) {
      const std::uint64_t base = game % 10 == 3 ? 999999999 : rng() % 20000, inc = game % 10 == 3 ? 999999999 : rng() % 60;
      tags = "[TimeControl \"" + std::to_string(base) + (game % 3 == 1 ? "+" + std::to_string(inc) : "") + "\"]\n\n";
    }
    const std::string text = tags + pgn + "*";
    const Game g = parse_one(text);
    expect_modelled_round_trip(g, text);
  }
}

// The game `g` of one ply, 1. e4 (13 of 20 alike: the uniform coder), its codeword made of the
// move and then the symbols `track` writes.
codec::CodecStreams crafted(const Game& g, const std::function<void(codec::SymbolWriter&)>& track) {
  codec::CodecStreams s = encode_modelled(g, codec::MoveCoder::kUniform);
  std::vector<codec::PlySymbol> symbols = {{13 * 4096, 4096, 20 * 4096}};
  codec::SymbolWriter w{symbols};
  track(w);
  s.moves.clear();
  s.move_bits = 0;
  codec::put_codeword(symbols, s.moves, s.move_bits);
  return s;
}
// "1. e4 {[%clk 0:00:05]} *" under [TimeControl "10"], its track's time as `time` writes it (a
// symbol of time row 33 and its rest).
codec::CodecStreams crafted(const std::function<void(codec::SymbolWriter&)>& time) {
  return crafted(parse_one("[TimeControl \"10\"]\n\n1. e4 {[%clk 0:00:05]} *"), time);
}

// [REC-CLK-8] A time that would make a clock below 0 or above the largest, an evaluation beyond
// its range and a mate in 0 are refused; so is a modelled track read as a track of bytes.
TEST(ClockModelDecode, RejectsValuesOutOfRange) {
  const std::vector<Tag> tags = {{"TimeControl", "10"}};
  // As written: t = 5 (class 4, rest 1) decodes.
  codec::CodecStreams s = crafted([](codec::SymbolWriter& w) {
    int c = 4;
    std::uint32_t rest = 1;
    w.cumulative(codec::kTimeTable[33], codec::kTimeSymbols, c);
    w.raw(1, rest);
  });
  codec::CodecCursor ok = modelled_cursor(s);
  auto d = codec::decode_game(ok, tags);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  // t = 11: 10 - 11 seconds.
  s = crafted([](codec::SymbolWriter& w) {
    int c = 6;
    std::uint32_t rest = 3;
    w.cumulative(codec::kTimeTable[33], codec::kTimeSymbols, c);
    w.raw(2, rest);
  });
  expect_modelled_corrupt(s, tags, "clock out of range");
  // A negative time of 2^40 seconds: a clock beyond 999999 hours.
  s = crafted([](codec::SymbolWriter& w) {
    int c = codec::kNegativeTime;
    std::uint32_t width = 40, low = 0x7F, mid = 0xFFFF, high = 0xFFFF;
    w.cumulative(codec::kTimeTable[33], codec::kTimeSymbols, c);
    w.uniform(codec::kNegativeWidths, width);
    w.raw(16, high);
    w.raw(16, mid);
    w.raw(7, low);
  });
  expect_modelled_corrupt(s, tags, "clock out of range");
  // A modelled track read as a track of bytes (a block of codec 6 or 7): its symbols are not in
  // the structure stream.
  s = encode_modelled(parse_one("1. e4 {[%clk 0:00:05]} e5 {[%clk 0:00:05]} *"));
  codec::CodecCursor as_bytes{s.moves, s.structure, s.texts, s.raw, s.coder, true, false};
  auto wrong = codec::decode_game(as_bytes, {});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code(), ErrorCode::Corruption);
  // Evaluations: a rise to 2^27 centipawns; a mate in 0.
  const Game ge = parse_one("1. e4 { [%eval 0.17] [%clk 0:01:00] } *");
  const codec::CodecStreams good = encode_modelled(ge, codec::MoveCoder::kUniform);
  ASSERT_EQ(hex(good.structure), "0c 01 01 01 03 00");
  const auto with_eval = [&](const std::function<void(codec::SymbolWriter&)>& eval) {
    return crafted(ge, [&](codec::SymbolWriter& w) {
      int c = codec::kNegativeTime;  // a clock of 60 seconds against the base 0: t = -60
      std::uint32_t width = 6, rest = 59 - 32;
      w.cumulative(codec::kTimeTable[33], codec::kTimeSymbols, c);
      w.uniform(codec::kNegativeWidths, width);
      w.raw(5, rest);
      eval(w);
    });
  };
  codec::CodecStreams t = with_eval([](codec::SymbolWriter& w) {
    int s17 = 15;
    std::uint32_t rest = 1;
    w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, s17);
    w.raw(3, rest);
  });
  codec::CodecCursor c17 = modelled_cursor(t);
  auto d17 = codec::decode_game(c17, ge.tags);
  ASSERT_TRUE(d17.ok()) << d17.error().to_string();
  EXPECT_EQ(d17->game, ge);
  t = with_eval([](codec::SymbolWriter& w) {
    int big = 2 * codec::kBigClass - 1;
    std::uint32_t width = 28 - 13, high = 0, mid = 0;
    w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, big);
    w.uniform(codec::kEvalBigWidths, width);
    w.raw(16, high);
    w.raw(11, mid);
  });
  expect_modelled_corrupt(t, ge.tags, "evaluation out of range");
  t = with_eval([](codec::SymbolWriter& w) {
    int mate = codec::kMateSymbol, none = 0;
    w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, mate);
    w.cumulative(codec::kMateTable, codec::kChangeSymbols, none);
  });
  expect_modelled_corrupt(t, ge.tags, "evaluation out of range");
}

}  // namespace
}  // namespace pgnarc
