#include <cassert>
#include <vector>

#include "codec/model/xiangqi_book.h"
#include "common/hash.h"

namespace pgnarc::codec::model::xq {

BookKey book_key(const rx::Position& pos) {
  BookKey k{};
  for (int s = 0; s < rx::kSquares; s += 2)
    k.board[static_cast<std::size_t>(s / 2)] =
        static_cast<std::uint8_t>(pos.piece_on(s) | pos.piece_on(s + 1) << 4);  // pieces are 0 to 15
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

// The book read from its bytes, its nodes in an open-addressed table by position; where a
// position's node is written twice, the one the bytes start first is the one found.
class Book {
 public:
  explicit Book(std::span<const std::uint8_t> bytes) {
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // each node's entries in entries_
    // A node takes a byte at least, an entry two: room for all without growing.
    keys_.reserve(bytes.size() / 3 + 1);
    spans.reserve(bytes.size() / 3 + 1);
    entries_.reserve(bytes.size() / 2);
    const bool ok = read_book(bytes, [&](const rx::Position& pos, std::span<const BookEntry> entries) {
      keys_.push_back(book_key(pos));
      spans.emplace_back(entries_.size(), entries.size());
      entries_.insert(entries_.end(), entries.begin(), entries.end());
    });
    // (The bytes are the library's own, which a test reads to their end.)
    assert(ok);
    if (!ok || keys_.empty()) {
      keys_.clear();
      return;
    }
    std::size_t slots = 16;
    while (slots < keys_.size() * 2) slots *= 2;
    slots_.assign(slots, 0);
    mask_ = slots - 1;
    nodes_.resize(keys_.size());
    // Nodes in the order the bytes start them: a position written again keeps its first node.
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      std::uint64_t games = 0;
      for (std::size_t e = 0; e < spans[i].second; ++e) games += entries_[spans[i].first + e].count;
      nodes_[i] = BookNode{std::span<const BookEntry>(entries_.data() + spans[i].first, spans[i].second), games};
      std::size_t s = BookKeyHash{}(keys_[i]) & mask_;
      while (slots_[s] && !(keys_[slots_[s] - 1] == keys_[i])) s = (s + 1) & mask_;
      if (!slots_[s]) slots_[s] = static_cast<std::uint32_t>(i + 1);
    }
  }

  const BookNode* find(const rx::Position& pos) const {
    if (slots_.empty()) return nullptr;
    const BookKey k = book_key(pos);
    for (std::size_t s = BookKeyHash{}(k) & mask_;; s = (s + 1) & mask_) {
      if (!slots_[s]) return nullptr;
      if (keys_[slots_[s] - 1] == k) return &nodes_[slots_[s] - 1];
    }
  }

 private:
  std::vector<BookEntry> entries_;
  std::vector<BookKey> keys_;     // each node's position, in the order the bytes start them
  std::vector<BookNode> nodes_;   // ... and its entries
  std::vector<std::uint32_t> slots_;  // 1 + the index of the node a slot holds, 0 for none
  std::size_t mask_ = 0;
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
