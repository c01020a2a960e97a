// A game as a tree of moves, and what its comments say as numbers: the clocks and evaluations that
// lichess and chess.com write as commands in comments ("[%clk 0:03:00]", "[%eval 0.17]",
// "[%eval #-3]"), for callers that study a game move by move (the Python package's
// Game.annotations() and Game.root()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/chess.h"
#include "pgnarc/export.h"
#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc {

// What the comments after a move say: each command's first occurrence as a number, and the text
// that is left.
struct PGNARC_EXPORT MoveNotes {
  // "[%clk H:MM:SS]" (also with a fraction of a second, "0:02:59.9", or two-digit hours; any white
  // space after "[%clk", as where a line was wrapped there; minutes and seconds of one digit): the
  // clock after the move, in seconds.
  std::optional<double> clock;
  // "[%eval E]", E pawns from White's side as a decimal ("0.17", "-1.5", "+2"; a search depth
  // after a comma, "0.17,23", is read past).
  std::optional<double> eval;
  // "[%eval #N]": mate in N moves, N < 0 where Black mates (never 0: "#0" stays text).
  std::optional<int> mate;
  // The comments without those two commands (other commands, "[%emt ...]", "[%csl ...]", stay),
  // white space at each end trimmed, several comments joined by a space; none if nothing is left.
  std::optional<std::string> comment;
};

// Adds what comment `text` says to `notes`: a clock or evaluation only where `notes` has none yet;
// the rest of the text to notes.comment. A command that is not well formed stays text.
PGNARC_EXPORT void read_comment(std::string_view text, MoveNotes& notes);

// A position of the game tree and the move that led to it.
struct PGNARC_EXPORT GameNode {
  int parent = -1;            // the node this move is played from; -1 for the root (the start)
  int ply = 0;                // plies from the start position (the root's 0)
  Move move = Move::none();   // none for the root; Move::null() for a null move
  std::string san, uci;       // the move ("--" and "0000" for a null move); empty for the root,
                              // and when game_tree is asked for no notation. A Xiangqi game's
                              // (move a Move::xiangqi): san its text as the game's notation
                              // writes it ("炮二平五", "C2.5", "h2e2"; in the encoding of the
                              // game's text, GB18030 or Big5 where it is), uci its ICCS ("h2e2")
  std::vector<int> variations;       // the moves played from here, the main continuation first
  // $N after the move; where the move opens a variation, also those before it ("( $2 1... d5").
  std::vector<std::uint8_t> nags;
  // After the move (the root's: before the first move); the comments and NAGs of an empty
  // variation, "( {text} )", go to the move it was an alternative to.
  std::vector<Comment> comments;
  std::vector<Comment> starting_comments;  // before the move, where it opens a variation
  MoveNotes notes;                   // what `comments` say
};

// The game's tree: node 0 is the start position, every other node a move, each after its parent
// (preorder). notation = false leaves san and uci empty (faster). Fails (InvalidInput) as
// GameWalker::step on a game whose moves are not legal, and where the tags give no start
// position; a Xiangqi game's also where its notation bytes are bad or it has a null move.
PGNARC_EXPORT Result<std::vector<GameNode>> game_tree(const Game& game, bool notation = true);

// The FEN of each node of `nodes` (game_tree(game)'s), in their order: node 0's as fen_after(game,
// 0) writes it, each other's after its move, with the en passant square after a pawn's double
// step (FenEnPassant::kAfterDoubleStep); a Xiangqi game's Xiangqi FENs. Fails with InvalidInput
// where a node's parent does not come before it or its move is not legal there.
PGNARC_EXPORT Result<std::vector<std::string>> node_fens(const Game& game, const std::vector<GameNode>& nodes);

}  // namespace pgnarc
