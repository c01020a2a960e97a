// pgnarc-bench: in-process measurements for tools/bench (which runs the peers and prints the
// tables). Each subcommand prints one line of key=value figures.
//
//   pgnarc-bench parse FILE     read and validate every game (SAN resolved against the board)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "pgnarc/pgn.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Counts what the reader reports, without building games.
struct Counter : pgnarc::PgnVisitor {
  unsigned long long plies = 0, games = 0, bad = 0;
  void move(const pgnarc::Position&, pgnarc::Move, pgnarc::SourcePos) override { ++plies; }
  void end_game(std::string_view) override { ++games; }
  void game_error(const pgnarc::Error&, std::string_view) override { ++bad; }
};

int cmd_parse(const char* path) {
  const auto t0 = std::chrono::steady_clock::now();
  auto reader = pgnarc::PgnReader::open(path);
  if (!reader) {
    std::fprintf(stderr, "%s\n", reader.error().to_string().c_str());
    return 4;
  }
  Counter c;
  for (;;) {
    auto got = (*reader)->next(c);
    if (!got) {
      std::fprintf(stderr, "%s\n", got.error().to_string().c_str());
      return 4;
    }
    if (!*got) break;
  }
  std::printf("bytes=%llu games=%llu unreadable=%llu plies=%llu seconds=%.6f\n",
              static_cast<unsigned long long>((*reader)->bytes_read()), c.games + c.bad, c.bad, c.plies,
              seconds_since(t0));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "parse") == 0) return cmd_parse(argv[2]);
  std::fprintf(stderr, "usage: pgnarc-bench parse FILE\n");
  return 1;
}
