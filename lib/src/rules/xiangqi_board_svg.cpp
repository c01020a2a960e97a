// A game's board after some plies, or a Xiangqi FEN's, as an SVG picture (board_svg.h): chess's
// board_svg, or a Xiangqi board drawn here.
#include <algorithm>
#include <string>

#include "rules/xiangqi_board_svg.h"

#include "rules/xiangqi_game.h"

namespace pgnarc {
namespace {

namespace rx = rules::xiangqi;

// The drawing's units (the viewBox), whole numbers only as in board_svg.
constexpr int kStep = 40;    // between two points of the grid
constexpr int kPad = 24;     // around the grid, so that the edge pieces fit
constexpr int kCoords = 20;  // the strip of file letters below and rank digits left of the board
constexpr int kSide = 20;    // the strip right of the board that holds the side-to-move disc
constexpr int kMargin = 4;
constexpr int kBoard = 2 * kPad + (rx::kFiles - 1) * kStep;
constexpr int kBoardHeight = 2 * kPad + (rx::kRanks - 1) * kStep;

constexpr const char* kWood = "#f1d9a7";
constexpr const char* kLine = "#5b3a1a";
constexpr const char* kRedInk = "#c0392b";
constexpr const char* kBlackInk = "#222";
constexpr const char* kTint = "#f3d53c";
constexpr const char* kFonts =
    "'Noto Sans CJK SC','Noto Serif CJK SC','WenQuanYi Zen Hei','Microsoft YaHei','PingFang SC','SimSun',serif";

// Each piece's character by side and type (rx::PieceType: general .. soldier), and its FEN letter.
constexpr const char* kCharacter[2][8] = {{"", "帥", "仕", "相", "傌", "俥", "炮", "兵"},
                                          {"", "將", "士", "象", "馬", "車", "砲", "卒"}};
constexpr char kLetter[8] = {' ', 'K', 'A', 'B', 'N', 'R', 'C', 'P'};

std::string num(int v) { return std::to_string(v); }
void add(std::string& out, std::initializer_list<std::string_view> parts) {
  for (const std::string_view p : parts) out += p;
}

struct Layout {
  bool flip = false;
  int left = 0, top = 0;  // the grid's top-left point
  int x(int square) const { return left + (flip ? rx::kFiles - 1 - rx::file_of(square) : rx::file_of(square)) * kStep; }
  int y(int square) const { return top + (flip ? rx::rank_of(square) : rx::kRanks - 1 - rx::rank_of(square)) * kStep; }
};

}  // namespace

std::string rules::xiangqi::board_svg(const rx::Position& pos, const rx::Move* last, const BoardSvgOptions& o) {
  const int coords = o.coordinates ? kCoords : 0;
  Layout at;
  at.flip = o.flip;
  at.left = coords + kPad;
  at.top = kMargin + kPad;
  const int width = coords + kBoard + kSide, height = kMargin + kBoardHeight + coords + kMargin;
  const int px = std::clamp(o.size, 16, 4096);
  const int px_height = (px * height + width / 2) / width;
  const auto point = [&](int file, int rank) { return rx::make_square(file, rank); };
  std::string out;
  out.reserve(8192);
  add(out, {"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", num(px), "\" height=\"", num(px_height),
            "\" viewBox=\"0 0 ", num(width), " ", num(height), "\" data-fen=\"", pos.fen(), "\" data-flip=\"",
            o.flip ? "1" : "0", "\">\n"});
  add(out, {"<rect class=\"board\" x=\"", num(coords), "\" y=\"", num(kMargin), "\" width=\"", num(kBoard),
            "\" height=\"", num(kBoardHeight), "\" fill=\"", kWood, "\"/>\n"});
  // The lines: every rank; the edge files whole, the others broken by the river; the palaces'
  // diagonals.
  add(out, {"<path class=\"lines\" fill=\"none\" stroke=\"", kLine, "\" stroke-width=\"1.5\" d=\""});
  const auto line = [&](int a, int b) {
    add(out, {"M", num(at.x(a)), " ", num(at.y(a)), "L", num(at.x(b)), " ", num(at.y(b))});
  };
  for (int r = 0; r < rx::kRanks; ++r) line(point(0, r), point(rx::kFiles - 1, r));
  for (int f = 0; f < rx::kFiles; ++f) {
    if (f == 0 || f == rx::kFiles - 1) {
      line(point(f, 0), point(f, rx::kRanks - 1));
    } else {
      line(point(f, 0), point(f, 4));
      line(point(f, 5), point(f, rx::kRanks - 1));
    }
  }
  for (const int r : {0, 7}) {
    line(point(3, r), point(5, r + 2));
    line(point(5, r), point(3, r + 2));
  }
  out += "\"/>\n";
  // The river's words, Black's half (楚河) on the left as Red sees the board.
  const int river_y = (at.y(point(0, 4)) + at.y(point(0, 5))) / 2 + 8;
  add(out, {"<g class=\"river\" font-family=\"", kFonts, "\" font-size=\"22\" fill=\"", kLine,
            "\" text-anchor=\"middle\">\n<text x=\"", num(at.left + 2 * kStep), "\" y=\"", num(river_y),
            "\">楚 河</text>\n<text x=\"", num(at.left + 6 * kStep), "\" y=\"", num(river_y), "\">漢 界</text>\n</g>\n"});
  if (last)
    for (const int s : {static_cast<int>(last->from), static_cast<int>(last->to)})
      add(out, {"<circle class=\"last-move\" data-square=\"", rx::square_name(s), "\" cx=\"", num(at.x(s)), "\" cy=\"",
                num(at.y(s)), "\" r=\"19\" fill=\"", kTint, "\" fill-opacity=\"0.6\"/>\n"});
  if (o.coordinates) {
    out += "<g font-family=\"sans-serif\" font-size=\"13\" fill=\"#555\" text-anchor=\"middle\">\n";
    for (int f = 0; f < rx::kFiles; ++f) {
      const std::string name(1, static_cast<char>('a' + f));
      add(out, {"<text class=\"coord\" data-coord=\"", name, "\" x=\"", num(at.x(point(f, 0))), "\" y=\"",
                num(kMargin + kBoardHeight + 15), "\">", name, "</text>\n"});
    }
    for (int r = 0; r < rx::kRanks; ++r) {
      const std::string name(1, static_cast<char>('0' + r));
      add(out, {"<text class=\"coord\" data-coord=\"", name, "\" x=\"", num(kCoords / 2), "\" y=\"",
                num(at.y(point(0, r)) + 5), "\">", name, "</text>\n"});
    }
    out += "</g>\n";
  }
  add(out, {"<g font-family=\"", kFonts, "\" font-size=\"22\" text-anchor=\"middle\">\n"});
  for (int s = 0; s < rx::kSquares; ++s) {
    const rx::Piece p = pos.piece_on(s);
    if (p == rx::kNoPiece) continue;
    const int side = rx::side_of(p), type = rx::type_of(p);
    const char* colour = side == rx::kRed ? kRedInk : kBlackInk;
    const char letter = side == rx::kRed ? kLetter[type] : static_cast<char>(kLetter[type] + 32);
    add(out, {"<g class=\"piece\" data-square=\"", rx::square_name(s), "\" data-piece=\"", std::string(1, letter),
              "\"><circle cx=\"", num(at.x(s)), "\" cy=\"", num(at.y(s)), "\" r=\"17\" fill=\"#fbeed5\" stroke=\"",
              colour, "\" stroke-width=\"2\"/><text x=\"", num(at.x(s)), "\" y=\"", num(at.y(s) + 8), "\" fill=\"",
              colour, "\">", kCharacter[side][type], "</text></g>\n"});
  }
  out += "</g>\n";
  // The side to move: a disc right of the board, level with the mover's back rank.
  const bool red = pos.side_to_move() == rx::kRed;
  const bool below = red != o.flip;
  add(out, {"<circle class=\"to-move\" data-color=\"", red ? "w" : "b", "\" cx=\"", num(coords + kBoard + kSide / 2),
            "\" cy=\"", num(below ? kMargin + kBoardHeight - kPad : kMargin + kPad), "\" r=\"6\" fill=\"",
            red ? kRedInk : kBlackInk, "\" stroke=\"#333\" stroke-width=\"1.5\"/>\n"});
  out += "</svg>\n";
  return out;
}

Result<std::string> board_svg_after(const Game& game, int plies, const BoardSvgOptions& options) {
  BoardSvgOptions o = options;
  if (game.rules == GameRules::kXiangqi) {
    rx::Move last;
    auto pos = rx::position_after(game, plies, &last);
    if (!pos) return pos.error();
    return rx::board_svg(*pos, plies > 0 ? &last : nullptr, o);
  }
  auto pos = position_after(game, plies, &o.last_move);
  if (!pos) return pos.error();
  return board_svg(*pos, o);
}

Result<std::string> xiangqi_board_svg(std::string_view fen, std::string_view last, const BoardSvgOptions& options) {
  auto pos = rx::Position::from_fen(fen);
  if (!pos) return pos.error();
  if (last.empty()) return rx::board_svg(*pos, nullptr, options);
  auto move = rx::parse_iccs(last);
  if (!move) return move.error();
  return rx::board_svg(*pos, &*move, options);
}

}  // namespace pgnarc
