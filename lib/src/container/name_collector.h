// The name tables of an archive being written, in bounded memory (internal).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "container/name_chunk.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// Collects (field, value, block) as blocks are placed, each value's blocks arriving in
// ascending order, and yields the name tables sorted by value. Memory is bounded: past
// `budget` bytes, the tables held are written to a scratch file as a sorted run and memory starts
// again; drain() merges the runs (a value's blocks are joined in run order, which is block order).
// The scratch file is unlinked as soon as it is made, so nothing is left if the process dies.
// What drain() yields does not depend on the budget.
class NameCollector {
 public:
  NameCollector(std::string scratch_path, std::size_t budget) : scratch_path_(std::move(scratch_path)), budget_(budget) {}
  ~NameCollector();
  NameCollector(const NameCollector&) = delete;
  NameCollector& operator=(const NameCollector&) = delete;

  // `block` is at least every block given for this field and value before.
  Status add(int field, std::string_view value, std::uint32_t block);
  // Calls emit(field, entry) for every value of each field given, field after field, in ascending
  // byte order; stops at emit's first error. The collector is empty afterwards. (The writer gives
  // it the Event and Site values: the players' table is numbered, not sorted.)
  Status drain(const std::function<Status(int, NameEntry&)>& emit);

 private:
  Status spill();
  Status write_scratch(std::string_view bytes);

  std::string scratch_path_;
  std::size_t budget_;
  std::map<std::string, std::vector<std::uint32_t>, std::less<>> held_[4];
  std::size_t held_bytes_ = 0;
  int fd_ = -1;
  std::uint64_t scratch_size_ = 0;
  struct Run {
    std::uint64_t begin[4], end[4];  // each field's entries in the scratch file
  };
  std::vector<Run> runs_;
};

}  // namespace pgnarc::container
