// The table columns of a tags section (spec 9.4.8), in blocks of layout 5.
#include "common/bytes.h"
#include "container/tag_readers.h"
#include "container/tag_values.h"
#include "container/value_tables.h"

namespace pgnarc::container::tag_readers {

using common::ByteCursor;
using common::unzigzag;

Status read_table_column(ByteCursor& r, std::string_view key, Slots slots, std::uint32_t count,
                         const std::vector<std::uint32_t>& games, const std::string& where, bool whole,
                         TableEntries& entries, BlockTags& out) {
  auto bad = [&](const std::string& what) { return corruption(where + ": tags section: " + what); };
  if (!entries.tables) return bad("a table column, but the archive has no value tables");
  const ValueTables& tables = *entries.tables;
  std::uint64_t t;
  if (!r.varint(t) || t >= tables.tables().size()) return bad("a table column naming a table the archive does not have");
  const int key_at = tables.key_index(t, key);
  if (key_at < 0) return bad("a table column of a key its table does not have");
  const std::uint32_t n_entries = tables.tables()[t].entries;
  ColumnCodes codes(r);
  if (!codes.start(true)) return bad("codeword runs past the end");
  std::vector<std::int64_t>& game_entry = entries.entry[t];
  if (game_entry.empty()) game_entry.assign(entries.games, -1);
  std::vector<std::uint32_t> kept;
  for (std::uint32_t e = 0; e < count; ++e) {
    std::uint64_t code;
    if (!codes.next(code)) return bad("codes run past the end");
    if (code == 0) {
      kept.push_back(slots[e]);
      continue;
    }
    std::int64_t& own = game_entry[games[e]];
    std::int64_t entry;
    if (own < 0) {
      entry = code - 1 < n_entries ? static_cast<std::int64_t>(code - 1) : -1;
      own = entry;
    } else {
      const std::int64_t delta = unzigzag(code - 1);
      entry = delta >= -own && delta < static_cast<std::int64_t>(n_entries) - own ? own + delta : -1;
    }
    if (entry < 0) return bad("a table entry the table does not have");
    const auto value = tables.value(t, static_cast<std::uint32_t>(entry), static_cast<std::size_t>(key_at));
    if (!value) return bad("a table entry without a value for its column's key");
    const std::uint32_t slot = slots[e];
    if (slot == kNoSlot || !written(out, slot, whole)) continue;
    const std::size_t from = out.arena.size();
    out.arena += *value;
    out.pending.push_back(BlockTags::Pending{slot, from, value->size()});
    if (out.arena.size() > kMaxTypedTagBytes) return bad("typed values larger than the limit");
  }
  if (!codes.finish()) return bad("codeword does not end where its length says, with bits 0 after it");
  r = codes.body;
  return read_kept(r, kept, where, out);
}

}  // namespace pgnarc::container::tag_readers
