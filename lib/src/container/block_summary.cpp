#include "container/block_summary.h"

#include <algorithm>

namespace pgnarc::container {

void date_range(std::string_view d, std::uint32_t& lo, std::uint32_t& hi) {
  // Each of year (4), month (2), day (2) digits; unknown ("??" or missing) parts widen the range.
  auto part = [&](std::size_t pos, std::size_t len, std::uint32_t min, std::uint32_t max, std::uint32_t& a, std::uint32_t& b) {
    if (pos + len > d.size()) {
      a = min;
      b = max;
      return false;
    }
    std::uint32_t v = 0;
    for (std::size_t i = pos; i < pos + len; ++i) {
      if (d[i] < '0' || d[i] > '9') {
        a = min;
        b = max;
        return false;
      }
      v = v * 10 + static_cast<std::uint32_t>(d[i] - '0');
    }
    a = b = v;
    return true;
  };
  std::uint32_t y0, y1, m0, m1, d0, d1;
  if (!part(0, 4, 0, 9999, y0, y1)) {
    lo = 0;
    hi = 99999999;
    return;
  }
  if (!part(5, 2, 0, 99, m0, m1)) {
    d0 = 0;
    d1 = 99;
  } else {
    part(8, 2, 0, 99, d0, d1);
  }
  lo = (y0 * 100 + m0) * 100 + d0;
  hi = (y1 * 100 + m1) * 100 + d1;
}

std::uint8_t result_bit(const std::string* r) {
  if (!r) return 16;
  if (*r == "1-0") return 1;
  if (*r == "0-1") return 2;
  if (*r == "1/2-1/2") return 4;
  if (*r == "*") return 8;
  return 16;
}

void BlockSummary::add_game(const std::vector<Tag>& tags) {
  const std::string* date = nullptr;
  const std::string* result = nullptr;
  for (const Tag& tag : tags) {
    if (tag.key == "Date" && !date) date = &tag.value;
    if (tag.key == "Result" && !result) result = &tag.value;
  }
  std::uint32_t lo = 0, hi = 99999999;
  if (date) date_range(*date, lo, hi);
  date_min = std::min(date_min, lo);
  date_max = std::max(date_max, hi);
  results |= result_bit(result);
}

}  // namespace pgnarc::container
