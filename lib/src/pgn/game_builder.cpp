// GameBuilder: the PgnVisitor that assembles a Game from the parser's events.
#include "pgnarc/pgn.h"

namespace pgnarc {

void GameBuilder::begin_game(std::uint64_t, SourcePos) {
  game_ = Game{};
  in_movetext_ = after_result_ = ok_ = false;
  raw_.clear();
  as_written_at_.reset();
  as_written_.clear();
}
void GameBuilder::tag(std::string_view key, std::string_view value, SourcePos) {
  game_.tags.push_back(Tag{std::string(key), std::string(value)});
}
void GameBuilder::unescaped_tag(SourcePos at, bool as_written_only) {
  game_.tags.back().unescaped = true;
  if (!as_written_only) return;
  if (!as_written_at_) as_written_at_ = at;
  as_written_.push_back(game_.tags.size() - 1);
}
void GameBuilder::begin_movetext(const Position& start, SourcePos) {
  in_movetext_ = true;
  // The rules the tags do not name (parse_game's `untagged`) are the game's own.
  if (!game_.tag("Variant")) game_.variant = start.variant();
  // A prelude is what stands before the tags; a game without tags has none, and its leading
  // comments belong to the movetext (so that writing and reading again gives the same game).
  if (game_.tags.empty() && !game_.prelude.empty()) {
    for (auto it = game_.prelude.rbegin(); it != game_.prelude.rend(); ++it)
      game_.events.insert(game_.events.begin(), GameEvent::comment(std::move(it->text), it->kind));
    game_.prelude.clear();
  }
}
void GameBuilder::begin_xiangqi_movetext(SourcePos) {
  // (A Xiangqi game has tags, which name it: no prelude comment moves into its movetext.)
  in_movetext_ = true;
  game_.rules = GameRules::kXiangqi;
}
void GameBuilder::xiangqi_move(Move m, SourcePos) { game_.events.push_back(GameEvent::make_move(m)); }
void GameBuilder::xiangqi_notation(std::string_view bytes) { game_.notation.assign(bytes); }
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