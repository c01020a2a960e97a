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

#include "codec/move_model.h"
#include "pgnarc/chess.h"

namespace pgnarc::detail::model::zh {

// A move's kind: a board move by its piece's type (pawn 0 .. king 5), a drop by the dropped
// piece's (pawn 6 .. queen 10).
inline constexpr int kKinds = 11;
inline constexpr int kBoardKinds = 6;
// [kind][relative landing square]: where the piece lands (castling: the king's destination).
inline constexpr int kSquare = 0;
// [kind][victim: none, pawn .. king]: what the move captures (en passant: a pawn).
inline constexpr int kVictim = kSquare + kKinds * 64;
// [kind][attacked by them][defended by another piece of ours]: the landing square.
inline constexpr int kSafety = kVictim + kKinds * 7;
// [board kind][attacked by them][defended by another piece of ours]: the from-square.
inline constexpr int kFromSafety = kSafety + kKinds * 4;
// [kind]: the move checks (after it, the side to move is in check).
inline constexpr int kCheck = kFromSafety + kBoardKinds * 4;
// [kind][king distance from the landing square to their king, 0 without one].
inline constexpr int kKingDistance = kCheck + kKinds;
// [kind]: we are in check.
inline constexpr int kEvasion = kKingDistance + kKinds * 8;
// [kind]: the move lands where the opponent's last move landed.
inline constexpr int kRecapture = kEvasion + kKinds;
// [board kind][relative from-square]: where the piece stands.
inline constexpr int kFrom = kRecapture + kKinds;
// [kind][none, a piece worth more, an undefended piece]: what the piece attacks from its landing
// square, after the move, of their pieces but the king (the first that applies).
inline constexpr int kThreat = kFrom + kBoardKinds * 64;
// [kind][0, 1, 2, 3 or more]: the squares next to their king the piece attacks from its landing
// square, after the move.
inline constexpr int kKingZone = kThreat + kKinds * 3;
inline constexpr int kFeatures = kKingZone + kKinds * 4;
inline constexpr int kMaxMoveFeatures = 11;

// The features of one move: up to kMaxMoveFeatures numbers.
struct MoveFeatures {
  int k[kMaxMoveFeatures];
  int n = 0;
  void add(int f) { k[n++] = f; }
};

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

}  // namespace pgnarc::detail::model::zh
