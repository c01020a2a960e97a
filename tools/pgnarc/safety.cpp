#include "safety.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "console.h"

namespace pgnarc::cli {
namespace {

// The registered temporary files. A slot's path is written before `used` is set, and a handler
// reads only slots that are set.
constexpr int kSlots = 8;
char g_paths[kSlots][4096];
std::atomic<bool> g_used[kSlots];
static_assert(std::atomic<bool>::is_always_lock_free);

void remove_temporaries() {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load(std::memory_order_acquire)) ::unlink(g_paths[i]);
}

// Async-signal-safe: unlink, then the default action (installed by SA_RESETHAND) once the signal,
// blocked while this runs, is raised again and delivered on return.
void on_stop(int sig) {
  remove_temporaries();
  ::raise(sig);
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  // The stop signals are blocked while a handler removes the temporary files: a second Ctrl-C
  // then ends the program only once they are gone.
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&sa.sa_mask, s);
  sa.sa_flags = SA_RESETHAND;
  sa.sa_handler = on_stop;
  // SIGINT and SIGHUP keep being ignored if the parent ignored them (nohup, a shell's `&`
  // without job control); SIGPIPE is always caught: a reader that goes away ends the program
  // quietly, as for any filter.
  for (int sig : {SIGINT, SIGHUP, SIGTERM, SIGPIPE}) {
    struct sigaction old {};
    if (sig != SIGPIPE && ::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

TempFileGuard::TempFileGuard(const std::string& path) {
  if (path.empty() || path.size() >= sizeof g_paths[0]) return;
  for (int i = 0; i < kSlots; ++i)
    if (!g_used[i].load(std::memory_order_relaxed)) {
      std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
      g_used[i].store(true, std::memory_order_release);
      slot_ = i;
      return;
    }
}

TempFileGuard::~TempFileGuard() {
  if (slot_ >= 0) g_used[slot_].store(false, std::memory_order_release);
}

StopSignalsHeld::StopSignalsHeld() {
  static_assert(sizeof(old_) >= sizeof(sigset_t));
  sigset_t stop;
  sigemptyset(&stop);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&stop, s);
  held_ = ::sigprocmask(SIG_BLOCK, &stop, reinterpret_cast<sigset_t*>(old_)) == 0;
}

void StopSignalsHeld::release() {
  if (held_) ::sigprocmask(SIG_SETMASK, reinterpret_cast<const sigset_t*>(old_), nullptr);
  held_ = false;
}

int check_output(const std::string& out, const std::vector<std::string>& inputs, bool force) {
  const bool to_stdout = out.empty() || out == "-";
  struct stat o {};
  if (to_stdout ? ::fstat(1, &o) != 0 : ::stat(out.c_str(), &o) != 0) return kOk;  // a new file
  const std::string name = to_stdout ? "standard output" : out;
  for (const std::string& in : inputs) {
    struct stat i {};
    if (in == "-" ? ::fstat(0, &i) != 0 : ::stat(in.c_str(), &i) != 0) continue;
    // A terminal or pipe on both sides is not one file written over itself.
    if (S_ISREG(o.st_mode) && same_file(i, o)) {
      std::fprintf(stderr, "pgnarc: %s is also an input (%s); write to another file\n", name.c_str(),
                   in == "-" ? "standard input" : in.c_str());
      return kUsage;
    }
  }
  if (to_stdout) return kOk;
  if (S_ISDIR(o.st_mode)) {
    std::fprintf(stderr, "pgnarc: -o %s is a directory; give the name of the file to write\n", out.c_str());
    return kUsage;
  }
  if (S_ISREG(o.st_mode) && !force) {
    std::fprintf(stderr, "pgnarc: %s exists; use --force to overwrite it\n", out.c_str());
    return kUsage;
  }
  // A block device (a disk) is written over only when asked; a character device or FIFO takes
  // a stream and loses nothing.
  if (S_ISBLK(o.st_mode) && !force) {
    std::fprintf(stderr, "pgnarc: %s is a block device; use --force to write over it\n", out.c_str());
    return kUsage;
  }
  if (S_ISSOCK(o.st_mode)) {
    std::fprintf(stderr, "pgnarc: %s is a socket, not a file to write\n", out.c_str());
    return kUsage;
  }
  return kOk;
}

}  // namespace pgnarc::cli
