#include <memory>
#include <vector>

#include "rules/bitboard.h"

#if PGNARC_HAVE_V3
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace pgnarc::rules {

namespace {

// Attacks of a slider on `s` moving along `dirs`, stopping at the first occupied square.
Bitboard slide(int s, Bitboard occ, const int (*dirs)[2]) {
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(static_cast<Square>(s)) + dirs[d][0];
    int r = rank_of(static_cast<Square>(s)) + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      int t = f + 8 * r;
      result |= bb(t);
      if (occ & bb(t)) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return result;
}

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// The squares from `s` (excluded) to the edge of the board in direction `dir`.
Bitboard ray(int s, const int (&dir)[2]) {
  Bitboard result = 0;
  for (int f = file_of(static_cast<Square>(s)) + dir[0], r = rank_of(static_cast<Square>(s)) + dir[1];
       f >= 0 && f < 8 && r >= 0 && r < 8; f += dir[0], r += dir[1])
    result |= bb(f + 8 * r);
  return result;
}

#if PGNARC_HAVE_V3
// Fills the PEXT tables: for each square and slider, every subset of the relevant squares as
// an occupancy, its attack set compressed to the rays. 107,648 entries, 210 KiB.
__attribute__((target("bmi2"))) void build_pext(AttackTables& t) {
  static std::vector<std::uint16_t> table;
  std::uint32_t size = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int sq = 0; sq < 64; ++sq) {
      const Bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(sq / 8)) | ((file_bb(0) | file_bb(7)) & ~file_bb(sq % 8));
      for (int rook = 0; rook < 2; ++rook) {
        AttackTables::PextSlot& p = rook ? t.rook_pext[sq] : t.bishop_pext[sq];
        const Bitboard rays = rook ? t.rook_rays[sq] : t.bishop_rays[sq];
        if (pass == 0) {
          p.mask = rays & ~edges;
          p.offset = size;
          size += std::uint32_t{1} << popcount(p.mask);
          continue;
        }
        Bitboard occ = 0;
        do {  // every subset of the mask (Carry-Rippler)
          // (By the line masks, built already: ten times faster than walking the rays, which
          // matters to a process that reads one game.)
          const Bitboard attacks = rook ? t.rook_attacks(sq, occ) : t.bishop_attacks(sq, occ);
          table[p.offset + _pext_u64(occ, p.mask)] = static_cast<std::uint16_t>(_pext_u64(attacks, rays));
          occ = (occ - p.mask) & p.mask;
        } while (occ);
      }
    }
    if (pass == 0) table.assign(size, 0);
  }
  t.pext_attacks = table.data();
}
#endif

std::unique_ptr<AttackTables> build() {
  auto t = std::make_unique<AttackTables>();
  for (int s = 0; s < 64; ++s) {
    int f = file_of(static_cast<Square>(s)), r = rank_of(static_cast<Square>(s));
    auto add = [&](Bitboard& target, int df, int dr) {
      int nf = f + df, nr = r + dr;
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) target |= bb(nf + 8 * nr);
    };
    t->pawn[kWhite][s] = t->pawn[kBlack][s] = t->knight[s] = t->king[s] = 0;
    add(t->pawn[kWhite][s], -1, 1);
    add(t->pawn[kWhite][s], 1, 1);
    add(t->pawn[kBlack][s], -1, -1);
    add(t->pawn[kBlack][s], 1, -1);
    for (auto [df, dr] : {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
      add(t->knight[s], df, dr);
    for (int df = -1; df <= 1; ++df)
      for (int dr = -1; dr <= 1; ++dr)
        if (df || dr) add(t->king[s], df, dr);
  }
  // Each line as its two rays: the one towards smaller square indexes and the one towards larger.
  constexpr int kLineDirs[4][2][2] = {{{0, -1}, {0, 1}}, {{-1, 0}, {1, 0}}, {{-1, -1}, {1, 1}}, {{1, -1}, {-1, 1}}};
  for (int sq = 0; sq < 64; ++sq)
    for (int l = 0; l < 4; ++l) {
      LineMask& m = t->lines[sq][l];
      m.lower = ray(sq, kLineDirs[l][0]);
      m.upper = ray(sq, kLineDirs[l][1]);
      m.both = m.lower | m.upper;
    }
  for (int sq = 0; sq < 64; ++sq) {
    t->rook_rays[sq] = slide(sq, 0, kRookDirs);
    t->bishop_rays[sq] = slide(sq, 0, kBishopDirs);
  }
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      t->between[a][b] = t->line[a][b] = 0;
      if (a == b) continue;
      for (const bool rook : {true, false}) {
        const Bitboard* rays = rook ? t->rook_rays : t->bishop_rays;
        if (rays[a] & bb(b)) {
          t->line[a][b] = (rays[a] & rays[b]) | bb(a) | bb(b);
          t->between[a][b] = rook ? t->rook_attacks(a, bb(b)) & t->rook_attacks(b, bb(a))
                                  : t->bishop_attacks(a, bb(b)) & t->bishop_attacks(b, bb(a));
        }
      }
    }
  }
  for (int c = 0; c < 2; ++c)
    for (int kf = 0; kf < 8; ++kf)
      for (int rf = 0; rf < 8; ++rf) {
        const int base = c == kWhite ? 0 : 56;
        const int ksq = base + kf, rsq = base + rf;
        const bool king_side = rf > kf;
        const int kto = base + (king_side ? 6 : 2), rto = base + (king_side ? 5 : 3);
        const Bitboard king_path = t->between[ksq][kto] | bb(kto);
        t->castle_empty[c][kf][rf] = (king_path | t->between[rsq][rto] | bb(rto)) & ~(bb(ksq) | bb(rsq));
        t->castle_safe[c][kf][rf] = king_path | bb(ksq);
      }
#if PGNARC_HAVE_V3
  if (v3_generator_supported()) build_pext(*t);
#endif
  return t;
}

}  // namespace

PGNARC_NO_SANITIZE bool v3_generator_supported() {
#if PGNARC_HAVE_V3
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("x86-64-v3")) return false;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return false;
  const bool amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163;  // "AuthenticAMD"
  if (!amd) return true;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned family = ((eax >> 8) & 0xF) + ((eax >> 20) & 0xFF);
  return family >= 0x19;  // Zen 3 and later
#else
  return false;
#endif
}

// Never freed, so that no reader can see them destroyed while static objects are torn down.
const AttackTables& build_attack_tables() { return *build().release(); }

}  // namespace pgnarc::rules
