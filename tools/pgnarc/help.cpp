// pgnarc's help, built from what the program and each command declare: "usage: pgnarc ..." first,
// then the command's text (its CLI11 footer), its arguments, and its options by group, each with
// the help it was declared with. The program's help lists the commands instead.
#include <algorithm>
#include <string_view>
#include <vector>

#include "commands.h"

namespace pgnarc::cli {

std::string command_path(const CLI::App& cmd) {
  return cmd.get_parent() ? command_path(*cmd.get_parent()) + " " + cmd.get_name() : cmd.get_name();
}

namespace {

constexpr std::size_t kWidth = 100;  // lines wrap before this column
constexpr std::size_t kColumn = 32;  // where the help of an option starts, if its name fits

// Appends `text` at column `at` of the current line, wrapping at kWidth; continuation lines and
// the lines after a '\n' in `text` start at column `indent`.
void wrap(std::string& out, std::string_view text, std::size_t at, std::size_t indent) {
  std::size_t col = at;
  bool line_start = true;
  while (!text.empty()) {
    if (text.front() == '\n') {
      out += '\n';
      out.append(indent, ' ');
      col = indent, line_start = true;
      text.remove_prefix(1);
      continue;
    }
    if (text.front() == ' ') {
      text.remove_prefix(1);
      continue;
    }
    const std::size_t len = std::min(text.find_first_of(" \n"), text.size());
    if (!line_start && col + 1 + len > kWidth) {
      out += '\n';
      out.append(indent, ' ');
      col = indent, line_start = true;
    }
    if (!line_start) out += ' ', ++col;
    out.append(text.substr(0, len));
    col += len, line_start = false;
    text.remove_prefix(len);
  }
  out += '\n';
}

bool is_flag(const CLI::Option& o) { return o.get_type_size_max() == 0; }

// "ARCHIVE", "INPUT...", "[COMMAND]".
std::string positional_label(const CLI::Option& o) {
  std::string s = o.get_name(true) + (o.get_items_expected_max() > 1 ? "..." : "");
  return o.get_required() ? s : "[" + s + "]";
}

// "-o, --output OUT.pga", "--force".
std::string option_label(const CLI::Option& o) {
  std::string s;
  for (const std::string& n : o.get_snames()) s += (s.empty() ? "-" : ", -") + n;
  for (const std::string& n : o.get_lnames()) s += (s.empty() ? "--" : ", --") + n;
  if (!is_flag(o)) s += " " + o.get_type_name();
  return s;
}

struct Entry {
  std::string label, help;
};

void add_entries(std::string& out, const std::vector<Entry>& entries) {
  for (const Entry& e : entries) {
    out += "  " + e.label;
    std::size_t at = 2 + e.label.size();
    if (at + 2 > kColumn) {
      out += '\n';
      at = 0;
    }
    out.append(kColumn - at, ' ');
    wrap(out, e.help, kColumn, kColumn);
  }
}

// A command's required options and its arguments, for its usage line and the program's list of
// commands: " -o OUT.pga ARCHIVE...".
std::string synopsis(const CLI::App& cmd) {
  std::string s;
  for (const CLI::Option* o : cmd.get_options())
    if (!o->get_positional() && o->get_required())
      s += " " + (o->get_snames().empty() ? "--" + o->get_lnames()[0] : "-" + o->get_snames()[0]) +
           " " + o->get_type_name();
  for (const CLI::Option* o : cmd.get_options())
    if (o->get_positional()) s += " " + positional_label(*o);
  return s;
}

std::string program_help(const CLI::App& app) {
  std::string out =
      "usage: pgnarc [options] COMMAND [arguments and options of the command]\n\ncommands:\n";
  std::vector<Entry> entries;
  for (const CLI::App* cmd : app.get_subcommands([](const CLI::App*) { return true; }))
    entries.push_back({cmd->get_name() + synopsis(*cmd), cmd->get_description()});
  add_entries(out, entries);
  out += "\noptions:\n";
  entries.clear();
  for (const CLI::Option* o : app.get_options())
    if (o != app.get_help_ptr()) entries.push_back({option_label(*o), o->get_description()});
  entries.push_back({option_label(*app.get_help_ptr()), app.get_help_ptr()->get_description()});
  add_entries(out, entries);
  out += '\n';
  wrap(out, app.get_footer(), 0, 0);
  return out;
}

std::string command_help(const CLI::App& cmd) {
  std::string out = "usage: " + command_path(cmd) + synopsis(cmd) + " [options]\n\n";
  wrap(out, cmd.get_footer(), 0, 0);
  // Groups in the order of their first option; the positionals first, the program's own
  // options (--quiet) and --help last among the plain options.
  std::vector<std::pair<std::string, std::vector<Entry>>> groups = {{"arguments", {}}};
  auto group = [&](const std::string& name) -> std::vector<Entry>& {
    for (auto& [n, entries] : groups)
      if (n == name) return entries;
    return groups.emplace_back(name, std::vector<Entry>{}).second;
  };
  for (const CLI::Option* o : cmd.get_options()) {
    if (o == cmd.get_help_ptr()) continue;
    if (o->get_positional())
      group("arguments").push_back({positional_label(*o), o->get_description()});
    else
      group(o->get_group() == "Options" ? "options" : o->get_group())
          .push_back({option_label(*o), o->get_description()});
  }
  if (const CLI::App* program = cmd.get_parent())
    for (const CLI::Option* o : program->get_options())
      if (o != program->get_help_ptr() && o != program->get_version_ptr())
        group("options").push_back({option_label(*o), o->get_description()});
  group("options").push_back(
      {option_label(*cmd.get_help_ptr()), cmd.get_help_ptr()->get_description()});
  for (const auto& [name, entries] : groups) {
    if (entries.empty()) continue;
    out += "\n" + name + ":\n";
    add_entries(out, entries);
  }
  return out;
}

class Formatter : public CLI::FormatterBase {
 public:
  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
    return app->get_parent() ? command_help(*app) : program_help(*app);
  }
};

}  // namespace

std::shared_ptr<CLI::FormatterBase> help_formatter() { return std::make_shared<Formatter>(); }

}  // namespace pgnarc::cli
