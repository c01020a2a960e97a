// Bitboards and attack tables (internal to the rules layer).
#pragma once

#include <bit>
#include <cstdint>

#include "pgnarc/chess.h"

namespace pgnarc::detail {

constexpr Bitboard bb(int s) { return Bitboard{1} << s; }
constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard file_bb(int f) { return kFileA << f; }
constexpr Bitboard rank_bb(int r) { return kRank1 << (8 * r); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return static_cast<Square>(std::countr_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// One line through a square (file, rank, diagonal or anti-diagonal), split at the square.
struct LineMask {
  Bitboard lower = 0;  // squares of the line below the square (smaller index)
  Bitboard upper = 0;  // squares of the line above it
  Bitboard both = 0;   // lower | upper

  // Attacks along this line given occupancy `occ` (obstruction difference): the nearest blocker
  // below is the most significant bit of the lower half; subtracting it from the upper half's
  // blockers sets every bit from it up to the nearest blocker above.
  Bitboard attacks(Bitboard occ) const {
    const Bitboard lo = lower & occ, hi = upper & occ;
    const Bitboard nearest_below = Bitboard{1} << (63 - std::countl_zero(lo | 1));
    return both & (hi ^ (hi - nearest_below));
  }
};

struct AttackTables {
  Bitboard pawn[2][64];      // squares a pawn of that color on s attacks
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
  Bitboard line[64][64];     // the whole line through two aligned squares, else 0
  Bitboard rook_rays[64];    // rook attacks on an empty board
  Bitboard bishop_rays[64];  // bishop attacks on an empty board
  LineMask lines[64][4];     // file, rank, diagonal, anti-diagonal: slider attacks

  Bitboard rook_attacks(int s, Bitboard occ) const { return lines[s][0].attacks(occ) | lines[s][1].attacks(occ); }
  Bitboard bishop_attacks(int s, Bitboard occ) const { return lines[s][2].attacks(occ) | lines[s][3].attacks(occ); }
  Bitboard queen_attacks(int s, Bitboard occ) const {
    return rook_attacks(s, occ) | bishop_attacks(s, occ);
  }
};

// Built once, on first use (a few microseconds: no table depends on occupancy).
const AttackTables& attack_tables();

}  // namespace pgnarc::detail
