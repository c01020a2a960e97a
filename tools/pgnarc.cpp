// pgnarc: the command-line program. Argument parsing, files and printing only; all format logic
// is in the library.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/pgnarc.h"

namespace {

using pgnarc::Error;
using pgnarc::ErrorCode;
template <class T>
using Result = pgnarc::Result<T>;

// Exit codes, as documented in --help and the README.
enum Exit : int { kOk = 0, kUsage = 1, kBadInput = 2, kDamaged = 3, kIoError = 4 };


constexpr const char* kUsageText =
    "usage: pgnarc <command> [options]\n"
    "\n"
    "commands:\n"
    "  pack [-o OUT.pga] [--threads N] [--strict] [--force] INPUT...\n"
    "                      archive PGN (.pgn, .pgn.zst, .pgn.gz, or - for stdin)\n"
    "  unpack ARCHIVE [-o OUT.pgn] [--threads N] [--salvage]   all games as canonical PGN (stdout by default)\n"
    "  get ARCHIVE N [N | N-M | N- ...] [--list]   those games (numbered from 1) as PGN, or listed\n"
    "  find ARCHIVE [filters] [--count | --numbers | --pgn | --list]\n"
    "                      filters: --white S --black S --player S --event S --site S --exact\n"
    "                      --result R --eco E --date-from D --date-to D --tag KEY=VALUE\n"
    "  append ARCHIVE INPUT...       add games to an archive\n"
    "  merge -o OUT.pga [--force] ARCHIVE...   join archives (blocks copied, not decoded)\n"
    "  info ARCHIVE [--json]         games, blocks, bytes by section, bits per ply, versions\n"
    "  verify ARCHIVE [--threads N]  checksums and a full decode\n"
    "  perft FEN DEPTH [--divide] [--chess960]\n"
    "\n"
    "  pgnarc --help, pgnarc COMMAND --help, pgnarc --version; --quiet silences all but errors\n"
    "\n"
    "exit codes: 0 success, 1 bad usage, 2 bad input, 3 damaged archive, 4 I/O error\n";

struct Help {
  const char* command;
  const char* text;
};
constexpr Help kHelp[] = {
    {"pack",
     "usage: pgnarc pack [-o OUT.pga] [--threads N] [--strict] [--force] [--quiet] INPUT...\n\n"
     "Archives the games of the inputs (.pgn, .pgn.zst, .pgn.gz, or - for stdin; compression is\n"
     "recognised by content). Without -o the archive is the first input's name with .pga. An\n"
     "existing file is not overwritten without --force. Games that cannot be coded (illegal or\n"
     "unreadable moves, other variants) are kept verbatim and listed, with where and why, on\n"
     "stderr and in OUT.pga.log; --strict makes any such game an error (exit 2, no archive).\n"
     "--store writes every section uncompressed (the settings of the conformance vectors);\n"
     "--block-games N closes a block after N games (default 4096), --block-kib N after N KiB of\n"
     "input PGN (default 128): smaller blocks read a single game faster and compress less well\n"
     "(256: 3-8% smaller archives, random reads about 1.5x slower).\n"
     "--level N (1-19) is the zstd level of the sections.\n"
     "--frame-kib N (default 32; 0: never): a block's comments or verbatim games larger than 2N KiB\n"
     "are compressed in frames of about N KiB (whole groups of games), so that reading one game\n"
     "decompresses only its frame (engine-annotated archives: reads about 2x faster, 4% larger).\n"
     "--dict-kib N (default 128; 0: none): the tags of all blocks are compressed with one zstd\n"
     "dictionary of at most N KiB, trained on the first blocks' tags and kept once in the archive,\n"
     "where that makes the archive smaller (OTB and lichess files: 5-8% smaller). An archive\n"
     "appended to keeps its dictionary.\n"},
    {"unpack", "usage: pgnarc unpack ARCHIVE [-o OUT.pgn] [--threads N] [--salvage] [--quiet]\n\nWrites every game as canonical PGN; games kept verbatim are written as their original bytes.\nBlocks are decoded on N threads (default 0: all cores); the output is the same for any N.\n--salvage reads a damaged archive without its index: the games of every block whose\nchecksum holds are written, damaged regions are reported, and the exit code is 3 if any.\n"},
    {"get", "usage: pgnarc get ARCHIVE N [N | N-M | N- ...] [--list]\n\nWrites the games with those numbers (from 1; N- runs to the last game), byte for byte as\nunpack writes them.\n"
            "--list writes one line per game instead, from its tags alone (no moves are decoded):\n"
            "number, White, Black, Result, Date, Event, separated by tabs.\n"},
    {"find",
     "usage: pgnarc find ARCHIVE [--white S] [--black S] [--player S] [--event S] [--site S] [--exact]\n"
     "                   [--result R] [--eco E] [--date-from D] [--date-to D] [--tag KEY=VALUE]...\n"
     "                   [--count | --numbers | --pgn | --list]\n\n"
     "Names match as case-insensitive substrings (--exact: exact). Dates are YYYY[.MM[.DD]] (or\n"
     "with - or /; anything else is refused); games with unknown dates match no date range.\n"
     "Prints game numbers (default), their count, their PGN, or (--list) one line per game from\n"
     "its tags: number, White, Black, Result, Date, Event, by tabs.\n"},
    {"append", "usage: pgnarc append ARCHIVE INPUT...\n\nAdds the games of the inputs to ARCHIVE. The old blocks are copied, not re-encoded; the\narchive is replaced only when the new one is complete.\n"},
    {"merge", "usage: pgnarc merge -o OUT.pga [--force] ARCHIVE...\n\nJoins archives into OUT.pga by copying their blocks, without decoding games.\n"},
    {"info", "usage: pgnarc info ARCHIVE [--json]\n\nGames, blocks, bytes by section, bits per ply of moves, format versions.\n"},
    {"verify", "usage: pgnarc verify ARCHIVE [--threads N]\n\nChecks every checksum and decodes every game (on N threads, default 0: all cores); exit 0\nonly if all is sound, 3 otherwise.\n"},
    {"perft",
     "usage: pgnarc perft FEN DEPTH [--divide] [--chess960]\n\n"
     "Prints the number of leaf nodes of the legal move tree of DEPTH plies from FEN ('startpos'\n"
     "for the standard start). --divide first prints one 'uci: count' line per legal move, in the\n"
     "canonical move order of the pgnarc format, then a blank line and the total.\n"
     "--chess960 writes castling as king-takes-rook (implied when the castling rights need it).\n"},
};

bool g_quiet = false;

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "pgnarc: %s\nTry 'pgnarc --help'.\n", msg.c_str());
  return kUsage;
}

int exit_code_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidInput: return kBadInput;
    case ErrorCode::Corruption: return kDamaged;
    case ErrorCode::Unsupported: return kDamaged;
    case ErrorCode::IO: return kIoError;
  }
  return kIoError;
}

int report(const Error& e) {
  std::fprintf(stderr, "pgnarc: %s\n", e.to_string().c_str());
  return exit_code_for(e.code());
}

// Arguments of one subcommand: options with values, flags, positionals.
class Args {
 public:
  Args(std::vector<std::string_view> args, std::vector<std::string_view> with_value,
       std::vector<std::string_view> flags)
      : with_value_(std::move(with_value)), flags_(std::move(flags)) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string_view a = args[i];
      if (a == "--quiet" || a == "-q") {
        g_quiet = true;
      } else if (a == "-" || a.empty() || a[0] != '-') {
        positional.emplace_back(a);
      } else if (contains(with_value_, a)) {
        if (i + 1 >= args.size()) {
          error = std::string(a) + " needs a value";
          return;
        }
        values.emplace_back(std::string(a), std::string(args[++i]));
      } else if (contains(flags_, a)) {
        set_flags.emplace_back(a);
      } else {
        error = "unknown option " + std::string(a);
        return;
      }
    }
  }
  bool flag(std::string_view f) const { return contains(set_flags, f); }
  std::optional<std::string> value(std::string_view key) const {
    std::optional<std::string> v;
    for (const auto& [k, val] : values)
      if (k == key) v = val;
    return v;
  }
  std::vector<std::string> all(std::string_view key) const {
    std::vector<std::string> out;
    for (const auto& [k, val] : values)
      if (k == key) out.push_back(val);
    return out;
  }
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> values;
  std::string error;

 private:
  static bool contains(const std::vector<std::string_view>& v, std::string_view x) {
    for (auto e : v)
      if (e == x) return true;
    return false;
  }
  std::vector<std::string_view> with_value_, flags_, set_flags;
};

// A progress line on stderr when it is a terminal (and not --quiet).
class Progress {
 public:
  explicit Progress(const char* what, std::uint64_t total = 0)
      : what_(what), total_(total), on_(!g_quiet && ::isatty(2)), start_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }
  // `done` of `total_` units (games, or bytes when bytes is true).
  void update(std::uint64_t done, bool bytes = false) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    shown_ = true;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double rate = secs > 0 ? done / secs : 0;
    char line[160];
    if (total_ > 0) {
      const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
      const int width = 30, fill = static_cast<int>(frac * width);
      std::snprintf(line, sizeof line, "\r%s [%.*s%*s] %3.0f%% %s/s, %.0f s left\033[K", what_, fill,
                    "##############################", width - fill, "", frac * 100, human(rate, bytes).c_str(),
                    rate > 0 ? (static_cast<double>(total_ - std::min(done, total_)) / rate) : 0.0);
    } else {
      std::snprintf(line, sizeof line, "\r%s %s, %s/s\033[K", what_, human(static_cast<double>(done), bytes).c_str(),
                    human(rate, bytes).c_str());
    }
    std::fputs(line, stderr);
  }

 private:
  static std::string human(double v, bool bytes) {
    char b[32];
    if (bytes) std::snprintf(b, sizeof b, "%.1f MB", v / 1e6);
    else std::snprintf(b, sizeof b, "%.0f games", v);
    return b;
  }
  const char* what_;
  std::uint64_t total_;
  bool on_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// Standard output or a file.
class Output {
 public:
  Result<bool> open(const std::optional<std::string>& path);
  std::FILE* f = stdout;
  std::string name = "<stdout>";
  ~Output() {
    if (f && f != stdout) std::fclose(f);
  }
};

Result<bool> Output::open(const std::optional<std::string>& path) {
  if (!path || *path == "-") return true;
  f = std::fopen(path->c_str(), "wb");
  name = *path;
  if (!f) return pgnarc::io_error("cannot create " + *path + ": " + std::strerror(errno));
  return true;
}

int write_out(Output& out, std::string_view s) {
  if (std::fwrite(s.data(), 1, s.size(), out.f) != s.size())
    return report(pgnarc::io_error("cannot write " + out.name + ": " + std::strerror(errno)));
  return kOk;
}

bool parse_number(std::string_view s, std::uint64_t& v) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

bool file_exists(const std::string& p) { return ::access(p.c_str(), F_OK) == 0; }

std::string default_archive_name(std::string in) {
  for (const char* ext : {".zst", ".gz"})
    if (in.size() > std::strlen(ext) && in.ends_with(ext)) in.resize(in.size() - std::strlen(ext));
  if (in.ends_with(".pgn")) in.resize(in.size() - 4);
  return in + ".pga";
}

// ---- pack / append / merge ---------------------------------------------------------------------

int add_inputs(pgnarc::ArchiveWriter& w, const std::vector<std::string>& inputs, bool strict, std::uint64_t& problems,
               std::string& log) {
  for (const std::string& in : inputs) {
    auto reader = pgnarc::PgnReader::open(in);
    if (!reader) return report(reader.error());
    // The total is known for a plain file (compressed input is counted after decompression).
    std::uint64_t total = 0;
    if (in != "-" && in.ends_with(".pgn")) {
      if (std::FILE* f = std::fopen(in.c_str(), "rb")) {
        std::fseek(f, 0, SEEK_END);
        total = static_cast<std::uint64_t>(std::max(0L, std::ftell(f)));
        std::fclose(f);
      }
    }
    Progress progress("packing", total);
    std::optional<Error> strict_error;
    auto st = w.add_pgn(
        **reader,
        [&](const pgnarc::Problem& p) {
          ++problems;
          log += "game " + std::to_string(p.game_number) + " kept verbatim: " + p.error.message() + "\n";
          if (strict && !strict_error) strict_error = p.error;
          if (!strict && !g_quiet && problems <= 10)
            std::fprintf(stderr, "pgnarc: game %llu kept verbatim: %s\n", static_cast<unsigned long long>(p.game_number),
                         p.error.message().c_str());
        },
        [&](std::uint64_t, std::uint64_t bytes) { progress.update(bytes, true); });
    if (!st) return report(st.error());
    if (strict_error) {
      std::fprintf(stderr, "pgnarc: --strict: %s\n", strict_error->message().c_str());
      return kBadInput;
    }
  }
  return kOk;
}

// --threads N (0, the default: all cores); on a bad value, rc is the usage error's exit code.
unsigned threads_option(const Args& a, int& rc) {
  const auto t = a.value("--threads");
  if (!t) return 0;
  std::uint64_t n;
  if (!parse_number(*t, n) || n > 256) {
    rc = usage_error("--threads takes a number from 0 to 256");
    return 0;
  }
  return static_cast<unsigned>(n);
}

pgnarc::WriterOptions writer_options(const Args& a, int& rc) {
  pgnarc::WriterOptions o;
  rc = kOk;
  o.threads = threads_option(a, rc);
  if (a.flag("--store")) o.compress = false;
  if (auto b = a.value("--block-games")) {
    std::uint64_t n;
    if (!parse_number(*b, n) || n == 0 || n > 1000000) rc = usage_error("--block-games takes a number from 1 to 1000000");
    o.block_games = n;
  }
  if (auto l = a.value("--level")) {
    std::uint64_t n;
    if (!parse_number(*l, n) || n < 1 || n > 19) rc = usage_error("--level takes a number from 1 to 19");
    o.zstd_level = static_cast<int>(n);
  }
  if (auto b = a.value("--block-kib")) {
    std::uint64_t n;
    if (!parse_number(*b, n) || n == 0 || n > 65536) rc = usage_error("--block-kib takes a number from 1 to 65536");
    o.block_bytes = n * 1024;
  }
  if (auto f = a.value("--frame-kib")) {
    std::uint64_t n;
    if (!parse_number(*f, n) || n > 65536) rc = usage_error("--frame-kib takes a number from 0 to 65536");
    o.frame_bytes = n * 1024;
  }
  if (auto d = a.value("--dict-kib")) {
    std::uint64_t n;
    if (!parse_number(*d, n) || n > 1024) rc = usage_error("--dict-kib takes a number from 0 to 1024");
    o.dictionary_bytes = n * 1024;
  }
  return o;
}

void print_summary(const char* verb, const pgnarc::PackStats& s, std::uint64_t problems, const std::string& out,
                   const std::string& log_path) {
  if (g_quiet) return;
  std::fprintf(stderr, "%s %s: %llu games (%llu kept verbatim)", verb, out.c_str(),
               static_cast<unsigned long long>(s.games), static_cast<unsigned long long>(s.raw_games));
  if (s.plies) std::fprintf(stderr, ", %llu plies coded", static_cast<unsigned long long>(s.plies));
  std::fprintf(stderr, ", %llu bytes in, %llu bytes out", static_cast<unsigned long long>(s.input_bytes),
               static_cast<unsigned long long>(s.output_bytes));
  if (s.output_bytes > 0 && s.input_bytes > 0)
    std::fprintf(stderr, ", ratio %.2f", static_cast<double>(s.input_bytes) / static_cast<double>(s.output_bytes));
  std::fputc('\n', stderr);
  if (problems > 10) std::fprintf(stderr, "pgnarc: %llu games kept verbatim in all", static_cast<unsigned long long>(problems));
  if (problems > 0) std::fprintf(stderr, "%sthe list is in %s\n", problems > 10 ? "; " : "pgnarc: ", log_path.c_str());
}

int write_log(const std::string& path, const std::string& log) {
  if (log.empty()) {
    std::remove(path.c_str());
    return kOk;
  }
  std::ofstream f(path, std::ios::binary);
  f << log;
  if (!f) return report(pgnarc::io_error("cannot write " + path));
  return kOk;
}

int cmd_pack(const Args& a) {
  if (a.positional.empty()) return usage_error("pack needs at least one input");
  std::string out = a.value("-o").value_or("");
  if (out.empty()) {
    if (a.positional[0] == "-") return usage_error("pack from stdin needs -o OUT.pga");
    out = default_archive_name(a.positional[0]);
  }
  if (file_exists(out) && !a.flag("--force")) {
    std::fprintf(stderr, "pgnarc: %s exists; use --force to overwrite it\n", out.c_str());
    return kUsage;
  }
  int rc;
  const auto options = writer_options(a, rc);
  if (rc) return rc;
  auto w = pgnarc::ArchiveWriter::create(out, options);
  if (!w) return report(w.error());
  std::uint64_t problems = 0;
  std::string log;
  if (int r = add_inputs(**w, a.positional, a.flag("--strict"), problems, log)) return r;
  auto stats = (*w)->finish();
  if (!stats) return report(stats.error());
  print_summary("packed", *stats, problems, out, out + ".log");
  return write_log(out + ".log", log);
}

int cmd_append(const Args& a) {
  if (a.positional.size() < 2) return usage_error("append needs an archive and at least one input");
  const std::string archive = a.positional[0];
  int rc;
  const auto options = writer_options(a, rc);
  if (rc) return rc;
  auto w = pgnarc::ArchiveWriter::create(archive, options);
  if (!w) return report(w.error());
  if (auto st = (*w)->add_archive_blocks(archive); !st) return report(st.error());
  std::uint64_t problems = 0;
  std::string log;
  const std::vector<std::string> inputs(a.positional.begin() + 1, a.positional.end());
  if (int r = add_inputs(**w, inputs, a.flag("--strict"), problems, log)) return r;
  auto stats = (*w)->finish();
  if (!stats) return report(stats.error());
  print_summary("appended to", *stats, problems, archive, archive + ".log");
  return log.empty() ? kOk : write_log(archive + ".log", log);
}

int cmd_merge(const Args& a) {
  const auto out = a.value("-o");
  if (!out) return usage_error("merge needs -o OUT.pga");
  if (a.positional.empty()) return usage_error("merge needs at least one archive");
  if (file_exists(*out) && !a.flag("--force")) {
    std::fprintf(stderr, "pgnarc: %s exists; use --force to overwrite it\n", out->c_str());
    return kUsage;
  }
  int rc;
  const auto options = writer_options(a, rc);
  if (rc) return rc;
  auto w = pgnarc::ArchiveWriter::create(*out, options);
  if (!w) return report(w.error());
  for (const std::string& in : a.positional)
    if (auto st = (*w)->add_archive_blocks(in); !st) return report(st.error());
  auto stats = (*w)->finish();
  if (!stats) return report(stats.error());
  print_summary("merged into", *stats, 0, *out, *out + ".log");
  return kOk;
}

// ---- reading -----------------------------------------------------------------------------------

Result<std::unique_ptr<pgnarc::Archive>> open_archive(const std::string& path) { return pgnarc::Archive::open(path); }

int cmd_unpack(const Args& a) {
  if (a.positional.size() != 1) return usage_error("unpack takes one archive");
  int rc = kOk;
  const unsigned threads = threads_option(a, rc);  // (salvage reads block by block on one)
  if (rc) return rc;
  if (a.flag("--salvage")) {
    Output out;
    if (auto r = out.open(a.value("-o")); !r) return report(r.error());
    auto rep = pgnarc::salvage_pgn(a.positional[0], [&](std::string_view chunk) { return (rc = write_out(out, chunk)) == kOk; });
    if (!rep) return report(rep.error());
    if (rc) return rc;
    std::fflush(out.f);
    for (const std::string& s : rep->skipped) std::fprintf(stderr, "pgnarc: %s\n", s.c_str());
    if (!g_quiet)
      std::fprintf(stderr, "pgnarc: salvaged %llu games from %llu sound blocks\n", (unsigned long long)rep->games,
                   (unsigned long long)rep->blocks);
    return rep->skipped.empty() ? kOk : kDamaged;
  }
  auto archive = open_archive(a.positional[0]);
  if (!archive) return report(archive.error());
  Output out;
  if (auto r = out.open(a.value("-o")); !r) return report(r.error());
  Progress progress("unpacking", (*archive)->game_count());
  auto st = (*archive)->export_pgn(
      [&](std::string_view chunk) { return (rc = write_out(out, chunk)) == kOk; }, threads,
      [&](std::uint64_t games) { progress.update(games); });
  if (!st) return report(st.error());
  if (rc) return rc;
  if (std::fflush(out.f) != 0) return report(pgnarc::io_error("cannot write " + out.name + ": " + std::strerror(errno)));
  return kOk;
}

// Game `i`'s line of `get --list` and `find --list`: its number, then the values of White,
// Black, Result, Date and Event (empty where the game has no such tag), separated by tabs; a
// tab or control character inside a value is written as a space.
pgnarc::Result<std::string> list_line(pgnarc::Archive& archive, std::uint64_t i) {
  auto tags = archive.read_tags(i);
  if (!tags) return tags.error();
  std::string line = std::to_string(i + 1);
  for (const char* key : {"White", "Black", "Result", "Date", "Event"}) {
    line += '\t';
    for (const pgnarc::Tag& t : *tags)
      if (t.key == key) {
        for (char c : t.value) line += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        break;
      }
  }
  return line + "\n";
}

int cmd_get(const Args& a) {
  if (a.positional.size() < 2) return usage_error("get needs an archive and game numbers");
  auto archive = open_archive(a.positional[0]);
  if (!archive) return report(archive.error());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::size_t i = 1; i < a.positional.size(); ++i) {
    const std::string& s = a.positional[i];
    const auto dash = s.find('-');
    const bool to_last = dash != std::string::npos && dash + 1 == s.size();  // "N-"
    std::uint64_t lo, hi;
    if (dash == std::string::npos ? !parse_number(s, lo) || (hi = lo, false)
        : to_last                 ? !parse_number(std::string_view(s).substr(0, dash), lo) ||
                                        (hi = std::max(lo, (*archive)->game_count()), false)
                                  : !parse_number(std::string_view(s).substr(0, dash), lo) ||
                                        !parse_number(std::string_view(s).substr(dash + 1), hi))
      return usage_error("not a game number or range: '" + s + "'");
    if (lo == 0 || hi < lo) return usage_error("game numbers start at 1 and ranges go upwards: '" + s + "'");
    ranges.emplace_back(lo, hi);
  }
  Output out;
  for (auto [lo, hi] : ranges) {
    for (std::uint64_t n = lo; n <= hi; ++n) {
      auto text = a.flag("--list") ? list_line(**archive, n - 1) : (*archive)->read_pgn(n - 1);
      if (!text) return report(text.error());
      if (int rc = write_out(out, *text)) return rc;
    }
  }
  return kOk;
}

int cmd_find(const Args& a) {
  if (a.positional.size() != 1) return usage_error("find takes one archive");
  pgnarc::Query q;
  q.white = a.value("--white");
  q.black = a.value("--black");
  q.player = a.value("--player");
  q.event = a.value("--event");
  q.site = a.value("--site");
  q.exact_names = a.flag("--exact");
  q.result = a.value("--result");
  q.eco = a.value("--eco");
  q.date_from = a.value("--date-from");
  q.date_to = a.value("--date-to");
  for (const std::string& kv : a.all("--tag")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return usage_error("--tag takes KEY=VALUE, not '" + kv + "'");
    q.tags.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  if (q.result && *q.result != "1-0" && *q.result != "0-1" && *q.result != "1/2-1/2" && *q.result != "*")
    return usage_error("--result takes 1-0, 0-1, 1/2-1/2 or *");
  if (const std::string why = pgnarc::query_error(q); !why.empty()) return usage_error("--" + why);
  const int modes = a.flag("--count") + a.flag("--numbers") + a.flag("--pgn") + a.flag("--list");
  if (modes > 1) return usage_error("choose one of --count, --numbers, --pgn, --list");
  auto archive = open_archive(a.positional[0]);
  if (!archive) return report(archive.error());
  auto found = (*archive)->find(q);
  if (!found) return report(found.error());
  Output out;
  if (a.flag("--count")) return write_out(out, std::to_string(found->size()) + "\n");
  for (std::uint64_t i : *found) {
    if (a.flag("--pgn") || a.flag("--list")) {
      auto text = a.flag("--list") ? list_line(**archive, i) : (*archive)->read_pgn(i);
      if (!text) return report(text.error());
      if (int rc = write_out(out, *text)) return rc;
    } else if (int rc = write_out(out, std::to_string(i + 1) + "\n")) {
      return rc;
    }
  }
  return kOk;
}

int cmd_info(const Args& a) {
  if (a.positional.size() != 1) return usage_error("info takes one archive");
  auto archive = open_archive(a.positional[0]);
  if (!archive) return report(archive.error());
  auto info = (*archive)->info();
  if (!info) return report(info.error());
  // Plies, for bits per ply: counted by decoding the main lines and variations.
  std::uint64_t plies = 0, raw = 0;
  auto st = (*archive)->for_each([&](std::uint64_t, pgnarc::ArchiveGame& g) {
    if (g.raw) ++raw;
    for (const auto& e : g.game.events) plies += e.type == pgnarc::GameEvent::kMove;
    return true;
  });
  if (!st) return report(st.error());
  
  const char* contents[5] = {"tags", "moves", "structure", "texts (comments)", "raw (verbatim games)"};
  const double bits_per_ply = plies ? info->section(pgnarc::Section::Moves).stored * 8.0 / static_cast<double>(plies) : 0;
  std::string s;
  char line[1024];  // each snprintf below fits
  if (a.flag("--json")) {
    std::snprintf(line, sizeof line,
                  "{\"write_version\": %u, \"read_version\": %u, \"file_bytes\": %llu, \"games\": %llu, "
                  "\"verbatim_games\": %llu, \"blocks\": %llu, \"plies\": %llu, \"index_bytes\": %llu, "
                  "\"block_overhead_bytes\": %llu, \"dictionaries\": %llu, \"dictionary_bytes\": %llu, "
                  "\"dictionary_blocks\": %llu, \"name_chunks\": %llu, \"name_bytes\": %llu, \"table_chunks\": %llu, "
                  "\"table_bytes\": %llu, "
                  "\"moves_bits_per_ply\": %.4f, \"sections\": {",
                  info->write_version, info->read_version, (unsigned long long)info->file_bytes,
                  (unsigned long long)info->games, (unsigned long long)raw, (unsigned long long)info->blocks,
                  (unsigned long long)plies, (unsigned long long)info->index_bytes,
                  (unsigned long long)info->block_overhead_bytes, (unsigned long long)info->dictionaries,
                  (unsigned long long)info->dictionary_bytes, (unsigned long long)info->dictionary_blocks,
                  (unsigned long long)info->name_chunks, (unsigned long long)info->name_bytes,
                  (unsigned long long)info->table_chunks, (unsigned long long)info->table_bytes, bits_per_ply);
    s += line;
    for (std::size_t k = 0; k < pgnarc::kSectionCount; ++k) {
      std::snprintf(line, sizeof line,
                    "%s\"%s\": {\"stored\": %llu, \"raw\": %llu, \"framed_blocks\": %llu, \"column_blocks\": %llu}",
                    k ? ", " : "", pgnarc::section_name(pgnarc::kAllSections[k]), (unsigned long long)info->sections[k].stored,
                    (unsigned long long)info->sections[k].raw, (unsigned long long)info->sections[k].framed_blocks,
                    (unsigned long long)info->sections[k].column_blocks);
      s += line;
    }
    s += "}}\n";
  } else {
    std::snprintf(line, sizeof line,
                  "format:   write version %u, read version %u\nfile:     %llu bytes\ngames:    %llu (%llu kept verbatim)\n"
                  "blocks:   %llu\nplies:    %llu\nmoves:    %.3f bits per ply\n",
                  info->write_version, info->read_version, (unsigned long long)info->file_bytes,
                  (unsigned long long)info->games, (unsigned long long)raw, (unsigned long long)info->blocks,
                  (unsigned long long)plies, bits_per_ply);
    s += line;
    s += "section    stored bytes   uncompressed   share of file\n";
    for (std::size_t k = 0; k < pgnarc::kSectionCount; ++k) {
      std::snprintf(line, sizeof line, "%-10s %12llu   %12llu   %5.1f%%\n", pgnarc::section_name(pgnarc::kAllSections[k]),
                    (unsigned long long)info->sections[k].stored, (unsigned long long)info->sections[k].raw,
                    100.0 * info->sections[k].stored / static_cast<double>(info->file_bytes));
      s += line;
    }
    std::snprintf(line, sizeof line, "%-10s %12llu\n", "index", (unsigned long long)info->index_bytes);
    s += line;
    if (info->name_chunks) {
      std::snprintf(line, sizeof line, "%-10s %12llu   in %llu chunk%s\n", "names", (unsigned long long)info->name_bytes,
                    (unsigned long long)info->name_chunks, info->name_chunks == 1 ? "" : "s");
      s += line;
    }
    if (info->table_chunks) {
      std::snprintf(line, sizeof line, "%-10s %12llu   in %llu chunk%s\n", "table", (unsigned long long)info->table_bytes,
                    (unsigned long long)info->table_chunks, info->table_chunks == 1 ? "" : "s");
      s += line;
    }
    if (info->dictionaries) {
      std::snprintf(line, sizeof line, "%-10s %12llu\n", "dictionary", (unsigned long long)info->dictionary_bytes);
      s += line;
    }
    std::snprintf(line, sizeof line, "%-10s %12llu\n", "overhead", (unsigned long long)(info->block_overhead_bytes + info->header_bytes + info->footer_bytes));
    s += line;
    if (info->dictionaries) {
      std::snprintf(line, sizeof line, "tags: compressed with the archive's tag dictionary in %llu of %llu blocks\n",
                    (unsigned long long)info->dictionary_blocks, (unsigned long long)info->blocks);
      s += line;
    }
    for (std::size_t k = 0; k < pgnarc::kSectionCount; ++k)
      if (info->sections[k].framed_blocks) {
        std::snprintf(line, sizeof line, "%s: one zstd frame per group of games in %llu of %llu blocks\n", contents[k],
                      (unsigned long long)info->sections[k].framed_blocks, (unsigned long long)info->blocks);
        s += line;
      }
    for (std::size_t k = 0; k < pgnarc::kSectionCount; ++k)
      if (info->sections[k].column_blocks) {
        std::snprintf(line, sizeof line, "%s: wording and numbers apart (column form) in %llu of %llu blocks\n",
                      contents[k], (unsigned long long)info->sections[k].column_blocks, (unsigned long long)info->blocks);
        s += line;
      }
  }
  Output out;
  return write_out(out, s);
}

int cmd_verify(const Args& a) {
  if (a.positional.size() != 1) return usage_error("verify takes one archive");
  int rc = kOk;
  const unsigned threads = threads_option(a, rc);
  if (rc) return rc;
  auto archive = open_archive(a.positional[0]);
  if (!archive) return report(archive.error());
  if (auto info = (*archive)->info(); !info) return report(info.error());
  Progress progress("verifying", (*archive)->game_count());
  if (auto st = (*archive)->verify([&](std::uint64_t done) { progress.update(done); }, threads); !st)
    return report(st.error());
  if (!g_quiet)
    std::fprintf(stderr, "%s: sound: %llu games in %llu blocks, every checksum and every game checked\n",
                 a.positional[0].c_str(), (unsigned long long)(*archive)->game_count(),
                 (unsigned long long)(*archive)->block_count());
  return kOk;
}

int cmd_perft(const Args& a) {
  if (a.positional.size() != 2) return usage_error("perft takes a FEN and a depth");
  std::uint64_t depth = 0;
  if (!parse_number(a.positional[1], depth) || depth > 20)
    return usage_error("perft: depth must be a number from 0 to 20, not '" + a.positional[1] + "'");
  const bool chess960 = a.flag("--chess960");
  pgnarc::Position pos;
  if (a.positional[0] != "startpos") {
    auto parsed = pgnarc::Position::from_fen(a.positional[0], chess960);
    if (!parsed) return report(parsed.error());
    pos = *parsed;
  }
  pos.set_chess960(pos.chess960() || chess960);
  const int d = static_cast<int>(depth);
  if (!a.flag("--divide")) {
    std::printf("%llu\n", static_cast<unsigned long long>(pos.perft(d)));
    return kOk;
  }
  unsigned long long total = d == 0 ? 1 : 0;
  if (d > 0) {
    for (pgnarc::Move m : pos.legal_moves()) {
      pgnarc::Position child = pos;
      child.play(m);
      const unsigned long long n = child.perft(d - 1);
      total += n;
      std::printf("%s: %llu\n", pos.uci(m).c_str(), n);
    }
  }
  std::printf("\n%llu\n", total);
  return kOk;
}

struct Command {
  const char* name;
  int (*run)(const Args&);
  std::vector<std::string_view> with_value, flags;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> c = {
      {"pack", cmd_pack, {"-o", "--threads", "--block-games", "--block-kib", "--level", "--frame-kib", "--dict-kib"},
       {"--strict", "--force", "--store"}},
      {"unpack", cmd_unpack, {"-o", "--threads"}, {"--salvage"}},
      {"get", cmd_get, {}, {"--list"}},
      {"find", cmd_find,
       {"--white", "--black", "--player", "--event", "--site", "--result", "--eco", "--date-from", "--date-to", "--tag"},
       {"--count", "--numbers", "--pgn", "--list", "--exact"}},
      {"append", cmd_append, {"--threads", "--block-games", "--block-kib", "--level", "--frame-kib"}, {"--strict"}},
      {"merge", cmd_merge, {"-o", "--threads"}, {"--force"}},
      {"info", cmd_info, {}, {"--json"}},
      {"verify", cmd_verify, {"--threads"}, {}},
      {"perft", cmd_perft, {}, {"--divide", "--chess960"}},
  };
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) makes write() fail with EFBIG instead of killing the process,
  // so that a pack stopped that way reports an I/O error and removes its temporary file.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("no command given");
  const std::string_view cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kUsageText, stdout);
    return kOk;
  }
  if (cmd == "--version") {
    std::printf("pgnarc %s (archive format: write version %d, read version %d)\n", pgnarc::library_version(), pgnarc::kFormatVersion,
                pgnarc::kFormatVersion);
    return kOk;
  }
  for (const Command& c : commands()) {
    if (cmd != c.name) continue;
    for (auto a : args)
      if (a == "--help" || a == "-h") {
        for (const Help& h : kHelp)
          if (cmd == h.command) std::fputs(h.text, stdout);
        return kOk;
      }
    Args parsed(args, c.with_value, c.flags);
    if (!parsed.error.empty()) return usage_error(std::string(cmd) + ": " + parsed.error);
    return c.run(parsed);
  }
  return usage_error("unknown command '" + std::string(cmd) + "'");
}
