#include "console.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>

namespace pgnarc::cli {

namespace {
bool g_quiet = false;  // set once by main, after parsing and before any command runs
}  // namespace

void set_quiet(bool quiet) { g_quiet = quiet; }
bool quiet() { return g_quiet; }

int exit_code_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidInput:
      return kBadInput;
    case ErrorCode::Corruption:
      return kDamaged;
    case ErrorCode::Unsupported:
      return kDamaged;
    case ErrorCode::IO:
      return kIoError;
  }
  return kIoError;
}

int report(const Error& e) {
  std::fprintf(stderr, "pgnarc: %s\n", e.to_string().c_str());
  return exit_code_for(e.code());
}

void appendf(std::string& out, const char* format, ...) {
  std::va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (n > 0) {
    const std::size_t at = out.size();
    out.resize(at + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(out.data() + at, static_cast<std::size_t>(n) + 1, format, again);
    out.resize(at + static_cast<std::size_t>(n));
  }
  va_end(again);
}

// ---- progress ----------------------------------------------------------------------------------

namespace {
std::string human(double v, bool bytes) {
  std::string s;
  if (bytes)
    appendf(s, "%.1f MB", v / 1e6);
  else
    appendf(s, "%.0f games", v);
  return s;
}
}  // namespace

Progress::Progress(const char* what, std::uint64_t total)
    : what_(what),
      total_(total),
      on_(!g_quiet && ::isatty(2)),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (shown_) std::fputs("\r\033[K", stderr);
}

void Progress::update(std::uint64_t done, bool bytes) {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  shown_ = true;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
  std::string line;
  if (total_ > 0) {
    const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
    const int width = 30, fill = static_cast<int>(frac * width);
    const double left =
        rate > 0 ? static_cast<double>(total_ - std::min(done, total_)) / rate : 0.0;
    appendf(line, "\r%s [%.*s%*s] %3.0f%% %s/s, %.0f s left\033[K", what_, fill,
            "##############################", width - fill, "", frac * 100,
            human(rate, bytes).c_str(), left);
  } else {
    appendf(line, "\r%s %s, %s/s\033[K", what_, human(static_cast<double>(done), bytes).c_str(),
            human(rate, bytes).c_str());
  }
  std::fputs(line.c_str(), stderr);
}

// ---- output ------------------------------------------------------------------------------------

Output::~Output() {
  if (f_ && f_ != stdout) std::fclose(f_);
  if (!target_.empty()) ::unlink(name_.c_str());  // not renamed: nothing at the target
}

Status Output::open(const std::string& path) {
  if (path.empty() || path == "-") return {};
  name_ = path;
  std::string target = path;
  if (char* real = ::realpath(path.c_str(), nullptr)) {  // an existing file, through symlinks
    target = real;
    std::free(real);
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  int fd = -1;
  if (exists && !S_ISREG(st.st_mode)) {
    fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return io_error("cannot open " + path + ": " + std::strerror(errno));
  } else {
    name_ = target + ".tmp." + std::to_string(::getpid());
    ::unlink(name_.c_str());  // this process number's, from an earlier run: stale
    fd = ::open(name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) return io_error("cannot create " + name_ + ": " + std::strerror(errno));
    target_ = target;
    guard_ = std::make_unique<TempFileGuard>(name_);
    if (exists) {
      if (::fchown(fd, st.st_uid, st.st_gid) != 0) (void)!::fchown(fd, static_cast<uid_t>(-1), st.st_gid);
      (void)::fchmod(fd, st.st_mode & 07777);
    }
  }
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    ::close(fd);
    return io_error("cannot open " + name_ + ": " + std::strerror(errno));
  }
  return {};
}

void Output::fail() {
  if (!error_) error_ = io_error("cannot write " + name_ + ": " + std::strerror(errno));
}

bool Output::write(std::string_view s) {
  if (error_) return false;
  if (std::fwrite(s.data(), 1, s.size(), f_) != s.size()) fail();
  return !error_;
}

Status Output::close() {
  if (f_ && !error_ && std::fflush(f_) != 0) fail();
  if (f_ && f_ != stdout) {
    // A device or FIFO cannot be synced (EINVAL); what it was given is written.
    if (!error_ && ::fsync(::fileno(f_)) != 0 && !(target_.empty() && (errno == EINVAL || errno == EROFS)))
      fail();
    if (std::fclose(f_) != 0) fail();
    f_ = nullptr;
  }
  if (!error_ && !target_.empty()) {
    if (std::rename(name_.c_str(), target_.c_str()) != 0)
      error_ = io_error("cannot rename " + name_ + " to " + target_ + ": " + std::strerror(errno));
    else
      target_.clear();
  }
  if (error_) return *error_;
  return {};
}

}  // namespace pgnarc::cli
