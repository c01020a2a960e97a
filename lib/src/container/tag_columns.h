// The pieces of tag columns that the tags section's writer and reader share (internal, spec
// 9.4.1 and 9.4.2): a typed column's form, and the rating prediction's state.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "container/tag_values.h"

namespace pgnarc::container::tag_columns {

// The first rating a block predicts, before it has coded any (9.4.2).
inline constexpr std::int64_t kFirstRatingPrediction = 1500;

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
      case TagCoding::kPlayer:
      case TagCoding::kPosition:
      case TagCoding::kDerived:
      case TagCoding::kNamed:
      case TagCoding::kCoded:
      case TagCoding::kTable:
      case TagCoding::kXiangqiPosition:
      case TagCoding::kUnescaped: break;
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
      case TagCoding::kPlayer:
      case TagCoding::kPosition:
      case TagCoding::kDerived:
      case TagCoding::kNamed:
      case TagCoding::kCoded:
      case TagCoding::kTable:
      case TagCoding::kXiangqiPosition:
      case TagCoding::kUnescaped: break;
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
      case TagCoding::kPlayer:
      case TagCoding::kPosition:
      case TagCoding::kDerived:
      case TagCoding::kNamed:
      case TagCoding::kCoded:
      case TagCoding::kTable:
      case TagCoding::kXiangqiPosition:
      case TagCoding::kUnescaped: break;
    }
    return false;
  }
  // Integers may predict 0; the others always predict the column's previous value.
  bool predicts() const { return coding != TagCoding::kInteger || predict; }
};

// Bytes that hold every number below `limit` (the width of a base-62 identifier's planes).
inline int width_below(std::int64_t limit) {
  int w = 0;
  for (std::uint64_t n = static_cast<std::uint64_t>(limit - 1); n; n >>= 8) ++w;
  return w;
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

}  // namespace pgnarc::container::tag_columns
