// The positions of a main line as the move model sees them (tests of the model and its cache).
#pragma once

#include "codec/move_model.h"
#include "support/main_lines.h"

namespace pgnarc::test {

// Calls visit(at, targets) at each position of `line` where a move is played, `at` holding the
// position and the history the model reads (null moves are played, not visited), until visit
// returns false.
template <class Visit>
void replay_line(const MainLine& line, Visit&& visit) {
  detail::model::LineState at{line.start, {}};
  for (Move m : line.moves) {
    if (m.is_null()) {
      at.play_null();
      continue;
    }
    detail::PieceTargets t;
    detail::generate_targets(at.pos, t);
    if (!visit(static_cast<const detail::model::LineState&>(at), static_cast<const detail::PieceTargets&>(t))) return;
    at.play(m);
  }
}

}  // namespace pgnarc::test
