// A position as a picture: a standalone SVG diagram of the board, for documents, blogs and the
// pages of `pgnarc serve` (`pgnarc get ARCHIVE N --svg K` writes one; board_svg_after draws a
// Xiangqi game's board too).
//
// The pieces are the Unicode chess glyphs (U+265A..U+265F) in a <text> element with a list of
// fonts to fall back on, white pieces filled white and outlined, black pieces filled black. The
// picture is the same bytes for the same position and options, and every element a reader may want
// to find carries data- attributes:
//   <svg ... data-fen="FEN" data-flip="0|1">
//   <rect class="last-move" data-square="e2"/>            the from and to squares of the last move
//   <text class="piece" data-square="e4" data-piece="P">  one per piece (FEN letter: PNBRQK pnbrqk)
//   <text class="coord" data-coord="a|1">                  the files and ranks on the edge
//   <circle class="to-move" data-color="w|b"/>            beside the board, on the mover's side
//   <text class="pocket" data-color="w|b" data-pocket="QRPP">  crazyhouse: a pocket's pieces
// A Xiangqi board (board_svg_after) has the same <svg> attributes and to-move disc, and
//   <circle class="last-move" data-square="h2"/>          the last move's from and to points
//   <g class="piece" data-square="e0" data-piece="K">      one per piece, a disc and its character
//   <text class="coord" data-coord="a|0">                  files a-i and ranks 0-9
#pragma once

#include <string>
#include <string_view>

#include "pgnarc/chess.h"
#include "pgnarc/export.h"
#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc {

struct PGNARC_EXPORT BoardSvgOptions {
  bool flip = false;              // Black at the bottom: rank 1 (Xiangqi: 0) at the top, file h (i) on the left
  Move last_move = Move::none();  // tinted from and to squares; none() or null() marks nothing
  int size = 360;                 // the picture's width in pixels (16 to 4096; clamped)
  bool coordinates = true;        // files a-h and ranks 1-8 (Xiangqi: a-i, 0-9) on the left and bottom edges
};

// The SVG diagram of `pos` (a whole document: xmlns, viewBox, width and height, no external
// references), the last move marked, the side to move shown by a small disc beside the board on
// its side, crazyhouse pockets as a line of text above and below. Never fails; every variant is
// drawn as a chess board. A castling move marks the king's from and to squares.
PGNARC_EXPORT std::string board_svg(const Position& pos, const BoardSvgOptions& options = {});

// The board of `game` after `plies` plies of its main line (0: its start), the last of them
// marked (options.last_move is not read): board_svg for a game of chess; for a Xiangqi game, its
// nine files and ten ranks of points with the river and the palaces, each piece a disc with its
// character (Red 帥 仕 相 傌 俥 炮 兵, Black 將 士 象 馬 車 砲 卒) and data-piece its FEN letter
// (K A B N R C P, k a b n r c p), ICCS coordinates a-i and 0-9, the side to move's disc red or
// black, Black's side at the bottom with `flip`; data-fen its FEN. Fails with InvalidInput where
// fen_after does (a main line shorter than `plies`, an illegal move, a bad FEN tag).
PGNARC_EXPORT Result<std::string> board_svg_after(const Game& game, int plies, const BoardSvgOptions& options = {});

// The Xiangqi board of a Xiangqi FEN (format 5.7), drawn as board_svg_after draws a Xiangqi
// game's, the points of `last` marked (a move in ICCS, "h2e2", in either case; "" marks nothing;
// options.last_move is not read): for callers that hold positions rather than games (pgnarc
// serve's /api/board). Fails with InvalidInput on a FEN that is not a Xiangqi FEN or a `last`
// that is not ICCS.
PGNARC_EXPORT Result<std::string> xiangqi_board_svg(std::string_view fen, std::string_view last = {},
                                                    const BoardSvgOptions& options = {});

}  // namespace pgnarc
