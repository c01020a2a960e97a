// Archive surgery for tests and the conformance vector generator: an archive's parts decoded
// with the container's own decoders, changed, and put together again with every checksum right,
// so that a test damages exactly the one thing it is about.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codec/codec.h"
#include "container/block_table.h"
#include "container/file_header.h"
#include "container/index.h"
#include "container/name_chunk.h"
#include "container/tag_dictionary.h"
#include "pgnarc/game.h"

namespace pgnarc::test {

// The options of the conformance settings as the container sees them: sections stored.
container::StoreOptions stored_sections();

// An archive's footer, index and block table (read from its chunks). Aborts, saying why, if
// the archive does not decode.
struct ArchiveParts {
  container::Footer footer;
  container::Index index;
  std::vector<container::BlockEntry> blocks;
};
ArchiveParts parts_of(std::string_view pga);

// `pga` up to `tail_at`, then `tail`, the block table of `blocks` (chunks of `per_chunk`), the
// index of `index` (its table chunks made here) and a footer to match (games counted from
// `blocks`).
std::string rebuild(std::string_view pga, std::uint64_t tail_at, std::string_view tail, container::Index index,
                    const std::vector<container::BlockEntry>& blocks, std::uint64_t per_chunk = 1024);
// `pga` with its block table and index made again from `parts` (the name chunks kept).
std::string with_tables(std::string_view pga, const ArchiveParts& parts);
// `pga` with only its index made again from `index` (the chunks as they are) and the footer
// to match.
std::string with_index(std::string_view pga, const container::Index& index);

// `pga` with its name chunks read back, changed by edit(field, chunk, entries) and written again
// after the blocks (stored), the index and footer made to match.
std::string edit_names(std::string_view pga,
                       const std::function<void(int, std::size_t, std::vector<container::NameEntry>&)>& edit);
// `pga` with the bytes of its first block (without the checksum) changed by `edit`, which must
// keep their size, and the block's checksum made right.
std::string edit_block(std::string pga, const std::function<void(std::string&)>& edit);

// `pga`, of one block and no name chunks, with the block's bytes (without the checksum) changed
// by `edit`, which may change their size: its checksum, block entry, table, index and footer
// made to match.
std::string resize_block(const std::string& pga, const std::function<void(std::string&)>& edit);

// An archive of one block made from hand-made streams and tags (one of each per game), with
// valid checksums; `trailing_moves` goes into the moves section after the last game; with
// `dict`, the tags section is compressed with it.
std::string archive_of(const std::vector<codec::CodecStreams>& games, const std::vector<std::vector<Tag>>& tags,
                       const std::string& trailing_moves = "", const container::WriterDictionary* dict = nullptr);

// The first 32 bytes of `pga` given a right checksum.
std::string fix_header_checksum(std::string pga);
// Where section `s` starts in `block` (block bytes) and its stored size.
std::pair<std::size_t, std::size_t> section_of(std::string_view block, int s);

}  // namespace pgnarc::test
