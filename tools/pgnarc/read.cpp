// unpack, get, find: the commands that read games out of an archive.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.h"
#include "console.h"
#include "position.h"
#include "safety.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::cli {
namespace {

// Game `i`'s line of `get --list` and `find --list`: its number, then the values of White (Red,
// a Xiangqi game's first player, where there is no White tag), Black, Result, Date and Event
// (empty where the game has no such tag), separated by tabs; a tab or control character inside
// a value is written as a space.
Result<std::string> list_line(Archive& archive, std::uint64_t i) {
  static const std::vector<std::string> kKeys = {"White", "Red", "Black", "Result", "Date", "Event"};
  auto tags = archive.read_tags(i, kKeys);
  if (!tags) return tags.error();
  const bool red = !find_tag(*tags, "White");
  std::string line = std::to_string(i + 1);
  for (const std::string& key : kKeys) {
    if (key == (red ? "White" : "Red")) continue;
    line += '\t';
    for (const Tag& t : *tags)
      if (t.key == key) {
        for (char c : t.value) line += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        break;
      }
  }
  return line + "\n";
}

// Writes games `numbers` (0-based) of `archive` to standard output, as PGN or as list lines.
int write_games(Archive& archive, const std::string& arg, const std::vector<std::uint64_t>& numbers,
                bool list) {
  Output out;
  for (std::uint64_t i : numbers) {
    auto text = list ? list_line(archive, i) : archive.read_pgn(i);
    if (!text) return report_archive_error(text.error(), arg);
    if (!out.write(*text)) break;
  }
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

constexpr const char* kListHelp =
    "one line per game, from its tags alone (no moves are decoded): number, White (a Xiangqi game's "
    "Red), Black, Result, Date, Event, separated by tabs";

// ---- unpack -------------------------------------------------------------------------------------

struct UnpackArgs {
  std::string archive, out;
  unsigned threads = 0;
  bool salvage = false, force = false;
};

int salvage(const UnpackArgs& a) {
  Output out;
  if (auto st = out.open(a.out, a.force); !st) return report(st.error());
  auto path = archive_path(a.archive);
  if (!path) return report(path.error());
  std::error_code ec;
  const std::uint64_t file_size = std::filesystem::file_size(*path, ec);
  Progress progress("salvaging", ec ? 0 : 2 * file_size);
  SalvageOptions options;
  options.progress = [&](std::uint64_t done, std::uint64_t) { progress.update(done, true); };
  auto rep = salvage_pgn(*path, [&](std::string_view chunk) { return out.write(chunk); }, options);
  progress.finish();
  if (!rep) return report_archive_error(rep.error(), a.archive, false);
  if (auto st = out.close(); !st) return report(st.error());
  for (const std::string& s : rep->skipped) std::fprintf(stderr, "pgnarc: %s\n", s.c_str());
  if (!quiet())
    std::fprintf(stderr, "pgnarc: salvaged %llu games from %llu sound blocks\n",
                 static_cast<unsigned long long>(rep->games),
                 static_cast<unsigned long long>(rep->blocks));
  return rep->skipped.empty() ? kOk : kDamaged;
}

int unpack(const UnpackArgs& a) {
  if (int rc = check_output(a.out, {a.archive}, a.force)) return rc;
  if (a.salvage) return salvage(a);
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  Output out;
  if (auto st = out.open(a.out, a.force); !st) return report(st.error());
  Progress progress("unpacking", (*archive)->game_count());
  auto st = (*archive)->export_pgn([&](std::string_view chunk) { return out.write(chunk); },
                                   a.threads, [&](std::uint64_t games) { progress.update(games); });
  // A failed export leaves no output file (its temporary file is removed); a failed write is
  // the error to report.
  if (!st && out.ok()) return report_archive_error(st.error(), a.archive);
  if (auto closed = out.close(); !closed) return report(closed.error());
  return kOk;
}

// ---- get ----------------------------------------------------------------------------------------

struct GetArgs {
  std::string archive;
  std::vector<std::string> numbers;
  bool list = false;
  std::uint32_t fen_plies = 0;
  const CLI::Option* fen = nullptr;
  std::uint32_t svg_plies = 0;
  const CLI::Option* svg = nullptr;
  bool flip = false;
  std::string ep = "double-step";
};

// What `show(game)` gives of game `i`'s positions; its errors, and a verbatim game, name the game.
template <class Show>
Result<std::string> position_text(Archive& archive, std::uint64_t i, Show show) {
  auto g = archive.read_game(i);
  if (!g) return g.error();
  const std::string game = "game " + std::to_string(i + 1);
  if (g->raw) return invalid_input(game + " is kept verbatim: it has no positions");
  Result<std::string> text = show(g->game);
  if (!text) return invalid_input(game + ": " + text.error().message());
  return text;
}

// Game `i`'s FEN after `plies` plies of its main line, as a line.
Result<std::string> fen_line(Archive& archive, std::uint64_t i, std::uint32_t plies, FenEnPassant ep) {
  return position_text(archive, i, [&](const Game& g) -> Result<std::string> {
    auto fen = fen_after(g, static_cast<int>(plies), ep);
    if (!fen) return fen.error();
    return *fen + "\n";
  });
}

// Game `i`'s board after `plies` plies of its main line as an SVG picture, the last move marked.
Result<std::string> svg_picture(Archive& archive, std::uint64_t i, std::uint32_t plies, bool flip) {
  return position_text(archive, i, [&](const Game& g) -> Result<std::string> {
    BoardSvgOptions o;
    o.flip = flip;
    return board_svg_after(g, static_cast<int>(plies), o);
  });
}

bool parse_number(std::string_view s, std::uint64_t& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// "N", "N-M" or "N-" (to `last`) as a range of game numbers from 1.
std::pair<std::uint64_t, std::uint64_t> parse_range(const std::string& s, std::uint64_t last) {
  const auto dash = s.find('-');
  std::uint64_t lo = 0, hi = 0;
  const bool ok =
      dash == std::string::npos ? parse_number(s, lo) && (hi = lo, true)
      : dash + 1 == s.size()
          ? parse_number(std::string_view(s).substr(0, dash), lo) && (hi = std::max(lo, last), true)
          : parse_number(std::string_view(s).substr(0, dash), lo) &&
                parse_number(std::string_view(s).substr(dash + 1), hi);
  if (!ok) throw UsageError("not a game number or range: '" + s + "'");
  if (lo == 0 || hi < lo)
    throw UsageError("game numbers start at 1 and ranges go upwards: '" + s + "'");
  return {lo, hi};
}

int get(const GetArgs& a) {
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const std::string& s : a.numbers) ranges.push_back(parse_range(s, (*archive)->game_count()));
  if (a.list + (a.fen->count() > 0) + (a.svg->count() > 0) > 1) throw UsageError("choose one of --list, --fen, --svg");
  if (a.flip && !a.svg->count()) throw UsageError("--flip draws the board of --svg: give --svg K");
  // One picture is one document: several would not make an SVG file.
  if (a.svg->count() && (ranges.size() != 1 || ranges[0].first != ranges[0].second))
    throw UsageError("--svg draws one game: give one game number");
  const FenEnPassant ep = a.ep == "legal" ? FenEnPassant::kWhenLegal : FenEnPassant::kAfterDoubleStep;
  Output out;
  bool writing = true;
  for (const auto& [lo, hi] : ranges)
    for (std::uint64_t n = lo; writing && n <= hi; ++n) {
      auto text = a.list           ? list_line(**archive, n - 1)
                  : a.fen->count() ? fen_line(**archive, n - 1, a.fen_plies, ep)
                  : a.svg->count() ? svg_picture(**archive, n - 1, a.svg_plies, a.flip)
                                   : (*archive)->read_pgn(n - 1);
      if (!text) return report_archive_error(text.error(), a.archive);  // or an unknown number
      writing = out.write(*text);
    }
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

// ---- find ---------------------------------------------------------------------------------------

struct FindArgs {
  std::string archive;
  Query query;
  std::vector<std::string> tags;
  std::optional<std::string> position;  // (given empty: an error, not every game)
  unsigned threads = 0;
  bool count = false, numbers = false, pgn = false, list = false;
  std::vector<const CLI::Option*> one_value;  // the filters that Query holds one value of
  const CLI::Option* elo_of = nullptr;
  std::optional<std::string> names_in;  // --names-in: GB18030 or BIG5
};

int find(FindArgs& a) {
  for (const CLI::Option* o : a.one_value)
    if (o->count() > 1)
      throw UsageError(o->get_name() + " given twice; a game must match every filter, and " +
                       o->get_name() + " takes one value (only --tag may be repeated)");
  if (a.count + a.numbers + a.pgn + a.list > 1)
    throw UsageError("choose one of --count, --numbers, --pgn, --list");
  for (const std::string& kv : a.tags) {
    const auto eq = kv.find('=');
    a.query.tags.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  if (a.elo_of->count() && !a.query.min_elo && !a.query.max_elo)
    throw UsageError("--elo-of says whose rating --min-elo and --max-elo bound: give one of them too");
  if (a.names_in)
    if (const std::string why = query_in_encoding(a.query, *a.names_in, "--"); !why.empty()) throw UsageError(why);
  if (const std::string why = query_error(a.query); !why.empty()) throw UsageError("--" + why);
  std::optional<Position> target;
  const bool xiangqi = a.position && is_xiangqi_fen(*a.position);  // searched among the Xiangqi games
  if (a.position && !xiangqi) {
    auto p = parse_position_arg(a.position, {}, a.query.variant.value_or(Variant::kStandard));
    if (!p) return report(p.error());
    target = *p;
  }
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  Result<std::vector<std::uint64_t>> found = std::vector<std::uint64_t>{};
  if (!(target || xiangqi) || !a.query.empty()) found = (*archive)->find(a.query);
  if (!found) return report_archive_error(found.error(), a.archive);
  if (target || xiangqi) {
    auto hits = xiangqi ? search_xiangqi_position(**archive, *a.position, a.threads)
                        : search_position(**archive, *target, a.threads);
    if (!hits) {
      if (hits.error().code() == ErrorCode::InvalidInput)
        return report(invalid_input("--position: " + hits.error().message()));
      return report_archive_error(hits.error(), a.archive);
    }
    std::vector<std::uint64_t> games;
    for (const PositionHit& h : hits_among(*hits, a.query.empty() ? nullptr : &*found)) games.push_back(h.game);
    *found = std::move(games);
  }
  if (a.pgn || a.list) return write_games(**archive, a.archive, *found, a.list);
  Output out;
  if (a.count) {
    out.write(std::to_string(found->size()) + "\n");
  } else {
    for (std::uint64_t i : *found)
      if (!out.write(std::to_string(i + 1) + "\n")) break;
  }
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

// Adds a filter that takes one value (VALUE names it in the help), stored in `field`.
CLI::Option* add_filter(CLI::App& cmd, FindArgs& a, const std::string& name,
                        const std::string& value, std::optional<std::string>& field,
                        const std::string& help) {
  CLI::Option* o = cmd.add_option_function<std::string>(
      name, [&field](const std::string& v) { field = v; }, help);
  a.one_value.push_back(o);
  return o->group("filters")->type_name(value);
}

// ---- share --------------------------------------------------------------------------------------

struct ShareArgs {
  std::string archive, number, token;
};

int share(const ShareArgs& a) {
  Output out;
  if (!a.token.empty()) {
    if (!a.archive.empty()) throw UsageError("give ARCHIVE N, or --open TOKEN, not both");
    auto game = open_share_token(a.token);
    if (!game) return report(game.error());
    std::string text;
    if (auto st = write_pgn(*game, text); !st) return report(st.error());
    out.write(text);
  } else {
    if (a.archive.empty() || a.number.empty()) throw UsageError("give ARCHIVE N (or --open TOKEN)");
    std::uint64_t n = 0;
    if (!parse_number(a.number, n) || n == 0) throw UsageError("not a game number (from 1): '" + a.number + "'");
    auto archive = open_archive(a.archive);
    if (!archive) return report_archive_error(archive.error(), a.archive);
    auto g = (*archive)->read_game(n - 1);
    if (!g) return report_archive_error(g.error(), a.archive);
    if (g->raw) return report(invalid_input("game " + a.number + " is kept verbatim: it cannot be shared"));
    auto token = share_token(g->game);
    if (!token) return report(invalid_input("game " + a.number + ": " + token.error().message()));
    out.write(*token + "\n");
  }
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

}  // namespace

Run declare_share(CLI::App& cmd) {
  auto a = std::make_shared<ShareArgs>();
  cmd.footer(
      "Prints game N as a share token: its main line, its start position if set up and its result in "
      "URL-safe text (A-Z a-z 0-9 - _), 40 to 60 characters for a game of 40 moves. The same game "
      "gives the same token from any archive; --open reads one back without the archive, as PGN with "
      "the Seven Tag Roster's values unknown (\"?\"). A Xiangqi game's token holds its moves and set-up "
      "position as well (a position alone in about 20 characters); it opens with Red for White and its "
      "moves in ICCS.");
  cmd.add_option("ARCHIVE", a->archive, "the archive to read (- for standard input)");
  cmd.add_option("N", a->number, "the game's number, from 1");
  cmd.add_option("--open", a->token, "print the game TOKEN holds, as PGN")->type_name("TOKEN");
  return [a] { return share(*a); };
}

Run declare_unpack(CLI::App& cmd) {
  auto a = std::make_shared<UnpackArgs>();
  cmd.footer(
      "Writes every game as canonical PGN; games kept verbatim are written as their original "
      "bytes. The output is the same for any number of threads.");
  cmd.add_option("ARCHIVE", a->archive, "the archive to read (- for standard input)")->required();
  add_output(cmd, a->out, "OUT.pgn",
             "write the PGN to OUT.pgn (default, or -: standard output); it appears when complete "
             "(written to OUT.pgn.tmp.PID, then renamed), and must not be the archive");
  cmd.add_flag("--force", a->force, "overwrite OUT.pgn if it exists");
  add_threads(cmd, a->threads, "decode blocks");
  cmd.add_flag("--salvage", a->salvage,
               "read a damaged archive without its index: the games of every block whose checksum "
               "holds are written, damaged regions are reported, and the exit code is 3 if any");
  return [a] { return unpack(*a); };
}

Run declare_get(CLI::App& cmd) {
  auto a = std::make_shared<GetArgs>();
  cmd.footer("Writes the games with those numbers, byte for byte as unpack writes them.");
  cmd.add_option("ARCHIVE", a->archive, "the archive to read (- for standard input)")->required();
  cmd.add_option("N", a->numbers, "a game number (from 1), a range N-M, or N- (to the last game)")
      ->required();
  cmd.add_flag("--list", a->list, kListHelp);
  a->fen = cmd.add_option("--fen", a->fen_plies,
                          "print the FEN after K plies of each game's main line (0: its start position), "
                          "one line per game, in place of its PGN")
               ->type_name("K")
               ->check(number_check("--fen", 0, 65536));
  a->svg = cmd.add_option("--svg", a->svg_plies,
                          "write an SVG picture of the board after K plies of the game's main line (0: "
                          "its start position), the last move marked, in place of its PGN (a Xiangqi game: its board of "
                          "points, river and palaces, each piece a disc with its character); one game only")
               ->type_name("K")
               ->check(number_check("--svg", 0, 65536));
  cmd.add_flag("--flip", a->flip, "with --svg, draw the board from Black's side (Xiangqi too)");
  cmd.add_option("--ep", a->ep,
                 "with --fen, where the en passant square is given: double-step (after every pawn "
                 "double step, the PGN standard's FEN; the default) or legal (only where an en "
                 "passant capture is legal)")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"double-step", "legal"}));
  return [a] { return get(*a); };
}

Run declare_find(CLI::App& cmd) {
  auto a = std::make_shared<FindArgs>();
  cmd.footer(
      "Prints the numbers of the games that match every filter given (or their count, their PGN, "
      "or one line each). Names match as case-insensitive substrings (--exact: exactly). Dates are "
      "YYYY[.MM[.DD]] (or with - or /); games with unknown dates match no date range. Ratings are "
      "the WhiteElo and BlackElo tags as whole numbers; a rating that is missing, \"?\" or not a "
      "number matches no rating bound.");
  cmd.add_option("ARCHIVE", a->archive, "the archive to search (- for standard input)")->required();
  Query& q = a->query;
  add_filter(cmd, *a, "--white", "S", q.white, "White's name");
  add_filter(cmd, *a, "--black", "S", q.black, "Black's name");
  add_filter(cmd, *a, "--player", "S", q.player,
             "White's or Black's name (and Red's, where the archive can hold coded Xiangqi games: read "
             "version 1.7 or later)");
  add_filter(cmd, *a, "--event", "S", q.event, "the event");
  add_filter(cmd, *a, "--site", "S", q.site, "the site");
  add_filter(cmd, *a, "--red", "S", q.red, "Red's name (Xiangqi: the Red tag)");
  cmd.add_flag("--exact", q.exact_names, "names match exactly (case-sensitive)")->group("filters");
  cmd.add_option_function<std::string>(
         "--names-in", [a](const std::string& e) { a->names_in = e == "gb18030" ? "GB18030" : "BIG5"; },
         "the archive's tags are in this encoding (Chinese PGN files: gb18030, which GBK and GB2312 are "
         "parts of, or big5): the names and tag values given, UTF-8 as typed, are looked for in it")
      ->group("filters")
      ->type_name("ENCODING")
      ->check(CLI::IsMember({"gb18030", "big5"}));
  add_filter(cmd, *a, "--result", "R", q.result, "1-0, 0-1, 1/2-1/2 or *")
      ->check([](const std::string& r) -> std::string {
        if (r != "1-0" && r != "0-1" && r != "1/2-1/2" && r != "*")
          throw UsageError("--result takes 1-0, 0-1, 1/2-1/2 or *");
        return {};
      });
  add_filter(cmd, *a, "--eco", "E", q.eco, "the ECO code's prefix, in either case (B, b9, B90)");
  a->one_value.push_back(
      cmd.add_option_function<std::string>(
             "--variant",
             [&q](const std::string& v) { q.variant = variant_option(v); },
             "the game is played under these rules: standard (with Chess960), crazyhouse, atomic, antichess, "
             "three-check, king-of-the-hill, racing-kings or horde, by its Variant tag or as it was packed "
             "(pack --variant); with --position, its FEN is read under them")
          ->group("filters")
          ->type_name("NAME"));
  for (const char* name : {"--date-from", "--date-to"}) {
    const bool from = name == std::string_view("--date-from");
    add_filter(cmd, *a, name, "D", from ? q.date_from : q.date_to,
               from ? "played on or after D" : "played on or before D")
        ->check([from](const std::string& d) -> std::string {
          Query one;
          (from ? one.date_from : one.date_to) = d;
          if (const std::string why = query_error(one); !why.empty()) throw UsageError("--" + why);
          return {};
        });
  }
  for (const char* name : {"--min-elo", "--max-elo"}) {
    const bool min = name == std::string_view("--min-elo");
    std::optional<int>& bound = min ? q.min_elo : q.max_elo;
    a->one_value.push_back(
        cmd.add_option_function<std::string>(
               name, [&bound](const std::string& n) { bound = std::stoi(n); },
               min ? "rated N or more (whose rating: --elo-of)" : "rated N or less (whose rating: --elo-of)")
            ->group("filters")
            ->type_name("N")
            ->check(number_check(name, 0, 9999)));
  }
  a->elo_of = cmd.add_option_function<std::string>(
                     "--elo-of",
                     [&q](const std::string& who) {
                       if (!elo_of_from_name(who, q.elo_of))
                         throw UsageError("--elo-of takes both, either, white or black, not '" + who + "'");
                     },
                     "whose rating --min-elo and --max-elo bound: both players' (the default), "
                     "either player's, white's (WhiteElo) or black's (BlackElo)")
                  ->group("filters")
                  ->type_name("WHO");
  a->one_value.push_back(a->elo_of);
  cmd.add_option("--tag", a->tags, "tag KEY has exactly VALUE (repeat for more: all must match)")
      ->group("filters")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false)
      ->check([](const std::string& kv) -> std::string {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
          throw UsageError("--tag takes KEY=VALUE, not '" + kv + "'");
        return {};
      });
  cmd.add_option("--position", a->position,
                 "the main line reaches this position: pieces, side to move, castling rights, and "
                 "the en passant square where a capture there is legal (move counters aside); a Xiangqi "
                 "FEN (ten ranks) is looked for among the Xiangqi games")
      ->group("filters")
      ->type_name("FEN");
  add_threads(cmd, a->threads, "decode blocks for --position");
  const std::string output = "output (one of them)";
  cmd.add_flag("--numbers", a->numbers, "the games' numbers, one a line (the default)")
      ->group(output);
  cmd.add_flag("--count", a->count, "how many games match")->group(output);
  cmd.add_flag("--pgn", a->pgn, "the games as PGN, as unpack writes them")->group(output);
  cmd.add_flag("--list", a->list, kListHelp)->group(output);
  return [a] { return find(*a); };
}

}  // namespace pgnarc::cli
