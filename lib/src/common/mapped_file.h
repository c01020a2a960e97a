// A file mapped read-only, and the release of pages a pass has read.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "pgnarc/status.h"

namespace pgnarc::detail {

// A whole file mapped read-only (an empty file is an empty view); unmapped on destruction.
class MappedFile {
 public:
  // Fails with IO, naming the path, if the file cannot be opened, examined or mapped.
  static Result<std::unique_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view bytes() const { return {data_, size_}; }
  // Drops the whole pages inside `range` (part of bytes()) from this process's memory, so that
  // a pass over a large archive keeps a flat resident size (the pages stay in the page cache).
  void release(std::string_view range) const;

 private:
  MappedFile() = default;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// A pass over the blocks (a scan, an unpack) gives their mapped pages back once read, so that
// resident memory stays flat, but in runs of at least 8 MiB: each madvise interrupts the
// process's other threads to flush their TLBs, which done per block (about 13 KB on PGN Mentor)
// took some 5% of unpack's time.
class PageReleaser {
 public:
  explicit PageReleaser(const MappedFile& map) : map_(map) {}
  // Bytes of the map read: released with those before them once the run is long enough.
  void done(std::string_view range) {
    const char* end = range.data() + range.size();
    if (!from_ || range.data() < from_) from_ = range.data();
    if (end - from_ >= kRun) {
      map_.release({from_, static_cast<std::size_t>(end - from_)});
      from_ = end;
    }
  }

 private:
  static constexpr std::ptrdiff_t kRun = std::ptrdiff_t{8} << 20;
  const MappedFile& map_;
  const char* from_ = nullptr;
};

}  // namespace pgnarc::detail
