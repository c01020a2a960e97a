// The readers of a tags section's columns that the codings of layout 3 share with the others
// (internal to tags_section.cpp and tags_section_layout3.cpp, spec 9.4): where a column's values
// go, its text bodies, and the values written out in an arena.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "container/tags_section.h"

namespace pgnarc::container::tag_readers {

// A tag whose value is only read and checked, not written out: one after the last game wanted.
inline constexpr std::uint32_t kNoSlot = ~0u;

// A column's tags, by rank: where each of the first `kept` goes among the block's tags (views).
struct Slots {
  const std::uint32_t* at;
  std::uint32_t kept;
  std::uint32_t operator[](std::uint32_t e) const { return e < kept ? at[e] : kNoSlot; }
};

// Whether the value of the tag `slot` is written out: a wanted tag's, or, in a column read
// `whole` (a rating's player needs them, 9.4.2), any tag's up to the last one wanted.
bool written(const BlockTags& out, std::uint32_t slot, bool whole);
// Gives the tags of `out.pending` their values in `arena`, which no longer grows.
void resolve(BlockTags& out, const std::string& arena);
// A text body of `count` values (a text column, or a typed column's fallbacks) into `values`.
Status read_text_body(common::ByteCursor& r, std::uint32_t count, const std::string& where, BlockTags& scratch,
                      std::vector<std::string_view>& values);
// The text body of the values a column keeps as text (`kept`: their slots, kNoSlot for a value
// only checked), which ends the column.
Status read_kept(common::ByteCursor& r, const std::vector<std::uint32_t>& kept, const std::string& where,
                 BlockTags& out);

// A derived column (9.4.5, `key` its key): its rule, a flag per tag, then the text body of those
// kept as text. The tags written out are listed in out.derived, flagged ones with their views left
// empty.
Status read_derived(common::ByteCursor& r, std::string_view key, Slots slots, std::uint32_t count,
                    const std::string& where, bool whole, BlockTags& out);

// A named column (9.4.6) as read before its values are made: its flags and its text body's
// values, in rank order.
struct NamedColumn {
  std::string_view flags;
  std::vector<std::string_view> texts;
};
Status read_named(common::ByteCursor& r, std::uint32_t count, const std::string& where, BlockTags& out,
                  NamedColumn& column);
// The named columns' values of the games written out up to `last` (their players' values
// decoded: the keys `white` and `black`, ~0u where the block has none), each its game's White or
// Black value and its rest, or its text; checked as TAGS-9 says. named_of[k]: key k's column
// in `named`, or -1.
Status write_named(const std::vector<std::int32_t>& named_of, std::vector<NamedColumn>& named, std::uint32_t last,
                   std::uint32_t white, std::uint32_t black, const std::string& where, BlockTags& out);

}  // namespace pgnarc::container::tag_readers
