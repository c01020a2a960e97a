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

// xorshift64*: a fixed seed makes the magic search, and so the tables, the same on every run.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

void init_magics(Magic* magics, const int (*dirs)[2], std::vector<Bitboard>& table,
                 std::vector<std::size_t>& offsets) {
  Bitboard occupancy[4096];
  Bitboard reference[4096];
  int epoch[4096] = {};
  int current = 0;
  Rng rng{0x9E3779B97F4A7C15ULL};
  for (int s = 0; s < 64; ++s) {
    // Edge squares never block anything further along the ray, so they are not in the mask.
    Bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_of(static_cast<Square>(s)))) |
                     ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(static_cast<Square>(s))));
    Magic& m = magics[s];
    m.mask = slide(s, 0, dirs) & ~edges;
    int bits = popcount(m.mask);
    m.shift = static_cast<unsigned>(64 - bits);
    offsets[s] = table.size();
    table.resize(table.size() + (std::size_t{1} << bits));
    int size = 0;
    Bitboard b = 0;
    do {  // Carry-Rippler: every subset of the mask.
      occupancy[size] = b;
      reference[size] = slide(s, b, dirs);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Bitboard* entries = table.data() + offsets[s];
    for (int i = 0; i < size;) {
      do m.magic = rng.sparse();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++current;
      for (i = 0; i < size; ++i) {
        std::size_t idx = ((occupancy[i] & m.mask) * m.magic) >> m.shift;
        if (epoch[idx] < current) {
          epoch[idx] = current;
          entries[idx] = reference[i];
        } else if (entries[idx] != reference[i]) {
          break;
        }
      }
    }
  }
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
  std::vector<std::size_t> rook_off(64), bishop_off(64);
  std::vector<Bitboard> rook_table, bishop_table;
  init_magics(t->rook, kRookDirs, rook_table, rook_off);
  init_magics(t->bishop, kBishopDirs, bishop_table, bishop_off);
  // One contiguous table; pointers are fixed up once both are complete.
  t->slider_table = rook_table;
  t->slider_table.insert(t->slider_table.end(), bishop_table.begin(), bishop_table.end());
  for (int s = 0; s < 64; ++s) {
    t->rook[s].attacks = t->slider_table.data() + rook_off[s];
    t->bishop[s].attacks = t->slider_table.data() + rook_table.size() + bishop_off[s];
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
  return t;
}

}  // namespace

const AttackTables& attack_tables() {
  static const std::unique_ptr<AttackTables> tables = build();
  return *tables;
}

}  // namespace pgnarc::detail
