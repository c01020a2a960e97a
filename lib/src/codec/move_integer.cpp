// Writing the mixed-radix line integer (move_integer.h).
#include "codec/move_integer.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <iterator>

#include "common/bytes.h"

namespace pgnarc::detail {

namespace mp = boost::multiprecision;

// Digits are folded into a 64-bit word while their bases' product fits, and only then into the
// big integer (one multiply-add per about 13 plies); the entropy bound is summed per word.
void put_integer(std::string& out, const std::vector<MoveDigit>& digits, double& log2_bases) {
  mp::cpp_int g = 0;
  std::uint64_t v = 0, base = 1;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const auto [m, n] = *it;
    if (n == 1) continue;
    if (base > ~std::uint64_t{0} / n) {
      g = g * base + v;
      log2_bases += std::log2(static_cast<double>(base));
      v = 0;
      base = 1;
    }
    v = m + n * v;
    base *= n;
  }
  g = g * base + v;
  log2_bases += std::log2(static_cast<double>(base));
  std::string bytes;
  if (g != 0) mp::export_bits(g, std::back_inserter(bytes), 8, false);
  put_prefixed(out, bytes);
}

}  // namespace pgnarc::detail
