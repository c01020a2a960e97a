// What an open Archive holds: the checked file, the block last decoded with where the next game
// in it starts, and the name chunks a search has read.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "container/archive_file.h"
#include "api/query_match.h"
#include "container/block_reader.h"
#include "pgnarc/archive.h"

namespace pgnarc {

struct PGNARC_HIDDEN Archive::Impl {
  // An Archive over an opened file (or the error of opening it).
  static Result<std::unique_ptr<Archive>> from_file(Result<std::unique_ptr<container::ArchiveFile>> file);

  std::unique_ptr<container::ArchiveFile> file;

  // The last block decoded. Its tags are decoded all at once only from the third read in it
  // (or at once for a pass): a random read writes out only its own games' tags (those of the
  // games before it in its directory group too), in `window`.
  std::uint32_t cached = ~0u;
  container::Where where;  // of the block being loaded or loaded ("PATH: block B at offset O"), for errors
  bool tags_decoded = false;
  std::uint32_t reads = 0;  // of the block's tags since it was loaded
  std::string block_bytes;  // as read from the file: `block` keeps views into it
  container::DecodedBlock block;
  container::BlockTags window;
  std::uint32_t window_from = 1, window_to = 0;  // the games `window` holds (none: from > to)
  // Where the game after the last one decoded begins (a pass in order starts each game there).
  std::uint32_t after_game = ~0u;
  codec::CodecCursor after_cursor;

  // Loads block b (its table chunk read), lazily: group-framed sections stay compressed until a
  // game of their group is read.
  Status load(std::uint32_t b, bool all_tags = false);
  // Game j of the loaded block b: its tags and moves, every check made. `hints`: if given,
  // receives the SAN hints of the game's moves (codec/record/decode_game_with_hints.h).
  Result<ArchiveGame> decode(std::uint32_t b, std::uint32_t j, std::vector<std::uint8_t>* hints = nullptr);
  // Decodes the loaded block's tags section, if not yet done.
  Status decode_tags();
  // The tags of games `from` to `to` of the loaded block (in the block's whole tags, or in
  // `window`); valid until the next block is loaded or tags are asked for again.
  Result<const container::BlockTags*> tags_of(std::uint32_t from, std::uint32_t to);
  // Loads the block of game `index` and gives its number and the game's place in it.
  Result<std::pair<std::uint32_t, std::uint32_t>> locate(std::uint64_t index);

  // Name chunks read and checked once, their decoded entries kept for later searches up to
  // kChunkCacheBytes (oldest dropped first): a session of searches reads each chunk once.
  static constexpr std::size_t kChunkCacheBytes = 16u << 20;
  std::map<std::pair<int, std::size_t>, std::string> chunk_cache;
  std::deque<std::pair<int, std::size_t>> chunk_order;
  std::size_t chunk_cache_bytes = 0;
  Status visit_chunk(int field, std::size_t k, const container::NameVisitor& visit);

  // The games matching `q` (query.cpp).
  Result<std::vector<std::uint64_t>> search(const Query& q);
  // Calls visit(value, blocks) for the values of `field` that can equal `want` (with `exact`)
  // or that can contain it, chunk by chunk (an exact Event or Site reads the one chunk whose
  // range holds it; a player, every chunk of the players' table).
  Status for_names(int field, const std::string& want, bool exact, const container::NameVisitor& visit);
  // Blocks that can hold a match, from the name chunks and the block summaries.
  Result<std::vector<bool>> candidates(const Query& q, const api::QueryNames& names);

 private:
  // The first game a read of game j of the loaded block decodes (its tags needed).
  std::uint32_t first_to_decode(std::uint32_t j) const;
  // Where game j of the loaded block b starts, `tags` holding the games' from first_to_decode(j).
  Result<codec::CodecCursor> start_of(std::uint32_t b, std::uint32_t j, const container::BlockTags& tags);
};

}  // namespace pgnarc
