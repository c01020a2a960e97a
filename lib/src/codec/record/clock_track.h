// Clocks and evaluations as numbers (internal): clock comments "[%clk H:MM:SS]" (in clock tracks
// also with tenths or hundredths of a second, "[%clk 0:02:59.9]" as chess.com writes it, with
// two-digit hours, "[%clk 01:30:00]", and elapsed move times, "[%emt 0:00:05]"), lichess's
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
#include "codec/record/record.h"
#include "pgnarc/game.h"

namespace pgnarc::codec {

// --- Clock comments ---------------------------------------------------------------------------

inline constexpr std::uint64_t kMaxClockSeconds = 999999ull * 3600 + 59 * 60 + 59;  // H has at most 6 digits
// A clock's precision: the digits after the seconds (0 none, 1 tenths, 2 hundredths); its value
// counts units of 10^-precision seconds.
inline constexpr int kMaxClockPrecision = 2;
inline constexpr std::uint64_t kClockScale[kMaxClockPrecision + 1] = {1, 10, 100};
// x / 10^p for p = 0 .. kMaxClockPrecision, as x / kClockScale[p] (truncated), by constants.
template <class T>
T div_clock_scale(T x, int p) {
  return p == 0 ? x : p == 1 ? x / 10 : x / 100;
}
inline std::uint64_t max_clock_value(int precision) { return kMaxClockSeconds * kClockScale[precision] + kClockScale[precision] - 1; }

// A time command's form (8.3.1): its precision, whether its hours have two digits ("01:30:00"),
// whether it is an elapsed move time ("[%emt "); 0 to 11: precision + 3 * two-digit + 6 * emt.
inline constexpr int kClockForms = 12;
inline int clock_form(int precision, bool two_digit_hours, bool emt) {
  return precision + 3 * (two_digit_hours ? 1 : 0) + 6 * (emt ? 1 : 0);
}
inline int form_precision(int form) { return form % 3; }
inline bool form_two_digit_hours(int form) { return form / 3 % 2 == 1; }
inline bool form_emt(int form) { return form >= 6; }

// The command text "[%clk H:MM:SS]" of `value` in `form` (H without leading zeros, or of two
// digits at least; with form_precision(form) digits after the seconds, "[%clk 0:02:59.9]";
// "[%emt " for an elapsed move time).
void append_clock(std::string& out, std::uint64_t value, int form = 0);

// A brace comment's text split around its time command: `before`, the command, `after`.
struct ClockSplit {
  std::string_view before, after;
  std::uint64_t value = 0;  // in units of 10^-precision seconds
  int form = 0;
};
// Splits `text` around its first "[%clk " or "[%emt " (whichever comes first); false unless that
// command is in a form append_clock writes.
bool split_clock(std::string_view text, ClockSplit& out);

// The comment text `before` + the time command of `value` in `form` + `after`.
std::string clock_comment(std::string_view before, std::uint64_t value, int form, std::string_view after);
// The same, appended to `out`.
void append_clock_comment(std::string& out, std::string_view before, std::uint64_t value, int form,
                          std::string_view after);

// The frame kind of a track clock (8.3.2): which text surrounds its command; for kind 3
// (kFrameEval), the evaluation before it in `eval` and `mate`.
ClockFrame frame_of(const ClockSplit& c, std::int64_t& eval, bool& mate);

// Appends to `out` the comment of a clock track's entry of frame kind `kind`: `value`'s time
// command in `form` with the text the kind puts around it (8.3.2): `before` and `after` for kind
// 0 (kFrameTexts), a space on each side for 1, none for 2, " [%eval E] " and " " for 3 with the
// evaluation `eval`.
struct Evaluation;
void append_track_comment(std::string& out, ClockFrame kind, std::uint64_t value, int form, std::string_view before,
                          std::string_view after, const Evaluation& eval);

// --- Evaluations ------------------------------------------------------------------------------

// An evaluation's range: 6 integer digits of pawns, a mate in at most 999 moves.
inline constexpr std::int64_t kMaxEvalCentipawns = 99999999;
inline constexpr std::int64_t kMaxEvalMate = 999;

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
    const std::uint64_t d = common::zigzag(static_cast<std::int64_t>(seconds - last[slot & 1]));
    last[slot & 1] = seconds;
    return d;
  }
  // The clock the zigzag difference `d` codes at `slot`; false if it leaves the clock's range.
  bool decode(std::uint64_t slot, std::uint64_t d, std::uint64_t& seconds) {
    const std::int64_t v = static_cast<std::int64_t>(last[slot & 1]) + common::unzigzag(d);
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

// The time a track predicts at `slot` (1-based) of a line, from the entries before it, in
// hundredths of a second: a clock from the same player's last entry plus the increment if that
// was a clock (else the base: each player's first clock), so that its symbol is the time the move
// took; an elapsed move time, which is that time, as 0. An entry of precision p is coded against
// the prediction in its own units, predict(slot, form) / 10^(2 - p) (rounded down).
struct ClockPredictor {
  ClockBasis basis;
  std::int64_t last[2] = {0, 0};  // hundredths, each player's last clock
  bool clocked[2] = {false, false};  // whether each player's last entry was a clock
  std::int64_t predict(std::uint64_t slot, int form) const {
    if (form_emt(form)) return 0;
    const int parity = static_cast<int>(slot & 1);
    const std::int64_t p = clocked[parity] ? last[parity] + basis.increment * 100 : basis.base * 100;
    return div_clock_scale(p, kMaxClockPrecision - form_precision(form));
  }
  void played(std::uint64_t slot, std::int64_t value, int form) {
    last[slot & 1] = value * static_cast<std::int64_t>(kClockScale[kMaxClockPrecision - form_precision(form)]);
    clocked[slot & 1] = !form_emt(form);
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

// A track entry's frame: the text around the command (ClockFrame) + 4 * the command's form (0 to 47).
inline constexpr std::uint8_t kClockFrames = 4 * kClockForms;
inline ClockFrame frame_kind(std::uint8_t frame) { return static_cast<ClockFrame>(frame & 3); }
inline int frame_form(std::uint8_t frame) { return frame >> 2; }
// A track's frames as runs of (length, frame), each run but the last written as
// (length - 1) * 64 + frame, the last as its frame alone (it runs to the end of the line).
inline constexpr int kFrameBits = 6;
using FrameRuns = std::vector<std::pair<std::uint64_t, std::uint8_t>>;
// Reads a track's frame runs (REC-CLK-7) into `runs`: null, or why they are wrong (none, one
// reaching the end of the line before the last, two in a row with one frame, a frame above 47,
// a last run with a length).
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
    if (last && v >> kFrameBits != 0) return "clock track's last frame run with a length";
    const auto frame = static_cast<std::uint8_t>(v & ((1u << kFrameBits) - 1));
    const std::uint64_t length = last ? plies - covered : (v >> kFrameBits) + 1;
    if (frame >= kClockFrames) return "clock track frame above 47";
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
// Appends a line's clock track (one clock per ply, in slot order): the frame runs to
// `structure`, its frames' texts to `texts`, and per clock its time and its frame's evaluation:
// as bytes to `structure` (8.3.2), or with `modelled` as the clock model's symbols (8.3.4), which
// follow the line's moves in the game's codeword. False where a value cannot be coded (none a
// clock comment can hold).
struct PlySymbol;
bool put_clock_track(const std::vector<TrackClock>& track, const ClockBasis& basis, std::string& structure,
                     std::string& texts, std::vector<PlySymbol>* modelled);

}  // namespace pgnarc::codec
