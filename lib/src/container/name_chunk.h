// Name chunks (9.10): the index's name tables (players, that is White and Black values; Event and
// Site values; each with the blocks holding a game with it) as elements after the blocks, each
// chunk a run of one field's values (the players' in the order of their entries, the others in
// ascending byte order), listed by the index's name directory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "container/format.h"
#include "container/where.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

class WriterDictionary;
class ReaderDictionaries;

// One value of a name table and the blocks holding a game with it (ascending).
struct NameEntry {
  std::string value;
  std::vector<std::uint32_t> blocks;
};

// What the index says of a name chunk: where it is, how many values it holds, its first value.
struct NameChunkEntry {
  std::uint64_t offset = 0, size = 0, values = 0;
  std::string first;
};

// Appends an entry as the writer's scratch file holds it: the value, the number of postings, the
// first block and each next one as the gap to the one before less one.
void put_name_entry(std::string& out, std::string_view value, const std::vector<std::uint32_t>& blocks);
// Reads one entry in that form from the front of `in` into `value` (a view into `in`) and
// `postings`, each posting a block below `blocks` (a block count). Null, or why it cannot
// ("name entry runs past the end", "posting list runs past the end", "posting names a block
// that does not exist"); `in` is then left part way.
const char* read_name_entry(std::string_view& in, std::string_view& value, std::vector<std::uint32_t>& postings,
                            std::uint64_t blocks);

// The entries of a name chunk as it stores them (9.10), in three columns: each entry's `shared`
// (the bytes its value shares with the one before), each value's rest (terminated), each entry's
// postings.
class ChunkEntries {
 public:
  void add(std::string_view value, const std::vector<std::uint32_t>& blocks);
  std::uint64_t count() const { return count_; }
  // The bytes of the columns so far.
  std::size_t size() const { return shared_.size() + rests_.size() + postings_.size(); }
  // varint count, then the columns.
  std::string content() const;

 private:
  std::string shared_, rests_, postings_, previous_;
  std::uint64_t count_ = 0;
  std::uint32_t previous_first_ = 0;
};

// The name chunk element of `field` holding `entries`; compressed (with `dict`, the archive's tag
// dictionary, if given: names are tag values) where that is smaller.
std::string encode_name_chunk(int field, const ChunkEntries& entries, const StoreOptions& options,
                              const WriterDictionary* dict = nullptr);
// The size of the name chunk element at the start of `bytes` from its header (0 if it does not
// start with one or its sizes run past `bytes`); nothing is checked but the magic.
std::size_t name_chunk_element_size(std::string_view bytes);

// A name chunk element of `field` checked (checksum, header, sizes; NAME-1) and its entries
// decoded into `content`; `dictionaries`: the archive's (null if none).
Status decode_name_chunk_content(std::string_view element, const Where& where, int field,
                       const ReaderDictionaries* dictionaries, std::string& content);
// Calls visit(value, blocks) for each entry of a chunk's decoded `content`, checking them
// against the chunk's directory entry, the next chunk's first value (null for a field's last
// chunk) and the number of blocks (NAME-1); stops at the first damage.
using NameVisitor = std::function<void(std::string_view, const std::vector<std::uint32_t>&)>;
// `ascending`: the values must be strictly ascending, and below `next_first` (sorted_name_field). `entry`:
// the chunk's directory entry, whose count and first value the chunk must have (null: a chunk
// found without its index, by salvage).
Status visit_name_entries(std::string_view content, const std::string& where, const NameChunkEntry* entry,
                          const std::string* next_first, std::uint64_t blocks, bool ascending, const NameVisitor& visit);

// Both: the entries of the name chunk `element`, checked, into `out`.
Status decode_name_chunk(std::string_view element, const Where& where, int field, const NameChunkEntry& entry,
                       const std::string* next_first, std::uint64_t blocks, std::vector<NameEntry>& out,
                       const ReaderDictionaries* dictionaries = nullptr);

}  // namespace pgnarc::container
