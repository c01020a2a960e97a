// The move model's per-position facts and frequencies (move_model.h).
#include "codec/move_model.h"
#include "codec/scores_v3.h"

namespace pgnarc::detail::model {

namespace {

// Non-pawn material of both sides, in minor-piece units (knight, bishop 1, rook 2, queen 4).
int material(const Position& pos) {
  int m = 0;
  for (Color c : {kWhite, kBlack})
    m += popcount(pos.pieces(c, kKnight)) + popcount(pos.pieces(c, kBishop)) + 2 * popcount(pos.pieces(c, kRook)) +
         4 * popcount(pos.pieces(c, kQueen));
  return m;
}

// The squares pawns of color `c` on `pawns` attack towards the a-file and towards the h-file.
void pawn_attack_directions(Bitboard pawns, Color c, Bitboard out[2]) {
  const Bitboard not_a = ~file_bb(0), not_h = ~file_bb(7);
  if (c == kWhite) {
    out[0] = (pawns & not_a) << 7;
    out[1] = (pawns & not_h) << 9;
  } else {
    out[0] = (pawns & not_a) >> 9;
    out[1] = (pawns & not_h) >> 7;
  }
}

// The squares knights on `knights` attack, in each of the eight directions.
void knight_attack_directions(Bitboard knights, Bitboard out[8]) {
  const Bitboard not_a = ~file_bb(0), not_h = ~file_bb(7);
  const Bitboard not_ab = ~(file_bb(0) | file_bb(1)), not_gh = ~(file_bb(6) | file_bb(7));
  out[0] = (knights & not_h) << 17;   // one file right, two ranks up
  out[1] = (knights & not_a) << 15;   // one file left, two ranks up
  out[2] = (knights & not_gh) << 10;  // two files right, one rank up
  out[3] = (knights & not_ab) << 6;   // two files left, one rank up
  out[4] = (knights & not_a) >> 17;   // one file left, two ranks down
  out[5] = (knights & not_h) >> 15;   // one file right, two ranks down
  out[6] = (knights & not_ab) >> 10;  // two files left, one rank down
  out[7] = (knights & not_gh) >> 6;   // two files right, one rank down
}

}  // namespace

template <class Sliders>
void compute_facts(const Position& pos, const History& history, PlyFacts& f) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.occupied();
  f.us = us;
  f.flip = us == kWhite ? 0 : 56;
  f.occ = occ;
  const int npm = material(pos);
  const int move = pos.fullmove_number();
  f.phase = npm >= 20 && move <= 10 ? 0 : npm >= 20 && move <= 20 ? 1 : npm >= 16 ? 2 : npm >= 8 ? 3 : 4;
  f.our_king = pos.king_square(us);
  f.their_king = pos.king_square(them);

  // Pawns and knights attack by shifts of their bitboards, one per direction: no square is
  // attacked twice from one direction, so counting attacks direction by direction counts them
  // piece by piece. Sliders and kings one by one.
  Bitboard pawn_dirs[2][2], knight_dirs[2][8];
  for (Color c : {kWhite, kBlack}) {
    pawn_attack_directions(pos.pieces(c, kPawn), c, pawn_dirs[c]);
    knight_attack_directions(pos.pieces(c, kKnight), knight_dirs[c]);
  }
  Bitboard* by_type = f.their_by_type;
  for (int t = 0; t < 7; ++t) by_type[t] = 0;
  by_type[kPawn] = pawn_dirs[them][0] | pawn_dirs[them][1];
  for (Bitboard a : knight_dirs[them]) by_type[kKnight] |= a;
  for (int t = kBishop; t <= kKing; ++t)
    for (Bitboard b = pos.pieces(them, static_cast<PieceType>(t)); b;)
      by_type[t] |= piece_attacks<Sliders>(T, static_cast<PieceType>(t), them, pop_lsb(b), occ);
  f.their_attacks = by_type[kPawn] | by_type[kKnight] | by_type[kBishop] | by_type[kRook] | by_type[kQueen] | by_type[kKing];
  f.attacked_lower[kNoPieceType] = 0;
  f.attacked_lower[kPawn] = 0;
  f.attacked_lower[kKnight] = f.attacked_lower[kBishop] = by_type[kPawn];
  f.attacked_lower[kRook] = by_type[kPawn] | by_type[kKnight] | by_type[kBishop];
  f.attacked_lower[kQueen] = f.attacked_lower[kRook] | by_type[kRook];
  f.attacked_lower[kKing] = f.their_attacks;

  f.our_once = f.our_twice = 0;
  const auto add_ours = [&f](Bitboard a) {
    f.our_twice |= f.our_once & a;
    f.our_once |= a;
  };
  add_ours(pawn_dirs[us][0]);
  add_ours(pawn_dirs[us][1]);
  f.our_pawn_attacks = f.our_once;
  for (Bitboard a : knight_dirs[us]) add_ours(a);
  for (int t = kBishop; t <= kKing; ++t)
    for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)); b;)
      add_ours(piece_attacks<Sliders>(T, static_cast<PieceType>(t), us, pop_lsb(b), occ));
  f.in_check = f.our_king != kNoSquare && (f.their_attacks >> f.our_king & 1);

  const Square k = f.their_king;
  f.discoverers = 0;
  for (int t = 0; t < 7; ++t) f.check_squares[t] = 0;
  if (k != kNoSquare) {
    f.check_squares[kPawn] = T.pawn[them][k];
    f.check_squares[kKnight] = T.knight[k];
    f.check_squares[kBishop] = Sliders::bishop(T, k, occ);
    f.check_squares[kRook] = Sliders::rook(T, k, occ);
    f.check_squares[kQueen] = f.check_squares[kBishop] | f.check_squares[kRook];
    const Bitboard rq = pos.pieces(us, kRook) | pos.pieces(us, kQueen);
    const Bitboard bq = pos.pieces(us, kBishop) | pos.pieces(us, kQueen);
    for (Bitboard s = (T.rook_rays[k] & rq) | (T.bishop_rays[k] & bq); s;) {
      const Bitboard between = T.between[k][pop_lsb(s)] & occ;
      if (between && !more_than_one(between)) f.discoverers |= between & pos.pieces(us);
    }
  }

  const Bitboard their_pieces = pos.pieces(them) & ~pos.pieces(them, kKing);
  f.undefended = their_pieces & ~f.their_attacks;
  // Their pieces worth more than each type (kValue: P 1, N B 3, R 5, Q 9, K 100).
  f.higher[kQueen] = f.higher[kKing] = 0;
  f.higher[kRook] = pos.pieces(them, kQueen);
  f.higher[kKnight] = f.higher[kBishop] = f.higher[kRook] | pos.pieces(them, kRook);
  f.higher[kPawn] = f.higher[kKnight] | pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  f.higher[kNoPieceType] = f.higher[kPawn] | pos.pieces(them, kPawn);

  f.last_to = history.last_to;
  f.our_last_from = history.our_last_from;
  f.our_last_to = history.our_last_to;
  f.last_captured = history.last_captured;
  f.our_last_captured = history.our_last_captured;
  f.last_type = history.last_type;
  f.our_pawns = pos.pieces(us, kPawn);
  f.their_pawns = pos.pieces(them, kPawn);
  {
    const Bitboard pushed = (them == kWhite ? f.their_pawns << 8 : f.their_pawns >> 8) & ~occ;
    const Bitboard kicks = them == kWhite ? ((pushed << 7) & ~file_bb(7)) | ((pushed << 9) & ~file_bb(0))
                                          : ((pushed >> 9) & ~file_bb(7)) | ((pushed >> 7) & ~file_bb(0));
    f.pawn_kicks = kicks & ~f.their_by_type[kPawn];
  }
  {
    const int n = f.our_king != kNoSquare ? popcount(T.king[f.our_king] & f.their_attacks) : 0;
    f.king_danger = n == 0 ? 0 : n <= 2 ? 1 : 2;
  }
  f.last_attacks = 0;
  if (history.last_to != kNoSquare) {
    const Piece p = pos.piece_on(history.last_to);
    if (p != kNoPiece && color_of(p) == them) f.last_attacks = piece_attacks<Sliders>(T, type_of(p), them, history.last_to, occ);
  }

  {
    // The squares behind their pawns on their files, seen from our side (towards our first rank).
    Bitboard behind = f.their_pawns;
    if (us == kWhite) {
      for (int i = 0; i < 3; ++i) behind |= behind >> (8 << i);
      behind >>= 8;
    } else {
      for (int i = 0; i < 3; ++i) behind |= behind << (8 << i);
      behind <<= 8;
    }
    f.pawn_span_sides = ((behind & ~file_bb(0)) >> 1) | ((behind & ~file_bb(7)) << 1);
    f.pawn_span = behind | f.pawn_span_sides;
  }

  f.diagonal_sliders = pos.pieces(kWhite, kBishop) | pos.pieces(kBlack, kBishop) | pos.pieces(kWhite, kQueen) |
                       pos.pieces(kBlack, kQueen);
  f.straight_sliders = pos.pieces(kWhite, kRook) | pos.pieces(kBlack, kRook) | pos.pieces(kWhite, kQueen) |
                       pos.pieces(kBlack, kQueen);

  {
    static constexpr int kClass[7] = {0, 1, 2, 2, 3, 4, 0};
    int n = 0;
    f.hanging_square[0] = f.hanging_square[1] = kNoSquare;
    f.hanging_class[0] = f.hanging_class[1] = 0;
    for (int t = kQueen; t >= kPawn && n < 2; --t)
      for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)) &
                        (f.attacked_lower[t] | (f.their_attacks & ~f.our_once));
           b && n < 2; ++n) {
        f.hanging_square[n] = pop_lsb(b);
        f.hanging_class[n] = kClass[t];
      }
  }

  f.our_pieces = pos.pieces(us);
  f.wing_base = kToByKing + (f.their_king == kNoSquare  ? 1
                             : file_of(f.their_king) < 3 ? 0
                             : file_of(f.their_king) < 5 ? 1
                                                         : 2) * kTypes * 64;
  f.own_wing_base = kToByOwnKing + (f.our_king == kNoSquare  ? 1
                                    : file_of(f.our_king) < 3 ? 0
                                    : file_of(f.our_king) < 5 ? 1
                                                              : 2) * kTypes * 64;
  f.our_sliders = pos.pieces(us, kBishop) | pos.pieces(us, kRook) | pos.pieces(us, kQueen);
  f.our_queens = pos.pieces(us, kQueen);
  f.our_rooks = pos.pieces(us, kRook);
  f.our_minors = pos.pieces(us, kKnight) | pos.pieces(us, kBishop);
  f.their_queens = pos.pieces(them, kQueen);
  f.their_rooks = pos.pieces(them, kRook);
  f.their_minors = pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  f.their_pawn_attacks = by_type[kPawn];
  f.king_zone = f.their_king != kNoSquare ? T.king[f.their_king] : 0;

  f.castle_rooks = 0;
  for (CastleSide side : {kKingSide, kQueenSide})
    if (const Square r = pos.castling_rook(us, side); r != kNoSquare) f.castle_rooks |= bb(r);
}

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
  // [phase][wing of their king][type][from]: kFrom and kFromByKing.
  std::int16_t stands[kPhases][3][kTypes * 64];
  // [type][from-square class][their least valuable attacker: none, P .. K][defended]: kFromSafety
  // and kFromAttacker.
  std::int16_t from_state[kTypes][4][7][2];
  // [phase][wing of their king][wing of our king][type][to]: kTo, kToByKing and kToByOwnKing.
  std::int16_t lands[kPhases][3][3][kTypes * 64];
  // [type][to-square class][victim: none, P .. K][attacked][recapture]: kToSafety, kCapture and
  // kRecapture. (A king is taken only under a variant, after a null move in check; its capture
  // feature is the one the index of 7.6 gives it, which lies past the type's five.)
  std::int16_t square[kTypes][4][7][2][2];
  // [type][distance to their last move's square][to our last move's][to their king]: kNearLast,
  // kNearOurLast and kKingDistance.
  std::int16_t distances[kTypes][9][9][9];
  // [type][attacks their last-moved piece][lands where it attacks][kick]: kVersusLast and kKick.
  std::int16_t versus[kTypes][2][2][2];
  // [type][none, higher, undefended][value class][fork]: kThreat, kThreatValue and kFork.
  std::int16_t threat[kTypes][3][4][2];
  // [type][mobility][squares next to their king: 0, 1, 2, 3 or more]: kMobility and kKingZone.
  std::int16_t mobility[kTypes][16][4];
  // [type][quiet, capture][balance + 9][check: none, direct, discovered, both]: kSee, kCheck and
  // kUnsafeCheck.
  std::int16_t check_see[kTypes][2][2 * kSeeRange + 1][4];

  explicit CombinedTables(const std::int8_t* w) {
    for (int phase = 0; phase < kPhases; ++phase)
      for (int wing = 0; wing < 3; ++wing)
        for (int own = 0; own < 3; ++own)
          for (int i = 0; i < kTypes * 64; ++i)
            lands[phase][wing][own][i] = static_cast<std::int16_t>(w[kTo + phase * kTypes * 64 + i] +
                                                                   w[kToByKing + wing * kTypes * 64 + i] +
                                                                   w[kToByOwnKing + own * kTypes * 64 + i]);
    for (int phase = 0; phase < kPhases; ++phase)
      for (int wing = 0; wing < 3; ++wing)
        for (int i = 0; i < kTypes * 64; ++i)
          stands[phase][wing][i] =
              static_cast<std::int16_t>(w[kFrom + phase * kTypes * 64 + i] + w[kFromByKing + wing * kTypes * 64 + i]);
    for (int ti = 0; ti < kTypes; ++ti) {
      for (int cls = 0; cls < 4; ++cls)
        for (int a = 0; a < 7; ++a)
          for (int defended = 0; defended < 2; ++defended)
            from_state[ti][cls][a][defended] = static_cast<std::int16_t>(
                w[kFromSafety + ti * 4 + cls] + (a ? w[kFromAttacker + (ti * 6 + a - 1) * 2 + defended] : 0));
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
            distances[ti][a][b][k] = static_cast<std::int16_t>(w[kNearLast + ti * 9 + a] + w[kNearOurLast + ti * 9 + b] +
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
                w[kSee + (ti * 2 + capture) * (2 * kSeeRange + 1) + b] + (check ? w[kCheck + ti * 3 + check - 1] : 0) +
                ((check & 1) && b < kSeeRange ? w[kUnsafeCheck + ti] : 0));
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
        lands_row(tables.lands[facts.phase][(facts.wing_base - kToByKing) / (kTypes * 64)]
                              [(facts.own_wing_base - kToByOwnKing) / (kTypes * 64)]),
        stands_row(tables.stands[facts.phase][(facts.wing_base - kToByKing) / (kTypes * 64)]),
        out(slots),
        score(slots + 1) {
    for (int ti = 0; ti < kTypes; ++ti)
      context[ti] = static_cast<std::int16_t>(
          (f.in_check ? w[kInCheck + ti] : 0) + (f.king_danger ? w[kKingDanger + (f.king_danger - 1) * kTypes + ti] : 0) +
          (f.last_type != kNoPieceType ? w[kReply + (f.last_type - 1) * kTypes + ti] : 0));
    for (int ti = 0; ti < kTypes; ++ti)
      for (int capture = 0; capture < 2; ++capture)
        after[ti][capture] = static_cast<std::int16_t>((f.last_captured ? w[kAfterCapture + ti * 2 + capture] : 0) +
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

#if PGNARC_HAVE_V3
// Slider attacks by PEXT lookups, for the x86-64-v3 build.
struct PextSliders {
  PGNARC_V3_TARGET static Bitboard bishop(const AttackTables& T, Square s, Bitboard occ) {
    return pext_bishop_attacks(T, s, occ);
  }
  PGNARC_V3_TARGET static Bitboard rook(const AttackTables& T, Square s, Bitboard occ) {
    return pext_rook_attacks(T, s, occ);
  }
};
#endif

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

}  // namespace pgnarc::detail::model

// frequencies() resolves to one build when the library is loaded (an ifunc, as the move
// generator's entry points in movegen.cpp).
#if PGNARC_HAVE_V3
extern "C" {
PGNARC_NO_SANITIZE static auto pgnarc_resolve_frequencies() -> decltype(&pgnarc::detail::model::frequencies_base) {
  return pgnarc::detail::v3_generator_supported() ? pgnarc::detail::model::frequencies_v3
                                                  : pgnarc::detail::model::frequencies_base;
}
}
namespace pgnarc::detail::model {
std::uint32_t frequencies(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                          const std::int8_t* weights) __attribute__((ifunc("pgnarc_resolve_frequencies")));
}  // namespace pgnarc::detail::model
#else
namespace pgnarc::detail::model {
std::uint32_t frequencies(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                          const std::int8_t* weights) {
  return frequencies_base(pos, t, history, freq, weights);
}
}  // namespace pgnarc::detail::model
#endif
