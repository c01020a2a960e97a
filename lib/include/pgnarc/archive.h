// Reading archives (.pga): games by number, in order, or by tag.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/export.h"
#include "pgnarc/game.h"
#include "pgnarc/query.h"
#include "pgnarc/status.h"
#include "pgnarc/version.h"

namespace pgnarc {

// The sections of a block, in the order they are stored.
enum class Section : std::uint8_t {
  Tags,       // tag keys and values, by column
  Moves,      // the games' move codewords
  Structure,  // results, null moves, where comments, NAGs and variations sit
  Texts,      // comment texts
  Raw,        // games kept verbatim
};
inline constexpr std::size_t kSectionCount = 5;
inline constexpr std::array<Section, kSectionCount> kAllSections = {Section::Tags, Section::Moves, Section::Structure,
                                                                    Section::Texts, Section::Raw};
// "tags", "moves", "structure", "texts", "raw".
PGNARC_EXPORT const char* section_name(Section s);

// One section's figures, summed over the blocks.
struct PGNARC_EXPORT SectionInfo {
  std::uint64_t stored = 0;         // bytes in the file
  std::uint64_t raw = 0;            // bytes uncompressed
  std::uint64_t framed_blocks = 0;  // blocks storing it as one zstd frame per group of games
  std::uint64_t column_blocks = 0;  // blocks storing it in its column form (wording and numbers apart)
  std::uint64_t dictionary_blocks = 0;  // blocks compressing it with one of the archive's dictionaries (moves, structure, texts, raw)
};

struct PGNARC_EXPORT ArchiveInfo {
  // The file header's versions (9.2): of the writer that made the file, and the oldest version a
  // reader must implement to read all of it.
  FormatVersion write_version, read_version;
  std::uint64_t file_bytes = 0, games = 0, blocks = 0;
  std::array<SectionInfo, kSectionCount> sections{};
  const SectionInfo& section(Section s) const { return sections[static_cast<std::size_t>(s)]; }
  std::uint64_t header_bytes = 0, footer_bytes = 0;  // the file's fixed parts
  std::uint64_t index_bytes = 0;
  std::uint64_t block_overhead_bytes = 0;  // block headers, section tables, checksums (and optional sections of a later minor version)
  // The dictionaries (tag and text dictionaries): how many, their bytes in the file, and the
  // blocks whose tags section is compressed with one.
  std::uint64_t dictionaries = 0, dictionary_bytes = 0, dictionary_blocks = 0;
  // The name tables (which blocks hold each player, Event and Site value): chunks, bytes.
  std::uint64_t name_chunks = 0, name_bytes = 0;
  // The block table (each block's place, games, dates and results): chunks, bytes.
  std::uint64_t table_chunks = 0, table_bytes = 0;
  // Plies of all lines, variations and null moves included (as pack counts "plies coded"), and
  // games kept verbatim: counted from the moves and raw sections, without replaying a move.
  std::uint64_t plies = 0, verbatim_games = 0;
  // Blocks with a position filter (pack --position-filter), and the filters' bytes before
  // compression (they are part of the structure sections).
  std::uint64_t position_filter_blocks = 0, position_filter_bytes = 0;
  // Blocks by the move coder of their codewords (spec 7.5): uniform, the move model (pack --moves
  // max), the fast model.
  std::uint64_t uniform_blocks = 0, model_blocks = 0, fast_blocks = 0;
  // Blocks whose clock tracks the clock model codes (move codec 8, format 1.3).
  std::uint64_t clock_model_blocks = 0;
  // The value tables of an opening's tags (format 1.6): their entries, and their bytes in the
  // index (part of index_bytes); blocks with a column naming their entries.
  std::uint64_t value_table_entries = 0, value_table_bytes = 0, value_table_blocks = 0;
};

// The moves section's bits per ply (for display): its stored bytes * 8 / plies (the codewords,
// which hold the values of record comments besides the moves, and in blocks of the clock model
// the clock tracks' times and evaluations), or, where a block's moves are compressed with a
// moves dictionary (whose element holds them), its bytes before compression; 0 without plies.
PGNARC_EXPORT double moves_bits_per_ply(const ArchiveInfo& info);
// The figures as one line of JSON, as `pgnarc info --json` prints it: the fields above under
// their own names (write_version, read_version, file_bytes, games, verbatim_games, blocks, plies,
// index_bytes, block_overhead_bytes, dictionaries, dictionary_bytes, dictionary_blocks,
// name_chunks, name_bytes, table_chunks, table_bytes, moves_bits_per_ply (four places),
// position_filter_blocks, position_filter_bytes), then sections.<name>.{stored, raw,
// framed_blocks, column_blocks, dictionary_blocks}, move_coder_blocks.{fast, max, uniform}, clock_model_blocks,
// value_table_entries, value_table_bytes and value_table_blocks; ", " and ": " between items.
PGNARC_EXPORT std::string archive_info_json(const ArchiveInfo& info);

// A game whose main line reaches a position (Archive::find_position).
struct PGNARC_EXPORT PositionHit {
  std::uint64_t game = 0;  // 0-based
  // The main line's move from the position where the line first reaches it: Move::none() where
  // the line ends there, Move::null() for a null move.
  Move next;
  // The Result tag's, where it is 1-0, 0-1, 1/2-1/2 or *; else the termination marker's.
  GameResult result = GameResult::kNone;
  // The rating of the player to move there (WhiteElo or BlackElo as a number from 1 to 9999),
  // or 0.
  std::uint16_t elo = 0;
};

struct PGNARC_EXPORT PositionHits {
  std::vector<PositionHit> hits;     // ascending by game
  std::uint64_t verbatim_games = 0;  // games kept verbatim, which have no positions to search
  // Blocks whose games were not decoded, their position filters (pack --position-filter)
  // showing that none reaches the position, and blocks with a filter.
  std::uint64_t blocks_skipped = 0, blocks_filtered = 0;
};

// One move of a position's tree: the games that played it there and how they ended.
struct PGNARC_EXPORT TreeMove {
  Move move;
  std::string san, uci;
  std::uint64_t games = 0, white = 0, draws = 0, black = 0;  // white, draws, black: by result
  std::uint64_t elo_sum = 0, elo_games = 0;  // ratings of the player making the move, where known

  // Their average rating, rounded to the nearest whole number (halves up); -1 if none is known.
  std::int64_t average_elo() const {
    return elo_games == 0 ? -1 : static_cast<std::int64_t>((2 * elo_sum + elo_games) / (2 * elo_games));
  }
};

// What was played from a position (as SCID's tree and lichess's opening explorer show it).
struct PGNARC_EXPORT PositionTree {
  std::uint64_t games = 0, white = 0, draws = 0, black = 0;  // every game that reaches it
  std::vector<TreeMove> moves;  // most games first; a tie in canonical move order
  std::uint64_t verbatim_games = 0;
};
// The tree of `target` from a search's hits (a null move counts under the move "--").
PGNARC_EXPORT PositionTree position_tree(const Position& target, const PositionHits& hits);
// The tree of the Xiangqi position of the FEN `fen` from find_xiangqi_position's hits: each move
// named in WXF ("C2.5", its san) and ICCS ("h2e2", its uci); white and black count Red's and
// Black's wins. A FEN that is not a Xiangqi FEN is InvalidInput.
PGNARC_EXPORT Result<PositionTree> xiangqi_position_tree(std::string_view fen, const PositionHits& hits);
// The Xiangqi FEN of the position after the ICCS moves `moves` ("1. h2e2 h9g7", separated by white
// space; move numbers skipped, as play_san_line skips them) from the Xiangqi FEN `fen` (its clocks
// counted on): InvalidInput on a bad FEN, or naming the first move ("move 2 'h2e3': ...") that is
// not ICCS or not legal where it is played.
PGNARC_EXPORT Result<std::string> xiangqi_fen_after(std::string_view fen, std::string_view moves);
// The tree as one line of JSON, as `pgnarc tree --json` prints it: {"position": FEN, "games",
// "white", "draws", "black", "moves": [{"san", "uci", "games", "white", "draws", "black",
// "avg_elo"}]} (avg_elo null where no game gives a rating); at most `limit` moves (0: all).
PGNARC_EXPORT std::string position_tree_json(const Position& target, const PositionTree& tree, std::size_t limit = 0);
// The same with the position given as its FEN (a Xiangqi position's).
PGNARC_EXPORT std::string position_tree_json(std::string_view fen, const PositionTree& tree, std::size_t limit = 0);

// An open archive, read with checked reads (a file cut short meanwhile is an I/O error). An
// Archive keeps the block it read last (and search caches), so one Archive is used by one thread
// at a time; threads that read at once each open their own (opening reads only the header,
// footer and the start of the index).
// export_pgn and verify run worker threads of their own.
class PGNARC_EXPORT Archive {
 public:
  // Opens and checks the header, footer and index. Damage is Corruption naming the offset; an
  // archive of another format version is Unsupported.
  static Result<std::unique_ptr<Archive>> open(const std::string& path);
  // Reads `size` bytes at `offset` into `out` (replacing its contents).
  using ReadFunction = std::function<Status(std::uint64_t offset, std::size_t size, std::string& out)>;
  // The same for an archive of `size` bytes read through `read` in place of a file (object
  // storage by byte ranges, a Python file object); `name` names it in errors. `read` must be
  // safe to call from several threads at once: export_pgn, verify and for_each_block read blocks
  // on their worker threads.
  static Result<std::unique_ptr<Archive>> open(const std::string& name, std::uint64_t size, ReadFunction read);
  ~Archive();

  std::uint64_t game_count() const;
  std::uint64_t block_count() const;
  // The index (0-based) of each block's first game, in block order, then game_count(): block b
  // holds games [starts[b], starts[b + 1]). Reads the whole block table.
  Result<std::vector<std::uint64_t>> block_starts();
  // Game `index` (0-based). Unknown numbers fail with InvalidInput; damage with Corruption
  // naming the block and its offset.
  Result<ArchiveGame> read_game(std::uint64_t index);
  // The same game as canonical PGN (a verbatim game as its bytes), as unpack writes it.
  Result<std::string> read_pgn(std::uint64_t index);
  // Only the tags of game `index` (a verbatim game: the tag pairs that could be read from its bytes).
  // A tag derived from the moves (format 1.4's CurrentPosition) has its game decoded for it.
  Result<std::vector<Tag>> read_tags(std::uint64_t index);
  // Only the tags of game `index` whose key is one of `keys`, in the game's order: its moves are
  // decoded only where one of those is derived from them (a list of games by a few columns reads
  // no moves).
  Result<std::vector<Tag>> read_tags(std::uint64_t index, const std::vector<std::string>& keys);
  // Every game as PGN text (as read_pgn gives it), in order, decoded on `threads` threads (0: all
  // cores) block by block; `sink` receives consecutive chunks and returns false to stop early.
  // `progress` (optional) gets the number of games done. After the last game the name tables
  // are checked too: damage there is Corruption, with every game delivered.
  Status export_pgn(const std::function<bool(std::string_view chunk)>& sink, unsigned threads = 0,
                    const std::function<void(std::uint64_t games_done)>& progress = {});
  // Every game in order. `visit` returns false to stop early.
  Status for_each(const std::function<bool(std::uint64_t index, ArchiveGame& game)>& visit);
  // Every game in order, decoded block by block on `threads` threads (0: all cores) with every
  // check of export_pgn: `visit` gets each block's games and the index of its first (0-based),
  // in order, on the calling thread, and returns false to stop early. After the last block the
  // name tables are checked too.
  Status for_each_block(const std::function<bool(std::uint64_t first, std::vector<ArchiveGame>& games)>& visit,
                        unsigned threads = 0);
  // Indices (0-based, ascending) of the games matching `q`; the index skips blocks that cannot
  // match and only the other blocks' tags are decoded. A malformed query (query_error) is
  // InvalidInput.
  Result<std::vector<std::uint64_t>> find(const Query& q);
  // The games whose main line reaches `target` (same_position: move counters aside), each with
  // the move played from it the first time, decoded on `threads` threads (0: all cores).
  // `progress` (optional) gets the number of games searched.
  Result<PositionHits> find_position(const Position& target, unsigned threads = 0,
                                     const std::function<void(std::uint64_t games_done)>& progress = {});
  // The same for the Xiangqi position of the FEN `fen` (format 5.7: its placement and side to
  // move, the clocks aside) among the Xiangqi games: each hit's move is a Move::xiangqi, its
  // rating RedElo's or BlackElo's. Only the blocks that hold Xiangqi games are decoded. A FEN
  // that is not a Xiangqi FEN is InvalidInput.
  Result<PositionHits> find_xiangqi_position(std::string_view fen, unsigned threads = 0,
                                             const std::function<void(std::uint64_t games_done)>& progress = {});
  // Sizes by section, plies and verbatim games (reads every block's checksum, section table and
  // its moves and raw sections, none of its games decoded; `progress` gets the games done).
  Result<ArchiveInfo> info(const std::function<void(std::uint64_t games_done)>& progress = {});
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

}  // namespace pgnarc
