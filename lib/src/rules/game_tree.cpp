// A game's events as a tree of nodes, and the clock and evaluation commands of comments as
// numbers (pgnarc/game_tree.h).
#include "pgnarc/game_tree.h"

#include <charconv>

#include "rules/xiangqi_game.h"

namespace pgnarc {

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

// Reads the digits at `at` of `s` (at most `most`) as a number; false if there are none.
bool read_digits(std::string_view s, std::size_t& at, std::size_t most, std::uint64_t& value) {
  const std::size_t begin = at;
  value = 0;
  while (at < s.size() && digit(s[at]) && at - begin < most) value = value * 10 + static_cast<std::uint64_t>(s[at++] - '0');
  return at > begin;
}

// A decimal "D[.D]" at `at` as a number; false if there is none.
bool read_decimal(std::string_view s, std::size_t& at, double& value) {
  std::size_t end = at;
  while (end < s.size() && digit(s[end])) ++end;
  if (end == at) return false;
  if (end + 1 < s.size() && s[end] == '.' && digit(s[end + 1]))
    for (++end; end < s.size() && digit(s[end]);) ++end;
  if (std::from_chars(s.data() + at, s.data() + end, value).ec != std::errc()) return false;
  at = end;
  return true;
}

// The value of "H:MM:SS[.F]]" at `at` (after "[%clk "), in seconds; `at` past the ']'.
bool read_clock(std::string_view s, std::size_t& at, double& seconds) {
  std::uint64_t h, m, sec;
  // (Minutes and seconds of one digit too, as some writers give them.)
  const auto two = [&](std::uint64_t& v) { return read_digits(s, at, 2, v) && v <= 59 && !(at < s.size() && digit(s[at])); };
  if (!read_digits(s, at, 9, h) || at >= s.size() || s[at++] != ':') return false;
  if (!two(m) || at >= s.size() || s[at++] != ':') return false;
  const std::size_t sec_at = at;
  if (!two(sec)) return false;
  at = sec_at;
  double whole;
  if (!read_decimal(s, at, whole) || at >= s.size() || s[at++] != ']') return false;
  seconds = static_cast<double>(h * 3600 + m * 60) + whole;
  return true;
}

// "[+|-]D[.D]" or "#[+|-]N" (also "-#N"), then an optional ",depth", then ']', at `at` (after
// "[%eval ").
bool read_eval(std::string_view s, std::size_t& at, MoveNotes& notes) {
  bool negative = false;
  const auto sign = [&] {
    if (at < s.size() && (s[at] == '-' || s[at] == '+')) negative = s[at++] == '-';
  };
  sign();
  std::optional<double> pawns;
  std::optional<int> mate;
  if (at < s.size() && s[at] == '#') {
    ++at;
    if (!negative) sign();
    std::uint64_t n;
    if (!read_digits(s, at, 6, n) || n == 0) return false;  // (no mate in 0 is written: it stays text)
    mate = negative ? -static_cast<int>(n) : static_cast<int>(n);
  } else {
    double v;
    if (!read_decimal(s, at, v)) return false;
    pawns = negative && v != 0 ? -v : v;
  }
  if (at < s.size() && s[at] == ',') {
    std::uint64_t depth;
    ++at;
    if (!read_digits(s, at, 9, depth)) return false;
  }
  if (at >= s.size() || s[at++] != ']') return false;
  notes.eval = pawns;
  notes.mate = mate;
  return true;
}

// Appends `piece` of a comment's text to `rest`: no white space at its start where `rest` is
// empty or ends in some.
void append_text(std::string& rest, std::string_view piece) {
  if (rest.empty() || space(rest.back()))
    while (!piece.empty() && space(piece.front())) piece.remove_prefix(1);
  rest.append(piece);
}

// Whether `text` at `at` holds the command `name` ("[%clk") and white space; `at` past them.
bool command(std::string_view text, std::size_t& at, std::string_view name) {
  if (text.substr(at, name.size()) != name || at + name.size() >= text.size() || !space(text[at + name.size()])) return false;
  for (at += name.size(); at < text.size() && space(text[at]);) ++at;
  return true;
}

}  // namespace

void read_comment(std::string_view text, MoveNotes& notes) {
  std::string rest;
  std::size_t copied = 0;
  for (std::size_t at = text.find("[%"); at != std::string_view::npos; at = text.find("[%", at + 1)) {
    std::size_t end = at;
    bool read = false;
    if (!notes.clock && command(text, end, "[%clk")) {
      double seconds;
      if (read_clock(text, end, seconds)) notes.clock = seconds, read = true;
    } else if (!notes.eval && !notes.mate && command(text, end, "[%eval")) {
      read = read_eval(text, end, notes);
    }
    if (!read) continue;
    append_text(rest, text.substr(copied, at - copied));
    copied = end;
    at = end - 1;
  }
  append_text(rest, text.substr(copied));
  while (!rest.empty() && space(rest.back())) rest.pop_back();
  if (rest.empty()) return;
  if (notes.comment) {
    *notes.comment += ' ';
    *notes.comment += rest;
  } else {
    notes.comment = std::move(rest);
  }
}

Result<std::vector<GameNode>> game_tree(const Game& game, bool notation) {
  // A chess game's moves are played here, each node's position kept; a Xiangqi game's are checked
  // and written, in event order, by move_texts.
  const bool xiangqi = game.rules == GameRules::kXiangqi;
  std::vector<Position> positions;  // after each node's move
  rules::xiangqi::MoveTexts texts;
  std::size_t next_text = 0;
  if (xiangqi) {
    auto t = rules::xiangqi::move_texts(game, notation);
    if (!t) return t.error();
    texts = std::move(*t);
  } else {
    auto start = start_position(game);
    if (!start) return start.error();
    positions.push_back(std::move(*start));
  }
  std::vector<GameNode> nodes(1);
  // The line being read: its last node, and where a variation's first move is still to come.
  struct Line {
    int last;
    bool opening;  // no move yet (a variation's comments before its first move)
  };
  std::vector<Line> lines{{0, true}};
  // Comments and NAGs before a variation's first move (NAGs there are that move's).
  std::vector<Comment> starting;
  std::vector<std::uint8_t> starting_nags;
  for (std::size_t i = 0; i < game.events.size(); ++i) {
    const GameEvent& e = game.events[i];
    Line& line = lines.back();
    const auto where = [&] { return "event " + std::to_string(i + 1) + " of the game"; };
    switch (e.type) {
      case GameEvent::kMove:
      case GameEvent::kNullMove: {
        const int parent = line.last;
        GameNode node;
        node.parent = parent;
        node.ply = nodes[parent].ply + 1;
        if (xiangqi) {  // (move_texts refuses null moves)
          node.move = e.move;
          if (notation) node.san = texts.texts[next_text++], node.uci = rules::xiangqi::to_iccs(rules::xiangqi::move_of(e.move));
        } else if (e.type == GameEvent::kNullMove) {
          Position after = positions[parent];
          node.move = Move::null();
          if (notation) node.san = "--", node.uci = "0000";
          after.play_null();
          positions.push_back(std::move(after));
        } else {
          Position after = positions[parent];
          if (!after.is_legal(e.move))
            return invalid_input(where() + ": the move is not legal in " + after.fen());
          node.move = e.move;
          if (notation) node.san = after.san(e.move), node.uci = after.uci(e.move);
          after.play(e.move);
          positions.push_back(std::move(after));
        }
        node.starting_comments = std::move(starting);
        node.nags = std::move(starting_nags);
        starting.clear();
        starting_nags.clear();
        const int index = static_cast<int>(nodes.size());
        nodes[parent].variations.push_back(index);
        nodes.push_back(std::move(node));
        line = Line{index, false};
        break;
      }
      case GameEvent::kComment:
        // A game's comments before its first move are the root's; a variation's, its first move's.
        if (line.opening && lines.size() > 1) {
          starting.push_back(Comment{e.comment_kind, e.text});
        } else {
          GameNode& node = nodes[line.last];
          node.comments.push_back(Comment{e.comment_kind, e.text});
          read_comment(e.text, node.notes);
        }
        break;
      case GameEvent::kNag:
        (line.opening && lines.size() > 1 ? starting_nags : nodes[line.last].nags).push_back(e.nag);
        break;
      case GameEvent::kBeginVariation:
        if (line.opening || line.last == 0) return invalid_input(where() + ": a variation that follows no move");
        if (static_cast<int>(lines.size()) > kMaxVariationDepth)
          return invalid_input(where() + ": variations nested deeper than " + std::to_string(kMaxVariationDepth));
        lines.push_back(Line{nodes[line.last].parent, true});
        break;
      case GameEvent::kEndVariation:
        if (lines.size() == 1) return invalid_input(where() + ": a variation's end without its start");
        lines.pop_back();
        // (An empty variation's comments and NAGs follow the move it was an alternative to.)
        GameNode& replaced = nodes[lines.back().last];
        for (Comment& c : starting) {
          read_comment(c.text, replaced.notes);
          replaced.comments.push_back(std::move(c));
        }
        replaced.nags.insert(replaced.nags.end(), starting_nags.begin(), starting_nags.end());
        starting.clear();
        starting_nags.clear();
        break;
    }
  }
  return nodes;
}

Result<std::vector<std::string>> node_fens(const Game& game, const std::vector<GameNode>& nodes) {
  std::vector<std::string> out(nodes.size());
  if (nodes.empty()) return out;
  auto root = fen_after(game, 0);
  if (!root) return root.error();
  out[0] = std::move(*root);
  const auto bad_tree = [] { return invalid_input("a node's parent does not come before it"); };
  if (game.rules == GameRules::kXiangqi) {
    namespace xq = rules::xiangqi;
    auto start = xq::start_position(game.tags);
    if (!start) return start.error();
    std::vector<xq::Position> at(nodes.size(), *start);
    for (std::size_t i = 1; i < nodes.size(); ++i) {
      const auto parent = static_cast<std::size_t>(nodes[i].parent);
      if (parent >= i) return bad_tree();
      const xq::Move m = xq::move_of(nodes[i].move);
      if (!xq::is_legal(at[parent], m)) return invalid_input("illegal Xiangqi move " + xq::to_iccs(m) + " in " + at[parent].fen());
      at[i] = at[parent];
      at[i].play(m);
      out[i] = at[i].fen();
    }
    return out;
  }
  auto start = start_position(game);
  if (!start) return start.error();
  std::vector<Position> at(nodes.size(), *start);
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const auto parent = static_cast<std::size_t>(nodes[i].parent);
    if (parent >= i) return bad_tree();
    at[i] = at[parent];
    Square ep = kNoSquare;
    if (nodes[i].move.is_null()) {
      at[i].play_null();
    } else {
      if (!at[i].is_legal(nodes[i].move)) return invalid_input("the move is not legal in " + at[i].fen());
      ep = double_step_square(at[i], nodes[i].move);
      at[i].play(nodes[i].move);
    }
    out[i] = at[i].fen(ep);
  }
  return out;
}

}  // namespace pgnarc
