// Writing archives (.pga): games in, indexed and checksummed blocks out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "pgnarc/export.h"
#include "pgnarc/game.h"
#include "pgnarc/pgn.h"
#include "pgnarc/status.h"

namespace pgnarc {

// How moves are coded. kFast (the default, format 1.2) gives each legal move the frequency of
// the fast model: an opening book's counts, else a few table lookups a move; kMax (also named
// kModel, as before) the move model's, which scores every legal move by some 80 features (the
// smallest archives, read at about a third of kFast's speed); kUniform codes every legal move as
// equally likely (the largest, the fastest to read and write).
enum class MoveCoding { kModel, kUniform, kFast, kMax = kModel };

struct PGNARC_EXPORT WriterOptions {
  unsigned threads = 0;                  // 0: all cores
  MoveCoding moves = MoveCoding::kFast;
  // The rules of the games read from PGN whose tags name none (a FICS crazyhouse file has no
  // Variant tag): the variant is kept with each such game, and a game with a Variant tag follows
  // its tag.
  Variant variant = Variant::kStandard;
  // Whether an existing file at the path is replaced (on finish()). false: create() fails if the
  // path exists, and finish() if a file appeared there meanwhile; nothing is then replaced.
  bool overwrite = true;
  // A block closes after this much input PGN (not counting clock and evaluation commands, and
  // comments of nothing else: a block of clocked games holds about as many games as one without)
  // ...
  std::size_t block_bytes = 128 * 1024;
  std::size_t block_games = 4096;        // ... or this many games
  int zstd_level = 9;                    // of the sections (12: about 1% smaller, 3x slower on long comments)
  // of the comments kept as text and the verbatim games (texts and raw sections): 15 makes
  // human annotations 1.6% and verbatim crazyhouse games 3.5% smaller than 9, for 1.3x and 2.5x
  // the time to pack them (19: 2.0% and 4.4%, for 1.6x and 4x)
  int text_level = 15;
  bool compress = true;                  // false: every section stored uncompressed
  // Each block keeps a position filter (spec 9.3.3): the pawns and material of its games' main
  // lines' positions past the opening, so that a position search skips the blocks that cannot
  // hold its position (about 7 bits a distinct key: tournament archives about a third larger).
  bool position_filter = false;
  // A block's comments (texts) or verbatim games (raw) larger than twice this are split into
  // zstd frames of about this many bytes (whole directory groups of games), so that reading one
  // game decompresses only its own frame; 0: one frame per section.
  std::size_t frame_bytes = 32 * 1024;
  // Comments and verbatim games are also compressed in their column form (wording and numbers
  // apart), kept where that is smaller; false: as the plain stream only.
  bool text_columns = true;
  // The tags sections of an archive are compressed with one zstd dictionary of at most this
  // many bytes: trained by the writer on its first blocks' tags (up to 256 blocks, or 4 MiB of
  // tags; past 256 blocks where their games repeat, up to 1,024 while their moves take at most
  // 2 MiB; of the sizes from a half to a sixteenth of the tags that makes them smallest, and at
  // most 256 KiB, whose training is quick), or, where those are all the archive's blocks, one
  // that holds their tags sections as they are (as much as fits), if that is smaller; kept in the
  // file once, if that makes the archive smaller; 0: no dictionary. Appended blocks use the
  // archive's.
  std::size_t dictionary_bytes = 1024 * 1024;
  // Where the writer's training holds all the archive's blocks (a new archive of up to 256
  // blocks, or 1,024 whose games repeat and whose moves take at most 2 MiB, and 4 MiB of tags, no
  // archive copied in) and their comments and verbatim games hold
  // more than 8 KiB and at most 4 MiB, those are compressed with a text dictionary that holds
  // them all (up to 1 MiB), if that makes the archive smaller (format 1.12: comments compress as one stream would,
  // each block still read alone); false (or dictionary_bytes 0): none, as readers of 1.11 read.
  bool text_dictionary = true;
  // In the same case, where the blocks' moves and structure sections hold more than 8 KiB and at
  // most 4 MiB, those are compressed with a moves dictionary that holds them all (up to 1 MiB;
  // where they take more, the last that fit and the codewords that two or more games have), if
  // that makes the archive smaller (format 1.13: a game repeated anywhere in the archive costs
  // a few bytes, each block still read alone); false (or dictionary_bytes 0): none, as readers
  // of 1.12 read.
  bool moves_dictionary = true;
  // The zstd level of the dictionary's element, which an archive holds once: the strongest by
  // default, as it takes little time.
  int dictionary_level = 19;
  // The name tables (players, Event and Site values, each with the blocks holding it) are
  // written in chunks of about this many bytes, so that a search reads only the chunks it needs.
  std::size_t name_chunk_bytes = 64 * 1024;
  // The block table (each block's place, game count and date and result summary) is written in
  // chunks of this many blocks, so that opening an archive reads none of it and reading a game
  // reads one chunk (1 to 2^20).
  std::size_t table_chunk_blocks = 1024;
  // The writer keeps the Event and Site tables in memory up to about this many bytes, then sorts
  // them into a scratch file beside the output (deleted at once) and merges those at the end:
  // memory stays bounded however many distinct events and sites there are. The archive does not
  // depend on it. The players' blocks are held the same way; their names, which the blocks name
  // by number, whole (about 20 bytes a player besides its name).
  std::size_t name_memory_bytes = 64u << 20;
  // The clocks and evaluations of a line that has a clock on every ply (a clock track) are
  // coded by the clock model, in the game's move codeword (format 1.3: lichess exports about 10%
  // smaller); false: as bytes of the structure stream for zstd, which readers of 1.0 to 1.2 read.
  bool model_clocks = true;
  // A `CurrentPosition` tag that is the FEN of the position the main line ends in is stored as
  // derived from the moves, and a tag value that begins with the game's White or Black value
  // (chess.com's Termination) may be stored as that name and a rest (format 1.4: chess.com
  // exports about 20% smaller); false: as text, which readers of 1.0 to 1.3 read.
  bool derive_tags = true;
  // With derive_tags, typed tag columns (ratings, other numbers, dates, times of day) may have
  // their codes coded by the arithmetic coder where that is smaller (format 1.5: lichess exports
  // about 1% smaller); false: as varints, which readers of 1.0 to 1.4 read.
  bool code_tags = true;
  // With code_tags, an opening's tags (ECO, Opening, Variation, SubVariation, ECOUrl) may be
  // stored once in a table of the archive and named by each game (format 1.6: lichess exports
  // about 2% smaller), where the first blocks show that this is smaller; false: as other tags,
  // which readers of 1.0 to 1.5 read. An append keeps the archive's table, or its having none,
  // and with table_tags false codes its new blocks without it.
  bool table_tags = true;
  // Xiangqi games in a block of the max or fast move coding have their moves coded by the
  // Xiangqi model (format 1.8: Xiangqi archives about a fifth smaller); false: every legal move
  // equally likely, which readers of 1.7 read.
  bool xiangqi_model = true;
  // With table_tags, a block's FEN tags of Xiangqi positions may be coded by the Xiangqi position
  // code (format 1.9: about 12 bytes a position, not 20); false: as text, which readers of 1.6
  // to 1.8 read. `pgnarc append` without --tags sets it false for an archive whose read version is
  // below 1.9.
  bool xiangqi_positions = true;
  // With xiangqi_model, Xiangqi games whose move texts are in GB18030 (GBK, GB2312) or Big5, or
  // name two horses, chariots or cannons on a file by their file, are coded and their texts
  // written back so (format 1.10); false: such games are kept verbatim, as readers of 1.9 read
  // them. `pgnarc append` without --xiangqi sets it false for an archive whose read version is
  // below 1.10.
  bool xiangqi_spellings = true;
  // With xiangqi_spellings, the Xiangqi positions of the model's opening book (the first 20 moves
  // of master games from the start position) take the book's frequencies (format 1.15: master
  // games' moves about 7% smaller); false: the model's, as readers of 1.10 to 1.14 read them.
  // `pgnarc append` without --xiangqi sets it false for an archive whose read version is below
  // 1.15.
  bool xiangqi_book = true;
  // With table_tags, a game whose tag values were written with quotes left unescaped in them or
  // backslashes that escape nothing (`[Event "Cup "A" 1990"]`, Big5's 許: Tag::unescaped) is
  // coded, those values written back as they were (format 1.11); false: as readers of 1.10 read
  // them, a value that escapes read too is written escaped and a game with a value that only its
  // bytes as written read is kept verbatim. `pgnarc append` without --tags sets it false for an
  // archive whose read version is below 1.11.
  bool unescaped_tags = true;
  // With table_tags, where the writer's training holds all the archive's blocks (as for
  // text_dictionary), an Event or Site tag may be stored as its entry in the archive's Event or
  // Site table, which holds each value once for search, in place of its value, where that makes
  // the tags at least 1/8 smaller (format 1.14: collections whose every game has an event of its
  // own, Xiangqi archives by player or event, 7-10% smaller); false: as other tags, which readers
  // of 1.13 read.
  bool name_entries = true;
};

// A game that had to be kept verbatim, and why (file, game, line:column, what).
struct PGNARC_EXPORT Problem {
  std::uint64_t game_number = 0;  // in the archive, 1-based
  Error error;
};

struct PGNARC_EXPORT PackStats {
  std::uint64_t games = 0;
  std::uint64_t raw_games = 0;
  std::uint64_t plies = 0;
  std::uint64_t input_bytes = 0;
  std::uint64_t output_bytes = 0;
  std::uint64_t blocks = 0;
};

// Writes a new archive. Nothing appears at `path` until finish() succeeds: the archive is built
// in a temporary file beside it ("<path>.tmp.<pid>") and renamed into place, so an interrupted
// write never leaves a file that looks complete. A symlink at `path` is followed (its target is
// replaced) and an existing archive's permissions, owner and group are kept. An existing file at
// `path` is locked (flock) from create() until the writer is destroyed: a second writer of the
// same file fails at once with IO ("is busy"), so that two appends cannot both succeed and lose
// one's games. "-" (standard output) and a path that is not a regular file (a character device,
// a FIFO) are written in order, directly. Memory stays bounded by a few blocks per thread. One
// writer is used from one thread at a time (it runs its own worker threads).
class PGNARC_EXPORT ArchiveWriter {
 public:
  static Result<std::unique_ptr<ArchiveWriter>> create(const std::string& path, WriterOptions options = {});
  ~ArchiveWriter();  // without finish(): the temporary file is removed

  // Reads every game of `reader` (parsing on all threads). Games that cannot be coded are kept
  // verbatim and reported to `on_problem` (in input order). Fails on I/O errors; with
  // InvalidInput where the reader refuses its input as not PGN text (binary data); and with
  // InvalidInput, before reading, when the reader's file is the output (through a symlink, hard
  // link or `..` path too): the archive would replace its own input.
  // `on_progress` is called after each block with the games and input bytes done so far.
  Status add_pgn(PgnReader& reader, const std::function<void(const Problem&)>& on_problem = {},
                 const std::function<void(std::uint64_t games, std::uint64_t bytes)>& on_progress = {});
  // Adds one game (fails with InvalidInput if it cannot be coded).
  Status add_game(const Game& game);
  // Copies every block of an existing archive without decoding its games (for append and merge):
  // the first archive copied as it is, with its players' table; the blocks of one copied after
  // players are known with their tags sections coded again with the joined players' table.
  // The output itself may be copied only first, before any game (appending to it); later it is
  // refused with InvalidInput, as add_pgn refuses it.
  Status add_archive_blocks(const std::string& path);
  // Writes the index and the footer, syncs, and renames the file into place.
  Result<PackStats> finish();
  // The temporary file being written ("" when the archive is written directly), so that a
  // program can remove it from a signal handler if it is stopped.
  const std::string& temp_path() const;

  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

 private:
  ArchiveWriter() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgnarc
