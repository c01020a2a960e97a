// The block table (9.11): each block's place, game count and summary, in block table chunk
// elements after the name chunks, so that opening an archive reads none of it and reading a
// game reads one chunk. Also the check that the blocks and dictionaries tile the file from the
// header on (INDEX-1).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "container/block_summary.h"
#include "container/format.h"
#include "container/where.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// A block as the block table lists it; first_game (0-based) follows from the counts before.
struct BlockEntry {
  std::uint64_t offset = 0, size = 0, first_game = 0;
  std::uint32_t games = 0;
  BlockSummary summary;
};
// A tag dictionary element as the index lists it.
struct DictionaryEntry {
  std::uint64_t offset = 0, size = 0;
  std::uint32_t id = 0;
};
// What the index says of a block table chunk: where it is, how many blocks it lists and the
// number (from 0) of its first block's first game.
struct TableChunkEntry {
  std::uint64_t offset = 0, size = 0, blocks = 0, first_game = 0;
};

// The block table chunk elements of `blocks`, `per_chunk` blocks each, to be written from
// `offset` on; their directory entries go to `chunks`.
std::string encode_block_table(const std::vector<BlockEntry>& blocks, std::uint64_t offset, std::uint64_t per_chunk,
                               const StoreOptions& options, std::vector<TableChunkEntry>& chunks);
// The size of the table chunk element at the start of `bytes` from its header (0 if it does not
// start with one or its sizes run past `bytes`); nothing is checked but the magic.
std::size_t table_chunk_element_size(std::string_view bytes);
// Checks `element`, the bytes of chunk `k` of `chunks` (TABLE-1: checksum, header, its entries
// against the directory; `games`: the file's total, `end`: where blocks and dictionaries end)
// and decodes its blocks' entries into `out` (first_game filled in). `where` prefixes errors.
Status decode_table_chunk(std::string_view element, const std::vector<TableChunkEntry>& chunks, std::size_t k,
                        std::uint64_t games, std::uint64_t end, const Where& where, std::vector<BlockEntry>& out);

// Checks that the dictionaries and blocks (in order, each given to add()) follow each other from
// the header on without gaps or overlaps, none past `end` (INDEX-1).
class LayoutCheck {
 public:
  LayoutCheck(const std::vector<DictionaryEntry>& dictionaries, std::uint64_t end) : dicts_(dictionaries), end_(end) {}
  // Null, or what is wrong.
  const char* add(const BlockEntry& e);
  // Every dictionary passed, and the blocks and dictionaries end at `end`.
  const char* finish();

 private:
  bool skip_dictionaries();
  const std::vector<DictionaryEntry>& dicts_;
  std::uint64_t end_, next_offset_ = kHeaderSize;
  std::size_t next_dict_ = 0;
};
// The whole check over blocks 0 to blocks - 1 (`entry(b)`); `path` prefixes errors.
Status check_block_layout(const std::vector<DictionaryEntry>& dictionaries, std::uint64_t end, std::uint64_t blocks,
                          const std::function<const BlockEntry&(std::uint64_t)>& entry, const std::string& path);

}  // namespace pgnarc::container
