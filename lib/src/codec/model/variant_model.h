// The crazyhouse model (internal): the frequencies of a crazyhouse position's legal moves in a
// block of the model coder (format specification, "The crazyhouse model"). As the move model of
// standard chess (move_model.h), a move's score is the sum of the weights of its features and its
// frequency halves for every 16 points it scores below the best move; the features are few and
// cheap, and drops, most of crazyhouse's moves, have their own. The weights are fitted by
// tools/pgnarc-train --variant crazyhouse.
//
// The features are enumerated in one place (crazyhouse_features) for the coder and the trainer.
#pragma once

#include <array>
#include <cstdint>

#include "codec/model/move_model.h"
#include "pgnarc/chess.h"

namespace pgnarc::codec::model::zh {

// A move's kind: a board move by its piece's type (pawn 0 .. king 5), a drop by the dropped
// piece's (pawn 6 .. queen 10).
inline constexpr int kKinds = 11;
inline constexpr int kBoardKinds = 6;
// The groups, in the order of their features (7.7, whose table gives the offsets too).
inline constexpr FeatureGroup kGroups[] = {
    // [kind][relative landing square]: where the piece lands (castling: the king's destination).
    {"landing square", "[kind][relative square]", kKinds * 64},
    // [kind][victim: none, pawn .. king]: what the move captures (en passant: a pawn).
    {"capture", "[kind][victim: none, P, N, B, R, Q, K]", kKinds * 7},
    // [kind][attacked by them][defended by another piece of ours]: the landing square.
    {"landing square safety", "[kind][attacked by them][defended by us]", kKinds * 4},
    // [board kind][attacked by them][defended by another piece of ours]: the from-square.
    {"from-square safety", "[board kind][attacked by them][defended by us]", kBoardKinds * 4, Holder::kPiece},
    // [kind]: the move checks (after it, the side to move is in check).
    {"check", "[kind]", kKinds},
    // [kind][king distance from the landing square to their king, 0 without one].
    {"king distance", "[kind][distance, 0 without a king]", kKinds * 8},
    // [kind]: we are in check.
    {"we are in check", "[kind]", kKinds},
    // [kind]: the move lands where the opponent's last move landed.
    {"lands where their last move landed", "[kind]", kKinds},
    // [board kind][relative from-square]: where the piece stands.
    {"from-square", "[board kind][relative square]", kBoardKinds * 64, Holder::kPiece},
    // [kind][none, a piece worth more, an undefended piece]: what the piece attacks from its landing
    // square, after the move, of their pieces but the king (the first that applies).
    {"threat", "[kind][none, a piece worth more, an undefended piece]", kKinds * 3},
    // [kind][0, 1, 2, 3 or more]: the squares next to their king the piece attacks from its landing
    // square, after the move.
    {"attacks next to their king", "[kind][0, 1, 2, 3+]", kKinds * 4},
};
inline constexpr int kSquare = offset_of(kGroups, "landing square");
inline constexpr int kVictim = offset_of(kGroups, "capture");
inline constexpr int kSafety = offset_of(kGroups, "landing square safety");
inline constexpr int kFromSafety = offset_of(kGroups, "from-square safety");
inline constexpr int kCheck = offset_of(kGroups, "check");
inline constexpr int kKingDistance = offset_of(kGroups, "king distance");
inline constexpr int kEvasion = offset_of(kGroups, "we are in check");
inline constexpr int kRecapture = offset_of(kGroups, "lands where their last move landed");
inline constexpr int kFrom = offset_of(kGroups, "from-square");
inline constexpr int kThreat = offset_of(kGroups, "threat");
inline constexpr int kKingZone = offset_of(kGroups, "attacks next to their king");
inline constexpr int kFeatures = features_of(kGroups);
inline constexpr int kMaxMoveFeatures = 11;

using MoveFeatures = FeatureList<kMaxMoveFeatures>;

// The features of each legal move `list[i]` of `pos` (crazyhouse, with at least one legal move),
// whose history is `h`, into out[i].
void crazyhouse_features(const Position& pos, const MoveList& list, const History& h, MoveFeatures* out);

// The weights, in sixteenths of a bit (tools/pgnarc-train --variant crazyhouse --out writes
// variant_weights.cpp).
extern const std::array<std::int8_t, kFeatures> kWeights;

// The frequencies of the legal moves `list` of `pos` (crazyhouse, at least one move) into `freq`;
// returns their total (at most 416 * 4096).
std::uint32_t frequencies(const Position& pos, const MoveList& list, const History& h, std::uint32_t* freq,
                          const std::int8_t* weights = kWeights.data());

}  // namespace pgnarc::codec::model::zh
