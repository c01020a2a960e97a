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

// Magic multipliers found by the search in init_magics() below (seed 0x9E3779B97F4A7C15, squares in order).
// They are kept here so that start-up only fills the tables (milliseconds) instead of
// searching (a third of a second); init_magics() still checks each one and searches again for
// any that would collide, so an edit here cannot produce wrong attacks.
constexpr Bitboard kRookMagics[64] = {
    0x1080004008801020ULL,    0x0840092002C03000ULL,    0x1900200010400900ULL,
    0x0880100008000480ULL,    0x4200100420080200ULL,    0x8100020100080400ULL,
    0x0200040110886200ULL,    0x0200008040220411ULL,    0x0404800084400220ULL,
    0x0000401000402000ULL,    0x0086001081220440ULL,    0x0408800800100280ULL,
    0x000A001201040820ULL,    0x8848800200840080ULL,    0x4001000100040200ULL,
    0x0442000102105084ULL,    0x9080010020804100ULL,    0x0040404000201009ULL,
    0x0000808010002009ULL,    0x2200090021D00100ULL,    0x0008008008040080ULL,
    0x0004004002010040ULL,    0x0011040008015042ULL,    0x00000A0001768104ULL,
    0x0000800080204009ULL,    0x2010004140002001ULL,    0x9800200280100080ULL,
    0x1000100080080080ULL,    0x0442000A00049020ULL,    0x2100040080020080ULL,
    0x0800120400900148ULL,    0x0010040A00128541ULL,    0x2800804000800030ULL,
    0x1010002000400041ULL,    0x4000200011004100ULL,    0x0610008410800800ULL,
    0x0400802402800800ULL,    0xC100020080800400ULL,    0x0002000802000401ULL,
    0x0182085882000401ULL,    0x0220204000808000ULL,    0x2860100040024022ULL,
    0x0001002004110040ULL,    0x99101042000A0020ULL,    0x0004080004008080ULL,
    0x0010040002008080ULL,    0x2012004881020004ULL,    0x8300842444820011ULL,
    0x0088403882010200ULL,    0x0820400080210100ULL,    0x0110910040A00300ULL,
    0x0801100280080480ULL,    0x0242009008200600ULL,    0x1002000489500200ULL,
    0x0040800200010080ULL,    0x0091800041000080ULL,    0x0000209300488001ULL,
    0x04C1002414824001ULL,    0x020020000B001041ULL,    0x7000100004200901ULL,
    0x8002002004100802ULL,    0x30010002084C0007ULL,    0x0888221800813004ULL,
    0x4000002840840112ULL,
};
constexpr Bitboard kBishopMagics[64] = {
    0x10102002004A1420ULL,    0x8020040400584008ULL,    0x10510800811201C8ULL,
    0x5204042080000088ULL,    0x2204106880000002ULL,    0x1401042004000000ULL,
    0x0400880410042004ULL,    0x0028208200A02020ULL,    0x1500241990010E00ULL,
    0x8001200182020A40ULL,    0x40004101030B0000ULL,    0x8002041042000100ULL,
    0x4010011041020038ULL,    0x0000010421044000ULL,    0x1500210808020A00ULL,
    0x8000088400880520ULL,    0x0405004010040100ULL,    0x1005823210040108ULL,
    0x2708008102040011ULL,    0x4048200404009100ULL,    0x0018104101400024ULL,
    0x0003000601190101ULL,    0x8004803108491000ULL,    0x8014241200820800ULL,
    0x0006E080100C3040ULL,    0x0501044A11041800ULL,    0x9020300008004045ULL,
    0x0894080000220040ULL,    0x1001010083104000ULL,    0x5004030040900080ULL,
    0x000400422C012400ULL,    0x0002128698404812ULL,    0x1010108404900440ULL,
    0x0928021182084100ULL,    0x2006080409020024ULL,    0x1010202020180080ULL,
    0xA010008200202200ULL,    0x2098015100019004ULL,    0x0002041440810811ULL,
    0x802A02020000B098ULL,    0x0009015090004060ULL,    0x4000821082081001ULL,
    0x0100210040420800ULL,    0x0800004010488A00ULL,    0x2000081104004040ULL,
    0x4C8E029015000082ULL,    0x0420340322224842ULL,    0x1298260043400210ULL,
    0x0000822802400008ULL,    0x00008A0101600000ULL,    0x3040003412080021ULL,
    0x3040290220884800ULL,    0x4A1500401041004AULL,    0x8010200282020781ULL,
    0x0020203142209091ULL,    0x0070300600902110ULL,    0x0040808800B62048ULL,
    0x0000810400C44420ULL,    0x00080400440C0441ULL,    0x8340080020840411ULL,
    0x0000000104208200ULL,    0x0000800810D00080ULL,    0x0400530411080200ULL,
    0x4040702400932244ULL,
};

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

void init_magics(Magic* magics, const Bitboard* known, const int (*dirs)[2], std::vector<Bitboard>& table,
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
    bool use_known = known != nullptr;
    for (int i = 0; i < size;) {
      if (use_known) {
        m.magic = known[s];
        use_known = false;
      } else {
        do m.magic = rng.sparse();
        while (popcount((m.magic * m.mask) >> 56) < 6);
      }
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
  init_magics(t->rook, kRookMagics, kRookDirs, rook_table, rook_off);
  init_magics(t->bishop, kBishopMagics, kBishopDirs, bishop_table, bishop_off);
  // One contiguous table; pointers are fixed up once both are complete.
  t->slider_table = rook_table;
  t->slider_table.insert(t->slider_table.end(), bishop_table.begin(), bishop_table.end());
  for (int s = 0; s < 64; ++s) {
    t->rook[s].attacks = t->slider_table.data() + rook_off[s];
    t->bishop[s].attacks = t->slider_table.data() + rook_table.size() + bishop_off[s];
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
  return t;
}

}  // namespace

const AttackTables& attack_tables() {
  static const std::unique_ptr<AttackTables> tables = build();
  return *tables;
}

}  // namespace pgnarc::detail
