#include "pgnarc/game.h"

#include <algorithm>

#include "rules/line_frames.h"
#include "rules/xiangqi_game.h"

namespace pgnarc {

const char* result_text(GameResult r) {
  switch (r) {
    case GameResult::kNone: return "";
    case GameResult::kWhiteWins: return "1-0";
    case GameResult::kBlackWins: return "0-1";
    case GameResult::kDraw: return "1/2-1/2";
    case GameResult::kUnknown: return "*";
  }
  return "";
}

const std::string* find_tag(const std::vector<Tag>& tags, std::string_view key) {
  for (const Tag& t : tags)
    if (t.key == key) return &t.value;
  return nullptr;
}

const std::string* Game::tag(std::string_view key) const { return find_tag(tags, key); }

int Game::mainline_plies() const {
  int plies = 0, depth = 0;
  for (const GameEvent& e : events) {
    if (e.type == GameEvent::kBeginVariation) ++depth;
    else if (e.type == GameEvent::kEndVariation) --depth;
    else if (depth == 0 && (e.type == GameEvent::kMove || e.type == GameEvent::kNullMove)) ++plies;
  }
  return plies;
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return out;
}

}  // namespace

bool variant_of_tag(std::string_view value, Variant& out, bool* chess960) {
  const std::string v = lower(value);
  const bool c960 = v == "chess960" || v == "chess 960" || v == "fischerandom" || v == "fischer random" ||
                    v == "fischerrandom" || v == "frc" || v == "960" || v == "chess960 (fischer random)";
  if (chess960) *chess960 = c960;
  out = Variant::kStandard;
  return c960 || v.empty() || v == "standard" || v == "chess" || v == "normal" || v == "from position" ||
         v == "fromposition" || v == "orthodox" || variant_from_name(v, out);
}

Result<Position> start_position(const Game& game) {
  // A Xiangqi game's moves are Move::xiangqi: nothing of chess may read them.
  if (game.rules != GameRules::kChess) return unsupported("a Xiangqi game has no chess position");
  return start_position(game.tags, game.variant);
}

Result<Position> start_position(const std::vector<Tag>& tags, Variant untagged) {
  const std::string* fen = nullptr;
  const std::string* variant = nullptr;
  for (const Tag& t : tags) {
    if (t.key == "FEN" && !fen) fen = &t.value;
    else if (t.key == "Variant" && !variant) variant = &t.value;
  }
  bool chess960 = false;
  Variant rules = untagged;
  if (variant && !variant_of_tag(*variant, rules, &chess960))
    return unsupported("variant \"" + *variant + "\" is not one pgnarc knows the rules of");
  if (!fen) {
    Position p = rules == Variant::kStandard ? Position() : Position::start(rules);
    p.set_chess960(chess960);
    return p;
  }
  return Position::from_fen(*fen, chess960, rules);
}

namespace {

// The en passant field of a FEN (its fourth field) as a square; kNoSquare for "-" or anything
// else (Position::from_fen has checked it).
Square fen_ep_field(std::string_view fen) {
  std::size_t at = 0;
  for (int field = 0; field < 3; ++field) {
    at = fen.find_first_not_of(" \t", at);
    at = at == std::string_view::npos ? at : fen.find_first_of(" \t", at);
    if (at == std::string_view::npos) return kNoSquare;
  }
  at = fen.find_first_not_of(" \t", at);
  if (at == std::string_view::npos || at + 2 > fen.size() || fen[at] < 'a' || fen[at] > 'h' || fen[at + 1] < '1' ||
      fen[at + 1] > '8')
    return kNoSquare;
  return make_square(fen[at] - 'a', fen[at + 1] - '1');
}

// The position after the first `plies` plies of the game's main line; step(position, event) is
// called for each ply, with the position it is played in. Fails as fen_after.
template <class Step>
Result<Position> play_main_line(const Game& game, int plies, Step step) {
  if (plies < 0) return invalid_input("no position before the start (" + std::to_string(plies) + " plies)");
  auto start = start_position(game);
  if (!start) return start.error();
  return rules::after_main_line(*start, game.events, plies, [&](Position& pos, const GameEvent& e) -> Status {
    if (e.type == GameEvent::kMove && !pos.is_legal(e.move))
      return invalid_input("illegal move " + pos.uci(e.move) + " in position " + pos.fen());
    step(pos, e);
    if (e.type == GameEvent::kNullMove) pos.play_null();
    else pos.play(e.move);
    return {};
  });
}

}  // namespace

Square double_step_square(const Position& before, Move m) {
  const bool pawn = type_of(before.piece_on(m.from())) == kPawn && !m.is_drop() && !m.is_null() &&
                    rank_of(m.from()) == (before.side_to_move() == kWhite ? 1 : 6);
  return pawn && (m.from() ^ m.to()) == 16 ? static_cast<Square>((m.from() + m.to()) / 2) : kNoSquare;
}

Result<std::string> fen_after(const Game& game, int plies, FenEnPassant ep) {
  if (game.rules == GameRules::kXiangqi) {
    auto pos = rules::xiangqi::position_after(game, plies);
    if (!pos) return pos.error();
    return pos->fen();
  }
  Square double_step = kNoSquare;
  if (const std::string* fen = game.tag("FEN")) double_step = fen_ep_field(*fen);
  auto pos = play_main_line(game, plies, [&](const Position& before, const GameEvent& e) {
    double_step = e.type == GameEvent::kMove ? double_step_square(before, e.move) : kNoSquare;
  });
  if (!pos) return pos.error();
  return pos->fen(ep == FenEnPassant::kWhenLegal ? pos->legal_ep_square() : double_step);
}

Result<Position> position_after(const Game& game, int plies, Move* last_move) {
  if (last_move) *last_move = Move::none();
  return play_main_line(game, plies, [&](const Position&, const GameEvent& e) {
    if (last_move) *last_move = e.type == GameEvent::kMove ? e.move : Move::none();
  });
}

GameWalker::GameWalker(const Position& start) { frames_.push_back({start, start, false}); }

void GameWalker::play(Move m) {
  Frame& f = frames_.back();
  f.previous = f.current;
  f.has_previous = true;
  f.current.play(m);
}

void GameWalker::play_null() {
  Frame& f = frames_.back();
  f.previous = f.current;
  f.has_previous = true;
  f.current.play_null();
}

bool GameWalker::begin_variation() {
  if (!frames_.back().has_previous) return false;
  const Position start = frames_.back().previous;
  frames_.push_back({start, start, false});
  return true;
}

bool GameWalker::end_variation() {
  if (frames_.size() < 2) return false;
  frames_.pop_back();
  return true;
}

Status GameWalker::step(const GameEvent& e) {
  switch (e.type) {
    case GameEvent::kMove:
      if (!current().is_legal(e.move))
        return invalid_input("illegal move " + current().uci(e.move) + " in position " + current().fen());
      play(e.move);
      return {};
    case GameEvent::kNullMove:
      play_null();
      return {};
    case GameEvent::kBeginVariation:
      if (!begin_variation()) return invalid_input("variation without a move to replace");
      return {};
    case GameEvent::kEndVariation:
      if (!end_variation()) return invalid_input("end of variation without a beginning");
      return {};
    case GameEvent::kComment:
    case GameEvent::kNag:
      return {};
  }
  return {};
}

}  // namespace pgnarc
