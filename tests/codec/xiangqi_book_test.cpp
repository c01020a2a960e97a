// The Xiangqi model's opening book (format 7.9.1): the library holds every node its bytes write,
// with their counts, up to fullmove 20 and not after; its frequencies are FAST-BOOK-3's; the
// appendix (format-spec/xiangqi-model-tables.md) lists its bytes; and games coded with it (codec
// 17) come back whole, their opening moves in fewer bits than the model alone gives them.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codec/codec.h"
#include "codec/model/xiangqi_book.h"
#include "pgn/xiangqi_pgn.h"
#include "pgnarc/pgn.h"
#include "support/book_parse.h"
#include "support/codec_util.h"
#include "support/test_util.h"

namespace pgnarc::codec::model::xq {
namespace {

using ParsedNode = test::ParsedBookNode<rx::Position>;

// The book's nodes as its bytes write them (7.9.1), read here independently of the library.
bool parse_book(std::span<const std::uint8_t> bytes, std::vector<ParsedNode>& out) {
  return test::parse_book(
      bytes, rx::Position(),
      [](const rx::Position& pos) {
        rx::MoveList list;
        return rx::legal_moves(pos, list);
      },
      [](const rx::Position& pos, int index) {
        rx::MoveList list;
        rx::legal_moves(pos, list);
        return pos.after(list[index]);
      },
      out);
}

// A position's FEN with `fullmove` for its fullmove number.
rx::Position with_fullmove(const rx::Position& pos, int fullmove) {
  std::string fen = pos.fen();
  fen = fen.substr(0, fen.rfind(' ') + 1) + std::to_string(fullmove);
  auto p = rx::Position::from_fen(fen);
  EXPECT_TRUE(p.ok()) << fen;
  return *p;
}

TEST(XiangqiBook, TheLibraryHoldsEveryNodeOfItsBytesUpToMove20) {
  std::vector<ParsedNode> nodes;
  ASSERT_TRUE(parse_book(kBookBytes, nodes)) << "the book's bytes are malformed or not read to their end";
  ASSERT_GT(nodes.size(), 1000u);
  std::set<std::string> seen;
  for (const ParsedNode& p : nodes) {
    const std::string fen = p.pos.fen();
    EXPECT_TRUE(seen.insert(fen.substr(0, fen.find(' ') + 2)).second) << "written twice: " << fen;
    EXPECT_GE(p.games, 5u) << fen;  // tools/dev/train-xiangqi keeps nodes of 5 moves played or more
    ASSERT_LE(p.pos.fullmove_number(), kBookLastMove) << fen;
    const BookNode* n = book_node(p.pos);
    ASSERT_NE(n, nullptr) << fen;
    EXPECT_EQ(n->games, p.games) << fen;
    ASSERT_EQ(n->entries.size(), p.entries.size()) << fen;
    for (std::size_t e = 0; e < p.entries.size(); ++e) {
      EXPECT_EQ(n->entries[e].index, p.entries[e].index) << fen;
      EXPECT_EQ(n->entries[e].count, p.entries[e].count) << fen;
    }
    // Held whatever the clocks, up to fullmove 20 (XQ-BOOK-2), and not after.
    EXPECT_EQ(book_node(with_fullmove(p.pos, kBookLastMove)), n) << fen;
    EXPECT_EQ(book_node(with_fullmove(p.pos, kBookLastMove + 1)), nullptr) << fen;
  }
  EXPECT_EQ(book_node(rx::Position()), book_node(nodes.back().pos));  // the start position's node is written last
  // A position no master game reached is not held: the start position with Red's cannons gone.
  auto bare = rx::Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/9/9/RNBAKABNR w - - 0 1");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(book_node(*bare), nullptr);
}

TEST(XiangqiBook, FrequenciesAreTheFastBooksFormula) {
  const BookNode* node = book_node(rx::Position());
  ASSERT_NE(node, nullptr);
  rx::MoveList list;
  rx::legal_moves(rx::Position(), list);
  ASSERT_EQ(list.size, 44);
  std::uint32_t freq[rx::kMaxMoves];
  const std::uint32_t total = book_frequencies(*node, list.size, freq);
  const std::uint64_t d = node->games + 3;
  std::uint64_t sum = 0;
  for (int i = 0; i < list.size; ++i) {
    std::uint64_t c = 0;
    for (const BookEntry& e : node->entries)
      if (e.index == i) c = e.count;
    EXPECT_EQ(freq[i], (c << 16) / d + (std::uint64_t{3} << 16) / (d * 44) + 1);
    sum += freq[i];
  }
  EXPECT_EQ(total, sum);
  EXPECT_LE(total, (1u << 16) + 44u);
  // The central cannon (h2e2, index 30) is the masters' most played first move.
  EXPECT_EQ(std::max_element(freq, freq + list.size) - freq, 30);
}

TEST(XiangqiBook, TheSpecificationListsTheLibrarysBook) {
  const std::string doc = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/xiangqi-model-tables.md");
  const std::size_t from = doc.find("\n## Book\n");
  ASSERT_NE(from, std::string::npos);
  const std::string part = doc.substr(from);
  EXPECT_NE(part.find(std::to_string(kBookBytes.size()) + " bytes"), std::string::npos);
  const std::size_t at = part.find("```text\n") + 8;
  std::istringstream in(part.substr(at, part.find("```", at) - at));
  std::string hex;
  for (std::string line; std::getline(in, line);) {
    EXPECT_LE(line.size(), 64u);
    hex += line;
  }
  ASSERT_EQ(hex.size(), kBookBytes.size() * 2);
  static const char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < kBookBytes.size(); ++i) {
    ASSERT_EQ(hex[2 * i], kHex[kBookBytes[i] >> 4]) << "book byte " << i;
    ASSERT_EQ(hex[2 * i + 1], kHex[kBookBytes[i] & 15]) << "book byte " << i;
  }
}

// The corpus's Xiangqi games from the start position, coded with the book (codec 17) and without
// (codec 11): the same games back, the book's codewords shorter; the book's bytes read as codec
// 11 give other moves or fail, never the games.
TEST(XiangqiBook, GamesCodedWithTheBookComeBackAndAreShorter) {
  std::ifstream file(std::string(PGNARC_CORPUS_DIR) + "/xiangqi/wukong_iccs.pgn", std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  PgnReader reader(memory_input(text.str()), "wukong_iccs.pgn");
  std::vector<Game> games;
  for (PgnReader::RawGame rg; reader.next_raw(rg).value();) {
    GameBuilder b;
    pgn::parse_game_or_xiangqi(rg.text, "wukong_iccs.pgn", rg.number, rg.start, b);
    ASSERT_TRUE(b.ok());
    games.push_back(b.game());
  }
  ASSERT_EQ(games.size(), 15u);
  std::size_t sizes[2][2] = {};  // [book][coder: model, fast]
  for (const bool book : {false, true})
    for (const MoveCoder coder : {MoveCoder::kModel, MoveCoder::kFast}) {
      CodecStreams s;
      s.coder = coder;
      s.xiangqi_model = s.xiangqi_spellings = true;
      s.xiangqi_book = book;
      for (const Game& g : games) ASSERT_TRUE(encode_game(g, s).ok());
      EXPECT_EQ(s.codec(), book ? kXiangqiBookCodec : kXiangqiModelCodec);
      sizes[book][coder == MoveCoder::kFast] = s.moves.size();
      for (const bool read_book : {false, true}) {
        CodecCursor c{s.moves, s.structure, s.texts, s.raw, s.coder, true, false};
        c.xiangqi = c.xiangqi_model = c.xiangqi_spellings = true;
        c.xiangqi_book = read_book;
        bool same = true;
        for (const Game& g : games) {
          auto d = decode_game(c, g.tags);
          if (!d.ok() || !(d->game == g)) {
            same = false;
            break;
          }
        }
        EXPECT_EQ(same, read_book == book) << "coded with the book " << book << ", read with it " << read_book;
        if (read_book == book) EXPECT_TRUE(test::moves_consumed(c));
      }
    }
  // 15 games of 1,378 plies, 40 at most of each in the book: at least 5% shorter.
  for (int coder = 0; coder < 2; ++coder) EXPECT_LT(sizes[1][coder] * 100, sizes[0][coder] * 95) << coder;
  // The uniform coder gives no book: codec 9's bytes.
  CodecStreams u;
  u.coder = MoveCoder::kUniform;
  u.xiangqi_model = u.xiangqi_spellings = u.xiangqi_book = true;
  ASSERT_TRUE(encode_game(games[0], u).ok());
  EXPECT_EQ(u.codec(), kXiangqiCodec);
}

}  // namespace
}  // namespace pgnarc::codec::model::xq
