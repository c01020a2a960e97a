// The fast model's opening book as the library reads it (fast_model.cpp) holds every node its
// bytes write, with their counts, and the bytes are read to their end; the specification's
// appendix (format-spec/fast-model-tables.md) lists the library's weights and book, number for
// number and byte for byte.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codec/model/fast_model.h"
#include "support/book_parse.h"
#include "support/test_util.h"

namespace pgnarc::codec::fast {
namespace {

using ParsedNode = test::ParsedBookNode<Position>;

// The book's nodes as its bytes write them (7.8.1), read here independently of the library.
bool parse_book(std::span<const std::uint8_t> bytes, std::vector<ParsedNode>& out) {
  return test::parse_book(
      bytes, Position(),
      [](const Position& pos) {
        rules::PieceTargets t;
        rules::generate_targets(pos, t);
        return t.total;
      },
      [](const Position& pos, int index) {
        rules::PieceTargets t;
        rules::generate_targets(pos, t);
        Position next = pos;
        next.play(rules::move_at_index(pos, t, index));
        return next;
      },
      out);
}

// A position without its move counters (the book does not tell transpositions apart by them).
std::string position_key(const Position& pos) {
  const std::string fen = pos.fen();
  std::size_t at = fen.size();
  for (int spaces = 0; spaces < 2 && at > 0;) if (fen[--at] == ' ') ++spaces;
  return fen.substr(0, at);
}

TEST(FastBook, TheLibraryHoldsEveryNodeOfItsBytes) {
  std::vector<ParsedNode> nodes;
  ASSERT_TRUE(parse_book(kBookBytes, nodes)) << "the book's bytes are malformed or not read to their end";
  ASSERT_FALSE(nodes.empty());
  std::set<std::string> seen;
  std::size_t checked = 0;
  for (const ParsedNode& p : nodes) {
    EXPECT_TRUE(seen.insert(position_key(p.pos)).second) << "written twice: " << p.pos.fen();
    EXPECT_GE(p.games, 1u);
    if (p.pos.fullmove_number() > kBookLastMove) continue;  // (held, but looked up only at move 20 or before)
    const BookNode* n = book_node(p.pos);
    ASSERT_NE(n, nullptr) << p.pos.fen();
    EXPECT_EQ(n->games, p.games) << p.pos.fen();
    ASSERT_EQ(n->entries.size(), p.entries.size()) << p.pos.fen();
    for (std::size_t e = 0; e < p.entries.size(); ++e) {
      EXPECT_EQ(n->entries[e].index, p.entries[e].index) << p.pos.fen();
      EXPECT_EQ(n->entries[e].count, p.entries[e].count) << p.pos.fen();
    }
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  // The start position is the first node's; past move 20 the book holds nothing.
  EXPECT_NE(book_node(Position()), nullptr);
  auto late = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 21");
  ASSERT_TRUE(late);
  EXPECT_EQ(book_node(*late), nullptr);
}

TEST(FastBook, BookFrequenciesFollowTheFormula) {
  const BookNode* node = book_node(Position());
  ASSERT_NE(node, nullptr);
  rules::PieceTargets t;
  rules::generate_targets(Position(), t);
  std::uint32_t freq[kMaxLegalMoves];
  const std::uint32_t total = book_frequencies(*node, t.total, freq);
  const std::uint64_t d = node->games + 3;
  std::uint64_t sum = 0;
  for (int i = 0; i < t.total; ++i) {
    std::uint64_t c = 0;
    for (const BookEntry& e : node->entries)
      if (e.index == i) c = e.count;
    EXPECT_EQ(freq[i], (c << 16) / d + (std::uint64_t{3} << 16) / (d * static_cast<std::uint64_t>(t.total)) + 1);
    sum += freq[i];
  }
  EXPECT_EQ(total, sum);
}

// The integers of the ```text blocks under `heading` (up to the next "## "), and their lines.
std::vector<std::string> lines_under(const std::string& doc, const std::string& heading) {
  std::vector<std::string> out;
  const std::size_t from = doc.find("\n" + heading + "\n");
  EXPECT_NE(from, std::string::npos) << heading;
  if (from == std::string::npos) return out;
  const std::size_t to = doc.find("\n## ", from + heading.size() + 2);
  const std::string part = doc.substr(from, to == std::string::npos ? std::string::npos : to - from);
  for (std::size_t at = part.find("```text\n"); at != std::string::npos; at = part.find("```text\n", at)) {
    at += 8;
    const std::size_t end = part.find("```", at);
    std::istringstream in(part.substr(at, end - at));
    for (std::string line; std::getline(in, line);) out.push_back(line);
    at = end + 3;
  }
  return out;
}

TEST(FastBook, TheSpecificationListsTheLibrarysTables) {
  const std::string doc = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/fast-model-tables.md");
  EXPECT_NE(doc.find("K = " + std::to_string(kFeatures) + " features."), std::string::npos);
  std::vector<long> w;
  for (const std::string& line : lines_under(doc, "## W")) {
    std::istringstream in(line);
    for (long v; in >> v;) w.push_back(v);
  }
  ASSERT_EQ(w.size(), kWeights.size());
  for (std::size_t k = 0; k < w.size(); ++k) EXPECT_EQ(w[k], kWeights[k]) << "W[" << k << "]";
  std::string hex;
  for (const std::string& line : lines_under(doc, "## Book")) {
    EXPECT_LE(line.size(), 64u);
    hex += line;
  }
  ASSERT_EQ(hex.size(), kBookBytes.size() * 2);
  static const char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < kBookBytes.size(); ++i) {
    ASSERT_EQ(hex[2 * i], kHex[kBookBytes[i] >> 4]) << "book byte " << i;
    ASSERT_EQ(hex[2 * i + 1], kHex[kBookBytes[i] & 15]) << "book byte " << i;
  }
  EXPECT_NE(doc.find(std::to_string(kBookBytes.size()) + " bytes"), std::string::npos);
}

}  // namespace
}  // namespace pgnarc::codec::fast
