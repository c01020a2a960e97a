// Xiangqi text: FEN in both directions (strict, errors name the field) and ICCS coordinates.
#include <algorithm>
#include <array>
#include <charconv>
#include <string>

#include "rules/xiangqi.h"

namespace pgnarc::rules::xiangqi {

namespace {

// Canonical letters by type (index 0, no piece, unused), as Fairy-Stockfish writes them.
inline constexpr std::string_view kLetters = " KABNRCP";
inline constexpr std::string_view kTypeNames[8] = {"",      "general", "advisor", "elephant",
                                                   "horse", "chariot", "cannon",  "soldier"};

PieceType type_from_letter(char c) {
  switch (c | 0x20) {  // lower case; leaves digits and '/' unequal to every letter below
    case 'k': return kGeneral;
    case 'a': return kAdvisor;
    case 'b': case 'e': return kElephant;
    case 'n': case 'h': return kHorse;
    case 'r': return kChariot;
    case 'c': return kCannon;
    case 'p': return kSoldier;
    default: return kNoPieceType;
  }
}

// An error naming the FEN, its field (from 1) and what is wrong there.
Error fen_error(std::string_view fen, int field, std::string_view name, const std::string& why) {
  return invalid_input("bad xiangqi FEN \"" + std::string(fen) + "\": field " + std::to_string(field) + " (" +
                       std::string(name) + "): " + why);
}

}  // namespace

std::string square_name(int square) {
  if (square < 0 || square >= kSquares) return "-";
  return {static_cast<char>('a' + file_of(square)), static_cast<char>('0' + rank_of(square))};
}

Position::Position() {
  static const Position start =
      from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").value();
  *this = start;
}

Result<Position> Position::from_fen(std::string_view fen) {
  // Fields separated by single spaces, as every FEN writer emits them; 2 to 6 of them.
  std::array<std::string_view, 7> fields;
  std::size_t count = 0;
  for (std::size_t at = 0; at <= fen.size() && count < fields.size();) {
    const std::size_t end = std::min(fen.find(' ', at), fen.size());
    fields[count++] = fen.substr(at, end - at);
    at = end + 1;
  }
  if (count < 2 || count > 6)
    return invalid_input("bad xiangqi FEN \"" + std::string(fen) + "\": expected 2 to 6 fields, found " +
                         (count > 6 ? "more than 6" : std::to_string(count)));
  for (std::size_t i = 0; i < count; ++i)
    if (fields[i].empty()) return fen_error(fen, static_cast<int>(i + 1), "fields", "empty (two spaces in a row?)");

  Position pos{Empty{}};
  constexpr std::string_view kBoard = "board";
  int rank = kRanks - 1, file = 0;
  std::array<std::array<int, 8>, 2> counts{};
  const auto rank_text = [&rank] { return "rank " + std::to_string(rank); };
  for (const char c : fields[0]) {
    if (c == '/') {
      if (file != kFiles)
        return fen_error(fen, 1, kBoard, rank_text() + " has " + std::to_string(file) + " squares, not 9");
      if (--rank < 0) return fen_error(fen, 1, kBoard, "more than 10 ranks");
      file = 0;
    } else if (c >= '1' && c <= '9') {
      file += c - '0';
      if (file > kFiles) return fen_error(fen, 1, kBoard, rank_text() + " has more than 9 squares");
    } else {
      const PieceType t = type_from_letter(c);
      if (t == kNoPieceType) return fen_error(fen, 1, kBoard, std::string("bad piece letter '") + c + "'");
      if (file >= kFiles) return fen_error(fen, 1, kBoard, rank_text() + " has more than 9 squares");
      const Side s = c >= 'a' ? kBlack : kRed;
      const char* side_name = s == kRed ? "red " : "black ";
      if (!can_stand(s, t, make_square(file, rank)))
        return fen_error(fen, 1, kBoard,
                         std::string(side_name) + std::string(kTypeNames[t]) + " on " +
                             square_name(make_square(file, rank)) + ", which it can never reach");
      if (++counts[s][t] > kStartCount[t])
        return fen_error(fen, 1, kBoard,
                         std::string("more than ") + std::to_string(kStartCount[t]) + " " + side_name +
                             std::string(kTypeNames[t]) + (kStartCount[t] > 1 ? "s" : ""));
      const int sq = make_square(file, rank);
      pos.board_[static_cast<std::size_t>(sq)] = make_piece(s, t);
      if (t == kGeneral) pos.general_[s] = static_cast<std::uint8_t>(sq);
      pos.squares_[s][static_cast<std::size_t>(sq / 64)] |= std::uint64_t{1} << (sq % 64);
      ++file;
    }
  }
  if (rank != 0) return fen_error(fen, 1, kBoard, "expected 10 ranks, found " + std::to_string(kRanks - rank));
  if (file != kFiles) return fen_error(fen, 1, kBoard, "rank 0 has " + std::to_string(file) + " squares, not 9");
  for (const Side s : {kRed, kBlack})
    if (counts[s][kGeneral] != 1)
      return fen_error(fen, 1, kBoard, std::string("no ") + (s ? "black" : "red") + " general");

  if (fields[1] == "w" || fields[1] == "r") pos.side_ = kRed;
  else if (fields[1] == "b") pos.side_ = kBlack;
  else
    return fen_error(fen, 2, "side to move",
                     "expected 'w' (or 'r') or 'b', found \"" + std::string(fields[1]) + "\"");

  // Xiangqi has neither castling nor en passant: Fairy-Stockfish writes "-" for both.
  if (count > 2 && fields[2] != "-")
    return fen_error(fen, 3, "castling", "expected '-', found \"" + std::string(fields[2]) + "\"");
  if (count > 3 && fields[3] != "-")
    return fen_error(fen, 4, "en passant", "expected '-', found \"" + std::string(fields[3]) + "\"");
  for (std::size_t i = 4; i < count; ++i) {
    const std::string_view f = fields[i];
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    const char* name = i == 4 ? "halfmove clock" : "fullmove number";
    if (ec != std::errc() || end != f.data() + f.size() || value > 65535)
      return fen_error(fen, static_cast<int>(i + 1), name,
                       "\"" + std::string(f) + "\" is not a number from 0 to 65535");
    if (i == 4) pos.halfmove_ = static_cast<std::uint16_t>(value);
    else pos.fullmove_ = static_cast<std::uint16_t>(value == 0 ? 1 : value);
  }

  Position other = pos;
  other.side_ = opponent(pos.side_);
  if (other.in_check())
    return fen_error(fen, 2, "side to move",
                     std::string("the side not to move (") + (other.side_ == kRed ? "red" : "black") +
                         ") is in check or its general faces the other");
  return pos;
}

std::string Position::fen() const {
  std::string s;
  s.reserve(64);
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const Piece p = board_[static_cast<std::size_t>(make_square(file, rank))];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += static_cast<char>('0' + empty);
      empty = 0;
      const char c = kLetters[type_of(p)];
      s += side_of(p) == kRed ? c : static_cast<char>(c | 0x20);
    }
    if (empty) s += static_cast<char>('0' + empty);
    if (rank) s += '/';
  }
  s += side_ == kRed ? " w - - " : " b - - ";
  s += std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
  return s;
}

std::string to_iccs(Move m) {
  std::string s = square_name(m.from);
  s += square_name(m.to);
  return s;
}

Result<Move> parse_iccs(std::string_view text) {
  const bool hyphen = text.size() == 5 && text[2] == '-';
  if (text.size() == 4 || hyphen) {
    const auto square = [&](std::size_t at) {
      const int f = (text[at] | 0x20) - 'a', r = text[at + 1] - '0';
      return f >= 0 && f < kFiles && r >= 0 && r < kRanks ? make_square(f, r) : -1;
    };
    const int from = square(0), to = square(hyphen ? 3 : 2);
    if (from >= 0 && to >= 0) return Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
  }
  return invalid_input("bad ICCS move \"" + std::string(text) +
                       "\": expected a file a-i and a rank 0-9 twice, as in \"h2e2\" or \"H2-E2\"");
}

Result<Move> parse_legal_iccs(const Position& pos, std::string_view text) {
  Result<Move> m = parse_iccs(text);
  if (m.ok() && !is_legal(pos, *m))
    return invalid_input("illegal ICCS move \"" + std::string(text) + "\" in " + pos.fen());
  return m;
}

}  // namespace pgnarc::rules::xiangqi
