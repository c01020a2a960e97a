// Fuzz target: the PGN reader and writer. Every game read is written and read back the same;
// every unreadable game's bytes are part of the input.
#include <cstdint>
#include <string>
#include <vector>

#include "pgnarc/pgn.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);
  pgnarc::PgnReader reader(pgnarc::memory_input(in), "fuzz.pgn");
  pgnarc::GameBuilder b;
  for (int n = 0; n < 10000; ++n) {
    auto got = reader.next(b);
    if (!got || !*got) break;
    if (!b.ok()) {
      if (in.find(b.raw_text()) == std::string::npos) __builtin_trap();
      continue;
    }
    std::string out;
    if (!pgnarc::write_pgn(b.game(), out)) __builtin_trap();
    pgnarc::PgnReader again(pgnarc::memory_input(out), "again.pgn");
    pgnarc::GameBuilder b2;
    auto got2 = again.next(b2);
    if (!got2 || !*got2 || !b2.ok() || !(b2.game() == b.game())) __builtin_trap();
  }
  return 0;
}
