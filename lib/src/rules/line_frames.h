// Walking a game's lines (internal): the position at every point of them, and the position
// after some plies of the main line, for a position of any rules.
#pragma once

#include <string>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::rules {

// The position after the first `plies` plies (moves and null moves) of the main line of
// `events` from `start`: play(position, event) checks each and plays it (its error ends the
// walk). Fails with InvalidInput where `plies` is negative or the main line is shorter.
template <class P, class Play>
Result<P> after_main_line(P pos, const std::vector<GameEvent>& events, int plies, Play play) {
  if (plies < 0) return invalid_input("no position before the start (" + std::to_string(plies) + " plies)");
  int played = 0, depth = 0;
  for (const GameEvent& e : events) {
    if (played == plies) break;
    if (e.type == GameEvent::kBeginVariation) ++depth;
    else if (e.type == GameEvent::kEndVariation) --depth;
    if (depth != 0 || (e.type != GameEvent::kNullMove && e.type != GameEvent::kMove)) continue;
    if (Status st = play(pos, e); !st) return st.error();
    ++played;
  }
  if (played < plies)
    return invalid_input("the main line has " + std::to_string(played) + " plies, not " + std::to_string(plies));
  return pos;
}

// The position at every point of a game's lines, as a walk through its events meets them: a
// variation rewinds to the position before the move it replaces. `P` is what is kept (a Xiangqi
// position, or only the side to move and the move number), with play(move) and, where null
// moves are walked, play_null().
template <class P>
class LineFrames {
 public:
  explicit LineFrames(const P& start) { frames_.push_back({start, start, false}); }
  // Where the next move of the current line is played.
  const P& current() const { return frames_.back().current; }
  // Nesting depth of variations (0 on the main line).
  int depth() const { return static_cast<int>(frames_.size()) - 1; }
  template <class M>
  void play(const M& m) {
    Frame& f = step();
    f.current.play(m);
  }
  void play_null() {
    Frame& f = step();
    f.current.play_null();
  }
  // False if the line has no move to replace.
  bool begin_variation() {
    if (!frames_.back().has_previous) return false;
    const P start = frames_.back().previous;
    frames_.push_back({start, start, false});
    return true;
  }
  // False on the main line.
  bool end_variation() {
    if (frames_.size() < 2) return false;
    frames_.pop_back();
    return true;
  }

 private:
  struct Frame {
    P current;
    P previous;  // before the line's last move
    bool has_previous;
  };
  Frame& step() {
    Frame& f = frames_.back();
    f.previous = f.current;
    f.has_previous = true;
    return f;
  }
  std::vector<Frame> frames_;
};

}  // namespace pgnarc::rules
