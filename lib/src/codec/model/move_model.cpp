// The move model's per-position facts and frequencies (move_model.h): the exchange evaluation
// see() of spec 7.6.5 ("The exchange balance"), the facts of 7.6.2, and the scores (sums of the
// weights of 7.6.5's features) and frequencies of MOVE-MODEL-1 (7.6).
#include "codec/model/move_model.h"
#include "codec/model/model_facts.h"
#include "codec/model/scores_v3.h"

namespace pgnarc::codec::model {

using namespace pgnarc::rules;

// see(): the exchange on `to` (spec 7.6.5, "The exchange balance").
template <class Sliders>
int see(const Position& pos, const PlyFacts& f, Square to, int moved, int captured, Bitboard occ) {
  const AttackTables& T = attack_tables();
  Bitboard attackers =
      ((T.pawn[kBlack][to] & pos.pieces(kWhite, kPawn)) | (T.pawn[kWhite][to] & pos.pieces(kBlack, kPawn)) |
       (T.knight[to] & (pos.pieces(kWhite, kKnight) | pos.pieces(kBlack, kKnight))) |
       (T.king[to] & (pos.pieces(kWhite, kKing) | pos.pieces(kBlack, kKing))) |
       (Sliders::bishop(T, to, occ) & f.diagonal_sliders) | (Sliders::rook(T, to, occ) & f.straight_sliders)) &
      occ;
  const Bitboard diagonals = T.bishop_rays[to];
  // gain[d]: the balance for the side making capture d (0 = the move) if the exchange stops after it.
  // Each capture takes its piece off another square, so d stays below 64 (a variant's position
  // may hold more than 32 pieces).
  int gain[64];
  int d = 0;
  gain[0] = captured;
  int on_to = moved;  // the value of the piece now on `to`
  Color side = ~f.us;
  for (;;) {
    const Bitboard mine = attackers & pos.pieces(side);
    if (!mine) break;
    int t = kPawn;
    Bitboard b = 0;
    for (; t <= kKing; ++t)
      if ((b = mine & pos.pieces(side, static_cast<PieceType>(t)))) break;
    ++d;
    gain[d] = on_to - gain[d - 1];
    on_to = kValue[t];
    const Bitboard from = b & -b;
    occ ^= from;
    // A slider behind the capturer joins in along the line the capturer left: a diagonal (a
    // pawn, a bishop, a queen on a diagonal) or a rank or file (a rook, a queen on one).
    if (t != kKnight && t != kKing) {
      if (from & diagonals) attackers |= Sliders::bishop(T, to, occ) & f.diagonal_sliders;
      else attackers |= Sliders::rook(T, to, occ) & f.straight_sliders;
    }
    attackers &= occ;
    side = ~side;
  }
  // Each side stops capturing where going on would lose.
  for (; d > 0; --d) gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
  return gain[0];
}

namespace {

struct ScoreSink {
  const std::int8_t* w;
  int* out;  // where the current move's score goes: first a spare slot before the scores
  int* score;
  int base = 0, current = 0;
  void piece(Square) { base = 0; }
  void piece_feature(int k) { base += w[k]; }
  void move(int i) {
    *out = current;  // the move before (or the spare slot)
    out = score + i;
    current = base;
  }
  void move_feature(int k) { current += w[k]; }
  void move_feature_if(bool c, int k) { current += w[k] & -static_cast<int>(c); }
  void flush() { *out = current; }
};

// Sums of the weights of feature groups that a move takes together (CombinedSink), built once
// from kWeights.
struct CombinedTables {
  // [phase][wing of their king][type][from]: kFrom and kFromByTheirWing.
  std::int16_t stands[kPhases][3][kTypes * 64];
  // [type][from-square class][their least valuable attacker: none, P .. K][defended]: kFromSafety
  // and kFromAttacked.
  std::int16_t from_state[kTypes][4][7][2];
  // [phase][wing of their king][wing of our king][type][to]: kTo, kToByTheirWing and kToByOurWing.
  std::int16_t lands[kPhases][3][3][kTypes * 64];
  // [type][to-square class][victim: none, P .. K][attacked][recapture]: kToSafety, kCapture and
  // kRecapture. (A king is taken only under a variant, after a null move in check; its capture
  // feature is the one the index of 7.6 gives it, which lies past the type's five.)
  std::int16_t square[kTypes][4][7][2][2];
  // [type][distance to their last move's square][to our last move's][to their king]: kNearLast,
  // kNearOurPrevious and kKingDistance.
  std::int16_t distances[kTypes][9][9][9];
  // [type][attacks their last-moved piece][lands where it attacks][kick]: kVersusLast and kKick.
  std::int16_t versus[kTypes][2][2][2];
  // [type][none, higher, undefended][value class][fork]: kThreat, kThreatValue and kFork.
  std::int16_t threat[kTypes][3][4][2];
  // [type][mobility][squares next to their king: 0, 1, 2, 3 or more]: kMobility and kKingZone.
  std::int16_t mobility[kTypes][16][4];
  // [type][quiet, capture][balance + 9][check: none, direct, discovered, both]: kExchange, kCheck and
  // kCheckLosing.
  std::int16_t check_see[kTypes][2][2 * kSeeRange + 1][4];

  explicit CombinedTables(const std::int8_t* w) {
    for (int phase = 0; phase < kPhases; ++phase)
      for (int wing = 0; wing < 3; ++wing)
        for (int own = 0; own < 3; ++own)
          for (int i = 0; i < kTypes * 64; ++i)
            lands[phase][wing][own][i] = static_cast<std::int16_t>(w[kTo + phase * kTypes * 64 + i] +
                                                                   w[kToByTheirWing + wing * kTypes * 64 + i] +
                                                                   w[kToByOurWing + own * kTypes * 64 + i]);
    for (int phase = 0; phase < kPhases; ++phase)
      for (int wing = 0; wing < 3; ++wing)
        for (int i = 0; i < kTypes * 64; ++i)
          stands[phase][wing][i] =
              static_cast<std::int16_t>(w[kFrom + phase * kTypes * 64 + i] + w[kFromByTheirWing + wing * kTypes * 64 + i]);
    for (int ti = 0; ti < kTypes; ++ti) {
      for (int cls = 0; cls < 4; ++cls)
        for (int a = 0; a < 7; ++a)
          for (int defended = 0; defended < 2; ++defended)
            from_state[ti][cls][a][defended] = static_cast<std::int16_t>(
                w[kFromSafety + ti * 4 + cls] + (a ? w[kFromAttacked + (ti * 6 + a - 1) * 2 + defended] : 0));
      for (int cls = 0; cls < 4; ++cls)
        for (int victim = 0; victim < 7; ++victim)
          for (int attacked = 0; attacked < 2; ++attacked)
            for (int recapture = 0; recapture < 2; ++recapture)
              square[ti][cls][victim][attacked][recapture] = static_cast<std::int16_t>(
                  w[kToSafety + ti * 4 + cls] + (victim ? w[kCapture + (ti * 5 + victim - 1) * 2 + attacked] : 0) +
                  (recapture ? w[kRecapture + ti] : 0));
      for (int a = 0; a < 9; ++a)
        for (int b = 0; b < 9; ++b)
          for (int k = 0; k < 9; ++k)
            distances[ti][a][b][k] = static_cast<std::int16_t>(w[kNearLast + ti * 9 + a] + w[kNearOurPrevious + ti * 9 + b] +
                                                               w[kKingDistance + ti * 9 + k]);
      for (int hits_last = 0; hits_last < 2; ++hits_last)
        for (int hit_by_last = 0; hit_by_last < 2; ++hit_by_last)
          for (int kick = 0; kick < 2; ++kick)
            versus[ti][hits_last][hit_by_last][kick] =
                static_cast<std::int16_t>((hits_last ? w[kVersusLast + ti * 2] : 0) +
                                          (hit_by_last ? w[kVersusLast + ti * 2 + 1] : 0) + (kick ? w[kKick + ti] : 0));
      for (int kind = 0; kind < 3; ++kind)
        for (int vc = 0; vc < 4; ++vc)
          for (int fork = 0; fork < 2; ++fork)
            threat[ti][kind][vc][fork] = static_cast<std::int16_t>(
                kind == 0 ? 0 : w[kThreat + ti * 2 + kind - 1] + w[kThreatValue + ti * 4 + vc] + (fork ? w[kFork + ti] : 0));
      for (int safe = 0; safe < 16; ++safe)
        for (int zone = 0; zone < 4; ++zone)
          mobility[ti][safe][zone] =
              static_cast<std::int16_t>(w[kMobility + ti * 16 + safe] + (zone ? w[kKingZone + ti * 3 + zone - 1] : 0));
      for (int capture = 0; capture < 2; ++capture)
        for (int b = 0; b < 2 * kSeeRange + 1; ++b)
          for (int check = 0; check < 4; ++check)
            check_see[ti][capture][b][check] = static_cast<std::int16_t>(
                w[kExchange + (ti * 2 + capture) * (2 * kSeeRange + 1) + b] + (check ? w[kCheck + ti * 3 + check - 1] : 0) +
                ((check & 1) && b < kSeeRange ? w[kCheckLosing + ti] : 0));
    }
  }
};

const CombinedTables& combined_tables() {
  static const CombinedTables tables(kWeights.data());
  return tables;
}

inline int clamp_balance(int b) { return b < -kSeeRange ? -kSeeRange : b > kSeeRange ? kSeeRange : b; }

// The scoring sink with combined groups (CombinedSink); it puts off exchange evaluations to after
// the move loop (finish), which keeps the loop short.
template <class Sliders>
struct CombinedScoreSink {
  static constexpr bool kCombined = true;
  struct PendingSee {
    int move;
    const std::int16_t* row;  // check_see[type][capture][0] + check: balance b at row[(b + 9) * 4]
    Square to;
    std::int8_t moved, captured;
    Bitboard occ;
  };
  const Position& pos;
  const PlyFacts& f;
  const std::int8_t* w;
  const CombinedTables& c;
  const std::int16_t* lands_row;  // lands[phase][wing][own wing]
  const std::int16_t* stands_row;  // stands[phase][wing]
  std::int16_t context[kTypes];  // kInCheck, kKingDanger and kReply of each type
  int* out;  // where the current move's score goes: first a spare slot before the scores
  int* score;
  int base = 0, current = 0, index = 0;
  std::int16_t after[kTypes][2];
  int pending_count = 0;
  PendingSee pending[kMaxLegalMoves];

  CombinedScoreSink(const Position& p, const PlyFacts& facts, const std::int8_t* weights, const CombinedTables& tables,
                    int* slots)
      : pos(p),
        f(facts),
        w(weights),
        c(tables),
        lands_row(tables.lands[facts.phase][(facts.wing_base - kToByTheirWing) / (kTypes * 64)]
                              [(facts.own_wing_base - kToByOurWing) / (kTypes * 64)]),
        stands_row(tables.stands[facts.phase][(facts.wing_base - kToByTheirWing) / (kTypes * 64)]),
        out(slots),
        score(slots + 1) {
    for (int ti = 0; ti < kTypes; ++ti)
      context[ti] = static_cast<std::int16_t>(
          (f.in_check ? w[kInCheck + ti] : 0) + (f.king_danger ? w[kKingDanger + (f.king_danger - 1) * kTypes + ti] : 0) +
          (f.last_type != kNoPieceType ? w[kReply + (f.last_type - 1) * kTypes + ti] : 0));
    for (int ti = 0; ti < kTypes; ++ti)
      for (int capture = 0; capture < 2; ++capture)
        after[ti][capture] = static_cast<std::int16_t>((f.last_captured ? w[kAfterTheirCapture + ti * 2 + capture] : 0) +
                                                       (f.our_last_captured ? w[kAfterOurCapture + ti * 2 + capture] : 0));
  }
  void piece(Square) { base = 0; }
  void piece_feature(int k) { base += w[k]; }
  void move(int i) {
    *out = current;
    out = score + i;
    current = base;
    index = i;
  }
  void move_feature(int k) { current += w[k]; }
  void move_feature_if(bool cond, int k) { current += w[k] & -static_cast<int>(cond); }
  void stands(int ti, int type_from, int cls, int attacker, bool defended) {
    base += stands_row[type_from] + c.from_state[ti][cls][attacker][defended] + context[ti];
  }
  void lands(int type_to) { current += lands_row[type_to]; }
  void square(int ti, int cls, int victim, bool attacked, bool recapture) {
    current += c.square[ti][cls][victim][attacked][recapture];
  }
  void distances(int ti, int last, int our_last, int king) { current += c.distances[ti][last][our_last][king]; }
  void versus(int ti, bool hits_last, bool hit_by_last, bool kick) { current += c.versus[ti][hits_last][hit_by_last][kick]; }
  void threat(int ti, int kind, int value_class, bool fork) { current += c.threat[ti][kind][value_class][fork]; }
  void mobility(int ti, int safe, int zone) { current += c.mobility[ti][safe][zone]; }
  void balance(int ti, bool capture, int check, int b) {
    current += c.check_see[ti][capture][clamp_balance(b) + kSeeRange][check];
  }
  void see_for(int ti, bool capture, int check, Square to, int moved, int captured, Bitboard occ) {
    pending[pending_count++] = PendingSee{index, &c.check_see[ti][capture][0][check], to, static_cast<std::int8_t>(moved),
                                          static_cast<std::int8_t>(captured), occ};
  }
  void after_captures(int ti, bool capture) { current += after[ti][capture]; }
  void finish() {
    *out = current;
    for (int i = 0; i < pending_count; ++i) {
      const PendingSee& p = pending[i];
      const int b = see<Sliders>(pos, f, p.to, p.moved, p.captured, p.occ);
      score[p.move] += p.row[(clamp_balance(b) + kSeeRange) * 4];
    }
  }
};

template <class Sliders, bool kV3 = false>
std::uint32_t frequencies_with(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                               const std::int8_t* weights) {
  PlyFacts f;
  compute_facts<Sliders>(pos, history, f);
  int slots[kMaxLegalMoves + 1];
  int* const score = slots + 1;
  if (weights == kWeights.data()) {
    CombinedScoreSink<Sliders> sink(pos, f, weights, combined_tables(), slots);
    enumerate_features<Sliders>(pos, t, f, sink);
    sink.finish();
  } else {
    ScoreSink sink{weights, slots, score};
    enumerate_features<Sliders>(pos, t, f, sink);
    sink.flush();
  }
#if PGNARC_HAVE_V3
  if constexpr (kV3) return frequencies_of_scores_v3(score, t.total, freq);
#endif
  return frequencies_of_scores(score, t.total, freq);
}


}  // namespace

std::uint32_t frequencies_base(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                               const std::int8_t* weights) {
  return frequencies_with<LineSliders>(pos, t, history, freq, weights);
}

std::uint32_t frequencies_reference(const Position& pos, const PieceTargets& t, const History& history,
                                    std::uint32_t* freq, const std::int8_t* weights) {
  PlyFacts f;
  compute_facts<LineSliders>(pos, history, f);
  int slots[kMaxLegalMoves + 1];
  int* const score = slots + 1;
  ScoreSink sink{weights, slots, score};
  enumerate_features<LineSliders>(pos, t, f, sink);
  sink.flush();
  return frequencies_of_scores(score, t.total, freq);
}

#if PGNARC_HAVE_V3
// With everything it calls inlined into it (flatten), so that the PEXT lookups and the rest are
// built for x86-64-v3 too.
PGNARC_V3_TARGET __attribute__((flatten)) std::uint32_t frequencies_v3(const Position& pos, const PieceTargets& t,
                                                                       const History& history, std::uint32_t* freq,
                                                                       const std::int8_t* weights) {
  return frequencies_with<PextSliders, true>(pos, t, history, freq, weights);
}
#endif

template void compute_facts<LineSliders>(const Position&, const History&, PlyFacts&);
template int see<LineSliders>(const Position&, const PlyFacts&, Square, int, int, Bitboard);

}  // namespace pgnarc::codec::model

// frequencies() resolves to one build when the library is loaded (an ifunc, as the move
// generator's entry points in movegen.cpp).
#if PGNARC_HAVE_V3
extern "C" {
PGNARC_NO_SANITIZE static auto pgnarc_resolve_frequencies() -> decltype(&pgnarc::codec::model::frequencies_base) {
  return pgnarc::rules::v3_generator_supported() ? pgnarc::codec::model::frequencies_v3
                                                  : pgnarc::codec::model::frequencies_base;
}
}
namespace pgnarc::codec::model {
std::uint32_t frequencies(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                          const std::int8_t* weights) __attribute__((ifunc("pgnarc_resolve_frequencies")));
}  // namespace pgnarc::codec::model
#else
namespace pgnarc::codec::model {
std::uint32_t frequencies(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                          const std::int8_t* weights) {
  return frequencies_base(pos, t, history, freq, weights);
}
}  // namespace pgnarc::codec::model
#endif
