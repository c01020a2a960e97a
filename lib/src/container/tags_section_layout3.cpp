// The tags section's columns of layout 3 (spec 9.4.5, 9.4.6): derived and named columns.
#include "container/derived_tags.h"
#include "container/format.h"
#include "container/tag_readers.h"
#include "container/tag_values.h"

namespace pgnarc::container::tag_readers {

using common::ByteCursor;

Status read_kept(ByteCursor& r, const std::vector<std::uint32_t>& kept, const std::string& where, BlockTags& out) {
  if (!kept.empty()) {
    std::vector<std::string_view> values;
    if (auto st = read_text_body(r, static_cast<std::uint32_t>(kept.size()), where, out, values); !st) return st;
    for (std::size_t i = 0; i < kept.size(); ++i)
      if (kept[i] != kNoSlot) out.views[kept[i]].value = values[i];
  }
  if (r.remaining() != 0) return corruption(where + ": tags section: bytes left over in a column");
  return {};
}

Status read_derived(ByteCursor& r, std::string_view key, Slots slots, std::uint32_t count, const std::string& where,
                    bool whole, BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint8_t rule;
  if (!r.u8(rule) || rule >= kDerivedRules) return bad("bad derived column rule");
  if (key != kDerivedKey) return bad("a derived column of a key other than CurrentPosition");
  std::string_view flags;
  if (!r.bytes(count, flags)) return bad("derived flags run past the end");
  std::vector<std::uint32_t> kept;
  for (std::uint32_t e = 0; e < count; ++e) {
    const auto flag = static_cast<std::uint8_t>(flags[e]);
    if (flag > 1) return bad("bad derived flag");
    if (flag == 0) kept.push_back(slots[e]);
    if (slots[e] != kNoSlot && written(out, slots[e], whole)) out.derived.push_back(BlockTags::Derived{slots[e], rule, flag == 1});
  }
  return read_kept(r, kept, where, out);
}

Status read_named(ByteCursor& r, std::uint32_t count, const std::string& where, BlockTags& out, NamedColumn& column) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  if (!r.bytes(count, column.flags)) return bad("named flags run past the end");
  for (char f : column.flags)
    if (static_cast<std::uint8_t>(f) > 2) return bad("bad named flag");
  if (auto st = read_text_body(r, count, where, out, column.texts); !st) return st;
  if (r.remaining() != 0) return bad("bytes left over in a column");
  return {};
}

Status write_named(const std::vector<std::int32_t>& named_of, std::vector<NamedColumn>& named, std::uint32_t last,
                   std::uint32_t white, std::uint32_t black, const std::string& where, BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::vector<std::uint32_t> rank(named.size(), 0);
  out.named_arena.reserve(64);
  for (std::uint32_t g = 0; g < last; ++g) {
    if (out.start[g] < out.want_from) {  // a game not written out: its ranks only
      for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i)
        if (named_of[out.key_of[i]] >= 0) ++rank[named_of[out.key_of[i]]];
      continue;
    }
    // The game's first White and Black values (empty: none, or an empty one).
    std::string_view player[2];
    bool seen[2] = {false, false};
    for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i)
      for (int c = 0; c < 2; ++c)
        if (!seen[c] && out.key_of[i] == (c == 0 ? white : black)) {
          seen[c] = true;
          player[c] = out.views[i].value;
        }
    for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i) {
      const std::int32_t n = named_of[out.key_of[i]];
      if (n < 0) continue;
      NamedColumn& column = named[n];
      const std::uint32_t e = rank[n]++;
      const auto flag = static_cast<std::uint8_t>(column.flags[e]);
      const std::string_view text = column.texts[e];
      // The writer names White where it can, else Black: a value it keeps whole names neither.
      const auto names = [&](int c, std::string_view value) { return !player[c].empty() && value.starts_with(player[c]); };
      if (flag == 0) {
        if (names(0, text) || names(1, text)) return bad("a named value kept whole that begins with a player's name");
        out.views[i].value = text;
        continue;
      }
      const std::string_view name = player[flag - 1];
      if (name.empty()) return bad("a named value of a player the game does not name");
      const std::size_t from = out.named_arena.size();
      out.named_arena += name;
      out.named_arena += text;
      if (flag == 2 && names(0, std::string_view(out.named_arena).substr(from)))
        return bad("a named value of Black's that begins with White's name");
      if (out.arena.size() + out.named_arena.size() > kMaxTypedTagBytes) return bad("typed values larger than the limit");
      out.pending.push_back(BlockTags::Pending{i, from, out.named_arena.size() - from});
    }
  }
  resolve(out, out.named_arena);
  return {};
}

}  // namespace pgnarc::container::tag_readers
