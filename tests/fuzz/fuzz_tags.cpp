// Fuzz target: a block's tags section of arbitrary bytes (spec 9.4). The first byte gives the
// game count (its low bit is ignored); the rest is the section, read with a players' table of
// 1,000 entries `p0` to `p999`. Damage must be an error, never a crash; and a section that
// decodes is the one the writer makes of the tags it decodes to, when its columns are chosen by
// raw size (only the writer's choice of coding may differ), White and Black given as entries of
// that table (values it lacks added to it).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "container/format.h"
#include "container/tags_section.h"

namespace {

class Table : public pgnarc::container::PlayerNames {
 public:
  Table() {
    for (int p = 0; p < 1000; ++p) add("p" + std::to_string(p));
  }
  pgnarc::Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const override {
    if (ordinal >= values_.size()) return pgnarc::corruption(where + ": no such player");
    out += values_[ordinal];
    return {};
  }
  std::uint32_t entry(const std::string& value) {
    auto it = entry_.find(value);
    return it != entry_.end() ? it->second : add(value);
  }

 private:
  std::uint32_t add(const std::string& value) {
    values_.push_back(value);
    return entry_.emplace(value, static_cast<std::uint32_t>(values_.size() - 1)).first->second;
  }
  std::vector<std::string> values_;
  std::unordered_map<std::string, std::uint32_t> entry_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc;
  using namespace pgnarc::container;
  if (size < 1) return 0;
  const std::uint32_t games = 1 + (data[0] >> 1);  // 1 to 128
  const std::string_view section(reinterpret_cast<const char*>(data) + 1, size - 1);
  Table table;
  BlockTags whole;
  if (!decode_tags_section(section, games, "fuzz", whole, &table).ok()) return 0;
  // Decoded again from the section the writer makes of them, the tags are the same.
  std::vector<std::vector<Tag>> tags;
  std::vector<std::uint32_t> players;
  for (std::uint32_t g = 0; g < games; ++g) {
    tags.push_back(whole.game(g));
    for (const Tag& t : tags.back())
      if (name_field_of(t.key) == kPlayerField) players.push_back(table.entry(t.value));
  }
  const std::vector<std::uint32_t>* const ways[] = {nullptr, &players};  // as text, as entries
  for (const std::vector<std::uint32_t>* given : ways) {
    const std::string again = encode_tags_section(tags, 0, given);
    BlockTags back;
    if (!decode_tags_section(again, games, "fuzz", back, &table).ok()) __builtin_trap();
    for (std::uint32_t g = 0; g < games; ++g)
      if (back.game(g) != tags[g]) __builtin_trap();
  }
  return 0;
}
