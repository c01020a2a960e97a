// Bitboards and attack tables (internal to the rules layer).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "pgnarc/chess.h"

// Second builds of the move generator (movegen.cpp) and the move model (move_model.cpp) for
// x86-64-v3 CPUs, with GCC on x86-64.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PGNARC_HAVE_V3 1
#include <immintrin.h>
#else
#define PGNARC_HAVE_V3 0
#endif

namespace pgnarc::rules {

// Whether this CPU runs the x86-64-v3 build: it has every x86-64-v3 instruction and a PEXT that
// is not microcoded (AMD before Zen 3 takes hundreds of cycles per PEXT). Safe to call before
// constructors run: the ifunc resolvers call it while relocations are processed, before the
// sanitizers' runtime is up, so it and they are built without sanitizer instrumentation.
#if defined(__GNUC__)
#define PGNARC_NO_SANITIZE __attribute__((no_sanitize("address", "undefined", "thread")))
#define PGNARC_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define PGNARC_NO_SANITIZE
#define PGNARC_ALWAYS_INLINE inline
#endif
PGNARC_NO_SANITIZE bool v3_generator_supported();

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

// The square of the k-th lowest set bit of `b` (k from 0; `b` has more than k bits set), found
// without branches by halving: 32, 16 and 8 low bits, then a table for the last byte.
inline constexpr auto kNthBitInByte = [] {
  std::array<std::array<std::uint8_t, 256>, 8> t{};  // [k][byte]; 0 where the byte has no k-th bit
  for (int v = 0; v < 256; ++v)
    for (int bit = 0, k = 0; bit < 8; ++bit)
      if (v >> bit & 1) t[k++][v] = static_cast<std::uint8_t>(bit);
  return t;
}();
inline Square nth_bit(Bitboard b, int k) {
  int base = 0;
  for (int width = 32; width >= 8; width /= 2) {
    const Bitboard low = b & ((Bitboard{1} << width) - 1);
    const int c = popcount(low);
    const bool up = k >= c;
    b = up ? b >> width : low;
    k = up ? k - c : k;
    base = up ? base + width : base;
  }
  return static_cast<Square>(base + kNthBitInByte[k][b & 0xFF]);
}

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
  // Castling of a color with its king on file kf and a rook on file rf of its first rank (the
  // side follows from the files): the squares that must be empty but for the two castling
  // pieces, and the squares from the king's start to its destination, which must not be attacked.
  Bitboard castle_empty[2][8][8];
  Bitboard castle_safe[2][8][8];
  // Slider attacks for PEXT lookups (built only where v3_generator_supported()): for a square,
  // the squares whose occupancy matters (`mask`: the rays without their last square) and where
  // its attack sets start in `pext_attacks`, each stored as PEXT of the set with the empty-board
  // rays (so 16 bits hold it).
  struct PextSlot {
    Bitboard mask = 0;
    std::uint32_t offset = 0;
  };
  PextSlot rook_pext[64], bishop_pext[64];
  const std::uint16_t* pext_attacks = nullptr;

  Bitboard rook_attacks(int s, Bitboard occ) const { return lines[s][0].attacks(occ) | lines[s][1].attacks(occ); }
  Bitboard bishop_attacks(int s, Bitboard occ) const { return lines[s][2].attacks(occ) | lines[s][3].attacks(occ); }
  Bitboard queen_attacks(int s, Bitboard occ) const {
    return rook_attacks(s, occ) | bishop_attacks(s, occ);
  }
};

#if PGNARC_HAVE_V3
// Slider attacks as PEXT lookups, for code built for x86-64-v3 (and run only where
// v3_generator_supported(), which builds the tables): the occupancy of the relevant squares,
// gathered into an index, picks the attack set stored compressed to the empty-board rays (PDEP
// expands it). The same sets as AttackTables::rook_attacks and bishop_attacks.
#define PGNARC_V3_TARGET __attribute__((target("arch=x86-64-v3")))
PGNARC_V3_TARGET inline Bitboard pext_rook_attacks(const AttackTables& T, int s, Bitboard occ) {
  const AttackTables::PextSlot& p = T.rook_pext[s];
  return _pdep_u64(T.pext_attacks[p.offset + _pext_u64(occ, p.mask)], T.rook_rays[s]);
}
PGNARC_V3_TARGET inline Bitboard pext_bishop_attacks(const AttackTables& T, int s, Bitboard occ) {
  const AttackTables::PextSlot& p = T.bishop_pext[s];
  return _pdep_u64(T.pext_attacks[p.offset + _pext_u64(occ, p.mask)], T.bishop_rays[s]);
}
#endif

// Built once, on first use (under a millisecond: no table depends on occupancy). Inline, so
// that each use is a test of the guard and a load rather than a function call.
const AttackTables& build_attack_tables();
inline const AttackTables& attack_tables() {
  static const AttackTables& tables = build_attack_tables();
  return tables;
}

}  // namespace pgnarc::rules
