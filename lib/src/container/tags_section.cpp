#include "container/tags_section.h"

#include <unordered_map>

#include "common/bytes.h"

namespace pgnarc::container {

using detail::ByteCursor;
using detail::put_prefixed;
using detail::put_varint;

std::vector<Tag> BlockTags::game(std::uint32_t j) const {
  std::vector<Tag> out;
  out.reserve(start[j + 1] - start[j]);
  for (std::uint32_t i = start[j]; i < start[j + 1]; ++i) out.push_back(Tag{std::string(views[i].key), std::string(views[i].value)});
  return out;
}

namespace {

// Parts 1 and 2 of a tags section: the key table, then per game the keys used.
std::vector<std::string> key_lists(const std::vector<std::vector<Tag>>& games,
                                   std::unordered_map<std::string_view, std::uint32_t>& key_id, std::string& out) {
  std::vector<std::string> keys;
  std::string per_game;
  for (const auto& g : games) {
    put_varint(per_game, g.size());
    for (const Tag& t : g) {
      auto [it, fresh] = key_id.try_emplace(t.key, static_cast<std::uint32_t>(keys.size()));
      if (fresh) keys.push_back(t.key);
      put_varint(per_game, it->second);
    }
  }
  put_varint(out, keys.size());
  for (const std::string& k : keys) put_prefixed(out, k);
  out += per_game;
  return keys;
}

// Parts 1 and 2 read back: calls on_tag(game, key) for every tag in order and counts each
// key's tags into column_size.
template <typename OnTag>
Status read_key_lists(ByteCursor& r, std::uint32_t games, const std::string& where, std::vector<std::string_view>& keys,
                      std::vector<std::uint32_t>& column_size, OnTag&& on_tag) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t n_keys;
  if (!r.varint(n_keys) || n_keys > r.remaining()) return bad("bad key count");
  keys.resize(n_keys);
  for (auto& k : keys) {
    if (!r.prefixed(k)) return bad("key runs past the end");
  }
  column_size.assign(n_keys, 0);
  for (std::uint32_t g = 0; g < games; ++g) {
    std::uint64_t n;
    if (!r.varint(n) || n > r.remaining()) return bad("bad tag count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t id;
      if (!r.varint(id) || id >= n_keys) return bad("bad key index");
      on_tag(g, static_cast<std::uint32_t>(id));
      ++column_size[id];
    }
  }
  return {};
}

// Reference `e` of `count` references stored in `width` byte planes (low bytes first). A column
// of one value stores none (width 0): its first tag is that value's first use (0), the others
// repeat it (1).
std::uint64_t plane_ref(std::string_view refs, std::uint32_t count, std::uint32_t e, int width) {
  if (width == 0) return e != 0;
  std::uint64_t v = 0;
  for (int plane = width; plane-- > 0;)
    v = v << 8 | static_cast<std::uint8_t>(refs[static_cast<std::size_t>(plane) * count + e]);
  return v;
}

// A column's header and value list: the number of distinct values and the list's bytes (not
// yet split into values), checked against the column's tag count; then its references.
Status read_column(ByteCursor& r, std::uint32_t tags, const std::string& where, std::uint64_t& distinct,
                   std::string_view& values, std::string_view& refs) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t bytes;
  if (!r.varint(distinct) || distinct == 0 || distinct > tags) return bad("bad distinct value count");
  if (!r.varint(bytes) || !r.bytes(bytes, values)) return bad("value list runs past the end");
  if (!r.bytes(std::uint64_t{tags} * tag_ref_width(distinct), refs)) return bad("references run past the end");
  return {};
}

}  // namespace

std::string encode_tags_section(const std::vector<std::vector<Tag>>& games) {
  std::unordered_map<std::string_view, std::uint32_t> key_id;  // views of `games`' keys
  std::string out;
  const std::vector<std::string> keys = key_lists(games, key_id, out);
  std::vector<std::vector<const std::string*>> columns(keys.size());
  for (const auto& g : games)
    for (const Tag& t : g) columns[key_id.find(t.key)->second].push_back(&t.value);
  std::unordered_map<std::string_view, std::uint32_t> seen;
  std::vector<std::uint32_t> refs;
  std::string values;
  for (const auto& col : columns) {
    seen.clear();
    seen.reserve(col.size());
    refs.clear();
    values.clear();
    // A reference is 0 for a value's first use (it enters the value list), else 1 + the value's
    // place in the list: a first use's value is found by counting the first uses before it, a
    // pass over at most one byte per tag of the column, without reading other games' values.
    for (const std::string* v : col) {
      auto [it, fresh] = seen.try_emplace(*v, static_cast<std::uint32_t>(seen.size()));
      if (fresh) put_prefixed(values, *v);
      refs.push_back(fresh ? 0 : it->second + 1);
    }
    put_varint(out, seen.size());
    put_prefixed(out, values);
    // In byte planes: every reference's low byte, then every second byte, and so on.
    const int width = tag_ref_width(seen.size());
    for (int plane = 0; plane < width; ++plane)
      for (std::uint32_t r : refs) out += static_cast<char>(r >> (8 * plane));
  }
  return out;
}

Status decode_tags_section(std::string_view in, std::uint32_t games, const std::string& where, BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  out.key_of.clear();  // the key of each tag view
  out.views.clear();
  out.start.assign(1, 0);
  std::vector<std::string_view> keys;
  std::uint32_t current_game = 0;
  ByteCursor r(in);
  auto st = read_key_lists(r, games, where, keys, out.column_size, [&](std::uint32_t game, std::uint32_t key) {
    for (; current_game < game; ++current_game) out.start.push_back(static_cast<std::uint32_t>(out.views.size()));
    out.views.push_back(TagView{keys[key], {}});
    out.key_of.push_back(key);
  });
  if (!st) return st;
  for (; current_game < games; ++current_game) out.start.push_back(static_cast<std::uint32_t>(out.views.size()));
  // Where each column's values go: the tags with that key, in order (a counting sort).
  const auto& column_size = out.column_size;
  out.column_start.assign(column_size.size() + 1, 0);
  for (std::size_t k = 0; k < column_size.size(); ++k) out.column_start[k + 1] = out.column_start[k] + column_size[k];
  out.slots.resize(out.key_of.size());
  out.fill.assign(out.column_start.begin(), out.column_start.end() - 1);
  for (std::uint32_t i = 0; i < out.key_of.size(); ++i) out.slots[out.fill[out.key_of[i]]++] = i;
  for (std::uint32_t k = 0; k < keys.size(); ++k) {
    std::uint64_t n_distinct;
    std::string_view values, refs;
    if (auto s = read_column(r, column_size[k], where, n_distinct, values, refs); !s) return s;
    out.distinct.clear();
    ByteCursor d(values);
    for (std::uint64_t i = 0; i < n_distinct; ++i) {
      std::string_view v;
      if (!d.prefixed(v)) return bad("value runs past its value list");
      out.distinct.push_back(v);
    }
    if (d.remaining() != 0) return bad("bytes left over in a value list");
    const int width = tag_ref_width(n_distinct);
    // A first use (0) takes the next value of the list; a repeat (r > 0) names one already used.
    std::uint64_t used = 0;
    for (std::uint32_t e = 0; e < column_size[k]; ++e) {
      const std::uint64_t ref = plane_ref(refs, column_size[k], e, width);
      if (ref == 0 ? used >= n_distinct : ref > used) return bad("reference to a value not in the value list");
      out.views[out.slots[out.column_start[k] + e]].value = out.distinct[ref == 0 ? used++ : ref - 1];
    }
    if (used != n_distinct) return bad("value list value never used");
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

Status decode_game_tags(std::string_view in, std::uint32_t games, std::uint32_t game, const std::string& where,
                        std::vector<Tag>& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  struct Want {
    std::uint32_t key, rank;
  };
  std::vector<Want> want;  // in the game's tag order
  std::vector<std::string_view> keys;
  std::vector<std::uint32_t> column_size;
  ByteCursor r(in);
  if (auto st = read_key_lists(r, games, where, keys, column_size,
                               [&](std::uint32_t g, std::uint32_t key) {
                                 if (g == game) want.push_back(Want{key, column_size[key]});
                               });
      !st)
    return st;
  out.assign(want.size(), Tag{});
  for (std::uint32_t k = 0; k < keys.size(); ++k) {
    std::uint64_t n_distinct;
    std::string_view values, refs;
    if (auto st = read_column(r, column_size[k], where, n_distinct, values, refs); !st) return st;
    const int width = tag_ref_width(n_distinct);
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (want[i].key != k) continue;
      const std::uint32_t rank = want[i].rank;
      std::uint64_t ref = plane_ref(refs, column_size[k], rank, width);
      if (ref == 0) {  // a first use: its value is the next after those first used before it
        for (std::uint32_t e = 0; e < rank; ++e) ref += plane_ref(refs, column_size[k], e, width) == 0;
      } else {
        --ref;
      }
      if (ref >= n_distinct) return bad("reference to a value not in the value list");
      ByteCursor d(values);
      std::string_view v;
      for (std::uint64_t j = 0; j <= ref; ++j) {
        if (!d.prefixed(v)) return bad("value runs past its value list");
      }
      out[i] = Tag{std::string(keys[k]), std::string(v)};
    }
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

}  // namespace pgnarc::container
