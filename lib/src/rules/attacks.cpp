#include <memory>

#include "rules/bitboard.h"

namespace pgnarc::detail {

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
      for (const auto* dirs : {kRookDirs, kBishopDirs}) {
        if (slide(a, 0, dirs) & bb(b)) {
          t->line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | bb(a) | bb(b);
          t->between[a][b] = slide(a, bb(b), dirs) & slide(b, bb(a), dirs);
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
  return t;
}

}  // namespace

const AttackTables& attack_tables() {
  static const std::unique_ptr<AttackTables> tables = build();
  return *tables;
}

}  // namespace pgnarc::detail
