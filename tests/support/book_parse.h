// Opening books' bytes (format 7.8.1, the fast model's; 7.9.1, the Xiangqi model's) read by the
// tests independently of the library's reader (codec/model/opening_book.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "codec/model/opening_book.h"

namespace pgnarc::test {

template <class Position>
struct ParsedBookNode {
  Position pos;
  std::vector<codec::model::BookEntry> entries;
  std::uint64_t games = 0;
};

// The nodes the bytes write, each listed once its entries are read, from `start`: false where the
// bytes are malformed or not read to their end, or a node's entries are not in ascending index,
// each a legal move. count(pos) is the number of legal moves of `pos`, after(pos, i) the position
// after its move of index i.
template <class Position, class Count, class After>
bool parse_book(std::span<const std::uint8_t> bytes, const Position& start, Count&& count, After&& after,
                std::vector<ParsedBookNode<Position>>& out) {
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
    const std::uint64_t entries = varint();
    ParsedBookNode<Position> own{pos, {}, 0};
    const int n = count(pos);
    for (std::uint64_t e = 0; ok && e < entries; ++e) {
      if (at >= bytes.size()) return void(ok = false);
      const int index = bytes[at++];
      const std::uint64_t v = varint();
      if (index >= n || (!own.entries.empty() && index <= own.entries.back().index)) return void(ok = false);
      own.entries.push_back(codec::model::BookEntry{static_cast<std::uint8_t>(index), static_cast<std::uint32_t>(v >> 1)});
      own.games += v >> 1;
      if (v & 1) self(self, after(pos, index));
    }
    out.push_back(std::move(own));
  };
  if (!bytes.empty()) node(node, start);
  return ok && at == bytes.size();
}

}  // namespace pgnarc::test
