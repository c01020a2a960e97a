// Fuzz target: a block's tags section of arbitrary bytes (spec 9.4). The first byte gives the
// game count (its low bit is ignored); the rest is the section. Damage must be an error, never a
// crash; and a section that decodes is the one the writer makes of the tags it decodes to, when
// its columns are chosen by raw size (only the writer's choice of coding may differ).
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
  if (!decode_tags_section(section, games, "fuzz", whole).ok()) return 0;
  // Decoded again from the section the writer makes of them, the tags are the same.
  std::vector<std::vector<Tag>> tags;
  for (std::uint32_t g = 0; g < games; ++g) tags.push_back(whole.game(g));
  const std::string again = encode_tags_section(tags, 0);
  BlockTags back;
  if (!decode_tags_section(again, games, "fuzz", back).ok()) __builtin_trap();
  for (std::uint32_t g = 0; g < games; ++g)
    if (back.game(g) != tags[g]) __builtin_trap();
  return 0;
}
