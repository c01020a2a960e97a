// Record comments: shapes and values (comment_record.h; format specification, "Record comments").
#include "codec/record/comment_record.h"

#include <algorithm>
#include <bit>


#include "common/bytes.h"

namespace pgnarc::codec {

using common::unzigzag;
using common::zigzag;
using rules::generate_targets;
using rules::index_in;
using rules::move_at_index;

namespace {

__extension__ typedef unsigned __int128 u128;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
inline constexpr std::size_t kMaxSanBytes = 7;
bool is_mark(char c) { return c == kMarkMoves || c == kMarkTime || c == kMarkNumber; }
// The characters of a SAN move.
bool is_san_char(char c) {
  return (c >= 'a' && c <= 'h') || (c >= '1' && c <= '8') || c == 'K' || c == 'Q' || c == 'R' || c == 'B' ||
         c == 'N' || c == 'O' || c == 'x' || c == '=' || c == '+' || c == '#' || c == '-';
}

std::uint8_t number_format(int fraction, int sign, int width) {
  return static_cast<std::uint8_t>(2 + fraction + 8 * (sign + 3 * (width - 1)));
}
// A number's format byte read back: digits after the point, sign style, width.
struct NumberFormat {
  int fraction, sign, width;
  explicit NumberFormat(std::uint8_t format)
      : fraction((format - 2) % 8), sign((format - 2) / 8 % 3), width((format - 2) / 24 + 1) {}
};

// Adds the value that text[i, end) holds as `mark` and `format` to the record, if the format
// writes it back exactly (`write` appends a value's text).
template <class Write>
bool add_if_exact(std::string_view text, std::size_t& i, std::size_t end, std::uint8_t mark, std::uint8_t format,
                  std::int64_t value, Write write, RecordSplit& out) {
  std::string check;
  write(check, value, format);
  if (check != text.substr(i, end - i)) return false;
  out.shape += static_cast<char>(mark);
  out.shape += static_cast<char>(format);
  out.values.push_back(RecordValue{mark, format, value, {}});
  i = end;
  return true;
}

// The integer of the decimal digits text[b, e) (at most 18 of them).
std::int64_t digits_value(std::string_view text, std::size_t b, std::size_t e) {
  std::int64_t v = 0;
  for (std::size_t k = b; k < e; ++k)
    if (is_digit(text[k])) v = v * 10 + (text[k] - '0');
  return v;
}

// A number at text[i]: [+-]digits[.digits].
bool take_number(std::string_view text, std::size_t& i, RecordSplit& out) {
  std::size_t j = i;
  char sign = 0;
  if ((text[j] == '+' || text[j] == '-') && j + 1 < text.size() && is_digit(text[j + 1])) sign = text[j++];
  if (j >= text.size() || !is_digit(text[j])) return false;
  // (Digits are read only as far as a number can have them, so that a long run of digits costs
  // a constant at each of its bytes, not its length.)
  const std::size_t first = j;
  while (j < text.size() && is_digit(text[j]) && j - first <= 18) ++j;
  const std::size_t whole = j - first;
  if (whole > 18) return false;
  std::size_t fraction = 0;
  if (j + 1 < text.size() && text[j] == '.' && is_digit(text[j + 1])) {
    ++j;
    while (j < text.size() && is_digit(text[j]) && fraction <= 7) ++j, ++fraction;
  }
  if (whole + fraction > 18 || fraction > 7) return false;
  const std::size_t width = whole > 1 && text[first] == '0' ? whole : 1;
  if (width > 10) return false;
  std::int64_t value = digits_value(text, first, j);
  int style = 0;
  if (sign == '+') style = 1;
  if (sign == '-') {
    value = -value;
    style = value == 0 ? 2 : 0;
  }
  const std::uint8_t format = number_format(static_cast<int>(fraction), style, static_cast<int>(width));
  return add_if_exact(text, i, j, kMarkNumber, format, value, append_number, out);
}

// A time at text[i]: H:MM:SS.
bool take_time(std::string_view text, std::size_t& i, RecordSplit& out) {
  std::size_t j = i;
  while (j < text.size() && is_digit(text[j]) && j - i <= 10) ++j;
  const std::size_t hours = j - i;
  if (hours == 0 || hours > 10 || j + 6 > text.size() || text[j] != ':' || text[j + 3] != ':') return false;
  for (std::size_t k : {j + 1, j + 2, j + 4, j + 5})
    if (!is_digit(text[k])) return false;
  if (j + 6 < text.size() && is_digit(text[j + 6])) return false;
  const std::int64_t mm = digits_value(text, j + 1, j + 3), ss = digits_value(text, j + 4, j + 6);
  if (mm > 59 || ss > 59) return false;
  const std::int64_t value = digits_value(text, i, j) * 3600 + mm * 60 + ss;
  if (value > kMaxRecordTime) return false;
  const std::size_t width = hours > 1 && text[i] == '0' ? hours : 1;
  const auto format = static_cast<std::uint8_t>(2 + width - 1);
  return add_if_exact(text, i, j + 6, kMarkTime, format, value, append_time, out);
}

// The moves of the run at text[i] from `pos`, each token the canonical SAN of a legal move, tokens
// one space apart, the last not followed by a letter or digit; `end` is where the run ends.
std::vector<Move> read_run(std::string_view text, std::size_t i, Position pos, std::size_t& end) {
  std::vector<Move> run;
  end = i;
  for (std::size_t at = i; at < text.size() && run.size() < kMaxRunMoves;) {
    // A SAN move has at most 7 bytes ("exd8=Q+"): a longer token is none, found without reading it
    // to its end.
    std::size_t j = at;
    while (j < text.size() && is_san_char(text[j]) && j - at <= kMaxSanBytes) ++j;
    if (j == at || j - at > kMaxSanBytes || (j < text.size() && (is_letter(text[j]) || is_digit(text[j])))) break;
    const std::string_view token = text.substr(at, j - at);
    auto m = pos.parse_san(token);
    if (!m || pos.san(*m) != token) break;
    run.push_back(*m);
    pos.play(*m);
    end = j;
    if (j + 1 >= text.size() || text[j] != ' ') break;
    at = j + 1;
  }
  return run;
}

bool take_run(std::string_view text, std::size_t& i, const Position* pre, const Position& post, RecordSplit& out) {
  if (!is_san_char(text[i]) || is_digit(text[i])) return false;
  std::size_t end_post, end_pre = i;
  std::vector<Move> run = read_run(text, i, post, end_post);
  std::uint8_t format = kFormatPost;
  if (pre) {
    std::vector<Move> before = read_run(text, i, *pre, end_pre);
    if (before.size() > run.size()) {
      run = std::move(before);
      end_post = end_pre;
      format = kFormatPre;
    }
  }
  if (run.empty()) return false;
  out.shape += static_cast<char>(kMarkMoves);
  out.shape += static_cast<char>(format);
  out.values.push_back(RecordValue{kMarkMoves, format, 0, std::move(run)});
  i = end_post;
  return true;
}

// A position as the moves seen from it are keyed: its pieces, side to move, castling rooks and
// en passant square (not its move counters: a transposition reaches the same position).
void placement_key(const Position& pos, std::string& key) {
  key.resize(64 + 6);
  for (int s = 0; s < 64; ++s) key[s] = static_cast<char>(pos.piece_on(static_cast<Square>(s)));
  key[64] = static_cast<char>(pos.side_to_move());
  key[65] = static_cast<char>(pos.ep_square());
  int k = 66;
  for (Color c : {kWhite, kBlack})
    for (CastleSide side : {kKingSide, kQueenSide}) key[k++] = static_cast<char>(pos.castling_rook(c, side));
}

// The encoder's and the decoder's side of RecordModel::values: the symbol coder's, with the
// record's values to code and the text read.
struct EncodeSide : SymbolWriter {
  const RecordSplit& record;
  std::size_t next = 0;  // the value being coded
  EncodeSide(const RecordSplit& r, std::vector<PlySymbol>& o) : SymbolWriter{o}, record(r) {}
};

struct DecodeSide : SymbolReader {
  std::string& text;
  DecodeSide(ArithDecoder& i, std::string& t) : SymbolReader{i}, text(t) {}
};

// `v`, a number of `from` digits after the point, in units of `to` digits after it: times or
// divided by powers of 10 (the quotient truncated toward 0), kept within +-kMaxRecordNumber.
std::int64_t rescale(std::int64_t v, int from, int to) {
  for (; from < to; ++from) v = v > kMaxRecordNumber / 10 ? kMaxRecordNumber : v < -kMaxRecordNumber / 10 ? -kMaxRecordNumber : v * 10;
  for (; from > to; --from) v /= 10;
  return v;
}


}  // namespace

void append_number(std::string& out, std::int64_t value, std::uint8_t format) {
  const auto [fraction, style, width] = NumberFormat(format);
  if (value < 0 || style == 2) out += '-';
  else if (style == 1) out += '+';
  std::uint64_t magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  char digits[24];
  int n = 0;
  for (; magnitude > 0 || n < width + fraction; magnitude /= 10) digits[n++] = static_cast<char>('0' + magnitude % 10);
  for (int k = n - 1; k >= 0; --k) {
    out += digits[k];
    if (k == fraction && fraction > 0) out += '.';
  }
}

void append_time(std::string& out, std::int64_t seconds, std::uint8_t format) {
  const int width = format - 1;
  const std::string hours = std::to_string(seconds / 3600);
  if (static_cast<int>(hours.size()) < width) out.append(static_cast<std::size_t>(width) - hours.size(), '0');
  out += hours;
  const auto two = [&](std::int64_t v) {
    out += ':';
    out += static_cast<char>('0' + v / 10);
    out += static_cast<char>('0' + v % 10);
  };
  two(seconds / 60 % 60);
  two(seconds % 60);
}

bool split_record(std::string_view text, const Position* pre, const Position& post, RecordSplit& out) {
  out.shape.clear();
  out.values.clear();
  for (char c : text)
    if (is_mark(c)) return false;
  for (std::size_t i = 0; i < text.size();) {
    if (i == 0 || !is_letter(text[i - 1])) {
      if (take_run(text, i, pre, post, out) || take_time(text, i, out) || take_number(text, i, out)) continue;
    }
    out.shape += text[i++];
  }
  return !out.values.empty() && out.values.size() <= kMaxShapeValues;
}

const char* check_shape(std::string_view shape, bool has_pre) {
  std::size_t values = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (!is_mark(shape[i])) continue;
    if (i + 1 == shape.size()) return "a record's shape ends after a mark";
    const auto mark = static_cast<std::uint8_t>(shape[i]), format = static_cast<std::uint8_t>(shape[++i]);
    const std::uint8_t top = mark == kMarkMoves ? kFormatPost : mark == kMarkTime ? kMaxTimeFormat : kMaxNumberFormat;
    if (format < 2 || format > top) return "a record's shape has a format out of range";
    if (mark == kMarkMoves && format == kFormatPre && !has_pre) return "a record before a line's first ply has moves before it";
    ++values;
  }
  if (values == 0 || values > kMaxShapeValues) return "a record's shape has no values or too many";
  return nullptr;
}

void adopt_recent_signs(RecordSplit& r, const RecentShapes<std::string>& shapes) {
  if (shapes.rank(r.shape) != 0) return;
  for (std::uint64_t rank = 1; rank <= std::min<std::uint64_t>(shapes.size(), 4); ++rank) {
    const std::string& recent = shapes.at(rank);
    if (recent.size() != r.shape.size()) continue;
    bool same = true;
    std::size_t value = 0;
    for (std::size_t i = 0; same && i < recent.size(); ++i) {
      if (!is_mark(recent[i])) {
        same = recent[i] == r.shape[i];
        continue;
      }
      same = recent[i] == r.shape[i];
      const auto a = static_cast<std::uint8_t>(recent[++i]), b = static_cast<std::uint8_t>(r.shape[i]);
      // A negative number reads the same in sign style 0 and 1.
      if (same && a != b) {
        const NumberFormat fa(a), fb(b);
        same = recent[i - 1] == kMarkNumber && r.values[value].number < 0 && fa.fraction == fb.fraction &&
               fa.width == fb.width && fa.sign + fb.sign == 1;
      }
      ++value;
    }
    if (!same) continue;
    value = 0;
    for (std::size_t i = 0; i < recent.size(); ++i)
      if (is_mark(recent[i])) r.values[value++].format = static_cast<std::uint8_t>(recent[++i]);
    r.shape = recent;
    return;
  }
}

bool RecordModel::admit(const RecordSplit& r) {
  std::uint64_t cost = r.shape.size() + r.values.size();
  for (const RecordValue& v : r.values) cost += v.moves.size();
  if (cost > limit_ - admitted_) return false;
  admitted_ += cost;
  return true;
}

RecordModel::Field& RecordModel::field(const std::string& key) {
  // (Found without making a string: a key is longer than a short string holds.)
  if (const auto it = field_index_.find(key); it != field_index_.end()) return fields_[it->second];
  field_index_.emplace(key, fields_.size());
  return fields_.emplace_back();
}

RecordModel::Seen& RecordModel::seen(const Position& pos) {
  placement_key(pos, position_key_);
  return seen_[position_key_];
}

void RecordModel::enter_line(const std::vector<model::LineState>& states, const std::vector<Move>& moves) {
  for (std::size_t k = 0; k < moves.size(); ++k)
    if (!moves[k].is_null()) seen(states[k].pos).game = moves[k];
}

// The values of a record of `shape`, in order. Each value belongs to a field, named by its mark,
// the text since the previous value (its last 12 bytes) and how many values of this record before
// it had the same mark and text. A number or time is coded as the zigzag difference from the
// field's last value of the same side (else of the other side, else 0); a time left (text ending
// "tl=") after a move time of the same record (text ending "mt=") is predicted as the side's last
// time left less the move time plus what was added to it at the side's last record. A run is its
// length, as a number, then its moves.
template <class Side>
bool RecordModel::values(std::string_view shape, const model::LineState* pre, const model::LineState& post,
                         Side& side) {
  if ((work_ += shape.size()) > limit_) return false;
  const int us = post.pos.side_to_move() == kWhite ? 1 : 0;  // the side that played the ply
  labels_.clear();  // mark, text -> values of this record so far
  std::int64_t move_time[2] = {0, 0};                         // [time, number]
  bool have_move_time[2] = {false, false};
  std::int64_t speed = -1, any_move_time = -1;                // this record's "s=" and "mt=", if any
  std::size_t literal = 0;  // where the text since the previous value starts
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (!is_mark(shape[i])) {
      if constexpr (Side::kDecoding) side.text += shape[i];
      continue;
    }
    const auto mark = static_cast<std::uint8_t>(shape[i]), format = static_cast<std::uint8_t>(shape[i + 1]);
    const std::string_view text = shape.substr(literal, i - literal);
    const std::string_view tail = text.substr(text.size() > 12 ? text.size() - 12 : 0);
    i += 1;
    literal = i + 1;
    key_.assign(1, static_cast<char>(mark));
    key_ += tail;
    const int count = labels_[key_]++;
    key_ += '\0';
    key_ += static_cast<char>(count & 0xFF);
    key_ += static_cast<char>(count >> 8);
    Field& f = field(key_);
    if (++work_ > limit_) return false;

    const RecordValue* given = nullptr;
    if constexpr (!Side::kDecoding) given = &side.record.values[side.next++];
    // The value: a number, a time, or a run's length.
    // Values are within +-10^18 and steps within +-3 * 10^18, so predictions stay within
    // +-5 * 10^18 and the writer's differences within +-6 * 10^18.
    const int from = f.seen[us] ? us : f.seen[1 - us] ? 1 - us : -1;
    const int fraction = mark == kMarkNumber ? NumberFormat(format).fraction : 0;
    std::int64_t predicted = from < 0 ? 0 : rescale(f.last[from], f.fraction[from], fraction);
    const int kind = mark == kMarkTime ? 0 : 1;
    const bool time_left = mark != kMarkMoves && tail.ends_with("tl=") && have_move_time[kind] && f.seen[us];
    if (time_left) predicted = f.last[us] - move_time[kind] + f.step[us];
    // Nodes ("n=") after a speed ("s=") and a move time: in the ratio of speed times time to that
    // of the side's last record.
    std::uint64_t product = 0;
    if (mark == kMarkNumber && tail.ends_with("n=") && speed >= 0 && any_move_time >= 0) {
      const u128 p = static_cast<u128>(speed) * static_cast<std::uint64_t>(any_move_time);
      if (p >> 64 == 0) product = static_cast<std::uint64_t>(p);
      if (product > 0 && f.seen[us] && f.product[us] > 0 && f.last[us] >= 0 && f.last[us] < (std::int64_t{1} << 60)) {
        const u128 n = static_cast<u128>(f.last[us]) * product / f.product[us];
        predicted = n > static_cast<u128>(kMaxRecordNumber) ? kMaxRecordNumber : static_cast<std::int64_t>(n);
      }
    }
    std::int64_t value = 0;
    if constexpr (!Side::kDecoding)
      value = mark == kMarkMoves ? static_cast<std::int64_t>(given->moves.size()) : given->number;
    std::uint64_t u = Side::kDecoding ? 0 : zigzag(static_cast<std::int64_t>(value - predicted));
    if (!code_width_number(side, f.widths, u)) return false;
    if constexpr (Side::kDecoding) {
      const std::int64_t low = mark == kMarkNumber ? -kMaxRecordNumber : mark == kMarkTime ? 0 : 1;
      const std::int64_t high = mark == kMarkNumber  ? kMaxRecordNumber
                                : mark == kMarkTime ? kMaxRecordTime
                                                    : static_cast<std::int64_t>(kMaxRunMoves);
      if (__builtin_add_overflow(predicted, unzigzag(u), &value) || value < low || value > high) return false;
      if (mark == kMarkNumber && value > 0 && NumberFormat(format).sign == 2) return false;
    }
    if (time_left) f.step[us] = value - (f.last[us] - move_time[kind]);
    f.product[us] = product;
    f.last[us] = value;
    f.fraction[us] = fraction;
    f.seen[us] = true;
    if (mark != kMarkMoves && tail.ends_with("mt=")) {
      move_time[kind] = value;
      have_move_time[kind] = true;
      any_move_time = value;
    }
    if (mark == kMarkNumber && tail.ends_with("s=")) speed = value;
    if (mark == kMarkNumber) {
      if constexpr (Side::kDecoding) append_number(side.text, value, format);
      continue;
    }
    if (mark == kMarkTime) {
      if constexpr (Side::kDecoding) append_time(side.text, value, format);
      continue;
    }
    // A run: each move against the moves seen from its position, then the move model.
    if ((work_ += static_cast<std::uint64_t>(value)) > limit_) return false;
    model::LineState at = format == kFormatPre ? *pre : post;
    for (std::int64_t k = 0; k < value; ++k) {
      const Position& pos = at.pos;
      generate_targets(pos, targets_);
      if (targets_.total == 0) return false;
      Seen& s = seen(pos);
      Move hint[2];
      int hints = 0;
      if (!s.recent.is_none()) hint[hints++] = s.recent;
      if (!s.game.is_none() && s.game != s.recent) hint[hints++] = s.game;
      Move m = Side::kDecoding ? Move::none() : given->moves[static_cast<std::size_t>(k)];
      if (targets_.total > 1) {
        const std::size_t ctx = static_cast<std::size_t>(std::min<std::int64_t>(k, 2));
        int choice = hints;  // `hints`: another move
        if constexpr (!Side::kDecoding)
          for (int h = 0; h < hints; ++h)
            if (hint[h] == m) choice = h;
        bool coded = true;
        if (hints == 1) {
          coded = side.adaptive(one_hint_[ctx], choice);
          if (coded) one_hint_[ctx].update(choice);
        } else if (hints == 2) {
          coded = side.adaptive(two_hints_[ctx], choice);
          if (coded) two_hints_[ctx].update(choice);
        }
        if (!coded) return false;
        if (choice < hints) {
          m = hint[choice];
        } else {
          ply_frequencies(coder_, false, 0, pos, targets_, at.history, freq_);
          for (int h = 0; h < hints; ++h) {
            const int index = index_in(pos, targets_, hint[h]);
            freq_.total -= freq_.freq[index];
            freq_.freq[index] = 0;
          }
          if (freq_.total == 0) return false;
          int index = Side::kDecoding ? 0 : index_in(pos, targets_, m);
          if (!side.move(freq_, index)) return false;
          m = move_at_index(pos, targets_, index);
        }
      } else if constexpr (Side::kDecoding) {
        m = move_at_index(pos, targets_, 0);
      }
      s.recent = m;
      if constexpr (Side::kDecoding) {
        if (k > 0) side.text += ' ';
        side.text += pos.san(m);
      }
      at.play(m);
    }
  }
  return true;
}

bool RecordModel::encode(const RecordSplit& r, const model::LineState* pre, const model::LineState& post,
                         std::vector<PlySymbol>& out) {
  EncodeSide side(r, out);
  return values(r.shape, pre, post, side);
}

bool RecordModel::decode(std::string_view shape, const model::LineState* pre, const model::LineState& post,
                         ArithDecoder& in, std::string& text, const char*& why) {
  DecodeSide side(in, text);
  if (values(shape, pre, post, side)) return true;
  why = "a record's values are not in the move codeword, out of range, or too many";
  return false;
}

}  // namespace pgnarc::codec
