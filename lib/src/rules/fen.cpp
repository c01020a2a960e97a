// FEN: a strict parser whose errors name the field and the reason, and the writer.
#include <algorithm>
#include <array>
#include <charconv>

#include "rules/movegen.h"

namespace pgnarc {

using namespace rules;

namespace {

Error fen_error(std::string_view fen, int field, std::string_view field_name, const std::string& why) {
  return invalid_input("bad FEN \"" + std::string(fen) + "\": field " + std::to_string(field) + " (" +
                       std::string(field_name) + "): " + why);
}

// Up to eight fields (one more than a three-check FEN has, so that too many are seen), without
// allocating: a game from a set-up position parses its FEN every time it is decoded.
struct Fields {
  std::array<std::string_view, 8> at;
  std::size_t size = 0;
  const std::string_view& operator[](std::size_t i) const { return at[i]; }
  void erase(std::size_t i) {
    for (; i + 1 < size; ++i) at[i] = at[i + 1];
    --size;
  }
};

// A three-check count: "W+B" (checks remaining) or "+W+B" (checks given, lichess), each 0 to 3.
bool parse_checks(std::string_view f, bool given, std::uint8_t out[2]) {
  if (given) f.remove_prefix(1);
  if (f.size() != 3 || f[1] != '+' || f[0] < '0' || f[0] > '3' || f[2] < '0' || f[2] > '3') return false;
  for (int c = 0; c < 2; ++c) out[c] = static_cast<std::uint8_t>(given ? 3 - (f[2 * c] - '0') : f[2 * c] - '0');
  return true;
}

Fields split_fields(std::string_view s) {
  Fields out;
  std::size_t i = 0;
  while (i < s.size() && out.size < out.at.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.at[out.size++] = s.substr(i, j - i);
    i = j;
  }
  return out;
}

}  // namespace

Result<Position> Position::from_fen(std::string_view fen, bool chess960, Variant variant) {
  auto fields = split_fields(fen);
  Position pos{Blank{}};
  pos.variant_ = variant;
  // Three-check's checks: remaining as the fifth field, or given as the seventh.
  if (variant == Variant::kThreeCheck) {
    if (fields.size >= 5 && fields[4].find('+') != std::string_view::npos) {
      if (!parse_checks(fields[4], false, pos.checks_))
        return fen_error(fen, 5, "checks", "expected checks remaining as \"3+3\", found \"" + std::string(fields[4]) + "\"");
      fields.erase(4);
    } else if (fields.size == 7 && fields[6].starts_with('+')) {
      if (!parse_checks(fields[6], true, pos.checks_))
        return fen_error(fen, 7, "checks", "expected checks given as \"+0+0\", found \"" + std::string(fields[6]) + "\"");
      fields.erase(6);
    }
  }
  if (fields.size < 4 || fields.size > 6)
    return invalid_input("bad FEN \"" + std::string(fen) + "\": expected 4 to 6 fields, found " +
                         (fields.size > 6 ? std::string("7 or more") : std::to_string(fields.size)));
  // Crazyhouse's pockets: "[...]" after the board, or a ninth rank.
  std::string_view placement = fields[0], pockets;
  if (variant == Variant::kCrazyhouse) {
    if (placement.ends_with(']')) {
      const std::size_t open = placement.find('[');
      if (open == std::string_view::npos) return fen_error(fen, 1, "pockets", "']' without '['");
      pockets = placement.substr(open + 1, placement.size() - open - 2);
      placement = placement.substr(0, open);
    } else if (std::count(placement.begin(), placement.end(), '/') == 8) {
      const std::size_t slash = placement.rfind('/');
      pockets = placement.substr(slash + 1);
      placement = placement.substr(0, slash);
    }
    for (char c : pockets) {
      const PieceType t = piece_from_letter(c);
      if (t == kNoPieceType || t == kKing) return fen_error(fen, 1, "pockets", std::string("bad piece letter '") + c + "'");
      std::uint8_t& n = pos.pocket_[c >= 'a' ? kBlack : kWhite][t];
      if (n == 64) return fen_error(fen, 1, "pockets", "more than 64 pieces of one kind");
      ++n;
    }
  }
  // Field 1: piece placement, rank 8 first.
  {
    constexpr const char* kName = "piece placement";
    int rank = 7, file = 0;
    Square placed = kNoSquare;  // the square of the piece the character before placed
    for (char c : placement) {
      if (c == '~' && variant == Variant::kCrazyhouse && placed != kNoSquare && type_of(pos.board_[placed]) != kPawn &&
          type_of(pos.board_[placed]) != kKing) {
        pos.promoted_ |= bb(placed);  // a promoted piece (never a pawn or a king)
        placed = kNoSquare;
        continue;
      }
      placed = kNoSquare;
      if (c == '/') {
        if (file != 8)
          return fen_error(fen, 1, kName, "rank " + std::to_string(rank + 1) + " has " +
                                              std::to_string(file) + " squares, not 8");
        if (--rank < 0) return fen_error(fen, 1, kName, "more than 8 ranks");
        file = 0;
      } else if (c >= '1' && c <= '8') {
        file += c - '0';
        if (file > 8)
          return fen_error(fen, 1, kName, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
      } else {
        const PieceType type = piece_from_letter(c);
        if (type == kNoPieceType) return fen_error(fen, 1, kName, std::string("bad piece letter '") + c + "'");
        if (file >= 8)
          return fen_error(fen, 1, kName, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
        const Color color = c >= 'a' ? kBlack : kWhite;
        // (Horde's white pawns may stand on the first rank.)
        if (type == kPawn && (rank == 7 || (rank == 0 && !(variant == Variant::kHorde && color == kWhite))))
          return fen_error(fen, 1, kName, "pawn on " + square_name(make_square(file, rank)));
        pos.put(make_piece(color, type), make_square(file, rank));
        placed = make_square(file, rank);
        ++file;
      }
    }
    if (rank != 0) return fen_error(fen, 1, kName, "expected 8 ranks, found " + std::to_string(8 - rank));
    if (file != 8)
      return fen_error(fen, 1, kName, "rank 1 has " + std::to_string(file) + " squares, not 8");
    for (Color c : {kWhite, kBlack}) {
      const char* name = c == kWhite ? "white" : "black";
      const int kings = popcount(pos.pieces(c, kKing));
      // Antichess has any number of kings; horde's white none.
      const bool horde_white = variant == Variant::kHorde && c == kWhite;
      if (horde_white && kings) return fen_error(fen, 1, kName, "a white king in horde");
      if (kings != 1 && variant != Variant::kAntichess && !horde_white)
        return fen_error(fen, 1, kName, std::string(kings ? "more than one " : "no ") + name + " king");
      // Only standard chess bounds the pieces (so the move lists: kMaxLegalMoves).
      if (popcount(pos.pieces(c)) > 16 && variant == Variant::kStandard)
        return fen_error(fen, 1, kName, std::string("more than 16 ") + name + " pieces");
    }
  }
  // Field 2: side to move.
  if (fields[1] == "w") pos.side_ = kWhite;
  else if (fields[1] == "b") pos.side_ = kBlack;
  else return fen_error(fen, 2, "side to move", "expected 'w' or 'b', found \"" + std::string(fields[1]) + "\"");

  // Field 3: castling rights. KQkq name the outermost rook on that side of the king; A-H / a-h
  // name the rook's file (X-FEN and Shredder-FEN) and mark the position as Chess960.
  bool non_standard = false;
  if (fields[2] != "-") {
    constexpr const char* kName = "castling";
    for (char c : fields[2]) {
      const Color color = (c >= 'a' && c <= 'z') ? kBlack : kWhite;
      const char upper = static_cast<char>(color == kBlack ? c - 32 : c);
      const int base_rank = color == kWhite ? 0 : 7;
      const Bitboard back_rooks = pos.pieces(color, kRook) & rank_bb(base_rank);
      const Square ksq = pos.king_square(color);
      const std::string right(1, c);
      if (variant == Variant::kAntichess && popcount(pos.pieces(color, kKing)) != 1)
        return fen_error(fen, 3, kName, "right '" + right + "' but not exactly one king of that color");
      if (rank_of(ksq) != base_rank)
        return fen_error(fen, 3, kName, "right '" + right + "' but the king is not on its first rank");
      Square rook = kNoSquare;
      if (upper == 'K' || upper == 'Q') {
        const Bitboard side_rooks =
            back_rooks & (upper == 'K' ? ~((bb(ksq) << 1) - 1) : (bb(ksq) - 1));
        if (side_rooks)
          rook = upper == 'K' ? static_cast<Square>(63 - std::countl_zero(side_rooks)) : lsb(side_rooks);
      } else if (upper >= 'A' && upper <= 'H') {
        // File letters (Shredder-FEN, X-FEN) are Chess960 notation.
        non_standard = true;
        const Square s = make_square(upper - 'A', base_rank);
        if (back_rooks & bb(s)) rook = s;
      } else {
        return fen_error(fen, 3, kName, "bad character '" + right + "'");
      }
      if (rook == kNoSquare)
        return fen_error(fen, 3, kName, "right '" + right + "' but no rook of that color for it");
      const CastleSide side = rook > ksq ? kKingSide : kQueenSide;
      if (pos.castle_rook_[color][side] != kNoSquare)
        return fen_error(fen, 3, kName, "two rights for the same side ('" + right + "')");
      pos.castle_rook_[color][side] = rook;
      if (file_of(ksq) != 4 || file_of(rook) != (side == kKingSide ? 7 : 0)) non_standard = true;
    }
  }
  pos.chess960_ = chess960 || non_standard;

  // Field 4: en passant target square.
  if (fields[3] != "-") {
    constexpr const char* kName = "en passant";
    const auto f = fields[3];
    if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
      return fen_error(fen, 4, kName, "\"" + std::string(f) + "\" is not a square");
    const Square ep = make_square(f[0] - 'a', f[1] - '1');
    const Color us = pos.side_, them = ~us;
    const int want_rank = us == kWhite ? 5 : 2;
    const Square pushed = static_cast<Square>(us == kWhite ? ep - 8 : ep + 8);
    const Square origin = static_cast<Square>(us == kWhite ? ep + 8 : ep - 8);
    if (rank_of(ep) != want_rank)
      return fen_error(fen, 4, kName, "impossible square " + std::string(f) + ": must be on rank " +
                                          std::to_string(want_rank + 1) + " with " +
                                          (us == kWhite ? "white" : "black") + " to move");
    if (pos.board_[pushed] != make_piece(them, kPawn) || pos.board_[ep] != kNoPiece ||
        pos.board_[origin] != kNoPiece)
      return fen_error(fen, 4, kName, "impossible square " + std::string(f) +
                                          ": no pawn can just have made a double step past it");
    // Kept only where a pawn of the side to move could take (as after Position::play).
    if (attack_tables().pawn[them][ep] & pos.pieces(us, kPawn)) pos.ep_ = ep;
  }

  // Fields 5 and 6: halfmove clock and fullmove number (optional, as in EPD-style FENs).
  for (std::size_t i = 4; i < fields.size; ++i) {
    const auto f = fields[i];
    unsigned value = 0;
    auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    const char* name = i == 4 ? "halfmove clock" : "fullmove number";
    if (ec != std::errc() || end != f.data() + f.size() || value > 65535)
      return fen_error(fen, static_cast<int>(i + 1), name, "\"" + std::string(f) + "\" is not a number from 0 to 65535");
    if (i == 4) pos.halfmove_ = static_cast<std::uint16_t>(value);
    else pos.fullmove_ = static_cast<std::uint16_t>(value == 0 ? 1 : value);
  }

  const Color them = ~pos.side_;
  if (variant != Variant::kStandard) {
    Position other = pos;
    other.side_ = them;
    if (!other.variant_in_check()) return pos;
  } else if (!(attackers_to(pos, pos.king_square(them), pos.occupied()) & pos.pieces(pos.side_))) {
    return pos;
  }
  return fen_error(fen, 2, "side to move", std::string("the side not to move (") +
                                                  (them == kWhite ? "white" : "black") + ") is in check");
  return pos;
}

std::string Position::fen() const { return fen(ep_); }

std::string Position::fen(Square ep) const {
  std::string s;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = board_[make_square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += static_cast<char>('0' + empty);
      empty = 0;
      const char c = kPieceLetters[type_of(p)];
      s += color_of(p) == kWhite ? c : static_cast<char>(c + 32);
      if (promoted_ & bb(make_square(file, rank))) s += '~';
    }
    if (empty) s += static_cast<char>('0' + empty);
    if (rank) s += '/';
  }
  if (variant_ == Variant::kCrazyhouse) {
    s += '[';
    for (Color c : {kWhite, kBlack})
      for (int t = kQueen; t >= kPawn; --t)
        s.append(pocket_[c][t], static_cast<char>(kPieceLetters[t] + (c == kBlack ? 32 : 0)));
    s += ']';
  }
  s += side_ == kWhite ? " w " : " b ";
  const std::size_t before = s.size();
  for (Color c : {kWhite, kBlack}) {
    for (CastleSide side : {kKingSide, kQueenSide}) {
      const Square r = castle_rook_[c][side];
      if (r == kNoSquare) continue;
      // The letter K/Q says "outermost rook on that side"; any other rook needs its file.
      const Bitboard rooks = pieces(c, kRook) & rank_bb(rank_of(r));
      const Bitboard outer = side == kKingSide ? rooks & ~((bb(r) << 1) - 1) : rooks & (bb(r) - 1);
      char letter = outer ? static_cast<char>('A' + file_of(r)) : (side == kKingSide ? 'K' : 'Q');
      s += c == kWhite ? letter : static_cast<char>(letter + 32);
    }
  }
  if (s.size() == before) s += '-';
  s += ' ';
  s += square_name(ep);
  s += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
  if (variant_ == Variant::kThreeCheck)
    s += " +" + std::to_string(3 - checks_[kWhite]) + '+' + std::to_string(3 - checks_[kBlack]);
  return s;
}

}  // namespace pgnarc
