// The positions of a main line as the move model sees them (tests of the model and its cache).
#pragma once

#include <random>

#include "codec/model/move_model.h"
#include "main_lines.h"
#include "support/test_util.h"

namespace pgnarc::test {

// Calls visit(at, targets) at each position of `line` where a move is played, `at` holding the
// position and the history the model reads (null moves are played, not visited), until visit
// returns false.
template <class Visit>
void replay_line(const MainLine& line, Visit&& visit) {
  codec::model::LineState at{line.start, {}};
  for (Move m : line.moves) {
    if (m.is_null()) {
      at.play_null();
      continue;
    }
    rules::PieceTargets t;
    rules::generate_targets(at.pos, t);
    if (!visit(static_cast<const codec::model::LineState&>(at), static_cast<const rules::PieceTargets&>(t))) return;
    at.play(m);
  }
}

// `games` random games of up to `plies` plies from each FEN of `starts`: random legal moves,
// and now and then (one ply in 50, never in check) a null move, which forgets the history.
// Random moves reach what games rarely do: many exchanges on one square, discovered checks,
// promotions with check, pieces en prise everywhere.
inline std::vector<MainLine> random_lines(const std::vector<const char*>& starts, int games, int plies,
                                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<MainLine> lines;
  for (const char* start : starts) {
    for (int game = 0; game < games; ++game) {
      MainLine line{"random game", fen(start), {}};
      codec::model::LineState at{line.start, {}};
      for (int ply = 0; ply < plies; ++ply) {
        rules::PieceTargets t;
        rules::generate_targets(at.pos, t);
        if (t.total == 0) break;
        const Move m = rng() % 50 == 0 && !t.check
                           ? Move::null()
                           : rules::move_at_index(at.pos, t, static_cast<int>(rng() % static_cast<unsigned>(t.total)));
        line.moves.push_back(m);
        if (m.is_null()) at.play_null();
        else at.play(m);
      }
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

// `games` random games of king of the hill, whose moves are standard chess's while the side to
// move has a king: null moves often (in check too) and a king taken wherever one can be, each
// line cut at its first position whose side to move has no king (the models' domain).
// `king_captures` counts the kings taken.
inline std::vector<MainLine> king_taken_lines(int games, std::uint64_t seed, long& king_captures) {
  std::mt19937_64 rng(seed);
  std::vector<MainLine> lines;
  for (int game = 0; game < games; ++game) {
    MainLine line{"random king of the hill game", Position::start(Variant::kKingOfTheHill), {}};
    codec::model::LineState at{line.start, {}};
    for (int ply = 0; ply < 120; ++ply) {
      if (!at.pos.pieces(at.pos.side_to_move(), kKing)) break;
      rules::PieceTargets t;
      rules::generate_targets(at.pos, t);
      if (t.total == 0) break;
      Move m = rng() % 4 == 0
                   ? Move::null()
                   : rules::move_at_index(at.pos, t,
                                          static_cast<int>(rng() % static_cast<unsigned>(t.total)));
      for (int i = 0; i < t.total; ++i) {
        const Move c = rules::move_at_index(at.pos, t, i);
        if (type_of(at.pos.piece_on(c.to())) == kKing && color_of(at.pos.piece_on(c.to())) != at.pos.side_to_move()) {
          m = c;
          ++king_captures;
          break;
        }
      }
      line.moves.push_back(m);
      if (m.is_null()) at.play_null();
      else at.play(m);
    }
    std::vector<Move> kept;
    codec::model::LineState walk{line.start, {}};
    for (Move m : line.moves) {
      if (!walk.pos.pieces(walk.pos.side_to_move(), kKing)) break;
      kept.push_back(m);
      if (m.is_null()) walk.play_null();
      else walk.play(m);
    }
    line.moves = kept;
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace pgnarc::test
