#include "codec/model/opening_book.h"

namespace pgnarc::codec::model {

std::uint32_t book_frequencies(const BookNode& node, int n, std::uint32_t* freq) {
  // f_i = floor(c_i * 2^16 / (N + 3)) + floor(3 * 2^16 / ((N + 3) * n)) + 1
  const std::uint64_t d = node.games + 3;
  const auto escape = static_cast<std::uint32_t>((std::uint64_t{3} << 16) / (d * static_cast<std::uint64_t>(n)) + 1);
  for (int i = 0; i < n; ++i) freq[i] = escape;
  for (const BookEntry& e : node.entries)
    if (e.index < n) freq[e.index] += static_cast<std::uint32_t>((std::uint64_t{e.count} << 16) / d);
  std::uint32_t total = 0;
  for (int i = 0; i < n; ++i) total += freq[i];
  return total;
}

}  // namespace pgnarc::codec::model
