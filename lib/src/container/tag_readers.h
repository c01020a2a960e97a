// The readers of a tags section's columns that the codings of layouts 3 to 8 share with the
// others (internal to the tags_section*.cpp files, spec 9.4): where a column's values go, its
// text bodies, codes in a codeword, and the values written out in an arena.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codec/entropy/symbol_coder.h"
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

// Reference `e` of `count` references stored in `width` byte planes (low bytes first). A column
// of one value stores none (width 0): its first tag is that value's first use (0), the others
// repeat it (1).
std::uint64_t plane_ref(std::string_view refs, std::uint32_t count, std::uint32_t e, int width);

// The ranks of a column's values written without escapes (9.4.10): their count (at least 1
// with `some`, at most `count`), then each as its gap from the one before less 1.
Status read_unescaped_ranks(common::ByteCursor& r, std::uint32_t count, bool some, const std::string& where,
                            std::vector<std::uint32_t>& ranks);
// An error unless `value` may be written without escapes: it holds a quote or a backslash, and
// no line break (9.4.10).
Status check_unescaped(std::string_view value, const std::string& where);

// A column of entries (9.4.3) of `count` tags: its entries of `players` (the players' table, or
// with `ranked` the Event or Site table, whose ranks of values written without escapes follow),
// then each tag's place among them; the values of the entries the tags written out name read
// from the table into the arena, in one pass over it (the entries ascend).
Status read_players(common::ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where,
                    const PlayerNames* players, bool whole, BlockTags& out, bool ranked);

// Whether the codeword `codeword`, read up to its closing bits by `in`, ends in its last byte
// with the bits after its end 0 (TAGS-6, TAGS-11, TAGS-12).
bool codeword_ends(const codec::ArithDecoder& in, std::string_view codeword);

// The codes of a typed column (9.4.1), read from its body after its header: varints, or, in a
// coded column (9.4.7) or a table column (9.4.8), the integers of a codeword, whose end finish()
// checks after the last. `body` then holds what follows the codes (the text body).
struct ColumnCodes {
  common::ByteCursor body;
  bool coded = false;
  std::string_view codeword;
  codec::ArithDecoder in;
  codec::AdaptiveFrequencies<65> widths;

  explicit ColumnCodes(common::ByteCursor b) : body(b) {}
  bool start(bool is_coded) {
    coded = is_coded;
    if (!coded) return true;
    if (!body.prefixed(codeword)) return false;
    in.start(codeword, 0);
    return true;
  }
  bool next(std::uint64_t& code) {
    if (!coded) return body.varint(code);
    codec::SymbolReader side{in};
    return codec::code_width_number(side, widths, code);
  }
  bool finish() const { return !coded || codeword_ends(in, codeword); }
};

// The table columns of a block (9.4.8), read in key order: each game's entry of each table, as
// its first table tag with a code above 0 sets it.
struct TableEntries {
  const ValueTables* tables = nullptr;
  std::vector<std::vector<std::uint32_t>> game_of;  // [key][rank]: the game of each tag of a table column
  std::vector<std::vector<std::int64_t>> entry;     // [table][game]: its entry, or -1 (a table's once a column names it)
  std::uint32_t games = 0;
};
// A table column (9.4.8) of `key` (games[e]: the game of its tag of rank e): its table, the codes
// of its `count` tags, each entry checked (those of the first `slots.kept` tags written out),
// then the text body of those kept as text.
Status read_table_column(common::ByteCursor& r, std::string_view key, Slots slots, std::uint32_t count,
                         const std::vector<std::uint32_t>& games, const std::string& where, bool whole,
                         TableEntries& entries, BlockTags& out);

// A position column (9.4.4) and a Xiangqi position column (9.4.9) of `count` tags: the codeword's
// values (those of the first `slots.kept` tags written out), then the text body of those kept as
// text.
Status read_positions(common::ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where, bool whole,
                      BlockTags& out);
Status read_xiangqi_positions(common::ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where,
                              bool whole, BlockTags& out);

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
