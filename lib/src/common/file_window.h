// A file scanned from start to end through one window of bounded size: salvage's view of a
// damaged archive, whatever its size. Ranges are read into the window when it does not hold them;
// a search for a pattern reads window by window and skips the holes of a sparse file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/file_reader.h"
#include "pgnarc/status.h"

namespace pgnarc::common {

class FileWindow {
 public:
  static constexpr std::size_t kWindowBytes = std::size_t{16} << 20;
  static constexpr std::uint64_t npos = ~std::uint64_t{0};

  // `progress(offset)`, if set, is told the offset of each window read.
  explicit FileWindow(const FileReader& file, std::function<void(std::uint64_t)> progress = {})
      : file_(file), progress_(std::move(progress)) {}
  std::uint64_t size() const { return file_.size(); }

  // The bytes [at, at + n) clipped to the end of the file, valid until the next call. The window
  // holds max(n, kWindowBytes) bytes from `at` when it is read; IO if the read fails.
  Result<std::string_view> bytes(std::uint64_t at, std::uint64_t n);
  // The offset of the first `pattern` (which holds no zero byte) at or after `from`, or npos.
  Result<std::uint64_t> find(std::string_view pattern, std::uint64_t from);

 private:
  Status load(std::uint64_t at, std::uint64_t n);
  const FileReader& file_;
  std::function<void(std::uint64_t)> progress_;
  std::string buffer_;
  std::uint64_t start_ = 0;  // the file offset of buffer_[0]
};

}  // namespace pgnarc::common
