// The Xiangqi model (internal): the frequencies of a Xiangqi position's legal moves in a block of
// codec 11, 12, 14 or 15 under the model or the fast coder (format specification, "The Xiangqi
// model").
// As the move model of chess (move_model.h), a move's score is the sum of the weights of its
// features and its frequency halves for every 16 points it scores below the best move. The
// weights are fitted by tools/pgnarc-train --variant xiangqi.
//
// The features are enumerated in one place (xiangqi_model.cpp's each_feature) for the coder
// (frequencies) and the trainer (xiangqi_features).
#pragma once

#include <array>
#include <cstdint>

#include "codec/model/feature_groups.h"
#include "rules/xiangqi.h"

namespace pgnarc::codec::model::xq {

namespace rx = rules::xiangqi;

// A piece's kind: its type less 1 (general 0, advisor 1, elephant 2, horse 3, chariot 4,
// cannon 5, soldier 6).
inline constexpr int kKinds = 7;
inline constexpr int kPhases = 3;
inline constexpr int kSquares = rx::kSquares;
// The groups, in the order of their features (7.9, whose table gives the offsets too).
inline constexpr FeatureGroup kGroups[] = {
    // [phase][kind][relative to-square]: where the piece goes.
    {"to-square", "[phase][kind][relative square]", kPhases * kKinds * kSquares},
    // [phase][kind][relative from-square]: where the piece stands.
    {"from-square", "[phase][kind][relative square]", kPhases * kKinds * kSquares},
    // [kind][victim: none, general .. soldier]: what the move captures.
    {"capture", "[kind][victim: none, K, A, B, N, R, C, P]", kKinds * 8},
    // [kind][attacked by them][defended by another piece of ours]: the to-square.
    {"to-square safety", "[kind][attacked by them][defended by us]", kKinds * 4},
    // [kind][attacked by them][defended by us]: the from-square.
    {"from-square safety", "[kind][attacked by them][defended by us]", kKinds * 4},
    // [kind]: the move checks.
    {"check", "[kind]", kKinds},
    // [kind]: we are in check.
    {"we are in check", "[kind]", kKinds},
    // [kind]: the move goes where the opponent's last move went.
    {"lands where their last move landed", "[kind]", kKinds},
    // [kind][none, a piece worth more, an undefended piece]: what the piece attacks from its
    // to-square after the move, of their pieces but the general (the first that applies).
    {"threat", "[kind][none, a piece worth more, an undefended piece]", kKinds * 3},
    // [their last-moved kind, 7 for none][kind].
    {"reply", "[their last-moved kind, none][kind]", 8 * kKinds},
    // [kind]: the piece is the one our previous move moved.
    {"the piece moved last", "[kind]", kKinds},
    // [kind]: the piece goes back to where our previous move took it from.
    {"straight back", "[kind]", kKinds},
    // [kind][distance from the to-square to their general, 0 to 9].
    {"general distance", "[kind][distance]", kKinds * 10},
    // [kind][distance from the to-square to where their last move went, 0 to 3, 4 for more].
    {"near their last move", "[kind][distance, 4 for 4 or more]", kKinds * 5},
};
inline constexpr int kTo = offset_of(kGroups, "to-square");
inline constexpr int kFrom = offset_of(kGroups, "from-square");
inline constexpr int kVictim = offset_of(kGroups, "capture");
inline constexpr int kToSafety = offset_of(kGroups, "to-square safety");
inline constexpr int kFromSafety = offset_of(kGroups, "from-square safety");
inline constexpr int kCheck = offset_of(kGroups, "check");
inline constexpr int kEvasion = offset_of(kGroups, "we are in check");
inline constexpr int kRecapture = offset_of(kGroups, "lands where their last move landed");
inline constexpr int kThreat = offset_of(kGroups, "threat");
inline constexpr int kReply = offset_of(kGroups, "reply");
inline constexpr int kMovedLast = offset_of(kGroups, "the piece moved last");
inline constexpr int kBack = offset_of(kGroups, "straight back");
inline constexpr int kGeneralDistance = offset_of(kGroups, "general distance");
inline constexpr int kNearLast = offset_of(kGroups, "near their last move");
inline constexpr int kFeatures = features_of(kGroups);
inline constexpr int kMaxMoveFeatures = 14;

// What the model knows of the two plies before a ply in its line (7.9): the opponent's last
// move (its from- and to-square and the kind of the piece it moved) and our move before it;
// -1 where there is none (at the first two plies of a main line).
struct History {
  int last_from = -1, last_to = -1, last_kind = -1;
  int our_from = -1, our_to = -1;
};

// The history of the ply after `m`, a legal move of `pos` played at a ply whose history is `h`.
inline History history_after(const History& h, const rx::Position& pos, rx::Move m) {
  return History{m.from, m.to, rx::type_of(pos.piece_on(m.from)) - 1, h.last_from, h.last_to};
}

using MoveFeatures = FeatureList<kMaxMoveFeatures>;

// The features of each legal move `list[i]` of `pos` (at least one), whose history is `h`, into
// out[i].
void xiangqi_features(const rx::Position& pos, const rx::MoveList& list, const History& h, MoveFeatures* out);

// The weights, in sixteenths of a bit (tools/pgnarc-train --variant xiangqi --out writes
// xiangqi_weights.cpp).
extern const std::array<std::int8_t, kFeatures> kWeights;

// The frequencies of the legal moves `list` of `pos` (at least one) into `freq`; returns their
// total (at most 128 * 4096).
std::uint32_t frequencies(const rx::Position& pos, const rx::MoveList& list, const History& h, std::uint32_t* freq,
                          const std::int8_t* weights = kWeights.data());

}  // namespace pgnarc::codec::model::xq
