// The move codec: games <-> bytes.
//
// A game's moves are stored as mixed-radix integers of legal-move indices: at each ply the
// played move's index in the canonical order of legal moves (Position::legal_moves) is one digit
// whose base is the number of legal moves there; a line of plies is
//   G = m0 + n0 * (m1 + n1 * (m2 + ...))      (first ply least significant)
// written as the minimal little-endian bytes of G. Everything else about a game (result,
// null moves, comments, NAGs, variations) goes to a structure stream and a text stream, and an
// unreadable game's bytes to a raw stream. The format specification states every byte; these
// functions are pure: bytes in, game out, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc {

// The identifier of the game record codec, carried by each block (see the format
// specification): legal-move-index integers; comments, NAGs and variations as anchored items;
// clock comments ("[%clk H:MM:SS]") as numbers; and a line whose every ply carries a clock as a
// clock track: its frames as runs and each clock as a symbol (usually one byte) against the clock
// predicted from the game's TimeControl, with lichess's evaluation before it ("[%eval 0.17]
// [%clk 0:01:00]") as a number. Blocks of any other codec are refused as Unsupported.
inline constexpr std::uint8_t kMoveCodec = 5;

// The per-game output of the codec, appended to four streams that a block keeps as sections.
struct CodecStreams {
  std::string moves;      // line integers with their ply counts
  std::string structure;  // result, flags, null moves, comment/NAG/variation anchors
  std::string texts;      // comment texts
  std::string raw;        // verbatim games
};

// Figures about what was encoded, for reports and benchmarks.
struct CodecStats {
  std::uint64_t games = 0;
  std::uint64_t raw_games = 0;
  std::uint64_t plies = 0;            // all plies, variations included
  std::uint64_t mainline_plies = 0;
  double log2_legal_moves = 0;        // sum of log2(legal moves) over coded plies: the entropy bound
};

// Appends `game` to `out`. Fails (InvalidInput) if a move is not legal where it stands, a
// variation does not follow a move, or the start position cannot be derived from the tags.
Status encode_game(const Game& game, CodecStreams& out, CodecStats* stats = nullptr);
// Appends a game kept verbatim: its bytes exactly as they were in the input.
void encode_raw_game(std::string_view raw_text, CodecStreams& out, CodecStats* stats = nullptr);

// Read positions in the four streams of a block.
struct CodecCursor {
  std::string_view moves;
  std::string_view structure;
  std::string_view texts;
  std::string_view raw;
};

struct DecodedGame {
  bool raw = false;
  Game game;             // when !raw (its tags are the ones passed to decode_game)
  std::string raw_text;  // when raw
};

// Decodes the next game from `in`, advancing `in` past it on success. `tags` are the game's tags
// (they give the start position and the clock track's prediction). Any inconsistency (a length
// past the end, a reserved value, a digit out of range, an integer that is not minimal or has
// value left over) fails with Corruption.
Result<DecodedGame> decode_game(CodecCursor& in, std::vector<Tag> tags);

// Advances `in` past the next game without decoding its moves. Makes every check of decode_game
// but those that need the board or the game's tags (moves, clock track clocks), and fails as
// decode_game does on the same fault (Corruption, the same message); advances `in` only on success.
Status skip_game(CodecCursor& in);

}  // namespace pgnarc
