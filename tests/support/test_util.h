// Helpers shared by the tests.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "pgnarc/chess.h"
#include "pgnarc/game.h"

namespace pgnarc {
// Readable test failure output.
inline void PrintTo(const Tag& t, std::ostream* os) { *os << "[" << t.key << " \"" << t.value << "\"]"; }
}  // namespace pgnarc

namespace pgnarc::test {

inline std::string corpus_path(const std::string& rel) { return std::string(PGNARC_CORPUS_DIR) + "/" + rel; }

// A directory of its own under the test temporary directory, removed with everything in it when
// the object goes (tests leave nothing behind).
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    static std::atomic<int> counter{0};
    path_ = ::testing::TempDir() + "/pgnarc_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

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

// The moves of PGN text as written: its movetext's words (between white space) that are neither
// in a tag line nor move numbers (digits and dots only).
inline std::vector<std::string> move_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  std::string line, w;
  while (std::getline(in, line)) {
    if (line.starts_with("[")) continue;
    std::istringstream ls(line);
    while (ls >> w)
      if (w.find_first_not_of("0123456789.") != std::string::npos) words.push_back(w);
  }
  return words;
}

}  // namespace pgnarc::test
