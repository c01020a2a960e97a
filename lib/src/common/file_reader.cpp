#include "common/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace pgnarc::common {

Result<int> open_regular_file(const std::string& path, std::uint64_t& size) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return io_error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return io_error("cannot stat " + path + ": " + std::strerror(err));
  }
  // An archive is read at random places, so it must be a regular file: a pipe or FIFO would
  // read as an empty (and so "damaged") archive.
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* what = S_ISFIFO(st.st_mode) ? "a pipe (FIFO)"
                       : S_ISDIR(st.st_mode) ? "a directory"
                       : S_ISCHR(st.st_mode) ? "a character device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    return io_error("cannot read " + path + ": it is " + std::string(what) +
                    ", and an archive must be a regular file (it is read at random places; save it to a file first)");
  }
  size = static_cast<std::uint64_t>(st.st_size);
  return fd;
}

Result<std::unique_ptr<FileReader>> FileReader::open(const std::string& path) {
  std::uint64_t size = 0;
  auto fd = open_regular_file(path, size);
  if (!fd) return fd.error();
  std::unique_ptr<FileReader> f(new FileReader());
  f->path_ = path;
  f->fd_ = *fd;
  f->size_ = size;
  return f;
}

std::unique_ptr<FileReader> FileReader::from_function(const std::string& name, std::uint64_t size, ReadFunction read) {
  std::unique_ptr<FileReader> f(new FileReader());
  f->path_ = name;
  f->size_ = size;
  f->function_ = std::move(read);
  return f;
}

FileReader::~FileReader() {
  if (fd_ >= 0) ::close(fd_);
}

Status FileReader::read(std::uint64_t offset, std::size_t size, std::string& out) const {
  if (function_) {
    if (offset > size_ || size > size_ - offset)
      return io_error("cannot read " + path_ + ": " + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                      " pass its end at " + std::to_string(size_));
    if (auto st = function_(offset, size, out); !st) return st;
    if (out.size() != size)
      return io_error(path_ + " gave " + std::to_string(out.size()) + " bytes at offset " + std::to_string(offset) +
                      " for " + std::to_string(size) + ": it changed while it was read?");
    return {};
  }
  out.resize(size);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::pread(fd_, out.data() + got, size - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot read " + path_ + " at offset " + std::to_string(offset + got) + ": " + std::strerror(errno));
    if (n == 0)
      return io_error(path_ + " ends at offset " + std::to_string(offset + got) + ", before the " +
                      std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                      ": the file was truncated while it was read (by another process?)");
    got += static_cast<std::size_t>(n);
  }
  return {};
}

std::uint64_t FileReader::next_data(std::uint64_t offset) const {
  if (function_ || offset >= size_) return offset;
  const off_t at = ::lseek(fd_, static_cast<off_t>(offset), SEEK_DATA);
  if (at >= 0) return std::min<std::uint64_t>(static_cast<std::uint64_t>(at), size_);
  return errno == ENXIO ? size_ : offset;  // ENXIO: only a hole follows
}

}  // namespace pgnarc::common
