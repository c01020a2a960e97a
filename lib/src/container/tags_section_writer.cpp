// The tags section's writer (spec 9.4): each column coded as text, as players' entries or in a
// typed form, whichever is smallest, ratings in one pass over the block.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_map>

#include "codec/entropy/symbol_coder.h"
#include "codec/position/position_code.h"
#include "codec/position/xiangqi_position.h"
#include "common/bytes.h"
#include "common/zstd_frame.h"
#include "container/derived_tags.h"
#include "container/format.h"
#include "container/tag_columns.h"
#include "container/tags_section.h"
#include "container/value_tables.h"

namespace pgnarc::container {

using common::put_prefixed;
using common::put_varint;
using common::zigzag;
using namespace tag_columns;

namespace {

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

// The ranks of a column's values written without escapes (9.4.10): their count, then the first
// as it is and each next as its gap from the one before less 1.
void put_unescaped_ranks(const std::vector<std::uint32_t>& ranks, std::string& out) {
  put_varint(out, ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) put_varint(out, i == 0 ? ranks[0] : ranks[i] - ranks[i - 1] - 1);
}

// The per-tag part and the fallbacks of a typed column: `numbers[e]` is tag e's value in the
// form, or absent (the tag is kept as text).
struct TypedValues {
  std::vector<bool> typed;
  std::vector<std::int64_t> numbers;
};

// A typed column's body: its header, the tags' codes (or flags and planes), then the values
// kept as text. `coded` (a column of coding 10, 9.4.7, of base form.coding 1 to 4): its base
// first, and the codes as the integers of a codeword.
std::string typed_body(const ValueForm& form, const TypedValues& t, const std::vector<std::string_view>& values,
                       bool coded = false) {
  std::string body;
  if (coded) body += static_cast<char>(form.coding);
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
    std::vector<codec::PlySymbol> symbols;
    codec::SymbolWriter side{symbols};
    codec::AdaptiveFrequencies<65> widths;
    std::int64_t prediction = 0;
    for (std::size_t e = 0; e < values.size(); ++e) {
      std::uint64_t code = 0;
      if (t.typed[e]) {
        // Ratings come with their predictions (a joint pass over the block's rating columns).
        const std::int64_t p = form.coding == TagCoding::kRating ? t.numbers[e] : t.numbers[e] - prediction;
        code = 1 + zigzag(p);
        if (form.predicts()) prediction = t.numbers[e];
      }
      if (coded) {
        codec::code_width_number(side, widths, code);
      } else {
        put_varint(body, code);
      }
    }
    if (coded) {
      std::string codeword;
      std::uint64_t bits = 0;
      codec::put_codeword(symbols, codeword, bits);
      put_prefixed(body, codeword);
    }
  }
  for (std::size_t e = 0; e < values.size(); ++e)
    if (!t.typed[e]) fallbacks.push_back(values[e]);
  if (!fallbacks.empty()) put_text_body(fallbacks, body);
  return body;
}

// A column's body of one codeword of `symbols` (its length, then its bytes), then the text body
// of the values `kept` as text, if any (9.4.4, 9.4.9).
std::string codeword_body(const std::vector<codec::PlySymbol>& symbols, const std::vector<std::string_view>& kept) {
  std::string codeword;
  std::uint64_t bits = 0;
  codec::put_codeword(symbols, codeword, bits);
  std::string body;
  put_prefixed(body, codeword);
  if (!kept.empty()) put_text_body(kept, body);
  return body;
}

// A position column's body (9.4.4): the values' codeword of the start-position code, then the
// values kept as text.
std::string position_body(const std::vector<std::string_view>& values) {
  codec::PositionCoder coder;
  std::vector<codec::PlySymbol> symbols;
  std::vector<std::string_view> kept;
  for (std::string_view v : values)
    if (coder.encode(v, symbols) == codec::PositionCoder::kText) kept.push_back(v);
  return codeword_body(symbols, kept);
}

// A Xiangqi position column's body (9.4.9): one codeword of, for each value, whether it is coded
// and its Xiangqi position value, then the values kept as text.
std::string xiangqi_position_body(const std::vector<std::string_view>& values) {
  codec::XiangqiPositionCoder coder;
  codec::AdaptiveFrequencies<2> form;
  std::vector<codec::PlySymbol> symbols;
  std::vector<std::string_view> kept;
  for (std::string_view v : values) {
    const std::size_t at = symbols.size();
    symbols.push_back({});
    const int coded = coder.encode(v, symbols);
    symbols[at] = form.symbol(coded);
    form.update(coded);
    if (!coded) kept.push_back(v);
  }
  return codeword_body(symbols, kept);
}

// A derived column's body (9.4.5): its rule, a flag per tag (1: the rule gives its value), then
// the values kept as text. The rule is the one that gives the most values (the lowest on a tie).
std::string derived_body(const std::vector<std::string_view>& values, const std::vector<std::uint8_t>& rules) {
  int best = 0, best_count = -1;
  for (int r = 0; r < kDerivedRules; ++r) {
    int count = 0;
    for (std::uint8_t bits : rules) count += bits >> r & 1;
    if (count > best_count) {
      best = r;
      best_count = count;
    }
  }
  std::string body(1, static_cast<char>(best));
  std::vector<std::string_view> kept;
  for (std::size_t e = 0; e < values.size(); ++e) {
    const bool flagged = rules[e] >> best & 1;
    body += static_cast<char>(flagged ? 1 : 0);
    if (!flagged) kept.push_back(values[e]);
  }
  if (!kept.empty()) put_text_body(kept, body);
  return body;
}

// A named column's body (9.4.6): a flag per tag (1: its game's White value and a rest, 2: its
// Black value and a rest, White's first; 0: the value whole), then the text body of the rests
// and whole values. `players[e]`: tag e's game's first White and Black values.
std::string named_body(const std::vector<std::string_view>& values,
                       const std::vector<std::array<std::string_view, 2>>& players, bool& any) {
  std::string body;
  std::vector<std::string_view> texts;
  for (std::size_t e = 0; e < values.size(); ++e) {
    int flag = 0;
    for (int c = 0; c < 2 && flag == 0; ++c)
      if (!players[e][c].empty() && values[e].starts_with(players[e][c])) flag = c + 1;
    body += static_cast<char>(flag);
    texts.push_back(flag ? values[e].substr(players[e][flag - 1].size()) : values[e]);
    any = any || flag != 0;
  }
  put_text_body(texts, body);
  return body;
}

// The bodies of a block's table columns (9.4.8): `table[k]` whether key k is a key of the table,
// `games[k]` each tag's game in rank order. In key order, each game's first tag of a table
// column codes its entry (entry + 1), each later one 1 where its value is the entry's (its
// game's first value of its key), else 0 (kept as text); a game without an entry keeps its tags
// as text.
std::vector<std::string> table_bodies(const std::vector<bool>& table, const std::vector<std::vector<std::string_view>>& columns,
                                      const std::vector<std::vector<std::uint32_t>>& games,
                                      const std::vector<std::int64_t>& entry) {
  std::vector<std::string> bodies(columns.size());
  std::vector<std::int64_t> own(entry.size(), -1);
  for (std::size_t k = 0; k < columns.size(); ++k) {
    if (!table[k]) continue;
    std::vector<codec::PlySymbol> symbols;
    codec::SymbolWriter side{symbols};
    codec::AdaptiveFrequencies<65> widths;
    std::vector<std::string_view> kept;
    std::uint32_t previous_game = ~0u;
    std::string_view first;  // the value of the game's first tag of the key
    for (std::size_t e = 0; e < columns[k].size(); ++e) {
      const std::uint32_t g = games[k][e];
      if (g != previous_game) first = columns[k][e];
      previous_game = g;
      std::uint64_t code = 0;
      if (entry[g] >= 0 && own[g] < 0) {
        code = static_cast<std::uint64_t>(entry[g]) + 1;
        own[g] = entry[g];
      } else if (entry[g] >= 0 && columns[k][e] == first) {
        code = 1;  // (the game's entry again: 1 + zigzag(0))
      }
      if (code == 0) kept.push_back(columns[k][e]);
      codec::code_width_number(side, widths, code);
    }
    std::string codeword;
    std::uint64_t bits = 0;
    codec::put_codeword(symbols, codeword, bits);
    put_varint(bodies[k], 0);  // table 0, this writer's one table
    put_prefixed(bodies[k], codeword);
    if (!kept.empty()) put_text_body(kept, bodies[k]);
  }
  return bodies;
}

// Chooses a column's coding among text and the typed codings that read at least half its values
// (9.4.1 leaves the choice to the writer): the smallest body, compressed alone with zstd at
// `level` (raw sizes with `level` 0), text on a tie.
class ColumnChooser {
 public:
  explicit ColumnChooser(int level) : level_(level) {}
  std::size_t cost(std::string_view body) const {
    if (level_ == 0 || body.size() < 16) return body.size();
    const std::string frame = common::compress_frame(body, level_);
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

// Coded columns are kept where they make a block's tags section at least this many bytes
// smaller (as ColumnChooser measures): a codeword is as large in the archive as alone, while the
// varints it replaces may compress further against the tag dictionary (9.9).
constexpr std::size_t kCodedMargin = 16;

// Whether a column of `form` may be coded (9.4.7): of coding 1 to 4.
bool codable(const ValueForm& form) {
  return form.coding >= TagCoding::kInteger && form.coding <= TagCoding::kTime;
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
                                const std::vector<std::uint32_t>* players,
                                const std::vector<std::vector<std::uint8_t>>* derived, bool coded,
                                const TableColumns* tables, bool xiangqi_positions, const NameEntries* names) {
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
  // The ranks of each column's tags written without escapes (9.4.10): such a column is text of
  // coding 13, whatever else could code it.
  std::vector<std::vector<std::uint32_t>> unescaped(keys.size());
  {
    std::vector<std::uint32_t> rank(keys.size(), 0);
    for (const auto& g : games)
      for (const Tag& t : g) {
        const std::uint32_t k = key_id.find(t.key)->second;
        if (t.unescaped) unescaped[k].push_back(rank[k]);
        ++rank[k];
      }
  }
  // Table columns (9.4.8): the columns of the table's keys.
  std::vector<bool> table(keys.size(), false);
  std::vector<std::string> table_body;
  if (tables) {
    if (tables->entry.size() != games.size()) throw std::logic_error("encode_tags_section: table entries of other games");
    std::vector<std::vector<std::uint32_t>> column_games(keys.size());
    for (std::uint32_t gi = 0; gi < games.size(); ++gi)
      for (const Tag& t : games[gi]) column_games[key_id.find(t.key)->second].push_back(gi);
    for (std::size_t k = 0; k < keys.size(); ++k)
      table[k] = unescaped[k].empty() && std::find(tables->keys.begin(), tables->keys.end(), keys[k]) != tables->keys.end();
    table_body = table_bodies(table, columns, column_games, tables->entry);
  }
  // The rules that give each tag's value (9.4.5), by column in rank order; a column with any is
  // derived.
  std::vector<std::vector<std::uint8_t>> rules(keys.size());
  std::vector<bool> derive(keys.size(), false);
  if (derived) {
    if (derived->size() != games.size()) throw std::logic_error("encode_tags_section: derived rules of other games");
    for (std::size_t gi = 0; gi < games.size(); ++gi) {
      const auto& g = games[gi];
      const auto& r = (*derived)[gi];
      if (!r.empty() && r.size() != g.size()) throw std::logic_error("encode_tags_section: derived rules of other tags");
      for (std::size_t i = 0; i < g.size(); ++i) {
        const std::uint32_t k = key_id.find(g[i].key)->second;
        rules[k].push_back(r.empty() ? 0 : r[i]);
        if (rules[k].back() != 0) derive[k] = true;
      }
    }
  }
  // With the codings of layout 3 (9.4.6), each tag's game's first White and Black values.
  std::vector<std::vector<std::array<std::string_view, 2>>> named_players(keys.size());
  if (derived) {
    for (const auto& g : games) {
      std::array<std::string_view, 2> first;
      bool seen[2] = {false, false};
      for (const Tag& t : g)
        for (int c = 0; c < 2; ++c)
          if (!seen[c] && t.key == (c == 0 ? "White" : "Black")) {
            seen[c] = true;
            first[c] = t.value;
          }
      for (const Tag& t : g) named_players[key_id.find(t.key)->second].push_back(first);
    }
  }
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
  // The Event and Site columns' entries of their tables, for a column whose every value has one.
  if (names) {
    std::size_t at[2] = {0, 0};
    std::vector<bool> missing(keys.size(), false);
    for (const auto& g : games)
      for (const Tag& t : g) {
        const int f = name_field_of(t.key);
        if (f != kEventField && f != kSiteField) continue;
        const std::vector<std::uint32_t>& of = f == kEventField ? names->event : names->site;
        std::size_t& i = at[f == kEventField ? 0 : 1];
        if (i == of.size()) throw std::logic_error("encode_tags_section: fewer name entries than Event and Site tags");
        const std::uint32_t k = key_id.find(t.key)->second;
        if (of[i] == kNoNameEntry) missing[k] = true;
        else entries[k].push_back(of[i]);
        ++i;
      }
    if (at[0] != names->event.size() || at[1] != names->site.size())
      throw std::logic_error("encode_tags_section: more name entries than Event and Site tags");
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (missing[k]) entries[k].clear();
  }
  const ColumnChooser chooser(choose_level);
  struct Choice {
    TagCoding coding = TagCoding::kText;
    std::string body;
    std::size_t cost = 0;
  };
  std::vector<Choice> best(keys.size());  // the best coding of each column other than ratings
  std::vector<Choice> best_coded(keys.size(), Choice{TagCoding::kCoded, {}, SIZE_MAX});  // its best coded one
  for (std::size_t k = 0; k < keys.size(); ++k) {
    // An Event or Site column of entries (layout 8, 9.4.3): a player column's body, then the
    // ranks of its values written without escapes.
    const int field = name_field_of(keys[k]);
    std::string entries_body;
    if (!entries[k].empty() && field != kPlayerField) {
      entries_body = player_body(entries[k]);
      put_unescaped_ranks(unescaped[k], entries_body);
    }
    if (!unescaped[k].empty()) {
      put_text_body(columns[k], best[k].body);
      put_unescaped_ranks(unescaped[k], best[k].body);
      best[k].coding = TagCoding::kUnescaped;
      if (!entries_body.empty()) {
        best[k].cost = chooser.cost(best[k].body);
        if (const std::size_t c = chooser.cost(entries_body); c < best[k].cost)
          best[k] = Choice{TagCoding::kPlayer, std::move(entries_body), c};
      }
      continue;
    }
    if (table[k]) {  // (this writer's choice for the whole archive, 9.4.8)
      best[k] = Choice{TagCoding::kTable, std::move(table_body[k]), 0};
      continue;
    }
    if (derive[k]) {  // (smaller than any other coding: a flag byte in place of a value)
      if (keys[k] != kDerivedKey) throw std::logic_error("encode_tags_section: a derived value of another key");
      best[k] = Choice{TagCoding::kDerived, derived_body(columns[k], rules[k]), 0};
      continue;
    }
    put_text_body(columns[k], best[k].body);
    best[k].cost = chooser.cost(best[k].body);
    if (!entries[k].empty()) {
      std::string body = field == kPlayerField ? player_body(entries[k]) : std::move(entries_body);
      if (const std::size_t c = chooser.cost(body); c < best[k].cost) best[k] = Choice{TagCoding::kPlayer, std::move(body), c};
    }
    if (keys[k] == "FEN") {
      std::string body = position_body(columns[k]);
      if (const std::size_t c = chooser.cost(body); c < best[k].cost) best[k] = Choice{TagCoding::kPosition, std::move(body), c};
      if (xiangqi_positions) {
        body = xiangqi_position_body(columns[k]);
        if (const std::size_t c = chooser.cost(body); c < best[k].cost)
          best[k] = Choice{TagCoding::kXiangqiPosition, std::move(body), c};
      }
    }
    // The coded form (9.4.7) is tried of the smallest typed form that may be coded.
    std::size_t typed_cost = SIZE_MAX;
    ValueForm typed_form;
    TypedValues typed_values;
    for (const ValueForm& form : candidate_forms(columns[k])) {
      TypedValues t;
      if (!read_values(form, columns[k], t)) continue;
      std::string body = typed_body(form, t, columns[k]);
      const std::size_t c = chooser.cost(body);
      if (coded && codable(form) && c < typed_cost) {
        typed_cost = c;
        typed_form = form;
        typed_values = t;
      }
      if (c < best[k].cost) best[k] = Choice{form.coding, std::move(body), c};
    }
    if (typed_cost != SIZE_MAX) {
      std::string body = typed_body(typed_form, typed_values, columns[k], true);
      if (const std::size_t c = chooser.cost(body); c < best_coded[k].cost) best_coded[k] = Choice{TagCoding::kCoded, std::move(body), c};
    }
    if (derived && name_field_of(keys[k]) != kPlayerField) {
      bool any = false;
      std::string body = named_body(columns[k], named_players[k], any);
      if (const std::size_t c = chooser.cost(body); any && c < best[k].cost) best[k] = Choice{TagCoding::kNamed, std::move(body), c};
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
    if (player == key_id.end() || table[k] || !unescaped[k].empty()) continue;
    rating[k] = ValueForm(TagCoding::kRating);
    rating[k].player = player->second;
    in_set[k] = read_values(rating[k], columns[k], rated[k]);
  }
  // A player column is never itself a rating column (TAGS-4): `XEloElo` is not rated by `XElo`.
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (in_set[k] && in_set[rating[k].player]) in_set[k] = false;
  // The set of rating columns and their bodies, against the columns' best codings (`with_coded`:
  // coded ones too, 9.4.7, and the ratings' coded bodies where smaller).
  struct Ratings {
    std::vector<bool> in_set;
    std::vector<std::string> body;
    std::vector<bool> coded;
  };
  const auto rating_set = [&](bool with_coded) {
    Ratings r{in_set, std::vector<std::string>(keys.size()), std::vector<bool>(keys.size(), false)};
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
          if (!r.in_set[k] || !rated[k].typed[e]) continue;
          const std::int64_t at = first.first(rating[k].player);
          const std::string_view view = at >= 0 ? std::string_view(g[at].value) : std::string_view();
          const std::string_view* player = at >= 0 ? &view : nullptr;
          deltas[k].numbers[e] = rated[k].numbers[e] - predictor.predict(player);
          predictor.coded(player, rated[k].numbers[e]);
        }
      }
      for (std::size_t k = 0; k < keys.size(); ++k) {
        if (!r.in_set[k]) continue;
        r.body[k] = typed_body(rating[k], deltas[k], columns[k]);
        std::size_t cost = chooser.cost(r.body[k]);
        r.coded[k] = false;
        if (with_coded) {
          std::string body = typed_body(rating[k], deltas[k], columns[k], true);
          if (const std::size_t c = chooser.cost(body); c < cost) {
            r.body[k] = std::move(body);
            r.coded[k] = true;
            cost = c;
          }
        }
        if (cost >= (with_coded ? std::min(best[k].cost, best_coded[k].cost) : best[k].cost)) {
          r.in_set[k] = false;
          changed = true;
        }
      }
    }
    return r;
  };
  // The columns, each in its best coding; with coded columns (9.4.7), the section is kept only
  // if it is smaller by kCodedMargin than the one without them (compressed whole, varints may
  // repeat each other where a codeword does not).
  std::string plain = out;
  const Ratings without_coded = rating_set(false);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (without_coded.in_set[k]) {
      put_column(TagCoding::kRating, without_coded.body[k], plain);
    } else {
      put_column(best[k].coding, best[k].body, plain);
    }
  }
  if (!coded) return plain;
  const Ratings with_coded = rating_set(true);
  bool any_coded = false;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (with_coded.in_set[k]) {
      put_column(with_coded.coded[k] ? TagCoding::kCoded : TagCoding::kRating, with_coded.body[k], out);
      any_coded = any_coded || with_coded.coded[k];
    } else {
      const bool c = best_coded[k].cost < best[k].cost;
      put_column(c ? TagCoding::kCoded : best[k].coding, c ? best_coded[k].body : best[k].body, out);
      any_coded = any_coded || c;
    }
  }
  if (!any_coded) return plain;
  const std::size_t without = chooser.cost(plain);
  return chooser.cost(out) + kCodedMargin <= without ? out : plain;
}


}  // namespace pgnarc::container
