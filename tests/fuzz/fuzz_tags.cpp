// Fuzz target: a block's tags section of arbitrary bytes (spec 9.4). The first byte gives the
// game count (its low bit is ignored); the rest is the section. Damage must be an error, never a
// crash; and where the whole section decodes, each game's tags read on their own must equal the
// whole decode's (the single-game reader checks less, but may not read differently).
#include <cstdint>
#include <string>
#include <vector>

#include "container/tags_section.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc;
  using namespace pgnarc::container;
  if (size < 1) return 0;
  const std::uint32_t games = 1 + (data[0] >> 1);  // 1 to 128
  const std::string_view section(reinterpret_cast<const char*>(data) + 1, size - 1);
  BlockTags whole;
  const bool whole_ok = decode_tags_section(section, games, "fuzz", whole).ok();
  for (std::uint32_t g = 0; g < games; ++g) {
    std::vector<Tag> one;
    const bool one_ok = decode_game_tags(section, games, g, "fuzz", one).ok();
    if (whole_ok && (!one_ok || one != whole.game(g))) __builtin_trap();
  }
  return 0;
}
