// A game as pgnarc keeps it: tags, the start position they imply, and the movetext as a flat
// stream of events in PGN order (moves, null moves, comments, NAGs, variation brackets).
//
// The event stream is a lossless serialisation of the game tree: a variation is the run of
// events between kBeginVariation and kEndVariation, and it is an alternative to the move just
// before kBeginVariation. Two games are "the same" (nothing lost) when their tags, events,
// result, prelude and epilogue are equal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pgnarc/export.h"
#include "pgnarc/chess.h"
#include "pgnarc/status.h"

namespace pgnarc {

// The deepest a variation may be nested (the main line is at depth 0, its variations at 1): a
// game nested deeper is a game in error (pack keeps it verbatim), so that following its lines
// takes memory of at most this many positions, whatever the game's length (format 8.3).
inline constexpr int kMaxVariationDepth = 256;

struct PGNARC_EXPORT Tag {
  std::string key;
  std::string value;  // unescaped bytes, kept as read (UTF-8, Latin-1, anything)
  // The value was written without escapes, though it holds a quote or a backslash: quotes left
  // unescaped in it (`[Event "Cup "A" 1990"]`, read as `Cup "A" 1990`) or backslashes that escape
  // nothing (`[Site "C:\games"]`, Big5's 許, bytes B3 5C): it is written back between its quotes
  // as it is.
  bool unescaped = false;
  bool operator==(const Tag&) const = default;
};

enum class CommentKind : std::uint8_t {
  kBrace = 0,   // {text}
  kLine = 1,    // ;text up to the end of the line
  kEscape = 2,  // %text: an escape line (the '%' in column 1 is not part of the text)
};

struct PGNARC_EXPORT GameEvent {
  enum Type : std::uint8_t {
    kMove = 0,
    kNullMove = 1,
    kComment = 2,
    kNag = 3,
    kBeginVariation = 4,
    kEndVariation = 5,
  };
  Type type = kMove;
  CommentKind comment_kind = CommentKind::kBrace;  // kComment
  std::uint8_t nag = 0;                            // kNag: $0..$255
  Move move;                                       // kMove
  std::string text;                                // kComment

  static GameEvent make_move(Move m) { return GameEvent{kMove, {}, 0, m, {}}; }
  static GameEvent null_move() { return GameEvent{kNullMove, {}, 0, {}, {}}; }
  static GameEvent comment(std::string t, CommentKind k = CommentKind::kBrace) {
    return GameEvent{kComment, k, 0, {}, std::move(t)};
  }
  static GameEvent make_nag(std::uint8_t n) { return GameEvent{kNag, {}, n, {}, {}}; }
  static GameEvent begin_variation() { return GameEvent{kBeginVariation, {}, 0, {}, {}}; }
  static GameEvent end_variation() { return GameEvent{kEndVariation, {}, 0, {}, {}}; }
  bool operator==(const GameEvent&) const = default;
};

// The game termination marker; kNone when the movetext had none.
enum class GameResult : std::uint8_t { kNone = 0, kWhiteWins = 1, kBlackWins = 2, kDraw = 3, kUnknown = 4 };
// "1-0", "0-1", "1/2-1/2", "*", or "" for kNone.
PGNARC_EXPORT const char* result_text(GameResult r);

struct PGNARC_EXPORT Comment {
  CommentKind kind = CommentKind::kBrace;
  std::string text;
  bool operator==(const Comment&) const = default;
};

// The game a Game is a game of: chess (and its variants, Game::variant), or Xiangqi (Chinese
// chess), whose moves are Move::xiangqi and whose move text is kept as Game::notation says.
enum class GameRules : std::uint8_t { kChess = 0, kXiangqi = 1 };

struct PGNARC_EXPORT Game {
  std::vector<Comment> prelude;  // comments and escape lines before the tag section (a game
                                 // read without tags has none: its leading comments are events)
  std::vector<Tag> tags;         // in input order
  std::vector<GameEvent> events;
  GameResult result = GameResult::kNone;
  std::vector<Comment> epilogue;  // comments after the termination marker
  // The rules the game is played under when no Variant tag names them (a game read with
  // `pgnarc pack --variant`); kStandard for every game with a Variant tag.
  Variant variant = Variant::kStandard;
  GameRules rules = GameRules::kChess;
  // Xiangqi: how the moves are written (the notation, ICCS, WXF or Chinese, and each byte-level
  // choice of its movetext, so that every move is written back as it was read), in the bytes a
  // game record keeps them; empty for chess.
  std::string notation;

  bool operator==(const Game&) const = default;

  // The value of the first tag named `key`, or nullptr.
  const std::string* tag(std::string_view key) const;
  // Number of moves and null moves of the main line.
  int mainline_plies() const;
};

// A game read from an archive.
struct PGNARC_EXPORT ArchiveGame {
  bool raw = false;
  Game game;             // !raw
  std::string raw_text;  // raw: the bytes exactly as they were in the input
};

// The value of the first of `tags` named `key`, or nullptr.
PGNARC_EXPORT const std::string* find_tag(const std::vector<Tag>& tags, std::string_view key);

// The rules a Variant tag's value names, as start_position reads it: standard chess for the
// names of standard chess (Standard, From Position, ...) and of Chess960 (`chess960` says which),
// else a variant (variant_from_name); false for any other value.
PGNARC_EXPORT bool variant_of_tag(std::string_view value, Variant& out, bool* chess960 = nullptr);

// The start position the tags describe: the FEN tag if present (with or without SetUp "1"),
// else the start of the game's rules; Chess960 when the Variant tag says so (Chess960,
// Fischerandom, ...) or the castling rights need it; under a variant when the Variant tag names
// one (variant_from_name), or, without a Variant tag, under `untagged`. Other Variant values
// fail with Unsupported naming them; a bad FEN fails with InvalidInput.
PGNARC_EXPORT Result<Position> start_position(const std::vector<Tag>& tags,
                                              Variant untagged = Variant::kStandard);
// The start position of `game`: its tags', under game.variant where they name no variant.
PGNARC_EXPORT Result<Position> start_position(const Game& game);

// How a FEN gives the en passant square.
enum class FenEnPassant : std::uint8_t {
  kAfterDoubleStep,  // after every pawn double step, whether a capture is possible or not (the
                     // PGN standard's FEN, as pgn-extract writes it)
  kWhenLegal,        // only where an en passant capture is legal (as lichess writes it)
};

// The FEN of the position after the first `plies` plies (moves and null moves) of the game's
// main line; 0 gives its start position (a FEN tag's en passant square as written there, with
// kAfterDoubleStep). Fails with InvalidInput when the main line is shorter, a move is illegal
// or the tags give no start position (start_position). Of a Xiangqi game (Game::rules), the
// Xiangqi FEN (format 5.7: letters K A B N R C P, "w" or "b", "- -", the clocks); `ep` aside.
PGNARC_EXPORT Result<std::string> fen_after(const Game& game, int plies,
                                           FenEnPassant ep = FenEnPassant::kAfterDoubleStep);
// The position after the first `plies` plies of the game's main line, as fen_after counts them,
// and in `last_move` (if given) the move that reached it: Move::none() at the start or after a
// null move. Fails as fen_after does, with the same messages.
PGNARC_EXPORT Result<Position> position_after(const Game& game, int plies, Move* last_move = nullptr);
// The en passant square that fen_after's kAfterDoubleStep writes after `m` is played in `before`:
// the square a pawn passed over in two steps from its second rank (horde's from the first leave
// none), else kNoSquare.
PGNARC_EXPORT Square double_step_square(const Position& before, Move m);

// Walks a game's events keeping the position at every point: before(), after each kMove event
// is passed to step(), is the position the move was played in. Variations rewind to the
// position before the move they replace.
class PGNARC_EXPORT GameWalker {
 public:
  explicit GameWalker(const Position& start);
  // Applies one event. Fails (InvalidInput) on an illegal move, a variation that does not
  // follow a move, or an unmatched kEndVariation.
  Status step(const GameEvent& e);
  // The position the next move of the current line will be played in.
  const Position& current() const { return frames_.back().current; }
  // Whether a variation may open here (the current line has a move to replace).
  bool can_begin_variation() const { return frames_.back().has_previous; }
  // Nesting depth of variations (0 on the main line).
  int depth() const { return static_cast<int>(frames_.size()) - 1; }

  // Unchecked steps, for callers that have already validated the move.
  void play(Move m);
  void play_null();
  bool begin_variation();  // false if no move to replace
  bool end_variation();    // false if on the main line

 private:
  struct Frame {
    Position current;
    Position previous;  // before the last move of this line
    bool has_previous = false;
  };
  std::vector<Frame> frames_;
};

}  // namespace pgnarc
