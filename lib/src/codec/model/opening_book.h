// Opening books (internal; format specification 7.8.1 for the fast model's, 7.9.1 for the
// Xiangqi model's): a tree of positions, each node with the counts of the moves played from it,
// written depth first from a game's start position; and the frequencies of a position that a
// book holds, from its node's counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
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
// entries) for each node in the order the bytes start them (a node before the nodes written
// among its entries). `moves(pos)` gives an object whose count() is the number of legal moves of
// `pos` and whose after(i) is the position after its move of index i; it is called only for a
// node with a child (the legal moves are most of the reading's time). False where the bytes are
// malformed: cut short, a varint longer than 64 bits, a count of 2^32 or more, bytes after the
// start position's node (all found before any visit), or an index that is no legal move of its
// position where a child follows (found as the nodes are visited: a caller that gets false drops
// what it was given). An index of a node's entry without a child is not checked here
// (book_frequencies skips one at or above its n). No bytes are an empty book.
template <class Position, class Moves>
bool read_book_nodes(std::span<const std::uint8_t> bytes, const Position& start, Moves&& moves,
                     const std::function<void(const Position&, std::span<const BookEntry>)>& visit) {
  // First the bytes' structure, with no position: the nodes in the order the bytes start them,
  // each node's entries one after the other from `first` in `entries`, and for each entry the
  // node of its child (0 for none: the start position's node is no child).
  struct Node {
    std::size_t first = 0, count = 0;
  };
  std::vector<Node> nodes;
  std::vector<BookEntry> entries;
  std::vector<std::uint32_t> child;
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
  // A node's entries are written among its children's nodes: gathered on a stack (a child's
  // gone from it when the child is read), then put together.
  std::vector<BookEntry> own;
  std::vector<std::uint32_t> own_child;
  // (A node takes a byte at least, an entry two.)
  nodes.reserve(bytes.size() / 3 + 1);
  entries.reserve(bytes.size() / 2);
  child.reserve(bytes.size() / 2);
  auto node = [&](auto&& self) -> void {
    const std::size_t id = nodes.size(), base = own.size();
    nodes.push_back(Node{});
    const std::uint64_t count = varint();
    for (std::uint64_t e = 0; ok && e < count; ++e) {
      if (at >= bytes.size()) return void(ok = false);
      const int index = bytes[at++];
      const std::uint64_t v = varint();
      if (!ok || (v >> 1) > 0xFFFFFFFFu) return void(ok = false);
      own.push_back(BookEntry{static_cast<std::uint8_t>(index), static_cast<std::uint32_t>(v >> 1)});
      own_child.push_back(v & 1 ? static_cast<std::uint32_t>(nodes.size()) : 0);
      if (v & 1) self(self);
    }
    nodes[id] = Node{entries.size(), own.size() - base};
    entries.insert(entries.end(), own.begin() + static_cast<std::ptrdiff_t>(base), own.end());
    child.insert(child.end(), own_child.begin() + static_cast<std::ptrdiff_t>(base), own_child.end());
    own.resize(base);
    own_child.resize(base);
  };
  if (!bytes.empty()) node(node);
  if (!ok || at != bytes.size()) return false;
  if (nodes.empty()) return true;
  // Then the positions, depth first in the same order.
  auto play = [&](auto&& self, std::size_t id, const Position& pos) -> void {
    const Node& n = nodes[id];
    visit(pos, std::span<const BookEntry>(entries.data() + n.first, n.count));
    std::optional<decltype(moves(pos))> legal;
    for (std::size_t e = n.first; ok && e < n.first + n.count; ++e) {
      if (!child[e]) continue;
      if (!legal) legal.emplace(moves(pos));
      if (entries[e].index >= legal->count()) return void(ok = false);
      self(self, child[e], legal->after(entries[e].index));
    }
  };
  play(play, 0, start);
  return ok;
}

// A book's frequencies of `node` for a position of `n` legal moves (7.8.1, FAST-BOOK-3):
// f_i = floor(c_i * 2^16 / (N + 3)) + floor(3 * 2^16 / ((N + 3) * n)) + 1. Their total. (An entry
// of index n or above, which no well-formed book has, adds to no move.)
std::uint32_t book_frequencies(const BookNode& node, int n, std::uint32_t* freq);

}  // namespace pgnarc::codec::model
