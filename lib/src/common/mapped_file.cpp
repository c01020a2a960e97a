#include "common/mapped_file.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "common/file_reader.h"

namespace pgnarc::common {

Result<std::unique_ptr<MappedFile>> MappedFile::open(const std::string& path) {
  std::uint64_t size = 0;
  auto opened = open_regular_file(path, size);
  if (!opened) return opened.error();
  const int fd = *opened;
  std::unique_ptr<MappedFile> f(new MappedFile());
  f->size_ = static_cast<std::size_t>(size);
  if (f->size_ > 0) {
    void* m = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      ::close(fd);
      return io_error("cannot map " + path + ": " + std::strerror(errno));
    }
    f->data_ = static_cast<const char*>(m);
  }
  ::close(fd);
  return f;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace pgnarc::common
