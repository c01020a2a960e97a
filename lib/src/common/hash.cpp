#include "common/hash.h"

#include <xxhash.h>

namespace pgnarc::common {

std::uint64_t hash64(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

}  // namespace pgnarc::common
