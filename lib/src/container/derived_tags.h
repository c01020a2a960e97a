// Tag values that a game's main line gives (spec 9.4.5): the FEN of the position it ends in, by
// either en passant style. A column of coding 8 (derived) flags the tags whose value is its
// game's by the column's rule; a reader computes them once the game is decoded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// The rules of 9.4.5, the final position's FEN with en passant style 0 (the square only where the
// capture is legal) and 1 (after every double step), both for the key kDerivedKey.
inline constexpr int kDerivedRules = 2;
inline constexpr int kFinalPositionLegalEp = 0, kFinalPosition = 1;
inline constexpr std::string_view kDerivedKey = "CurrentPosition";

// Each rule's value for one game.
struct DerivedValues {
  std::string value[kDerivedRules];
};
// The values of a coded game; false where it has none (under a variant, a null move in its main
// line, or a start position its tags do not give: 9.4.5).
bool derive_values(const Game& game, DerivedValues& out);
// The rules that give `t`'s value for a game of values `d`: bit r for rule r (none but for kDerivedKey).
std::uint8_t derived_rules_of(const Tag& t, const DerivedValues& d);
// Per tag of `game` (a coded game), the rules that give its value (all 0 where none does), or an
// empty vector where no tag has one.
std::vector<std::uint8_t> derived_rules(const Game& game);

struct BlockTags;
// Gives game j of a block (`game`, decoded from the tags `tags` gave) the values of its derived
// tags, and checks them (TAGS-7): a flagged tag needs a game its rule gives a value for (coded,
// not under a variant, no null move in its main line), and a value kept as text must differ from
// its rule's. `where` ("block 3 at offset 1234: game 17") prefixes errors.
Status fill_derived_tags(const BlockTags& tags, std::uint32_t j, ArchiveGame& game, const std::string& where);

}  // namespace pgnarc::container
