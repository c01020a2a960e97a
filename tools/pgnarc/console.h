// What the commands print and where: exit codes, error messages, --quiet, the progress line,
// and output to standard output or a file with every write checked.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/file_writer.h"
#include "pgnarc/archive.h"
#include "pgnarc/status.h"
#include "safety.h"

namespace pgnarc::cli {

// Exit codes, as `pgnarc --help` and the README give them.
enum Exit : int { kOk = 0, kUsage = 1, kBadInput = 2, kDamaged = 3, kIoError = 4 };

// --quiet: nothing but errors on stderr (no summaries, no progress line).
void set_quiet(bool quiet);
bool quiet();

// The exit code of a library error.
int exit_code_for(ErrorCode code);
// Prints "pgnarc: <category>: <message>" on stderr; returns its exit code.
int report(const Error& e);

// The archive a reading command is given: a path, or "-" for standard input, which is then read
// by random access like a file: a regular file on stdin (pgnarc get - 3 < games.pga) where it
// is, anything else (a pipe) first copied into an unnamed temporary file. Returns the path to
// open; errors naming that stand-in are reported with "<stdin>" instead (report()).
Result<std::string> archive_path(const std::string& arg);
// Opens the archive a command is given (a path, or - for standard input: archive_path).
Result<std::unique_ptr<Archive>> open_archive(const std::string& arg);
// report(), then for a Corruption error a hint: `arg` looks like PGN (pack it first), or, with
// `salvage`, the archive is damaged (unpack --salvage reads the rest).
int report_archive_error(const Error& e, const std::string& arg, bool salvage = true);

// Appends printf-style text to `out`, however long.
void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));

// A progress line on stderr when it is a terminal and not --quiet, redrawn at most five times a
// second. finish() ends it: a line that reached its total is drawn once more, complete (100%),
// and left in place; an unfinished one (an error, unknown total) is erased, as it is when the
// Progress goes without finish(). Either way what is printed next starts on a clean line.
class Progress {
 public:
  // `total` units (games, or bytes); 0: unknown, the line then shows the count and the rate.
  explicit Progress(const char* what, std::uint64_t total = 0);
  ~Progress();
  // `done` units so far: games, or bytes when `bytes` is true.
  void update(std::uint64_t done, bool bytes = false);
  // Ends the line (above); later updates draw nothing.
  void finish();

  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  void draw(std::chrono::steady_clock::time_point now);
  const char* what_;
  std::uint64_t total_, done_ = 0;
  bool on_, shown_ = false, bytes_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// Standard output, or a file written through the library's AtomicFile (common/file_writer.h):
// whole or not at all (its bytes go to a temporary file beside it, or beside a symlink's target,
// renamed over it by close() with the old file's permissions), and an existing device or FIFO
// written directly. Every write is checked: after the first failure, writes do nothing and
// return false, and close() reports it as an I/O error naming the file. The temporary file is
// removed if the program is stopped by a signal or the Output is destroyed without close().
class Output {
 public:
  Output() = default;
  // Opens `path` to write; empty or "-": standard output. With `replace` false, an existing file
  // is not replaced: open() fails if one is at `path`, close() if one appears there meanwhile.
  Status open(const std::string& path, bool replace = true);
  // Writes `s`; false if this or an earlier write failed.
  bool write(std::string_view s);
  // Whether every write so far succeeded.
  bool ok() const { return !error_; }
  // Flushes; for a file also syncs, closes and renames it into place. The first failure of a
  // write, the flush, the sync, the close or the rename.
  Status close();

  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

 private:
  void flush_buffer();
  // Declared before the file: a stop signal removes the temporary file until the file is gone.
  std::unique_ptr<TempFileGuard> guard_;
  std::optional<common::AtomicFile> file_;  // none: standard output
  std::string buffer_;                      // bytes for the file not yet written
  bool closed_ = false;
  std::optional<Error> error_;
};

}  // namespace pgnarc::cli
