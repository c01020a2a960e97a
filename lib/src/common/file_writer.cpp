#include "common/file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace pgnarc::detail {

Result<AtomicFile> AtomicFile::create(const std::string& path) {
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("cannot create " + temp + ": " + std::strerror(errno));
  return AtomicFile(path, std::move(temp), fd);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      fd_(std::exchange(other.fd_, -1)),
      offset_(other.offset_),
      committed_(std::exchange(other.committed_, true)) {}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
}

Status AtomicFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write " + temp_path_ + ": " + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset_ += static_cast<std::uint64_t>(n);
  }
  return {};
}

Status AtomicFile::commit() {
  if (::fsync(fd_) != 0) return io_error("cannot sync " + temp_path_ + ": " + std::strerror(errno));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return io_error("cannot close " + temp_path_ + ": " + std::strerror(errno));
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    return io_error("cannot rename " + temp_path_ + " to " + path_ + ": " + std::strerror(errno));
  committed_ = true;
  return {};
}

}  // namespace pgnarc::detail
