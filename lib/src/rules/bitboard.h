// Bitboards and attack tables (internal to the rules layer).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

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

// Fancy magic bitboards: attacks = table[((occupied & mask) * magic) >> shift].
struct Magic {
  Bitboard mask = 0;
  Bitboard magic = 0;
  const Bitboard* attacks = nullptr;
  unsigned shift = 0;
  Bitboard lookup(Bitboard occ) const { return attacks[((occ & mask) * magic) >> shift]; }
};

struct AttackTables {
  Bitboard pawn[2][64];      // squares a pawn of that color on s attacks
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
  Bitboard line[64][64];     // the whole line through two aligned squares, else 0
  Bitboard rook_rays[64];    // rook attacks on an empty board
  Bitboard bishop_rays[64];  // bishop attacks on an empty board
  Magic rook[64];
  Magic bishop[64];
  std::vector<Bitboard> slider_table;

  Bitboard rook_attacks(int s, Bitboard occ) const { return rook[s].lookup(occ); }
  Bitboard bishop_attacks(int s, Bitboard occ) const { return bishop[s].lookup(occ); }
  Bitboard queen_attacks(int s, Bitboard occ) const {
    return rook_attacks(s, occ) | bishop_attacks(s, occ);
  }
};

// Built once, on first use, deterministically (the magic search uses a fixed seed).
const AttackTables& attack_tables();

}  // namespace pgnarc::detail
