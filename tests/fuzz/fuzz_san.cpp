// Fuzz target: SAN input. The input is a FEN, a newline, and a move; a move that parses is legal,
// and its canonical SAN parses back to it.
#include <cstdint>
#include <string>

#include "pgnarc/chess.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);
  const auto nl = in.find('\n');
  if (nl == std::string::npos) return 0;
  auto p = pgnarc::Position::from_fen(in.substr(0, nl));
  if (!p) return 0;
  auto m = p->parse_san(in.substr(nl + 1));
  if (!m) return 0;
  if (!p->is_legal(*m)) __builtin_trap();
  auto back = p->parse_san(p->san(*m));
  if (!back || *back != *m) __builtin_trap();
  return 0;
}
