// Runs the built pgnarc binary for end-to-end tests.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "support/test_util.h"

namespace pgnarc::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `pgnarc <args>` through the shell (args are shell words, quoted by the caller), with
// stdin from `stdin_file` (default /dev/null).
inline CliResult run_cli(const std::string& args, const std::string& stdin_file = "/dev/null") {
  const std::string tmp_err = ::testing::TempDir() + "/pgnarc_cli_stderr_" + std::to_string(::getpid());
  const std::string cmd = std::string("'") + PGNARC_CLI + "' " + args + " <" + stdin_file + " 2>" + tmp_err;
  CliResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(tmp_err);
  std::remove(tmp_err.c_str());
  return r;
}

}  // namespace pgnarc::test
