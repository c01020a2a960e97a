#include "container/derived_tags.h"

#include <algorithm>

#include "container/tags_section.h"
#include "pgnarc/chess.h"

namespace pgnarc::container {

bool derive_values(const Game& game, DerivedValues& out) {
  auto start = start_position(game);
  if (!start || start->variant() != Variant::kStandard) return false;
  Position pos = *start;
  Square double_step = kNoSquare;
  int depth = 0;
  for (const GameEvent& e : game.events) {
    if (e.type == GameEvent::kBeginVariation) ++depth;
    else if (e.type == GameEvent::kEndVariation) --depth;
    if (depth != 0) continue;
    if (e.type == GameEvent::kNullMove) return false;
    if (e.type != GameEvent::kMove) continue;
    const Move m = e.move;
    const bool pawn = type_of(pos.piece_on(m.from())) == kPawn;
    pos.play(m);
    double_step = pawn && (m.from() ^ m.to()) == 16 ? static_cast<Square>((m.from() + m.to()) / 2) : kNoSquare;
  }
  out.value[kFinalPositionLegalEp] = pos.fen(double_step == kNoSquare ? kNoSquare : pos.legal_ep_square());
  out.value[kFinalPosition] = pos.fen(double_step);
  return true;
}

std::uint8_t derived_rules_of(const Tag& t, const DerivedValues& d) {
  std::uint8_t rules = 0;
  if (t.key != kDerivedKey) return 0;
  for (int r = 0; r < kDerivedRules; ++r)
    if (t.value == d.value[r]) rules |= static_cast<std::uint8_t>(1u << r);
  return rules;
}

std::vector<std::uint8_t> derived_rules(const Game& game) {
  bool any_key = false;
  for (const Tag& t : game.tags) any_key |= t.key == kDerivedKey;
  DerivedValues d;
  if (!any_key || !derive_values(game, d)) return {};
  std::vector<std::uint8_t> out(game.tags.size());
  bool any = false;
  for (std::size_t i = 0; i < out.size(); ++i) any |= (out[i] = derived_rules_of(game.tags[i], d)) != 0;
  if (!any) out.clear();
  return out;
}

Status fill_derived_tags(const BlockTags& tags, std::uint32_t j, ArchiveGame& game, const std::string& where) {
  if (tags.derived.empty()) return {};
  const std::uint32_t first = tags.start[j], end = tags.start[j + 1];
  auto it = std::lower_bound(tags.derived.begin(), tags.derived.end(), first,
                             [](const BlockTags::Derived& d, std::uint32_t slot) { return d.slot < slot; });
  if (it == tags.derived.end() || it->slot >= end) return {};
  DerivedValues values;
  const bool has = !game.raw && derive_values(game.game, values);
  for (; it != tags.derived.end() && it->slot < end; ++it) {
    if (game.raw) {  // (its tags section's tags are only the tag pairs read from its bytes)
      if (it->flagged) return corruption(where + ": a derived tag of a game kept verbatim");
      continue;
    }
    Tag& t = game.game.tags[it->slot - first];
    if (it->flagged) {
      if (!has) return corruption(where + ": a derived " + t.key + " of a Xiangqi game, a game under a variant or one with a null move");
      t.value = values.value[it->rule];
    } else if (has && t.value == values.value[it->rule]) {
      return corruption(where + ": a " + t.key + " kept as text that its rule gives");
    }
  }
  return {};
}

}  // namespace pgnarc::container
