// Clocks and evaluations as numbers (internal): clock comments "[%clk H:MM:SS]" (with tenths or
// hundredths of a second in clock tracks: "[%clk 0:02:59.9]" as chess.com writes it), lichess's
// evaluations "[%eval E]", and a line's clock track, where every ply's first comment is a clock
// and each clock is coded as a symbol against the clock the game's TimeControl predicts
// (format specification, "Clock comments" and "Clock tracks"; REC-CLK-1 to REC-CLK-7).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "codec/record.h"
#include "pgnarc/game.h"

namespace pgnarc::detail {

// --- Clock comments ---------------------------------------------------------------------------

inline constexpr std::uint64_t kMaxClockSeconds = 999999ull * 3600 + 59 * 60 + 59;  // H has at most 6 digits
// A clock's precision: the digits after the seconds (0 none, 1 tenths, 2 hundredths); its value
// counts units of 10^-precision seconds.
inline constexpr int kMaxClockPrecision = 2;
inline constexpr std::uint64_t kClockScale[kMaxClockPrecision + 1] = {1, 10, 100};
inline std::uint64_t max_clock_value(int precision) { return kMaxClockSeconds * kClockScale[precision] + kClockScale[precision] - 1; }

// The command text "[%clk H:MM:SS]" of `value` (H without leading zeros), with `precision`
// digits after the seconds ("[%clk 0:02:59.9]").
void append_clock(std::string& out, std::uint64_t value, int precision = 0);

// A brace comment's text split around its clock command: `before`, the command, `after`.
struct ClockSplit {
  std::string_view before, after;
  std::uint64_t value = 0;  // in units of 10^-precision seconds
  int precision = 0;
};
// Splits `text` around its first "[%clk "; false unless that command is in the form
// append_clock writes (of any precision).
bool split_clock(std::string_view text, ClockSplit& out);

// The comment text `before` + the clock command of `value` + `after`.
std::string clock_comment(std::string_view before, std::uint64_t value, int precision, std::string_view after);

// --- Evaluations ------------------------------------------------------------------------------

// Parses `text` as exactly "[%eval E]" as lichess writes it: E is centipawns as a decimal with one
// or two fraction digits (two unless the second is 0: "0.17", "0.2", "-1.0", "0.0"), or a mate
// "#N" / "#-N" (N >= 1).
bool parse_eval(std::string_view text, std::int64_t& value, bool& mate);

// An evaluation as a number: centipawns, or the N of a mate.
struct Evaluation {
  std::int64_t value = 0;
  bool mate = false;
};
// The evaluation a track's varint `e` codes: zigzag(centipawns - the track's last centipawns) * 2,
// or zigzag(N) * 2 + 1 for a mate. Updates `last_centipawns`; false if the value is out of range
// (a mate in 0, more than 999 moves or 6 integer digits of pawns).
bool decode_eval(std::uint64_t e, std::int64_t& last_centipawns, Evaluation& out);
// Appends the text before the clock command in frame 3: " [%eval E] ".
void append_eval_frame(std::string& out, const Evaluation& e);

// --- Numbers (zigzag and unzigzag: common/bytes.h) ---------------------------------------------

// Clock items: the last clocks of a line's two players (slots of even and odd parity), from which
// clocks are coded as differences; each counts from 0.
struct ClockPair {
  std::uint64_t last[2] = {0, 0};
  // The zigzag difference that codes `seconds` at `slot`.
  std::uint64_t encode(std::uint64_t slot, std::uint64_t seconds) {
    const std::uint64_t d = zigzag(static_cast<std::int64_t>(seconds - last[slot & 1]));
    last[slot & 1] = seconds;
    return d;
  }
  // The clock the zigzag difference `d` codes at `slot`; false if it leaves the clock's range.
  bool decode(std::uint64_t slot, std::uint64_t d, std::uint64_t& seconds) {
    const std::int64_t v = static_cast<std::int64_t>(last[slot & 1]) + unzigzag(d);
    if (v < 0 || static_cast<std::uint64_t>(v) > kMaxClockSeconds) return false;
    seconds = last[slot & 1] = static_cast<std::uint64_t>(v);
    return true;
  }
};

// --- Clock tracks -----------------------------------------------------------------------------

// A track's clocks are coded against a prediction from the game's time control: each player's
// first clock against the base, each later one against that player's previous clock plus the
// increment.
struct ClockBasis {
  std::int64_t base = 0, increment = 0;
};
// From the game's first TimeControl tag, if its value is "B+I" or "B" (each 1 to 9 decimal
// digits; "B" has increment 0); else 0 and 0.
ClockBasis clock_basis(const std::vector<Tag>& tags);

// The clock a track predicts at `slot` (1-based) of a line, from the clocks before it, in
// hundredths of a second; a clock of precision p is coded against the prediction in its own
// units, predict(slot) / 10^(2 - p) (rounded down).
struct ClockPredictor {
  ClockBasis basis;
  std::int64_t last[2] = {0, 0};  // hundredths
  std::int64_t predict(std::uint64_t slot) const {
    return slot <= 2 ? basis.base * 100 : last[slot & 1] + basis.increment * 100;
  }
  std::int64_t predict(std::uint64_t slot, int precision) const {
    return predict(slot) / static_cast<std::int64_t>(kClockScale[kMaxClockPrecision - precision]);
  }
  void played(std::uint64_t slot, std::int64_t value, int precision) {
    last[slot & 1] = value * static_cast<std::int64_t>(kClockScale[kMaxClockPrecision - precision]);
  }
};

// A track symbol: one byte below 255, else 255 and a varint of the rest.
inline constexpr std::uint64_t kSymbolEscape = 255;
// Symbols of valid clocks are far below this; larger ones are rejected before any arithmetic.
inline constexpr std::uint64_t kMaxSymbol = std::uint64_t{1} << 40;
template <class Reader>
bool get_symbol(Reader& in, std::uint64_t& u) {
  std::uint8_t b;
  if (!in.u8(b)) return false;
  u = b;
  if (b < kSymbolEscape) return true;
  std::uint64_t rest;
  if (!in.varint(rest) || rest > kMaxSymbol) return false;
  u = kSymbolEscape + rest;
  return true;
}

// A track entry's frame byte: the text around the command (ClockFrame) + 4 * the clock's precision.
inline ClockFrame frame_kind(std::uint8_t frame) { return static_cast<ClockFrame>(frame & 3); }
inline int frame_precision(std::uint8_t frame) { return frame >> 2; }
// A track's frames as runs of (length, frame byte), each run but the last written as
// (length - 1) * 16 + frame, the last as its frame alone (it runs to the end of the line).
using FrameRuns = std::vector<std::pair<std::uint64_t, std::uint8_t>>;
// Reads a track's frame runs (REC-CLK-7) into `runs`: null, or why they are wrong (none, one
// reaching the end of the line before the last, two in a row with one frame, a precision above
// 2, a last run with a length).
template <class Reader>
const char* read_frame_runs(Reader& in, std::uint64_t plies, FrameRuns& runs) {
  std::uint64_t n;
  if (!in.varint(n) || n == 0 || n > plies) return "bad clock track frame runs";
  runs.clear();
  std::uint64_t covered = 0;
  for (std::uint64_t r = 0; r < n; ++r) {
    std::uint64_t v;
    if (!in.varint(v)) return "clock track runs past the end of its section";
    const bool last = r + 1 == n;
    if (last && v > 15) return "clock track's last frame run with a length";
    const auto frame = static_cast<std::uint8_t>(v & 15);
    const std::uint64_t length = last ? plies - covered : (v >> 4) + 1;
    if (frame_precision(frame) > kMaxClockPrecision) return "clock track frame of a precision above 2";
    if (!last && length >= plies - covered) return "clock track frame runs longer than the line";
    if (!runs.empty() && runs.back().second == frame) return "two clock track frame runs of one frame";
    covered += length;
    runs.emplace_back(length, frame);
  }
  return nullptr;
}

// One clock of a line's track, for the writer: its slot (1-based ply) and its comment split
// around the command.
struct TrackClock {
  std::uint32_t slot;
  const ClockSplit* clock;
};
// Appends a line's clock track (one clock per ply, in slot order): the frame runs and per clock
// its symbol and its frame's evaluation to `structure`, its frame's texts to `texts`.
void put_clock_track(const std::vector<TrackClock>& track, const ClockBasis& basis, std::string& structure,
                     std::string& texts);

}  // namespace pgnarc::detail
