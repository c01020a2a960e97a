#include "container/tags_section.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "common/bytes.h"
#include "common/zstd_frame.h"
#include "container/format.h"
#include "container/tag_values.h"

namespace pgnarc::container {

using detail::ByteCursor;
using detail::put_prefixed;
using detail::put_varint;
using detail::unzigzag;
using detail::zigzag;

std::vector<Tag> BlockTags::game(std::uint32_t j) const {
  std::vector<Tag> out;
  out.reserve(start[j + 1] - start[j]);
  for (std::uint32_t i = start[j]; i < start[j + 1]; ++i) out.push_back(Tag{std::string(views[i].key), std::string(views[i].value)});
  return out;
}

namespace {

// The first rating a block predicts, before it has coded any (9.4.2).
constexpr std::int64_t kFirstRatingPrediction = 1500;

// How the values of one typed column are read and written (9.4.1): its coding and the
// parameters its body's header gives.
struct ValueForm {
  ValueForm() = default;
  explicit ValueForm(TagCoding c) : coding(c) {}

  TagCoding coding = TagCoding::kText;
  bool signed_form = false;  // integers: always a sign
  bool predict = true;       // integers: from the previous value (else from 0)
  IdentifierForm id;         // identifiers
  std::uint32_t player = 0;  // ratings: the key whose value names the player

  // Base-62 identifiers are stored as fixed-width numbers without prediction; the other typed
  // codings as codes from a prediction.
  bool fixed_width() const { return coding == TagCoding::kIdentifier && id.length > 0; }
  bool parse(std::string_view v, std::int64_t& out) const {
    switch (coding) {
      case TagCoding::kInteger:
      case TagCoding::kRating: return parse_tag_integer(v, signed_form, out);
      case TagCoding::kDate: return parse_tag_date(v, out);
      case TagCoding::kTime: return parse_tag_time(v, out);
      case TagCoding::kIdentifier: return parse_tag_identifier(v, id, out);
      case TagCoding::kText:
      case TagCoding::kPlayer: break;
    }
    return false;
  }
  void format(std::int64_t v, std::string& out) const {
    switch (coding) {
      case TagCoding::kInteger:
      case TagCoding::kRating: return format_tag_integer(v, signed_form, out);
      case TagCoding::kDate: return format_tag_date(v, out);
      case TagCoding::kTime: return format_tag_time(v, out);
      case TagCoding::kIdentifier: return format_tag_identifier(v, id, out);
      case TagCoding::kText:
      case TagCoding::kPlayer: break;
    }
  }
  // The values a decoder may produce: integers and ratings above -limit, the others from 0.
  bool in_range(std::int64_t v) const {
    switch (coding) {
      case TagCoding::kInteger:
      case TagCoding::kRating: return v > -kTagNumberLimit && v < kTagNumberLimit;
      case TagCoding::kDate: return v >= 0 && v < kTagDateLimit;
      case TagCoding::kTime: return v >= 0 && v < kTagTimeLimit;
      case TagCoding::kIdentifier: return v >= 0 && v < identifier_limit(id.length);
      case TagCoding::kText:
      case TagCoding::kPlayer: break;
    }
    return false;
  }
  // Integers may predict 0; the others always predict the column's previous value.
  bool predicts() const { return coding != TagCoding::kInteger || predict; }
};

// Bytes that hold every number below `limit` (the width of a base-62 identifier's planes).
int width_below(std::int64_t limit) {
  int w = 0;
  for (std::uint64_t n = static_cast<std::uint64_t>(limit - 1); n; n >>= 8) ++w;
  return w;
}

// A column's bytes: coding, size, body.
void put_column(TagCoding coding, std::string_view body, std::string& out) {
  out += static_cast<char>(coding);
  put_prefixed(out, body);
}

// A text column's body (or a typed column's fallback values): the value list of the distinct
// values in order of first use, then one reference per value in `w` byte planes.
void put_text_body(const std::vector<std::string_view>& values, std::string& out) {
  std::unordered_map<std::string_view, std::uint32_t> seen;
  seen.reserve(values.size());
  std::vector<std::uint32_t> refs;
  refs.reserve(values.size());
  std::string list;
  // A reference is 0 for a value's first use (it enters the value list), else 1 + the value's
  // place in the list.
  for (std::string_view v : values) {
    auto [it, fresh] = seen.try_emplace(v, static_cast<std::uint32_t>(seen.size()));
    if (fresh) put_prefixed(list, v);
    refs.push_back(fresh ? 0 : it->second + 1);
  }
  put_varint(out, seen.size());
  put_prefixed(out, list);
  const int width = tag_ref_width(seen.size());
  for (int plane = 0; plane < width; ++plane)
    for (std::uint32_t r : refs) out += static_cast<char>(r >> (8 * plane));
}

// A player column's body (9.4.3): its distinct entries of the players' table, ascending (the
// first as it is, each next as its gap from the one before less 1), then each tag's place among
// them in byte planes.
std::string player_body(const std::vector<std::uint32_t>& entries) {
  std::vector<std::uint32_t> distinct(entries);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::string body;
  put_varint(body, distinct.size());
  for (std::size_t i = 0; i < distinct.size(); ++i) put_varint(body, i == 0 ? distinct[0] : distinct[i] - distinct[i - 1] - 1);
  std::vector<std::uint32_t> place(entries.size());
  for (std::size_t e = 0; e < entries.size(); ++e)
    place[e] = static_cast<std::uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), entries[e]) - distinct.begin());
  for (int plane = 0, w = width_below(static_cast<std::int64_t>(distinct.size())); plane < w; ++plane)
    for (std::uint32_t p : place) body += static_cast<char>(p >> (8 * plane));
  return body;
}

// The per-tag part and the fallbacks of a typed column: `numbers[e]` is tag e's value in the
// form, or absent (the tag is kept as text).
struct TypedValues {
  std::vector<bool> typed;
  std::vector<std::int64_t> numbers;
};

// A typed column's body: its header, the tags' codes (or flags and planes), then the values
// kept as text.
std::string typed_body(const ValueForm& form, const TypedValues& t, const std::vector<std::string_view>& values) {
  std::string body;
  switch (form.coding) {
    case TagCoding::kInteger: body += static_cast<char>((form.signed_form ? 1 : 0) | (form.predict ? 2 : 0)); break;
    case TagCoding::kRating: put_varint(body, form.player); break;
    case TagCoding::kIdentifier:
      body += static_cast<char>(form.id.length);
      put_prefixed(body, form.id.prefix);
      break;
    default: break;
  }
  std::vector<std::string_view> fallbacks;
  if (form.fixed_width()) {
    std::vector<std::int64_t> ids;
    for (std::size_t e = 0; e < values.size(); ++e) {
      body += static_cast<char>(t.typed[e] ? 1 : 0);
      if (t.typed[e]) ids.push_back(t.numbers[e]);
    }
    for (int plane = 0, w = width_below(identifier_limit(form.id.length)); plane < w; ++plane)
      for (std::int64_t id : ids) body += static_cast<char>(id >> (8 * plane));
  } else {
    std::int64_t prediction = 0;
    for (std::size_t e = 0; e < values.size(); ++e) {
      if (!t.typed[e]) {
        put_varint(body, 0);
        continue;
      }
      // Ratings come with their predictions (a joint pass over the block's rating columns).
      const std::int64_t p = form.coding == TagCoding::kRating ? t.numbers[e] : t.numbers[e] - prediction;
      put_varint(body, 1 + zigzag(p));
      if (form.predicts()) prediction = t.numbers[e];
    }
  }
  for (std::size_t e = 0; e < values.size(); ++e)
    if (!t.typed[e]) fallbacks.push_back(values[e]);
  if (!fallbacks.empty()) put_text_body(fallbacks, body);
  return body;
}

// Predicts each rating of a block from the same player's previous rating in the block, else
// from the rating before it in the same game, else from the last rating of the block (9.4.2).
class RatingPredictor {
 public:
  void start_game() { in_game_ = false; }
  std::int64_t predict(const std::string_view* player) const {
    if (player) {
      if (auto it = last_of_.find(*player); it != last_of_.end()) return it->second;
    }
    return in_game_ ? game_last_ : last_;
  }
  void coded(const std::string_view* player, std::int64_t rating) {
    if (player) {
      if (auto it = last_of_.find(*player); it != last_of_.end()) {
        it->second = rating;
      } else {
        last_of_.emplace(std::string(*player), rating);
      }
    }
    last_ = game_last_ = rating;
    in_game_ = true;
  }

 private:
  // Players' names looked up as views, without a string made for each.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
  };
  std::unordered_map<std::string, std::int64_t, Hash, std::equal_to<>> last_of_;
  std::int64_t last_ = kFirstRatingPrediction, game_last_ = 0;
  bool in_game_ = false;
};

// For each game in turn, the first tag of each key: `first(k)` is the slot of the game's first
// tag of key k, or -1; found in one pass over the game's tags (a rating's player is the first
// tag of its player key: looking for it per rating would take time quadratic in a game's tags).
class FirstOfKey {
 public:
  explicit FirstOfKey(std::size_t keys) : game_(keys, ~0u), slot_(keys) {}
  void start_game(std::uint32_t g) { current_ = g; }
  void saw(std::uint32_t key, std::uint32_t slot) {
    if (game_[key] != current_) {
      game_[key] = current_;
      slot_[key] = slot;
    }
  }
  std::int64_t first(std::uint32_t key) const { return game_[key] == current_ ? std::int64_t{slot_[key]} : -1; }

 private:
  std::vector<std::uint32_t> game_, slot_;
  std::uint32_t current_ = 0;
};

// Chooses a column's coding among text and the typed codings that read at least half its values
// (9.4.1 leaves the choice to the writer): the smallest body, compressed alone with zstd at
// `level` (raw sizes with `level` 0), text on a tie.
class ColumnChooser {
 public:
  explicit ColumnChooser(int level) : level_(level) {}
  std::size_t cost(std::string_view body) const {
    if (level_ == 0 || body.size() < 16) return body.size();
    const std::string frame = detail::compress_frame(body, level_);
    return frame.empty() ? body.size() : frame.size();
  }

 private:
  int level_;
};

// The values of a column read in `form`, or false if fewer than half of them are.
bool read_values(const ValueForm& form, const std::vector<std::string_view>& values, TypedValues& out) {
  out.typed.assign(values.size(), false);
  out.numbers.assign(values.size(), 0);
  std::size_t read = 0;
  for (std::size_t e = 0; e < values.size(); ++e) {
    if (form.parse(values[e], out.numbers[e])) {
      out.typed[e] = true;
      ++read;
    }
  }
  return 2 * read >= values.size();
}

// The typed forms worth trying for a column (the rating form is tried apart, with its player).
std::vector<ValueForm> candidate_forms(const std::vector<std::string_view>& values) {
  std::vector<ValueForm> forms;
  for (bool signed_form : {false, true})
    for (bool predict : {false, true}) {
      ValueForm f(TagCoding::kInteger);
      f.signed_form = signed_form;
      f.predict = predict;
      forms.push_back(f);
    }
  forms.emplace_back(TagCoding::kDate);
  forms.emplace_back(TagCoding::kTime);
  for (bool decimal : {false, true}) {
    ValueForm f(TagCoding::kIdentifier);
    if (identifier_form_of(values.front(), decimal, f.id)) forms.push_back(f);
  }
  return forms;
}

}  // namespace

std::string encode_tags_section(const std::vector<std::vector<Tag>>& games, int choose_level,
                                const std::vector<std::uint32_t>* players) {
  // Parts 1 and 2: the key table, then per game the keys used.
  std::unordered_map<std::string_view, std::uint32_t> key_id;  // views of `games`' keys
  std::vector<std::string_view> keys;
  std::string out, per_game;
  for (const auto& g : games) {
    put_varint(per_game, g.size());
    for (const Tag& t : g) {
      auto [it, fresh] = key_id.try_emplace(t.key, static_cast<std::uint32_t>(keys.size()));
      if (fresh) keys.push_back(t.key);
      put_varint(per_game, it->second);
    }
  }
  put_varint(out, keys.size());
  for (std::string_view k : keys) put_prefixed(out, k);
  out += per_game;

  // Part 3: one column per key.
  std::vector<std::vector<std::string_view>> columns(keys.size());
  for (const auto& g : games)
    for (const Tag& t : g) columns[key_id.find(t.key)->second].push_back(t.value);
  // The White and Black columns' entries of the players' table.
  std::vector<std::vector<std::uint32_t>> entries(keys.size());
  if (players) {
    std::size_t i = 0;
    for (const auto& g : games)
      for (const Tag& t : g)
        if (name_field_of(t.key) == kPlayerField) {
          if (i == players->size()) throw std::logic_error("encode_tags_section: fewer players' entries than players");
          entries[key_id.find(t.key)->second].push_back((*players)[i++]);
        }
    if (i != players->size()) throw std::logic_error("encode_tags_section: more players' entries than players");
  }
  const ColumnChooser chooser(choose_level);
  struct Choice {
    TagCoding coding = TagCoding::kText;
    std::string body;
    std::size_t cost = 0;
  };
  std::vector<Choice> best(keys.size());  // the best coding of each column other than ratings
  for (std::size_t k = 0; k < keys.size(); ++k) {
    put_text_body(columns[k], best[k].body);
    best[k].cost = chooser.cost(best[k].body);
    if (!entries[k].empty()) {
      std::string body = player_body(entries[k]);
      if (const std::size_t c = chooser.cost(body); c < best[k].cost) best[k] = Choice{TagCoding::kPlayer, std::move(body), c};
    }
    for (const ValueForm& form : candidate_forms(columns[k])) {
      TypedValues t;
      if (!read_values(form, columns[k], t)) continue;
      std::string body = typed_body(form, t, columns[k]);
      if (const std::size_t c = chooser.cost(body); c < best[k].cost) best[k] = Choice{form.coding, std::move(body), c};
    }
  }
  // Ratings: a column `<P>Elo` whose player column `<P>` the block has, coded in one pass over
  // the block's rating columns (a player's previous rating may be in another of them). A column
  // that codes smaller another way leaves the set, and the pass runs again without it.
  std::vector<ValueForm> rating(keys.size());
  std::vector<TypedValues> rated(keys.size());
  std::vector<bool> in_set(keys.size(), false);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::string_view key = keys[k];
    if (!key.ends_with("Elo") || key.size() == 3) continue;
    const auto player = key_id.find(key.substr(0, key.size() - 3));
    if (player == key_id.end()) continue;
    rating[k] = ValueForm(TagCoding::kRating);
    rating[k].player = player->second;
    in_set[k] = read_values(rating[k], columns[k], rated[k]);
  }
  // A player column is never itself a rating column (TAGS-4): `XEloElo` is not rated by `XElo`.
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (in_set[k] && in_set[rating[k].player]) in_set[k] = false;
  std::vector<std::string> rating_body(keys.size());
  for (bool changed = true; changed;) {
    changed = false;
    // Each rating's difference from its prediction, in the order of the block's tags.
    std::vector<TypedValues> deltas = rated;
    RatingPredictor predictor;
    std::vector<std::uint32_t> rank(keys.size());
    FirstOfKey first(keys.size());
    for (std::uint32_t gi = 0; gi < games.size(); ++gi) {
      const auto& g = games[gi];
      predictor.start_game();
      first.start_game(gi);
      for (std::uint32_t j = 0; j < g.size(); ++j) first.saw(key_id.find(g[j].key)->second, j);
      for (const Tag& t : g) {
        const std::uint32_t k = key_id.find(t.key)->second;
        const std::uint32_t e = rank[k]++;
        if (!in_set[k] || !rated[k].typed[e]) continue;
        const std::int64_t at = first.first(rating[k].player);
        const std::string_view view = at >= 0 ? std::string_view(g[at].value) : std::string_view();
        const std::string_view* player = at >= 0 ? &view : nullptr;
        deltas[k].numbers[e] = rated[k].numbers[e] - predictor.predict(player);
        predictor.coded(player, rated[k].numbers[e]);
      }
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (!in_set[k]) continue;
      rating_body[k] = typed_body(rating[k], deltas[k], columns[k]);
      if (chooser.cost(rating_body[k]) >= best[k].cost) {
        in_set[k] = false;
        changed = true;
      }
    }
  }
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (in_set[k]) {
      put_column(TagCoding::kRating, rating_body[k], out);
    } else {
      put_column(best[k].coding, best[k].body, out);
    }
  }
  return out;
}


namespace {

// Parts 1 and 2 read back: the keys, and for every tag its key (views with empty values, game
// after game), each key's tag count in column_size.
Status read_key_lists(ByteCursor& r, std::uint32_t games, const std::string& where, std::vector<std::string_view>& keys,
                      BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t n_keys;
  if (!r.varint(n_keys) || n_keys > r.remaining()) return bad("bad key count");
  keys.resize(n_keys);
  for (auto& k : keys) {
    if (!r.prefixed(k)) return bad("key runs past the end");
  }
  // Keys are distinct, and listed in order of first use: each key index is one used before or
  // the next key of the table.
  std::unordered_map<std::string_view, bool> distinct;
  for (std::string_view k : keys)
    if (!distinct.emplace(k, true).second) return bad("a key listed twice");
  out.column_size.assign(n_keys, 0);
  out.key_of.clear();
  out.views.clear();
  out.start.assign(1, 0);
  std::uint64_t used = 0;
  for (std::uint32_t g = 0; g < games; ++g) {
    std::uint64_t n;
    if (!r.varint(n) || n > r.remaining()) return bad("bad tag count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t id;
      if (!r.varint(id) || id >= n_keys) return bad("bad key index");
      if (id > used) return bad("keys not in order of first use");
      used += id == used;
      out.views.push_back(TagView{keys[id], {}});
      out.key_of.push_back(static_cast<std::uint32_t>(id));
      ++out.column_size[id];
    }
    out.start.push_back(static_cast<std::uint32_t>(out.views.size()));
  }
  if (used != n_keys) return bad("a key that no tag uses");
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
bool keep(BlockTags& out, std::string& arena, std::uint32_t slot, const ValueForm& form, std::int64_t v) {
  const std::size_t from = arena.size();
  form.format(v, arena);
  out.pending.push_back(BlockTags::Pending{slot, from, arena.size() - from});
  return out.arena.size() + out.rating_arena.size() <= kMaxTypedTagBytes;
}

void resolve(BlockTags& out, const std::string& arena) {
  for (const auto& p : out.pending) out.views[p.slot].value = std::string_view(arena).substr(p.from, p.size);
  out.pending.clear();
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

// Fills the fallback tags of a typed column (those `fallback` lists) from the text body at `r`.
// A value kept as text is one its column's form does not read (else it has one coding only).
Status read_fallbacks(ByteCursor& r, const ValueForm& form, const std::vector<std::uint32_t>& fallback,
                      const std::string& where, BlockTags& out) {
  if (fallback.empty()) return {};
  std::vector<std::string_view> values;
  if (auto st = read_text_body(r, static_cast<std::uint32_t>(fallback.size()), where, out, values); !st) return st;
  for (std::size_t i = 0; i < fallback.size(); ++i) {
    std::int64_t v;
    if (form.parse(values[i], v)) return corruption(where + ": tags section: a value kept as text is in its column's form");
    out.views[fallback[i]].value = values[i];
  }
  return {};
}

// A player column (9.4.3): its entries' values, each read once from the players' table into
// the arena, then each tag's place among them.
Status read_players(ByteCursor& r, const std::uint32_t* slots, std::uint32_t count, const std::string& where,
                    const PlayerNames* players, BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  if (!players) return bad("a player column, but no players' table to read it with");
  std::uint64_t n;
  if (!r.varint(n) || n == 0 || n > count) return bad("bad player count");
  std::vector<std::pair<std::size_t, std::size_t>> at(n);  // each entry's value in the arena
  std::uint64_t entry = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t d;
    if (!r.varint(d) || d > 0xFFFFFFFFu) return bad("player entries run past the end");
    entry = i == 0 ? d : entry + d + 1;
    if (entry > 0xFFFFFFFFu) return bad("player entry out of range");
    const std::size_t from = out.arena.size();
    if (auto st = players->append(entry, where, out.arena); !st) return st;
    at[i] = {from, out.arena.size() - from};
    if (out.arena.size() > kMaxTypedTagBytes) return bad("typed values larger than the limit");
  }
  const int width = width_below(static_cast<std::int64_t>(n));
  std::string_view refs;
  if (!r.bytes(std::uint64_t{count} * width, refs)) return bad("player references run past the end");
  std::vector<bool> named(n, false);
  for (std::uint32_t e = 0; e < count; ++e) {
    // One entry (no planes): every tag names it.
    const std::uint64_t p = width == 0 ? 0 : plane_ref(refs, count, e, width);
    if (p >= n) return bad("reference to a player not in the column's list");
    named[p] = true;
    out.pending.push_back(BlockTags::Pending{slots[e], at[p].first, at[p].second});
  }
  if (std::find(named.begin(), named.end(), false) != named.end()) return bad("a listed player that no tag names");
  if (r.remaining() != 0) return bad("bytes left over in a column");
  return {};
}

// A column other than a rating column: its values into the views of its slots.
Status read_column(ByteCursor& r, TagCoding coding, const std::uint32_t* slots, std::uint32_t count,
                   const std::string& where, const PlayerNames* players, BlockTags& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  if (coding == TagCoding::kPlayer) return read_players(r, slots, count, where, players, out);
  if (coding == TagCoding::kText) {
    if (auto st = read_text_body(r, count, where, out, out.values); !st) return st;
    for (std::uint32_t e = 0; e < count; ++e) out.views[slots[e]].value = out.values[e];
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
      if (!keep(out, out.arena, slots[e], form, v)) return bad("typed values larger than the limit");
    }
  } else {
    std::int64_t prediction = 0;
    for (std::uint32_t e = 0; e < count; ++e) {
      std::uint64_t code;
      if (!r.varint(code)) return bad("codes run past the end");
      if (code == 0) {
        fallback.push_back(slots[e]);
        continue;
      }
      std::int64_t v;
      if (!from_code(form, code, prediction, v)) return bad("typed value out of range");
      if (!keep(out, out.arena, slots[e], form, v)) return bad("typed values larger than the limit");
      if (form.predicts()) prediction = v;
    }
  }
  if (auto st = read_fallbacks(r, form, fallback, where, out); !st) return st;
  if (r.remaining() != 0) return bad("bytes left over in a column");
  return {};
}

}  // namespace

Status decode_tags_section(std::string_view in, std::uint32_t games, const std::string& where, BlockTags& out,
                           const PlayerNames* players) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::vector<std::string_view> keys;
  ByteCursor r(in);
  if (auto st = read_key_lists(r, games, where, keys, out); !st) return st;
  // Where each column's values go: the tags with that key, in order (a counting sort).
  const auto& column_size = out.column_size;
  out.column_start.assign(column_size.size() + 1, 0);
  for (std::size_t k = 0; k < column_size.size(); ++k) out.column_start[k + 1] = out.column_start[k] + column_size[k];
  out.slots.resize(out.key_of.size());
  out.fill.assign(out.column_start.begin(), out.column_start.end() - 1);
  for (std::uint32_t i = 0; i < out.key_of.size(); ++i) out.slots[out.fill[out.key_of[i]]++] = i;
  // Part 3: each column's coding and body.
  std::vector<TagCoding> coding(keys.size());
  std::vector<std::string_view> body(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    std::uint8_t c;
    if (!r.u8(c) || c >= kTagCodings) return bad("unknown column coding");
    coding[k] = static_cast<TagCoding>(c);
    if (!r.prefixed(body[k])) return bad("column runs past the end");
  }
  if (r.remaining() != 0) return bad("bytes left over");
  // Every column but the ratings, which need their players' names.
  // Views into an arena must survive a move of the BlockTags: an arena on the heap keeps its
  // bytes where they are when moved (a short string would move them).
  out.arena.clear();
  out.arena.reserve(64);
  out.rating_arena.clear();
  out.rating_arena.reserve(64);
  out.pending.clear();
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (coding[k] == TagCoding::kRating) continue;
    ByteCursor c(body[k]);
    if (coding[k] == TagCoding::kPlayer && name_field_of(keys[k]) != kPlayerField)
      return bad("a player column of a key other than White and Black");
    if (auto st = read_column(c, coding[k], out.slots.data() + out.column_start[k], column_size[k], where, players,
                              out);
        !st)
      return st;
  }
  resolve(out, out.arena);
  // The rating columns, in one pass over the block's tags.
  struct Rating {
    ValueForm form;
    ByteCursor codes;
    std::vector<std::uint32_t> fallback;
  };
  std::vector<Rating> ratings;
  std::vector<std::int32_t> rating_of(keys.size(), -1);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (coding[k] != TagCoding::kRating) continue;
    Rating rt{ValueForm{}, ByteCursor(body[k]), {}};
    if (auto st = read_form(rt.codes, TagCoding::kRating, where, rt.form); !st) return st;
    if (rt.form.player >= keys.size() || coding[rt.form.player] == TagCoding::kRating)
      return bad("rating column names a bad player column");
    rating_of[k] = static_cast<std::int32_t>(ratings.size());
    ratings.push_back(std::move(rt));
  }
  if (ratings.empty()) return {};
  RatingPredictor predictor;
  FirstOfKey first(keys.size());
  for (std::uint32_t g = 0; g < games; ++g) {
    predictor.start_game();
    first.start_game(g);
    for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i) first.saw(out.key_of[i], i);
    for (std::uint32_t i = out.start[g]; i < out.start[g + 1]; ++i) {
      if (rating_of[out.key_of[i]] < 0) continue;
      Rating& rt = ratings[rating_of[out.key_of[i]]];
      std::uint64_t code;
      if (!rt.codes.varint(code)) return bad("codes run past the end");
      if (code == 0) {
        rt.fallback.push_back(i);
        continue;
      }
      const std::int64_t at = first.first(rt.form.player);
      const std::string_view* player = at >= 0 ? &out.views[at].value : nullptr;
      std::int64_t v;
      if (!from_code(rt.form, code, predictor.predict(player), v)) return bad("typed value out of range");
      predictor.coded(player, v);
      if (!keep(out, out.rating_arena, i, rt.form, v)) return bad("typed values larger than the limit");
    }
  }
  for (Rating& rt : ratings) {
    if (auto st = read_fallbacks(rt.codes, rt.form, rt.fallback, where, out); !st) return st;
    if (rt.codes.remaining() != 0) return bad("bytes left over in a column");
  }
  resolve(out, out.rating_arena);
  return {};
}

}  // namespace pgnarc::container
