// The index (9.5): after the last element, before the footer. Its body is three directories:
// the tag dictionaries, the block table chunks and, per name field, the name chunks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "container/block_table.h"
#include "container/format.h"
#include "container/name_chunk.h"
#include "container/value_tables.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// An index extension (9.5), which a later minor version of the format may define: an even ID is
// optional, skipped by a reader that does not know it; an odd one must be understood.
struct IndexExtension {
  std::uint64_t id = 0;
  std::string bytes;
};

struct Index {
  std::vector<DictionaryEntry> dictionaries;             // in file order
  std::vector<TableChunkEntry> table_chunks;             // in file order
  std::vector<NameChunkEntry> name_chunks[kNameFieldCount];  // per field, in file order
  std::vector<IndexExtension> extensions;                    // as read or to write, IDs ascending
  ValueTables tables;  // the value tables (9.4.8): extension 6 read, or none
};

std::string encode_index(const Index& index, const StoreOptions& options);
// Decodes and checks the index `bytes` found at `index_offset` (INDEX-1): the directories, each
// entry where the chain of elements from the blocks' end to the index puts it.
Status decode_index(std::string_view bytes, std::uint64_t index_offset, Index& out);

// The number of blocks the block table lists.
std::uint64_t block_total(const Index& index);
// Where the blocks and dictionaries end: the first name chunk, else the first table chunk, else
// the index.
std::uint64_t blocks_end(const Index& index, std::uint64_t index_offset);

}  // namespace pgnarc::container
