// A file written whole or not at all: bytes go to a temporary file beside the target, which
// replaces the target only once it is complete and synced.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/status.h"

namespace pgnarc::detail {

class AtomicFile {
 public:
  // Creates the temporary file "<path>.tmp.<pid>"; fails with IO naming it.
  static Result<AtomicFile> create(const std::string& path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  // Closes the temporary file, and removes it unless commit() succeeded.
  ~AtomicFile();

  // Appends `bytes`; fails with IO naming the temporary file.
  Status write(std::string_view bytes);
  // Bytes written so far: the offset of the next write.
  std::uint64_t offset() const { return offset_; }
  // Syncs and closes the temporary file and renames it to the target.
  Status commit();
  const std::string& temp_path() const { return temp_path_; }

 private:
  AtomicFile(std::string path, std::string temp_path, int fd)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd) {}
  std::string path_, temp_path_;
  int fd_ = -1;
  std::uint64_t offset_ = 0;
  bool committed_ = false;
};

}  // namespace pgnarc::detail
