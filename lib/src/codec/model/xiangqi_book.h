// The Xiangqi model's opening book (internal; format specification 7.9.1): the counts of the
// moves master games played in the positions of their first 20 moves from the start position.
// In a block of codec 17 or 18 a position the book holds takes the book's frequencies
// (opening_book.h) in place of the model's.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>

#include "codec/model/opening_book.h"
#include "rules/xiangqi.h"

namespace pgnarc::codec::model::xq {

namespace rx = rules::xiangqi;

// The book's bytes (7.9.1; xiangqi_book.cpp, written by tools/pgnarc-train --variant xiangqi
// --book-out).
extern const std::span<const std::uint8_t> kBookBytes;

// What identifies a position for the book (XQ-BOOK-1): the piece on each square (square 2i in
// the low four bits of board[i], 2i + 1 in the high) and the side to move, compared byte for byte
// (a hash only picks a slot).
struct BookKey {
  std::array<std::uint8_t, rx::kSquares / 2> board;
  std::uint8_t side;
  std::uint8_t pad[2];
  bool operator==(const BookKey&) const = default;
};
static_assert(sizeof(BookKey) == 48 && rx::kSquares % 2 == 0);
BookKey book_key(const rx::Position& pos);
struct BookKeyHash {
  std::size_t operator()(const BookKey& k) const;
};

// Reads book bytes (7.9.1) depth first from the start position, as read_book_nodes says.
bool read_book(std::span<const std::uint8_t> bytes,
               const std::function<void(const rx::Position&, std::span<const BookEntry>)>& visit);

// The book's node of `pos`, or null where it holds none (a position whose fullmove number is above
// kBookLastMove never has one).
inline constexpr int kBookLastMove = 20;
const BookNode* book_node(const rx::Position& pos);

}  // namespace pgnarc::codec::model::xq
