// The players' table as the writer builds it (internal): each White and Black value numbered in
// the order it is first met, held compactly (the values end to end in one buffer, an end offset
// and a hash slot per value: about 16 bytes a player besides its name), since the writer holds
// the whole table.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pgnarc::container {

class PlayerNumbers {
 public:
  std::size_t size() const { return ends_.size(); }
  // Value p, valid until the next add().
  std::string_view operator[](std::size_t p) const {
    const std::uint64_t from = p == 0 ? 0 : ends_[p - 1];
    return std::string_view(bytes_).substr(from, ends_[p] - from);
  }
  // The first entry of `value`, or -1.
  std::int64_t find(std::string_view value) const {
    if (slots_.empty()) return -1;
    for (std::size_t i = hash(value) & mask(); slots_[i] != 0; i = (i + 1) & mask())
      if ((*this)[slots_[i] - 1] == value) return slots_[i] - 1;
    return -1;
  }
  // A new entry for `value` (a value met again keeps its first entry for find()).
  std::uint32_t add(std::string_view value) {
    const auto p = static_cast<std::uint32_t>(ends_.size());
    const bool known = find(value) >= 0;
    bytes_ += value;
    ends_.push_back(bytes_.size());
    if (!known) {
      if (2 * (used_ + 1) > slots_.size()) grow();
      place(p);
    }
    return p;
  }

 private:
  static std::size_t hash(std::string_view v) { return std::hash<std::string_view>{}(v); }
  std::size_t mask() const { return slots_.size() - 1; }
  void place(std::uint32_t p) {
    std::size_t i = hash((*this)[p]) & mask();
    while (slots_[i] != 0) i = (i + 1) & mask();
    slots_[i] = p + 1;
    ++used_;
  }
  void grow() {
    std::vector<std::uint32_t> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), 0);
    used_ = 0;
    for (const std::uint32_t s : old)
      if (s != 0) place(s - 1);
  }

  std::string bytes_;                // the values, end to end
  std::vector<std::uint64_t> ends_;  // where each value ends in bytes_
  std::vector<std::uint32_t> slots_;  // open addressing: entry + 1 of each distinct value, 0 empty
  std::size_t used_ = 0;
};

}  // namespace pgnarc::container
