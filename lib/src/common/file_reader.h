// An archive file read with pread: every read is checked against the bytes the file still has,
// so a file cut short by another process while it is read gives an I/O error, never a signal
// (a memory map would deliver SIGBUS).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "pgnarc/status.h"

namespace pgnarc::common {

// Opens `path` to read, which must be a regular file: a FIFO, directory or device is an IO error
// that says so (and opening a FIFO does not wait for a writer). Gives the descriptor and size.
Result<int> open_regular_file(const std::string& path, std::uint64_t& size);

// Reads `size` bytes at `offset` into `out` (replacing its contents): a store other than a file.
using ReadFunction = std::function<Status(std::uint64_t offset, std::size_t size, std::string& out)>;

class FileReader {
 public:
  static Result<std::unique_ptr<FileReader>> open(const std::string& path);
  // A reader of `size` bytes that `read` gives (object storage, a Python file object); `name`
  // names it in errors. `read` must be safe to call from several threads at once.
  static std::unique_ptr<FileReader> from_function(const std::string& name, std::uint64_t size, ReadFunction read);
  ~FileReader();
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  // The size the file had when opened.
  std::uint64_t size() const { return size_; }
  // The `size` bytes at `offset` into `out` (replacing its contents). IO if the file has fewer
  // bytes now (cut short by another process) or the read fails. Safe from several threads.
  Status read(std::uint64_t offset, std::size_t size, std::string& out) const;
  // Where the first byte at or after `offset` lies that is not in a hole of a sparse file (the
  // file system's SEEK_DATA; `offset` itself where it cannot tell, size() past the last data).
  // Holes read as zero bytes: a scan for a pattern without one skips them so.
  std::uint64_t next_data(std::uint64_t offset) const;

 private:
  FileReader() = default;
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  ReadFunction function_;  // set: it reads, not fd_
};

}  // namespace pgnarc::common
