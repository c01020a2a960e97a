#include "pgnarc/board_svg.h"

#include <algorithm>

#include "rules/movegen.h"

namespace pgnarc {
namespace {

// The drawing's units (the viewBox): whole numbers only, so that the bytes never depend on how a
// floating-point number is printed.
constexpr int kSquare = 60;  // one square
constexpr int kCoords = 20;  // the strip of file letters below and rank digits left of the board
constexpr int kSide = 20;    // the strip right of the board that holds the side-to-move disc
constexpr int kMargin = 4;   // above the board and below everything
constexpr int kPocket = 24;  // a crazyhouse pocket's line of text
constexpr int kBoard = 8 * kSquare;

constexpr const char* kLight = "#ece3cf";
constexpr const char* kDark = "#a98b6d";
constexpr const char* kTint = "#f3d53c";
constexpr const char* kPieceFonts =
    "'DejaVu Sans','Noto Sans Symbols 2','Segoe UI Symbol','Apple Symbols','FreeSerif',serif";

// The filled glyphs (U+265A king .. U+265F pawn) for both colours: white pieces are filled white
// and outlined, which reads on either square. U+FE0E asks for the text form, not an emoji.
const char* glyph(PieceType t) {
  switch (t) {
    case kKing:
      return "\u265A\uFE0E";
    case kQueen:
      return "\u265B\uFE0E";
    case kRook:
      return "\u265C\uFE0E";
    case kBishop:
      return "\u265D\uFE0E";
    case kKnight:
      return "\u265E\uFE0E";
    case kPawn:
      return "\u265F\uFE0E";
    case kNoPieceType:
      return "";
  }
  return "";
}

char fen_letter(Piece p) {
  const char c = rules::kPieceLetters[type_of(p)];
  return color_of(p) == kWhite ? c : static_cast<char>(c + 32);
}

// Attribute text; a FEN has none of these characters, but the function must not rely on that.
std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

struct Layout {
  bool flip = false;
  int left = 0;  // the board's top-left corner
  int top = 0;
  int col(Square s) const { return flip ? 7 - file_of(s) : file_of(s); }
  int row(Square s) const { return flip ? rank_of(s) : 7 - rank_of(s); }
  int x(Square s) const { return left + col(s) * kSquare; }
  int y(Square s) const { return top + row(s) * kSquare; }
};

void add(std::string& out, std::initializer_list<std::string_view> parts) {
  for (const std::string_view p : parts) out += p;
}
std::string num(int v) { return std::to_string(v); }

// The squares a move is seen to touch: a drop only its square; castling the king's from square
// and the one it lands on (the move's own to square is its rook's).
void last_move_squares(Move m, Square out[2], int& n) {
  n = 0;
  if (m.is_none() || m.is_null()) return;
  if (m.is_drop()) {
    out[n++] = m.to();
    return;
  }
  out[n++] = m.from();
  if (m.is_castling()) {
    const Square king_to =
        make_square(file_of(m.to()) > file_of(m.from()) ? 6 : 2, rank_of(m.from()));
    if (king_to != m.from()) out[n++] = king_to;
    return;
  }
  out[n++] = m.to();
}

void pocket_line(std::string& out, const Position& pos, Color c, int x, int baseline) {
  static constexpr PieceType kOrder[] = {kQueen, kRook, kBishop, kKnight, kPawn};
  std::string letters, shown;
  for (const PieceType t : kOrder) {
    const int n = pos.pocket(c, t);
    if (n == 0) continue;
    letters.append(static_cast<std::size_t>(n), fen_letter(make_piece(c, t)));
    if (!shown.empty()) shown += ' ';
    add(shown, {glyph(t), num(n)});
  }
  if (shown.empty()) shown += '-';  // (+=: GCC 12 warns, wrongly, of an overlap in = "-")
  add(out, {"<text class=\"pocket\" data-color=\"", c == kWhite ? "w" : "b", "\" data-pocket=\"",
            letters, "\" x=\"", num(x), "\" y=\"", num(baseline), "\" font-family=\"", kPieceFonts,
            "\" font-size=\"18\" fill=\"#333\">", shown, "</text>\n"});
}

}  // namespace

std::string board_svg(const Position& pos, const BoardSvgOptions& o) {
  const bool pockets = pos.variant() == Variant::kCrazyhouse;
  const int coords = o.coordinates ? kCoords : 0;
  Layout at;
  at.flip = o.flip;
  at.left = coords;
  at.top = kMargin + (pockets ? kPocket : 0);
  const int width = coords + kBoard + kSide;
  const int height = at.top + kBoard + coords + (pockets ? kPocket : 0) + kMargin;
  const int px = std::clamp(o.size, 16, 4096);
  const int px_height = (px * height + width / 2) / width;

  std::string out;
  out.reserve(8192);
  add(out, {"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", num(px), "\" height=\"",
            num(px_height), "\" viewBox=\"0 0 ", num(width), " ", num(height), "\" data-fen=\"",
            escape(pos.fen()), "\" data-flip=\"", o.flip ? "1" : "0", "\">\n"});

  // The board: light squares as one rectangle, the dark ones as one path over it.
  add(out, {"<rect class=\"board\" x=\"", num(at.left), "\" y=\"", num(at.top), "\" width=\"",
            num(kBoard), "\" height=\"", num(kBoard), "\" fill=\"", kLight,
            "\"/>\n<path class=\"dark\" fill=\"", kDark, "\" d=\""});
  for (Square s = 0; s < 64; ++s)
    if ((file_of(s) + rank_of(s)) % 2 == 0)
      add(out, {"M", num(at.x(s)), " ", num(at.y(s)), "h", num(kSquare), "v", num(kSquare), "h-",
                num(kSquare), "z"});
  out += "\"/>\n";

  Square marked[2];
  int n_marked = 0;
  last_move_squares(o.last_move, marked, n_marked);
  for (int i = 0; i < n_marked; ++i)
    add(out, {"<rect class=\"last-move\" data-square=\"", square_name(marked[i]), "\" x=\"",
              num(at.x(marked[i])), "\" y=\"", num(at.y(marked[i])), "\" width=\"", num(kSquare),
              "\" height=\"", num(kSquare), "\" fill=\"", kTint, "\" fill-opacity=\"0.5\"/>\n"});

  if (o.coordinates) {
    out += "<g font-family=\"sans-serif\" font-size=\"13\" fill=\"#555\" text-anchor=\"middle\">\n";
    for (int f = 0; f < 8; ++f) {
      const Square s = make_square(f, 0);
      const std::string name(1, static_cast<char>('a' + f));
      add(out, {"<text class=\"coord\" data-coord=\"", name, "\" x=\"", num(at.x(s) + kSquare / 2),
                "\" y=\"", num(at.top + kBoard + 15), "\">", name, "</text>\n"});
    }
    for (int r = 0; r < 8; ++r) {
      const Square s = make_square(0, r);
      const std::string name(1, static_cast<char>('1' + r));
      add(out, {"<text class=\"coord\" data-coord=\"", name, "\" x=\"", num(kCoords / 2), "\" y=\"",
                num(at.y(s) + kSquare / 2 + 5), "\">", name, "</text>\n"});
    }
    out += "</g>\n";
  }

  add(out, {"<g font-family=\"", kPieceFonts, "\" font-size=\"50\" text-anchor=\"middle\">\n"});
  for (Square s = 0; s < 64; ++s) {
    const Piece p = pos.piece_on(s);
    if (p == kNoPiece) continue;
    const bool white = color_of(p) == kWhite;
    add(out,
        {"<text class=\"piece\" data-square=\"", square_name(s), "\" data-piece=\"",
         std::string(1, fen_letter(p)), "\" x=\"", num(at.x(s) + kSquare / 2), "\" y=\"",
         num(at.y(s) + 48), "\"",
         white ? " fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linejoin=\"round\""
               : " fill=\"#000\"",
         ">", glyph(type_of(p)), "</text>\n"});
  }
  out += "</g>\n";

  // The side to move: a small disc right of the board, level with the mover's first rank.
  const Color bottom = o.flip ? kBlack : kWhite;
  const int disc_y =
      pos.side_to_move() == bottom ? at.top + kBoard - kSquare / 2 : at.top + kSquare / 2;
  add(out, {"<circle class=\"to-move\" data-color=\"", pos.side_to_move() == kWhite ? "w" : "b",
            "\" cx=\"", num(at.left + kBoard + kSide / 2), "\" cy=\"", num(disc_y),
            "\" r=\"6\" fill=\"", pos.side_to_move() == kWhite ? "#fff" : "#333",
            "\" stroke=\"#333\" stroke-width=\"1.5\"/>\n"});

  if (pockets) {
    pocket_line(out, pos, ~bottom, at.left, kMargin + 18);
    pocket_line(out, pos, bottom, at.left, at.top + kBoard + coords + 18);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace pgnarc
