// pgnarc: the command-line program. Argument parsing, files and printing only; all format logic
// is in the library.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/chess.h"

namespace {

// Exit codes, as documented in --help and the README.
enum Exit : int { kOk = 0, kUsage = 1, kBadInput = 2, kDamaged = 3, kIoError = 4 };

constexpr const char* kVersion = "0.1.0";

constexpr const char* kUsageText =
    "usage: pgnarc <command> [options]\n"
    "\n"
    "commands:\n"
    "  perft FEN DEPTH [--divide] [--chess960]\n"
    "                    count the leaf nodes of the legal move tree (FEN may be 'startpos')\n"
    "\n"
    "  pgnarc --help, pgnarc COMMAND --help, pgnarc --version\n"
    "\n"
    "exit codes: 0 success, 1 bad usage, 2 bad input, 3 damaged archive, 4 I/O error\n";

constexpr const char* kPerftHelp =
    "usage: pgnarc perft FEN DEPTH [--divide] [--chess960]\n"
    "\n"
    "Prints the number of leaf nodes of the legal move tree of DEPTH plies from FEN ('startpos'\n"
    "for the standard start). --divide first prints one 'uci: count' line per legal move, in the\n"
    "canonical move order of the pgnarc format, then a blank line and the total.\n"
    "--chess960 writes castling as king-takes-rook (implied when the castling rights need it).\n";

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "pgnarc: %s\nTry 'pgnarc --help'.\n", msg.c_str());
  return kUsage;
}

int exit_code_for(pgnarc::ErrorCode code) {
  switch (code) {
    case pgnarc::ErrorCode::InvalidInput: return kBadInput;
    case pgnarc::ErrorCode::Corruption: return kDamaged;
    case pgnarc::ErrorCode::Unsupported: return kDamaged;
    case pgnarc::ErrorCode::IO: return kIoError;
  }
  return kIoError;
}

int report(const pgnarc::Error& e) {
  std::fprintf(stderr, "pgnarc: %s\n", e.to_string().c_str());
  return exit_code_for(e.code());
}

bool wants_help(const std::vector<std::string_view>& args) {
  for (auto a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int cmd_perft(const std::vector<std::string_view>& args) {
  if (wants_help(args)) {
    std::fputs(kPerftHelp, stdout);
    return kOk;
  }
  bool divide = false, chess960 = false;
  std::vector<std::string_view> positional;
  for (auto a : args) {
    if (a == "--divide") divide = true;
    else if (a == "--chess960") chess960 = true;
    else if (a.size() > 1 && a[0] == '-' && a[1] == '-') return usage_error("perft: unknown option " + std::string(a));
    else positional.push_back(a);
  }
  if (positional.size() != 2) return usage_error("perft takes a FEN and a depth");
  int depth = 0;
  auto [end, ec] = std::from_chars(positional[1].data(), positional[1].data() + positional[1].size(), depth);
  if (ec != std::errc() || end != positional[1].data() + positional[1].size() || depth < 0 || depth > 20)
    return usage_error("perft: depth must be a number from 0 to 20, not '" + std::string(positional[1]) + "'");
  pgnarc::Position pos;
  if (positional[0] != "startpos") {
    auto parsed = pgnarc::Position::from_fen(positional[0], chess960);
    if (!parsed) return report(parsed.error());
    pos = *parsed;
  }
  pos.set_chess960(pos.chess960() || chess960);
  if (!divide) {
    std::printf("%llu\n", static_cast<unsigned long long>(pos.perft(depth)));
    return kOk;
  }
  unsigned long long total = 0;
  if (depth > 0) {
    for (pgnarc::Move m : pos.legal_moves()) {
      pgnarc::Position child = pos;
      child.play(m);
      const unsigned long long n = child.perft(depth - 1);
      total += n;
      std::printf("%s: %llu\n", pos.uci(m).c_str(), n);
    }
  } else {
    total = 1;
  }
  std::printf("\n%llu\n", total);
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("no command given");
  const std::string_view cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kUsageText, stdout);
    return kOk;
  }
  if (cmd == "--version") {
    std::printf("pgnarc %s\n", kVersion);
    return kOk;
  }
  if (cmd == "perft") return cmd_perft(args);
  return usage_error("unknown command '" + std::string(cmd) + "'");
}
