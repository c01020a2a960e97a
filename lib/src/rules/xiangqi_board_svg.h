// A Xiangqi position as an SVG picture (internal to the rules layer): the drawing of
// board_svg_after (board_svg.h) for a Xiangqi game, for callers that hold the position.
#pragma once

#include <string>

#include "pgnarc/board_svg.h"
#include "rules/xiangqi.h"

namespace pgnarc::rules::xiangqi {

// `pos` drawn with `options` (options.last_move is not read), the points of `last` marked unless
// it is null.
std::string board_svg(const Position& pos, const Move* last, const BoardSvgOptions& options);

}  // namespace pgnarc::rules::xiangqi
