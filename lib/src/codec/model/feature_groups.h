// A model's feature groups as one table (spec 7.6.5 for the move model, 7.7 for crazyhouse's,
// 7.8.3 for the fast model's): each group's name as the specification gives it, the shape of its
// index as its appendix writes it, and its size, in the order of the features. The offsets of the
// code, the trainer's names and the appendix's table of groups all come from the table.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pgnarc::codec::model {

// Whose features a group holds: the moving piece's (shared by all the piece's moves), the move's,
// or some of each (castling loss: a king move's and a castling rook's).
enum class Holder { kPiece, kMove, kBoth };

struct FeatureGroup {
  // The specification's name: a row of the feature tables of 7.6.5 (two groups with one name
  // there are told apart by a note in parentheses, "threat (higher, undefended)").
  std::string_view name;
  std::string_view index;  // "[phase][type][square]"; empty for a group of one feature
  int size;
  Holder holder = Holder::kMove;
};

// The first feature of the group named `name`: the sizes of the groups before it summed. A name
// the table does not hold is not a constant expression (the build fails where it is used).
consteval int offset_of(std::span<const FeatureGroup> groups, std::string_view name) {
  int at = 0;
  for (const FeatureGroup& g : groups) {
    if (g.name == name) return at;
    at += g.size;
  }
  throw "no feature group of this name";
}

// The features of one move of a variant's model: up to kMax feature numbers, and its score, the
// sum of their weights.
template <int kMax>
struct FeatureList {
  int k[kMax];
  int n = 0;
  void add(int f) {
    assert(n < kMax);
    k[n++] = f;
  }
  int score(const std::int8_t* weights) const {
    int s = 0;
    for (int j = 0; j < n; ++j) s += weights[k[j]];
    return s;
  }
};

// The number of features of the table.
constexpr int features_of(std::span<const FeatureGroup> groups) {
  int at = 0;
  for (const FeatureGroup& g : groups) at += g.size;
  return at;
}

// The group's label in the appendix: its name without the note in parentheses, then its index
// ("threat [type][higher, undefended]").
inline std::string appendix_label(const FeatureGroup& g) {
  std::string_view name = g.name;
  if (const std::size_t note = name.find(" ("); note != std::string_view::npos) name = name.substr(0, note);
  std::string out(name);
  if (!g.index.empty()) out.append(" ").append(g.index);
  return out;
}

}  // namespace pgnarc::codec::model
