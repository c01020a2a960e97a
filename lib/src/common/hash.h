// The format's checksum: XXH64 with seed 0 (spec 9.7).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

namespace pgnarc::common {

std::uint64_t hash64(std::string_view bytes);

// The same checksum of bytes given piece by piece (an element larger than one read).
class Hash64Stream {
 public:
  Hash64Stream();
  ~Hash64Stream();
  Hash64Stream(const Hash64Stream&) = delete;
  Hash64Stream& operator=(const Hash64Stream&) = delete;
  void update(std::string_view bytes);
  std::uint64_t digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pgnarc::common
