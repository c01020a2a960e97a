// Clocks and evaluations as numbers (clock_track.h).
#include "codec/record/clock_track.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "codec/record/clock_model.h"

namespace pgnarc::codec {

using common::put_prefixed;
using common::put_u8;
using common::put_varint;
using common::unzigzag;
using common::zigzag;

namespace {

constexpr std::string_view kClockOpen = "[%clk ", kElapsedOpen = "[%emt ";
constexpr std::string_view kEvalOpen = "[%eval ";

// The command text "[%eval E]" of an evaluation, in the form parse_eval reads, written at `p`
// (at most kEvalChars bytes); returns the end.
constexpr std::size_t kEvalChars = 32;
char* put_eval(char* p, std::int64_t value, bool mate) {
  std::memcpy(p, kEvalOpen.data(), kEvalOpen.size());
  p += kEvalOpen.size();
  if (mate) {
    *p++ = '#';
    p = std::to_chars(p, p + 24, value).ptr;
  } else {
    if (value < 0) *p++ = '-';
    const std::uint64_t v = static_cast<std::uint64_t>(value < 0 ? -value : value);
    p = std::to_chars(p, p + 21, v / 100).ptr;
    *p++ = '.';
    *p++ = static_cast<char>('0' + v / 10 % 10);
    if (v % 10 != 0) *p++ = static_cast<char>('0' + v % 10);
  }
  *p++ = ']';
  return p;
}

// "00" to "99", each number's two digits.
constexpr char kTwoDigits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The time command of `value` in `form` (append_clock's text) written at `p` (at most
// kClockChars bytes); returns the end.
constexpr std::size_t kClockChars = 48;
char* put_clock(char* p, std::uint64_t value, int form) {
  const int precision = form_precision(form);
  const std::uint64_t seconds = div_clock_scale(value, precision);
  const std::uint64_t fraction = value - seconds * kClockScale[precision];
  // "[%clk " (6), the hours' digits (at most 20 for any value, 6 in a valid clock), ":MM:SS" (6),
  // "." and 2 digits, "]".
  const std::string_view open = form_emt(form) ? kElapsedOpen : kClockOpen;
  std::memcpy(p, open.data(), open.size());
  p += open.size();
  const auto two = [&](std::uint64_t v) {  // (v < 100)
    std::memcpy(p, kTwoDigits + 2 * v, 2);
    p += 2;
  };
  const std::uint64_t hours = seconds / 3600;
  if (hours < 10) {
    if (form_two_digit_hours(form)) *p++ = '0';
    *p++ = static_cast<char>('0' + hours);
  } else {
    p = std::to_chars(p, p + 20, hours).ptr;
  }
  *p++ = ':';
  two(seconds / 60 % 60);
  *p++ = ':';
  two(seconds % 60);
  if (precision > 0) {
    *p++ = '.';
    if (precision == 1) *p++ = static_cast<char>('0' + fraction);
    else two(fraction);
  }
  *p++ = ']';
  return p;
}

// A track symbol: one byte below kSymbolEscape, else the escape and a varint of the rest.
void put_symbol(std::string& out, std::uint64_t u) {
  if (u < kSymbolEscape) {
    put_u8(out, static_cast<std::uint8_t>(u));
  } else {
    put_u8(out, static_cast<std::uint8_t>(kSymbolEscape));
    put_varint(out, u - kSymbolEscape);
  }
}


}  // namespace

void append_clock(std::string& out, std::uint64_t value, int form) {
  char buf[kClockChars];
  out.append(buf, static_cast<std::size_t>(put_clock(buf, value, form) - buf));
}

bool split_clock(std::string_view text, ClockSplit& out) {
  const std::size_t clk = text.find(kClockOpen), emt = text.find(kElapsedOpen);
  const std::size_t at = std::min(clk, emt);
  if (at == std::string_view::npos) return false;
  const std::size_t close = text.find(']', at);
  if (close == std::string_view::npos) return false;
  const std::string_view body = text.substr(at + kClockOpen.size(), close - at - kClockOpen.size());
  // H:MM:SS, H of 1 to 6 digits without a leading zero (or of two digits, the first 0), MM and
  // SS of two digits below 60, then "." and one or two digits, or nothing.
  const std::size_t colon = body.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 6 || body.size() < colon + 6) return false;
  const std::size_t tail = body.size() - (colon + 6);
  if (tail == 1 || tail > kMaxClockPrecision + 1 || (tail > 0 && body[colon + 6] != '.')) return false;
  const int precision = tail == 0 ? 0 : static_cast<int>(tail) - 1;
  std::uint64_t fraction = 0;
  for (std::size_t i = colon + 7; i < body.size(); ++i) {
    if (body[i] < '0' || body[i] > '9') return false;
    fraction = fraction * 10 + static_cast<std::uint64_t>(body[i] - '0');
  }
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < colon; ++i) {
    if (body[i] < '0' || body[i] > '9') return false;
    h = h * 10 + static_cast<std::uint64_t>(body[i] - '0');
  }
  const bool two_digit_hours = colon == 2 && body[0] == '0';
  if (colon > 1 && body[0] == '0' && !two_digit_hours) return false;
  const auto digit = [&](std::size_t i) { return body[i] >= '0' && body[i] <= '9' ? body[i] - '0' : -1; };
  const int m1 = digit(colon + 1), m2 = digit(colon + 2), s1 = digit(colon + 4), s2 = digit(colon + 5);
  if (body[colon + 3] != ':' || m1 < 0 || m1 > 5 || m2 < 0 || s1 < 0 || s1 > 5 || s2 < 0) return false;
  out.before = text.substr(0, at);
  out.after = text.substr(close + 1);
  const std::uint64_t seconds =
      h * 3600 + static_cast<std::uint64_t>(m1 * 10 + m2) * 60 + static_cast<std::uint64_t>(s1 * 10 + s2);
  out.value = seconds * kClockScale[precision] + fraction;
  out.form = clock_form(precision, two_digit_hours, at == emt);
  return true;
}

std::string clock_comment(std::string_view before, std::uint64_t value, int form, std::string_view after) {
  std::string text;
  append_clock_comment(text, before, value, form, after);
  return text;
}

void append_clock_comment(std::string& out, std::string_view before, std::uint64_t value, int form,
                          std::string_view after) {
  out += before;
  append_clock(out, value, form);
  out += after;
}

bool parse_eval(std::string_view text, std::int64_t& value, bool& mate) {
  if (!text.starts_with(kEvalOpen) || !text.ends_with(']')) return false;
  std::string_view e = text.substr(kEvalOpen.size(), text.size() - kEvalOpen.size() - 1);
  mate = !e.empty() && e[0] == '#';
  if (mate) e.remove_prefix(1);
  const bool negative = !e.empty() && e[0] == '-';
  if (negative) e.remove_prefix(1);
  const auto digits = [](std::string_view d, std::size_t max, std::int64_t& out) {
    if (d.empty() || d.size() > max || (d.size() > 1 && d[0] == '0')) return false;
    out = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    return true;
  };
  std::int64_t v = 0;
  if (mate) {
    if (!digits(e, 3, v) || v == 0) return false;
  } else {
    const std::size_t dot = e.find('.');
    if (dot == std::string_view::npos) return false;
    std::int64_t whole = 0;
    const std::string_view frac = e.substr(dot + 1);
    if (!digits(e.substr(0, dot), 6, whole) || frac.empty() || frac.size() > 2) return false;
    for (char c : frac)
      if (c < '0' || c > '9') return false;
    if (frac.size() == 2 && frac[1] == '0') return false;  // written as one digit
    v = whole * 100 + (frac[0] - '0') * 10 + (frac.size() == 2 ? frac[1] - '0' : 0);
    if (negative && v == 0) return false;  // "-0.0"
  }
  value = negative ? -v : v;
  return true;
}

bool decode_eval(std::uint64_t e, std::int64_t& last_centipawns, Evaluation& out) {
  const bool mate = e & 1;
  const std::int64_t value = (mate ? 0 : last_centipawns) + unzigzag(e >> 1);
  if (mate ? value == 0 || value < -kMaxEvalMate || value > kMaxEvalMate
           : value < -kMaxEvalCentipawns || value > kMaxEvalCentipawns)
    return false;
  if (!mate) last_centipawns = value;
  out = Evaluation{value, mate};
  return true;
}

void append_eval_frame(std::string& out, const Evaluation& e) {
  char buf[kEvalChars + 2];
  buf[0] = ' ';
  char* p = put_eval(buf + 1, e.value, e.mate);
  *p++ = ' ';
  out.append(buf, static_cast<std::size_t>(p - buf));
}

ClockFrame frame_of(const ClockSplit& c, std::int64_t& eval, bool& mate) {
  const bool eval_frame = c.after == " " && c.before.size() > 2 && c.before.front() == ' ' && c.before.back() == ' ' &&
                          parse_eval(c.before.substr(1, c.before.size() - 2), eval, mate);
  return c.before == " " && c.after == " " ? kFrameSpaces
         : c.before.empty() && c.after.empty() ? kFrameBare
         : eval_frame                           ? kFrameEval
                                                : kFrameTexts;
}

void append_track_comment(std::string& out, ClockFrame kind, std::uint64_t value, int form, std::string_view before,
                          std::string_view after, const Evaluation& eval) {
  if (kind == kFrameTexts) return append_clock_comment(out, before, value, form, after);
  // The other kinds' text, at most " [%eval E] " and the command with a space on each side, in a
  // buffer written to `out` at once.
  char buf[kEvalChars + kClockChars + 4];
  char* p = buf;
  if (kind == kFrameEval) {
    *p++ = ' ';
    p = put_eval(p, eval.value, eval.mate);
    *p++ = ' ';
  } else if (kind == kFrameSpaces) {
    *p++ = ' ';
  }
  p = put_clock(p, value, form);
  if (kind != kFrameBare) *p++ = ' ';
  out.append(buf, static_cast<std::size_t>(p - buf));
}

ClockBasis clock_basis(const std::vector<Tag>& tags) {
  const std::string* tc = find_tag(tags, "TimeControl");
  if (!tc) return {};
  ClockBasis b;
  const std::size_t plus = tc->find('+');
  const auto number = [](std::string_view d, std::int64_t& out) {
    if (d.empty() || d.size() > 9) return false;
    out = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    return true;
  };
  const std::string_view v = *tc;
  if (plus == std::string::npos ? !number(v, b.base)
                                : !number(v.substr(0, plus), b.base) || !number(v.substr(plus + 1), b.increment))
    return {};
  return b;
}

bool put_clock_track(const std::vector<TrackClock>& track, const ClockBasis& basis, std::string& structure,
                     std::string& texts, std::vector<PlySymbol>* modelled) {
  struct Entry {
    const TrackClock* clock;
    std::uint8_t frame;  // ClockFrame + 4 * precision
    bool mate;
    std::int64_t eval;
  };
  std::vector<Entry> entries;
  entries.reserve(track.size());
  for (const TrackClock& t : track) {
    Entry e{&t, kFrameTexts, false, 0};
    e.frame = static_cast<std::uint8_t>(frame_of(*t.clock, e.eval, e.mate) + 4 * t.clock->form);
    entries.push_back(e);
  }
  FrameRuns runs;
  for (const Entry& e : entries) {
    if (runs.empty() || runs.back().second != e.frame) runs.emplace_back(0, e.frame);
    ++runs.back().first;
  }
  put_varint(structure, runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r)
    put_varint(structure, r + 1 == runs.size() ? runs[r].second : (runs[r].first - 1) << kFrameBits | runs[r].second);
  if (modelled) {
    TrackModel model(basis);
    SymbolWriter side{*modelled};
    for (const Entry& e : entries) {
      const ClockSplit& c = *e.clock->clock;
      std::uint64_t value = c.value;
      if (model.time(side, e.clock->slot, c.form, value) != kOk) return false;
      Evaluation eval{e.eval, e.mate};
      if (frame_kind(e.frame) == kFrameEval && model.evaluation(side, eval) != kOk) return false;
      if (frame_kind(e.frame) == kFrameTexts)
        for (std::string_view part : {c.before, c.after}) put_prefixed(texts, part);
    }
    return true;
  }
  ClockPredictor clocks{basis};
  std::int64_t last_eval = 0;  // the track's last evaluation in centipawns
  for (const Entry& e : entries) {
    const ClockSplit& c = *e.clock->clock;
    const std::uint32_t slot = e.clock->slot;
    const auto value = static_cast<std::int64_t>(c.value);
    put_symbol(structure, zigzag(clocks.predict(slot, c.form) - value));
    clocks.played(slot, value, c.form);
    if (frame_kind(e.frame) == kFrameEval) {
      put_varint(structure, zigzag(e.mate ? e.eval : e.eval - last_eval) << 1 | (e.mate ? 1 : 0));
      if (!e.mate) last_eval = e.eval;
    }
    if (frame_kind(e.frame) == kFrameTexts)
      for (std::string_view part : {c.before, c.after}) put_prefixed(texts, part);
  }
  return true;
}

}  // namespace pgnarc::codec
