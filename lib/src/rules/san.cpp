// SAN and UCI: canonical output, lenient input.
#include <cstdlib>

#include "rules/move_words.h"
#include "rules/movegen.h"

namespace pgnarc {

using namespace rules;

namespace {

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

// One reading of a SAN token: what it says about the move.
struct SanPattern {
  PieceType piece = kNoPieceType;  // kNoPieceType: a pawn, or any piece when `from` is complete
  int from_file = -1, from_rank = -1;
  Square to = kNoSquare;
  PieceType promo = kNoPieceType;
  bool from_complete() const { return from_file >= 0 && from_rank >= 0; }
};

// Parses "<disambiguation><target square><promotion>", as in "Nbd7", "exd6", "e8=Q", "g1f3",
// "e7e8q", "Nb1-c3", "e8(Q)". Returns false where the text is not of that shape.
bool parse_body(std::string_view s, SanPattern& p) {
  std::size_t j = std::string_view::npos;
  for (std::size_t k = 0; k + 1 < s.size(); ++k)
    if (is_file(s[k]) && is_rank(s[k + 1])) j = k;
  if (j == std::string_view::npos) return false;
  p.to = make_square(s[j] - 'a', s[j + 1] - '1');
  for (char c : s.substr(0, j)) {
    if (is_file(c) && p.from_file < 0) p.from_file = c - 'a';
    else if (is_rank(c) && p.from_rank < 0) p.from_rank = c - '1';
    else if (c != 'x' && c != ':' && c != '-') return false;
  }
  std::string_view tail = s.substr(j + 2);
  if (!tail.empty() && (tail.front() == '=' || tail.front() == '(' || tail.front() == '/'))
    tail.remove_prefix(1);
  if (!tail.empty() && tail.back() == ')') tail.remove_suffix(1);
  if (tail.size() > 1) return false;
  if (tail.size() == 1) {
    p.promo = piece_from_letter(tail[0]);
    if (p.promo < kKnight) return false;  // a king only in antichess, which the move list decides
  }
  return true;
}

// The readings of a SAN token `s` (not empty, suffixes stripped) into `out`, and how many (0: it
// is unreadable): a leading lowercase 'b' may be a bishop or the b-file.
int san_readings(std::string_view s, SanPattern (&out)[2]) {
  int n = 0;
  SanPattern p;
  std::string_view body = s;
  const PieceType lead = piece_from_letter(s[0]);
  if (lead != kNoPieceType && s[0] != 'b') {
    p.piece = lead;
    body.remove_prefix(1);
  }
  if (parse_body(body, p)) out[n++] = p;
  if (s[0] == 'b') {
    SanPattern q;
    q.piece = kBishop;
    if (parse_body(s.substr(1), q)) out[n++] = q;
  }
  return n;
}

}  // namespace

namespace rules {

int san_disambiguation(Square from, Bitboard rivals) {
  if (!rivals) return 0;
  if (!(rivals & file_bb(file_of(from)))) return 1;
  if (!(rivals & rank_bb(rank_of(from)))) return 2;
  return 3;
}

int san_disambiguation(const Position& pos, const PieceTargets& t, Move m) {
  const PieceType pt = type_of(pos.piece_on(m.from()));
  if (pt == kPawn || pt == kKing) return 0;  // pawn captures show their file; a king is alone
  Bitboard rivals = 0;
  for (Bitboard b = t.movers & pos.pieces(pos.side_to_move(), pt) & ~bb(m.from()); b;) {
    const Square s = pop_lsb(b);
    if (t.to[s] & bb(m.to())) rivals |= bb(s);
  }
  return san_disambiguation(m.from(), rivals);
}

char* write_san(Move m, PieceType pt, bool capture, int disambiguation, int suffix, char* p) {
  const Square from = m.from(), to = m.to();
  const auto square = [&](Square q) {
    *p++ = static_cast<char>('a' + file_of(q));
    *p++ = static_cast<char>('1' + rank_of(q));
  };
  if (m.is_drop()) {
    *p++ = kPieceLetters[m.drop_piece()];
    *p++ = '@';
    square(to);
  } else if (m.is_castling()) {
    for (const char* c = to > from ? "O-O" : "O-O-O"; *c; ++c) *p++ = *c;
  } else if (pt == kPawn) {
    if (capture) {
      *p++ = static_cast<char>('a' + file_of(from));
      *p++ = 'x';
    }
    square(to);
    if (m.promoted_piece() != kNoPieceType) {
      *p++ = '=';
      *p++ = kPieceLetters[m.promoted_piece()];
    }
  } else {
    *p++ = kPieceLetters[pt];
    if (disambiguation & 1) *p++ = static_cast<char>('a' + file_of(from));
    if (disambiguation & 2) *p++ = static_cast<char>('1' + rank_of(from));
    if (capture) *p++ = 'x';
    square(to);
  }
  if (suffix == kCheck) *p++ = '+';
  else if (suffix == kMate) *p++ = '#';
  return p;
}

namespace {
bool is_capture(const Position& pos, Move m) {
  // (Castling is written as the king taking its own rook; it is not a capture.)
  return !m.is_castling() && (pos.piece_on(m.to()) != kNoPiece || m.kind() == Move::kEnPassant);
}

// The other legal moves of `legal` that a piece of `m`'s type makes to `m`'s square (antichess may
// have several kings: every piece but a pawn is told apart from its rivals).
int listed_disambiguation(const Position& pos, const MoveList& legal, Move m) {
  const PieceType pt = type_of(pos.piece_on(m.from()));
  if (m.is_drop() || m.is_castling() || pt == kPawn) return 0;
  Bitboard rivals = 0;
  for (const Move o : legal)
    if (!o.is_drop() && !o.is_castling() && o.to() == m.to() && o.from() != m.from() &&
        type_of(pos.piece_on(o.from())) == pt)
      rivals |= bb(o.from());
  return san_disambiguation(m.from(), rivals);
}
}  // namespace

void append_san(const Position& pos, Move m, int disambiguation, int suffix, std::string& s) {
  char buf[kMaxSanLength];
  s.append(buf, write_san(m, type_of(pos.piece_on(m.from())), is_capture(pos, m), disambiguation, suffix, buf));
}

std::uint8_t san_note(const Position& pos, const PieceTargets& t, Move m) {
  return static_cast<std::uint8_t>(san_disambiguation(pos, t, m) | is_capture(pos, m) << 4 |
                                   type_of(pos.piece_on(m.from())) << 5);
}

std::uint8_t listed_san_note(const Position& pos, const MoveList& legal, Move m) {
  const PieceType pt = m.is_drop() ? m.drop_piece() : type_of(pos.piece_on(m.from()));
  return static_cast<std::uint8_t>(listed_disambiguation(pos, legal, m) | is_capture(pos, m) << 4 | pt << 5);
}

}  // namespace rules

std::string Position::san(Move m) const {
  if (variant_ != Variant::kStandard) [[unlikely]] {
    const std::uint8_t note = listed_san_note(*this, legal_moves(), m);
    Position after = *this;
    after.play_variant(m);
    const int suffix = after.legal_move_count() == 0 && after.ended_with_winner() ? kMate
                       : after.in_check()                                          ? kCheck
                                                                                   : kNoSuffix;
    char buf[kMaxSanLength];
    return std::string(buf, write_san(m, note_piece(note), note_capture(note), note_disambiguation(note), suffix, buf));
  }
  // Rivals: other pieces of the same type that can legally reach the target.
  int disambiguation = 0;
  const PieceType pt = type_of(board_[m.from()]);
  if (m.kind() != Move::kCastling && pt != kPawn) {
    Bitboard rivals = 0;
    for (Bitboard c = pseudo_movers_to(*this, pt, m.to()) & ~bb(m.from()); c;) {
      const Square o = pop_lsb(c);
      if (king_safe_after(*this, o, m.to(), false)) rivals |= bb(o);
    }
    disambiguation = san_disambiguation(m.from(), rivals);
  }
  Position after = *this;
  after.play(m);
  const int suffix = after.in_check() ? (after.legal_move_count() == 0 ? kMate : kCheck) : kNoSuffix;
  std::string s;
  append_san(*this, m, disambiguation, suffix, s);
  return s;
}

std::string Position::uci(Move m) const {
  if (m.is_null()) return "0000";
  if (m.is_none()) return "(none)";
  if (m.is_drop()) {
    std::string s(1, kPieceLetters[m.drop_piece()]);
    s += '@';
    return s + square_name(m.to());
  }
  if (m.is_king_promotion()) return square_name(m.from()) + square_name(m.to()) + 'k';
  Square to = m.to();
  if (m.kind() == Move::kCastling && !chess960_)
    to = make_square(to > m.from() ? 6 : 2, rank_of(m.from()));
  std::string s = square_name(m.from()) + square_name(to);
  if (m.kind() == Move::kPromotion) s += static_cast<char>(kPieceLetters[m.promotion()] + 32);
  return s;
}

// SAN under a variant, `s` without its suffixes: the token is read as in standard chess (or as a
// drop, "N@f3", "@e4"), then matched against the legal moves, which the variant's rules decide.
Result<Move> Position::parse_variant_san(std::string_view s, std::string_view in) const {
  auto error = [&](const std::string& what, const std::string& detail = {}) {
    return invalid_input(what + " \"" + std::string(in) + "\"" + detail + " in position " + fen());
  };
  if (s.empty()) return error("empty move");
  const MoveList legal = legal_moves();
  const auto only = [&](auto matches) -> Result<Move> {
    Move found[8];
    int n = 0;
    for (const Move m : legal)
      if (matches(m) && n < 8) found[n++] = m;
    if (n == 1) return found[0];
    if (n == 0) return error("illegal move");
    std::string list;
    for (int k = 0; k < n; ++k) list += (k ? ", " : "") + san(found[k]);
    return error("ambiguous move", " (" + list + ")");
  };
  if (const std::size_t at = s.find('@'); at != std::string_view::npos) {
    const std::string_view where = s.substr(at + 1);
    const PieceType t = at == 0 ? kPawn : at == 1 ? piece_from_letter(s[0]) : kNoPieceType;
    if (t == kNoPieceType || t == kKing || where.size() != 2 || !is_file(where[0]) || !is_rank(where[1]))
      return error("unreadable drop");
    const Move drop = Move::drop(t, make_square(where[0] - 'a', where[1] - '1'));
    return only([&](Move m) { return m == drop; });
  }
  if (s[0] == 'O' || s[0] == '0' || s[0] == 'o') {
    std::string norm;
    for (char c : s)
      if (c != '-') norm += (c == '0' || c == 'o') ? 'O' : c;
    if (norm == "OO" || norm == "OOO")
      return only([&](Move m) { return m.is_castling() && (m.to() > m.from()) == (norm == "OO"); });
  }
  SanPattern readings[2];
  const int n_readings = san_readings(s, readings);
  if (n_readings == 0) return error("unreadable move");
  const auto fits = [&](const SanPattern& p, Move m) {
    if (m.is_drop()) return false;
    const Square from = m.from();
    const PieceType pt = type_of(board_[from]);
    if (p.from_file >= 0 && file_of(from) != p.from_file) return false;
    if (p.from_rank >= 0 && rank_of(from) != p.from_rank) return false;
    if (m.is_castling()) {
      // Castling as the king's move (long algebraic): to its rook, or two or more files over.
      const Square kto = make_square(m.to() > from ? 6 : 2, rank_of(from));
      return p.from_complete() && pt == kKing && p.promo == kNoPieceType &&
             (p.to == m.to() || (p.to == kto && std::abs(file_of(kto) - file_of(from)) > 1));
    }
    if (p.piece == kNoPieceType ? !p.from_complete() && pt != kPawn : pt != p.piece) return false;
    return m.to() == p.to && m.promoted_piece() == p.promo;
  };
  for (int r = 0; r < n_readings; ++r) {
    const SanPattern& p = readings[r];
    bool any = false;
    for (const Move m : legal) any |= fits(p, m);
    if (any || r + 1 == n_readings) return only([&](Move m) { return fits(p, m); });
  }
  return error("illegal move");
}

Result<Move> Position::parse_san(std::string_view in) const {
  std::string_view s = in;
  auto strip_suffixes = [&] {
    while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?'))
      s.remove_suffix(1);
  };
  strip_suffixes();
  if (s.ends_with("e.p.")) s.remove_suffix(4);
  else if (s.ends_with("ep")) s.remove_suffix(2);
  strip_suffixes();

  const Color us = side_;
  const Square ksq = king_square(us);

  auto error = [&](const std::string& what, const std::string& detail = {}) {
    return invalid_input(what + " \"" + std::string(in) + "\"" + detail + " in position " + fen());
  };
  if (variant_ != Variant::kStandard) [[unlikely]]
    return parse_variant_san(s, in);
  if (ksq == kNoSquare) return error("no legal move (the side to move has no king)");

  // Castling in all its spellings.
  if (!s.empty() && (s[0] == 'O' || s[0] == '0' || s[0] == 'o')) {
    std::string norm;
    for (char c : s)
      if (c != '-') norm += (c == '0' || c == 'o') ? 'O' : c;
    if (norm == "OO" || norm == "OOO") {
      const Square r = castle_rook_[us][norm == "OO" ? kKingSide : kQueenSide];
      const Move m(ksq, r, Move::kCastling);
      if (r != kNoSquare && is_legal(m)) return m;
      return error("illegal move");
    }
  }

  // The readings of the token: a leading lowercase 'b' may be a bishop or the b-file.
  if (s.empty()) return error("empty move");
  SanPattern readings[2];
  const int n_readings = san_readings(s, readings);
  if (n_readings == 0) return error("unreadable move");

  // Readings are tried in order; the first that names any legal move decides (so a lowercase
  // 'b' is the b-file when a pawn move fits, as canonical SAN means it, and a bishop otherwise).
  // Candidates come from the attack tables; only they are checked for king safety.
  Move found[8];
  int n_found = 0;
  bool missing_promotion = false;
  for (int r = 0; r < n_readings && n_found == 0; ++r) {
    const SanPattern& p = readings[r];
    if (p.promo == kKing) continue;  // antichess's, never standard chess's
    PieceType pt = p.piece == kNoPieceType ? kPawn : p.piece;
    Bitboard candidates;
    if (p.from_complete()) {
      // Long algebraic (UCI) input names the piece by its square.
      const Square from = make_square(p.from_file, p.from_rank);
      const Piece fp = board_[from];
      if (fp == kNoPiece || color_of(fp) != us || (p.piece != kNoPieceType && type_of(fp) != p.piece)) continue;
      pt = type_of(fp);
      if (pt == kKing) {
        // Castling as the king's destination two or more files away (e1g1) or its own rook (e1h1).
        for (CastleSide side : {kKingSide, kQueenSide}) {
          const Square rook = castle_rook_[us][side];
          if (rook == kNoSquare) continue;
          const Square kto = make_square(side == kKingSide ? 6 : 2, rank_of(from));
          const int dist = std::abs(file_of(kto) - file_of(from));
          const Move m(from, rook, Move::kCastling);
          if ((p.to == rook || (p.to == kto && dist > 1)) && is_legal(m) && n_found < 8) found[n_found++] = m;
        }
        if (n_found) break;
      }
      candidates = bb(from);
    } else {
      candidates = ~Bitboard{0};
      if (p.from_file >= 0) candidates &= file_bb(p.from_file);
      if (p.from_rank >= 0) candidates &= rank_bb(p.from_rank);
    }
    if (board_[p.to] != kNoPiece && color_of(board_[p.to]) == us) continue;
    candidates &= pseudo_movers_to(*this, pt, p.to);
    const bool promotes = pt == kPawn && (rank_of(p.to) == 0 || rank_of(p.to) == 7);
    if (candidates && promotes != (p.promo != kNoPieceType)) {
      missing_promotion |= promotes;
      continue;
    }
    const bool en_passant = pt == kPawn && p.to == ep_;
    while (candidates) {
      const Square from = pop_lsb(candidates);
      if (!king_safe_after(*this, from, p.to, en_passant)) continue;
      if (n_found < 8) found[n_found++] = make_move(*this, from, p.to, promotes ? p.promo - kKnight : 0);
    }
  }
  if (n_found == 1) return found[0];
  if (n_found == 0) return error(missing_promotion ? "promotion piece missing in move" : "illegal move");
  std::string list;
  for (int k = 0; k < n_found; ++k) list += (k ? ", " : "") + san(found[k]);
  return error("ambiguous move", " (" + list + ")");
}

Result<Position> play_san_line(Position pos, std::string_view rest) {
  int ply = 0;
  for (std::string_view san; rules::next_move_word(rest, san);) {
    auto m = pos.parse_san(san);
    if (!m) return invalid_input("move " + std::to_string(ply + 1) + " '" + std::string(san) + "': " + m.error().message());
    pos.play(*m);
    ++ply;
  }
  return pos;
}

}  // namespace pgnarc
