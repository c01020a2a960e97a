// The parser of one game's bytes: tags, SAN against the position, comments, NAGs, variations,
// reported to a PgnVisitor with where each one stands (the bytes come from PgnReader, which
// finds where games begin and end, or from the caller of parse_game).
#include <optional>
#include <string>

#include "pgn/pgn_chars.h"
#include "pgn/xiangqi_pgn.h"
#include "pgnarc/pgn.h"
#include "rules/xiangqi_game.h"

namespace pgnarc {

using namespace pgn;

namespace {

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

class GameParser {
 public:
  GameParser(std::string_view text, const std::string& source, std::uint64_t game_number,
             SourcePos start, PgnVisitor& v, Variant untagged, bool xiangqi)
      : g_(text), source_(source), game_(game_number), line_(start.line), v_(v), untagged_(untagged),
        xiangqi_(xiangqi) {
    line_start_ = -static_cast<std::int64_t>(start.column - 1);
  }

  void run() {
    auto err = parse();
    if (err) return v_.game_error(*err, g_);
    if (xq_) v_.xiangqi_notation(xq_->reader.bytes());
    v_.end_game(g_);
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
    if (xiangqi_ && rules::xiangqi::names_xiangqi(tags_)) {
      auto start = rules::xiangqi::start_position(tags_);
      if (!start) return fail(at, start.error().message(), start.error().code());
      xq_.emplace(*start, tags_);
      v_.begin_xiangqi_movetext(at);
      return std::nullopt;
    }
    auto start = start_position(tags_, untagged_);
    if (!start) return fail(at, start.error().message(), start.error().code());
    walker_.emplace(*start);
    v_.begin_movetext(*start, at);
    return std::nullopt;
  }

  // Where a tag pair's value that starts at `from` ends when read as written: the first quote on
  // its line that spaces or tabs and a `]` follow, or npos, also where a `]` comes first (which
  // would take in the pairs after it on the line: `[A ""X""y] [B "b"]`).
  std::size_t unescaped_end(std::size_t from) const {
    for (std::size_t k = from; k < g_.size() && !is_newline(g_[k]) && g_[k] != ']'; ++k) {
      if (g_[k] != '"') continue;
      std::size_t j = k + 1;
      while (j < g_.size() && (g_[j] == ' ' || g_[j] == '\t')) ++j;
      if (j < g_.size() && g_[j] == ']') return k;
    }
    return std::string::npos;
  }

  MaybeError parse_tag() {
    const SourcePos at = here();
    if (movetext_) return fail(at, "tag pair after the movetext has begun");
    if (tags_.size() >= kMaxGameTags)
      return fail(at, "more than " + std::to_string(kMaxGameTags) + " tag pairs, the most one game may have");
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
    ++i_;  // the opening quote
    const std::size_t vb = i_;
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
    while (closed && j < g_.size() && (g_[j] == ' ' || g_[j] == '\t')) ++j;
    // A value with a backslash that escapes nothing (`[Site "C:\games"]`, or Big5's 許, B3 5C) and
    // no escape is its bytes as written, which escaping would change: it is written back so too.
    bool unescaped = closed && value.find('\\') != std::string::npos && value.size() == i_ - 1 - vb;
    bool as_written_only = false;
    if (!closed || j >= g_.size() || g_[j] != ']') {
      // A value with a quote left unescaped (`[Event "Cup "A" 1990"]`) or a closing quote escaped
      // by a stray backslash (`[Site "C:\"]`, Big5's `[Red "許"]`) is read as written: its bytes
      // from the opening quote to the first quote that the pair's `]` follows (spaces and tabs
      // between), on its line, without escapes, if no `]` comes before it. The tag says so
      // (Tag::unescaped), so that it is written back byte for byte.
      const std::size_t end = unescaped_end(vb);
      if (end == std::string::npos)
        return fail(here(), closed ? "bad tag pair [" + key + "]: text after the value's closing quote and no `\"]` "
                                     "after it on its line"
                                   : "bad tag pair [" + key + "]: the value has no closing quote on its line");
      value.assign(g_.substr(vb, end - vb));
      unescaped = as_written_only = true;
      i_ = end + 1;
      j = i_;
      while (g_[j] != ']') ++j;
    }
    i_ = j + 1;
    any_event_ = true;
    v_.tag(key, value, at);
    if (unescaped) v_.unescaped_tag(at, as_written_only);
    tags_.push_back(Tag{key, std::move(value), unescaped});
    return std::nullopt;
  }

  // After a malformed tag pair the game is kept verbatim; the tag pairs that follow it in the tag
  // section are still reported, so that the game is found by all its readable tags. Reading
  // resumes at the next '[' that follows a ']' on the same line, else at the next line, and stops
  // where the tag section ends. Returns `first`, the error that makes the game verbatim.
  MaybeError read_tags_after(Error first) {
    for (;;) {
      // Past the rest of the malformed pair: to a '[' after a ']' on its line, else to the next line.
      std::size_t k = i_;
      bool on_line = false;
      while (k < g_.size() && !is_newline(g_[k]) && !on_line) {
        if (g_[k++] != ']') continue;
        std::size_t j = k;
        while (j < g_.size() && (g_[j] == ' ' || g_[j] == '\t')) ++j;
        if (j < g_.size() && g_[j] == '[') k = j, on_line = true;
      }
      i_ = k;
      skip_space();
      for (;;) {
        if (i_ >= g_.size() || g_[i_] != '[' || tags_.size() >= kMaxGameTags) return first;
        if (parse_tag()) break;  // malformed too
        skip_space();
      }
    }
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

  // The current line's nesting depth, and a variation opened or closed, under either rules.
  int depth() const { return xq_ ? xq_->walker.depth() : walker_->depth(); }
  bool begin_variation() { return xq_ ? xq_->walker.begin_variation() : walker_->begin_variation(); }
  bool end_variation() { return xq_ ? xq_->walker.end_variation() : walker_->end_variation(); }

  MaybeError parse_xiangqi_move(std::string_view w, SourcePos at) {
    if (w == "--") return fail(at, "a null move \"--\" in a Xiangqi game");
    const rules::xiangqi::Position& pos = xq_->walker.current();
    auto m = xq_->reader.read(pos, w);
    if (!m) return fail(at, m.error().message());
    play_xiangqi_move(*m, at);
    return std::nullopt;
  }
  void play_xiangqi_move(rules::xiangqi::Move m, SourcePos at) {
    any_event_ = true;
    v_.xiangqi_move(Move::xiangqi(m.from, m.to), at);
    xq_->walker.play(m);
    last_was_move_ = true;
  }

  MaybeError parse_move_word(std::string_view w, SourcePos at, bool after_move) {
    if (xq_) return parse_xiangqi_move(w, at);
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
        if (auto e = parse_tag()) {
          if (movetext_) return e;
          return read_tags_after(*e);
        }
        continue;
      }
      if (auto e = start_movetext(at)) return e;
      const bool after_move = last_was_move_;
      last_was_move_ = false;
      switch (c) {
        case '(':
          if (depth() >= kMaxVariationDepth)
            return fail(at, "variations nested more than " + std::to_string(kMaxVariationDepth) + " deep");
          if (!begin_variation()) return fail(at, "variation '(' with no move before it to replace");
          any_event_ = true;
          v_.begin_variation(at);
          bump();
          continue;
        case ')':
          if (!end_variation()) return fail(at, "')' without a matching '('");
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
        if (depth() > 0) return fail(at, "game termination marker " + std::string(w) + " inside a variation");
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
        // WXF writes some moves with a digit first ("33.4", "1P+1"): a word that reads as a
        // move is one.
        if (xq_)
          if (auto m = xq_->reader.read(xq_->walker.current(), w); m.ok()) {
            play_xiangqi_move(*m, at);
            continue;
          }
        if (d == k) return fail(at, "unreadable token \"" + std::string(w) + "\"");
        i_ -= w.size() - d;  // read the rest as a word of its own
        continue;
      }
      if (w[0] == '.') {
        // Dots alone ("1 ..." style), or dots before the move ("2. ...Nf6"): the move read alone.
        const std::size_t d = w.find_first_not_of('.');
        if (d != std::string_view::npos) i_ -= w.size() - d;
        continue;
      }
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
    if (depth() > 0) return fail(end, "variation not closed at the end of the game");
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
  Variant untagged_;  // the rules of a game whose tags name none
  std::vector<Tag> tags_;
  std::optional<GameWalker> walker_;
  // A Xiangqi game's lines and the reader of its notation, instead of walker_.
  struct Xiangqi {
    Xiangqi(const rules::xiangqi::Position& start, const std::vector<Tag>& tags) : walker(start), reader(tags) {}
    rules::xiangqi::Walker walker;
    rules::xiangqi::MoveReader reader;
  };
  bool xiangqi_;  // whether a game whose tags name Xiangqi is read as one
  std::optional<Xiangqi> xq_;
  bool movetext_ = false;
  bool result_seen_ = false;
  bool last_was_move_ = false;
  bool any_event_ = false;  // anything but move numbers was found
};

}  // namespace

void parse_game(std::string_view text, const std::string& source, std::uint64_t number, SourcePos start,
                PgnVisitor& visitor, Variant untagged) {
  visitor.begin_game(number, start);
  GameParser(text, source, number, start, visitor, untagged, false).run();
}

void pgn::parse_game_or_xiangqi(std::string_view text, const std::string& source, std::uint64_t number,
                                SourcePos start, PgnVisitor& visitor, Variant untagged) {
  visitor.begin_game(number, start);
  GameParser(text, source, number, start, visitor, untagged, true).run();
}

}  // namespace pgnarc
