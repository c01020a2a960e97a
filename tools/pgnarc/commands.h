// What the command files share: each declares its command's arguments and options on a CLI11
// subcommand (every option once, with its help) and returns the function that does the work;
// main.cpp holds the table of commands and runs the one given.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "pgnarc/chess.h"

namespace pgnarc::cli {

// Does a command's work once its arguments are parsed; returns the exit code (console.h).
using Run = std::function<int()>;

// Declares the command's arguments and options on `cmd` (named and summarised by main.cpp's
// table) and its help text, and returns what runs it.
Run declare_pack(CLI::App& cmd);    // pack.cpp
Run declare_append(CLI::App& cmd);  // pack.cpp
Run declare_merge(CLI::App& cmd);   // pack.cpp
Run declare_unpack(CLI::App& cmd);  // read.cpp
Run declare_get(CLI::App& cmd);     // read.cpp
Run declare_find(CLI::App& cmd);    // read.cpp
Run declare_tree(CLI::App& cmd);    // position.cpp
Run declare_share(CLI::App& cmd);   // read.cpp
Run declare_serve(CLI::App& cmd);   // serve.cpp
Run declare_info(CLI::App& cmd);    // info.cpp
Run declare_verify(CLI::App& cmd);  // info.cpp
Run declare_perft(CLI::App& cmd);   // perft.cpp

// A usage error (exit 1) that a validator or a command finds: main prints its message and
// "Try 'pgnarc COMMAND --help'.". Validators throw it, rather than returning CLI11's message, so
// that the message reads as written here.
class UsageError : public CLI::ParseError {
 public:
  explicit UsageError(std::string message)
      : CLI::ParseError("UsageError", std::move(message), CLI::ExitCodes::ValidationError) {}
};

// The check of an option taking a whole number from `lo` to `hi` (digits only): anything else is
// the usage error "NAME takes a number from LO to HI".
std::function<std::string(const std::string&)> number_check(const std::string& name,
                                                            std::uint64_t lo, std::uint64_t hi);

// Adds `name` (e.g. "--level") taking a whole number from `lo` to `hi` into `target`; the help
// shows its value now as the default.
template <class T>
CLI::Option* add_number(CLI::App& cmd, const std::string& name, T& target, std::uint64_t lo,
                        std::uint64_t hi, const std::string& help) {
  return cmd.add_option(name, target, help + " (default " + std::to_string(target) + ")")
      ->type_name("N")
      ->check(number_check(name, lo, hi));
}
// --threads N: 0 (all cores, the default) to 256.
CLI::Option* add_threads(CLI::App& cmd, unsigned& threads, const std::string& work);
// The variant a --variant option names (any spelling variant_of_tag reads; standard chess too);
// a UsageError listing the names (unknown_variant's message) for any other.
Variant variant_option(const std::string& name);
// "unknown variant 'NAME' (standard, crazyhouse, ...)".
std::string unknown_variant(const std::string& name);
// -o, --output FILE (`file` names it in the help).
CLI::Option* add_output(CLI::App& cmd, std::string& path, const std::string& file,
                        const std::string& help);

// Help in pgnarc's layout for the program and every command, from what they declare (help.cpp).
std::shared_ptr<CLI::FormatterBase> help_formatter();
// "pgnarc" or "pgnarc COMMAND".
std::string command_path(const CLI::App& cmd);

}  // namespace pgnarc::cli
