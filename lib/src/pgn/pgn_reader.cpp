// The streaming PGN reader: buffering and game boundaries.
//
// Two passes per game. The splitter (here) finds where a game's bytes begin and end with a light
// lexer (comments, tag lines, words) that never looks at chess; it keeps the whole game in the
// buffer, so the exact bytes are at hand if the game turns out to be unreadable. The parser
// (pgn_parser.cpp) then reads those bytes fully: tags, SAN against the position, comments, NAGs,
// variations.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "pgn/pgn_chars.h"
#include "pgnarc/pgn.h"

namespace pgnarc {

using namespace pgn;

namespace {

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

// The names of a game's tags seen so far. A usual game has about ten, searched fastest in a
// list; a game with many goes to a hash set, so that its cost stays linear in its tags.
class SeenKeys {
 public:
  // False if `key` was seen before.
  bool insert(std::string key) {
    if (many_.empty()) {
      for (const std::string& seen : few_)
        if (seen == key) return false;
      if (few_.size() < kFew) {
        few_.push_back(std::move(key));
        return true;
      }
      many_.insert(few_.begin(), few_.end());
    }
    return many_.insert(std::move(key)).second;
  }

 private:
  static constexpr std::size_t kFew = 32;
  std::vector<std::string> few_;
  std::unordered_set<std::string> many_;
};

}  // namespace


struct PGNARC_HIDDEN PgnReader::Impl {
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
  SourcePos game_start;  // of the game being scanned
  static constexpr char kDosEof = 0x1A;
  std::uint64_t eof_markers = 0;  // ^Z bytes after the last game, not read as a game

  // Binary data inside the input: a run of kBinaryRun bytes that no text encoding of PGN has (NUL
  // and the control characters but tab, LF, VT, FF, CR, ESC and ^Z), each within kBinaryGap
  // bytes of the one before. A stray one is let through (the game that holds it is kept
  // verbatim); random bytes hold one in ten.
  static constexpr std::uint32_t kBinaryRun = 8;
  static constexpr std::uint64_t kBinaryGap = 32;
  std::uint32_t binary_run = 0;
  std::uint64_t last_binary = 0;  // offset in the input of the last such byte

  // Checks the bytes [from, to) of `buf` just read; an error names the offset and line:column of
  // the run's last byte.
  std::optional<Error> check_text(std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
      const auto c = static_cast<unsigned char>(buf[k]);
      if (c >= 0x20 || (kNotBinary >> c & 1)) continue;
      const std::uint64_t at = bytes + (k - end);
      binary_run = binary_run > 0 && at - last_binary <= kBinaryGap ? binary_run + 1 : 1;
      last_binary = at;
      if (binary_run < kBinaryRun) continue;
      std::uint64_t l = line;
      std::uint32_t cl = col;
      advance(buf.data() + begin, buf.data() + k, l, cl);
      return invalid_input(name + ":" + std::to_string(l) + ":" + std::to_string(cl) + ": binary data at offset " +
                           std::to_string(at) + " (" + std::to_string(kBinaryRun) +
                           " NUL or control bytes close together), not PGN text");
    }
    return std::nullopt;
  }
  static constexpr std::uint32_t kNotBinary =
      1u << '\t' | 1u << '\n' | 1u << '\v' | 1u << '\f' | 1u << '\r' | 1u << 0x1A | 1u << 0x1B;

  // Moves unconsumed data to the front and reads more. Returns false at the end of the input.
  Result<bool> refill() {
    if (eof) return false;
    // Called while a game is being scanned, all of [begin, end) belongs to it (between games,
    // begin == end): a game that outgrows the limit is refused before it is buffered further.
    if (end - begin > kMaxGameBytes)
      return invalid_input(name + ":" + std::to_string(game_start.line) + ":" + std::to_string(game_start.column) +
                           ": game " + std::to_string(games + 1) + ": longer than " +
                           std::to_string(kMaxGameBytes >> 20) +
                           " MiB, the most one game may be (is the input PGN? a game ends at its result, "
                           "1-0, 0-1, 1/2-1/2 or *)");
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
      if (auto bad = check_text(end, end + *r)) return *bad;
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
      if (!need_more && begin < end && buf[begin] == kDosEof) {
        // A DOS end-of-file byte (^Z) with only white space and more of them after it ends the
        // input, like trailing white space; before anything else it begins a game.
        std::size_t k = begin;
        while (k < end && (is_space(buf[k]) || buf[k] == kDosEof)) ++k;
        if (k < end) break;
        if (eof) {
          eof_markers += static_cast<std::uint64_t>(std::count(buf.data() + begin, buf.data() + end, kDosEof));
          begin = end;
          return false;
        }
        need_more = true;
      }
      if (!need_more && begin < end) break;
      auto r = refill();
      if (!r) return r.error();
      if (!*r && begin >= end) return false;
    }
    start_pos = game_start = SourcePos{line, col};
    enum State { kNormal, kBrace, kToEol, kTag } state = kNormal;
    bool movetext = false, after_result = false, in_quotes = false;
    int depth = 0;  // parentheses: a result inside a variation does not end the game
    // Names of the tags seen so far: a tag whose name was already seen begins the next game (for
    // consecutive games with tags only; a blank line inside one tag section is not a boundary).
    SeenKeys keys;
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
        if (!keys.insert(std::string(p + kb, k - kb))) break;
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

const std::string& PgnReader::name() const { return impl_->name; }
std::uint64_t PgnReader::games_read() const { return impl_->games; }
std::uint64_t PgnReader::bytes_read() const { return impl_->bytes; }
std::uint64_t PgnReader::trailing_eof_markers() const { return impl_->eof_markers; }
std::uint64_t PgnReader::offset() const { return impl_->bytes - (impl_->end - impl_->begin); }

}  // namespace pgnarc
