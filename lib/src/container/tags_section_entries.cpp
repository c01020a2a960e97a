// Columns of entries of the archive's name tables (9.4.3): the players' columns (White and Black)
// and, in a block of layout 8, the Event and Site columns, whose values written without escapes
// are ranked after the entries.
#include "container/tag_readers.h"

#include "container/tag_columns.h"

namespace pgnarc::container::tag_readers {

using common::ByteCursor;
using tag_columns::width_below;

Status read_players(ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where,
                    const PlayerNames* players, bool whole, BlockTags& out, bool ranked) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  if (!players) return bad("a column of entries, but no name table to read it with");
  std::uint64_t n;
  if (!r.varint(n) || n == 0 || n > count) return bad("bad player count");
  struct Entry {
    std::uint32_t entry;
    bool named = false, wanted = false;
    std::size_t from = 0, size = 0;  // its value in the arena, once read
  };
  std::vector<Entry> at(n);
  std::uint64_t entry = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t d;
    if (!r.varint(d) || d > 0xFFFFFFFFu) return bad("player entries run past the end");
    entry = i == 0 ? d : entry + d + 1;
    if (entry > 0xFFFFFFFFu) return bad("player entry out of range");
    at[i].entry = static_cast<std::uint32_t>(entry);
  }
  // Every entry is one of the table's, in a chunk that reads (TAGS-5, NAME-1), whether or not
  // its value is needed.
  {
    std::vector<std::uint32_t> entries(n);
    for (std::size_t i = 0; i < n; ++i) entries[i] = at[i].entry;
    if (auto st = players->check_ascending(entries.data(), entries.size(), where); !st) return st;
  }
  const int width = width_below(static_cast<std::int64_t>(n));
  std::string_view refs;
  if (!r.bytes(std::uint64_t{count} * width, refs)) return bad("player references run past the end");
  // One entry (no planes): every tag names it.
  const auto place = [&](std::uint32_t e) { return width == 0 ? 0 : plane_ref(refs, count, e, width); };
  for (std::uint32_t e = 0; e < count; ++e) {
    const std::uint64_t p = place(e);
    if (p >= n) return bad("reference to a player not in the column's list");
    at[p].named = true;
    at[p].wanted = at[p].wanted || written(out, slots[e], whole);
  }
  for (const Entry& a : at)
    if (!a.named) return bad("a listed player that no tag names");
  // The ranks written without escapes: their entries' values are read, to be checked.
  std::vector<std::uint32_t> unescaped;
  if (ranked) {
    if (auto st = read_unescaped_ranks(r, count, false, where, unescaped); !st) return st;
    for (std::uint32_t e : unescaped) at[place(e)].wanted = true;
  }
  if (r.remaining() != 0) return bad("bytes left over in a column");
  std::vector<std::uint32_t> wanted;
  for (const Entry& a : at)
    if (a.wanted) wanted.push_back(a.entry);
  std::vector<std::size_t> ends;
  const std::size_t from = out.arena.size();
  if (auto st = players->append_ascending(wanted.data(), wanted.size(), where, out.arena, ends); !st) return st;
  if (out.arena.size() > kMaxTypedTagBytes) return bad("typed values larger than the limit");
  for (std::size_t i = 0, w = 0; i < n; ++i) {
    if (!at[i].wanted) continue;
    at[i].from = w == 0 ? from : ends[w - 1];
    at[i].size = ends[w] - at[i].from;
    ++w;
  }
  for (std::uint32_t e : unescaped) {
    const Entry& a = at[place(e)];
    if (auto st = check_unescaped(std::string_view(out.arena).substr(a.from, a.size), where); !st) return st;
    if (written(out, slots[e], whole)) out.views[slots[e]].unescaped = true;
  }
  for (std::uint32_t e = 0; e < slots.kept; ++e)
    if (written(out, slots[e], whole)) {
      const Entry& a = at[place(e)];
      out.pending.push_back(BlockTags::Pending{slots[e], a.from, a.size});
    }
  return {};
}

}  // namespace pgnarc::container::tag_readers
