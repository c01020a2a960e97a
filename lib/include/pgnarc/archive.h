// Archives (.pga): writing games into indexed, checksummed blocks, and reading them back by
// number, in order, or by tag.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pgnarc/codec.h"
#include "pgnarc/game.h"
#include "pgnarc/pgn.h"
#include "pgnarc/status.h"

namespace pgnarc {

struct WriterOptions {
  unsigned threads = 0;                      // 0: all cores
  std::size_t block_bytes = 128 * 1024;      // a block closes after this much input PGN ...
  std::size_t block_games = 4096;            // ... or this many games
  int zstd_level = 9;                        // of the sections (level 12: about 1% smaller, 3x slower on long comments)
  bool compress = true;                      // false: every section stored uncompressed
  // A block's comments (texts) or verbatim games (raw) larger than twice this are split into
  // zstd frames of about this many bytes (whole directory groups of games), so that reading one
  // game decompresses only its own frame; 0: one frame per section.
  std::size_t frame_bytes = 32 * 1024;
  // Comments and verbatim games compressed in their column form where that is smaller (format
  // 11, spec 9.3.2: wording and numbers apart; TCEC's comments 16% smaller); false: as the plain
  // stream only, as format 10 did.
  bool text_columns = true;
  // The tags sections of an archive are compressed with one zstd dictionary of at most this
  // many bytes (and at most an eighth of the tags it is trained on), trained by the writer on
  // its first blocks' tags (up to 256 blocks, or 4 MiB of tags) and kept in the file once, if
  // that makes the archive smaller; 0: no dictionary. Appended blocks use the archive's.
  std::size_t dictionary_bytes = 128 * 1024;
  // The name tables (White, Black, Event and Site values, each with the blocks holding it) are
  // written in chunks of about this many bytes, so that a search reads only the chunks it needs.
  std::size_t name_chunk_bytes = 64 * 1024;
  // The block table (each block's place, game count and date and result summary) is written in
  // chunks of this many blocks, so that opening an archive reads none of it and reading a game
  // reads one chunk (1 to 2^20).
  std::size_t table_chunk_blocks = 1024;
  // The writer keeps the name tables in memory up to about this many bytes, then sorts them into
  // a scratch file beside the output (deleted at once) and merges those at the end: memory stays
  // bounded however many distinct names there are. The archive does not depend on it.
  std::size_t name_memory_bytes = 64u << 20;
};

// A game that had to be kept verbatim, and why (file, game, line:column, what).
struct Problem {
  std::uint64_t game_number = 0;  // in the archive, 1-based
  Error error;
};

struct PackStats {
  std::uint64_t games = 0;
  std::uint64_t raw_games = 0;
  std::uint64_t plies = 0;
  std::uint64_t input_bytes = 0;
  std::uint64_t output_bytes = 0;
  std::uint64_t blocks = 0;
};

// Writes a new archive. Nothing appears at `path` until finish() succeeds: the archive is built
// in a temporary file beside it and renamed into place, so an interrupted write never leaves a
// file that looks complete. Memory stays bounded by a few blocks per thread.
class ArchiveWriter {
 public:
  static Result<std::unique_ptr<ArchiveWriter>> create(const std::string& path, WriterOptions options = {});
  ~ArchiveWriter();  // without finish(): the temporary file is removed

  // Reads every game of `reader` (parsing on all threads). Games that cannot be coded are kept
  // verbatim and reported to `on_problem` (in input order). Fails only on I/O errors.
  // `on_progress` is called after each block with the games and input bytes done so far.
  Status add_pgn(PgnReader& reader, const std::function<void(const Problem&)>& on_problem = {},
                 const std::function<void(std::uint64_t games, std::uint64_t bytes)>& on_progress = {});
  // Adds one game (fails with InvalidInput if it cannot be coded).
  Status add_game(const Game& game);
  // Copies every block of an existing archive without decoding its games (for append and merge).
  Status add_archive_blocks(const std::string& path);
  // Writes the index and the footer, syncs, and renames the file into place.
  Result<PackStats> finish();

  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

 private:
  ArchiveWriter() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A game read from an archive.
struct ArchiveGame {
  bool raw = false;
  Game game;             // !raw
  std::string raw_text;  // raw: the bytes exactly as they were in the input
};

// What find() looks for; every given field must match. Names (white, black, player, event,
// site) match as case-insensitive substrings; `exact_names` makes them exact (case-sensitive).
struct Query {
  std::optional<std::string> white, black, player, event, site;
  bool exact_names = false;
  std::optional<std::string> result;           // "1-0", "0-1", "1/2-1/2", "*"
  std::optional<std::string> eco;              // prefix, in either case: "B", "b9" or "B90"
  std::optional<std::string> date_from, date_to;  // "YYYY", "YYYY.MM" or "YYYY.MM.DD" (see query_error)
  std::vector<std::pair<std::string, std::string>> tags;  // exact key = value
};

// Why find() would refuse `q` (a date that is not YYYY, YYYY.MM or YYYY.MM.DD with a month
// 01-12 and a day 01-31; "-" or "/" may stand for "."), or "" if it is well formed.
std::string query_error(const Query& q);

// The archive format version this library writes (and the highest it reads); see the format
// specification, section 9.2.
inline constexpr std::uint16_t kFormatVersion = 11;

struct ArchiveInfo {
  std::uint16_t write_version = 0, read_version = 0;
  std::uint64_t file_bytes = 0, games = 0, blocks = 0, index_bytes = 0;
  // Stored (compressed) bytes by section, summed over blocks: tags, moves, structure, texts, raw;
  // and the same uncompressed.
  std::uint64_t section_stored[5] = {}, section_raw[5] = {};
  // Blocks whose section is stored as one zstd frame per group of games (format 6, encoding 2).
  std::uint64_t section_framed_blocks[5] = {};
  // Blocks whose section is stored in its column form (format 11, encodings 4 and 5: texts and
  // raw sections).
  std::uint64_t section_column_blocks[5] = {};
  // Tag dictionaries (format 8): how many, their bytes in the file, and the blocks whose tags
  // section is compressed with one.
  std::uint64_t dictionaries = 0, dictionary_bytes = 0, dictionary_blocks = 0;
  std::uint64_t block_overhead_bytes = 0;  // block headers, section tables, checksums
  // Name tables in chunks of their own (format 9): how many chunks, and their bytes in the file
  // (before format 9 the name tables are part of index_bytes).
  std::uint64_t name_chunks = 0, name_bytes = 0;
  // The block table in chunks of its own (format 10): how many, and their bytes in the file
  // (before format 10 the block table is part of index_bytes).
  std::uint64_t table_chunks = 0, table_bytes = 0;
};

class Archive {
 public:
  // Opens and checks the header, footer and index. Damage is Corruption naming the offset.
  static Result<std::unique_ptr<Archive>> open(const std::string& path);
  ~Archive();

  std::uint64_t game_count() const;
  std::uint64_t block_count() const;
  // Game `index` (0-based). Unknown numbers fail with InvalidInput; damage with Corruption
  // naming the block and its offset.
  Result<ArchiveGame> read_game(std::uint64_t index);
  // The same game as canonical PGN (a verbatim game as its bytes), as unpack writes it.
  Result<std::string> read_pgn(std::uint64_t index);
  // Only the tags of game `index` (raw games: none).
  Result<std::vector<Tag>> read_tags(std::uint64_t index);
  // Every game as PGN text (as read_pgn gives it), in order, decoded on `threads` threads (0: all
  // cores) block by block; `sink` receives consecutive chunks and returns false to stop early.
  // `progress` (optional) gets the number of games done. After the last game the name tables
  // (format 9) are checked too: damage there is Corruption, with every game delivered.
  Status export_pgn(const std::function<bool(std::string_view chunk)>& sink, unsigned threads = 0,
                    const std::function<void(std::uint64_t games_done)>& progress = {});
  // Every game in order. `visit` returns false to stop early.
  Status for_each(const std::function<bool(std::uint64_t index, ArchiveGame& game)>& visit);
  // Indices (0-based, ascending) of the games matching `q`; the index skips blocks that cannot
  // match and only the other blocks' tags are decoded. A malformed query (query_error) is
  // InvalidInput.
  Result<std::vector<std::uint64_t>> find(const Query& q);
  // The same answer by decoding the tags of every block (the reference for find()).
  Result<std::vector<std::uint64_t>> find_by_scan(const Query& q);
  // Sizes by section (reads every block header; checks every block checksum).
  Result<ArchiveInfo> info();
  // Checks every checksum and decodes every game on `threads` threads (0: all cores), as
  // export_pgn does (its PGN is dropped), then the name tables. Returns the first damage found,
  // in file order.
  Status verify(const std::function<void(std::uint64_t games_done)>& progress = {}, unsigned threads = 0);

  Archive(const Archive&) = delete;
  Archive& operator=(const Archive&) = delete;

 private:
  Archive() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What salvage_pgn recovered and what it had to skip.
struct SalvageReport {
  std::uint64_t games = 0;            // games written
  std::uint64_t blocks = 0;           // sound blocks found
  std::vector<std::string> skipped;   // damaged regions, with offsets
};

// Reads a damaged archive without its index: walks the file for blocks whose checksum holds,
// writes their games as PGN to `sink` in file order, and skips what does not check out. Fails
// only on I/O errors.
Result<SalvageReport> salvage_pgn(const std::string& path, const std::function<bool(std::string_view chunk)>& sink);

}  // namespace pgnarc
