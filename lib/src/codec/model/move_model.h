// The move model (internal): an integer-only function from a position, and the move that led to
// it, to one positive frequency per legal move, in the canonical order (format specification,
// "The move model"). A move's score is the sum of the weights of its features (each a small
// fact about the move, seen from the mover's side); its frequency falls by half for every 16
// points it scores below the best move. The weights are fitted by tools/pgnarc-train.
//
// The features are enumerated in one place (enumerate_features) for both the coder, which sums
// weights, and the trainer, which collects feature numbers.
#pragma once

#include <array>
#include <cstdint>

#include "codec/model/feature_groups.h"
#include "rules/bitboard.h"
#include "rules/movegen.h"

namespace pgnarc::codec::model {

// Feature groups: each is a run of feature numbers from its offset. Everything is seen from the
// mover's side: squares are relative (a square XOR flip, rank 1 is the mover's first rank),
// "type" is the moving piece's type (PieceType - 1; a promoting pawn is a pawn), "us" the side to
// move. The phase is 0 while at least 20 units of non-pawn material (minor 1, rook 2, queen 4,
// both sides) stand and it is move 10 or before, 1 likewise by move 20, then 2, 3, 4 for at
// least 16, at least 8, under 8 units. Distances are king distances (max of file and rank
// distance), 8 where the other square does not exist. A group's holder says whether its
// features are the piece's (shared by all moves of a piece) or the move's; castling moves get
// only kTo (the king's destination) and kCastling besides the piece features.
inline constexpr int kPhases = 5;
inline constexpr int kTypes = 6;  // pawn .. king, as PieceType - 1
inline constexpr int kSeeRange = 9;  // exchange balances -9 .. 9 pawns
// The groups, in the order of their features (7.6.5, whose tables give the offsets too).
inline constexpr FeatureGroup kGroups[] = {
    // [phase][type][to]: where the piece lands.
    {"to-square", "[phase][type][square]", kPhases * kTypes * 64},
    // [phase][type][from]: where the piece stands.
    {"from-square", "[phase][type][square]", kPhases * kTypes * 64, Holder::kPiece},
    // [type][victim P..Q][the opponent attacks the to-square]: a capture (en passant: a pawn).
    {"capture", "[type][victim][to attacked]", kTypes * 5 * 2},
    // [type][class] of the to-square: 0 not attacked by them; 1 attacked, none by a piece worth less
    // than the mover, and defended by another piece of ours; 2 attacked by a piece worth less than
    // the mover (any square for the king that they attack); 3 attacked, not by a lower piece, and not
    // defended by another piece of ours.
    {"to-square safety", "[type][class]", kTypes * 4},
    // [type][class] of the from-square: 0 not attacked; 1 attacked and defended; 2 attacked by a
    // lower piece; 3 attacked and undefended.
    {"from-square safety", "[type][class]", kTypes * 4, Holder::kPiece},
    // [type][direct, discovered, both]: the move checks (direct: the piece, or the promoted piece,
    // attacks their king from the to-square; discovered: the mover unmasks one of our sliders).
    {"check", "[type][direct, discovered, both]", kTypes * 3},
    // [type][higher, undefended]: from the to-square the piece attacks one of their pieces (not the
    // king) worth more than itself; else one they do not defend.
    {"threat (higher, undefended)", "[type][higher, undefended]", kTypes * 2},
    // [type]: a capture on the square where the opponent's last move landed.
    {"recapture", "[type]", kTypes},
    // [type]: the opponent's last-moved piece attacks the piece.
    {"evade", "[type]", kTypes, Holder::kPiece},
    // [type]: we are in check.
    {"in check", "[type]", kTypes, Holder::kPiece},
    // [N B R Q]: the promotion piece.
    {"promotion", "[N B R Q]", 4},
    // [king side, queen side]: castling.
    {"castling", "[king side, queen side]", 2},
    // [relative rank of to]: a move of a passed pawn (no enemy pawn ahead on its or a next file).
    {"passed pawn", "[relative rank]", 8},
    // P: a pawn on the first three ranks within a file of our king, which is on its first rank.
    {"king shield", "", 1, Holder::kPiece},
    // [king, rook]: M a king move (not castling) while we may castle; P a rook that may castle.
    {"castling loss", "[king, rook]", 2, Holder::kBoth},
    // [type][distance from the to-square to their king].
    {"king distance", "[type][distance, none]", kTypes * 9},
    // [type][quiet, capture][balance + 9]: the exchange on the to-square, clamped to -9 .. 9 pawns:
    // the victim's value (0 quiet) if they do not attack the to-square; that less the mover's
    // (promoted piece's) value if they do and no other piece of ours attacks it and none of our
    // sliders stands on the line through the from- and to-squares; else see().
    {"exchange on the to-square", "[type][quiet, capture][balance]", kTypes * 2 * (2 * kSeeRange + 1)},
    // [class 1 pawn, 2 minor, 3 rook, 4 queen][type][quiet, capture]: our most valuable piece en
    // prise (not the king; attacked by a lower piece, or attacked and undefended) other than the
    // mover, if any.
    {"another piece en prise", "[class][type][quiet, capture]", 4 * kTypes * 2},
    // [class]: that piece en prise is attacked by the mover from its to-square (defended).
    {"defends the piece en prise", "[class]", 4},
    // [type]: the piece our previous move moved (it stands where that move landed).
    {"the piece moved last", "[type]", kTypes, Holder::kPiece},
    // [type]: that piece goes straight back to where it came from.
    {"straight back", "[type]", kTypes},
    // [type][distance from the to-square to where the opponent's last move landed].
    {"near the opponent's last move", "[type][distance of to]", kTypes * 9},
    // [type][distance from the from-square to where the opponent's last move landed].
    {"from near the opponent's last move", "[type][distance of from]", kTypes * 9, Holder::kPiece},
    // [type][distance from the to-square to where our previous move landed].
    {"near our previous move", "[type][distance of to]", kTypes * 9},
    // [type][count, 15 for 15 or more]: squares the piece attacks from the to-square (after the
    // move) that no enemy pawn attacks and that held none of our pieces before the move.
    {"mobility", "[type][safe squares attacked]", kTypes * 16},
    // [type][1, 2, 3 or more]: squares next to their king the piece attacks from the to-square.
    {"attacks next to their king", "[type][1, 2, 3+]", kTypes * 3},
    // [wing of their king: files a-c, d-e (or no king), f-h][type][to].
    {"to-square by their king's wing", "[wing][type][square]", 3 * kTypes * 64},
    // [type]: a fork: from the to-square the piece threatens (as kThreat) two pieces, or one while
    // checking directly.
    {"fork", "[type]", kTypes},
    // [type][pawn, minor, rook, queen]: the most valuable piece threatened (as kThreat).
    {"threat (most valuable threatened)", "[type][most valuable threatened]", kTypes * 4},
    // [type][their least valuable attacker P..K][defended by us]: the from-square is attacked.
    {"from-square attacked", "[type][their least attacker][defended]", kTypes * 6 * 2, Holder::kPiece},
    // [type]: a direct check whose exchange balance (kExchange) is negative.
    {"check losing the exchange", "[type]", kTypes},
    // [type][count - 1, 15 for 16 or more]: the piece's legal target squares.
    {"the piece's targets", "[type][count]", kTypes * 16, Holder::kPiece},
    // [type][pawn, minor, rook, queen]: the move leaves undefended a piece of ours that they attack
    // and that only the mover defended (it no longer attacks it from the to-square); the most
    // valuable such piece.
    {"leaves a piece undefended", "[type][most valuable]", kTypes * 4},
    // [type][quiet, capture]: the opponent's last move captured.
    {"after their capture", "[type][quiet, capture]", kTypes * 2},
    // [type][quiet, capture]: our previous move captured.
    {"after our capture", "[type][quiet, capture]", kTypes * 2},
    // [type of their last-moved piece][type]: the opponent's last move moved that type of piece
    // (for castling the king).
    {"reply", "[their last-moved type][type]", kTypes * kTypes, Holder::kPiece},
    // [type][attacks it, lands where it attacks]: the piece attacks the opponent's last-moved piece
    // from the to-square; the to-square is attacked by that piece.
    {"versus their last-moved piece", "[type][attacks it, attacked by it]", kTypes * 2},
    // [rook, queen][open, half-open]: a rook or queen move to a file without pawns, or without
    // pawns of ours.
    {"file", "[rook, queen][open, half-open]", 4},
    // [isolated, doubled, passed]: after a pawn move (not a promotion) no pawn of ours stands on a
    // file next to the to-square; another pawn of ours stands on its file; no enemy pawn stands ahead
    // of it on its file or a file next to it.
    {"pawn shape after the move", "[isolated, doubled, passed]", 3},
    // [wing of their king: files a-c, d-e (or no king), f-h][type][from].
    {"from-square by their king's wing", "[wing][type][square]", 3 * kTypes * 64, Holder::kPiece},
    // [type][count, 15 for 15 or more]: the piece's mobility where it stands (as kMobility).
    {"mobility where the piece stands", "[type][count]", kTypes * 16, Holder::kPiece},
    // [squares next to our king they attack: 1-2, 3 or more][type].
    {"our king attacked around", "[1-2, 3+][type]", 2 * kTypes, Holder::kPiece},
    // [knight, bishop]: an outpost: the to-square is defended by a pawn of ours, and no enemy pawn
    // on a file next to it stands ahead of it (none can ever attack it).
    {"outpost", "[knight, bishop]", 2},
    // [type]: the to-square is one an enemy pawn could attack after a single push to an empty square
    // (and no enemy pawn attacks it now).
    {"a pawn push could attack the to-square", "[type]", kTypes},
    // [wing of our king: files a-c, d-e (or no king), f-h][type][to].
    {"to-square by our king's wing", "[wing][type][square]", 3 * kTypes * 64},
};
inline constexpr int kTo = offset_of(kGroups, "to-square");
inline constexpr int kFrom = offset_of(kGroups, "from-square");
inline constexpr int kCapture = offset_of(kGroups, "capture");
inline constexpr int kToSafety = offset_of(kGroups, "to-square safety");
inline constexpr int kFromSafety = offset_of(kGroups, "from-square safety");
inline constexpr int kCheck = offset_of(kGroups, "check");
inline constexpr int kThreat = offset_of(kGroups, "threat (higher, undefended)");
inline constexpr int kRecapture = offset_of(kGroups, "recapture");
inline constexpr int kEvade = offset_of(kGroups, "evade");
inline constexpr int kInCheck = offset_of(kGroups, "in check");
inline constexpr int kPromotion = offset_of(kGroups, "promotion");
inline constexpr int kCastling = offset_of(kGroups, "castling");
inline constexpr int kPassedPawn = offset_of(kGroups, "passed pawn");
inline constexpr int kKingShield = offset_of(kGroups, "king shield");
inline constexpr int kCastlingLoss = offset_of(kGroups, "castling loss");
inline constexpr int kKingDistance = offset_of(kGroups, "king distance");
inline constexpr int kExchange = offset_of(kGroups, "exchange on the to-square");
inline constexpr int kOtherEnPrise = offset_of(kGroups, "another piece en prise");
inline constexpr int kDefendsEnPrise = offset_of(kGroups, "defends the piece en prise");
inline constexpr int kMovedLast = offset_of(kGroups, "the piece moved last");
inline constexpr int kStraightBack = offset_of(kGroups, "straight back");
inline constexpr int kNearLast = offset_of(kGroups, "near the opponent's last move");
inline constexpr int kFromNearLast = offset_of(kGroups, "from near the opponent's last move");
inline constexpr int kNearOurPrevious = offset_of(kGroups, "near our previous move");
inline constexpr int kMobility = offset_of(kGroups, "mobility");
inline constexpr int kKingZone = offset_of(kGroups, "attacks next to their king");
inline constexpr int kToByTheirWing = offset_of(kGroups, "to-square by their king's wing");
inline constexpr int kFork = offset_of(kGroups, "fork");
inline constexpr int kThreatValue = offset_of(kGroups, "threat (most valuable threatened)");
inline constexpr int kFromAttacked = offset_of(kGroups, "from-square attacked");
inline constexpr int kCheckLosing = offset_of(kGroups, "check losing the exchange");
inline constexpr int kTargets = offset_of(kGroups, "the piece's targets");
inline constexpr int kLeavesUndefended = offset_of(kGroups, "leaves a piece undefended");
inline constexpr int kAfterTheirCapture = offset_of(kGroups, "after their capture");
inline constexpr int kAfterOurCapture = offset_of(kGroups, "after our capture");
inline constexpr int kReply = offset_of(kGroups, "reply");
inline constexpr int kVersusLast = offset_of(kGroups, "versus their last-moved piece");
inline constexpr int kFile = offset_of(kGroups, "file");
inline constexpr int kPawnShape = offset_of(kGroups, "pawn shape after the move");
inline constexpr int kFromByTheirWing = offset_of(kGroups, "from-square by their king's wing");
inline constexpr int kFromMobility = offset_of(kGroups, "mobility where the piece stands");
inline constexpr int kKingDanger = offset_of(kGroups, "our king attacked around");
inline constexpr int kOutpost = offset_of(kGroups, "outpost");
inline constexpr int kKick = offset_of(kGroups, "a pawn push could attack the to-square");
inline constexpr int kToByOurWing = offset_of(kGroups, "to-square by our king's wing");
inline constexpr int kFeatures = features_of(kGroups);

// A move's feature count is at most this: 13 piece features (kFrom, kFromSafety, kFromAttacked,
// kEvade, kMovedLast, kFromNearLast, kInCheck, kKingDanger, kFromByTheirWing, kReply, kFromMobility,
// kTargets, and kKingShield or kCastlingLoss) and 30 move features (a pawn's: kTo, kToSafety,
// kToByTheirWing, kToByOurWing, kCapture, kRecapture, kCheck, kThreat, kThreatValue, kFork, kLeavesUndefended, kStraightBack,
// kNearLast, kMobility, kKingZone, kNearOurPrevious, kDefendsEnPrise, kOtherEnPrise, kPassedPawn, kKingDistance, kExchange,
// kCheckLosing, kAfterTheirCapture, kAfterOurCapture, kVersusLast twice, kKick, and kPawnShape three
// times or else kPromotion; other types have fewer).
inline constexpr int kMaxMoveFeatures = 43;

// What the model knows of the line before the position: where the opponent's last move took its
// piece from and put it (for castling, the king's squares), and the same of our own move before
// it, and whether each captured; kNoSquare (and false) where there is no such move (the first
// plies of a game, and after a null move).
struct History {
  Square last_from = kNoSquare, last_to = kNoSquare;
  Square our_last_from = kNoSquare, our_last_to = kNoSquare;
  bool last_captured = false;      // the opponent's last move captured
  bool our_last_captured = false;  // our move before it captured
  PieceType last_type = kNoPieceType;  // the type of the opponent's last-moved piece
};

// Facts about a position computed once for all of its moves.
struct PlyFacts {
  Color us;
  int flip;  // 0 for White, 56 for Black: a square XOR flip is the square seen from the mover's side
  int phase;
  bool in_check;
  Square their_king;
  Bitboard occ;
  Bitboard their_attacks;  // A (7.6.2): squares the opponent attacks
  Bitboard lower[7];       // lower[x]: by type, squares the opponent attacks with a piece worth less
  Bitboard our_once, our_twice;  // squares we attack at least once, at least twice
  Bitboard check_squares[7];   // by type: squares from which a piece of that type attacks their king
  Bitboard discoverers;        // our pieces alone between one of our sliders and their king
  Bitboard higher[7];          // by type: their pieces (not the king) worth more
  Bitboard undefended;         // their pieces (not the king) they do not attack
  Bitboard last_attacks;       // squares the opponent's last-moved piece attacks
  // The squares an enemy pawn stands ahead of (from our side) on a next file, and on the same
  // file or a next one: our pawn on a square outside `pawn_span` is passed; a knight or bishop
  // on a square outside `pawn_span_sides` no enemy pawn can ever attack.
  Bitboard pawn_span_sides, pawn_span;
  Bitboard castle_rooks;       // our rooks that may still castle
  Square last_to;
  Square our_last_from, our_last_to;
  bool last_captured, our_last_captured;
  PieceType last_type;
  Bitboard our_pawns, their_pawns;
  Bitboard our_pawn_attacks;
  Bitboard pawn_kicks;  // squares an enemy pawn could attack after one push, not attacked by one now
  int king_danger;  // squares next to our king they attack: 0 none, 1 one or two, 2 three or more
  Square our_king;
  // H1 and H2 (7.6.2): our two most valuable pieces en prise (not the king; attacked by a piece
  // worth less, or attacked and not defended), by square and value class (0 none, 1 pawn, 2 minor,
  // 3 rook, 4 queen).
  Square en_prise[2];
  int en_prise_class[2];
  Bitboard their_attacks_of[7];  // A[x]: by type, squares the opponent attacks with a piece of that type
  Bitboard our_pieces, their_pawn_attacks;
  Bitboard their_queens, their_rooks, their_minors;
  Bitboard our_queens, our_rooks, our_minors;
  Bitboard king_zone;  // the squares next to their king
  Bitboard our_sliders;       // our bishops, rooks and queens
  int own_wing_base;  // kToByOurWing + our king's wing (likewise) * kTypes * 64
  int wing_base;  // kToByTheirWing + their king's wing (a-c 0, d-e or no king 1, f-h 2) * kTypes * 64
  Bitboard diagonal_sliders;  // bishops and queens of both sides
  Bitboard straight_sliders;  // rooks and queens of both sides
};

inline constexpr int kValue[7] = {0, 1, 3, 3, 5, 9, 100};

// How the model finds slider attacks: by the line masks, on any CPU. The x86-64-v3 build of
// frequencies() (move_model.cpp) passes a class of the same shape that looks them up by PEXT;
// both give the same sets.
struct LineSliders {
  static Bitboard bishop(const rules::AttackTables& T, Square s, Bitboard occ) { return T.bishop_attacks(s, occ); }
  static Bitboard rook(const rules::AttackTables& T, Square s, Bitboard occ) { return T.rook_attacks(s, occ); }
};

template <class Sliders = LineSliders>
inline Bitboard piece_attacks(const rules::AttackTables& T, PieceType t, Color c, Square s, Bitboard occ) {
  switch (t) {
    case kPawn: return T.pawn[c][s];
    case kKnight: return T.knight[s];
    case kBishop: return Sliders::bishop(T, s, occ);
    case kRook: return Sliders::rook(T, s, occ);
    case kQueen: return Sliders::bishop(T, s, occ) | Sliders::rook(T, s, occ);
    case kKing: return T.king[s];
    default: return 0;
  }
}

// Fills `f` for `pos` (whose side to move has a king).
template <class Sliders = LineSliders>
void compute_facts(const Position& pos, const History& history, PlyFacts& f);

// Static exchange evaluation: the material balance, in pawns (P 1, N B 3, R 5, Q 9, K 100), for
// the side to move when its piece worth `moved` lands on `to` capturing `captured`, and then both
// sides capture on `to` in turn, each with its least valuable attacker and only while that pays
// (the swap algorithm; sliders behind a capturer join in; pins and checks are ignored). `occ` is
// the occupancy after the move left its square (and an en passant victim left the board).
template <class Sliders = LineSliders>
int see(const Position& pos, const PlyFacts& f, Square to, int moved, int captured, Bitboard occ);

// The king distance of two squares (the larger of the file and rank distances); 8 when the second
// is kNoSquare.
inline constexpr auto kDistance = [] {
  std::array<std::array<std::uint8_t, 65>, 64> d{};
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      const int df = (a & 7) > (b & 7) ? (a & 7) - (b & 7) : (b & 7) - (a & 7);
      const int dr = (a >> 3) > (b >> 3) ? (a >> 3) - (b >> 3) : (b >> 3) - (a >> 3);
      d[a][b] = static_cast<std::uint8_t>(df > dr ? df : dr);
    }
    d[a][64] = 8;
  }
  return d;
}();
inline int distance(Square a, Square b) { return kDistance[a][b]; }

// The files next to a file.
inline constexpr auto kNextFiles = [] {
  std::array<Bitboard, 8> t{};
  for (int file = 0; file < 8; ++file) t[file] = (file > 0 ? rules::file_bb(file - 1) : 0) | (file < 7 ? rules::file_bb(file + 1) : 0);
  return t;
}();

// The value class of the most valuable of `pieces`: 3 a queen, 2 a rook, 1 a minor, else 0.
inline int value_class(Bitboard pieces, Bitboard queens, Bitboard rooks, Bitboard minors) {
  return (pieces & queens) ? 3 : (pieces & rooks) ? 2 : (pieces & minors) ? 1 : 0;
}

// Calls, for each legal move of `t` in canonical order (index i = 0, 1, ...):
//   sink.piece(from)         once before the moves of each moving piece,
//   sink.piece_feature(k)    features shared by all of the piece's moves,
//   sink.move(i)             once per move, then
//   sink.move_feature(k)     the move's own features.
// A move's features are the piece's features followed by its own.
namespace enumerate_impl {

// Adds move feature `k` where `c` holds. A sink that can add a feature without a branch (the
// scoring sink: `k` then indexes the weights whatever `c` is) does so: whether such a feature
// applies follows from the position, and the processor cannot guess it.
template <class Sink>
inline void move_feature_if(Sink& sink, bool c, int k) {
  if constexpr (requires { sink.move_feature_if(c, k); }) sink.move_feature_if(c, k);
  else if (c) sink.move_feature(k);
}

// A sink that takes some groups of a move's features as one sum from tables built of the weights
// (move_model.cpp): where the piece stands (kFrom, kFromByTheirWing) with its safety there
// (kFromSafety, kFromAttacked), and what every piece of its type is told of the position
// (kInCheck, kKingDanger, kReply); where it lands (kTo, kToByTheirWing, kToByOurWing); its safety there with
// what it takes and whether that is a recapture; the distances to the last two moves' squares
// and to their king; the check with the exchange and the unsafe check; the threat, its value and
// the fork; mobility with the king zone; the last move's piece met and a pawn's kick; the
// captures of the last two moves. It is told the facts those features are read from,
// and may put off a move's exchange evaluation (see_for) until every move has been scored.
template <class Sink>
concept CombinedSink = requires { Sink::kCombined; };

// The features of the moves of our piece of type `kType` on `from` (targets `targets`), with
// move indexes from `index` on. One instance per type, so that type tests fold away.
template <PieceType kType, class Sliders, class Sink>
inline void piece_moves(const Position& pos, const rules::PieceTargets& t, const PlyFacts& f, Sink& sink, Square from,
                        Bitboard targets, int& index) {
  const rules::AttackTables& T = rules::attack_tables();
  constexpr int ti = kType - 1;
  const Color us = f.us;
  const int flip = f.flip;
  const int phase_base = f.phase * kTypes * 64 + ti * 64;
  sink.piece(from);
  // Features of the piece, whatever its move.
  if constexpr (!CombinedSink<Sink>) sink.piece_feature(kFrom + phase_base + (from ^ flip));
  {
    int cls;
    if (f.lower[kType] >> from & 1) cls = 2;
    else if (!(f.their_attacks >> from & 1)) cls = 0;
    else if (f.our_once >> from & 1) cls = 1;
    else cls = 3;
    // Their least valuable piece that attacks the from-square (0: none).
    int a = 0;
    if (f.their_attacks >> from & 1) {
      a = kPawn;
      while (!(f.their_attacks_of[a] >> from & 1)) ++a;
    }
    if constexpr (CombinedSink<Sink>) {
      sink.stands(ti, ti * 64 + (from ^ flip), cls, a, f.our_once >> from & 1);
    } else {
      sink.piece_feature(kFromSafety + ti * 4 + cls);
      if (a) sink.piece_feature(kFromAttacked + (ti * 6 + a - 1) * 2 + (f.our_once >> from & 1));
    }
  }
  if (f.last_attacks >> from & 1) sink.piece_feature(kEvade + ti);
  const bool again = from == f.our_last_to;  // the piece our previous move moved
  if (again) sink.piece_feature(kMovedLast + ti);
  sink.piece_feature(kFromNearLast + ti * 9 + distance(from, f.last_to));
  if constexpr (!CombinedSink<Sink>) {
    if (f.in_check) sink.piece_feature(kInCheck + ti);
    if (f.king_danger) sink.piece_feature(kKingDanger + (f.king_danger - 1) * kTypes + ti);
    sink.piece_feature(f.wing_base - kToByTheirWing + kFromByTheirWing + ti * 64 + (from ^ flip));
    if (f.last_type != kNoPieceType) sink.piece_feature(kReply + (f.last_type - 1) * kTypes + ti);
  }
  {
    const int n = rules::popcount(targets);
    sink.piece_feature(kTargets + ti * 16 + (n > 16 ? 15 : n - 1));
  }
  const Bitboard own_attacks = piece_attacks<Sliders>(T, kType, us, from, f.occ);
  {
    const int safe = rules::popcount(own_attacks & ~f.our_pieces & ~f.their_pawn_attacks);
    sink.piece_feature(kFromMobility + ti * 16 + (safe > 15 ? 15 : safe));
  }
  bool passed = false, promoting = false;
  if constexpr (kType == kPawn) {
    const bool shield = ((f.our_king ^ flip) >> 3) == 0 &&
                        (file_of(from) - file_of(f.our_king) <= 1 && file_of(f.our_king) - file_of(from) <= 1) &&
                        ((from ^ flip) >> 3) <= 2;
    if (shield) sink.piece_feature(kKingShield);
    passed = !(f.pawn_span >> from & 1);
    promoting = t.promoting >> from & 1;
  }
  if (kType == kRook && (f.castle_rooks >> from & 1)) sink.piece_feature(kCastlingLoss + 1);
  // Our pieces the opponent attacks that only this piece defends.
  const Bitboard guarded = own_attacks & f.our_pieces & f.their_attacks & ~f.our_twice;
  const bool disc = f.discoverers >> from & 1;
  // Another piece of ours is en prise: the most valuable one but the mover.
  const int h = from == f.en_prise[0] ? 1 : 0;
  const int hanging = f.en_prise_class[h];
  const Square en_prise = f.en_prise[h];
  const Bitboard occ_from = f.occ & ~rules::bb(from);
  // Our other sliders (one on the line through the from- and to-squares may defend the
  // to-square through the from-square).
  const Bitboard behind = f.our_sliders & ~rules::bb(from);
  // Where the opponent's last move landed (none after a null move or at the start).
  const Bitboard last_square = f.last_to == kNoSquare ? 0 : rules::bb(f.last_to);
  while (targets) {
    const Square to = rules::pop_lsb(targets);
    const Piece on_to = pos.piece_on(to);
    if constexpr (kType == kKing) {
      // Castling: the king "takes" its own rook; it lands on the g- or c-file.
      if (on_to != kNoPiece && color_of(on_to) == us) {
        const int side = to > from ? 0 : 1;
        const Square dest = make_square(side == 0 ? 6 : 2, rank_of(from));
        sink.move(index++);
        sink.move_feature(kTo + phase_base + (dest ^ flip));
        sink.move_feature(kCastling + side);
        continue;
      }
    }
    const bool en_passant = kType == kPawn && to == pos.ep_square();
    const PieceType victim = en_passant ? kPawn : type_of(on_to);
    const bool capture = victim != kNoPieceType;
    const bool attacked = f.their_attacks >> to & 1;
    // Another piece of ours attacks the to-square.
    const bool defended = ((f.our_twice | (f.our_once & ~own_attacks)) >> to) & 1;
    // The to-square's class (kToSafety), by attacked by a lower piece, attacked, defended.
    static constexpr std::uint8_t kToClass[8] = {0, 0, 3, 1, 2, 2, 2, 2};
    const int cls = kToClass[(f.lower[kType] >> to & 1) << 2 | attacked << 1 | defended];
    const bool discovered = disc && !(T.line[f.their_king][from] >> to & 1);
    const Bitboard occ_after = occ_from | rules::bb(to);
    const int victim_value = kValue[victim];
    const int rel_to = to ^ flip;
    const int moves = promoting ? 4 : 1;
    for (int p = 0; p < moves; ++p) {
      const PieceType acting = kType == kPawn && promoting ? static_cast<PieceType>(kKnight + p) : kType;
      sink.move(index++);
      if constexpr (CombinedSink<Sink>) {
        sink.lands(ti * 64 + rel_to);
        sink.square(ti, cls, victim, attacked, capture && to == f.last_to);
      } else {
        sink.move_feature(kTo + phase_base + rel_to);
        sink.move_feature(kToSafety + ti * 4 + cls);
        sink.move_feature(f.wing_base + ti * 64 + rel_to);
        sink.move_feature(f.own_wing_base + ti * 64 + rel_to);
        // (victim - 1 is -1 without a capture: the index stays within the weights.)
        move_feature_if(sink, capture, kCapture + (ti * 5 + (victim - 1)) * 2 + attacked);
        move_feature_if(sink, capture && to == f.last_to, kRecapture + ti);
      }
      const bool direct = f.check_squares[acting] >> to & 1;
      if constexpr (!CombinedSink<Sink>)
        move_feature_if(sink, direct || discovered, kCheck + ti * 3 + (direct && discovered ? 2 : discovered ? 1 : 0));
      const Bitboard hits = piece_attacks<Sliders>(T, acting, us, to, occ_after);
      const Bitboard threatened = hits & (f.higher[acting] | f.undefended);
      if constexpr (CombinedSink<Sink>) {
        sink.threat(ti, threatened == 0 ? 0 : (hits & f.higher[acting]) ? 1 : 2,
                    value_class(threatened, f.their_queens, f.their_rooks, f.their_minors),
                    threatened && (rules::more_than_one(threatened) || direct));
      } else {
        move_feature_if(sink, threatened != 0, kThreat + ti * 2 + ((hits & f.higher[acting]) ? 0 : 1));
        move_feature_if(sink, threatened != 0,
                        kThreatValue + ti * 4 + value_class(threatened, f.their_queens, f.their_rooks, f.their_minors));
        move_feature_if(sink, threatened && (rules::more_than_one(threatened) || direct), kFork + ti);
      }
      if (kType == kPawn && promoting) sink.move_feature(kPromotion + p);
      const Bitboard left = guarded & ~hits;
      move_feature_if(sink, left != 0, kLeavesUndefended + ti * 4 + value_class(left, f.our_queens, f.our_rooks, f.our_minors));
      move_feature_if(sink, again && to == f.our_last_from, kStraightBack + ti);
      if constexpr (!CombinedSink<Sink>) sink.move_feature(kNearLast + ti * 9 + distance(to, f.last_to));
      {
        const int safe = rules::popcount(hits & ~f.our_pieces & ~f.their_pawn_attacks);
        const int zone = rules::popcount(hits & f.king_zone);
        if constexpr (CombinedSink<Sink>) {
          sink.mobility(ti, safe > 15 ? 15 : safe, zone > 3 ? 3 : zone);
        } else {
          sink.move_feature(kMobility + ti * 16 + (safe > 15 ? 15 : safe));
          // (zone - 1 is -1 without one: the index stays within the weights.)
          move_feature_if(sink, zone != 0, kKingZone + ti * 3 + (zone > 3 ? 2 : zone - 1));
        }
      }
      if constexpr (!CombinedSink<Sink>) sink.move_feature(kNearOurPrevious + ti * 9 + distance(to, f.our_last_to));
      if (hanging) {
        move_feature_if(sink, hits >> en_prise & 1, kDefendsEnPrise + hanging - 1);
        sink.move_feature(kOtherEnPrise + ((hanging - 1) * kTypes + ti) * 2 + capture);
      }
      if (kType == kPawn && passed) sink.move_feature(kPassedPawn + (rel_to >> 3));
      if (kType == kKing && f.castle_rooks) sink.move_feature(kCastlingLoss);
      if constexpr (CombinedSink<Sink>)
        sink.distances(ti, distance(to, f.last_to), distance(to, f.our_last_to), distance(to, f.their_king));
      else
        sink.move_feature(kKingDistance + ti * 9 + distance(to, f.their_king));
      if constexpr (CombinedSink<Sink>) {
        // The check: 0 none, 1 direct, 2 discovered, 3 both.
        const int check = direct + 2 * discovered;
        if (attacked && (defended || (T.line[from][to] & behind))) {
          sink.see_for(ti, capture, check, to, kValue[acting], victim_value,
                       en_passant ? occ_from & ~rules::bb(to ^ 8) : occ_from);
        } else {
          sink.balance(ti, capture, check, attacked ? victim_value - kValue[acting] : victim_value);
        }
        sink.after_captures(ti, capture);
      } else {
        int balance = victim_value;
        if (attacked) {
          if (defended || (T.line[from][to] & behind)) {
            const Bitboard see_occ = en_passant ? occ_from & ~rules::bb(to ^ 8) : occ_from;
            balance = see<Sliders>(pos, f, to, kValue[acting], victim_value, see_occ);
          } else {
            balance = victim_value - kValue[acting];
          }
        }
        balance = balance < -kSeeRange ? -kSeeRange : balance > kSeeRange ? kSeeRange : balance;
        sink.move_feature(kExchange + (ti * 2 + capture) * (2 * kSeeRange + 1) + balance + kSeeRange);
        move_feature_if(sink, direct && balance < 0, kCheckLosing + ti);
        if (f.last_captured) sink.move_feature(kAfterTheirCapture + ti * 2 + capture);
        if (f.our_last_captured) sink.move_feature(kAfterOurCapture + ti * 2 + capture);
      }
      if constexpr (CombinedSink<Sink>) {
        sink.versus(ti, (hits & last_square) != 0, f.last_attacks >> to & 1, f.pawn_kicks >> to & 1);
      } else {
        move_feature_if(sink, (hits & last_square) != 0, kVersusLast + ti * 2);
        move_feature_if(sink, f.last_attacks >> to & 1, kVersusLast + ti * 2 + 1);
        move_feature_if(sink, f.pawn_kicks >> to & 1, kKick + ti);
      }
      if constexpr (kType == kKnight || kType == kBishop) {
        move_feature_if(sink, (f.our_pawn_attacks >> to & 1) && !(f.pawn_span_sides >> to & 1),
                        kOutpost + (kType == kBishop));
      }
      if constexpr (kType == kRook || kType == kQueen) {
        const Bitboard file = rules::file_bb(file_of(to));
        move_feature_if(sink, !(file & f.our_pawns), kFile + (kType == kQueen) * 2 + ((file & f.their_pawns) ? 1 : 0));
      }
      if constexpr (kType == kPawn) {
        if (!promoting) {
          const int file = file_of(to);
          const Bitboard ours = f.our_pawns & ~rules::bb(from);
          const Bitboard sides = kNextFiles[file];
          move_feature_if(sink, !(ours & sides), kPawnShape);
          move_feature_if(sink, (ours & rules::file_bb(file)) != 0, kPawnShape + 1);
          move_feature_if(sink, !(f.pawn_span >> to & 1), kPawnShape + 2);
        }
      }
    }
  }
}

}  // namespace enumerate_impl

// Calls, for each legal move of `t` in canonical order (index i = 0, 1, ...):
//   sink.piece(from)         once before the moves of each moving piece,
//   sink.piece_feature(k)    features shared by all of the piece's moves,
//   sink.move(i)             once per move, then
//   sink.move_feature(k)     the move's own features.
// A move's features are the piece's features followed by its own.
template <class Sliders = LineSliders, class Sink>
void enumerate_features(const Position& pos, const rules::PieceTargets& t, const PlyFacts& f, Sink& sink) {
  using namespace enumerate_impl;
  int index = 0;
  for (Bitboard movers = t.movers; movers;) {
    const Square from = rules::pop_lsb(movers);
    const Bitboard targets = t.to[from];
    if (!targets) continue;
    switch (type_of(pos.piece_on(from))) {
      case kPawn: piece_moves<kPawn, Sliders>(pos, t, f, sink, from, targets, index); break;
      case kKnight: piece_moves<kKnight, Sliders>(pos, t, f, sink, from, targets, index); break;
      case kBishop: piece_moves<kBishop, Sliders>(pos, t, f, sink, from, targets, index); break;
      case kRook: piece_moves<kRook, Sliders>(pos, t, f, sink, from, targets, index); break;
      case kQueen: piece_moves<kQueen, Sliders>(pos, t, f, sink, from, targets, index); break;
      default: piece_moves<kKing, Sliders>(pos, t, f, sink, from, targets, index); break;
    }
  }
}

// The weights, in sixteenths of a bit (tools/pgnarc-train --out writes model_weights.cpp).
extern const std::array<std::int8_t, kFeatures> kWeights;
// The end hazard of a line of unknown length, by plies played (the last entry for 255 and more):
// the end's frequency is the moves' total times this / 2^16 (at most 2^20: the end at most 16
// times as likely as all moves together).
inline constexpr std::uint32_t kMaxEndHazard = 1u << 20;
extern const std::array<std::uint32_t, 256> kEndHazard;

// Frequency of a move that scores d points below the best: 2^(12 - d/16), rounded, at least 1.
inline constexpr std::array<std::uint16_t, 16> kExpBase = {4096, 3922, 3756, 3597, 3444, 3298, 3158, 3025,
                                                           2896, 2774, 2656, 2543, 2435, 2332, 2233, 2139};
inline constexpr std::uint32_t kTopFrequency = kExpBase[0];  // the best move's (d = 0)
inline constexpr int kFrequencyGaps = 192;  // from this gap on, the frequency is 1
inline constexpr auto kFrequencyOfGap = [] {
  std::array<std::uint16_t, kFrequencyGaps> t{};
  for (int d = 0; d < kFrequencyGaps; ++d) {
    const int v = kExpBase[d & 15] >> (d >> 4);
    t[d] = static_cast<std::uint16_t>(v ? v : 1);
  }
  return t;
}();
inline std::uint32_t frequency_of(int d) { return d >= kFrequencyGaps ? 1 : kFrequencyOfGap[d]; }

// The frequencies of `n` (at least 1) moves scored `score` into `freq`, each by its gap below the
// best score (MOVE-MODEL-1, step 3); returns their total.
inline std::uint32_t frequencies_of_scores(const int* score, int n, std::uint32_t* freq) {
  int best = score[0];
  for (int i = 1; i < n; ++i) best = score[i] > best ? score[i] : best;
  std::uint32_t total = 0;
  for (int i = 0; i < n; ++i) total += freq[i] = frequency_of(best - score[i]);
  return total;
}

// The frequencies of the legal moves of `pos` (targets `t`), in canonical order, into `freq`;
// returns their total (at most 413 * 4096). The position has at least one legal move.
std::uint32_t frequencies(const Position& pos, const rules::PieceTargets& t, const History& history,
                          std::uint32_t* freq, const std::int8_t* weights = kWeights.data());
// Its two builds, of which frequencies() resolves to one when the library is loaded: for every
// CPU, and for x86-64-v3 CPUs where v3_generator_supported() (with PEXT slider lookups). They
// give the same frequencies; a test holds them to each other.
std::uint32_t frequencies_base(const Position& pos, const rules::PieceTargets& t,
                               const History& history, std::uint32_t* freq,
                               const std::int8_t* weights);
// The same by feature sums alone (each feature's weight added on its own, exchanges evaluated in
// the move loop), which the builds above (tables of the weights' sums, exchanges put off) are
// held to in a test.
std::uint32_t frequencies_reference(const Position& pos, const rules::PieceTargets& t, const History& history,
                                    std::uint32_t* freq, const std::int8_t* weights);
#if PGNARC_HAVE_V3
std::uint32_t frequencies_v3(const Position& pos, const rules::PieceTargets& t,
                             const History& history, std::uint32_t* freq,
                             const std::int8_t* weights);
#endif

// The history after `m` is played in `pos`, whose history was `h`: the move becomes the
// opponent's last, and the opponent's last its own before.
inline History history_after(const History& h, const Position& pos, Move m) {
  // (A promotion to king, antichess's, has kind castling too: its to-square is its own.)
  const bool castling = m.is_castling();
  const Square to = castling ? make_square(m.to() > m.from() ? 6 : 2, rank_of(m.from())) : m.to();
  const bool captured = m.kind() == Move::kEnPassant || (!castling && pos.piece_on(m.to()) != kNoPiece);
  const PieceType type = type_of(pos.piece_on(m.from()));
  return History{m.from(), to, h.last_from, h.last_to, captured, h.last_captured, type};
}

// Where a line stands: the position and what the model knows of the moves that led to it. A
// null move forgets the history.
struct LineState {
  Position pos;
  History history;
  void play(Move m) {
    history = history_after(history, pos, m);
    pos.play(m);
  }
  void play_null() {
    history = History{};
    pos.play_null();
  }
};

}  // namespace pgnarc::codec::model
