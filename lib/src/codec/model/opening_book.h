// Opening books (internal; format specification 7.8.1 for the fast model's, 7.9.1 for the
// Xiangqi model's): a tree of positions, each node with the counts of the moves played from it,
// written depth first from a game's start position; and the frequencies of a position that a
// book holds, from its node's counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace pgnarc::codec::model {

// The count of one legal move, by its index in the canonical order of its position's moves.
struct BookEntry {
  std::uint8_t index;
  std::uint32_t count;
};
struct BookNode {
  std::span<const BookEntry> entries;
  std::uint64_t games;  // N: the sum of the entries' counts
};

// Reads book bytes (7.8.1's node grammar) depth first from `start`, calling visit(position,
// entries) for each node once its last entry is read (so after the nodes written among its
// entries). `moves(pos)` gives an object whose count() is the number of legal moves of `pos` and
// whose after(i) is the position after its move of index i. False where the bytes are malformed:
// cut short, a varint longer than 64 bits, an index that is no legal move of its position, a
// count of 2^32 or more, or bytes after the start position's node. No bytes are an empty book.
template <class Position, class Moves>
bool read_book_nodes(std::span<const std::uint8_t> bytes, const Position& start, Moves&& moves,
                     const std::function<void(const Position&, std::span<const BookEntry>)>& visit) {
  // The nodes in the order the bytes start them (a node before the nodes written among its
  // entries), each handed over once its entries are read.
  struct Node {
    Position pos;
    std::vector<BookEntry> entries;
  };
  std::vector<Node> nodes;
  std::size_t at = 0;
  bool ok = true;
  auto varint = [&]() -> std::uint64_t {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= bytes.size()) return ok = false, 0;
      const std::uint8_t b = bytes[at++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return ok = false, 0;
  };
  auto node = [&](auto&& self, const Position& pos) -> void {
    const std::size_t id = nodes.size();
    nodes.push_back(Node{pos, {}});
    const std::uint64_t count = varint();
    const auto legal = moves(pos);
    for (std::uint64_t e = 0; ok && e < count; ++e) {
      if (at >= bytes.size()) return void(ok = false);
      const int index = bytes[at++];
      const std::uint64_t v = varint();
      if (!ok || index >= legal.count() || (v >> 1) > 0xFFFFFFFFu) return void(ok = false);
      nodes[id].entries.push_back(BookEntry{static_cast<std::uint8_t>(index), static_cast<std::uint32_t>(v >> 1)});
      if (v & 1) self(self, legal.after(index));
    }
  };
  if (!bytes.empty()) node(node, start);
  if (!ok || at != bytes.size()) return false;
  for (const Node& n : nodes) visit(n.pos, n.entries);
  return true;
}

// A book's frequencies of `node` for a position of `n` legal moves (7.8.1, FAST-BOOK-3):
// f_i = floor(c_i * 2^16 / (N + 3)) + floor(3 * 2^16 / ((N + 3) * n)) + 1. Their total.
std::uint32_t book_frequencies(const BookNode& node, int n, std::uint32_t* freq);

}  // namespace pgnarc::codec::model
