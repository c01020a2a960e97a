// The fast move model (internal; format specification 7.8): the frequencies of move coder 2,
// built for decoding speed. A position held by the opening book (7.8.1) takes its frequencies
// from the book's counts, with no score computed; any other has every legal move scored by a few
// lookups in joint tables of 8-bit weights, each indexed by several small facts of the position
// and the move at once (7.8.2-7.8.4), and the scores become frequencies as the move model's do
// (7.6, MOVE-MODEL-1 step 3).
//
// Features seen from the mover's side (a square XOR flip), "type" is PieceType - 1:
//   P  From[phase][type][from]
//   P  FromState[type][from class 4][their last-moved piece attacks it 2][moved last time 2]
//   P  Context[their last-moved type 0..6][in check 2][their last move captured 2][type]
//   M  To[phase][type][to] + ToByKing[their king's wing][type][to] + ToByOwnKing[our king's wing][type][to]
//   M  Tactic[type][victim none, P..Q][to class 4][check none, direct, discovered only][recapture 2]
//   M  Dist[type][distance of to to their king 0..8][distance of to to their last to-square 0..8]
//   M  Ours[type][distance of to to our last to-square 0..8][straight back 2]
//   M  Threat[pawn, knight][most valuable threatened none, P, minor, R, Q][fork 2]
//   M  Hang[type][our other piece en prise, class 1..4][capture 2][the move's piece attacks it 2]
//   M  Kick[type], Passed[rank], Promotion[N B R Q], Castle[side], CastlingLoss[king, rook], Shield
// (P: a feature of the moving piece, shared by its moves; M: of the move.)
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>

#include "codec/model/move_model.h"
#include "codec/model/opening_book.h"
#include "rules/bitboard.h"
#include "rules/movegen.h"

namespace pgnarc::codec::fast {

using model::History;

inline constexpr int kTypes = 6;
inline constexpr int kPhases = 5;
// The groups, in the order of their features (7.8.3, whose table gives the offsets too).
inline constexpr model::FeatureGroup kGroups[] = {
    {"to-square", "[phase][type][square]", kPhases * kTypes * 64},
    {"to-square by their king's wing", "[wing][type][square]", 3 * kTypes * 64},
    {"to-square by our king's wing", "[wing][type][square]", 3 * kTypes * 64},
    {"from-square", "[phase][type][square]", kPhases * kTypes * 64, model::Holder::kPiece},
    {"from-square state", "[type][class][attacked by their last-moved piece][moved last]", kTypes * 16,
     model::Holder::kPiece},
    {"context", "[their last-moved type][in check][their last move captured][type]", 7 * 2 * 2 * kTypes,
     model::Holder::kPiece},
    {"tactic", "[type][victim none, P..Q][to class][check none, direct, discovered][recapture]",
     kTypes * 6 * 4 * 3 * 2},
    {"distances", "[type][to their king][to their last to-square]", kTypes * 81},
    {"near our previous move", "[type][distance of to][straight back]", kTypes * 18},
    {"threat", "[pawn, knight][most valuable threatened none, P, minor, R, Q][fork]", 2 * 10},
    {"another piece en prise", "[type][class 1-4][quiet, capture][the move attacks it]", kTypes * 16},
    {"a pawn push could attack the to-square", "[type]", kTypes},
    {"passed pawn", "[relative rank]", 8},
    {"promotion", "[N B R Q]", 4},
    {"castling", "[king side, queen side]", 2},
    {"castling loss", "[king, rook]", 2, model::Holder::kBoth},
    {"king shield", "", 1, model::Holder::kPiece},
};
inline constexpr int kTo = model::offset_of(kGroups, "to-square");
inline constexpr int kToByTheirWing = model::offset_of(kGroups, "to-square by their king's wing");
inline constexpr int kToByOurWing = model::offset_of(kGroups, "to-square by our king's wing");
inline constexpr int kFrom = model::offset_of(kGroups, "from-square");
inline constexpr int kFromState = model::offset_of(kGroups, "from-square state");
inline constexpr int kContext = model::offset_of(kGroups, "context");
inline constexpr int kTactic = model::offset_of(kGroups, "tactic");
inline constexpr int kDist = model::offset_of(kGroups, "distances");
inline constexpr int kOurs = model::offset_of(kGroups, "near our previous move");
inline constexpr int kThreat = model::offset_of(kGroups, "threat");
inline constexpr int kHang = model::offset_of(kGroups, "another piece en prise");
inline constexpr int kKick = model::offset_of(kGroups, "a pawn push could attack the to-square");
inline constexpr int kPassedPawn = model::offset_of(kGroups, "passed pawn");
inline constexpr int kPromotion = model::offset_of(kGroups, "promotion");
inline constexpr int kCastling = model::offset_of(kGroups, "castling");
inline constexpr int kCastlingLoss = model::offset_of(kGroups, "castling loss");
inline constexpr int kKingShield = model::offset_of(kGroups, "king shield");
inline constexpr int kFeatures = model::features_of(kGroups);
static_assert(kFeatures == 8005);

// The weights W (fast_weights.cpp, written by tools/pgnarc-train --model fast).
extern const std::array<std::int8_t, kFeatures> kWeights;
// The opening book's bytes (7.8.1; fast_book.cpp, written by tools/pgnarc-train --model fast).
extern const std::span<const std::uint8_t> kBookBytes;

// The facts of a position computed once for all its moves: the move model's (7.6.2), of which
// the fast model reads a part (7.8.2; model::compute_facts).
using Facts = model::PlyFacts;

// Calls, for each legal move of `t` in canonical order (index i):
//   sink.piece(from), sink.piece_feature(k)   the moving piece's features, then per move
//   sink.move(i), sink.move_to(k, combined), sink.move_feature(k)
// where move_to names the To feature k (with ToByKing and ToByOwnKing: k + wing_offset,
// k + own_offset, as `Offsets` says) and `combined` the row of the pre-summed table.
struct Offsets {
  int combined;  // ((phase * 3 + their wing) * 3 + our wing) * kTypes * 64
  int wing, own;  // added to a To feature: its ToByKing and ToByOwnKing features
};
inline Offsets offsets_of(const Facts& f) {
  // (The facts give each king's wing as the move model's feature offset.)
  const int their_wing = (f.wing_base - model::kToByTheirWing) / (kTypes * 64);
  const int our_wing = (f.own_wing_base - model::kToByOurWing) / (kTypes * 64);
  Offsets o;
  o.combined = ((f.phase * 3 + their_wing) * 3 + our_wing) * kTypes * 64;
  o.wing = kToByTheirWing + their_wing * kTypes * 64 - kTo - f.phase * kTypes * 64;
  o.own = kToByOurWing + our_wing * kTypes * 64 - kTo - f.phase * kTypes * 64;
  return o;
}

template <PieceType kType, class Sliders, class Sink>
inline void piece_moves(const Position& pos, const rules::PieceTargets& t, const Facts& f, const Offsets& o, Sink& sink,
                        Square from, Bitboard targets, int index) {
  const rules::AttackTables& T = rules::attack_tables();
  constexpr int ti = kType - 1;
  const Color us = f.us;
  const int flip = f.flip;
  const int phase_base = (f.phase * kTypes + ti) * 64;
  const int comb_base = o.combined + ti * 64;
  const int rel_from = from ^ flip;
  // A square's class: 0 safe, 1 attacked and defended, 2 attacked by a piece worth less,
  // 3 attacked and not defended (by the bits lower << 2 | attacked << 1 | defended).
  static constexpr std::uint8_t kClass[8] = {0, 0, 3, 1, 2, 2, 2, 2};
  sink.piece(from);
  sink.piece_feature(kFrom + phase_base + rel_from);
  const bool again = from == f.our_last_to;
  {
    const int cls = kClass[(f.lower[kType] >> from & 1) << 2 | (f.their_attacks >> from & 1) << 1 |
                           (f.our_once >> from & 1)];
    sink.piece_feature(kFromState + ti * 16 + cls * 4 + static_cast<int>(f.last_attacks >> from & 1) * 2 + again);
  }
  sink.piece_feature(kContext + ((f.last_type * 2 + f.in_check) * 2 + f.last_captured) * kTypes + ti);
  bool passed = false, promoting = false;
  if constexpr (kType == kPawn) {
    if (f.our_king != kNoSquare) {
      const int df = file_of(from) - file_of(f.our_king);
      if (((f.our_king ^ flip) >> 3) == 0 && df <= 1 && df >= -1 && (rel_from >> 3) <= 2) sink.piece_feature(kKingShield);
    }
    passed = !(f.pawn_span >> from & 1);
    promoting = t.promoting >> from & 1;
  }
  if constexpr (kType == kRook) {
    if (f.castle_rooks >> from & 1) sink.piece_feature(kCastlingLoss + 1);
  }
  const bool disc = f.discoverers >> from & 1;
  // (Our piece en prise other than this one.)
  const int h = from == f.en_prise[0] ? 1 : 0;
  const int hanging = f.en_prise_class[h];
  const Square en_prise = f.en_prise[h];
  const Bitboard lower = f.lower[kType];
  const Square their_king = f.their_king;
  while (targets) {
    const Square to = rules::pop_lsb(targets);
    const Piece on_to = pos.piece_on(to);
    if constexpr (kType == kKing) {
      if (on_to != kNoPiece && color_of(on_to) == us) {
        // Castling (the king takes its own rook): the king's destination.
        const int side = to > from ? 0 : 1;
        const int rel_dest = make_square(side == 0 ? 6 : 2, rank_of(from)) ^ flip;
        sink.move(index++);
        sink.move_to(kTo + phase_base + rel_dest, comb_base + rel_dest);
        sink.move_feature(kCastling + side);
        continue;
      }
    }
    const bool en_passant = kType == kPawn && to == pos.ep_square();
    const int victim = en_passant ? static_cast<int>(kPawn) : static_cast<int>(type_of(on_to));  // 0 none
    const bool capture = victim != 0;
    // Defended by another of our pieces: a piece that attacks its to-square counts once
    // itself; a pawn's push does not attack it.
    const Bitboard defended = kType == kPawn && !capture ? f.our_once : f.our_twice;
    const int cls = kClass[(lower >> to & 1) << 2 | (f.their_attacks >> to & 1) << 1 | (defended >> to & 1)];
    const bool discovered = disc && !(T.line[their_king][from] >> to & 1);
    const int rel_to = to ^ flip;
    const bool recapture = capture && to == f.last_to;
    const int king_distance = their_king == kNoSquare ? 8 : model::distance(to, their_king);
    const int last_distance = model::distance(to, f.last_to);
    const int ours = kOurs + ti * 18 + model::distance(to, f.our_last_to) * 2 + (again && to == f.our_last_from);
    // Pawns' and knights' threats from the to-square, by the attack tables.
    int threat = -1;
    bool rescue = false;
    if constexpr (kType == kPawn || kType == kKnight) {
      const Bitboard hits = kType == kPawn ? T.pawn[us][to] : T.knight[to];
      const Bitboard threatened = hits & (f.higher[kType] | f.undefended);
      const Bitboard rq = f.their_queens | f.their_rooks;
      const int value = (threatened != 0) + ((threatened & (rq | f.their_minors)) != 0) + ((threatened & rq) != 0) +
                        ((threatened & f.their_queens) != 0);
      const bool direct = f.check_squares[kType] >> to & 1;
      const bool fork = threatened != 0 && (rules::more_than_one(threatened) || direct);
      threat = kThreat + ti * 10 + value * 2 + fork;
      rescue = hanging && (hits >> en_prise & 1);
    }
    const int moves = kType == kPawn && promoting ? 4 : 1;
    for (int p = 0; p < moves; ++p) {
      const PieceType acting = kType == kPawn && promoting ? static_cast<PieceType>(kKnight + p) : kType;
      sink.move(index++);
      sink.move_to(kTo + phase_base + rel_to, comb_base + rel_to);
      const bool direct = f.check_squares[acting] >> to & 1;
      const int check = direct ? 1 : discovered ? 2 : 0;
      sink.move_feature(kTactic + (((ti * 6 + victim) * 4 + cls) * 3 + check) * 2 + recapture);
      sink.move_feature(kDist + ti * 81 + king_distance * 9 + last_distance);
      sink.move_feature(ours);
      if constexpr (kType == kPawn || kType == kKnight) {
        if (!promoting) sink.move_feature(threat);
      }
      if (hanging) sink.move_feature(kHang + ti * 16 + ((hanging - 1) * 2 + capture) * 2 + rescue);
      if (f.pawn_kicks >> to & 1) sink.move_feature(kKick + ti);
      if constexpr (kType == kPawn) {
        if (promoting) sink.move_feature(kPromotion + p);
        if (passed) sink.move_feature(kPassedPawn + (rel_to >> 3));
      }
      if constexpr (kType == kKing) {
        if (f.castle_rooks) sink.move_feature(kCastlingLoss);
      }
    }
  }
}

// The features of every legal move of `t`, in canonical order (the movers taken type by type,
// each piece's first move index counted from the squares before it).
template <class Sliders, class Sink>
inline void enumerate_features(const Position& pos, const rules::PieceTargets& t, const Facts& f, Sink& sink) {
  std::uint8_t first[64];
  int n = 0;
  for (Bitboard movers = t.movers; movers;) {
    const Square from = rules::pop_lsb(movers);
    first[from] = static_cast<std::uint8_t>(n);
    n += rules::popcount(t.to[from]) * t.weight(from);
  }
  const Offsets o = offsets_of(f);
  const Color us = f.us;
  auto each = [&]<PieceType kType>() {
    for (Bitboard b = t.movers & pos.pieces(us, kType); b;) {
      const Square from = rules::pop_lsb(b);
      if (t.to[from]) fast::piece_moves<kType, Sliders>(pos, t, f, o, sink, from, t.to[from], first[from]);
    }
  };
  each.template operator()<kPawn>();
  each.template operator()<kKnight>();
  each.template operator()<kBishop>();
  each.template operator()<kRook>();
  each.template operator()<kQueen>();
  each.template operator()<kKing>();
}

// The frequencies f_0 .. f_{n-1} of the legal moves `t` of `pos` (n = t.total >= 1) outside the
// book, with the weights `weights` (kWeights unless training): their total.
std::uint32_t model_frequencies(const Position& pos, const rules::PieceTargets& t, const History& history,
                                std::uint32_t* freq, const std::int8_t* weights = kWeights.data());

// The builds behind model_frequencies: for every CPU, and for x86-64-v3 (PEXT slider lookups),
// which model_frequencies runs where the CPU can. The same frequencies (a test holds them so).
std::uint32_t model_frequencies_base(const Position& pos, const rules::PieceTargets& t, const History& history,
                                     std::uint32_t* freq, const std::int8_t* weights);
#if PGNARC_HAVE_V3
std::uint32_t model_frequencies_v3(const Position& pos, const rules::PieceTargets& t, const History& history,
                                   std::uint32_t* freq, const std::int8_t* weights);
#endif

// The same, by the plain enumeration (every feature added one by one), for the tests.
std::uint32_t model_frequencies_reference(const Position& pos, const rules::PieceTargets& t, const History& history,
                                          std::uint32_t* freq, const std::int8_t* weights = kWeights.data());

// The opening book (7.8.1): the counts of the moves played in a position, by canonical index.
using model::BookEntry;
using model::BookNode;
using model::book_frequencies;
// What identifies a position for the book (7.8.1): its pieces, side to move, castling rooks and
// en passant square, compared byte for byte (a hash only picks a slot).
struct BookKey {
  Bitboard by_type[6];
  Bitboard white;
  std::uint8_t side, ep;
  std::uint8_t castle_rook[4];
  std::uint8_t pad[2];
  bool operator==(const BookKey& o) const { return std::memcmp(this, &o, sizeof o) == 0; }
};
static_assert(sizeof(BookKey) == 64);
BookKey book_key(const Position& pos);
struct BookKeyHash {
  std::size_t operator()(const BookKey& k) const;
};

// Reads book bytes (7.8.1) depth first from the start position, as model::read_book_nodes says
// (false where they are malformed; no bytes are an empty book).
bool read_book(std::span<const std::uint8_t> bytes,
               const std::function<void(const Position&, std::span<const BookEntry>)>& visit);

// The book's node of `pos`, or null where it holds none (a position not of standard chess, or
// with fullmove number above kBookLastMove, never has one).
inline constexpr int kBookLastMove = 20;
const BookNode* book_node(const Position& pos);

// The fast model's frequencies of the legal moves `t` of `pos` (n >= 1): the book's where it
// holds the position, else the model's. Their total.
std::uint32_t frequencies(const Position& pos, const rules::PieceTargets& t, const History& history,
                          std::uint32_t* freq);

}  // namespace pgnarc::codec::fast
