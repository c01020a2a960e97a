// An archive as it is written: the writing twin of ArchiveFile. Blocks and tag dictionaries are
// placed in the order they come; blocks of another archive are copied whole (their tags
// sections coded again where the players' table is joined); finish() writes the name chunks,
// the block table, the index and the footer, and the header again with the read version the
// blocks need (2.1). What goes into a block, and when, is the caller's (api's ArchiveWriter).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_writer.h"
#include "container/block_summary.h"
#include "container/block_table.h"
#include "container/format.h"
#include "container/index.h"
#include "container/name_collector.h"
#include "container/player_numbers.h"
#include "container/tag_dictionary.h"
#include "container/value_tables.h"
#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// The Event and Site values of a block's games, for the name chunks (the players' table is the
// builder's: its entries are numbered in the order the games name them).
using BlockNames = std::set<std::string>[kNameFieldCount];

struct BuilderOptions {
  StoreOptions store;
  bool overwrite = true;                     // replace a file at the path (AtomicFile::create)
  std::uint64_t table_chunk_blocks = 1;      // blocks a block table chunk holds (9.11)
  std::size_t name_chunk_bytes = 1;          // a name chunk is closed once its entries reach this
  std::size_t name_memory_bytes = 1;         // the name collector's memory budget
};

class ArchiveBuilder {
 public:
  // Opens `path` as AtomicFile::create does and writes the file header: read version 1.0, to be
  // written again by finish(), or, where the file cannot be written again (a stream), this
  // library's own version. Fails with IO naming the file.
  static Result<std::unique_ptr<ArchiveBuilder>> create(const std::string& path, const BuilderOptions& options);
  ArchiveBuilder(const ArchiveBuilder&) = delete;
  ArchiveBuilder& operator=(const ArchiveBuilder&) = delete;

  // The temporary file being written ("" when the archive is written directly).
  const std::string& temp_path() const { return file_->temp_path(); }
  // The games and blocks placed so far.
  std::uint64_t games() const { return games_; }
  std::uint32_t blocks() const { return static_cast<std::uint32_t>(blocks_.size()); }
  // The players' table (9.10) so far.
  const PlayerNumbers& players() const { return players_; }
  // The value table (9.4.8) so far: inactive (no keys) where the archive has none.
  const TableBuilder& tables() const { return tables_; }
  // Gives the archive the value table `tables` (the one the held blocks were numbered into), or
  // none (an inactive one).
  void set_tables(TableBuilder tables) { tables_ = std::move(tables); }
  // Each game's entry of the value table (new entries enter it), with the table's keys.
  TableColumns number_tables(const std::vector<std::vector<Tag>>& games) {
    return TableColumns{tables_.keys(), tables_.number(games)};
  }

  // The players' table entries of the White and Black tags of `games`, in order, into `out`;
  // values not met before enter the table. InvalidInput once the table is full.
  Status number_players(const std::vector<std::vector<Tag>>& games, std::vector<std::uint32_t>& out);
  // Places the finished block `bytes` of `games` games. `names`: the Event and Site values of
  // its games, `players` its players' table entries (null: none; a copied archive's come from
  // its own name chunks). Fails with IO.
  Status add_block(std::string_view bytes, std::uint32_t games, const BlockSummary& summary, const BlockNames* names,
                   const std::vector<std::uint32_t>* players);
  // Places the element of `dictionary`; later blocks and name chunks may be compressed with it.
  Status add_dictionary(std::string_view element, std::shared_ptr<const WriterDictionary> dictionary);

  // What copy_archive() took from an archive: its last tag dictionary (null if it has none),
  // its games and its size in bytes.
  struct Copied {
    std::shared_ptr<const WriterDictionary> dictionary;
    std::uint64_t games = 0, file_bytes = 0;
  };
  // The blocks of the archive at `path` copied after those placed, with its dictionaries (one
  // already here with the same ID must be the same dictionary) and name tables, renumbered. Its
  // players' table is followed entry for entry while this one is empty, its blocks then copied
  // as they are; else merged into this one by value, each block's tags section coded again
  // with this table's entries (9.8). Errors as ArchiveFile's, and InvalidInput where the two
  // cannot be joined.
  Status copy_archive(const std::string& path, Copied& out);

  // Writes the name chunks (compressed with `names_dictionary` where given and smaller), the
  // block table, the index and the footer, the header again, syncs and puts the file in place.
  // Returns the file's size. Fails with IO, or InvalidInput for a name entry too large.
  Result<std::uint64_t> finish(const WriterDictionary* names_dictionary);

 private:
  ArchiveBuilder(common::AtomicFile file, const BuilderOptions& options);
  Status write_names(const WriterDictionary* dictionary);

  std::optional<common::AtomicFile> file_;
  BuilderOptions options_;
  std::unique_ptr<NameCollector> names_;
  std::vector<BlockEntry> blocks_;
  Index index_;
  std::uint64_t games_ = 0;
  // The oldest 1.y that reads every block placed (2.1).
  std::uint8_t read_minor_ = 0;
  // Every dictionary in the file: ID -> dictionary.
  std::map<std::uint32_t, std::shared_ptr<const WriterDictionary>> dictionaries_;
  // The players' table (9.10): every White and Black value in order of first use. The blocks
  // naming each entry go to the name collector as field 0, keyed by the entry's number
  // (player_key), so that they are held in bounded memory.
  PlayerNumbers players_;
  // The value table (9.4.8), written as an index extension by finish().
  TableBuilder tables_;
};

}  // namespace pgnarc::container
