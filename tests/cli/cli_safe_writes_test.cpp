// End-to-end: what the files pgnarc writes survive. Concurrent writers of one archive, an output
// that is one of the inputs, devices and FIFOs as outputs, symlinks and permissions, signals,
// standard output as an archive, and an archive truncated by another process while it is read.
#include <fcntl.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::run_cli;
namespace fs = std::filesystem;

// Starts `pgnarc <args>` (shell words) without waiting; returns its process ID (the shell execs
// pgnarc, so signals reach it).
pid_t spawn_cli(const std::string& args) {
  const std::string cmd = std::string("exec '") + PGNARC_CLI + "' " + args;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// The name of a temporary file "<path>.tmp.<pid>-<random>" in `path`'s directory, once one appears
// (within 20 s), or "".
std::string wait_for_temporary(const std::string& path) {
  const fs::path p(path);
  const std::string prefix = p.filename().string() + ".tmp.";
  for (int i = 0; i < 4000; ++i) {
    for (const auto& e : fs::directory_iterator(p.parent_path()))
      if (e.path().filename().string().starts_with(prefix)) return e.path().string();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return "";
}

bool any_temporary(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) return true;
  return false;
}

std::uint64_t games_in(const std::string& archive) {
  const auto all = run_cli("info '" + archive + "'");
  const auto at = all.out.find("games:");
  if (at == std::string::npos) return 0;
  return std::strtoull(all.out.c_str() + at + 6, nullptr, 10);
}

class CliSafeWrites : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.path();
    one_ = test::read_file(test::corpus_path("pgn/twic_events.pgn"));  // 60 games
    std::ofstream(dir_ + "/games.pgn", std::ios::binary) << one_;
    ASSERT_EQ(run_cli("pack -q " + p("games.pgn") + " -o " + p("games.pga")).exit_code, 0);
  }
  // A PGN file of `copies` times the 60 games.
  void write_big(const std::string& name, int copies) const {
    std::ofstream out(dir_ + "/" + name, std::ios::binary);
    for (int i = 0; i < copies; ++i) out << one_ << "\n";
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  std::string p(const std::string& name) const { return "'" + path(name) + "'"; }
  test::ScratchDir scratch_{"cli_safe"};
  std::string dir_, one_;
};

// Two appends at once: the archive is locked from the moment the first reads it until its new
// version is in place, so the second fails at once with "busy" (exit 4) and loses nothing; run
// again afterwards, it succeeds and every game of both is there.
TEST_F(CliSafeWrites, ConcurrentAppendFailsBusyAndLosesNoGames) {
  write_big("big.pgn", 150);
  const pid_t first = spawn_cli("append -q --threads 1 " + p("games.pga") + " " + p("big.pgn"));
  ASSERT_NE(wait_for_temporary(path("games.pga")), "") << "the first append never started writing";
  const auto second = run_cli("append -q " + p("games.pga") + " " + p("games.pgn"));
  const int status = wait_status(first);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(second.exit_code, 4) << second.err;
  EXPECT_NE(second.err.find("busy"), std::string::npos) << second.err;
  EXPECT_EQ(games_in(path("games.pga")), 60u + 150u * 60u);
  // Now alone, the second append succeeds.
  EXPECT_EQ(run_cli("append -q " + p("games.pga") + " " + p("games.pgn")).exit_code, 0);
  EXPECT_EQ(games_in(path("games.pga")), 2 * 60u + 150u * 60u);
  EXPECT_EQ(run_cli("verify -q " + p("games.pga")).exit_code, 0);
  // A merge or pack --force onto an archive being appended to is refused the same way.
  const pid_t again = spawn_cli("append -q --threads 1 " + p("games.pga") + " " + p("big.pgn"));
  ASSERT_NE(wait_for_temporary(path("games.pga")), "");
  ASSERT_EQ(run_cli("pack -q " + p("games.pgn") + " -o " + p("other.pga")).exit_code, 0);
  const auto merge = run_cli("merge -q --force -o " + p("games.pga") + " " + p("other.pga"));
  EXPECT_EQ(merge.exit_code, 4) << merge.err;
  const auto pack = run_cli("pack -q --force " + p("games.pgn") + " -o " + p("games.pga"));
  EXPECT_EQ(pack.exit_code, 4) << pack.err;
  EXPECT_EQ(WEXITSTATUS(wait_status(again)), 0);
  EXPECT_EQ(games_in(path("games.pga")), 2 * 60u + 300u * 60u);
}

// An output that is one of the inputs (by name, a symlink or a hard link) is refused before
// anything is touched, with or without --force.
TEST_F(CliSafeWrites, OutputThatIsAnInputIsRefused) {
  const std::string archive = test::read_file(path("games.pga"));
  fs::create_symlink(path("games.pga"), path("link.pga"));
  fs::create_hard_link(path("games.pga"), path("hard.pga"));
  for (const std::string out : {"games.pga", "link.pga", "hard.pga"}) {
    for (const std::string force : {"", " --force"}) {
      const auto r = run_cli("unpack " + p("games.pga") + " -o " + p(out) + force);
      EXPECT_EQ(r.exit_code, 1) << out << force << r.err;
      EXPECT_NE(r.err.find("is also an input"), std::string::npos) << r.err;
    }
    EXPECT_EQ(run_cli("merge --force -o " + p(out) + " " + p("games.pga")).exit_code, 1) << out;
    EXPECT_EQ(run_cli("unpack --salvage " + p("games.pga") + " -o " + p(out)).exit_code, 1) << out;
  }
  EXPECT_EQ(test::read_file(path("games.pga")), archive);
  const std::string pgn = test::read_file(path("games.pgn"));
  EXPECT_EQ(run_cli("pack --force " + p("games.pgn") + " -o " + p("games.pgn")).exit_code, 1);
  EXPECT_EQ(run_cli("append " + p("games.pga") + " " + p("link.pga")).exit_code, 1);
  EXPECT_EQ(test::read_file(path("games.pgn")), pgn);
  EXPECT_EQ(test::read_file(path("games.pga")), archive);
  EXPECT_FALSE(any_temporary(dir_));
}

// Another process truncating an archive while it is read is an I/O error, exit 4 (every read is
// checked against the bytes the file still has).
TEST_F(CliSafeWrites, ArchiveTruncatedWhileReadIsAnIoError) {
  write_big("big.pgn", 150);
  // Without a moves dictionary, which would hold the repeated games once and make the archive small.
  ASSERT_EQ(run_cli("pack -q --no-moves-dict " + p("big.pgn") + " -o " + p("big.pga")).exit_code, 0);
  ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0600), 0);
  const pid_t pid = spawn_cli("unpack --threads 1 " + p("big.pga") + " -o " + p("out.fifo") + " 2>" + p("err.txt"));
  const int fd = ::open(path("out.fifo").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  char buf[4096];
  ASSERT_GT(::read(fd, buf, sizeof buf), 0);  // the archive is open and being read
  // At a page boundary, so that every byte the reader may still need lies beyond the end.
  ASSERT_EQ(::truncate(path("big.pga").c_str(), 12 * 4096), 0);
  while (::read(fd, buf, sizeof buf) > 0) {
  }
  ::close(fd);
  const int status = wait_status(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  const std::string err = test::read_file(path("err.txt"));
  EXPECT_EQ(WEXITSTATUS(status), 4) << err;
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
}

// A block device (a disk) is written over only with --force: without it, pack, merge and unpack
// refuse it before anything is read (a node that names no disk, where this process may make one).
TEST_F(CliSafeWrites, BlockDeviceNeedsForce) {
  const std::string node = path("disk");
  if (::mknod(node.c_str(), S_IFBLK | 0600, ::makedev(7, 250)) != 0) GTEST_SKIP() << "cannot make a block device node here";
  for (const std::string cmd : {"pack -q " + p("games.pgn") + " -o " + p("disk"), "merge -q " + p("games.pga") + " -o " + p("disk"),
                                "unpack " + p("games.pga") + " -o " + p("disk")}) {
    const auto r = run_cli(cmd);
    EXPECT_EQ(r.exit_code, 1) << cmd << r.err;
    EXPECT_NE(r.err.find("is a block device; use --force"), std::string::npos) << r.err;
    struct stat st {};
    ASSERT_EQ(::stat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISBLK(st.st_mode));
  }
}

// A FIFO (or a device) given as -o is written to, never replaced by a regular file; it needs no
// --force, since nothing in it is overwritten.
TEST_F(CliSafeWrites, FifoAndDeviceOutputsAreWrittenNotReplaced) {
  for (const std::string cmd : {"pack -q " + p("games.pgn") + " -o", "merge -q " + p("games.pga") + " -o"}) {
    ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0600), 0);
    const pid_t reader = ::fork();
    if (reader == 0) {
      ::alarm(20);
      const int in = ::open(path("out.fifo").c_str(), O_RDONLY);
      std::ofstream copy(path("copy.pga"), std::ios::binary);
      char buf[4096];
      ssize_t n;
      while ((n = ::read(in, buf, sizeof buf)) > 0) copy.write(buf, n);
      copy.close();
      ::_exit(0);
    }
    const auto r = run_cli(cmd + " " + p("out.fifo"));
    struct stat st {};
    ASSERT_EQ(::lstat(path("out.fifo").c_str(), &st), 0);
    const bool still_fifo = S_ISFIFO(st.st_mode);
    if (!still_fifo) ::kill(reader, SIGKILL);
    wait_status(reader);
    EXPECT_EQ(r.exit_code, 0) << cmd << r.err;
    EXPECT_TRUE(still_fifo) << cmd;
    EXPECT_EQ(games_in(path("copy.pga")), 60u) << cmd;
    EXPECT_FALSE(any_temporary(dir_));
    fs::remove(path("out.fifo"));
    fs::remove(path("copy.pga"));
  }
  if (::geteuid() != 0) {  // as root a regression would replace the machine's /dev/null
    EXPECT_EQ(run_cli("pack -q " + p("games.pgn") + " -o /dev/null").exit_code, 0);
    EXPECT_EQ(run_cli("unpack " + p("games.pga") + " -o /dev/null").exit_code, 0);
  }
  struct stat st {};
  ASSERT_EQ(::lstat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// append through a symlink extends its target (the link stays a link), and the archive keeps its
// permissions; unpack -o through a symlink writes the target too.
TEST_F(CliSafeWrites, AppendKeepsSymlinkAndPermissions) {
  ::chmod(path("games.pga").c_str(), 0640);
  fs::create_symlink("games.pga", path("link.pga"));
  ASSERT_EQ(run_cli("append -q " + p("link.pga") + " " + p("games.pgn")).exit_code, 0);
  struct stat st {};
  ASSERT_EQ(::lstat(path("link.pga").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  ASSERT_EQ(::stat(path("games.pga").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(games_in(path("games.pga")), 120u);
  ASSERT_EQ(run_cli("pack -q --force " + p("games.pgn") + " -o " + p("link.pga")).exit_code, 0);
  EXPECT_TRUE(fs::is_symlink(path("link.pga")));
  EXPECT_EQ(games_in(path("games.pga")), 60u);
  std::ofstream(path("target.pgn")) << "old\n";
  ::chmod(path("target.pgn").c_str(), 0600);
  fs::create_symlink("target.pgn", path("out.pgn"));
  ASSERT_EQ(run_cli("unpack --force " + p("games.pga") + " -o " + p("out.pgn")).exit_code, 0);
  EXPECT_TRUE(fs::is_symlink(path("out.pgn")));
  EXPECT_EQ(test::read_file(path("target.pgn")), run_cli("unpack " + p("games.pga")).out);
  ASSERT_EQ(::stat(path("target.pgn").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_FALSE(any_temporary(dir_));
}

// unpack refuses an existing output without --force, as pack and merge do.
TEST_F(CliSafeWrites, UnpackRefusesToOverwriteWithoutForce) {
  std::ofstream(path("out.pgn")) << "keep me\n";
  const auto r = run_cli("unpack " + p("games.pga") + " -o " + p("out.pgn"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(path("out.pgn")), "keep me\n");
  EXPECT_EQ(run_cli("unpack --force " + p("games.pga") + " -o " + p("out.pgn")).exit_code, 0);
  EXPECT_EQ(test::read_file(path("out.pgn")), run_cli("unpack " + p("games.pga")).out);
}

// SIGINT, SIGTERM and SIGHUP during a pack, an append or an unpack -o remove the temporary file
// and end the program by that signal; nothing appears at the output and an appended archive is
// unchanged. A temporary file left by a process that no longer exists (SIGKILL) is removed by
// the next writer of that archive; one of a live process is left alone.
TEST_F(CliSafeWrites, SignalsRemoveTemporaryFiles) {
  write_big("big.pgn", 150);
  ASSERT_EQ(run_cli("pack -q " + p("big.pgn") + " -o " + p("big.pga")).exit_code, 0);
  const std::string archive = test::read_file(path("games.pga"));
  struct Case {
    std::string args, out;
  };
  const Case cases[] = {
      {"pack -q --threads 1 " + p("big.pgn") + " -o " + p("new.pga"), "new.pga"},
      {"append -q --threads 1 " + p("games.pga") + " " + p("big.pgn"), "games.pga"},
      {"unpack --threads 1 " + p("big.pga") + " -o " + p("out.pgn"), "out.pgn"},
  };
  for (const Case& c : cases)
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      const pid_t pid = spawn_cli(c.args);
      ASSERT_NE(wait_for_temporary(path(c.out)), "") << c.args;
      ::kill(pid, sig);
      const int status = wait_status(pid);
      if (WIFEXITED(status)) continue;  // finished before the signal came
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << c.args << " " << sig;
      EXPECT_FALSE(any_temporary(dir_)) << c.args << " " << sig;
      if (c.out == "games.pga")
        EXPECT_EQ(test::read_file(path("games.pga")), archive);
      else
        EXPECT_FALSE(fs::exists(path(c.out))) << c.args << " " << sig;
    }

  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  wait_status(dead);  // its number now belongs to no process
  // A writer holds a lock on its temporary file while it writes; one killed with SIGKILL leaves
  // the file and no lock. A file no one holds, older than a few seconds, is removed by the next
  // writer; a held one is kept, whatever its age or process number.
  const std::string stale = path("games.pga.tmp." + std::to_string(dead) + "-0badf00d");
  const std::string live = path("games.pga.tmp." + std::to_string(dead) + "-00c0ffee");
  std::ofstream(stale) << "left by SIGKILL";
  std::ofstream(live) << "being written";
  const auto old = fs::file_time_type::clock::now() - std::chrono::minutes(5);
  fs::last_write_time(stale, old);
  fs::last_write_time(live, old);
  const int held = ::open(live.c_str(), O_RDONLY);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  ASSERT_EQ(run_cli("append -q " + p("games.pga") + " " + p("games.pgn")).exit_code, 0);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  ::close(held);
}

// -o - writes the archive to standard output, in order (pack and merge): no file named "-".
TEST_F(CliSafeWrites, DashOutputIsStandardOutput) {
  for (const std::string cmd : {"pack -q " + p("games.pgn") + " -o -", "merge -q " + p("games.pga") + " -o -"}) {
    const auto r = run_cli(cmd);
    ASSERT_EQ(r.exit_code, 0) << cmd << r.err;
    EXPECT_FALSE(fs::exists(path("-")));
    std::ofstream(path("stdout.pga"), std::ios::binary) << r.out;
    EXPECT_EQ(run_cli("verify -q " + p("stdout.pga")).exit_code, 0) << cmd;
    EXPECT_EQ(games_in(path("stdout.pga")), 60u) << cmd;
  }
  // Standard output that is the input file is refused.
  const auto r = run_cli("unpack " + p("games.pga") + " >>" + p("games.pga"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

}  // namespace
}  // namespace pgnarc
