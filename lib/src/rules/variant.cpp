// The rules of lichess's variants: crazyhouse, atomic, antichess, three-check, king of the hill,
// racing kings and horde, as lichess (scalachess) plays them.
//
// Variant games are few beside standard ones, so their moves come from one plain generator:
// every pseudo-legal move in canonical order, each played on a copy of the position and kept if
// the mover's king then stands as the variant allows. Standard chess keeps its own generator
// (movegen_impl.h); the two agree wherever the rules do (tests/rules/rules_variant_test.cpp).
#include <array>

#include "rules/movegen.h"

namespace pgnarc {

using namespace rules;

namespace {

constexpr Bitboard kCenter = bb(27) | bb(28) | bb(35) | bb(36);  // d4 e4 d5 e5
constexpr Bitboard kBackRanks = rank_bb(0) | rank_bb(7);

struct Named {
  Variant variant;
  std::string_view name;  // as lichess writes it
};
constexpr std::array<Named, kVariantCount> kNames = {{
    {Variant::kStandard, "Standard"},
    {Variant::kCrazyhouse, "Crazyhouse"},
    {Variant::kAtomic, "Atomic"},
    {Variant::kAntichess, "Antichess"},
    {Variant::kThreeCheck, "Three-check"},
    {Variant::kKingOfTheHill, "King of the Hill"},
    {Variant::kRacingKings, "Racing Kings"},
    {Variant::kHorde, "Horde"},
}};

// Other names of the same rules, folded (lower case, without spaces, hyphens and underscores,
// and without a trailing "chess").
struct Alias {
  std::string_view folded;
  Variant variant;
};
constexpr Alias kAliases[] = {
    {"crazyhouse", Variant::kCrazyhouse}, {"zh", Variant::kCrazyhouse},          {"house", Variant::kCrazyhouse},
    {"atomic", Variant::kAtomic},         {"atom", Variant::kAtomic},            {"antichess", Variant::kAntichess},
    {"anti", Variant::kAntichess},        {"giveaway", Variant::kAntichess},     {"suicide", Variant::kAntichess},
    {"threecheck", Variant::kThreeCheck}, {"3check", Variant::kThreeCheck},      {"threechecks", Variant::kThreeCheck},
    {"3checks", Variant::kThreeCheck},    {"kingofthehill", Variant::kKingOfTheHill}, {"koth", Variant::kKingOfTheHill},
    {"racingkings", Variant::kRacingKings}, {"racing", Variant::kRacingKings},   {"race", Variant::kRacingKings},
    {"horde", Variant::kHorde},
};

std::string fold_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_' || c == '\t') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  if (out.size() > 5 && out.ends_with("chess") && out != "antichess") out.resize(out.size() - 5);
  return out;
}

}  // namespace

const char* variant_name(Variant v) {
  for (const Named& n : kNames)
    if (n.variant == v) return n.name.data();
  return "";
}

bool variant_from_name(std::string_view name, Variant& out) {
  const std::string folded = fold_name(name);
  for (const Alias& a : kAliases)
    if (a.folded == folded) {
      out = a.variant;
      return true;
    }
  return false;
}

Position Position::start(Variant v) {
  const char* fen = v == Variant::kRacingKings ? "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
                    : v == Variant::kHorde ? "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
                    : v == Variant::kAntichess ? "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
                                               : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  return from_fen(fen, false, v).value();
}

bool Position::variant_over() const {
  const Bitboard kings = by_type_[kKing];
  switch (variant_) {
    case Variant::kStandard:
    case Variant::kCrazyhouse: return false;
    case Variant::kAtomic: return !pieces(kWhite, kKing) || !pieces(kBlack, kKing);
    case Variant::kAntichess:
    case Variant::kHorde: return !by_color_[kWhite] || !by_color_[kBlack];
    case Variant::kThreeCheck: return checks_[kWhite] == 0 || checks_[kBlack] == 0;
    case Variant::kKingOfTheHill: return (kings & kCenter) != 0;
    case Variant::kRacingKings: {
      if (!(kings & rank_bb(7))) return false;
      const Bitboard black_king = pieces(kBlack, kKing);
      if (side_ == kWhite || (black_king & rank_bb(7)) || !black_king) return true;
      // White has reached the eighth rank: the race is over unless black's king can reach it
      // too with this move, to a square white does not attack.
      const Square k = lsb(black_king);
      for (Bitboard t = attack_tables().king[k] & rank_bb(7) & ~pieces(kBlack); t;)
        if (!(attackers_to(*this, pop_lsb(t), occupied()) & pieces(kWhite))) return false;
      return true;
    }
  }
  return false;
}

bool Position::ended_with_winner() const {
  if (in_check()) return true;
  switch (variant_) {
    case Variant::kStandard:
    case Variant::kCrazyhouse: return false;
    case Variant::kAntichess: return true;
    case Variant::kRacingKings:
      return variant_over() && !((pieces(kWhite, kKing) & rank_bb(7)) && (pieces(kBlack, kKing) & rank_bb(7)));
    case Variant::kAtomic:
    case Variant::kThreeCheck:
    case Variant::kKingOfTheHill:
    case Variant::kHorde: return variant_over();
  }
  return false;
}

bool Position::variant_in_check() const {
  if (variant_ == Variant::kAntichess) return false;
  const Bitboard king = pieces(side_, kKing);
  if (!king) return false;  // horde's white, an exploded king
  const Square k = lsb(king);
  if (variant_ == Variant::kAtomic && (attack_tables().king[k] & pieces(~side_, kKing))) return false;
  return (attackers_to(*this, k, occupied()) & pieces(~side_)) != 0;
}

bool Position::variant_king_safe() const {
  const Color mover = ~side_;
  switch (variant_) {
    case Variant::kAntichess: return true;
    case Variant::kAtomic: {
      // The mover's king must survive; exploding the other king wins whatever else stands.
      if (!pieces(mover, kKing)) return false;
      if (!pieces(side_, kKing)) return true;
      const Square k = lsb(pieces(mover, kKing));
      if (attack_tables().king[k] & pieces(side_, kKing)) return true;
      return !(attackers_to(*this, k, occupied()) & pieces(side_));
    }
    default: break;
  }
  const Bitboard king = pieces(mover, kKing);
  if (king && (attackers_to(*this, lsb(king), occupied()) & pieces(side_))) return false;
  // Racing kings: no move may give check either.
  if (variant_ == Variant::kRacingKings && pieces(side_, kKing) &&
      (attackers_to(*this, lsb(pieces(side_, kKing)), occupied()) & pieces(mover)))
    return false;
  return true;
}

void Position::variant_moves(MoveList& out) const {
  out.size = 0;
  out.overflow = false;
  if (variant_over()) return;
  const AttackTables& T = attack_tables();
  const Color us = side_, them = ~us;
  const Bitboard own = by_color_[us], enemy = by_color_[them], occ = occupied();
  const Bitboard ep = ep_ == kNoSquare ? 0 : bb(ep_);
  const int forward = us == kWhite ? 8 : -8;
  const auto targets_of = [&](Square from) -> Bitboard {
    switch (type_of(board_[from])) {
      case kPawn: {
        Bitboard t = T.pawn[us][from] & (enemy | ep);
        const int one = from + forward;  // a pawn never stands on its last rank
        const int rank = us == kWhite ? rank_of(from) : 7 - rank_of(from);
        if (!(occ & bb(one))) {
          t |= bb(one);
          // From the second rank, and from the first where horde's pawns stand.
          if (rank <= 1 && !(occ & bb(one + forward))) t |= bb(one + forward);
        }
        return t;
      }
      case kKnight: return T.knight[from] & ~own;
      case kBishop: return T.bishop_attacks(from, occ) & ~own;
      case kRook: return T.rook_attacks(from, occ) & ~own;
      case kQueen: return T.queen_attacks(from, occ) & ~own;
      case kKing: return T.king[from] & ~own;
      default: return 0;
    }
  };
  // Antichess: a side that can capture must.
  const auto captures_of = [&](Square from) {
    return targets_of(from) & (enemy | (type_of(board_[from]) == kPawn ? ep : 0));
  };
  bool captures_only = false;
  if (variant_ == Variant::kAntichess)
    for (Bitboard b = own; b && !captures_only;) captures_only = captures_of(pop_lsb(b)) != 0;
  // Castling: squares the king stands on or passes that the other side attacks, seen through the
  // king's own square (none in antichess; in atomic, none beside the other king, where no attack
  // can reach the king, though one may go on along the rank past it). Its destination is judged
  // after the move, with the rook beside it.
  const auto attacked = [&](Square s, Square king) {
    if (variant_ == Variant::kAntichess) return false;
    if (variant_ == Variant::kAtomic && (T.king[s] & pieces(them, kKing))) return false;
    return (attackers_to(*this, s, occ ^ bb(king)) & enemy) != 0;
  };
  const auto add = [&](Move m) {
    Position after = *this;
    after.play_variant(m);
    if (!after.variant_king_safe()) return;
    if (out.size == kMaxLegalMoves) {
      out.overflow = true;
      return;
    }
    out.moves[out.size++] = m;
  };
  for (Bitboard b = own; b;) {
    const Square from = pop_lsb(b);
    const PieceType pt = type_of(board_[from]);
    Bitboard targets = captures_only ? captures_of(from) : targets_of(from);
    if (pt == kKing && !captures_only && rank_of(from) == (us == kWhite ? 0 : 7)) {
      // Castling as the king taking its own rook, by a king on its first rank (antichess's king
      // promoted on the last rank has none to castle with: rights go when a king moves): the
      // squares between empty but for the two, and none the king stands on or passes attacked.
      for (CastleSide side : {kKingSide, kQueenSide}) {
        const Square rook = castle_rook_[us][side];
        if (rook == kNoSquare) continue;
        const int kf = file_of(from), rf = file_of(rook);
        if (T.castle_empty[us][kf][rf] & occ) continue;
        bool safe = true;
        const Bitboard to = bb(make_square(rf > kf ? 6 : 2, rank_of(from)));
        for (Bitboard path = T.castle_safe[us][kf][rf] & ~(to & ~bb(from)); path && safe;)
          safe = !attacked(pop_lsb(path), from);
        if (safe) targets |= bb(rook);
      }
    }
    for (; targets;) {
      const Square to = pop_lsb(targets);
      if (pt == kKing && (own & bb(to))) {
        add(Move(from, to, Move::kCastling));
      } else if (pt == kPawn && (bb(to) & kBackRanks)) {
        for (PieceType p : {kKnight, kBishop, kRook, kQueen}) add(Move(from, to, Move::kPromotion, p));
        if (variant_ == Variant::kAntichess) add(Move::king_promotion(from, to));
      } else {
        add(Move(from, to, pt == kPawn && to == ep_ ? Move::kEnPassant : Move::kNormal));
      }
    }
  }
  if (variant_ != Variant::kCrazyhouse) return;
  // Drops, by piece then square: on any empty square (pawns not on the first or last rank), and
  // in check only between the king and its one checker.
  Bitboard squares = ~occ;
  if (const Bitboard king = pieces(us, kKing)) {
    const Square k = lsb(king);
    const Bitboard checkers = attackers_to(*this, k, occ) & enemy;
    if (checkers) squares &= more_than_one(checkers) ? 0 : T.between[k][lsb(checkers)];
  }
  for (int t = kPawn; t <= kQueen; ++t) {
    if (!pocket_[us][t]) continue;
    for (Bitboard s = squares & (t == kPawn ? ~kBackRanks : ~Bitboard{0}); s;) {
      if (out.size == kMaxLegalMoves) {
        out.overflow = true;
        return;
      }
      out.moves[out.size++] = Move::drop(static_cast<PieceType>(t), pop_lsb(s));
    }
  }
}

void Position::play_variant(Move m) {
  const AttackTables& T = attack_tables();
  const Color us = side_, them = ~us;
  ++halfmove_;
  fullmove_ = static_cast<std::uint16_t>(fullmove_ + us);
  ep_ = kNoSquare;
  side_ = them;
  // The castling rights a piece leaving or losing square `s` takes with it: its rook's, or a
  // king's both.
  const auto drop_rights_on = [&](Square s, Piece p) {
    for (auto& side : castle_rook_)
      for (auto& r : side)
        if (r == s) r = kNoSquare;
    if (type_of(p) == kKing) castle_rook_[color_of(p)][kKingSide] = castle_rook_[color_of(p)][kQueenSide] = kNoSquare;
  };
  if (m.is_drop()) {
    const PieceType t = m.drop_piece();
    put(make_piece(us, t), m.to());
    --pocket_[us][t];
    if (t == kPawn) halfmove_ = 0;
  } else if (m.is_castling()) {
    const Square from = m.from(), to = m.to();
    const bool king_side = to > from;
    const Square base = us == kWhite ? 0 : 56;
    const Square rook_to = static_cast<Square>(base + (king_side ? 5 : 3));
    const bool promoted_rook = promoted_ & bb(to);
    remove(from);
    remove(to);
    put(make_piece(us, kKing), static_cast<Square>(base + (king_side ? 6 : 2)));
    put(make_piece(us, kRook), rook_to);
    promoted_ = (promoted_ & ~bb(to)) | (promoted_rook ? bb(rook_to) : 0);
    castle_rook_[us][kKingSide] = castle_rook_[us][kQueenSide] = kNoSquare;
  } else {
    const Square from = m.from(), to = m.to();
    const Piece piece = board_[from];
    const Square captured_on = m.kind() == Move::kEnPassant ? static_cast<Square>(to - (us == kWhite ? 8 : -8)) : to;
    const Piece victim = board_[captured_on];
    if (victim != kNoPiece) {
      halfmove_ = 0;
      if (variant_ == Variant::kCrazyhouse && type_of(victim) != kKing)
        ++pocket_[us][promoted_ & bb(captured_on) ? kPawn : type_of(victim)];
      promoted_ &= ~bb(captured_on);
      remove(captured_on);
      drop_rights_on(captured_on, victim);
    }
    const bool promotes = m.promoted_piece() != kNoPieceType;
    remove(from);
    put(promotes ? make_piece(us, m.promoted_piece()) : piece, to);
    if (variant_ == Variant::kCrazyhouse && (promotes || (promoted_ & bb(from)))) promoted_ |= bb(to);
    promoted_ &= ~bb(from);
    drop_rights_on(from, piece);
    if (type_of(piece) == kPawn) {
      halfmove_ = 0;
      // A double step from the second rank (not horde's from the first) leaves an en passant
      // square where an enemy pawn could take.
      const int rank = us == kWhite ? rank_of(from) : 7 - rank_of(from);
      const Square passed = static_cast<Square>((from + to) / 2);
      if ((from ^ to) == 16 && rank == 1 && (T.pawn[us][passed] & pieces(them, kPawn))) ep_ = passed;
    }
    if (variant_ == Variant::kAtomic && victim != kNoPiece) {
      // The explosion: the capturer and every piece but pawns on the squares around it.
      remove(to);
      for (Bitboard b = T.king[to] & occupied() & ~by_type_[kPawn]; b;) {
        const Square s = pop_lsb(b);
        const Piece p = board_[s];
        remove(s);
        drop_rights_on(s, p);
      }
    }
  }
  if (variant_ == Variant::kThreeCheck && checks_[us] > 0) {
    const Bitboard king = pieces(them, kKing);
    if (king && (attackers_to(*this, lsb(king), occupied()) & pieces(us))) --checks_[us];
  }
}

}  // namespace pgnarc
