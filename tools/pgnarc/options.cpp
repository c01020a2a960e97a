// Options that several commands take, declared the same way everywhere.
#include <charconv>

#include "commands.h"
#include "pgnarc/game.h"

namespace pgnarc::cli {

std::function<std::string(const std::string&)> number_check(const std::string& name,
                                                            std::uint64_t lo, std::uint64_t hi) {
  return [=](const std::string& s) -> std::string {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
      throw UsageError(name + " takes a number from " + std::to_string(lo) + " to " +
                       std::to_string(hi));
    return {};
  };
}

CLI::Option* add_threads(CLI::App& cmd, unsigned& threads, const std::string& work) {
  return add_number(cmd, "--threads", threads, 0, 256, work + " on N threads, 0 for all cores");
}

std::string unknown_variant(const std::string& name) {
  return "unknown variant '" + name + "' (standard, crazyhouse, atomic, antichess, three-check, king-of-the-hill, "
         "racing-kings or horde)";
}

Variant variant_option(const std::string& name) {
  Variant v = Variant::kStandard;
  if (!variant_of_tag(name, v)) throw UsageError(unknown_variant(name));
  return v;
}

CLI::Option* add_output(CLI::App& cmd, std::string& path, const std::string& file,
                        const std::string& help) {
  // (What the path may be, a directory or an input among others, is check_output's to say,
  // before any work.)
  return cmd.add_option("-o,--output", path, help)->type_name(file);
}

}  // namespace pgnarc::cli
