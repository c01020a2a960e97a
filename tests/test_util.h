// Helpers shared by the tests.
#pragma once

#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "pgnarc/chess.h"
#include "pgnarc/game.h"

namespace pgnarc {
// Readable test failure output.
inline void PrintTo(const Tag& t, std::ostream* os) { *os << "[" << t.key << " \"" << t.value << "\"]"; }
}  // namespace pgnarc

namespace pgnarc::test {

inline std::string corpus_path(const std::string& rel) { return std::string(PGNARC_CORPUS_DIR) + "/" + rel; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Position fen(const std::string& f) {
  auto r = Position::from_fen(f);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? *r : Position();
}

// Plays up to `plies` uniformly random legal moves from `start`, calling visit(pos) before each.
template <class Visit>
void random_walk(Position pos, int plies, std::mt19937_64& rng, Visit&& visit) {
  for (int i = 0; i < plies; ++i) {
    visit(pos);
    MoveList moves = pos.legal_moves();
    if (moves.size == 0) return;
    pos.play(moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size))]);
  }
  visit(pos);
}

}  // namespace pgnarc::test
