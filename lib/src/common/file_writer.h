// A file written whole or not at all: bytes go to a temporary file beside the target, which
// replaces the target only once it is complete and synced.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/status.h"

namespace pgnarc::common {

class AtomicFile {
 public:
  // Prepares to write `path`:
  // - "-" is standard output, and a `path` that exists and is not a regular file (a character
  //   device, a FIFO) is opened as it is: both are written in order, with no temporary file;
  // - otherwise the target is `path`, or the file a symlink there points to, and the bytes go
  //   to "<target>.tmp.<pid>" beside it, which commit() renames over the target with the old
  //   file's permissions (and owner and group where the process may set them). An existing
  //   target is locked (flock, exclusive) until this object is destroyed, so that two writers
  //   replacing one file cannot both succeed; temporary files of the target left by processes
  //   that no longer exist (killed with SIGKILL) are removed.
  // With `replace` false, a target that exists is never replaced: create() fails if it exists,
  // and commit() if it appeared meanwhile (another process wrote it).
  // Fails with IO naming the file, or saying that another process is writing it.
  static Result<AtomicFile> create(const std::string& path, bool replace = true);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  // Closes the file and releases the lock; removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  // Appends `bytes`; fails with IO naming the file written.
  Status write(std::string_view bytes);
  // Whether bytes already written can be written again (write_at): a temporary file can, a
  // stream written directly (standard output, a FIFO) cannot.
  bool rewritable() const { return !temp_path_.empty(); }
  // Writes `bytes` again at `offset` (bytes written before, rewritable() only); fails with IO.
  Status write_at(std::uint64_t offset, std::string_view bytes);
  // Bytes written so far: the offset of the next write.
  std::uint64_t offset() const { return offset_; }
  // Syncs and closes the file, renames a temporary file to the target and syncs its directory.
  Status commit();
  // The temporary file ("" when the target is written directly).
  const std::string& temp_path() const { return temp_path_; }
  // What is written: the temporary file, or the target written directly.
  const std::string& written_path() const { return temp_path_.empty() ? path_ : temp_path_; }

 private:
  AtomicFile() = default;
  std::string path_, temp_path_;
  int fd_ = -1, lock_fd_ = -1;
  std::uint64_t offset_ = 0;
  bool committed_ = false;
  bool replace_ = true;
};

// Creates the new file "<target>.tmp.<pid>-<random>" beside `target` to write, exclusively (never
// an existing name, never through a link planted at the name: a process number alone can repeat
// across process namespaces sharing a volume), and sets `temp` to its name. The descriptor, or
// -1 with errno set (`temp` then names the last name tried).
int create_temporary(const std::string& target, std::string& temp);
// Gives the file `fd` the owner and group of `like` (the group alone where the owner cannot be
// set), then its permission bits (owner first: changing it may clear the set-user-ID and
// set-group-ID bits that fchmod sets); false if the permissions cannot be set.
bool copy_owner_and_mode(int fd, const struct stat& like);

// Whether `a` and `b` name one existing file (through symlinks, hard links or `..` alike: the
// same device and inode); false if either does not exist.
bool same_file(const std::string& a, const std::string& b);

// Renames `from` to `to` unless `to` exists (then fails with EEXIST), atomically where the file
// system can (renameat2 RENAME_NOREPLACE), else by link and unlink. 0 or -1 with errno set.
int rename_no_replace(const char* from, const char* to);

}  // namespace pgnarc::common
