#include <cassert>
#include <unordered_map>
#include <vector>

#include "codec/model/xiangqi_book.h"
#include "common/hash.h"

namespace pgnarc::codec::model::xq {

BookKey book_key(const rx::Position& pos) {
  BookKey k{};
  for (int s = 0; s < rx::kSquares; ++s) k.board[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(pos.piece_on(s));
  k.side = static_cast<std::uint8_t>(pos.side_to_move());
  return k;
}

std::size_t BookKeyHash::operator()(const BookKey& k) const {
  return common::hash64(std::string_view(reinterpret_cast<const char*>(&k), sizeof k));
}

bool read_book(std::span<const std::uint8_t> bytes,
               const std::function<void(const rx::Position&, std::span<const BookEntry>)>& visit) {
  struct Moves {
    rx::Position pos;
    rx::MoveList list;
    int count() const { return list.size; }
    rx::Position after(int index) const { return pos.after(list[index]); }
  };
  return read_book_nodes(bytes, rx::Position(), [](const rx::Position& pos) {
    Moves m{pos, {}};
    rx::legal_moves(pos, m.list);
    return m;
  }, visit);
}

namespace {

// The book read from its bytes, its nodes by position; where a position's node is written twice,
// the one the bytes start first is the one found.
class Book {
 public:
  explicit Book(std::span<const std::uint8_t> bytes) {
    std::vector<BookKey> keys;
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // each node's entries in entries_
    const bool ok = read_book(bytes, [&](const rx::Position& pos, std::span<const BookEntry> entries) {
      keys.push_back(book_key(pos));
      spans.emplace_back(entries_.size(), entries.size());
      entries_.insert(entries_.end(), entries.begin(), entries.end());
    });
    // (The bytes are the library's own, which a test reads to their end.)
    assert(ok);
    if (!ok) return;
    // Nodes in the order the bytes start them: a position written again keeps its first node.
    nodes_.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::uint64_t games = 0;
      for (std::size_t e = 0; e < spans[i].second; ++e) games += entries_[spans[i].first + e].count;
      nodes_.emplace(keys[i], BookNode{std::span<const BookEntry>(entries_.data() + spans[i].first, spans[i].second), games});
    }
  }

  const BookNode* find(const rx::Position& pos) const {
    if (nodes_.empty()) return nullptr;
    const auto it = nodes_.find(book_key(pos));
    return it == nodes_.end() ? nullptr : &it->second;
  }

 private:
  std::vector<BookEntry> entries_;
  std::unordered_map<BookKey, BookNode, BookKeyHash> nodes_;
};

const Book& the_book() {
  static const Book book(kBookBytes);
  return book;
}

}  // namespace

const BookNode* book_node(const rx::Position& pos) {
  if (pos.fullmove_number() > kBookLastMove) return nullptr;
  return the_book().find(pos);
}

}  // namespace pgnarc::codec::model::xq
