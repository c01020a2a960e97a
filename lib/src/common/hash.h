// The format's checksum: XXH64 with seed 0 (spec 9.7).
#pragma once

#include <cstdint>
#include <string_view>

namespace pgnarc::common {

std::uint64_t hash64(std::string_view bytes);

}  // namespace pgnarc::common
