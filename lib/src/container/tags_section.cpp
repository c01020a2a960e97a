#include "container/tags_section.h"

#include <algorithm>

#include "codec/entropy/symbol_coder.h"
#include "common/bytes.h"
#include "container/derived_tags.h"
#include "container/format.h"
#include "container/tag_columns.h"
#include "container/tag_readers.h"
#include "container/value_tables.h"

namespace pgnarc::container {

using common::ByteCursor;
using common::unzigzag;
using namespace tag_columns;
using namespace tag_readers;

std::vector<Tag> BlockTags::game(std::uint32_t j) const {
  std::vector<Tag> out;
  out.reserve(start[j + 1] - start[j]);
  for (std::uint32_t i = start[j]; i < start[j + 1]; ++i) out.push_back(Tag{std::string(views[i].key), std::string(views[i].value), views[i].unescaped});
  return out;
}

bool BlockTags::derives(std::uint32_t j) const {
  auto it = std::lower_bound(derived.begin(), derived.end(), start[j],
                             [](const Derived& d, std::uint32_t slot) { return d.slot < slot; });
  for (; it != derived.end() && it->slot < start[j + 1]; ++it)
    if (it->flagged) return true;
  return false;
}

std::vector<std::vector<std::uint8_t>> BlockTags::derived_rules(std::uint32_t games) const {
  std::vector<std::vector<std::uint8_t>> rules(games);
  for (const Derived& d : derived) {
    if (!d.flagged) continue;
    const auto j = static_cast<std::uint32_t>(std::upper_bound(start.begin(), start.end(), d.slot) - start.begin() - 1);
    rules[j].resize(start[j + 1] - start[j]);
    rules[j][d.slot - start[j]] = static_cast<std::uint8_t>(1u << d.rule);
  }
  return rules;
}

void BlockTags::Predictor::start(std::uint32_t ratings) {
  std::size_t size = 16;
  while (size < 2 * std::size_t{ratings}) size *= 2;
  // A slot is in use when it has the current generation: the table is cleared only when it
  // grows or the generations wrap.
  if (size > table_.size() || ++generation_ == 0) {
    table_.assign(std::max(size, table_.size()), Slot{});
    generation_ = 1;
  }
  mask_ = size - 1;
  current_ = nullptr;
  last_ = kFirstRatingPrediction;
  game_last_ = 0;
  in_game_ = false;
}

std::int64_t BlockTags::Predictor::predict(const std::string_view* player) {
  current_ = nullptr;
  if (player) {
    std::size_t i = std::hash<std::string_view>{}(*player) & mask_;
    while (table_[i].generation == generation_ && table_[i].name != *player) i = (i + 1) & mask_;
    current_ = &table_[i];
    if (current_->generation != generation_) {
      current_->generation = generation_;
      current_->name = *player;
      current_->rated = false;
    }
    if (current_->rated) return current_->rating;
  }
  return in_game_ ? game_last_ : last_;
}

namespace tag_readers {

// Whether the value of the tag `slot` is written out: a wanted tag's, or, in a column read
// `whole` (a rating's player needs them, 9.4.2), any tag's up to the last one wanted.
bool written(const BlockTags& out, std::uint32_t slot, bool whole) {
  return whole ? slot < out.want_to : out.wanted(slot);
}

// Gives the tags of `out.pending` their values in `arena`, which no longer grows.
void resolve(BlockTags& out, const std::string& arena) {
  for (const auto& p : out.pending) out.views[p.slot].value = std::string_view(arena).substr(p.from, p.size);
  out.pending.clear();
}

}  // namespace tag_readers

namespace {

// Parts 1 and 2 read back: the keys, and for every tag of the first `last` games its key (views
// with empty values, game after game), each key's tag count in column_size (of all games) and
// column_kept (of the first `last`).
Status read_key_lists(ByteCursor& r, std::uint32_t games, std::uint32_t last, const std::string& where,
                      std::vector<std::string_view>& keys, BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t n_keys;
  if (!r.varint(n_keys) || n_keys > r.remaining()) return bad("bad key count");
  keys.resize(n_keys);
  for (auto& k : keys) {
    if (!r.prefixed(k)) return bad("key runs past the end");
  }
  // Keys are distinct, and listed in order of first use: each key index is one used before or
  // the next key of the table.
  auto& sorted = out.distinct;
  sorted.assign(keys.begin(), keys.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return bad("a key listed twice");
  out.column_size.assign(n_keys, 0);
  out.key_of.clear();
  out.start.assign(1, 0);
  // A hot loop over every tag of the block: the position kept in a local pointer, most varints
  // one byte (the others read by ByteReader's rules).
  std::string_view rest;
  r.bytes(r.remaining(), rest);
  const char* p = rest.data();
  const char* const end = p + rest.size();
  const auto next = [&](std::uint64_t& v) {
    if (p != end && static_cast<std::uint8_t>(*p) < 0x80) [[likely]] {
      v = static_cast<std::uint8_t>(*p++);
      return true;
    }
    std::string_view tail(p, static_cast<std::size_t>(end - p));
    if (!common::ByteReader(tail).varint(v)) return false;
    p = tail.data();
    return true;
  };
  std::uint32_t* const size = out.column_size.data();
  std::uint64_t used = 0;
  for (std::uint32_t g = 0; g < games; ++g) {
    if (g == last) out.column_kept = out.column_size;
    std::uint64_t n;
    if (!next(n) || n > static_cast<std::uint64_t>(end - p)) return bad("bad tag count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t id;
      if (!next(id) || id >= n_keys) return bad("bad key index");
      if (id > used) return bad("keys not in order of first use");
      used += id == used;
      ++size[id];
      if (g < last) out.key_of.push_back(static_cast<std::uint32_t>(id));
    }
    if (g < last) out.start.push_back(static_cast<std::uint32_t>(out.key_of.size()));
  }
  r = ByteCursor(std::string_view(p, static_cast<std::size_t>(end - p)));
  if (last >= games) out.column_kept = out.column_size;
  if (used != n_keys) return bad("a key that no tag uses");
  out.views.resize(out.key_of.size());
  for (std::size_t i = 0; i < out.key_of.size(); ++i) out.views[i] = TagView{keys[out.key_of[i]], {}};
  return {};
}

// Part 3: each column's coding and body, up to the section's end.
Status read_column_heads(ByteCursor& r, std::size_t keys, const std::string& where, std::vector<TagCoding>& coding,
                         std::vector<std::string_view>& body) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  coding.resize(keys);
  body.resize(keys);
  for (std::size_t k = 0; k < keys; ++k) {
    std::uint8_t c;
    if (!r.u8(c) || c >= kTagCodings) return bad("unknown column coding");
    coding[k] = static_cast<TagCoding>(c);
    if (!r.prefixed(body[k])) return bad("column runs past the end");
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

}  // namespace

namespace tag_readers {

std::uint64_t plane_ref(std::string_view refs, std::uint32_t count, std::uint32_t e, int width) {
  if (width == 0) return e != 0;
  std::uint64_t v = 0;
  for (int plane = width; plane-- > 0;)
    v = v << 8 | static_cast<std::uint8_t>(refs[static_cast<std::size_t>(plane) * count + e]);
  return v;
}

Status read_unescaped_ranks(ByteCursor& r, std::uint32_t count, bool some, const std::string& where,
                            std::vector<std::uint32_t>& ranks) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t n;
  if (!r.varint(n) || (some && n == 0) || n > count) return bad("bad count of unescaped values");
  ranks.clear();
  for (std::uint64_t i = 0, e = 0; i < n; ++i, ++e) {
    std::uint64_t gap;
    if (!r.varint(gap) || gap >= count - e) return bad("unescaped value's rank out of range");
    e += gap;
    ranks.push_back(static_cast<std::uint32_t>(e));
  }
  return {};
}

Status check_unescaped(std::string_view value, const std::string& where) {
  if (value.find_first_of("\"\\") == std::string_view::npos)
    return corruption(where + ": tags section: unescaped value without a quote or a backslash");
  if (value.find_first_of("\r\n") != std::string_view::npos)
    return corruption(where + ": tags section: unescaped value with a line break");
  return {};
}

// A text body of `count` values (a text column, or a typed column's fallbacks) into `values`.
Status read_text_body(ByteCursor& r, std::uint32_t count, const std::string& where, BlockTags& scratch,
                      std::vector<std::string_view>& values) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t n_distinct, bytes;
  std::string_view list, refs;
  if (!r.varint(n_distinct) || n_distinct == 0 || n_distinct > count) return bad("bad distinct value count");
  if (!r.varint(bytes) || !r.bytes(bytes, list)) return bad("value list runs past the end");
  const int width = tag_ref_width(n_distinct);
  if (!r.bytes(std::uint64_t{count} * width, refs)) return bad("references run past the end");
  auto& distinct = scratch.distinct;
  distinct.clear();
  ByteCursor d(list);
  for (std::uint64_t i = 0; i < n_distinct; ++i) {
    std::string_view v;
    if (!d.prefixed(v)) return bad("value runs past its value list");
    distinct.push_back(v);
  }
  if (d.remaining() != 0) return bad("bytes left over in a value list");
  // A first use (0) takes the next value of the list; a repeat (r > 0) names one already used.
  values.resize(count);
  std::uint64_t used = 0;
  for (std::uint32_t e = 0; e < count; ++e) {
    const std::uint64_t ref = plane_ref(refs, count, e, width);
    if (ref == 0 ? used >= n_distinct : ref > used) return bad("reference to a value not in the value list");
    values[e] = distinct[ref == 0 ? used++ : ref - 1];
  }
  if (used != n_distinct) return bad("value list value never used");
  return {};
}

bool codeword_ends(const codec::ArithDecoder& in, std::string_view codeword) {
  const std::int64_t bits = in.finish();
  if (bits < 0 || static_cast<std::uint64_t>(bits + 7) / 8 != codeword.size()) return false;
  return bits % 8 == 0 || (static_cast<std::uint8_t>(codeword.back()) & (0xFFu >> (bits % 8))) == 0;
}

}  // namespace tag_readers

namespace {

// A typed column's header (9.4.1) into `form`.
Status read_form(ByteCursor& r, TagCoding coding, const std::string& where, ValueForm& form) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  form.coding = coding;
  std::uint8_t byte;
  switch (coding) {
    case TagCoding::kInteger:
      if (!r.u8(byte) || byte > 3) return bad("bad integer column header");
      form.signed_form = byte & 1;
      form.predict = byte & 2;
      break;
    case TagCoding::kRating: {
      std::uint64_t player;
      if (!r.varint(player) || player > 0xFFFFFFFFu) return bad("bad rating column header");
      form.player = static_cast<std::uint32_t>(player);
      break;
    }
    case TagCoding::kIdentifier:
      if (!r.u8(byte) || byte > kTagIdentifierDigits || !r.prefixed(form.id.prefix) ||
          form.id.prefix.size() > kTagPrefixLimit)
        return bad("bad identifier column header");
      form.id.length = byte;
      break;
    default: break;
  }
  return {};
}

// A decoded value kept in one of the block's arenas until the arena stops growing; false if the
// block's typed values written out pass the limit (spec 11: a few bytes of codes may stand for
// an identifier of 82 bytes).
bool keep(BlockTags& out, std::string& arena, std::uint32_t slot, const ValueForm& form, std::int64_t v, bool whole) {
  if (!written(out, slot, whole)) return true;
  const std::size_t from = arena.size();
  form.format(v, arena);
  out.pending.push_back(BlockTags::Pending{slot, from, arena.size() - from});
  return out.arena.size() + out.rating_arena.size() + out.named_arena.size() <= kMaxTypedTagBytes;
}


// A value from its code (1 + the zigzag of its difference from `prediction`), or false if it is
// out of the form's range.
bool from_code(const ValueForm& form, std::uint64_t code, std::int64_t prediction, std::int64_t& v) {
  const std::int64_t delta = unzigzag(code - 1);
  constexpr std::int64_t kReach = std::int64_t{1} << 62;  // beyond any two values' difference
  if (delta >= kReach || delta <= -kReach) return false;
  v = prediction + delta;
  return form.in_range(v);
}

// Fills the fallback tags of a typed column (those `fallback` lists; kNoSlot: a tag whose value
// is only checked) from the text body at `r`. A value kept as text is one its column's form does
// not read (else it has one coding only).
Status read_fallbacks(ByteCursor& r, const ValueForm& form, const std::vector<std::uint32_t>& fallback,
                      const std::string& where, BlockTags& out) {
  if (fallback.empty()) return {};
  std::vector<std::string_view> values;
  if (auto st = read_text_body(r, static_cast<std::uint32_t>(fallback.size()), where, out, values); !st) return st;
  for (std::size_t i = 0; i < fallback.size(); ++i) {
    std::int64_t v;
    if (form.parse(values[i], v)) return corruption(where + ": tags section: a value kept as text is in its column's form");
    if (fallback[i] != kNoSlot) out.views[fallback[i]].value = values[i];
  }
  return {};
}

// A column other than a rating column: its values into the views of its slots. Writes out the
// values of wanted tags (with `whole`: of all tags up to the last one wanted); the others are
// read and checked (a typed value's range too) but not written out.
Status read_column(ByteCursor& r, TagCoding coding, bool coded, Slots slots, std::uint32_t count,
                   const std::string& where, const PlayerNames* players, bool whole, BlockTags& out,
                   bool ranked = false) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  if (coding == TagCoding::kPlayer) return read_players(r, slots, count, where, players, whole, out, ranked);
  if (coding == TagCoding::kPosition) return read_positions(r, slots, count, where, whole, out);
  if (coding == TagCoding::kXiangqiPosition) return read_xiangqi_positions(r, slots, count, where, whole, out);
  if (coding == TagCoding::kText || coding == TagCoding::kUnescaped) {
    if (auto st = read_text_body(r, count, where, out, out.values); !st) return st;
    for (std::uint32_t e = 0; e < count; ++e)
      if (written(out, slots[e], whole)) out.views[slots[e]].value = out.values[e];
    if (coding == TagCoding::kText) return r.remaining() == 0 ? Status{} : bad("bytes left over in a column");
    // The ranks of the values written without escapes (9.4.10).
    std::vector<std::uint32_t> ranks;
    if (auto st = read_unescaped_ranks(r, count, true, where, ranks); !st) return st;
    for (std::uint32_t e : ranks) {
      if (auto st = check_unescaped(out.values[e], where); !st) return st;
      if (written(out, slots[e], whole)) out.views[slots[e]].unescaped = true;
    }
    if (r.remaining() != 0) return bad("bytes left over in a column");
    return {};
  }
  ValueForm form;
  if (auto st = read_form(r, coding, where, form); !st) return st;
  std::vector<std::uint32_t> fallback;
  if (form.fixed_width()) {
    std::string_view flags, planes;
    if (!r.bytes(count, flags)) return bad("identifier flags run past the end");
    std::uint32_t typed = 0;
    for (char f : flags) {
      if (static_cast<std::uint8_t>(f) > 1) return bad("bad identifier flag");
      typed += f == 1;
    }
    const std::int64_t limit = identifier_limit(form.id.length);
    const int width = width_below(limit);
    if (!r.bytes(std::uint64_t{typed} * width, planes)) return bad("identifiers run past the end");
    for (std::uint32_t e = 0, i = 0; e < count; ++e) {
      if (flags[e] == 0) {
        fallback.push_back(slots[e]);
        continue;
      }
      // Compared unsigned: eight planes (10 base-62 digits) hold numbers above any int64.
      const std::uint64_t n = plane_ref(planes, typed, i++, width);
      if (n >= static_cast<std::uint64_t>(limit)) return bad("identifier out of range");
      const auto v = static_cast<std::int64_t>(n);
      if (!keep(out, out.arena, slots[e], form, v, whole)) return bad("typed values larger than the limit");
    }
  } else {
    ColumnCodes codes(r);
    if (!codes.start(coded)) return bad("codeword runs past the end");
    std::int64_t prediction = 0;
    for (std::uint32_t e = 0; e < count; ++e) {
      std::uint64_t code;
      if (!codes.next(code)) return bad("codes run past the end");
      if (code == 0) {
        fallback.push_back(slots[e]);
        continue;
      }
      std::int64_t v;
      if (!from_code(form, code, prediction, v)) return bad("typed value out of range");
      if (written(out, slots[e], whole) && !keep(out, out.arena, slots[e], form, v, whole))
        return bad("typed values larger than the limit");
      if (form.predicts()) prediction = v;
    }
    if (!codes.finish()) return bad("codeword does not end where its length says, with bits 0 after it");
    r = codes.body;
  }
  if (auto st = read_fallbacks(r, form, fallback, where, out); !st) return st;
  if (r.remaining() != 0) return bad("bytes left over in a column");
  return {};
}

}  // namespace

namespace {

// Decodes the section, writing out the values of games `from` to `to` only (their slots are
// out.want_from to out.want_to).
Status decode_section(std::string_view in, std::uint32_t games, std::uint32_t from, std::uint32_t to,
                      const std::string& where, BlockTags& out, const PlayerNames* players, std::uint8_t layout) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::vector<std::string_view> keys;
  ByteCursor r(in);
  // Games after `to` are only read.
  const std::uint32_t last = std::min(to, games - 1) + 1;
  if (auto st = read_key_lists(r, games, last, where, keys, out); !st) return st;
  out.want_from = out.start[std::min(from, last)];
  out.want_to = out.start[last];
  // Where each column's values go: the tags with that key, in order (a counting sort).
  const auto& column_size = out.column_size;
  const auto& column_kept = out.column_kept;
  out.column_start.assign(column_size.size() + 1, 0);
  for (std::size_t k = 0; k < column_size.size(); ++k) out.column_start[k + 1] = out.column_start[k] + column_kept[k];
  out.slots.resize(out.key_of.size());
  out.fill.assign(out.column_start.begin(), out.column_start.end() - 1);
  for (std::uint32_t i = 0; i < out.key_of.size(); ++i) out.slots[out.fill[out.key_of[i]]++] = i;
  std::vector<TagCoding> coding;
  std::vector<std::string_view> body;
  if (auto st = read_column_heads(r, keys.size(), where, coding, body); !st) return st;
  // A coded column (9.4.7) is read as a column of its base coding whose codes are a codeword's.
  const bool tables_allowed = table_layout(layout);
  const bool derived_layout = layout != kBlockLayout;
  std::vector<bool> coded(keys.size(), false);
  TableEntries table_entries;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (coding[k] == TagCoding::kTable) {
      if (!tables_allowed) return bad("a table column in a block of layout 1, 3 or 4");
      if (!table_entries.tables) {
        table_entries.tables = players ? players->value_tables() : nullptr;
        if (!table_entries.tables) return bad("a table column, but the archive has no value tables");
        // Every game's keys, for the entries of every game (each checked, TAGS-12).
        BlockTags all;
        const BlockTags* lists = &out;
        if (last < games) {
          ByteCursor again(in);
          std::vector<std::string_view> all_keys;
          if (auto st = read_key_lists(again, games, games, where, all_keys, all); !st) return st;
          lists = &all;
        }
        table_entries.game_of.assign(keys.size(), {});
        for (std::uint32_t g = 0; g < games; ++g)
          for (std::uint32_t i = lists->start[g]; i < lists->start[g + 1]; ++i)
            if (coding[lists->key_of[i]] == TagCoding::kTable) table_entries.game_of[lists->key_of[i]].push_back(g);
        table_entries.entry.assign(table_entries.tables->tables().size(), {});
        table_entries.games = games;
      }
    }
    if (coding[k] != TagCoding::kCoded) continue;
    if (layout != kCodedTagsLayout && !tables_allowed) return bad("a coded column in a block of layout 1 or 3");
    const auto base = body[k].empty() ? 0 : static_cast<std::uint8_t>(body[k][0]);
    if (base < static_cast<std::uint8_t>(TagCoding::kInteger) || base > static_cast<std::uint8_t>(TagCoding::kTime))
      return bad("bad coded column base");
    coding[k] = static_cast<TagCoding>(base);
    body[k].remove_prefix(1);
    coded[k] = true;
  }
  // The rating columns' headers: the players' columns are written out whole, for the
  // prediction of every rating (9.4.2).
  struct Rating {
    ValueForm form;
    ColumnCodes codes;
    std::vector<std::uint32_t> fallback;
  };
  std::vector<Rating> ratings;
  std::vector<std::int32_t> rating_of(keys.size(), -1);
  std::vector<bool> whole(keys.size(), out.want_from == 0 && last == games);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (coding[k] != TagCoding::kRating) continue;
    Rating rt{ValueForm{}, ColumnCodes(ByteCursor(body[k])), {}};
    if (auto st = read_form(rt.codes.body, TagCoding::kRating, where, rt.form); !st) return st;
    if (!rt.codes.start(coded[k])) return bad("codeword runs past the end");
    if (rt.form.player >= keys.size() || coding[rt.form.player] == TagCoding::kRating)
      return bad("rating column names a bad player column");
    rating_of[k] = static_cast<std::int32_t>(ratings.size());
    whole[rt.form.player] = true;
    ratings.push_back(std::move(rt));
  }
  // Every column but the ratings, which need their players' names.
  // Views into an arena must survive a move of the BlockTags: an arena on the heap keeps its
  // bytes where they are when moved (a short string would move them).
  out.arena.clear();
  out.arena.reserve(64);
  out.rating_arena.clear();
  out.rating_arena.reserve(64);
  out.named_arena.clear();
  out.pending.clear();
  out.derived.clear();
  std::vector<NamedColumn> named;
  std::vector<std::int32_t> named_of(keys.size(), -1);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (coding[k] == TagCoding::kRating) continue;
    if (coding[k] == TagCoding::kNamed) {
      if (!derived_layout) return bad("a named column in a block of layout 1");
      if (name_field_of(keys[k]) == kPlayerField) return bad("a named column of White or Black");
      ByteCursor c(body[k]);
      named_of[k] = static_cast<std::int32_t>(named.size());
      named.emplace_back();
      if (auto st = read_named(c, column_size[k], where, out, named.back()); !st) return st;
      continue;
    }
    ByteCursor c(body[k]);
    // A column of entries names the players' table (White, Black) or, in a block of layout 8,
    // the Event or Site table (9.4.3).
    const PlayerNames* names = players;
    bool ranked = false;  // an Event or Site column of entries
    if (coding[k] == TagCoding::kPlayer) {
      const int field = name_field_of(keys[k]);
      if (field < 0 || (field != kPlayerField && layout != kNameEntriesLayout))
        return bad(layout == kNameEntriesLayout ? "a column of entries of a key other than White, Black, Event and Site"
                                                : "a player column of a key other than White and Black");
      ranked = field != kPlayerField;
      if (ranked) names = players ? players->field_names(field) : nullptr;
    }
    if (coding[k] == TagCoding::kPosition && keys[k] != "FEN") return bad("a position column of a key other than FEN");
    if (coding[k] == TagCoding::kUnescaped && !unescaped_layout(layout))
      return bad("an unescaped text column in a block of layout 1 to 6");
    if (coding[k] == TagCoding::kXiangqiPosition) {
      if (!xiangqi_layout(layout)) return bad("a Xiangqi position column in a block of layout 1 to 5");
      if (keys[k] != "FEN") return bad("a Xiangqi position column of a key other than FEN");
    }
    if (coding[k] == TagCoding::kTable) {
      if (auto st = read_table_column(c, keys[k], Slots{out.slots.data() + out.column_start[k], column_kept[k]},
                                      column_size[k], table_entries.game_of[k], where, whole[k], table_entries, out);
          !st)
        return st;
      continue;
    }
    if (coding[k] == TagCoding::kDerived) {
      if (!derived_layout) return bad("a derived column in a block of layout 1");
      if (auto st = read_derived(c, keys[k], Slots{out.slots.data() + out.column_start[k], column_kept[k]},
                                 column_size[k], where, whole[k], out);
          !st)
        return st;
      continue;
    }
    if (auto st = read_column(c, coding[k], coded[k], Slots{out.slots.data() + out.column_start[k], column_kept[k]}, column_size[k], where, names,
                              whole[k], out, ranked);
        !st)
      return st;
  }
  resolve(out, out.arena);
  if (!named.empty()) {
    const auto key_index = [&](std::string_view key) {
      const auto it = std::find(keys.begin(), keys.end(), key);
      return it == keys.end() ? ~0u : static_cast<std::uint32_t>(it - keys.begin());
    };
    const std::uint32_t white = key_index("White"), black = key_index("Black");
    for (std::uint32_t k : {white, black})  // (the names come before the ratings)
      if (k != ~0u && coding[k] == TagCoding::kRating) return bad("a named column in a block whose players are ratings");
    if (auto st = write_named(named_of, named, last, white, black, where, out); !st) return st;
  }
  std::sort(out.derived.begin(), out.derived.end(),
            [](const BlockTags::Derived& a, const BlockTags::Derived& b) { return a.slot < b.slot; });
  // The rating columns, in one pass over the block's tags.
  if (ratings.empty()) return {};
  // Games after the last one wanted need not be read (their codes are only skipped, below).
  std::uint32_t rated = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) rated += rating_of[k] >= 0 ? column_kept[k] : 0;
  out.predictor.start(rated);
  FirstOfKey first(keys.size());
  for (std::uint32_t g = 0; g < last; ++g) {
    out.predictor.start_game();
    first.start_game(g);
    for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i) first.saw(out.key_of[i], i);
    for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i) {
      if (rating_of[out.key_of[i]] < 0) continue;
      Rating& rt = ratings[rating_of[out.key_of[i]]];
      std::uint64_t code;
      if (!rt.codes.next(code)) return bad("codes run past the end");
      if (code == 0) {
        rt.fallback.push_back(i);
        continue;
      }
      const std::int64_t at = first.first(rt.form.player);
      const std::string_view* player = at >= 0 ? &out.views[at].value : nullptr;
      std::int64_t v;
      if (!from_code(rt.form, code, out.predictor.predict(player), v)) return bad("typed value out of range");
      out.predictor.coded(v);
      if (!keep(out, out.rating_arena, i, rt.form, v, false)) return bad("typed values larger than the limit");
    }
  }
  // The codes of the games not read: their values kept as text counted (no tag of theirs
  // wanted), to find the text bodies.
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (rating_of[k] < 0) continue;
    Rating& rt = ratings[rating_of[k]];
    for (std::uint32_t e = column_kept[k]; e < column_size[k]; ++e) {
      std::uint64_t code;
      if (!rt.codes.next(code)) return bad("codes run past the end");
      if (code == 0) rt.fallback.push_back(kNoSlot);
    }
  }
  for (Rating& rt : ratings) {
    if (!rt.codes.finish()) return bad("codeword does not end where its length says, with bits 0 after it");
    if (auto st = read_fallbacks(rt.codes.body, rt.form, rt.fallback, where, out); !st) return st;
    if (rt.codes.body.remaining() != 0) return bad("bytes left over in a column");
  }
  resolve(out, out.rating_arena);
  return {};
}

}  // namespace

Status decode_tags_section(std::string_view in, std::uint32_t games, const std::string& where, BlockTags& out,
                           const PlayerNames* players, std::uint8_t layout) {
  return decode_section(in, games, 0, games - 1, where, out, players, layout);
}

Status decode_game_tags(std::string_view in, std::uint32_t games, std::uint32_t from, std::uint32_t to,
                        const std::string& where, BlockTags& out, const PlayerNames* players,
                        std::uint8_t layout) {
  if (from > to || to >= games)
    return invalid_input(where + ": no games " + std::to_string(from + 1) + " to " + std::to_string(to + 1) +
                         " in a block of " + std::to_string(games));
  return decode_section(in, games, from, to, where, out, players, layout);
}

Status read_tag_columns(std::string_view in, std::uint32_t games, const std::string& where, std::vector<TagColumnView>& out) {
  BlockTags scratch;
  std::vector<std::string_view> keys;
  std::vector<TagCoding> coding;
  std::vector<std::string_view> body;
  ByteCursor r(in);
  if (auto st = read_key_lists(r, games, games, where, keys, scratch); !st) return st;
  if (auto st = read_column_heads(r, keys.size(), where, coding, body); !st) return st;
  out.clear();
  for (std::size_t k = 0; k < keys.size(); ++k)
    out.push_back(TagColumnView{keys[k], static_cast<std::uint8_t>(coding[k]), body[k], scratch.column_size[k]});
  return {};
}

}  // namespace pgnarc::container
