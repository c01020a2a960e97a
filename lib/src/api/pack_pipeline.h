// The pack pipeline's unit of work: a batch of PGN games parsed, coded and made into a block,
// on a worker thread; the writer places the blocks in order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codec/codec.h"
#include "container/archive_builder.h"
#include "container/block_builder.h"
#include "container/format.h"
#include "container/tag_dictionary.h"
#include "pgnarc/archive_writer.h"
#include "pgnarc/pgn.h"

namespace pgnarc::api {

// Whether the blocks `options` make may hold tag values written without escapes (Tag::unescaped,
// 9.4.10): format 1.11, under --tags tables.
bool keeps_unescaped_tags(const WriterOptions& options);

// Whether the blocks `options` make may name entries of the Event and Site tables where the
// writer holds all of them (WriterOptions::name_entries): format 1.14, under --tags names.
bool keeps_name_entries(const WriterOptions& options);

// The container's view of the writer's options.
container::StoreOptions store_options(const WriterOptions& options);
// The block coder of WriterOptions::moves.
codec::MoveCoder move_coder(const WriterOptions& options);
// Sets how `b` codes its games and tags by `options`: the move coder, the clock model, derived
// tags and, with them, coded tag columns.
void set_block_coding(const WriterOptions& options, container::BlockBuilder& b);

using container::BlockNames;
void collect_names(const std::vector<Tag>& tags, BlockNames& names);

// One encoded block and what the index needs to know of it. The workers code the games; the
// writer then gives the White and Black values their players' table entries in block order,
// which the tags section needs, and finishes the block (on the workers again), or, before it has
// decided on a tag dictionary, holds it unfinished with its tags section (training input).
struct EncodedBlock {
  std::string bytes;  // once finished
  container::BlockBuilder builder;
  std::string tags_raw;
  std::uint32_t games = 0;
  container::BlockSummary summary;
  BlockNames names;
  std::vector<Problem> problems;  // game_number relative to the block (0-based) until placed
  codec::CodecStats stats;
};

// The size of a tags section or table in the archive, as the writer's choices measure it before
// there is a dictionary: compressed alone where blocks are compressed.
std::size_t stored_size(std::string_view bytes, const container::StoreOptions& store);

// Gives each of `blocks` (an archive's all, held unfinished) the entries of its Event and Site
// tags in the tables their names make (BlockBuilder::names) and makes its tags section again
// (on `workers` threads), where that makes their tags sections compressed alone at least 1/8
// smaller; returns the sections' bytes.
std::size_t number_names(std::vector<EncodedBlock>& blocks, const container::StoreOptions& store, unsigned workers);

// The block of `games` (read from `source`): each parsed and coded, or kept verbatim with its
// problem if it cannot be; not finished.
EncodedBlock encode_block(std::vector<PgnReader::RawGame> games, const std::string& source, const WriterOptions& options);

}  // namespace pgnarc::api
