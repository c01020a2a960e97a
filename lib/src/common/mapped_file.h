// A file mapped read-only: salvage's view of a damaged archive, searched for block magics. (A
// map delivers SIGBUS where the file is truncated meanwhile; archives are otherwise read with
// FileReader, which cannot.)
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "pgnarc/status.h"

namespace pgnarc::common {

// A whole file mapped read-only (an empty file is an empty view); unmapped on destruction.
class MappedFile {
 public:
  // Fails with IO, naming the path, if the file cannot be opened, examined or mapped.
  static Result<std::unique_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view bytes() const { return {data_, size_}; }

 private:
  MappedFile() = default;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pgnarc::common
