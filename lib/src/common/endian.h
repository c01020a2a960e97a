// Little-endian fixed-width integers, as every fixed field of the format is stored.
#pragma once

#include <cstdint>
#include <string>

namespace pgnarc::common {

// Appends the low `bytes` bytes of `v`, least significant first.
inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i));
}

// The `bytes`-byte little-endian value at `p` (the caller has checked that they exist).
inline std::uint64_t get_le(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes; i-- > 0;) v = v << 8 | static_cast<std::uint8_t>(p[i]);
  return v;
}

}  // namespace pgnarc::common
