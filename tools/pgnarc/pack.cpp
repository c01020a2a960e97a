// pack, append, merge: the commands that write an archive.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "commands.h"
#include "console.h"
#include "safety.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::cli {
namespace {

// The writer settings, as the options give them (in KiB) and as the library takes them.
struct WriterArgs {
  WriterOptions options;
  const CLI::Option* moves = nullptr;             // --moves, where the command takes it
  const CLI::Option* clocks = nullptr;            // --clocks
  const CLI::Option* tags = nullptr;              // --tags
  const CLI::Option* xiangqi = nullptr;           // --xiangqi
  const CLI::Option* position_filter = nullptr;  // --position-filter
  std::uint64_t block_kib = options.block_bytes / 1024;
  std::uint64_t frame_kib = options.frame_bytes / 1024;
  std::uint64_t dict_kib = options.dictionary_bytes / 1024;
  bool store = false;
  bool no_text_dict = false;
  bool no_moves_dict = false;

  WriterOptions resolve() const {
    WriterOptions o = options;
    o.text_dictionary = !no_text_dict;
    o.moves_dictionary = !no_moves_dict;
    o.block_bytes = block_kib * 1024;
    o.frame_bytes = frame_kib * 1024;
    o.dictionary_bytes = dict_kib * 1024;
    o.compress = !store;
    return o;
  }
};

// Which writer settings a command takes: merge copies blocks (only --threads); append encodes
// games into blocks; pack also starts the archive (--store, --dict-kib; append keeps the
// archive's dictionary).
enum class Writes { kBlocks, kGames, kNewArchive };

void add_writer_options(CLI::App& cmd, WriterArgs& w, Writes what) {
  add_threads(cmd, w.options.threads, what == Writes::kBlocks ? "work" : "encode blocks");
  if (what == Writes::kBlocks) return;
  add_number(cmd, "--block-games", w.options.block_games, 1, 1000000,
             "close a block after N games");
  add_number(cmd, "--block-kib", w.block_kib, 1, 65536,
             "close a block after N KiB of input PGN (clock and evaluation commands not counted); smaller blocks read a single game faster and "
             "compress less well (256: archives 1-4% smaller, random reads 1.3-1.65x slower; 32: 7-11% "
             "larger, reads 0.45-0.75x the time)");
  add_number(cmd, "--level", w.options.zstd_level, 1, 19, "the zstd level of the sections but texts and raw");
  add_number(cmd, "--text-level", w.options.text_level, 1, 19,
             "the zstd level of the comments kept as text and of verbatim games (15: annotations "
             "1.6% smaller than at 9)");
  w.moves = cmd.add_option_function<std::string>(
         "--moves",
         [&w](const std::string& v) {
           w.options.moves = v == "uniform" ? MoveCoding::kUniform : v == "fast" ? MoveCoding::kFast : MoveCoding::kMax;
         },
         "how moves are coded: fast (the default: an opening book, then a model built for reading "
         "speed; archives of format 1.2), max (the strongest model, also named model: a few percent "
         "smaller, read about 3x slower) or uniform (every legal move alike: the largest, the fastest)")
      ->check(CLI::IsMember({"fast", "max", "model", "uniform"}))
      ->type_name("fast|max|uniform");
  w.clocks = cmd.add_option_function<std::string>(
         "--clocks",
         [&w](const std::string& v) { w.options.model_clocks = v == "model"; },
         "how a line's clocks and evaluations are coded where every ply has a clock (lichess and "
         "chess.com exports): model (the default: by the clock model, in the moves' codeword; "
         "archives of format 1.3, lichess exports about 10% smaller) or bytes (for zstd, as "
         "readers of format 1.2 and earlier read them)")
      ->check(CLI::IsMember({"model", "bytes"}))
      ->type_name("model|bytes");
  w.tags = cmd.add_option_function<std::string>(
         "--tags",
         [&w](const std::string& v) {
           w.options.derive_tags = v != "text";
           w.options.code_tags = v == "coded" || v == "tables" || v == "names";
           w.options.table_tags = v == "tables" || v == "names";
           w.options.name_entries = v == "names";
         },
         "how tags are stored: names (the default: as tables, and, where every block is held for the "
         "tag dictionary's training, Event and Site values as their entries in the tables the archive "
         "keeps for search, where that is smaller; archives of format 1.14, Xiangqi collections by "
         "player or event 7-10% smaller), tables (as coded, and an opening's tags, ECO, Opening, "
         "Variation, SubVariation and ECOUrl, stored once in a table of the archive where that is "
         "smaller, and Xiangqi FENs by the Xiangqi position code where that is smaller; archives of "
         "format 1.6, 1.9 with such FENs, lichess exports about 2% smaller, TWIC 6%), coded (as derive, "
         "and ratings, other numbers, dates and times of day coded by the arithmetic coder where "
         "that is smaller; archives of format 1.5, lichess exports about 1% smaller), derive (a CurrentPosition that is the final "
         "position from the moves, a Termination that begins with a player's name as that name "
         "and a rest; archives of format 1.4, chess.com exports about 20% smaller) or text (as "
         "readers of format 1.3 and earlier read them)")
      ->check(CLI::IsMember({"names", "tables", "coded", "derive", "text"}))
      ->type_name("names|tables|coded|derive|text");
  w.xiangqi = cmd.add_option_function<std::string>(
         "--xiangqi",
         [&w](const std::string& v) {
           w.options.xiangqi_model = w.options.xiangqi_positions = w.options.xiangqi_spellings = v != "uniform";
           w.options.xiangqi_book = v == "book";
         },
         "how Xiangqi games are coded: book (the default: under --moves fast or max the positions of "
         "the Xiangqi model's opening book by its counts, the others by the model; archives of format "
         "1.15, master games about 7% smaller than model), model (their moves by the Xiangqi model, "
         "archives of format 1.8, about a fifth smaller than uniform; 1.9 with set-up positions; 1.10 "
         "with move texts in GB18030 or Big5, or naming two pieces on a file by their file) or uniform "
         "(every legal move alike, as readers of format 1.7 read them; such games kept verbatim)")
      ->check(CLI::IsMember({"book", "model", "uniform"}))
      ->type_name("book|model|uniform");
  cmd.add_option_function<std::string>(
         "--variant",
         [&w](const std::string& v) { w.options.variant = variant_option(v); },
         "the rules of the games whose tags name none (a Variant tag names them): crazyhouse, atomic, "
         "antichess, three-check, king-of-the-hill, racing-kings, horde, or standard (the default); a "
         "game illegal under them is kept verbatim")
      ->type_name("NAME");
  add_number(
      cmd, "--frame-kib", w.frame_kib, 0, 65536,
      "a block's comments or verbatim games larger than 2N KiB are compressed in frames of about "
      "N KiB (whole groups of games, where they make frames of at least about N/2 KiB), so that "
      "reading one game decompresses only its frame (engine-annotated archives: reads about 2x "
      "faster, 4% larger); 0: never");
  w.position_filter = cmd.add_flag("--position-filter", w.options.position_filter,
               "give each block a filter of its games' positions (their pawns and material), so that "
               "find --position and tree skip the blocks that cannot hold a position past the opening "
               "(archives of tournament games about a third larger)");
  if (what == Writes::kGames) return;
  add_number(
      cmd, "--dict-kib", w.dict_kib, 0, 1024,
      "compress the tags of all blocks with one zstd dictionary of at most N KiB, trained on the "
      "first blocks' tags (at most 256 KiB) or holding them as they are (where they are all the "
      "archive's) and kept once in the archive, where that makes the archive smaller (OTB and "
      "lichess files: 5-8% smaller); 0: none");
  cmd.add_flag("--no-text-dict", w.no_text_dict,
               "compress comments and verbatim games block by block, without a text dictionary (one "
               "that holds them all, made where every block is held for the tag dictionary's training "
               "and that is smaller: archives of format 1.12, annotated files 2-16% smaller)");
  cmd.add_flag("--no-moves-dict", w.no_moves_dict,
               "compress moves block by block, without a moves dictionary (one that holds every "
               "block's moves, made where every block is held for the tag dictionary's training and "
               "that is smaller: archives of format 1.13, files with repeated games up to a third "
               "smaller)");
  cmd.add_flag("--store", w.store,
               "store every section uncompressed (the settings of the conformance vectors)");
}

// The list of games kept verbatim goes to "OUT.pga.log" beside an archive that is a file; for
// standard output, a device or a FIFO every game is listed on stderr instead.
bool log_beside(const std::string& out) {
  struct stat st {};
  return out != "-" && (::stat(out.c_str(), &st) != 0 || S_ISREG(st.st_mode));
}

// An archive written to standard output must not go to a terminal.
int check_stdout_archive(const std::string& out) {
  if (out != "-" || !::isatty(1)) return kOk;
  std::fprintf(stderr, "pgnarc: an archive is not written to a terminal; redirect standard output\n");
  return kUsage;
}

// "games.pgn.zst" -> "games.pga".
std::string default_archive_name(std::string in) {
  for (const char* ext : {".zst", ".gz"})
    if (in.size() > std::strlen(ext) && in.ends_with(ext)) in.resize(in.size() - std::strlen(ext));
  if (in.ends_with(".pgn")) in.resize(in.size() - 4);
  return in + ".pga";
}

// Games kept verbatim: each one goes to the log (file, game, line:column and why); the first ten
// are also shown on stderr, unless --strict makes the first an error.
struct Verbatim {
  bool strict = false;
  bool all_on_stderr = false;  // no log file
  std::uint64_t count = 0;
  std::string log;
};

int add_inputs(ArchiveWriter& w, const std::vector<std::string>& inputs, Verbatim& verbatim) {
  for (const std::string& in : inputs) {
    // Reading a terminal waits for typing, which would look like a hang: say so (zstd refuses a
    // terminal because compressed data cannot be typed; PGN can).
    if (in == "-" && ::isatty(0) && !quiet())
      std::fprintf(stderr, "pgnarc: reading PGN from the terminal until end of input (Ctrl-D)\n");
    auto reader = PgnReader::open(in);
    if (!reader) return report(reader.error());
    // The total is known for a plain file (compressed input is counted after decompression).
    std::uint64_t total = 0;
    if (in != "-" && in.ends_with(".pgn")) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(in, ec);
      if (!ec) total = size;
    }
    Progress progress("packing", total);
    std::optional<Error> strict_error;
    auto st = w.add_pgn(
        **reader,
        [&](const Problem& p) {
          ++verbatim.count;
          verbatim.log += "game " + std::to_string(p.game_number) +
                          " kept verbatim: " + p.error.message() + "\n";
          if (verbatim.strict && !strict_error) strict_error = p.error;
          if (!verbatim.strict && !quiet() && (verbatim.count <= 10 || verbatim.all_on_stderr))
            std::fprintf(stderr, "pgnarc: game %llu kept verbatim: %s\n",
                         static_cast<unsigned long long>(p.game_number), p.error.message().c_str());
        },
        [&](std::uint64_t, std::uint64_t bytes) { progress.update(bytes, true); });
    if (!st) return report(st.error());
    // Said even under --quiet: bytes of the input that the archive does not hold.
    if (const std::uint64_t n = (*reader)->trailing_eof_markers(); n > 0)
      std::fprintf(stderr, "pgnarc: %s: %llu DOS end-of-file byte%s (^Z) after the last game, not stored\n",
                   in == "-" ? "<stdin>" : in.c_str(), static_cast<unsigned long long>(n), n == 1 ? "" : "s");
    if (strict_error) {
      std::fprintf(stderr, "pgnarc: --strict: %s\n", strict_error->message().c_str());
      return kBadInput;
    }
  }
  return kOk;
}

void print_summary(const char* verb, const PackStats& s, std::uint64_t verbatim,
                   const std::string& out, const std::string& log_path) {
  if (quiet()) return;
  std::string line;
  appendf(line, "%s %s: %llu games (%llu kept verbatim)", verb, out.c_str(),
          static_cast<unsigned long long>(s.games), static_cast<unsigned long long>(s.raw_games));
  if (s.plies) appendf(line, ", %llu plies coded", static_cast<unsigned long long>(s.plies));
  appendf(line, ", %llu bytes in, %llu bytes out", static_cast<unsigned long long>(s.input_bytes),
          static_cast<unsigned long long>(s.output_bytes));
  if (s.output_bytes > 0 && s.input_bytes > 0)
    appendf(line, ", ratio %.2f",
            static_cast<double>(s.input_bytes) / static_cast<double>(s.output_bytes));
  line += '\n';
  if (verbatim > 10)
    appendf(line, "pgnarc: %llu games kept verbatim in all",
            static_cast<unsigned long long>(verbatim));
  if (verbatim > 0 && log_path.empty())
    line += verbatim > 10 ? "\n" : "";
  else if (verbatim > 0)
    appendf(line, "%sthe list is in %s\n", verbatim > 10 ? "; " : "pgnarc: ", log_path.c_str());
  std::fputs(line.c_str(), stderr);
}

// Writes the list of games kept verbatim to `path`; with none, pack removes a stale list.
int write_log(const std::string& path, const std::string& log) {
  Output f;
  if (auto st = f.open(path); !st) return report(st.error());
  f.write(log);
  if (auto st = f.close(); !st) return report(st.error());
  return kOk;
}

// An archive writer whose temporary file a stop signal removes (the signals are held from its
// creation until the file is registered).
struct GuardedWriter {
  std::unique_ptr<ArchiveWriter> writer;
  std::unique_ptr<TempFileGuard> guard;
  static Result<GuardedWriter> create(const std::string& path, const WriterOptions& options) {
    StopSignalsHeld held;
    auto w = ArchiveWriter::create(path, options);
    if (!w) return w.error();
    GuardedWriter g{std::move(*w), nullptr};
    g.guard = std::make_unique<TempFileGuard>(g.writer->temp_path());
    return g;
  }
};

// ---- pack ---------------------------------------------------------------------------------------

struct PackArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool force = false;
  Verbatim verbatim;
  WriterArgs writer;
};

int pack(PackArgs& a) {
  std::string out = a.out;
  if (out.empty()) {
    if (a.inputs[0] == "-") throw UsageError("pack from stdin needs -o OUT.pga (or -o - for stdout)");
    out = default_archive_name(a.inputs[0]);
  }
  if (int rc = check_stdout_archive(out)) return rc;
  if (int rc = check_output(out, a.inputs, a.force)) return rc;
  const std::string log = log_beside(out) ? out + ".log" : "";
  a.verbatim.all_on_stderr = log.empty();
  WriterOptions options = a.writer.resolve();
  options.overwrite = a.force;  // a file that appears meanwhile is not replaced either
  auto w = GuardedWriter::create(out, options);
  if (!w) return report(w.error());
  if (int rc = add_inputs(*w->writer, a.inputs, a.verbatim)) return rc;
  auto stats = w->writer->finish();
  if (!stats) return report(stats.error());
  print_summary("packed", *stats, a.verbatim.count, out == "-" ? "<stdout>" : out, log);
  if (log.empty()) return kOk;
  if (a.verbatim.log.empty()) {
    std::remove(log.c_str());
    return kOk;
  }
  return write_log(log, a.verbatim.log);
}

// ---- append -------------------------------------------------------------------------------------

struct AppendArgs {
  std::string archive;
  std::vector<std::string> inputs;
  Verbatim verbatim;
  WriterArgs writer;
};

// The move coder, position filters, clock and tag coding of the archive's blocks, for the new
// ones where the user gives none: the coder most of its blocks have, filters where all have
// them, the clock model where the archive already needs a reader of 1.3, derived tags where it
// needs one of 1.4, coded tags where it needs one of 1.5, the Xiangqi model where it needs one
// of 1.8, Xiangqi position columns where it needs one of 1.9, Xiangqi move texts in GB18030
// or Big5 where it needs one of 1.10 and the Xiangqi model's opening book where it needs one of
// 1.15 (so that an append does not raise
// what reads the archive; a value table, or none, the archive keeps as it is).
Status keep_archive_settings(const std::string& path, WriterArgs& w) {
  if (w.moves->count() && w.position_filter->count() && w.clocks->count() && w.tags->count() && w.xiangqi->count())
    return {};
  auto archive = Archive::open(path);
  if (!archive) return archive.error();
  auto info = (*archive)->info();
  if (!info) return info.error();
  if (info->blocks == 0) return {};
  if (!w.moves->count()) {
    const std::uint64_t most = std::max({info->fast_blocks, info->model_blocks, info->uniform_blocks});
    w.options.moves = most == info->fast_blocks    ? MoveCoding::kFast
                      : most == info->model_blocks ? MoveCoding::kMax
                                                   : MoveCoding::kUniform;
  }
  if (!w.position_filter->count()) w.options.position_filter = info->position_filter_blocks == info->blocks;
  if (!w.clocks->count()) w.options.model_clocks = info->read_version.minor >= 3;
  if (!w.tags->count()) {
    w.options.derive_tags = info->read_version.minor >= 4;
    w.options.code_tags = info->read_version.minor >= 5;
    w.options.xiangqi_positions = info->read_version.minor >= 9;
    w.options.unescaped_tags = info->read_version.minor >= 11;
  }
  if (!w.xiangqi->count()) {
    w.options.xiangqi_model = info->read_version.minor >= 8;
    w.options.xiangqi_spellings = info->read_version.minor >= 10;
    w.options.xiangqi_book = info->read_version.minor >= 15;
  }
  return {};
}

int append(AppendArgs& a) {
  if (int rc = check_output(a.archive, a.inputs, true)) return rc;
  if (auto st = keep_archive_settings(a.archive, a.writer); !st) return report_archive_error(st.error(), a.archive);
  const std::string log = log_beside(a.archive) ? a.archive + ".log" : "";
  a.verbatim.all_on_stderr = log.empty();
  // The writer locks the archive before it is read and until the new one replaces it.
  auto w = GuardedWriter::create(a.archive, a.writer.resolve());
  if (!w) return report(w.error());
  if (auto st = w->writer->add_archive_blocks(a.archive); !st) return report(st.error());
  if (int rc = add_inputs(*w->writer, a.inputs, a.verbatim)) return rc;
  auto stats = w->writer->finish();
  if (!stats) return report(stats.error());
  print_summary("appended to", *stats, a.verbatim.count, a.archive, log);
  return a.verbatim.log.empty() || log.empty() ? kOk : write_log(log, a.verbatim.log);
}

// ---- merge --------------------------------------------------------------------------------------

struct MergeArgs {
  std::vector<std::string> archives;
  std::string out;
  bool force = false;
  WriterArgs writer;
};

int merge(const MergeArgs& a) {
  if (int rc = check_stdout_archive(a.out)) return rc;
  if (int rc = check_output(a.out, a.archives, a.force)) return rc;
  WriterOptions options = a.writer.resolve();
  options.overwrite = a.force;
  auto w = GuardedWriter::create(a.out, options);
  if (!w) return report(w.error());
  for (const std::string& in : a.archives)
    if (auto st = w->writer->add_archive_blocks(in); !st) return report(st.error());
  auto stats = w->writer->finish();
  if (!stats) return report(stats.error());
  print_summary("merged into", *stats, 0, a.out == "-" ? "<stdout>" : a.out, "");
  return kOk;
}

constexpr const char* kInputHelp =
    "PGN: a .pgn, .pgn.zst or .pgn.gz file (compression is recognised by content), or - for stdin";
constexpr const char* kStrictHelp =
    "a game that cannot be coded is an error (exit 2, no archive written) instead of being kept "
    "verbatim";

}  // namespace

Run declare_pack(CLI::App& cmd) {
  auto a = std::make_shared<PackArgs>();
  cmd.footer(
      "Archives the games of the inputs. An existing archive is not overwritten without --force, "
      "and never while another pgnarc writes it (exit 4, busy); an output that is one of the "
      "inputs is refused. The archive is written to OUT.pga.tmp.PID and renamed into place when "
      "complete (a symlink's target is replaced, keeping its permissions); a device or FIFO is "
      "written directly. Games that cannot be coded (illegal or unreadable moves, other variants) "
      "are kept verbatim and listed, with where and why, on stderr and in OUT.pga.log (on stderr "
      "alone when OUT.pga is not a file). Limits: a game of more than " +
      std::to_string(kMaxGameTags) + " tag pairs is kept verbatim; a game longer than " +
      std::to_string(kMaxGameBytes >> 20) +
      " MiB stops the pack (exit 2), so that memory stays bounded on any input. An input that is "
      "not PGN text by its first 4 KiB (bzip2, xz and other compressed formats than zstd and "
      "gzip, an archive, UTF-16 or UTF-32 text, binary data) is refused (exit 2) with the command "
      "that would read it.");
  cmd.add_option("INPUT", a->inputs, kInputHelp)->required();
  add_output(
      cmd, a->out, "OUT.pga",
      "the archive to write (default: the first input's name with .pga for .pgn, .pgn.zst or "
      ".pgn.gz; needed when that input is -); - for standard output (not a terminal), written in "
      "order");
  cmd.add_flag("--force", a->force, "overwrite OUT.pga if it exists");
  cmd.add_flag("--strict", a->verbatim.strict, kStrictHelp);
  add_writer_options(cmd, a->writer, Writes::kNewArchive);
  return [a] { return pack(*a); };
}

Run declare_append(CLI::App& cmd) {
  auto a = std::make_shared<AppendArgs>();
  cmd.footer(
      "Adds the games of the inputs to ARCHIVE. The old blocks are copied, not re-encoded (but the "
      "tags of blocks that name their events and sites as entries of the archive's tables, format "
      "1.14, which are coded again as tags), and the archive keeps its tag dictionary; it is replaced only when the new one is complete, keeping "
      "its permissions and owner (through a symlink, its target is replaced). ARCHIVE is locked "
      "from the moment it is read: a second append or merge onto it meanwhile fails at once "
      "(exit 4, busy) and can be run again. The new blocks are coded as most of the archive's are "
      "(its move coder; position filters where every block has them; clocks by the clock model "
      "where the archive needs a reader of format 1.3 already, derived tags where it needs one of "
      "1.4, coded tags where it needs one of 1.5, Xiangqi moves by the Xiangqi model where it needs one of 1.8, "
      "Xiangqi set-up positions coded where it needs one of 1.9, Xiangqi move texts in GB18030 or Big5 or naming "
      "two pieces on a file by their file where it needs one of 1.10, the Xiangqi model's opening book where it "
      "needs one of 1.15; its "
      "value table of openings, or none) unless --moves, --position-filter, --clocks, --tags or --xiangqi says "
      "otherwise; block sizes and zstd levels, which an archive does not "
      "record, are this command's. Games kept verbatim are listed in ARCHIVE.log.");
  cmd.add_option("ARCHIVE", a->archive, "the archive to add to")->required();
  cmd.add_option("INPUT", a->inputs, kInputHelp)->required();
  cmd.add_flag("--strict", a->verbatim.strict, kStrictHelp);
  add_writer_options(cmd, a->writer, Writes::kGames);
  return [a] { return append(*a); };
}

Run declare_merge(CLI::App& cmd) {
  auto a = std::make_shared<MergeArgs>();
  cmd.footer(
      "Joins archives into OUT.pga by copying their blocks, without decoding moves (the tags of "
      "the blocks of every archive after the first are coded again to the joined players' table, "
      "and those of blocks that name their events and sites as entries of their archive's tables, "
      "format 1.14, as tags). "
      "OUT.pga must not be one of the inputs; it is written and replaced as pack does.");
  cmd.add_option("ARCHIVE", a->archives, "the archives to join, in order")->required();
  add_output(cmd, a->out, "OUT.pga",
             "the archive to write; - for standard output (not a terminal), written in order")
      ->required();
  cmd.add_flag("--force", a->force, "overwrite OUT.pga if it exists");
  add_writer_options(cmd, a->writer, Writes::kBlocks);
  return [a] { return merge(*a); };
}

}  // namespace pgnarc::cli
