// pgnarc: the command-line program. The table below names every command; each command's file
// declares its arguments and options and does its work through the library (no format logic
// here). This file parses the command line, runs the command given and maps errors to exit codes.
#include <csignal>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "console.h"
#include "safety.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::cli {
namespace {

struct Command {
  const char* name;
  const char* summary;            // its line in `pgnarc --help`
  Run (*declare)(CLI::App& cmd);  // declares its arguments and options; returns what runs it
};

// Every command, in the order `pgnarc --help` lists them.
constexpr Command kCommands[] = {
    {"pack", "archive PGN (.pgn, .pgn.zst, .pgn.gz, or - for stdin)", declare_pack},
    {"unpack", "all games as canonical PGN (stdout by default)", declare_unpack},
    {"get", "those games (numbered from 1) as PGN, or listed", declare_get},
    {"find", "the games whose tags or positions match: numbers, count, PGN or list", declare_find},
    {"tree", "the moves played from a position, with games, results and ratings", declare_tree},
    {"share", "a game as a short URL-safe token, or the game a token holds", declare_share},
    {"serve", "a web browser's view of archives: search, games on a board, explorer, share links", declare_serve},
    {"append", "add games to an archive", declare_append},
    {"merge", "join archives (blocks copied, moves not decoded)", declare_merge},
    {"info", "games, blocks, bytes by section, bits per ply, versions", declare_info},
    {"verify", "checksums and a full decode", declare_verify},
    {"perft", "leaf nodes of the legal move tree of DEPTH plies from FEN", declare_perft},
};

constexpr const char* kProgramFooter =
    "pgnarc COMMAND --help (or pgnarc help COMMAND) explains each command. Options take their "
    "value as --opt VALUE or --opt=VALUE; -- ends the options (pgnarc pack -- -x.pgn).\n"
    "\n"
    "exit codes: 0 success, 1 bad usage, 2 bad input, 3 damaged archive, 4 I/O error";

std::string version_text() {
  std::string s;
  appendf(s, "pgnarc %s (archive format %s)", library_version(), PGNARC_FORMAT_VERSION_STRING);
  return s;
}

// Help and the version go to standard output, checked like any output.
int print(const std::string& text) {
  Output out;
  out.write(text);
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

std::string help_text(const CLI::App& app) {
  return app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
}

int usage_error(const CLI::App& cmd, const std::string& message) {
  std::fprintf(stderr, "pgnarc: %s\nTry '%s --help'.\n", message.c_str(),
               command_path(cmd).c_str());
  return kUsage;
}

// What the command line left over: with fallthrough, arguments no command takes come back to
// the program.
std::string leftover_error(const std::string& arg, bool in_command) {
  if (arg.size() > 1 && arg[0] == '-') return "unknown option " + arg;
  return in_command ? "unexpected argument '" + arg + "'" : "unknown command '" + arg + "'";
}

// CLI11's message, but "--opt needs a value" for its "--opt: 1 required N missing".
std::string parse_error_message(const CLI::ParseError& e) {
  const std::string what = e.what();
  const auto colon = what.find(": ");
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && colon != std::string::npos &&
      what.ends_with(" missing"))
    return what.substr(0, colon) + " needs a value";
  return what;
}

int run(int argc, char** argv) {
  CLI::App program("", "pgnarc");
  program.formatter(help_formatter());
  program.footer(kProgramFooter);
  // A repeated option keeps its last value, as for most Unix tools (find's filters refuse it).
  program.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  program.allow_extras();  // reported below, naming the command
  program.require_subcommand(0, 1);
  program.set_help_flag("-h,--help", "this help");  // before the commands, which copy it
  bool quiet_flag = false;
  program.add_flag("-q,--quiet", quiet_flag,
                   "print nothing but errors (given before or after the command)");
  program.set_version_flag("--version", version_text(),
                           "the program's version and the archive format's");

  std::vector<std::pair<const CLI::App*, Run>> runs;
  for (const Command& c : kCommands) {
    CLI::App* cmd = program.add_subcommand(c.name, c.summary);
    cmd->fallthrough();  // --quiet and --version after the command name
    runs.emplace_back(cmd, c.declare(*cmd));
  }
  CLI::App* help = program.add_subcommand(
      "help", "the program's help, or a command's (as pgnarc COMMAND --help)");
  help->fallthrough();
  help->footer("Prints the help of COMMAND, or without one the list of commands.");
  std::string topic;
  help->add_option("COMMAND", topic, "a command");

  // The command given, or the program if none: whose help a usage error suggests.
  auto given = [&]() -> const CLI::App& {
    const auto parsed = program.get_subcommands();
    return parsed.empty() ? program : *parsed.front();
  };
  try {
    program.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return print(help_text(given()));
  } catch (const CLI::CallForVersion& e) {
    return print(std::string(e.what()) + "\n");
  } catch (const CLI::ParseError& e) {
    // An unknown option met before the error is the likelier mistake ("pack -x.pgn": INPUT is
    // missing because -x.pgn is taken for an option).
    const auto rest = program.remaining();
    return usage_error(given(), rest.empty() ? parse_error_message(e)
                                             : leftover_error(rest.front(), &given() != &program));
  }
  set_quiet(quiet_flag);
  const CLI::App& cmd = given();
  if (const auto rest = program.remaining(); !rest.empty())
    return usage_error(cmd, leftover_error(rest.front(), &cmd != &program));
  if (&cmd == &program) return usage_error(program, "no command given");
  if (&cmd == help) {
    if (topic.empty()) return print(help_text(program));
    for (const CLI::App* c : program.get_subcommands([](const CLI::App*) { return true; }))
      if (c->get_name() == topic) return print(help_text(*c));
    return usage_error(program, "unknown command '" + topic + "'");
  }
  for (const auto& [c, work] : runs)
    if (c == &cmd) {
      try {
        return work();
      } catch (const UsageError& e) {
        return usage_error(cmd, e.what());
      }
    }
  return usage_error(program, "unknown command '" + cmd.get_name() + "'");  // not in kCommands
}

}  // namespace
}  // namespace pgnarc::cli

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) makes write() fail with EFBIG instead of killing the process,
  // so that a pack stopped that way reports an I/O error and removes its temporary file.
  std::signal(SIGXFSZ, SIG_IGN);
  // Signals remove temporary files before ending the program; a reader that goes away (pgnarc
  // unpack big.pga | head) ends it quietly, as for any filter, even if the parent started it
  // with SIGPIPE ignored.
  pgnarc::cli::install_signal_handlers();
  return pgnarc::cli::run(argc, argv);
}
