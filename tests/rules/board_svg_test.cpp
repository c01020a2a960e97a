// board_svg: the picture read back through its own data- attributes (each piece on its square,
// the marked squares, the side to move, the pockets), its geometry under --flip, and that it is
// well-formed XML and the same bytes every time.
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "pgnarc/board_svg.h"
#include "pgnarc/game.h"
#include "support/test_util.h"

namespace pgnarc {
namespace {

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
};

// Whether `svg` is well-formed XML as this renderer writes it (elements, double-quoted attributes,
// text, the five entities), and its start tags in order. Fails the test where it is not.
std::vector<Element> parse_xml(const std::string& svg) {
  std::vector<Element> elements;
  std::vector<std::string> open;
  auto entity_ok = [&](std::size_t i) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (svg.compare(i, std::string(e).size(), e) == 0) return true;
    return false;
  };
  auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '_';
  };
  std::size_t i = 0;
  while (i < svg.size()) {
    if (svg[i] == '&') {
      EXPECT_TRUE(entity_ok(i)) << "bare & at " << i;
      ++i;
    } else if (svg[i] != '<') {
      ++i;
    } else if (svg.compare(i, 2, "</") == 0) {
      std::size_t j = i + 2;
      while (j < svg.size() && name_char(svg[j])) ++j;
      const std::string name = svg.substr(i + 2, j - i - 2);
      EXPECT_TRUE(j < svg.size() && svg[j] == '>') << "end tag at " << i;
      EXPECT_TRUE(!open.empty() && open.back() == name)
          << "</" << name << "> closes nothing at " << i;
      if (!open.empty()) open.pop_back();
      i = j + 1;
    } else {
      Element e;
      std::size_t j = i + 1;
      while (j < svg.size() && name_char(svg[j])) ++j;
      e.name = svg.substr(i + 1, j - i - 1);
      EXPECT_FALSE(e.name.empty()) << "tag without a name at " << i;
      for (;;) {
        while (j < svg.size() && svg[j] == ' ') ++j;
        if (j >= svg.size()) {
          ADD_FAILURE() << "unterminated tag at " << i;
          return elements;
        }
        if (svg[j] == '>' || svg.compare(j, 2, "/>") == 0) break;
        const std::size_t k = j;
        while (j < svg.size() && name_char(svg[j])) ++j;
        const std::string key = svg.substr(k, j - k);
        if (key.empty() || svg.compare(j, 2, "=\"") != 0) {
          ADD_FAILURE() << "bad attribute at " << k;
          return elements;
        }
        const std::size_t end = svg.find('"', j + 2);
        const std::string value = svg.substr(j + 2, end - j - 2);
        EXPECT_EQ(value.find('<'), std::string::npos);
        for (std::size_t a = value.find('&'); a != std::string::npos; a = value.find('&', a + 1))
          EXPECT_TRUE(entity_ok(j + 2 + a));
        EXPECT_TRUE(e.attrs.emplace(key, value).second) << "attribute " << key << " twice at " << i;
        j = end + 1;
      }
      const bool empty = svg[j] == '/';
      if (!empty) open.push_back(e.name);
      i = j + (empty ? 2 : 1);
      elements.push_back(std::move(e));
    }
  }
  EXPECT_TRUE(open.empty()) << "unclosed <" << (open.empty() ? "" : open.back()) << ">";
  EXPECT_FALSE(elements.empty());
  if (!elements.empty()) {
    EXPECT_EQ(elements[0].name, "svg");
  }
  return elements;
}

std::vector<Element> with_class(const std::vector<Element>& all, const std::string& cls) {
  std::vector<Element> out;
  for (const Element& e : all)
    if (auto it = e.attrs.find("class"); it != e.attrs.end() && it->second == cls) out.push_back(e);
  return out;
}

// The pieces of the picture, square name to FEN letter.
std::map<std::string, std::string> pieces_drawn(const std::string& svg) {
  std::map<std::string, std::string> out;
  for (const Element& e : with_class(parse_xml(svg), "piece"))
    out[e.attrs.at("data-square")] = e.attrs.at("data-piece");
  return out;
}

// The pieces of the position, square name to FEN letter.
std::map<std::string, std::string> pieces_of(const Position& pos) {
  std::map<std::string, std::string> out;
  for (Square s = 0; s < 64; ++s) {
    const Piece p = pos.piece_on(s);
    if (p == kNoPiece) continue;
    const char c = " PNBRQK"[type_of(p)];
    out[square_name(s)] =
        std::string(1, color_of(p) == kWhite ? c : static_cast<char>(c - 'A' + 'a'));
  }
  return out;
}

std::vector<std::string> marked(const std::string& svg) {
  std::vector<std::string> out;
  for (const Element& e : with_class(parse_xml(svg), "last-move"))
    out.push_back(e.attrs.at("data-square"));
  return out;
}

TEST(BoardSvg, EveryPieceOnItsSquare) {
  for (const char* f : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/8/8/8/8/8/8/K6k b - - 0 1",
           "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9",
       }) {
    const Position pos = test::fen(f);
    for (const bool flip : {false, true}) {
      BoardSvgOptions o;
      o.flip = flip;
      const std::string svg = board_svg(pos, o);
      EXPECT_EQ(pieces_drawn(svg), pieces_of(pos)) << f;
      EXPECT_NE(svg.find("data-fen=\"" + pos.fen() + "\""), std::string::npos);
    }
  }
  const auto start = pieces_drawn(board_svg(Position()));
  EXPECT_EQ(start.size(), 32u);
  EXPECT_EQ(start.at("e1"), "K");
  EXPECT_EQ(start.at("d8"), "q");
  EXPECT_EQ(start.at("g1"), "N");
  EXPECT_EQ(start.count("e4"), 0u);
}

TEST(BoardSvg, FlipMirrorsTheBoard) {
  const Position pos =
      test::fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  BoardSvgOptions o;
  const auto plain = with_class(parse_xml(board_svg(pos, o)), "piece");
  o.flip = true;
  const auto flipped = with_class(parse_xml(board_svg(pos, o)), "piece");
  ASSERT_EQ(plain.size(), flipped.size());
  // Both list the pieces from a1 up, so the same piece is at the same index; the board spans
  // x 20..500 and y 4..484, and a piece's text stands at its square's centre, 48 below its top.
  for (std::size_t i = 0; i < plain.size(); ++i) {
    ASSERT_EQ(plain[i].attrs.at("data-square"), flipped[i].attrs.at("data-square"));
    EXPECT_EQ(std::stoi(plain[i].attrs.at("x")) + std::stoi(flipped[i].attrs.at("x")),
              2 * 20 + 480);
    EXPECT_EQ(std::stoi(plain[i].attrs.at("y")) + std::stoi(flipped[i].attrs.at("y")),
              2 * (4 + 48) + 420);
  }
  // White's king at the bottom, then at the top; the files read h to a.
  auto y_of = [](const std::vector<Element>& ps, const std::string& sq) {
    for (const Element& e : ps)
      if (e.attrs.at("data-square") == sq) return std::stoi(e.attrs.at("y"));
    return -1;
  };
  EXPECT_GT(y_of(plain, "e1"), y_of(plain, "e8"));
  EXPECT_LT(y_of(flipped, "e1"), y_of(flipped, "e8"));
  const auto files = with_class(parse_xml(board_svg(pos, o)), "coord");
  ASSERT_EQ(files.size(), 16u);
  EXPECT_GT(std::stoi(files[0].attrs.at("x")), std::stoi(files[7].attrs.at("x")));  // a right of h
  EXPECT_NE(board_svg(pos, o).find("data-flip=\"1\""), std::string::npos);
}

TEST(BoardSvg, LastMoveMarked) {
  const Position start;
  BoardSvgOptions o;
  EXPECT_TRUE(marked(board_svg(start, o)).empty());
  o.last_move = Move(make_square(4, 1), make_square(4, 3));
  EXPECT_EQ(marked(board_svg(start, o)), (std::vector<std::string>{"e2", "e4"}));
  o.last_move = Move::null();
  EXPECT_TRUE(marked(board_svg(start, o)).empty());
  // Castling is king takes rook: the king's squares are marked, not the rook's.
  o.last_move = Move(make_square(4, 0), make_square(7, 0), Move::kCastling);
  EXPECT_EQ(marked(board_svg(start, o)), (std::vector<std::string>{"e1", "g1"}));
  o.last_move = Move(make_square(4, 7), make_square(0, 7), Move::kCastling);
  EXPECT_EQ(marked(board_svg(start, o)), (std::vector<std::string>{"e8", "c8"}));
  // A drop has one square.
  o.last_move = Move::drop(kKnight, make_square(5, 2));
  EXPECT_EQ(marked(board_svg(start, o)), (std::vector<std::string>{"f3"}));
}

TEST(BoardSvg, SideToMoveAndSize) {
  auto to_move = [](const std::string& svg) {
    const auto discs = with_class(parse_xml(svg), "to-move");
    return discs.size() == 1 ? discs[0].attrs.at("data-color") : "?";
  };
  EXPECT_EQ(to_move(board_svg(Position())), "w");
  EXPECT_EQ(to_move(board_svg(test::fen("8/8/8/8/8/8/8/K6k b - - 0 1"))), "b");
  BoardSvgOptions o;
  o.size = 200;
  auto svg = parse_xml(board_svg(Position(), o));
  EXPECT_EQ(svg[0].attrs.at("width"), "200");
  EXPECT_EQ(svg[0].attrs.at("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(svg[0].attrs.at("viewBox"), "0 0 520 508");
  o.size = 1;  // clamped
  EXPECT_EQ(parse_xml(board_svg(Position(), o))[0].attrs.at("width"), "16");
  o.size = 360;
  o.coordinates = false;
  const std::string bare = board_svg(Position(), o);
  EXPECT_TRUE(with_class(parse_xml(bare), "coord").empty());
  EXPECT_EQ(pieces_drawn(bare), pieces_of(Position()));
}

TEST(BoardSvg, CrazyhousePockets) {
  auto pos = Position::from_fen(
      "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[QRbpp] w KQkq - 4 4", false,
      Variant::kCrazyhouse);
  ASSERT_TRUE(pos.ok()) << pos.error().message();
  const auto pockets = with_class(parse_xml(board_svg(*pos)), "pocket");
  ASSERT_EQ(pockets.size(), 2u);
  // Black's above the board, White's below (flipped: the other way round).
  EXPECT_EQ(pockets[0].attrs.at("data-color"), "b");
  EXPECT_EQ(pockets[0].attrs.at("data-pocket"), "bpp");
  EXPECT_EQ(pockets[1].attrs.at("data-color"), "w");
  EXPECT_EQ(pockets[1].attrs.at("data-pocket"), "QR");
  EXPECT_EQ(pieces_drawn(board_svg(*pos)), pieces_of(*pos));
  // Other variants are drawn as chess, without pockets.
  EXPECT_TRUE(with_class(parse_xml(board_svg(Position::start(Variant::kHorde))), "pocket").empty());
  EXPECT_EQ(pieces_drawn(board_svg(Position::start(Variant::kHorde))),
            pieces_of(Position::start(Variant::kHorde)));
}

TEST(BoardSvg, PositionAfterGivesTheLastMove) {
  Game g;
  const Move e4(make_square(4, 1), make_square(4, 3)), e5(make_square(4, 6), make_square(4, 4));
  g.events = {GameEvent::make_move(e4),
              GameEvent::begin_variation(),
              GameEvent::make_move(Move(make_square(3, 1), make_square(3, 3))),
              GameEvent::end_variation(),
              GameEvent::make_move(e5),
              GameEvent::null_move()};
  Move last = e4;
  auto pos = position_after(g, 0, &last);
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(*pos, Position());
  EXPECT_TRUE(last.is_none());
  pos = position_after(g, 2, &last);
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(pos->fen(), fen_after(g, 2, FenEnPassant::kWhenLegal).value());
  EXPECT_EQ(last, e5);
  ASSERT_TRUE(position_after(g, 3, &last).ok());  // after a null move nothing is marked
  EXPECT_TRUE(last.is_none());
  EXPECT_EQ(position_after(g, 4).error().message(), fen_after(g, 4).error().message());
  EXPECT_FALSE(position_after(g, -1).ok());
}

TEST(BoardSvg, SameBytesEveryTime) {
  const Position pos =
      test::fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  BoardSvgOptions o;
  o.last_move = Move(make_square(3, 4), make_square(4, 5));
  const std::string first = board_svg(pos, o);
  EXPECT_EQ(board_svg(pos, o), first);
  EXPECT_LT(first.size(), 12000u);  // small: one path for the dark squares, one element a piece
}

}  // namespace
}  // namespace pgnarc
