// perft: counts the leaves of the legal move tree (a check of the move generator).
#include <charconv>
#include <string>

#include "commands.h"
#include "console.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::cli {
namespace {

struct PerftArgs {
  std::string fen;
  int depth = 0;
  bool divide = false, chess960 = false;
  std::string variant;
};

int perft(const PerftArgs& a) {
  const Variant variant = a.variant.empty() ? Variant::kStandard : variant_option(a.variant);
  Position pos = Position::start(variant);
  if (a.fen != "startpos") {
    auto parsed = Position::from_fen(a.fen, a.chess960, variant);
    if (!parsed) return report(parsed.error());
    pos = *parsed;
  }
  pos.set_chess960(pos.chess960() || a.chess960);
  Output out;
  if (!a.divide) {
    out.write(std::to_string(pos.perft(a.depth)) + "\n");
  } else {
    std::uint64_t total = a.depth == 0 ? 1 : 0;
    if (a.depth > 0) {
      for (Move m : pos.legal_moves()) {
        Position child = pos;
        child.play(m);
        const std::uint64_t n = child.perft(a.depth - 1);
        total += n;
        if (!out.write(pos.uci(m) + ": " + std::to_string(n) + "\n")) break;
      }
    }
    out.write("\n" + std::to_string(total) + "\n");
  }
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

}  // namespace

Run declare_perft(CLI::App& cmd) {
  auto a = std::make_shared<PerftArgs>();
  cmd.footer("Prints the number of leaf nodes of the legal move tree of DEPTH plies from FEN.");
  cmd.add_option("FEN", a->fen, "the position ('startpos' for the standard start)")->required();
  cmd.add_option("DEPTH", a->depth, "plies, 0 to 20")
      ->required()
      ->check([](const std::string& d) -> std::string {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
        if (ec != std::errc() || end != d.data() + d.size() || v > 20)
          throw UsageError("depth must be a number from 0 to 20, not '" + d + "'");
        return {};
      });
  cmd.add_flag(
      "--divide", a->divide,
      "first print one 'uci: count' line per legal move, in the canonical move order of the pgnarc "
      "format, then a blank line and the total");
  cmd.add_flag("--chess960", a->chess960,
               "write castling as king-takes-rook (implied when the castling rights need it)");
  cmd.add_option("--variant", a->variant,
                 "the rules: crazyhouse, atomic, antichess, three-check, king-of-the-hill, racing-kings or "
                 "horde (standard chess if not given); 'startpos' is then the variant's start");
  return [a] { return perft(*a); };
}

}  // namespace pgnarc::cli
