#include "console.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
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

Output::~Output() {
  if (f_ && f_ != stdout) std::fclose(f_);
}

Status Output::open(const std::string& path) {
  if (path.empty() || path == "-") return {};
  f_ = std::fopen(path.c_str(), "wb");
  name_ = path;
  if (!f_) return io_error("cannot create " + path + ": " + std::strerror(errno));
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
    if (std::fclose(f_) != 0) fail();
    f_ = nullptr;
  }
  if (error_) return *error_;
  return {};
}

}  // namespace pgnarc::cli
