// The tags section of a block (9.4): the key table, each game's keys, then per key a column of
// its values: as text (a value list of its distinct values in order of first use and one
// fixed-width reference per tag) or typed (integers, ratings, dates, times, identifiers coded
// as numbers, each value out of its form kept as text; tag_values.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

class ValueTables;
struct TableColumns;
struct NameEntries;

// Bytes per reference in a column of `distinct` values: none for one value, else the fewest
// that hold 0 to `distinct`.
inline constexpr int tag_ref_width(std::uint64_t distinct) {
  return distinct <= 1 ? 0 : distinct < (1u << 8) ? 1 : distinct < (1u << 16) ? 2 : distinct < (1u << 24) ? 3 : 4;
}

// The tags section of games with these tags (a verbatim game has none). Each column is coded
// as text or in a typed form (9.4.1), whichever is smaller compressed alone with zstd at
// `choose_level`, or, with `choose_level` 0, uncompressed. `players`: for every White and
// Black tag of the games, in order, its entry in the archive's players' table; with it, those
// columns may be coded as entries (9.4.3).
// `derived`: per game, the rules of 9.4.5 that give each of its tags' values (derived_tags.h;
// empty for a game with none); a column with any is derived (coding 8), and the values its rule
// gives need not be filled in (a merge copies them so). With `derived` (for a block of layout 3),
// columns may also be named (coding 9, 9.4.6); without it, the section is of layout 1. With
// `coded` (for a block of layout 4), a typed column of coding 1 to 4 may have its codes in a
// codeword (coding 10, 9.4.7) where that is smaller. With `tables` (for a block of layout 5), the
// columns of its keys are table columns (coding 11, 9.4.8) naming each game's entry. With
// `xiangqi_positions` (for a block of layout 6), a FEN column may hold Xiangqi positions (coding
// 12, 9.4.9) where that is smaller. A column that holds a tag written without escapes
// (Tag::unescaped) is unescaped text (coding 13, 9.4.10, for a block of layout 7), whatever the
// other settings.
// `names` (NameEntries): with it, an Event or Site column whose every value its table holds may be
// coded as entries (coding 6 in a block of layout 8, 9.4.3).
std::string encode_tags_section(const std::vector<std::vector<Tag>>& games, int choose_level,
                                const std::vector<std::uint32_t>* players = nullptr,
                                const std::vector<std::vector<std::uint8_t>>* derived = nullptr, bool coded = false,
                                const TableColumns* tables = nullptr, bool xiangqi_positions = false,
                                const NameEntries* names = nullptr);

// The archive's players' table (9.10), as a player column reads it, its Event and Site tables, as
// a column of their entries reads them (layout 8, 9.4.3), and its value tables (9.4.8), as a
// table column reads them.
class PlayerNames {
 public:
  virtual ~PlayerNames() = default;
  // The archive's value tables, or null where it has none.
  virtual const ValueTables* value_tables() const { return nullptr; }
  // The table of name field `field` (kEventField, kSiteField: format.h), read as this one is, or
  // null where there is none to read it with.
  virtual const PlayerNames* field_names(int /*field*/) const { return nullptr; }
  // Appends the value of the table's entry `ordinal` to `out`; an error naming `where` if the
  // table has no such entry or cannot be read.
  virtual Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const = 0;
  // Checks that the table has the `count` entries `entries` (ascending) and that they read, as
  // append() would (without their values).
  virtual Status check_ascending(const std::uint32_t* entries, std::size_t count, const std::string& where) const {
    std::string scratch;
    for (std::size_t i = 0; i < count; ++i) {
      scratch.clear();
      if (auto st = append(entries[i], where, scratch); !st) return st;
    }
    return {};
  }
  // Appends the values of the `count` entries `entries` (ascending) to `out`, as append() does
  // each, pushing where each ends in `out` onto `ends`.
  virtual Status append_ascending(const std::uint32_t* entries, std::size_t count, const std::string& where,
                                  std::string& out, std::vector<std::size_t>& ends) const {
    for (std::size_t i = 0; i < count; ++i) {
      if (auto st = append(entries[i], where, out); !st) return st;
      ends.push_back(out.size());
    }
    return {};
  }
};

// One tag as views into a decoded tags section (or into its BlockTags' arenas).
struct TagView {
  std::string_view key, value;
  bool unescaped = false;  // written without escapes (Tag::unescaped, 9.4.10)
};

// Every game's tags of a block as views into its tags section (which must outlive them). The
// vectors are kept between blocks so that decoding block after block does not reallocate.
struct BlockTags {
  std::vector<TagView> views;        // all games' tags, game after game (up to the last one asked for)
  std::vector<std::uint32_t> start;  // game j's tags are views[start[j]] to views[start[j + 1]]
  // The tags whose values were written out: views[want_from] to views[want_to] (all of them,
  // unless decode_game_tags asked for a few games).
  std::uint32_t want_from = 0, want_to = 0;

  // Game j's tags: a game decode_tags_section or decode_game_tags wrote out (the values of
  // derived tags empty, until fill_derived_tags gives them).
  std::vector<Tag> game(std::uint32_t j) const;
  // The tags of derived columns written out (9.4.5), by ascending slot: each with its column's
  // rule, and whether its value is the rule's (flagged: its view is empty) or kept as text (it
  // must differ from the rule's).
  struct Derived {
    std::uint32_t slot;
    std::uint8_t rule;
    bool flagged;
  };
  std::vector<Derived> derived;
  // Whether game j has flagged tags of a derived column: its moves give their values.
  bool derives(std::uint32_t j) const;
  // Per game of `games` (all written out), the rule of each flagged tag (bit r for rule r, 0 for
  // the others; empty for a game without one): the tags as encode_tags_section takes them to
  // code them derived again without their values.
  std::vector<std::vector<std::uint8_t>> derived_rules(std::uint32_t games) const;
  bool wanted(std::uint32_t slot) const { return slot >= want_from && slot < want_to; }

  // Typed values written back as text: ratings apart, as they are decoded after the names of
  // their players, which may themselves be typed values (9.4.1); and the values of named columns
  // (a player's name and a rest, 9.4.6), decoded after the players too.
  std::string arena, rating_arena, named_arena;

  // The decoder's scratch space.
  struct Pending {
    std::uint32_t slot;
    std::size_t from, size;
  };
  std::vector<Pending> pending;  // typed values whose arena is still growing
  // The rating prediction of 9.4.2 (as tag_columns::RatingPredictor), over players' names that
  // are views into the section and the arena (which no longer grows when ratings are read), in
  // a table of open addressing kept from block to block.
  class Predictor {
   public:
    // For a block of at most `ratings` ratings.
    void start(std::uint32_t ratings);
    void start_game() { in_game_ = false; }
    // The prediction of a rating of `player` (null: the rating has none); coded() follows.
    std::int64_t predict(const std::string_view* player);
    void coded(std::int64_t rating) {
      if (current_) {
        current_->rating = rating;
        current_->rated = true;
      }
      last_ = game_last_ = rating;
      in_game_ = true;
    }

   private:
    struct Slot {
      std::string_view name;
      std::int64_t rating = 0;
      std::uint32_t generation = 0;  // in use in the block of this generation
      bool rated = false;
    };
    std::vector<Slot> table_;  // its first mask_ + 1 slots at most half full
    std::size_t mask_ = 0;
    std::uint32_t generation_ = 0;
    Slot* current_ = nullptr;
    std::int64_t last_ = 0, game_last_ = 0;
    bool in_game_ = false;
  };
  Predictor predictor;
  std::vector<std::uint32_t> key_of, column_size, column_kept, column_start, slots, fill;
  std::vector<std::string_view> distinct, values;
};

// One column of a tags section as it is stored (9.4): its key, coding and body (views into the
// section), and how many tags it holds.
struct TagColumnView {
  std::string_view key;
  std::uint8_t coding;
  std::string_view body;
  std::uint32_t tags;
};
// The columns of the tags section `in` of a block of `games` games, its key lists and column
// heads checked as decode_tags_section checks them (TAGS-1), the bodies left undecoded.
Status read_tag_columns(std::string_view in, std::uint32_t games, const std::string& where, std::vector<TagColumnView>& out);

// Decodes every game's tags of the tags section `in` of a block of `games` games, checking the
// whole section (TAGS-1); `where` ("block 3 at offset 1234") prefixes errors. Player columns
// read `players` (null: a player column is an error). Derived and named columns (9.4.5, 9.4.6)
// are read where the block's `layout` is 3 or 4, coded columns (9.4.7) where it is 4 (else
// they are an error): the values derived columns' rules give are left empty and listed in
// out.derived, for fill_derived_tags once the game is decoded.
Status decode_tags_section(std::string_view in, std::uint32_t games, const std::string& where, BlockTags& out,
                           const PlayerNames* players = nullptr, std::uint8_t layout = 1);
// The same, but only the tags of games `from` to `to` (from <= to < games) are written out
// (out.game(j) for those j, valid until the next decode into `out`). The section is checked as
// decode_tags_section checks it (every column read to its end, every value's range, every
// players' entry against the table and its chunk read), but for the ratings of the games after
// `to` (their codes only counted: a rating's range needs the prediction of every rating before
// it, 9.4.2) and the limit on typed values written out (counted over these games); the players'
// entries are read for their values only where these games or the ratings' predictions name
// them. Where decode_tags_section succeeds, these games' tags are the same as it gives.
Status decode_game_tags(std::string_view in, std::uint32_t games, std::uint32_t from, std::uint32_t to,
                        const std::string& where, BlockTags& out, const PlayerNames* players = nullptr,
                        std::uint8_t layout = 1);

}  // namespace pgnarc::container
