#include "common/file_writer.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <utility>

namespace pgnarc::common {
namespace {

// A temporary file this old that no writer holds is left by a killed writer.
constexpr std::time_t kStaleSeconds = 5;

std::string errno_text() { return std::strerror(errno); }

// The file a symlink at `path` finally points to (`path` itself if it is none, or if the link
// leads nowhere: then the link is replaced, as a missing file would be created).
std::string resolve(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return path;
  std::string target(real);
  std::free(real);
  return target;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Removes "<target>.tmp.*" files that no writer holds: a writer holds an exclusive flock on its
// temporary file from the moment it makes it (one killed with SIGKILL cannot remove its own,
// and its lock goes with it). A lock tells across process namespaces and, where flock works, across
// hosts, which a process number cannot; the age rule covers the instant between a writer's
// open and its flock.
void remove_stale_temporaries(const std::string& target) {
  const std::string dir = directory_of(target);
  const auto slash = target.rfind('/');
  const std::string prefix = (slash == std::string::npos ? target : target.substr(slash + 1)) + ".tmp.";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  const std::time_t now = std::time(nullptr);
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name(e->d_name);
    if (!name.starts_with(prefix) || name.size() == prefix.size()) continue;
    const std::string file = dir + "/" + std::string(name);
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > kStaleSeconds &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0)
      ::unlink(file.c_str());
    ::close(fd);
  }
  ::closedir(d);
}

// Opens and locks the existing file `target` (exclusive, without waiting). The lock is taken on
// the file the name means once it is held: a writer that renamed a new file over it meanwhile
// has released the old one. -1 and errno ENOENT: there is no such file.
Result<int> lock_target(const std::string& target) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    // Opened for writing where permitted: NFS emulates flock with byte-range locks, and an
    // exclusive one needs a file open for writing.
    int fd = ::open(target.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 && (errno == EACCES || errno == EROFS)) fd = ::open(target.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
      if (errno == ENOENT) return -1;
      return io_error("cannot open " + target + ": " + errno_text());
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      if (err == ENOLCK || err == EOPNOTSUPP || err == EBADF) return fd;  // a file system without locks
      ::close(fd);
      if (err == EWOULDBLOCK)
        return io_error(target + " is busy: another process is writing it (try again when it has finished)");
      if (err == EINTR) continue;
      return io_error("cannot lock " + target + ": " + std::strerror(err));
    }
    struct stat held {}, now {};
    if (::fstat(fd, &held) == 0 && ::stat(target.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
        held.st_ino == now.st_ino)
      return fd;
    ::close(fd);  // replaced meanwhile: lock the new file
  }
  return io_error("cannot lock " + target + ": it keeps being replaced");
}

}  // namespace

int create_temporary(const std::string& target, std::string& temp) {
  std::random_device random;
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(random()));
    temp = target + ".tmp." + std::to_string(::getpid()) + "-" + suffix;
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  return fd;
}

bool copy_owner_and_mode(int fd, const struct stat& like) {
  if (::fchown(fd, like.st_uid, like.st_gid) != 0) (void)!::fchown(fd, static_cast<uid_t>(-1), like.st_gid);
  return ::fchmod(fd, like.st_mode & 07777) == 0;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

int rename_no_replace(const char* from, const char* to) {
  if (::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;  // EINVAL: the file system cannot do it
  if (::link(from, to) != 0) return -1;
  ::unlink(from);
  return 0;
}

Result<AtomicFile> AtomicFile::create(const std::string& path, bool replace) {
  AtomicFile f;
  f.replace_ = replace;
  if (path == "-") {
    f.path_ = "<stdout>";
    f.fd_ = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (f.fd_ < 0) return io_error("cannot use standard output: " + errno_text());
    return f;
  }
  f.path_ = resolve(path);
  struct stat st {};
  if (::stat(f.path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return io_error("cannot write " + f.path_ + ": it is a directory");
    f.fd_ = ::open(f.path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (f.fd_ < 0) return io_error("cannot open " + f.path_ + ": " + errno_text());
    return f;
  }
  if (!replace && ::lstat(f.path_.c_str(), &st) == 0) return io_error(f.path_ + " exists: it is not replaced");
  // A target that does not exist yet has no file to lock: another writer that makes it meanwhile
  // is not replaced either (commit refuses an existing name).
  if (::lstat(f.path_.c_str(), &st) != 0) f.replace_ = false;
  auto lock = lock_target(f.path_);
  if (!lock) return lock.error();
  f.lock_fd_ = *lock;
  remove_stale_temporaries(f.path_);
  f.fd_ = create_temporary(f.path_, f.temp_path_);
  if (f.fd_ < 0) {
    const std::string err = errno_text();
    f.committed_ = true;  // nothing of ours to remove
    return io_error("cannot create " + f.temp_path_ + ": " + err);
  }
  (void)::flock(f.fd_, LOCK_EX | LOCK_NB);  // held while it is written: not stale
  if (f.lock_fd_ >= 0 && ::fstat(f.lock_fd_, &st) == 0 && !copy_owner_and_mode(f.fd_, st))
    return io_error("cannot set the permissions of " + f.temp_path_ + ": " + errno_text());
  return f;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      fd_(std::exchange(other.fd_, -1)),
      lock_fd_(std::exchange(other.lock_fd_, -1)),
      offset_(other.offset_),
      committed_(std::exchange(other.committed_, true)),
      replace_(other.replace_) {}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

Status AtomicFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write " + written_path() + ": " + errno_text());
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset_ += static_cast<std::uint64_t>(n);
  }
  return {};
}

Status AtomicFile::write_at(std::uint64_t offset, std::string_view bytes) {
  if (!rewritable() || offset + bytes.size() > offset_) return io_error("cannot write " + written_path() + " again");
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write " + written_path() + ": " + errno_text());
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return {};
}

Status AtomicFile::commit() {
  // Pipes, terminals and devices cannot be synced (EINVAL); what they were given is written.
  if (::fsync(fd_) != 0 && !(temp_path_.empty() && (errno == EINVAL || errno == EROFS || errno == ENOTSUP)))
    return io_error("cannot sync " + written_path() + ": " + errno_text());
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return io_error("cannot close " + written_path() + ": " + errno_text());
  if (temp_path_.empty()) {
    committed_ = true;
    return {};
  }
  if (!replace_ && rename_no_replace(temp_path_.c_str(), path_.c_str()) != 0) {
    if (errno == EEXIST)
      return io_error(path_ + " appeared while it was being written (another process made it): it is left as it "
                      "is, and nothing was written");
    return io_error("cannot rename " + temp_path_ + " to " + path_ + ": " + errno_text());
  }
  if (replace_ && std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    return io_error("cannot rename " + temp_path_ + " to " + path_ + ": " + errno_text());
  committed_ = true;
  // The rename itself is made durable by syncing the directory that holds it.
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    const bool synced = ::fsync(dir) == 0 || errno == EINVAL;
    ::close(dir);
    if (!synced) return io_error("cannot sync the directory of " + path_ + ": " + errno_text());
  }
  return {};
}

}  // namespace pgnarc::common
