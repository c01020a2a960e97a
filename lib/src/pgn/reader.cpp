// The streaming PGN reader.
//
// Two passes per game. The splitter finds where a game's bytes begin and end with a light lexer
// (comments, tag lines, words) that never looks at chess; it keeps the whole game in the buffer,
// so the exact bytes are at hand if the game turns out to be unreadable. The parser then reads
// those bytes fully: tags, SAN against the position, comments, NAGs, variations.
#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "pgnarc/pgn.h"

namespace pgnarc {

namespace {

// Character classes, one table lookup each in the hot loops.
enum : std::uint8_t { kSpace = 1, kNewline = 2, kDelimiter = 4 };
constexpr auto kClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned char c : {' ', '\t', '\f', '\v'}) t[c] = kSpace;
  t['\n'] = t['\r'] = kSpace | kNewline;
  for (unsigned char c : {'{', '}', '[', ']', '(', ')', ';', '$'}) t[c] = kDelimiter;
  return t;
}();
inline std::uint8_t char_class(char c) { return kClass[static_cast<unsigned char>(c)]; }
bool is_space(char c) { return char_class(c) & kSpace; }
bool is_newline(char c) { return char_class(c) & kNewline; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Characters that end a word and are tokens of their own.
bool is_delimiter(char c) { return char_class(c) & kDelimiter; }
bool ends_word(char c) { return char_class(c) & (kSpace | kDelimiter); }

GameResult parse_result(std::string_view w) {
  if (w.empty() || (w[0] != '0' && w[0] != '1' && w[0] != '*')) return GameResult::kNone;
  if (w == "1-0") return GameResult::kWhiteWins;
  if (w == "0-1") return GameResult::kBlackWins;
  if (w == "1/2-1/2") return GameResult::kDraw;
  if (w == "*") return GameResult::kUnknown;
  return GameResult::kNone;
}

// Advances line/column over [p, e): "\r\n", "\n" and a lone "\r" each end a line.
void advance(const char* p, const char* e, std::uint64_t& line, std::uint32_t& col) {
  if (!std::memchr(p, '\r', static_cast<std::size_t>(e - p))) {  // the usual case: LF only
    const char* last = nullptr;
    for (const char* q = p; (q = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(e - q))));) {
      ++line;
      last = ++q;
    }
    col = last ? static_cast<std::uint32_t>(e - last + 1) : col + static_cast<std::uint32_t>(e - p);
    return;
  }
  for (; p < e; ++p) {
    if (*p == '\n') {
      ++line;
      col = 1;
    } else if (*p == '\r') {
      if (p + 1 < e && p[1] == '\n') continue;  // counted at the '\n'
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
}

// Does [p, e) (one line) hold a complete tag pair, `[Name "value"]`? Used to notice that a
// comment left open has run into the next game.
bool looks_like_tag_line(const char* p, const char* e) {
  if (p == e || *p != '[') return false;
  ++p;
  const char* name = p;
  while (p < e && (is_alpha(*p) || is_digit(*p) || *p == '_')) ++p;
  if (p == name || !is_alpha(*name)) return false;
  while (p < e && (*p == ' ' || *p == '\t')) ++p;
  if (p == e || *p != '"') return false;
  while (e > p && is_space(e[-1])) --e;
  return e - p >= 2 && e[-1] == ']' && e[-2] == '"';
}

// "!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6; the Informant-style signs; 0 if none.
int symbol_nag(std::string_view s) {
  if (s.empty() || !(s[0] == '!' || s[0] == '?' || s[0] == '=' || s[0] == '+' || s[0] == '-')) return 0;
  static constexpr std::pair<std::string_view, int> kTable[] = {
      {"!", 1},    {"?", 2},    {"!!", 3},   {"??", 4},  {"!?", 5},  {"?!", 6},  {"=", 10},
      {"+=", 14},  {"=+", 15},  {"+/-", 16}, {"-/+", 17}, {"+-", 18}, {"-+", 19},
  };
  for (auto [text, nag] : kTable)
    if (s == text) return nag;
  return 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The parser of one game's bytes.

namespace {

class GameParser {
 public:
  GameParser(std::string_view text, const std::string& source, std::uint64_t game_number,
             SourcePos start, PgnVisitor& v)
      : g_(text), source_(source), game_(game_number), line_(start.line), v_(v) {
    line_start_ = -static_cast<std::int64_t>(start.column - 1);
  }

  void run() {
    auto err = parse();
    if (err) v_.game_error(*err, g_);
    else v_.end_game(g_);
  }

 private:
  using MaybeError = std::optional<Error>;

  SourcePos here() const {
    return SourcePos{line_, static_cast<std::uint32_t>(static_cast<std::int64_t>(i_) - line_start_ + 1)};
  }
  Error fail(SourcePos at, const std::string& what, ErrorCode code = ErrorCode::InvalidInput) const {
    return Error(code, source_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                           ": game " + std::to_string(game_) + ": " + what);
  }
  // Consumes one byte, keeping line and column.
  void bump() {
    const char c = g_[i_++];
    if (c == '\n' || (c == '\r' && (i_ >= g_.size() || g_[i_] != '\n'))) {
      ++line_;
      line_start_ = static_cast<std::int64_t>(i_);
    }
  }
  void skip_space() {
    while (i_ < g_.size()) {
      const std::uint8_t k = char_class(g_[i_]);
      if (!(k & kSpace)) return;
      if (k & kNewline) bump();
      else ++i_;
    }
  }
  bool at_line_start() const { return static_cast<std::int64_t>(i_) == line_start_; }

  std::string_view word() {
    const std::size_t b = i_;
    while (i_ < g_.size() && !ends_word(g_[i_])) ++i_;
    return g_.substr(b, i_ - b);
  }

  MaybeError start_movetext(SourcePos at) {
    if (movetext_) return std::nullopt;
    movetext_ = true;
    auto start = start_position(tags_);
    if (!start) return fail(at, start.error().message(), start.error().code());
    walker_.emplace(*start);
    v_.begin_movetext(*start, at);
    return std::nullopt;
  }

  MaybeError parse_tag() {
    const SourcePos at = here();
    if (movetext_) return fail(at, "tag pair after the movetext has begun");
    bump();  // '['
    while (i_ < g_.size() && (g_[i_] == ' ' || g_[i_] == '\t')) bump();
    const std::size_t kb = i_;
    while (i_ < g_.size() && (is_alpha(g_[i_]) || is_digit(g_[i_]) || g_[i_] == '_' || g_[i_] == '-' ||
                              g_[i_] == '+' || g_[i_] == '#' || g_[i_] == '=' || g_[i_] == ':'))
      ++i_;
    const std::string key(g_.substr(kb, i_ - kb));
    if (key.empty()) return fail(at, "bad tag pair: no tag name");
    while (i_ < g_.size() && (g_[i_] == ' ' || g_[i_] == '\t')) ++i_;
    if (i_ >= g_.size() || g_[i_] != '"') return fail(at, "bad tag pair [" + key + "]: the value must be in quotes");
    const std::size_t quote = i_++;
    std::string value;
    bool closed = false;
    while (i_ < g_.size() && !is_newline(g_[i_])) {
      const char c = g_[i_];
      if (c == '\\' && i_ + 1 < g_.size() && (g_[i_ + 1] == '"' || g_[i_ + 1] == '\\')) {
        value += g_[i_ + 1];
        i_ += 2;
      } else if (c == '"') {
        ++i_;
        closed = true;
        break;
      } else {
        value += c;
        ++i_;
      }
    }
    std::size_t j = i_;
    while (j < g_.size() && (g_[j] == ' ' || g_[j] == '\t')) ++j;
    if (closed && j < g_.size() && g_[j] == ']') {
      i_ = j + 1;
    } else {
      // Tolerance for unescaped quotes and a stray backslash: the value is everything between the
      // first quote and the last quote that is followed by ']' and the end of the line.
      std::size_t eol = quote;
      while (eol < g_.size() && !is_newline(g_[eol])) ++eol;
      std::size_t end = eol;
      while (end > quote && is_space(g_[end - 1])) --end;
      std::size_t close = std::string_view::npos;
      if (end > quote + 1 && g_[end - 1] == ']') {
        std::size_t q = end - 1;
        while (q > quote && (g_[q - 1] == ' ' || g_[q - 1] == '\t')) --q;
        if (q > quote + 1 && g_[q - 1] == '"') close = q - 1;
      }
      if (close == std::string_view::npos)
        return fail(at, "bad tag pair [" + key + "]: no closing quote and bracket");
      value.assign(g_.substr(quote + 1, close - quote - 1));
      i_ = end;
    }
    any_event_ = true;
    v_.tag(key, value, at);
    tags_.push_back(Tag{key, std::move(value)});
    return std::nullopt;
  }

  MaybeError parse_comment_brace() {
    const SourcePos at = here();
    const std::size_t b = i_ + 1;
    const std::size_t e = g_.find('}', b);
    if (e == std::string_view::npos) return fail(at, "comment opened here is never closed");
    emit_comment(g_.substr(b, e - b), CommentKind::kBrace, at);
    while (i_ <= e) bump();
    return std::nullopt;
  }

  void parse_comment_to_eol(CommentKind kind) {
    const SourcePos at = here();
    const std::size_t b = i_ + 1;
    std::size_t e = b;
    while (e < g_.size() && !is_newline(g_[e])) ++e;
    emit_comment(g_.substr(b, e - b), kind, at);
    i_ = e;
  }

  void emit_comment(std::string_view text, CommentKind kind, SourcePos at) {
    any_event_ = true;
    v_.comment(text, kind, at);
  }

  MaybeError parse_move_word(std::string_view w, SourcePos at, bool after_move) {
    if (w == "--" || w == "Z0") {
      any_event_ = true;
      v_.null_move(walker_->current(), at);
      walker_->play_null();
      last_was_move_ = true;
      return std::nullopt;
    }
    if ((w == "e.p." || w == "ep") && after_move) return std::nullopt;  // "exd6 e.p."
    const Position& pos = walker_->current();
    auto m = pos.parse_san(w);
    if (!m) return fail(at, m.error().message());
    any_event_ = true;
    v_.move(pos, *m, at);
    walker_->play(*m);
    last_was_move_ = true;
    return std::nullopt;
  }

  MaybeError parse() {
    while (true) {
      skip_space();
      if (i_ >= g_.size()) break;
      const char c = g_[i_];
      const SourcePos at = here();
      if (c == '{') {
        if (tags_.empty() && !movetext_) {  // before any tag: the prelude
          if (auto e = parse_comment_brace()) return e;
          continue;
        }
        if (!result_seen_)
          if (auto e = start_movetext(at)) return e;
        if (auto e = parse_comment_brace()) return e;
        continue;
      }
      if (c == ';' || (c == '%' && at_line_start())) {
        if (!(tags_.empty() && !movetext_) && !result_seen_)
          if (auto e = start_movetext(at)) return e;
        parse_comment_to_eol(c == ';' ? CommentKind::kLine : CommentKind::kEscape);
        continue;
      }
      if (result_seen_) return fail(at, "unexpected text after the game termination marker");
      if (c == '[') {
        if (auto e = parse_tag()) return e;
        continue;
      }
      if (auto e = start_movetext(at)) return e;
      const bool after_move = last_was_move_;
      last_was_move_ = false;
      switch (c) {
        case '(':
          if (!walker_->begin_variation()) return fail(at, "variation '(' with no move before it to replace");
          any_event_ = true;
          v_.begin_variation(at);
          bump();
          continue;
        case ')':
          if (!walker_->end_variation()) return fail(at, "')' without a matching '('");
          v_.end_variation(at);
          bump();
          continue;
        case '$': {
          bump();
          unsigned n = 0;
          const std::size_t b = i_;
          while (i_ < g_.size() && is_digit(g_[i_]) && n < 1000) n = n * 10 + static_cast<unsigned>(g_[i_++] - '0');
          if (i_ == b || n > 255) return fail(at, "bad NAG \"" + std::string(g_.substr(b - 1, i_ - b + 1)) + "\": must be $0 to $255");
          any_event_ = true;
          v_.nag(static_cast<int>(n), at);
          continue;
        }
        case '}':
          return fail(at, "'}' without a matching '{'");
        case ']':
          return fail(at, "unexpected ']'");
        default:
          break;
      }
      // A word: result, move number, SAN, null move, NAG symbol.
      const std::string_view w = word();
      if (const GameResult r = parse_result(w); r != GameResult::kNone) {
        if (walker_->depth() > 0) return fail(at, "game termination marker " + std::string(w) + " inside a variation");
        any_event_ = true;
        v_.result(r, at);
        result_seen_ = true;
        continue;
      }
      if (is_digit(w[0]) && !w.starts_with("0-0")) {
        // Move number: digits then dots ("12.", "12...", or "12" with the dots apart); a move may
        // follow without a space ("1.e4").
        std::size_t k = 0;
        while (k < w.size() && is_digit(w[k])) ++k;
        std::size_t d = k;
        while (d < w.size() && w[d] == '.') ++d;
        if (d == w.size()) continue;  // "12.", "12...", or "12" with its dots apart
        if (d == k) return fail(at, "unreadable token \"" + std::string(w) + "\"");
        i_ -= w.size() - d;  // read the rest as a word of its own
        continue;
      }
      if (w.find_first_not_of('.') == std::string_view::npos) continue;  // "1 ..." style
      if (const int nag = symbol_nag(w)) {
        any_event_ = true;
        v_.nag(nag, at);
        continue;
      }
      // A SAN word may carry suffix annotations ("e4!?"): split them off as NAGs.
      std::size_t s = w.size();
      while (s > 0 && (w[s - 1] == '!' || w[s - 1] == '?')) --s;
      if (s == 0) return fail(at, "unreadable token \"" + std::string(w) + "\"");
      if (auto e = parse_move_word(w.substr(0, s), at, after_move)) return e;
      if (s < w.size()) {
        const int nag = symbol_nag(w.substr(s));
        if (!nag) return fail(at, "unreadable annotation \"" + std::string(w.substr(s)) + "\"");
        any_event_ = true;
        v_.nag(nag, at);
      }
    }
    const SourcePos end = here();
    if (auto e = start_movetext(end)) return e;
    if (walker_->depth() > 0) return fail(end, "variation not closed at the end of the game");
    // Text that gave nothing at all (only move numbers or dots) is not a game; keeping it
    // verbatim is the only way not to lose it.
    if (!any_event_) return fail(SourcePos{line_, 1}, "no tags, moves, comments or result here");
    return std::nullopt;
  }

  std::string_view g_;
  const std::string& source_;
  std::uint64_t game_;
  std::size_t i_ = 0;
  std::uint64_t line_;
  std::int64_t line_start_;
  PgnVisitor& v_;
  std::vector<Tag> tags_;
  std::optional<GameWalker> walker_;
  bool movetext_ = false;
  bool result_seen_ = false;
  bool last_was_move_ = false;
  bool any_event_ = false;  // anything but move numbers was found
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// The splitter: buffering and game boundaries.

struct PgnReader::Impl {
  // The next game's bytes (valid until the next call), its number and where it starts.
  Result<bool> take(std::string_view& text, std::uint64_t& number, SourcePos& start) {
    std::size_t length = 0;
    auto found = find_game(length, start);
    if (!found) return found.error();
    if (!*found) return false;
    // A game is never empty (it starts at a byte that is not white space); this guarantees
    // progress whatever the input.
    if (length == 0) length = 1;
    number = ++games;
    text = std::string_view(buf.data() + begin, length);
    advance(text.data(), text.data() + text.size(), line, col);
    begin += length;
    return true;
  }

  std::unique_ptr<ByteSource> src;
  std::string name;
  std::vector<char> buf;
  std::size_t begin = 0;  // first byte not yet consumed
  std::size_t end = 0;    // end of valid data
  bool eof = false;
  bool at_stream_start = true;
  bool at_line_start = true;
  std::uint64_t line = 1;
  std::uint32_t col = 1;
  std::uint64_t games = 0;
  std::uint64_t bytes = 0;

  // Moves unconsumed data to the front and reads more. Returns false at the end of the input.
  Result<bool> refill() {
    if (eof) return false;
    if (begin > 0) {
      std::memmove(buf.data(), buf.data() + begin, end - begin);
      end -= begin;
      begin = 0;
    }
    if (buf.size() - end < (1 << 16)) buf.resize(std::max<std::size_t>(buf.size() * 2, 1 << 20));
    // Fill generously even from a source that trickles, so scanning stays linear.
    const std::size_t target = end + std::min<std::size_t>(buf.size() - end, 1 << 20);
    bool got = false;
    while (end < target) {
      auto r = src->read(buf.data() + end, target - end);
      if (!r) return r.error();
      if (*r == 0) {
        eof = true;
        break;
      }
      end += *r;
      bytes += *r;
      got = true;
    }
    if (at_stream_start && end - begin >= 3) {
      if (std::memcmp(buf.data() + begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;  // UTF-8 BOM
      at_stream_start = false;
    } else if (at_stream_start && eof) {
      at_stream_start = false;
    }
    return got;
  }

  // Finds the next game: [start, stop) relative to `begin` after the call. Returns false at the
  // end of the input.
  Result<bool> find_game(std::size_t& length, SourcePos& start_pos) {
    // Skip the white space between games.
    for (;;) {
      bool need_more = begin >= end || at_stream_start;
      while (!need_more && begin < end && is_space(buf[begin])) {
        const char c = buf[begin];
        if (c == '\r' && begin + 1 == end && !eof) {
          need_more = true;  // a CR at the end of the buffer: is it CRLF?
          break;
        }
        if (c == '\n' || (c == '\r' && (begin + 1 == end || buf[begin + 1] != '\n'))) {
          ++line;
          col = 1;
        } else if (c != '\r') {
          ++col;
        }
        ++begin;
      }
      if (!need_more && begin < end) break;
      auto r = refill();
      if (!r) return r.error();
      if (!*r && begin >= end) return false;
    }
    start_pos = SourcePos{line, col};
    enum State { kNormal, kBrace, kToEol, kTag } state = kNormal;
    bool movetext = false, after_result = false, in_quotes = false;
    int depth = 0;  // parentheses: a result inside a variation does not end the game
    // Names of the tags seen so far: a tag whose name was already seen begins the next game (for
    // consecutive games with tags only; a blank line inside one tag section is not a boundary).
    std::vector<std::string> keys;
    bool line_start = col == 1;
    std::size_t i = 0;         // scan offset from begin
    std::size_t last_end = 0;  // end of the game's last byte so far, from begin
    for (;;) {
      if (begin + i >= end) {
        auto r = refill();
        if (!r) return r.error();
        if (begin + i >= end) {  // end of input: everything scanned belongs to this game
          // An unclosed brace comment runs to the end (less trailing white space); otherwise
          // last_end already ends the last token, and a ';' or '%' comment keeps the spaces at
          // the end of its line (they are part of its text).
          if (state == kBrace) {
            last_end = i;
            while (last_end > 0 && is_space(buf[begin + last_end - 1])) --last_end;
          }
          break;
        }
        continue;
      }
      const char* p = buf.data() + begin;
      const std::size_t n = end - begin;
      const char c = p[i];
      switch (state) {
        case kBrace: {
          const void* close = std::memchr(p + i, '}', n - i);
          const void* nl = std::memchr(p + i, '\n', n - i);
          const std::size_t ci = close ? static_cast<const char*>(close) - p : n;
          const std::size_t ni = nl ? static_cast<const char*>(nl) - p : n;
          if (ci < ni) {
            i = ci + 1;
            last_end = i;
            state = kNormal;
            line_start = false;
            continue;
          }
          if (ni == n) {  // neither in the buffer yet
            i = n;
            continue;
          }
          // A newline inside a comment: if the next line is a tag pair, the comment was never
          // closed and the next game has begun.
          std::size_t le = ni + 1;
          while (le < n && !is_newline(p[le])) ++le;
          if (le == n && !eof) {
            i = ni;  // come back with the whole line in the buffer
            auto r = refill();
            if (!r) return r.error();
            if (!*r && !eof) return io_error(name + ": read returned no data");
            continue;
          }
          if (looks_like_tag_line(p + ni + 1, p + le)) {
            last_end = ni;
            while (last_end > 0 && is_space(p[last_end - 1])) --last_end;
            length = last_end;
            return true;
          }
          i = ni + 1;
          continue;
        }
        case kToEol:
          if (is_newline(c)) {
            state = kNormal;
            line_start = true;
          } else {
            last_end = i + 1;
          }
          ++i;
          continue;
        case kTag:
          if (is_newline(c)) {
            state = kNormal;
            line_start = true;
          } else if (in_quotes && c == '\\' && i + 1 < n && (p[i + 1] == '"' || p[i + 1] == '\\')) {
            ++i;
          } else if (c == '"') {
            in_quotes = !in_quotes;
          } else if (c == ']' && !in_quotes) {
            state = kNormal;
          }
          last_end = is_newline(c) ? last_end : i + 1;
          ++i;
          continue;
        case kNormal:
          break;
      }
      if (is_space(c)) {
        line_start = is_newline(c);
        ++i;
        continue;
      }
      const bool was_line_start = line_start;
      line_start = false;
      if (c == '{') {
        state = kBrace;
        ++i;
        continue;
      }
      if (c == ';' || (c == '%' && was_line_start)) {
        state = kToEol;
        last_end = ++i;
        continue;
      }
      if (c == '[') {
        if (movetext || after_result) break;  // the next game's tags
        std::size_t k = i + 1;
        while (k < n && (p[k] == ' ' || p[k] == '\t')) ++k;
        const std::size_t kb = k;
        while (k < n && !is_space(p[k]) && p[k] != '"' && p[k] != ']') ++k;
        if (k == n && !eof) {  // make sure the name is in the buffer
          auto r = refill();
          if (!r) return r.error();
          continue;
        }
        std::string key(p + kb, k - kb);
        bool repeated = false;
        for (const std::string& seen : keys) repeated |= seen == key;
        if (repeated) break;
        keys.push_back(std::move(key));
        state = kTag;
        in_quotes = false;
        last_end = ++i;
        continue;
      }
      if (after_result) break;  // the next game, without tags
      movetext = true;
      if (is_delimiter(c)) {
        if (c == '(') ++depth;
        else if (c == ')' && depth > 0) --depth;
        last_end = ++i;
        continue;
      }
      // A word; make sure all of it is in the buffer.
      std::size_t j = i;
      while (j < n && !ends_word(p[j])) ++j;
      if (j == n && !eof) {
        auto r = refill();
        if (!r) return r.error();
        continue;
      }
      if (depth == 0 && parse_result(std::string_view(p + i, j - i)) != GameResult::kNone) after_result = true;
      i = j;
      last_end = j;
    }
    length = last_end;
    return true;
  }
};

PgnReader::PgnReader(std::unique_ptr<ByteSource> source, std::string name) : impl_(std::make_unique<Impl>()) {
  impl_->src = std::move(source);
  impl_->name = std::move(name);
}

PgnReader::~PgnReader() = default;

Result<std::unique_ptr<PgnReader>> PgnReader::open(const std::string& path) {
  auto src = open_input(path);
  if (!src) return src.error();
  return std::make_unique<PgnReader>(std::move(*src), path == "-" ? "<stdin>" : path);
}

Result<bool> PgnReader::next(PgnVisitor& visitor) {
  std::string_view text;
  std::uint64_t number = 0;
  SourcePos start;
  auto got = impl_->take(text, number, start);
  if (!got || !*got) return got;
  parse_game(text, impl_->name, number, start, visitor);
  return true;
}

Result<bool> PgnReader::next_raw(RawGame& out) {
  std::string_view text;
  auto got = impl_->take(text, out.number, out.start);
  if (got && *got) out.text.assign(text);
  return got;
}

void parse_game(std::string_view text, const std::string& source, std::uint64_t number, SourcePos start,
                PgnVisitor& visitor) {
  visitor.begin_game(number, start);
  GameParser(text, source, number, start, visitor).run();
}

const std::string& PgnReader::name() const { return impl_->name; }
std::uint64_t PgnReader::games_read() const { return impl_->games; }
std::uint64_t PgnReader::bytes_read() const { return impl_->bytes; }

// ---------------------------------------------------------------------------------------------

void GameBuilder::begin_game(std::uint64_t, SourcePos) {
  game_ = Game{};
  in_movetext_ = after_result_ = ok_ = false;
  raw_.clear();
}
void GameBuilder::tag(std::string_view key, std::string_view value, SourcePos) {
  game_.tags.push_back(Tag{std::string(key), std::string(value)});
}
void GameBuilder::begin_movetext(const Position&, SourcePos) {
  in_movetext_ = true;
  // A prelude is what stands before the tags; a game without tags has none, and its leading
  // comments belong to the movetext (so that writing and reading again gives the same game).
  if (game_.tags.empty() && !game_.prelude.empty()) {
    for (auto it = game_.prelude.rbegin(); it != game_.prelude.rend(); ++it)
      game_.events.insert(game_.events.begin(), GameEvent::comment(std::move(it->text), it->kind));
    game_.prelude.clear();
  }
}
void GameBuilder::move(const Position&, Move m, SourcePos) { game_.events.push_back(GameEvent::make_move(m)); }
void GameBuilder::null_move(const Position&, SourcePos) { game_.events.push_back(GameEvent::null_move()); }
void GameBuilder::comment(std::string_view text, CommentKind kind, SourcePos) {
  if (after_result_) game_.epilogue.push_back(Comment{kind, std::string(text)});
  else if (!in_movetext_) game_.prelude.push_back(Comment{kind, std::string(text)});
  else game_.events.push_back(GameEvent::comment(std::string(text), kind));
}
void GameBuilder::nag(int value, SourcePos) { game_.events.push_back(GameEvent::make_nag(static_cast<std::uint8_t>(value))); }
void GameBuilder::begin_variation(SourcePos) { game_.events.push_back(GameEvent::begin_variation()); }
void GameBuilder::end_variation(SourcePos) { game_.events.push_back(GameEvent::end_variation()); }
void GameBuilder::result(GameResult r, SourcePos) {
  game_.result = r;
  after_result_ = true;
}
void GameBuilder::end_game(std::string_view) { ok_ = true; }
void GameBuilder::game_error(const Error& e, std::string_view raw_text) {
  ok_ = false;
  error_ = e;
  raw_.assign(raw_text);
}

}  // namespace pgnarc
