// Xiangqi games as PGN holds them: which tags make a game a Xiangqi game, where it starts, the
// positions along its lines, and its notation kept as bytes (Game::notation) (internal to the
// rules layer).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"
#include "rules/line_frames.h"
#include "rules/xiangqi.h"
#include "rules/xiangqi_notation.h"

namespace pgnarc::rules::xiangqi {

// Whether a game's tags make it a Xiangqi game: a `Game` or `Variant` tag naming Xiangqi
// ("Chinese Chess", "Xiangqi", in any case, spaces, hyphens and underscores aside), a `Format`
// tag naming one of its notations ("ICCS", "WXF", "Chinese"), or, with no `Game`, `Variant` or
// `White` tag, a `Red` tag (the player of the red pieces, which no chess game names).
bool names_xiangqi(const std::vector<Tag>& tags);

// The notation a `Format` tag names (ICCS, WXF, Chinese, in any case), if it names one.
bool notation_of_format(std::string_view value, Notation& out);

// The start position the tags give: the `FEN` tag's, else Xiangqi's start. Fails with
// InvalidInput (from_fen's message) on a bad FEN.
Result<Position> start_position(const std::vector<Tag>& tags);

// A notation and its style as the bytes Game::notation holds (format 5.7.2): one byte for ICCS,
// three for WXF, eight for Chinese. read_notation fails with InvalidInput on any other bytes
// (a reserved value, a length that is not the notation's, an element out of range).
std::string notation_bytes(Notation notation, const NotationStyle& style);
Status read_notation(std::string_view bytes, Notation& notation, NotationStyle& style);
// Whether `style` holds an element that only blocks of codecs 14 and 15 store (format 1.10): an
// encoding other than UTF-8, or tandem pieces named by their file.
bool needs_spellings_codec(const NotationStyle& style);

// Walks a Xiangqi game's lines keeping the position at every point, as GameWalker does for
// chess.
using Walker = LineFrames<Position>;

// Reads a game's move texts one after the other, learning its notation from the first (unless
// a `Format` tag gave it) and its style from all (learn_move). Fails with InvalidInput when a
// text is no legal move, is in another notation than the game's first move, or cannot be
// written back byte for byte under the style the game's earlier moves set (the game is then
// kept verbatim, which loses nothing).
class MoveReader {
 public:
  explicit MoveReader(const std::vector<Tag>& tags);
  Result<Move> read(const Position& pos, std::string_view text);
  // Game::notation for the moves read so far (ICCS, unstyled, before any).
  std::string bytes() const { return notation_bytes(notation_, style_); }

 private:
  bool known_ = false;
  Notation notation_ = Notation::kIccs;
  NotationStyle style_;
};

// The position after the first `plies` plies of a Xiangqi game's main line (0: its start), as
// fen_after counts them for chess, and in `last_move` the move played last (from == to, 0 0, at
// the start); fails with InvalidInput when the main line is shorter, a move is illegal or the FEN
// tag is bad.
Result<Position> position_after(const Game& game, int plies, Move* last_move = nullptr);

// The move of a Xiangqi game's event (Move::xiangqi).
inline Move move_of(pgnarc::Move m) {
  return Move{static_cast<std::uint8_t>(m.xiangqi_from()), static_cast<std::uint8_t>(m.xiangqi_to())};
}

// A Xiangqi game's start position and the text of every move, in order of its events, as its
// notation writes them.
struct MoveTexts {
  Position start;
  std::vector<std::string> texts;
};
// Fails with InvalidInput when the notation bytes or the FEN tag are bad, a move is not legal
// where it stands, or the events are not a well-formed tree (a variation with no move before
// it, one left open, a null move). With `write` false the same checks, and no texts.
Result<MoveTexts> move_texts(const Game& game, bool write = true);

}  // namespace pgnarc::rules::xiangqi
