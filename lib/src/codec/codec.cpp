// The legal-move-index codec (codec identifiers 1 to 4). The byte layout is defined in
// format-spec/pgnarc-format.md, sections "Game records" and "Move integers".
#include "codec/codec.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <array>
#include <cmath>
#include <iterator>

#include "codec/bytes.h"
#include "codec/noted.h"
#include "rules/movegen.h"

namespace pgnarc {

namespace mp = boost::multiprecision;
using detail::ByteReader;
using detail::PieceTargets;
using detail::put_u8;
using detail::put_prefixed;
using detail::put_varint;

namespace {

// Header byte of a game in the structure stream.
constexpr std::uint8_t kResultMask = 0x07;
constexpr std::uint8_t kAnnotated = 0x08;      // null moves, comments, NAGs or variations follow
constexpr std::uint8_t kHasFrame = 0x10;       // prelude and epilogue comments follow
constexpr std::uint8_t kRaw = 0x20;            // a verbatim game; nothing else is set
constexpr std::uint8_t kReservedBits = 0xC0;

// Item types of a line's annotation list. A clock comment (codec 2) is a brace comment whose
// text holds a clock command "[%clk H:MM:SS]": the seconds are coded as a number, the text
// around the command as two texts.
enum ItemType : std::uint8_t { kBrace = 0, kLine = 1, kEscape = 2, kNag = 3, kVariation = 4, kClock = 5 };
// The text around a clock of the clock track (codec 3): the two low bits of its number (codec 5: of
// its frame run).
// Frame 3 (codec 4) is lichess's analysed form " [%eval E] [%clk H:MM:SS] ": the evaluation is
// a number after the clock's.
enum ClockFrame : std::uint64_t { kFrameTexts = 0, kFrameSpaces = 1, kFrameBare = 2, kFrameEval = 3 };

// --- Clock comments -----------------------------------------------------------------------------

constexpr std::string_view kClockOpen = "[%clk ";
constexpr std::uint64_t kMaxClockSeconds = 999999ull * 3600 + 59 * 60 + 59;  // H has at most 6 digits

// The command text "[%clk H:MM:SS]" of `seconds` (H without leading zeros).
void append_clock(std::string& out, std::uint64_t seconds) {
  out += kClockOpen;
  out += std::to_string(seconds / 3600);
  const auto two = [&](std::uint64_t v) {
    out += static_cast<char>('0' + v / 10);
    out += static_cast<char>('0' + v % 10);
  };
  out += ':';
  two(seconds / 60 % 60);
  out += ':';
  two(seconds % 60);
  out += ']';
}

// A brace comment's text split around its clock command: `before`, the command, `after`. Only
// the first "[%clk " counts, and only if the command is in the form append_clock writes.
struct ClockSplit {
  std::string_view before, after;
  std::uint64_t seconds = 0;
};
bool split_clock(std::string_view text, ClockSplit& out) {
  const std::size_t at = text.find(kClockOpen);
  if (at == std::string_view::npos) return false;
  const std::size_t close = text.find(']', at);
  if (close == std::string_view::npos) return false;
  const std::string_view body = text.substr(at + kClockOpen.size(), close - at - kClockOpen.size());
  // H:MM:SS, H of 1 to 6 digits without a leading zero, MM and SS of two digits below 60.
  const std::size_t colon = body.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 6 || body.size() != colon + 6) return false;
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < colon; ++i) {
    if (body[i] < '0' || body[i] > '9') return false;
    h = h * 10 + static_cast<std::uint64_t>(body[i] - '0');
  }
  if (colon > 1 && body[0] == '0') return false;
  const auto digit = [&](std::size_t i) { return body[i] >= '0' && body[i] <= '9' ? body[i] - '0' : -1; };
  const int m1 = digit(colon + 1), m2 = digit(colon + 2), s1 = digit(colon + 4), s2 = digit(colon + 5);
  if (body[colon + 3] != ':' || m1 < 0 || m1 > 5 || m2 < 0 || s1 < 0 || s1 > 5 || s2 < 0) return false;
  out.before = text.substr(0, at);
  out.after = text.substr(close + 1);
  out.seconds = h * 3600 + static_cast<std::uint64_t>(m1 * 10 + m2) * 60 + static_cast<std::uint64_t>(s1 * 10 + s2);
  return true;
}

// --- Evaluations (codec 4) ----------------------------------------------------------------------

// An evaluation command "[%eval E]" as lichess writes it: E is centipawns as a decimal with one
// or two fraction digits (two unless the second is 0: "0.17", "0.2", "-1.0", "0.0"), or a mate
// "#N" / "#-N" (N >= 1). Coded as zigzag(centipawns) * 2, or zigzag(N) * 2 + 1.
constexpr std::string_view kEvalOpen = "[%eval ";
constexpr std::int64_t kMaxEvalCentipawns = 99999999;  // 6 integer digits
constexpr std::int64_t kMaxEvalMate = 999;

void append_eval(std::string& out, std::int64_t value, bool mate) {
  out += kEvalOpen;
  if (mate) {
    out += '#';
    out += std::to_string(value);
  } else {
    if (value < 0) out += '-';
    const std::uint64_t v = static_cast<std::uint64_t>(value < 0 ? -value : value);
    out += std::to_string(v / 100);
    out += '.';
    out += static_cast<char>('0' + v / 10 % 10);
    if (v % 10 != 0) out += static_cast<char>('0' + v % 10);
  }
  out += ']';
}

// Parses `text` as exactly "[%eval E]" in the form append_eval writes.
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

constexpr std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
constexpr std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// The last clocks of a line's two players (slots of even and odd parity), from which clocks are
// coded as differences (8.3.1, 8.3.2); each counts from 0.
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

// Codec 5 (8.3.2): a track's clocks are coded against a prediction from the game's time control:
// each player's first clock against the base, each later one against that player's previous
// clock plus the increment.
struct ClockBasis {
  std::int64_t base = 0, increment = 0;
};
// From the game's first TimeControl tag, if its value is "B+I" (each 1 to 9 decimal digits);
// else 0 and 0.
ClockBasis clock_basis(const std::vector<Tag>& tags) {
  for (const Tag& t : tags) {
    if (t.key != "TimeControl") continue;
    ClockBasis b;
    const std::size_t plus = t.value.find('+');
    const auto number = [](std::string_view d, std::int64_t& out) {
      if (d.empty() || d.size() > 9) return false;
      out = 0;
      for (char c : d) {
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
      }
      return true;
    };
    if (plus == std::string::npos || !number(std::string_view(t.value).substr(0, plus), b.base) ||
        !number(std::string_view(t.value).substr(plus + 1), b.increment))
      return {};
    return b;
  }
  return {};
}
// The clock a codec 5 track predicts at `slot` (1-based) of a line, from the clocks before it.
struct ClockPredictor {
  ClockBasis basis;
  std::int64_t last[2] = {0, 0};
  std::int64_t predict(std::uint64_t slot) const { return slot <= 2 ? basis.base : last[slot & 1] + basis.increment; }
};
// A track symbol: one byte below 255, else 255 and a varint of the rest.
constexpr std::uint64_t kSymbolEscape = 255;
void put_symbol(std::string& out, std::uint64_t u) {
  if (u < kSymbolEscape) {
    put_u8(out, static_cast<std::uint8_t>(u));
  } else {
    put_u8(out, static_cast<std::uint8_t>(kSymbolEscape));
    put_varint(out, u - kSymbolEscape);
  }
}
// Symbols of valid clocks are far below this; larger ones are rejected before any arithmetic.
constexpr std::uint64_t kMaxSymbol = std::uint64_t{1} << 40;
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

// A codec 5 track's frame runs (8.3.2, REC-CLK-7), as (length, frame) into `runs`: null, or
// why they are wrong (none, one reaching past the line, two in a row with one frame, fewer
// plies than the line's).
using FrameRuns = std::vector<std::pair<std::uint64_t, std::uint8_t>>;
template <class Reader>
const char* read_frame_runs(Reader& in, std::uint64_t plies, FrameRuns& runs) {
  std::uint64_t n;
  if (!in.varint(n) || n == 0 || n > plies) return "bad clock track frame runs";
  runs.clear();
  std::uint64_t covered = 0;
  for (std::uint64_t r = 0; r < n; ++r) {
    std::uint64_t v;
    if (!in.varint(v)) return "clock track runs past the end of its section";
    const auto frame = static_cast<std::uint8_t>(v & 3);
    const std::uint64_t length = (v >> 2) + 1;
    if (length > plies - covered) return "clock track frame runs longer than the line";
    if (!runs.empty() && runs.back().second == frame) return "two clock track frame runs of one frame";
    covered += length;
    runs.emplace_back(length, frame);
  }
  return covered == plies ? nullptr : "clock track frame runs shorter than the line";
}

// From codec 3 on, a line's null move count varint also says whether the line has a clock track
// (its low bit): takes that bit off `n`.
bool take_track_bit(std::uint64_t& n) {
  const bool track = n & 1;
  n >>= 1;
  return track;
}

// Limits (format specification, "Limits").
// Plies in one game, all its lines together: bounds the work a few bytes can ask of a decoder.
constexpr std::uint64_t kMaxPlies = 1u << 16;
constexpr int kMaxDepth = 256;
constexpr std::uint64_t kMaxItems = 1u << 24;

// --- The mixed-radix integer ------------------------------------------------------------------

// Appends the minimal little-endian bytes of G = d0.m + d0.n * (d1.m + d1.n * (...)), with a
// varint length before them. Digits are folded into a 64-bit word while their bases' product
// fits, and only then into the big integer (one multiply-add per about 13 plies).
// `log2_bases` receives the sum of log2(n) over the digits (the entropy bound), computed per batch.
void put_integer(std::string& out, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& digits,
                 double& log2_bases) {
  mp::cpp_int g = 0;
  std::uint64_t v = 0, base = 1;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const auto [m, n] = *it;
    if (n == 1) continue;
    if (base > ~std::uint64_t{0} / n) {
      g = g * base + v;
      log2_bases += std::log2(static_cast<double>(base));
      v = 0;
      base = 1;
    }
    v = m + n * v;
    base *= n;
  }
  g = g * base + v;
  log2_bases += std::log2(static_cast<double>(base));
  std::string bytes;
  if (g != 0) mp::export_bits(g, std::back_inserter(bytes), 8, false);
  put_prefixed(out, bytes);
}

// Reads digits off an integer: next(n) returns G mod n and divides G by n in one pass over G's
// limbs, most significant first. Limbs hold 48 bits so that the partial dividend (remainder *
// 2^48 + limb) stays below 2^56; for such dividends and bases up to 256 (a position has at most
// 218 legal moves) the quotient is the high word of a product with ceil(2^64 / n) (Granlund and
// Montgomery, "Division by invariant integers using multiplication", 1994, theorem 4.2 with
// N = 56, l = 8), so no division instruction is needed.
//
// The pass is a chain of dependent multiplications, and the digit it leaves at its end is what
// the next move waits for. So the digit is also computed beside it, from independent products:
// G mod n = (sum of limb_i * (2^(48 i) mod n)) mod n, with a table of those weights for the
// first 64 limbs (decode +6%; the longest games, past 3,072 bits, take the chain's digit).
// Limbs are kept in groups of four (the top group padded with zero limbs, which divide to zero),
// so that the pass is an unrolled loop whose trip count changes once per about 190 bits of the
// integer rather than once per 48 (fewer mispredicted loop exits: decode +2%).
// The limbs live in a buffer reused from game to game.
__extension__ typedef unsigned __int128 Uint128;  // GCC and Clang; -Wpedantic knows it is an extension

class DigitReader {
 public:
  static constexpr int kLimbBits = 48;
  static constexpr std::uint32_t kMaxFastBase = 256;
  static constexpr std::size_t kGroup = 4;
  static constexpr std::size_t kWeightLimbs = 64;

  bool load(std::string_view bytes) {
    if (!bytes.empty() && bytes.back() == 0) return false;  // not minimal
    const std::size_t limbs = (bytes.size() + 5) / 6;
    size_ = (limbs + kGroup - 1) / kGroup * kGroup;
    limbs_.assign(size_, 0);
    for (std::size_t i = 0; i < bytes.size(); ++i)
      limbs_[i / 6] |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[i])) << (8 * (i % 6));
    return true;
  }
  std::uint32_t next(std::uint32_t n) {
    std::uint64_t* const limb = limbs_.data();
    std::uint64_t r = 0;
    if (n > kMaxFastBase) {  // not reached by legal move counts; kept so that the reader is total
      for (std::size_t i = size_; i-- > 0;) {
        const Uint128 x = (static_cast<Uint128>(r) << kLimbBits) | limb[i];
        limb[i] = static_cast<std::uint64_t>(x / n);
        r = static_cast<std::uint64_t>(x % n);
      }
      shrink();
      return static_cast<std::uint32_t>(r);
    }
    const std::uint64_t m = kReciprocals[n];
    if (size_ > kWeightLimbs) return static_cast<std::uint32_t>(divide(n, m));
    // Each product is below 2^56 and there are at most 64: the sum stays below 2^62. Its bits
    // above 48 are folded down with the weight of 2^48, which leaves it below 2^49. (A separate
    // path: a select between this digit and the chain's would wait for the chain.)
    const std::uint8_t* const w = kWeights[n].data();
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < size_; i += kGroup)
      sum += limb[i] * w[i] + limb[i + 1] * w[i + 1] + limb[i + 2] * w[i + 2] + limb[i + 3] * w[i + 3];
    sum = (sum >> kLimbBits) * w[1] + (sum & ((std::uint64_t{1} << kLimbBits) - 1));
    const std::uint64_t digit = sum - quotient(sum, m) * n;
    divide(n, m);
    return static_cast<std::uint32_t>(digit);
  }
  bool exhausted() const { return size_ == 0; }

 private:
  // floor(x / n) for x < 2^56, from m = ceil(2^64 / n) (the theorem above).
  static std::uint64_t quotient(std::uint64_t x, std::uint64_t m) {
    return static_cast<std::uint64_t>((static_cast<Uint128>(x) * m) >> 64);
  }
  // Divides G by n (2 <= n <= 256, m its reciprocal); returns the remainder.
  std::uint64_t divide(std::uint64_t n, std::uint64_t m) {
    std::uint64_t* const limb = limbs_.data();
    std::uint64_t r = 0;
    const auto step = [&](std::uint64_t& l) {
      const std::uint64_t x = (r << kLimbBits) | l;
      const std::uint64_t q = quotient(x, m);
      r = x - q * n;
      l = q;
    };
    for (std::size_t i = size_; i > 0; i -= kGroup) {
      step(limb[i - 1]);
      step(limb[i - 2]);
      step(limb[i - 3]);
      step(limb[i - 4]);
    }
    shrink();
    return r;
  }
  // A division by a 32-bit base takes fewer bits off G than a group holds, so at most the top
  // group becomes zero.
  void shrink() {
    const std::uint64_t* const limb = limbs_.data();
    if (size_ && (limb[size_ - 1] | limb[size_ - 2] | limb[size_ - 3] | limb[size_ - 4]) == 0) size_ -= kGroup;
  }
  // ceil(2^64 / n) for 2 <= n <= 256 (entries 0 and 1 are unused: base 1 reads no digit).
  static constexpr std::array<std::uint64_t, kMaxFastBase + 1> kReciprocals = [] {
    std::array<std::uint64_t, kMaxFastBase + 1> t{};
    for (std::uint64_t n = 2; n <= kMaxFastBase; ++n) t[n] = ~std::uint64_t{0} / n + 1;
    return t;
  }();
  // 2^(48 i) mod n for 2 <= n <= 256 and i < 64: one 64-byte row per base.
  static constexpr auto kWeights = [] {
    std::array<std::array<std::uint8_t, kWeightLimbs>, kMaxFastBase + 1> t{};
    for (std::uint64_t n = 2; n <= kMaxFastBase; ++n)
      for (std::uint64_t i = 0, w = 1 % n; i < kWeightLimbs; ++i, w = (w << 24) % n * (std::uint64_t{1} << 24) % n)
        t[n][i] = static_cast<std::uint8_t>(w);
    return t;
  }();
  std::vector<std::uint64_t> limbs_;
  std::size_t size_ = 0;  // limbs in use, a multiple of kGroup; the top group is not all zero
};

// --- Encoding ---------------------------------------------------------------------------------

struct Item {
  std::uint32_t slot;
  std::uint8_t type;
  std::uint8_t nag = 0;
  const std::string* text = nullptr;
  ClockSplit clock;                        // kClock
  std::size_t var_begin = 0, var_end = 0;  // events of a variation, brackets excluded
  Position start;                          // where a variation starts
};

// Does a variation open after the move at events[i - 1] (only comments and NAGs between)?
bool variation_follows(const std::vector<GameEvent>& events, std::size_t i, std::size_t end) {
  for (; i < end; ++i) {
    if (events[i].type == GameEvent::kBeginVariation) return true;
    if (events[i].type != GameEvent::kComment && events[i].type != GameEvent::kNag) return false;
  }
  return false;
}

Error bad_game(const std::string& why) { return invalid_input("cannot encode game: " + why); }

// Encodes the line made of events [begin, end) (one nesting level; variations recurse).
Status encode_line(const std::vector<GameEvent>& events, std::size_t begin, std::size_t end,
                   const Position& start, bool annotated, int depth, const ClockBasis& basis, CodecStreams& out,
                   CodecStats* stats) {
  if (depth > kMaxDepth) return bad_game("variations nested deeper than " + std::to_string(kMaxDepth));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> digits;
  std::vector<std::uint32_t> nulls;
  std::vector<Item> items;
  Position pos = start, prev = start;
  std::uint32_t slot = 0;
  PieceTargets targets;
  for (std::size_t i = begin; i < end; ++i) {
    const GameEvent& e = events[i];
    switch (e.type) {
      case GameEvent::kMove: {
        detail::generate_targets(pos, targets);
        const int index = detail::index_in(pos, targets, e.move);
        if (index < 0) return bad_game("illegal move " + pos.uci(e.move) + " in position " + pos.fen());
        const int n = targets.total;
        digits.emplace_back(static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(n));
        if (variation_follows(events, i + 1, end)) prev = pos;
        pos.play(e.move);
        ++slot;
        break;
      }
      case GameEvent::kNullMove:
        nulls.push_back(slot);
        if (variation_follows(events, i + 1, end)) prev = pos;
        pos.play_null();
        ++slot;
        break;
      case GameEvent::kComment: {
        Item it{slot, static_cast<std::uint8_t>(e.comment_kind), 0, &e.text, {}, 0, 0, {}};
        if (e.comment_kind == CommentKind::kBrace && split_clock(e.text, it.clock)) it.type = kClock;
        items.push_back(std::move(it));
        break;
      }
      case GameEvent::kNag:
        items.push_back(Item{slot, kNag, e.nag, nullptr, {}, 0, 0, {}});
        break;
      case GameEvent::kBeginVariation: {
        if (slot == 0) return bad_game("a variation does not follow a move");
        int level = 1;
        std::size_t j = i + 1;
        for (; j < end && level > 0; ++j) {
          if (events[j].type == GameEvent::kBeginVariation) ++level;
          else if (events[j].type == GameEvent::kEndVariation) --level;
        }
        if (level != 0) return bad_game("a variation is not closed");
        items.push_back(Item{slot, kVariation, 0, nullptr, {}, i + 1, j - 1, prev});
        i = j - 1;
        break;
      }
      case GameEvent::kEndVariation:
        return bad_game("end of a variation that did not begin");
    }
  }
  if (stats) stats->plies += slot;
  if (!stats || stats->plies > kMaxPlies) return bad_game("more than " + std::to_string(kMaxPlies) + " plies");
  if (depth == 0 && stats) stats->mainline_plies += slot;

  put_varint(out.moves, slot);
  double log2_bases = 0;
  put_integer(out.moves, digits, log2_bases);
  if (stats) stats->log2_legal_moves += log2_bases;
  if (!annotated) return {};
  // The clock track (codec 3, spec 8.3.2): when every ply of the line is followed first of all
  // by a clock comment, those comments are coded as one number each, without slot or type.
  std::vector<bool> in_track(items.size(), false);
  // (Codec 4: NAGs may come before the clock at a slot, as in lichess's "6... Bg4? { [%eval
  // 1.87] [%clk 0:10:03] }", if the item after the clock is not a NAG, so that a reader can
  // put the clock back after the slot's leading NAGs.)
  bool track = slot > 0;
  for (std::size_t k = 0, s = 1; track && s <= slot; ++s) {
    while (k < items.size() && items[k].slot < s) ++k;
    while (k < items.size() && items[k].slot == s && items[k].type == kNag) ++k;
    track = k < items.size() && items[k].slot == s && items[k].type == kClock &&
            !(k + 1 < items.size() && items[k + 1].slot == s && items[k + 1].type == kNag);
    if (track) in_track[k] = true;
  }
  if (!track) in_track.assign(items.size(), false);
  put_varint(out.structure, nulls.size() * 2 + (track ? 1 : 0));
  std::uint32_t last = 0;
  for (std::size_t k = 0; k < nulls.size(); ++k) {
    put_varint(out.structure, k == 0 ? nulls[0] : nulls[k] - last - 1);
    last = nulls[k];
  }
  ClockPair item_clocks;
  // The track (codec 5, 8.3.2): the frames as runs, then per slot the clock's symbol against its
  // prediction, the evaluation of frame 3 and the texts of frame 0.
  struct TrackEntry {
    const Item* item;
    std::uint8_t frame;
    bool mate;
    std::int64_t eval;
  };
  std::vector<TrackEntry> entries;
  for (std::size_t k = 0; track && k < items.size(); ++k) {
    if (!in_track[k]) continue;
    const ClockSplit& c = items[k].clock;
    std::int64_t eval = 0;
    bool mate = false;
    const bool eval_frame = c.after == " " && c.before.size() > 2 && c.before.front() == ' ' && c.before.back() == ' ' &&
                            parse_eval(c.before.substr(1, c.before.size() - 2), eval, mate);
    const std::uint64_t frame = c.before == " " && c.after == " " ? kFrameSpaces
                                : c.before.empty() && c.after.empty() ? kFrameBare
                                : eval_frame                           ? kFrameEval
                                                                       : kFrameTexts;
    entries.push_back(TrackEntry{&items[k], static_cast<std::uint8_t>(frame), mate, eval});
  }
  if (track) {
    std::vector<std::pair<std::uint64_t, std::uint8_t>> runs;  // (length, frame)
    for (const TrackEntry& e : entries) {
      if (runs.empty() || runs.back().second != e.frame) runs.emplace_back(0, e.frame);
      ++runs.back().first;
    }
    put_varint(out.structure, runs.size());
    for (const auto& [length, f] : runs) put_varint(out.structure, (length - 1) << 2 | f);
    ClockPredictor clocks{basis, {0, 0}};
    std::int64_t last_eval = 0;  // the track's last evaluation in centipawns
    for (const TrackEntry& e : entries) {
      const ClockSplit& c = e.item->clock;
      const auto seconds = static_cast<std::int64_t>(c.seconds);
      put_symbol(out.structure, zigzag(clocks.predict(e.item->slot) - seconds));
      clocks.last[e.item->slot & 1] = seconds;
      if (e.frame == kFrameEval) {
        put_varint(out.structure, zigzag(e.mate ? e.eval : e.eval - last_eval) << 1 | (e.mate ? 1 : 0));
        if (!e.mate) last_eval = e.eval;
      }
      if (e.frame == kFrameTexts)
        for (std::string_view part : {c.before, c.after}) put_prefixed(out.texts, part);
    }
  }
  put_varint(out.structure, items.size() - (track ? slot : 0));
  last = 0;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    if (in_track[k]) continue;
    put_varint(out.structure, it.slot - last);
    last = it.slot;
    put_u8(out.structure, it.type);
    if (it.type == kNag) put_u8(out.structure, it.nag);
    if (it.type == kClock) {
      put_varint(out.structure, item_clocks.encode(it.slot, it.clock.seconds));
      for (std::string_view part : {it.clock.before, it.clock.after}) {
        put_prefixed(out.texts, part);
      }
    } else if (it.text) {
      put_prefixed(out.texts, *it.text);
    }
  }
  for (const Item& it : items)
    if (it.type == kVariation)
      if (auto st = encode_line(events, it.var_begin, it.var_end, it.start, true, depth + 1, basis, out, stats); !st)
        return st;
  return {};
}

void put_comments(const std::vector<Comment>& comments, CodecStreams& out) {
  put_varint(out.structure, comments.size());
  for (const Comment& c : comments) {
    put_u8(out.structure, static_cast<std::uint8_t>(c.kind));
    put_prefixed(out.texts, c.text);
  }
}

// --- Decoding ---------------------------------------------------------------------------------

Error corrupt(const std::string& why) { return corruption("game record: " + why); }

class Decoder {
 public:
  explicit Decoder(CodecCursor& in, std::vector<std::uint8_t>* notes = nullptr)
      : in_(in), moves_(in.moves), structure_(in.structure), texts_(in.texts), notes_(notes) {}

  Result<DecodedGame> run(std::vector<Tag> tags) {
    std::uint8_t header;
    if (!structure_.u8(header)) return corrupt("structure stream ends before the game header");
    if (header & kReservedBits) return corrupt("reserved bits set in game header");
    DecodedGame out;
    if (header & kRaw) {
      if (header != kRaw) return corrupt("raw game header with other bits set");
      std::string_view text;
      ByteReader raw(in_.raw);
      if (!raw.prefixed(text)) return corrupt("raw text runs past the end of its section");
      out.raw = true;
      out.raw_text.assign(text);
      return out;
    }
    const std::uint8_t result = header & kResultMask;
    if (result > static_cast<std::uint8_t>(GameResult::kUnknown)) return corrupt("reserved result value");
    Game& g = out.game;
    g.result = static_cast<GameResult>(result);
    g.tags = std::move(tags);
    tags_ = &g.tags;
    if (header & kHasFrame) {
      if (auto st = read_comments(g.prelude); !st) return st.error();
      if (auto st = read_comments(g.epilogue); !st) return st.error();
    }
    auto start = start_position(g.tags);
    if (!start) return corrupt("the tags give no start position: " + start.error().message());
    if (auto st = decode_line(*start, (header & kAnnotated) != 0, 0, g.events); !st) return st.error();
    return out;
  }

 private:
  Status read_comments(std::vector<Comment>& out) {
    std::uint64_t n;
    if (!structure_.varint(n) || n > structure_.remaining()) return corrupt("bad comment count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint8_t kind;
      if (!structure_.u8(kind) || kind > kEscape) return corrupt("bad comment kind");
      std::string_view text;
      if (!read_text(text)) return corrupt("comment text runs past the end of its section");
      out.push_back(Comment{static_cast<CommentKind>(kind), std::string(text)});
    }
    return {};
  }

  bool read_text(std::string_view& text) {
    return texts_.prefixed(text);
  }

  struct DItem {
    std::uint32_t slot;
    std::uint8_t type;
    std::uint8_t nag;
    std::string_view text;
    std::string clock_text;  // kClock: the comment text rebuilt around its clock command
  };

  static std::string clock_comment(std::string_view before, std::uint64_t seconds, std::string_view after) {
    std::string text;
    text.reserve(before.size() + after.size() + 16);
    text += before;
    append_clock(text, seconds);
    text += after;
    return text;
  }

  // A line's clock track (codec 3, 8.3.2): one clock comment per slot 1 .. plies, appended to
  // `items` in slot order.
  Status read_track(std::uint64_t plies, std::vector<DItem>& items) {
    if (plies == 0) return corrupt("clock track on a line without plies");
    if (plies > structure_.remaining()) return corrupt("clock track runs past the end of its section");
    items.reserve(plies);
    return read_runs_track(plies, items);
  }

  // A frame 3 track entry's evaluation (codec 4 on), as the text before its clock command.
  Status read_eval(std::int64_t& last_eval, std::string& eval_text) {
    std::uint64_t e;
    if (!structure_.varint(e)) return corrupt("evaluation runs past the end of its section");
    const bool mate = e & 1;
    const std::int64_t value = (mate ? 0 : last_eval) + unzigzag(e >> 1);
    if (mate ? value == 0 || value < -kMaxEvalMate || value > kMaxEvalMate
             : value < -kMaxEvalCentipawns || value > kMaxEvalCentipawns)
      return corrupt("evaluation out of range");
    if (!mate) last_eval = value;
    eval_text = " ";
    append_eval(eval_text, value, mate);
    eval_text += ' ';
    return {};
  }

  // A codec 5 track (8.3.2): the frames as runs, then per slot a clock symbol against the
  // clock predicted from the game's time control, and the frame's evaluation or texts.
  Status read_runs_track(std::uint64_t plies, std::vector<DItem>& items) {
    if (const char* why = read_frame_runs(structure_, plies, runs_)) return corrupt(why);
    if (!basis_known_) {
      basis_ = clock_basis(*tags_);
      basis_known_ = true;
    }
    ClockPredictor clocks{basis_, {0, 0}};
    std::int64_t last_eval = 0;
    std::string eval_text;
    std::uint64_t slot = 0;
    for (const auto& [length, frame] : runs_) {
      for (std::uint64_t i = 0; i < length; ++i) {
        ++slot;
        std::uint64_t u;
        if (!get_symbol(structure_, u)) return corrupt("clock track runs past the end of its section");
        const std::int64_t seconds = clocks.predict(slot) - unzigzag(u);
        if (seconds < 0 || static_cast<std::uint64_t>(seconds) > kMaxClockSeconds) return corrupt("clock out of range");
        clocks.last[slot & 1] = seconds;
        std::string_view before = " ", after = " ";
        if (frame == kFrameTexts) {
          if (!read_text(before) || !read_text(after)) return corrupt("comment text runs past the end of its section");
        } else if (frame == kFrameBare) {
          before = after = {};
        } else if (frame == kFrameEval) {
          if (auto st = read_eval(last_eval, eval_text); !st) return st;
          before = eval_text;
        }
        items.push_back(DItem{static_cast<std::uint32_t>(slot), kClock, 0, {},
                              clock_comment(before, static_cast<std::uint64_t>(seconds), after)});
      }
    }
    return {};
  }

  // items = the track's clocks (the first `track` entries, slots 1, 2, ...) then the line's other
  // items in slot order: puts each track clock first among the items of its slot (codec 3) or
  // after the slot's leading NAGs (codec 4).
  void merge_track(std::vector<DItem>& items, std::size_t track) const {
    // No track, or nothing but the track (a lichess game without NAGs): already in order.
    if (track == 0 || track == items.size()) return;
    std::vector<DItem> merged;
    merged.reserve(items.size());
    std::size_t other = track;
    for (std::size_t k = 0; k < track; ++k) {
      const std::uint32_t s = items[k].slot;
      for (; other < items.size() && items[other].slot < s; ++other) merged.push_back(std::move(items[other]));
      for (; other < items.size() && items[other].slot == s && items[other].type == kNag; ++other)
        merged.push_back(std::move(items[other]));
      merged.push_back(std::move(items[k]));
    }
    for (; other < items.size(); ++other) merged.push_back(std::move(items[other]));
    items = std::move(merged);
  }

  Status decode_line(const Position& start, bool annotated, int depth, std::vector<GameEvent>& events) {
    if (depth > kMaxDepth) return corrupt("variations nested too deep");
    std::uint64_t plies;
    std::string_view bytes;
    if (!moves_.varint(plies) || plies > kMaxPlies - total_plies_) return corrupt("more than 65536 plies in the game");
    total_plies_ += plies;
    if (!moves_.prefixed(bytes)) return corrupt("move integer runs past the end of its section");
    std::vector<std::uint32_t> nulls;
    std::vector<DItem> items;
    if (annotated) {
      std::uint64_t n;
      if (!structure_.varint(n)) return corrupt("bad null move count");
      const bool track = take_track_bit(n);
      if (n > plies) return corrupt("bad null move count");
      std::uint64_t at = 0;
      for (std::uint64_t k = 0; k < n; ++k) {
        std::uint64_t d;
        if (!structure_.varint(d)) return corrupt("bad null move ply");
        at += (k == 0 ? 0 : 1) + d;
        if (at >= plies) return corrupt("null move past the end of the line");
        nulls.push_back(static_cast<std::uint32_t>(at));
      }
      if (track)
        if (auto st = read_track(plies, items); !st) return st;
      const std::size_t tracked = items.size();
      if (!structure_.varint(n) || n > kMaxItems || n > structure_.remaining()) return corrupt("bad item count");
      std::uint64_t slot = 0;
      ClockPair clocks;
      for (std::uint64_t k = 0; k < n; ++k) {
        std::uint64_t d;
        DItem it{};
        if (!structure_.varint(d) || !structure_.u8(it.type)) return corrupt("item runs past the end of its section");
        slot += d;
        if (slot > plies) return corrupt("item anchored past the end of the line");
        it.slot = static_cast<std::uint32_t>(slot);
        if (it.type > kClock) return corrupt("reserved item type");
        if (it.type == kNag && !structure_.u8(it.nag)) return corrupt("NAG runs past the end of its section");
        if (it.type <= kEscape && !read_text(it.text)) return corrupt("comment text runs past the end of its section");
        if (it.type == kVariation && slot == 0) return corrupt("variation before the first ply");
        if (it.type == kClock) {
          std::uint64_t delta, seconds;
          std::string_view before, after;
          if (!structure_.varint(delta)) return corrupt("clock runs past the end of its section");
          if (!clocks.decode(slot, delta, seconds)) return corrupt("clock out of range");
          if (!read_text(before) || !read_text(after)) return corrupt("comment text runs past the end of its section");
          it.clock_text = clock_comment(before, seconds, after);
        }
        items.push_back(std::move(it));
      }
      merge_track(items, tracked);
    }
    DigitReader& digits = digit_readers_[static_cast<std::size_t>(depth)];
    if (!digits.load(bytes)) return corrupt("move integer is not minimal");

    Position pos = start, prev = start;
    std::size_t next_item = 0, next_null = 0;
    events.reserve(events.size() + plies + items.size());
    PieceTargets targets;
    // With notes: the note of this line's last move waits for the position after it, which
    // gives its check suffix.
    std::size_t pending = kNoNote;
    // Plays the next coded move; false if the position has no legal move to code.
    const auto play_next = [&] {
      detail::generate_targets(pos, targets);
      if (pending != kNoNote) {
        (*notes_)[pending] = static_cast<std::uint8_t>((*notes_)[pending] | detail::san_suffix(targets) << 2);
        pending = kNoNote;
      }
      const int n = targets.total;
      if (n == 0) return false;
      const std::uint32_t m = n == 1 ? 0 : digits.next(static_cast<std::uint32_t>(n));
      const Move move = detail::move_at_index(pos, targets, static_cast<int>(m));
      if (notes_) {
        pending = notes_->size();
        notes_->push_back(detail::san_note(pos, targets, move));
      }
      events.emplace_back().move = move;  // a default event is a move
      pos.play(move);
      return true;
    };
    // Before a null move and at the end of the line: the last move's suffix from `pos`.
    const auto settle = [&] {
      if (pending == kNoNote) return;
      detail::generate_targets(pos, targets);
      (*notes_)[pending] = static_cast<std::uint8_t>((*notes_)[pending] | detail::san_suffix(targets) << 2);
      pending = kNoNote;
    };
    if (items.empty() && nulls.empty()) {  // moves only: the common case
      for (std::uint64_t ply = 0; ply < plies; ++ply)
        if (!play_next()) return corrupt("a move is coded where there is no legal move");
      if (!digits.exhausted()) return corrupt("move integer holds more than its plies");
      settle();
      return {};
    }
    for (std::uint32_t slot = 0;; ++slot) {
      for (; next_item < items.size() && items[next_item].slot == slot; ++next_item) {
        const DItem& it = items[next_item];
        switch (it.type) {
          case kNag: events.push_back(GameEvent::make_nag(it.nag)); break;
          case kVariation:
            events.push_back(GameEvent::begin_variation());
            if (auto st = decode_line(prev, true, depth + 1, events); !st) return st;
            events.push_back(GameEvent::end_variation());
            break;
          case kClock: events.push_back(GameEvent::comment(std::move(items[next_item].clock_text))); break;
          default:
            events.push_back(GameEvent::comment(std::string(it.text), static_cast<CommentKind>(it.type)));
        }
      }
      if (slot == plies) break;
      // The position before this ply is needed only if a variation follows it.
      bool variation_follows = false;
      for (std::size_t k = next_item; k < items.size() && items[k].slot == slot + 1; ++k)
        variation_follows |= items[k].type == kVariation;
      if (variation_follows) prev = pos;
      if (next_null < nulls.size() && nulls[next_null] == slot) {
        ++next_null;
        settle();
        events.push_back(GameEvent::null_move());
        pos.play_null();
        continue;
      }
      if (!play_next()) return corrupt("a move is coded where there is no legal move");
    }
    if (!digits.exhausted()) return corrupt("move integer holds more than its plies");
    settle();
    return {};
  }

  static constexpr std::size_t kNoNote = ~std::size_t{0};
  CodecCursor& in_;
  ByteReader moves_, structure_, texts_;
  std::vector<std::uint8_t>* notes_;  // SAN notes of the moves, in event order (or null)
  std::uint64_t total_plies_ = 0;
  // Codec 5 tracks: the game's tags, and the clock basis read from them at the first track.
  const std::vector<Tag>* tags_ = nullptr;
  bool basis_known_ = false;
  ClockBasis basis_;
  FrameRuns runs_;  // a track's frame runs
  // One per nesting level (a variation is decoded while its parent line is part way through).
  static thread_local std::array<DigitReader, kMaxDepth + 2> digit_readers_;
};

thread_local std::array<DigitReader, kMaxDepth + 2> Decoder::digit_readers_;

// Walks a record's lengths and structure without the board.
class Skipper {
 public:
  explicit Skipper(CodecCursor& in) : in_(in), moves_(in.moves), structure_(in.structure), texts_(in.texts) {}
  // The cursor advances only past a game that could be skipped.
  Status run() {
    Status st = walk();
    if (st) {
      in_.moves = moves_.rest();
      in_.structure = structure_.rest();
      in_.texts = texts_.rest();
    }
    return st;
  }

 private:
  Status walk() {
    std::uint8_t header;
    if (!structure_.u8(header) || (header & kReservedBits)) return corrupt("bad game header");
    if (header & kRaw) {
      std::string_view text;
      ByteReader raw(in_.raw);
      if (header != kRaw || !raw.prefixed(text)) return corrupt("bad raw game");
      return {};
    }
    if (header & kHasFrame)
      for (int list = 0; list < 2; ++list) {
        std::uint64_t n;
        if (!structure_.varint(n) || n > structure_.remaining()) return corrupt("bad comment count");
        for (std::uint64_t i = 0; i < n; ++i) {
          std::uint8_t kind;
          if (!structure_.u8(kind) || kind > kEscape || !skip_text()) return corrupt("bad comment");
        }
      }
    return line((header & kAnnotated) != 0, 0);
  }

  bool skip_text() {
    std::string_view t;
    return texts_.prefixed(t);
  }
  Status line(bool annotated, int depth) {
    if (depth > kMaxDepth) return corrupt("variations nested too deep");
    std::uint64_t plies;
    std::string_view bytes;
    if (!moves_.varint(plies) || plies > kMaxPlies - total_plies_ || !moves_.prefixed(bytes))
      return corrupt("bad line");
    total_plies_ += plies;
    if (!annotated) return {};
    std::uint64_t n, d;
    if (!structure_.varint(n)) return corrupt("bad null move count");
    const bool track = take_track_bit(n);
    if (n > plies) return corrupt("bad null move count");
    for (std::uint64_t k = 0; k < n; ++k)
      if (!structure_.varint(d)) return corrupt("bad null move ply");
    if (track)
      if (auto st = skip_runs_track(plies); !st) return st;
    if (!structure_.varint(n) || n > kMaxItems || n > structure_.remaining()) return corrupt("bad item count");
    std::uint64_t variations = 0;
    for (std::uint64_t k = 0; k < n; ++k) {
      std::uint8_t type, nag;
      if (!structure_.varint(d) || !structure_.u8(type) || type > kClock) return corrupt("bad item");
      if (type == kNag && !structure_.u8(nag)) return corrupt("bad NAG");
      if (type <= kEscape && !skip_text()) return corrupt("bad comment");
      if (type == kClock && (!structure_.varint(d) || !skip_text() || !skip_text())) return corrupt("bad clock comment");
      variations += type == kVariation;
    }
    for (std::uint64_t v = 0; v < variations; ++v)
      if (auto st = line(true, depth + 1); !st) return st;
    return {};
  }
  // A codec 5 track: its frame runs, then per slot a symbol and the frame's evaluation or texts.
  Status skip_runs_track(std::uint64_t plies) {
    if (plies == 0) return corrupt("clock track on a line without plies");
    if (const char* why = read_frame_runs(structure_, plies, runs_)) return corrupt(why);
    std::uint64_t u, eval;
    for (const auto& [length, frame] : runs_)
      for (std::uint64_t i = 0; i < length; ++i) {
        if (!get_symbol(structure_, u)) return corrupt("bad clock track");
        if (frame == kFrameEval && !structure_.varint(eval)) return corrupt("bad clock track");
        if (frame == kFrameTexts && (!skip_text() || !skip_text())) return corrupt("bad clock comment");
      }
    return {};
  }

  CodecCursor& in_;
  detail::ByteCursor moves_, structure_, texts_;  // copies, written back by run()
  std::uint64_t total_plies_ = 0;
  // A codec 5 track's frame runs, kept between games (a random read skips many; a track is done
  // with them before the line's variations are walked).
  static thread_local FrameRuns runs_;
};

}  // namespace

thread_local FrameRuns Skipper::runs_;

Status skip_game(CodecCursor& in) { return Skipper(in).run(); }

Status encode_game(const Game& game, CodecStreams& out, CodecStats* stats) {
  auto start = start_position(game.tags);
  if (!start) return bad_game(start.error().message());
  bool annotated = false;
  for (const GameEvent& e : game.events) annotated |= e.type != GameEvent::kMove;
  const bool frame = !game.prelude.empty() || !game.epilogue.empty();
  // Encode into scratch streams first so that a failure leaves `out` untouched.
  CodecStreams s;
  put_u8(s.structure, static_cast<std::uint8_t>(static_cast<std::uint8_t>(game.result) | (annotated ? kAnnotated : 0) |
                                                (frame ? kHasFrame : 0)));
  if (frame) {
    put_comments(game.prelude, s);
    put_comments(game.epilogue, s);
  }
  CodecStats local;
  const ClockBasis basis = clock_basis(game.tags);
  if (auto st = encode_line(game.events, 0, game.events.size(), *start, annotated, 0, basis, s, &local); !st) return st;
  out.moves += s.moves;
  out.structure += s.structure;
  out.texts += s.texts;
  if (stats) {
    ++stats->games;
    stats->plies += local.plies;
    stats->mainline_plies += local.mainline_plies;
    stats->log2_legal_moves += local.log2_legal_moves;
  }
  return {};
}

void encode_raw_game(std::string_view raw_text, CodecStreams& out, CodecStats* stats) {
  put_u8(out.structure, kRaw);
  put_prefixed(out.raw, raw_text);
  if (stats) {
    ++stats->games;
    ++stats->raw_games;
  }
}

Result<DecodedGame> decode_game(CodecCursor& in, std::vector<Tag> tags) {
  Decoder d(in);
  return d.run(std::move(tags));
}

Result<DecodedGame> detail::decode_game_noted(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>& notes) {
  notes.clear();
  Decoder d(in, &notes);
  return d.run(std::move(tags));
}

}  // namespace pgnarc
