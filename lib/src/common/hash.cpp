#include "common/hash.h"

#include <xxhash.h>

#include <new>

namespace pgnarc::common {

std::uint64_t hash64(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

struct Hash64Stream::State {
  XXH64_state_t* xxh = XXH64_createState();
  ~State() { XXH64_freeState(xxh); }
};

Hash64Stream::Hash64Stream() : state_(std::make_unique<State>()) {
  if (!state_->xxh) throw std::bad_alloc();
  XXH64_reset(state_->xxh, 0);
}
Hash64Stream::~Hash64Stream() = default;
void Hash64Stream::update(std::string_view bytes) { XXH64_update(state_->xxh, bytes.data(), bytes.size()); }
std::uint64_t Hash64Stream::digest() const { return XXH64_digest(state_->xxh); }

}  // namespace pgnarc::common
