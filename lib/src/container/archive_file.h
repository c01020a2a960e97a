// An archive opened and checked once (header, footer, index, dictionaries), with its block
// table read chunk by chunk as needed and its name chunks read on demand. Its bytes are read
// with pread, each read checked, so that a file cut short meanwhile is an IO error. Reading, append,
// merge and info all go through it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_reader.h"
#include "container/block_table.h"
#include "container/file_header.h"
#include "container/index.h"
#include "container/name_chunk.h"
#include "container/tag_dictionary.h"
#include "container/tags_section.h"
#include "container/where.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

class ArchiveFile;

// The players' table (9.10) as player columns read it, or the Event or Site table as columns of
// its entries read it (9.4.3): entry by entry, each chunk read, checked and kept (up to a bound)
// the first time one of its entries is needed. Safe from several threads.
class PlayerTable : public PlayerNames {
 public:
  PlayerTable(const ArchiveFile& file, int field);
  Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const override;
  // Each chunk the entries fall in looked up once.
  Status check_ascending(const std::uint32_t* entries, std::size_t count, const std::string& where) const override;
  Status append_ascending(const std::uint32_t* entries, std::size_t count, const std::string& where, std::string& out,
                          std::vector<std::size_t>& ends) const override;
  // The number of entries.
  std::uint64_t size() const { return first_.back(); }
  // The index's value tables (9.4.8), if it has any.
  const ValueTables* value_tables() const override;
  const PlayerNames* field_names(int field) const override;

 private:
  struct Chunk {
    std::string bytes;             // the values, one after the other (at most 2^30 bytes: NAME-1)
    std::vector<std::size_t> end;  // where each ends in `bytes`
  };
  // Chunk k, read and checked on first use, then kept (up to a bound of all chunks' bytes).
  Result<std::shared_ptr<const Chunk>> chunk(std::size_t k) const;

  const ArchiveFile& file_;
  int field_;
  std::vector<std::uint64_t> first_;  // each chunk's first entry, then the number of entries
  mutable std::mutex mutex_;
  mutable std::map<std::size_t, std::shared_ptr<const Chunk>> cache_;
  mutable std::deque<std::size_t> order_;  // chunks in the order they were read
  mutable std::size_t cached_bytes_ = 0;
};

class ArchiveFile {
 public:
  // Maps `path` and checks header, footer, the index's checksum and directories, the tag
  // dictionaries, and that footer and index agree. Errors start with the path.
  static Result<std::unique_ptr<ArchiveFile>> open(const std::string& path);
  // The same, reading through `reader` (named `path` in errors).
  static Result<std::unique_ptr<ArchiveFile>> open(std::unique_ptr<common::FileReader> reader, const std::string& path);

  const std::string& path() const { return path_; }
  // The file's size when it was opened.
  std::uint64_t file_bytes() const { return file_->size(); }
  // The `size` bytes at `offset` (within the file's size at opening) into `out`.
  Status read(std::uint64_t offset, std::size_t size, std::string& out) const { return file_->read(offset, size, out); }
  FormatVersion write_version() const { return versions_.write; }
  FormatVersion read_version() const { return versions_.read; }
  const Footer& footer() const { return footer_; }
  const Index& index() const { return index_; }
  const ReaderDictionaries& dictionaries() const { return dictionaries_; }
  std::uint64_t games() const { return footer_.games; }
  std::uint32_t blocks() const { return static_cast<std::uint32_t>(footer_.blocks); }

  // The block table. A chunk is read and checked (TABLE-1) the first time a block of it is
  // needed; need_all() reads every chunk and checks that blocks and dictionaries tile the file
  // (INDEX-1), as every whole-archive pass does first.
  Status need_chunk(std::size_t k);
  Status need_all();
  std::size_t chunk_of(std::uint32_t block) const;
  // The block holding game `game` (below games()), its chunk read.
  Result<std::uint32_t> block_of(std::uint64_t game);
  // Block b's entry; its chunk must have been read.
  const BlockEntry& entry(std::uint32_t b) const {
    const std::size_t k = chunk_of(b);
    return table_[k][b - chunk_first_block_[k]];
  }
  // Block b's bytes into `out` (its chunk must have been read). IO if the file was cut short
  // since it was opened. Safe from several threads.
  Status read_block(std::uint32_t b, std::string& out) const;
  // "PATH: block B at offset O": what errors about block b start with, and that offset.
  Where where(std::uint32_t b) const;

  // Name chunk k of `field`, checked (NAME-1) and decoded into `content`.
  Status decode_name_chunk_content(int field, std::size_t k, std::string& content) const;
  // The entries of that chunk's `content`, checked against the directory and visited.
  Status visit_name_entries(int field, std::size_t k, std::string_view content, const NameVisitor& visit) const;
  // Every name chunk checked (verify, the end of an export).
  Status check_name_chunks() const;
  Where name_chunk_where(int field, std::size_t k) const;
  // The players' table, for player columns (DecodedBlock::players), and through it the Event and
  // Site tables, for columns of their entries.
  const PlayerTable* players() const { return names_[kPlayerField].get(); }
  const PlayerTable* names(int field) const { return names_[field].get(); }

 private:
  ArchiveFile() = default;
  std::string path_;
  std::unique_ptr<common::FileReader> file_;
  FileVersions versions_;
  Footer footer_;
  Index index_;
  ReaderDictionaries dictionaries_;
  std::uint64_t end_of_blocks_ = 0;                // where blocks and dictionaries end
  std::vector<std::vector<BlockEntry>> table_;     // per chunk; empty until read
  std::vector<std::uint64_t> chunk_first_block_;   // per chunk, then the block count
  bool layout_checked_ = false;
  std::unique_ptr<PlayerTable> names_[kNameFieldCount];
};

}  // namespace pgnarc::container
