#include "console.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <vector>

namespace pgnarc::cli {

namespace {
bool g_quiet = false;  // set once by main, after parsing and before any command runs
// Standard input's stand-in path (archive_path) and the temporary file holding a pipe's bytes,
// kept open for the program's life.
std::string g_stdin_path;
std::FILE* g_stdin_copy = nullptr;
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
  std::string text = e.to_string();
  if (!g_stdin_path.empty())
    for (std::size_t at; (at = text.find(g_stdin_path)) != std::string::npos;)
      text.replace(at, g_stdin_path.size(), "<stdin>");
  std::fprintf(stderr, "pgnarc: %s\n", text.c_str());
  return exit_code_for(e.code());
}

Result<std::string> archive_path(const std::string& arg) {
  if (arg != "-") return arg;
  if (!g_stdin_path.empty()) return g_stdin_path;
  struct stat st {};
  if (::fstat(0, &st) != 0) return io_error(std::string("cannot stat <stdin>: ") + std::strerror(errno));
  if (S_ISREG(st.st_mode)) {
    g_stdin_path = "/dev/stdin";
    return g_stdin_path;
  }
  g_stdin_copy = std::tmpfile();
  if (!g_stdin_copy) return io_error(std::string("cannot make a temporary file for <stdin>: ") + std::strerror(errno));
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t n = ::read(0, buf.data(), buf.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(std::string("cannot read <stdin>: ") + std::strerror(errno));
    }
    if (std::fwrite(buf.data(), 1, static_cast<std::size_t>(n), g_stdin_copy) != static_cast<std::size_t>(n))
      return io_error(std::string("cannot copy <stdin> to a temporary file: ") + std::strerror(errno));
  }
  if (std::fflush(g_stdin_copy) != 0)
    return io_error(std::string("cannot copy <stdin> to a temporary file: ") + std::strerror(errno));
  g_stdin_path = "/proc/self/fd/" + std::to_string(::fileno(g_stdin_copy));
  return g_stdin_path;
}

Result<std::unique_ptr<Archive>> open_archive(const std::string& arg) {
  auto path = archive_path(arg);
  if (!path) return path.error();
  return Archive::open(*path);
}

namespace {

// The first 64 KiB of the file an argument names ("-": standard input's copy); "" if unreadable.
std::string file_head(const std::string& arg) {
  const std::string path = arg == "-" ? g_stdin_path : arg;
  std::FILE* f = path.empty() ? nullptr : std::fopen(path.c_str(), "rb");
  if (!f) return {};
  std::string head(64 * 1024, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::fclose(f);
  return head;
}

// Does the file start as PGN does (after white space and a UTF-8 byte order mark: a tag, a
// comment, an escape line or a move number), or as a zstd or gzip stream named .pgn-something?
bool looks_like_pgn(const std::string& arg, std::string_view h) {
  if ((h.starts_with("\x28\xb5\x2f\xfd") || h.starts_with("\x1f\x8b")) && arg.find(".pgn") != std::string::npos)
    return true;
  std::size_t i = h.starts_with("\xef\xbb\xbf") ? 3 : 0;
  while (i < h.size() && (h[i] == ' ' || h[i] == '\t' || h[i] == '\r' || h[i] == '\n')) ++i;
  return i < h.size() && h[i] != '\0' && (std::strchr("[{;%", h[i]) || (h[i] >= '0' && h[i] <= '9'));
}

}  // namespace

int report_archive_error(const Error& e, const std::string& arg, bool salvage) {
  const int code = report(e);
  if (e.code() != ErrorCode::Corruption) return code;
  // The path as a shell word: quoted where it holds anything but the plainest characters.
  std::string word = arg;
  if (arg.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") !=
      std::string::npos) {
    std::string quoted(1, '\'');
    for (char c : arg) {
      if (c == '\'') quoted.append("'\\''");
      else quoted.push_back(c);
    }
    quoted.push_back('\'');
    word = std::move(quoted);
  }
  const std::string head = file_head(arg);
  // A NUL byte in its first 64 KiB: binary data, neither an archive's header nor text.
  const std::size_t nul = e.message().find("bad magic") != std::string::npos ? head.find('\0') : std::string::npos;
  if (looks_like_pgn(arg, head))
    std::fprintf(stderr, "pgnarc: %s looks like PGN, not an archive; to make one: pgnarc pack %s\n",
                 arg == "-" ? "<stdin>" : word.c_str(), arg == "-" ? "- -o OUT.pga" : word.c_str());
  else if (nul != std::string::npos)
    std::fprintf(stderr, "pgnarc: %s is not an archive, nor text (a NUL byte at offset %zu)\n",
                 arg == "-" ? "<stdin>" : word.c_str(), nul);
  else if (salvage && arg != "-")
    std::fprintf(stderr,
                 "pgnarc: the archive is damaged; to write the games of its sound blocks: "
                 "pgnarc unpack --salvage %s -o OUT.pgn\n",
                 word.c_str());
  return code;
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
  done_ = done;
  bytes_ = bytes;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(200)) return;
  draw(now);
}

void Progress::finish() {
  if (!on_) return;
  on_ = false;
  if (!shown_) return;
  shown_ = false;
  if (total_ > 0 && done_ >= total_) {
    draw(std::chrono::steady_clock::now());
    std::fputs("\n", stderr);
  } else {
    std::fputs("\r\033[K", stderr);
  }
}

void Progress::draw(std::chrono::steady_clock::time_point now) {
  last_ = now;
  shown_ = true;
  const std::uint64_t done = done_;
  const bool bytes = bytes_;
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

namespace {
// The bytes gathered before a write to the file, as a stdio buffer would.
constexpr std::size_t kOutputBuffer = 64 << 10;
}  // namespace

Status Output::open(const std::string& path, bool replace) {
  if (path.empty() || path == "-") return {};
  StopSignalsHeld held;  // until the temporary file is registered
  auto file = common::AtomicFile::create(path, replace);
  if (!file) return file.error();
  if (!file->temp_path().empty()) guard_ = std::make_unique<TempFileGuard>(file->temp_path());
  file_.emplace(std::move(*file));
  return {};
}

void Output::flush_buffer() {
  if (!error_ && !buffer_.empty())
    if (auto st = file_->write(buffer_); !st) error_ = st.error();
  buffer_.clear();
}

bool Output::write(std::string_view s) {
  if (error_) return false;
  if (!file_) {
    if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size())
      error_ = io_error(std::string("cannot write <stdout>: ") + std::strerror(errno));
    return !error_;
  }
  buffer_.append(s);
  if (buffer_.size() >= kOutputBuffer) flush_buffer();
  return !error_;
}

Status Output::close() {
  if (!closed_) {
    closed_ = true;
    if (!file_) {
      if (!error_ && std::fflush(stdout) != 0)
        error_ = io_error(std::string("cannot write <stdout>: ") + std::strerror(errno));
    } else {
      flush_buffer();
      if (!error_)
        if (auto st = file_->commit(); !st) error_ = st.error();
      file_.reset();  // removes the temporary file unless it was renamed, and releases the lock
      guard_.reset();
    }
  }
  if (error_) return *error_;
  return {};
}

}  // namespace pgnarc::cli
