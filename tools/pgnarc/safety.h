// What keeps the files pgnarc writes safe: temporary files removed when a signal stops the
// program, and outputs checked against the inputs before anything is touched.
#pragma once

#include <string>
#include <vector>

namespace pgnarc::cli {

// SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the registered temporary files, then end the program
// by the same signal with its default action (so the exit status says which). Called once, first
// thing in main.
void install_signal_handlers();

// Registers a temporary file for removal by those handlers while this object lives (at most
// eight at a time; the path is copied in advance, since a handler may not allocate).
class TempFileGuard {
 public:
  explicit TempFileGuard(const std::string& path);
  ~TempFileGuard();
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;

 private:
  int slot_ = -1;
};

// Holds back the stop signals while a temporary file is made and registered (from construction
// to release() or destruction): one that arrives meanwhile is delivered once the file is
// registered, and so removes it.
class StopSignalsHeld {
 public:
  StopSignalsHeld();
  ~StopSignalsHeld() { release(); }
  StopSignalsHeld(const StopSignalsHeld&) = delete;
  StopSignalsHeld& operator=(const StopSignalsHeld&) = delete;
  void release();

 private:
  bool held_ = false;
  unsigned long long old_[16] = {};  // the signal mask before (a sigset_t)
};

// Whether `out` may be written by a command reading `inputs` ("-": standard input); prints why
// not and returns the exit code (kUsage), or kOk. `out` "-" or "" is standard output. Refused:
// an output that is one of the inputs (the same file, through any link), a directory, and an
// existing regular file without `force` (a device or FIFO is written to, not overwritten).
int check_output(const std::string& out, const std::vector<std::string>& inputs, bool force);

}  // namespace pgnarc::cli
