// The clock model (internal; format specification, "Modelled clock tracks", 8.3.4): in a block
// of the modelled-tracks codec (format 1.3) a clock track's times and evaluations are symbols of
// the game's codeword, after the moves of their line, with frequencies from fixed tables
// (clock_tables.cpp, format-spec/clock-model-tables.md) chosen by what the track has shown so
// far: each player's recent move times and the time left (a time's whole seconds), the last
// evaluation (an evaluation's change). A time's fraction of a second and the bits below a
// class's top are coded apart, so that one table serves seconds, tenths and hundredths.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "codec/entropy/symbol_coder.h"
#include "codec/record/clock_track.h"

namespace pgnarc::codec {

// --- Classes of a magnitude -------------------------------------------------------------------

// A magnitude m >= 0 has a class: 0 to 3 are m itself; 4 + 2 (b - 3) + h for m of bit width b
// = 3 .. 12 and h the bit below its top bit (two classes an octave: 4-5, 6-7, 8-11, 12-15, ...,
// 3072-4095); kBigClass above 4095. The bits of m below those two are coded each as likely as
// the other (a big class codes m's width, then the bits below its top).
inline constexpr int kBigClass = 24;
inline constexpr int kMagnitudeClasses = 25;
inline int magnitude_class(std::uint64_t m) {
  if (m < 4) return static_cast<int>(m);
  const int b = static_cast<int>(std::bit_width(m));
  if (b > 12) return kBigClass;
  return 4 + 2 * (b - 3) + static_cast<int>((m >> (b - 2)) & 1);
}

// A number of bit width `first` .. `first` + `widths` - 1 (first >= 1): its width, each as likely,
// then the bits below its top bit. False on the writer's side for a number out of that range.
template <class Side>
bool code_width_and_bits(Side& side, int first, int widths, std::uint64_t& m) {
  std::uint32_t w = Side::kDecoding ? 0 : static_cast<std::uint32_t>(std::bit_width(m) - first);
  if (!Side::kDecoding && w >= static_cast<std::uint32_t>(widths)) return false;
  if (!side.uniform(static_cast<std::uint32_t>(widths), w)) return false;
  const int bits = first + static_cast<int>(w) - 1;
  std::uint64_t rest = m;
  if (!code_low_bits(side, bits, rest)) return false;
  m = std::uint64_t{1} << bits | rest;
  return true;
}

// The rest of a magnitude m of class `c` (below kBigClass): its bits below the class's two.
// For kBigClass, its width from 13 to 12 + `big_widths`, then its bits below the top.
template <class Side>
bool code_class_rest(Side& side, int c, int big_widths, std::uint64_t& m) {
  if (c < 4) {
    m = static_cast<std::uint64_t>(c);
    return true;
  }
  if (c == kBigClass) return code_width_and_bits(side, 13, big_widths, m);
  const int b = (c - 4) / 2 + 3, low = b - 2;
  std::uint64_t rest = m;
  if (!code_low_bits(side, low, rest)) return false;
  m = (std::uint64_t{1} << (b - 1)) | static_cast<std::uint64_t>((c - 4) & 1) << low | rest;
  return true;
}

// --- The tables -------------------------------------------------------------------------------

// A time's symbols: the classes of a time of 0 or more seconds, then kNegativeTime (a time below
// 0: a clock that gained more than its increment).
inline constexpr int kNegativeTime = kMagnitudeClasses;
inline constexpr int kTimeSymbols = kMagnitudeClasses + 1;
// Contexts of a time: 12 of the player's recent time (its average's octave, or none yet) by 3
// of the time left (below 30 seconds, below 120, more or an elapsed time).
inline constexpr int kTimeContexts = 36;
// An evaluation's symbols: 0 (no change), then for each class k = 1 .. 24 a rise (2k - 1) and
// a fall (2k) of that class, then kMateSymbol (a mate; its N follows, as a change of the last
// mate's N, in the mate table's symbols 0 .. 48).
inline constexpr int kChangeSymbols = 2 * kMagnitudeClasses - 1;
inline constexpr int kMateSymbol = kChangeSymbols;
inline constexpr int kEvalSymbols = kChangeSymbols + 1;
// Contexts of an evaluation: 0 after a mate, else 1 + the octave of the last evaluation's
// centipawns (bit width, at most 11).
inline constexpr int kEvalContexts = 13;

// The tables' frequencies, each row's as cumulative frequencies: row[s] .. row[s + 1] is symbol
// s (row[0] = 0, the last entry the row's total).
extern const std::uint32_t kTimeTable[kTimeContexts][kTimeSymbols + 1];
extern const std::uint32_t kEvalTable[kEvalContexts][kEvalSymbols + 1];
extern const std::uint32_t kMateTable[kChangeSymbols + 1];

// --- A track's model --------------------------------------------------------------------------

// Widths of the big class: a time's whole seconds (below 2^40), an evaluation's change (below 2^28).
inline constexpr int kTimeBigWidths = 28, kEvalBigWidths = 16;
// A fraction's digits start at this frequency each (and gain 32 as AdaptiveFrequencies do): near
// log2(10) bits a digit until a line's digits show a leaning (chess.com's premoves take 0.1 s),
// within 1% of equal frequencies on random digits.
inline constexpr std::uint32_t kFractionInitial = 64;
// A negative time's magnitude -t - 1: its bit width 0 .. 40.
inline constexpr int kNegativeWidths = 41;

// The symbol of a signed change x: 0, or 2k - 1 for a rise of class k, 2k for a fall.
inline int change_symbol(std::int64_t x) {
  if (x == 0) return 0;
  const int c = magnitude_class(x < 0 ? static_cast<std::uint64_t>(-x) : static_cast<std::uint64_t>(x));
  return 2 * c - (x > 0 ? 1 : 0);
}
// The change of symbol `s` (below kChangeSymbols): its magnitude's rest.
template <class Side>
bool change_rest(Side& side, int s, std::int64_t& x) {
  if (s == 0) {
    x = 0;
    return true;
  }
  std::uint64_t m = x < 0 ? static_cast<std::uint64_t>(-x) : static_cast<std::uint64_t>(x);
  if (!code_class_rest(side, (s + 1) / 2, kEvalBigWidths, m)) return false;
  x = s % 2 == 1 ? static_cast<std::int64_t>(m) : -static_cast<std::int64_t>(m);
  return true;
}

// How a track entry's coding went: as it should; its symbols not in the codeword (decoding);
// its value out of range (decoding; a writer's value is never).
enum TrackCode { kOk, kMissing, kOutOfRange };

// What a line's track has shown, from its slot 1 on (each line starts afresh): the clocks that
// predict the next (ClockPredictor), each player's recent time, the last evaluations, and the
// fractions' adaptive frequencies.
struct TrackModel {
  explicit TrackModel(ClockBasis basis) : clocks{basis} {
    for (auto& q : fraction)
      for (auto& d : q) d = AdaptiveFrequencies<10>(kFractionInitial);
  }

  ClockPredictor clocks;
  std::int64_t average[2] = {-1, -1};  // each player's recent time in 16ths of a second (-1: none)
  std::int64_t last_centipawns = 0, last_mate = 0;
  bool after_mate = false;
  AdaptiveFrequencies<10> fraction[3][2];  // [the time: 0 or less, 1, more][the fraction's digit]

  // The time command at `slot` of `form` and `value` (units of its precision): kOk, or where
  // the codeword holds no symbol (kMissing) or the value leaves its range (kOutOfRange).
  template <class Side>
  TrackCode time(Side& side, std::uint64_t slot, int form, std::uint64_t& value) {
    const int p = form_precision(form);
    const bool emt = form_emt(form);
    const auto scale = static_cast<std::int64_t>(kClockScale[p]);
    const std::int64_t predicted = clocks.predict(slot, form), whole = div_clock_scale(predicted, p);
    const std::int64_t predicted_fraction = predicted - whole * scale;  // (predicted >= 0)
    // (predicted_fraction - f) mod scale, for a fraction f in [0, scale).
    const auto below = [&](std::int64_t f) { return predicted_fraction >= f ? predicted_fraction - f : predicted_fraction - f + scale; };
    const int parity = static_cast<int>(slot & 1);
    const int recent = average[parity] < 0 ? 11 : std::min(static_cast<int>(std::bit_width(static_cast<std::uint64_t>(average[parity] >> 4))), 10);
    const int left = emt || whole >= 120 ? 2 : whole >= 30 ? 1 : 0;
    const std::uint32_t* row = kTimeTable[recent * 3 + left];
    // The time t: the whole seconds the move took as the clocks show them (for a clock, the
    // prediction's whole seconds less the clock's; for an elapsed time its whole seconds), and
    // the fraction g: for a clock (prediction - clock) mod 10^p, for an elapsed time its own.
    // (Whole seconds apart, as the tables learnt them from clocks of whole seconds: the whole
    // seconds of clocks in tenths differ as those of the same clocks in seconds would.)
    std::int64_t t = 0, g = 0;
    if (!Side::kDecoding) {
      const auto seconds = static_cast<std::int64_t>(value / kClockScale[p]);
      const auto f = static_cast<std::int64_t>(value % kClockScale[p]);
      t = emt ? seconds : whole - seconds;
      g = emt ? f : below(f);
    }
    int s = t < 0 ? kNegativeTime : magnitude_class(static_cast<std::uint64_t>(t));
    if (!side.cumulative(row, kTimeSymbols, s)) return kMissing;
    if (s == kNegativeTime) {
      // -t - 1 by its bit width, then the bits below its top.
      std::uint64_t m = Side::kDecoding ? 0 : static_cast<std::uint64_t>(-t - 1);
      std::uint32_t w = Side::kDecoding ? 0 : static_cast<std::uint32_t>(std::bit_width(m));
      if (!side.uniform(kNegativeWidths, w)) return kMissing;
      if (w > 1) {
        if (!code_low_bits(side, static_cast<int>(w) - 1, m)) return kMissing;
        m |= std::uint64_t{1} << (w - 1);
      } else {
        m = w;
      }
      t = -static_cast<std::int64_t>(m) - 1;
    } else {
      std::uint64_t m = static_cast<std::uint64_t>(t);
      if (!code_class_rest(side, s, kTimeBigWidths, m)) return kMissing;
      t = static_cast<std::int64_t>(m);
    }
    // The fraction's digits, the most significant first.
    if (p > 0) {
      const int quick = t <= 0 ? 0 : t == 1 ? 1 : 2;
      std::int64_t out = 0;
      for (int k = 0; k < p; ++k) {
        const std::int64_t unit = k + 1 < p ? 10 : 1;
        int digit = static_cast<int>(g / unit % 10);
        if (!side.adaptive(fraction[quick][k], digit)) return kMissing;
        fraction[quick][k].update(digit);
        out += digit * unit;
      }
      g = out;
    }
    const std::int64_t seconds = emt ? t : whole - t;  // (|t| < 2^41: no overflow)
    if (seconds < 0 || static_cast<std::uint64_t>(seconds) > kMaxClockSeconds) return kOutOfRange;
    const std::int64_t v = seconds * scale + (emt ? g : below(g));
    value = static_cast<std::uint64_t>(v);
    clocks.played(slot, v, form);
    const std::int64_t a = (t > 0 ? t : 0) * 16;
    average[parity] = average[parity] < 0 ? a : (3 * average[parity] + a) / 4;
    return kOk;
  }

  // An evaluation (frame 3): its change from the last evaluation's centipawns, or a mate and its
  // N as a change from the last mate's; kMissing or kOutOfRange (REC-CLK-6) as for a time.
  template <class Side>
  TrackCode evaluation(Side& side, Evaluation& e) {
    const std::uint64_t last = last_centipawns < 0 ? static_cast<std::uint64_t>(-last_centipawns)
                                                   : static_cast<std::uint64_t>(last_centipawns);
    const int context = after_mate ? 0 : 1 + std::min(static_cast<int>(std::bit_width(last)), 11);
    std::int64_t x = Side::kDecoding || e.mate ? 0 : e.value - last_centipawns;
    int s = Side::kDecoding ? 0 : e.mate ? kMateSymbol : change_symbol(x);
    if (!side.cumulative(kEvalTable[context], kEvalSymbols, s)) return kMissing;
    if (s == kMateSymbol) {
      std::int64_t y = Side::kDecoding ? 0 : e.value - last_mate;
      int k = Side::kDecoding ? 0 : change_symbol(y);
      if (!side.cumulative(kMateTable, kChangeSymbols, k) || !change_rest(side, k, y)) return kMissing;
      const std::int64_t n = last_mate + y;
      if (n == 0 || n < -kMaxEvalMate || n > kMaxEvalMate) return kOutOfRange;
      e = Evaluation{n, true};
      last_mate = n;
      after_mate = true;
      return kOk;
    }
    if (!change_rest(side, s, x)) return kMissing;
    const std::int64_t cp = last_centipawns + x;
    if (cp < -kMaxEvalCentipawns || cp > kMaxEvalCentipawns) return kOutOfRange;
    e = Evaluation{cp, false};
    last_centipawns = cp;
    after_mate = false;
    return kOk;
  }
};

}  // namespace pgnarc::codec
