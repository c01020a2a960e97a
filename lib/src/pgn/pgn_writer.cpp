// Canonical PGN export.
#include "pgnarc/pgn.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <type_traits>

#include "pgn/write_pgn_with_hints.h"
#include "rules/line_frames.h"
#include "rules/movegen.h"
#include "rules/xiangqi_game.h"

namespace pgnarc {

namespace {

constexpr std::size_t kWidth = 80;

// "{text}", ";text" or "%text".
std::string comment_token(CommentKind kind, std::string_view text);

// Lays out movetext tokens in lines of at most 80 columns (a longer token gets a line of its own).
// Moves and brace comments, the tokens of nearly every call, gather in a buffer of the current
// line that goes to `out` as one append when the line ends or another kind of token comes
// (unpack: one append per line instead of one per ply).
class LineWriter {
 public:
  // The size of the buffer `move` takes: a separator, a move number with its dots, and SAN.
  static constexpr std::size_t kMoveBuffer = 1 + 16 + rules::kMaxSanLength;

  explicit LineWriter(std::string& out) : out_(out) {}
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;
  ~LineWriter() { flush(); }
  // An "(" is held back and written together with the token after it, so that it never ends a
  // line.
  void open_variation() { open_ += '('; }
  // `glue`: no space before this token (")").
  void token(std::string_view t, bool glue = false) {
    flush();
    if (open_.empty()) return put(t, glue);
    const std::string joined = open_ + std::string(t);
    open_.clear();
    put(joined, glue);
  }
  // The token "{text}", as token() would write it, without building it apart.
  // A comment that fits a line joins the moves in the line's buffer (a clock after every move
  // would otherwise end each move's buffering).
  void brace_comment(std::string_view text) {
    const std::size_t n = text.size() + 2;
    if (open_.empty() && n <= kWidth) {
      if (col_ > 0 && col_ + 1 + n > kWidth) {
        flush();
        out_ += '\n';
        col_ = 0;
      }
      char* p = line_.data() + pending_;  // (pending_ <= col_, and the line with it fits kWidth)
      if (col_ > 0) {
        *p++ = ' ';
        ++col_;
        ++pending_;
      }
      *p = '{';
      std::memcpy(p + 1, text.data(), text.size());
      p[n - 1] = '}';
      pending_ += n;
      col_ += n;
      return;
    }
    flush();
    if (!open_.empty()) return token(comment_token(CommentKind::kBrace, text));
    put_sized(text.size() + 2, false, [&] {
      out_ += '{';
      out_ += text;
      out_ += '}';
    });
  }
  // A token that must end its line (";comment") or stand alone on one ("%escape").
  void line_token(std::string_view t, bool column_one) {
    flush();
    if (column_one) {
      if (!open_.empty()) {  // an escape line cannot carry the "(" before it
        std::string held;
        held.swap(open_);
        put(held, false);
      }
      if (col_ > 0) newline();
    }
    token(t);
    newline();
  }
  // A move's token (its number and SAN) of `n` bytes, written at buf + 1 of a buffer of
  // kMoveBuffer bytes, with buf[0] free for the separator before it.
  void move(char* buf, std::size_t n) {
    if (!open_.empty()) return token(std::string_view(buf + 1, n));
    char* const line = line_.data();
    if (col_ == 0) {
      std::memcpy(line, buf + 1, kMoveBuffer - 1);  // a fixed size: a few moves, not a call
      pending_ = col_ = n;
      return;
    }
    if (col_ + 1 + n > kWidth) {
      flush();
      out_ += '\n';
      std::memcpy(line, buf + 1, kMoveBuffer - 1);
      pending_ = col_ = n;
      return;
    }
    buf[0] = ' ';
    std::memcpy(line + pending_, buf, kMoveBuffer);
    pending_ += n + 1;
    col_ += n + 1;
  }
  void newline() {
    flush();
    out_ += '\n';
    col_ = 0;
  }
  void finish() {
    if (col_ > 0) newline();
    flush();
  }

 private:
  void flush() {
    out_.append(line_.data(), pending_);
    pending_ = 0;
  }
  void put(std::string_view t, bool glue) {
    put_sized(t.size(), glue, [&] { out_ += t; });
  }
  // A token of `n` bytes that write() appends to `out_`, after a space or on a new line.
  template <class Write>
  void put_sized(std::size_t n, bool glue, const Write& write) {
    if (col_ > 0 && !(glue && col_ + n <= kWidth)) {
      if (col_ + 1 + n > kWidth) newline();
      else {
        out_ += ' ';
        ++col_;
      }
    }
    write();
    col_ += n;
  }
  std::string& out_;
  std::size_t col_ = 0;
  std::string open_;  // "(" not yet written
  // The current line's moves and brace comments not yet in `out_`: at most kWidth bytes, and a
  // whole move buffer is copied past them.
  std::size_t pending_ = 0;
  std::array<char, kWidth + kMoveBuffer> line_;
};

std::string comment_token(CommentKind kind, std::string_view text) {
  std::string t;
  t.reserve(text.size() + 2);
  switch (kind) {
    case CommentKind::kBrace: t += '{'; break;
    case CommentKind::kLine: t += ';'; break;
    case CommentKind::kEscape: t += '%'; break;
  }
  t += text;
  if (kind == CommentKind::kBrace) t += '}';
  return t;
}

void write_comment(LineWriter& w, CommentKind kind, std::string_view text) {
  if (kind == CommentKind::kBrace) w.brace_comment(text);
  else w.line_token(comment_token(kind, text), kind == CommentKind::kEscape);
}

// Appends the runs between quotes and backslashes whole (most values have neither, which two
// library scans find faster than a loop over the characters: unpack writes ten or more a game).
void escape_tag_value(std::string_view v, std::string& out) {
  if (v.find('"') == v.npos && v.find('\\') == v.npos) {
    out += v;
    return;
  }
  std::size_t run = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == '\\' || v[i] == '"') {
      out.append(v.data() + run, i - run);
      out += '\\';
      run = i;  // the character itself starts the next run
    }
  out.append(v.data() + run, v.size() - run);
}


// What numbering the moves needs, without a board: the side to move and the move number (which
// goes on past 65535, where a position's 16-bit counter stops or turns to 0).
struct Turn {
  Color side;
  std::int64_t fullmove;
  Color side_to_move() const { return side; }
  std::int64_t fullmove_number() const { return fullmove; }
  void play(Move) { play_null(); }
  void play_null() {
    if (side == kBlack) ++fullmove;
    side = ~side;
  }
};

// The turn at a game's start. Xiangqi's Red moves first, as White does.
Turn start_turn(const Position& start) { return Turn{start.side_to_move(), start.fullmove_number()}; }
Turn start_turn(const rules::xiangqi::Position& start) {
  return Turn{start.side_to_move() == rules::xiangqi::kRed ? kWhite : kBlack, start.fullmove_number()};
}

// No board: the moves are taken as legal (written from hints or move texts).
struct Unchecked {
  void play(Move) {}
  void play_null() {}
  bool begin_variation() { return true; }
  bool end_variation() { return true; }
};

// The turns along the game's lines (LineFrames: a variation starts where the line's last move
// started, as GameWalker has it) number the moves. With a GameWalker, each move is also checked
// and its SAN found on the board; with Unchecked, `hints` (one per move,
// pgn/write_pgn_with_hints.h) give what SAN needs, or, for a Xiangqi game, `xiangqi` gives each
// move's text (rules::xiangqi::move_texts).
template <typename Walker>
Status write_pgn_impl(const Game& game, Turn start, Walker walker, const std::vector<std::uint8_t>* hints,
                      std::string& out, const std::vector<std::string>* xiangqi = nullptr) {
  constexpr bool hinted = std::is_same_v<Walker, Unchecked>;
  for (const Comment& c : game.prelude) {
    out += comment_token(c.kind, c.text);
    out += '\n';
  }
  for (const Tag& t : game.tags) {
    out += '[';
    out += t.key;
    out += " \"";
    if (t.unescaped) out += t.value;  // as it was written (Tag::unescaped)
    else escape_tag_value(t.value, out);
    out += "\"]\n";
  }
  if (!game.tags.empty()) out += '\n';

  // The movetext goes straight to `out` (it starts a line: after the tags' empty line, or at
  // the start of the game).
  const std::size_t movetext_start = out.size();
  LineWriter w(out);
  // (Not the board's fullmove counter: its 16 bits stop or turn to 0 after 65535.)
  rules::LineFrames<Turn> turns(start);
  bool need_number = true;  // a black move must say "N..." here
  std::size_t next_hint = 0;
  for (const GameEvent& e : game.events) {
    switch (e.type) {
      case GameEvent::kMove:
      case GameEvent::kNullMove: {
        // The number and its move form one token, so that they stay together on one line.
        const Turn& turn = turns.current();
        char buf[LineWriter::kMoveBuffer];
        char* p = buf + 1;
        if (turn.side_to_move() == kWhite || need_number) {
          p = std::to_chars(p, buf + 13, turn.fullmove_number()).ptr;
          for (const char* c = turn.side_to_move() == kWhite ? ". " : "... "; *c; ++c) *p++ = *c;
        }
        if (e.type == GameEvent::kMove) {
          if constexpr (hinted) {
            if (xiangqi) {
              // At most 12 bytes (four characters of three), which the buffer has room for.
              const std::string& text = (*xiangqi)[next_hint++];
              if (text.size() > static_cast<std::size_t>(buf + sizeof buf - p))
                return invalid_input("cannot write game: a Xiangqi move text of " + std::to_string(text.size()) + " bytes");
              p = std::copy(text.begin(), text.end(), p);
            } else {
              if (next_hint >= hints->size()) return invalid_input("cannot write game: a move without its SAN note");
              const std::uint8_t note = (*hints)[next_hint++];
              p = rules::write_san(e.move, rules::note_piece(note), rules::note_capture(note),
                                    rules::note_disambiguation(note), rules::note_suffix(note), p);
            }
          } else {
            const Position& pos = walker.current();
            if (!pos.is_legal(e.move))
              return invalid_input("cannot write game: illegal move " + pos.uci(e.move) + " in position " + pos.fen());
            const std::string san = pos.san(e.move);
            p = std::copy(san.begin(), san.end(), p);
          }
          walker.play(e.move);
        } else {
          *p++ = '-';
          *p++ = '-';
          walker.play_null();
        }
        turns.play_null();  // (a move or a null move alike turns the turn)
        w.move(buf, static_cast<std::size_t>(p - buf - 1));
        need_number = false;
        break;
      }
      case GameEvent::kComment:
        write_comment(w, e.comment_kind, e.text);
        need_number = true;
        break;
      case GameEvent::kNag: {
        char nag[4] = {'$'};
        w.token(std::string_view(nag, static_cast<std::size_t>(std::to_chars(nag + 1, nag + 4, e.nag).ptr - nag)));
        break;
      }
      case GameEvent::kBeginVariation:
        if (!walker.begin_variation() || !turns.begin_variation())
          return invalid_input("cannot write game: variation without a move to replace");
        w.open_variation();
        need_number = true;
        break;
      case GameEvent::kEndVariation:
        if (!walker.end_variation() || !turns.end_variation())
          return invalid_input("cannot write game: unmatched end of variation");
        w.token(")", true);
        need_number = true;
        break;
    }
  }
  if (turns.depth() != 0) return invalid_input("cannot write game: variation not closed");
  if (game.result != GameResult::kNone) w.token(result_text(game.result));
  for (const Comment& c : game.epilogue) write_comment(w, c.kind, c.text);
  w.finish();
  if (out.size() > movetext_start || game.tags.empty()) out += '\n';
  return {};
}

// A game that cannot be written leaves `out` as it was.
Status write_pgn_or_nothing(const Game& game, const std::vector<std::uint8_t>* hints, std::string& out) {
  const std::size_t before = out.size();
  Status st;
  if (game.rules == GameRules::kXiangqi) {
    Result<rules::xiangqi::MoveTexts> texts = rules::xiangqi::move_texts(game);
    if (!texts) return invalid_input("cannot write game: " + texts.error().message());
    st = write_pgn_impl(game, start_turn(texts->start), Unchecked{}, nullptr, out, &texts->texts);
  } else {
    auto start = start_position(game);
    if (!start) return start.error();
    st = hints ? write_pgn_impl(game, start_turn(*start), Unchecked{}, hints, out)
               : write_pgn_impl(game, start_turn(*start), GameWalker(*start), nullptr, out);
  }
  if (!st) out.resize(before);
  return st;
}

}  // namespace

Status write_pgn(const Game& game, std::string& out) { return write_pgn_or_nothing(game, nullptr, out); }

Status pgn::write_pgn_with_hints(const Game& game, const std::vector<std::uint8_t>& hints, std::string& out) {
  return write_pgn_or_nothing(game, &hints, out);
}

void write_raw_game(std::string_view raw_text, std::string& out) {
  out += raw_text;
  if (raw_text.empty() || (raw_text.back() != '\n' && raw_text.back() != '\r')) out += '\n';
  out += '\n';
}

}  // namespace pgnarc
