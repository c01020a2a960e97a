// The container format (format-spec/pgnarc-format.md, section 9): file header, blocks,
// sections, index, footer. Internal to the library.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codec/codec.h"
#include "pgnarc/archive.h"
#include "pgnarc/archive_writer.h"
#include "pgnarc/salvage.h"
#include "pgnarc/version.h"

namespace pgnarc::container {

inline constexpr char kFileMagic[8] = {'\x89', 'P', 'G', 'A', '\r', '\n', '\x1a', '\n'};
inline constexpr char kBlockMagic[4] = {'P', 'G', 'A', 'B'};
inline constexpr char kIndexMagic[4] = {'P', 'G', 'A', 'I'};
inline constexpr char kFooterMagic[4] = {'P', 'G', 'A', 'F'};
inline constexpr char kDictionaryMagic[4] = {'P', 'G', 'A', 'D'};
inline constexpr std::uint16_t kWriteVersion = kFormatVersion;
inline constexpr std::uint16_t kReadVersion = kFormatVersion;  // the reader version a file of this writer needs
inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::size_t kFooterSize = 48;
inline constexpr std::size_t kBlockHeaderSize = 12;
inline constexpr std::size_t kSectionEntrySize = 12;
inline constexpr int kSections = 5;  // tags, moves, structure, texts, raw
inline constexpr std::uint32_t kMaxSectionBytes = 256u << 20;
inline constexpr std::uint32_t kMaxBlockGames = 1u << 20;
// Section encodings (9.3): stored, one zstd frame, or (layout 1 moves, texts and raw sections)
// one zstd frame per directory group, so that one game's group decompresses on its own.
inline constexpr std::uint8_t kStored = 0, kZstd = 1, kZstdByGroup = 2;
// Encoding 3 (format 8, tags sections only): one zstd frame compressed with the archive's tag
// dictionary that its frame header names.
inline constexpr std::uint8_t kZstdDictionary = 3;
// Encodings 4 and 5 (format 11, texts and raw sections of layout 1 only): as 1 and 2, but each
// frame holds the column form of its bytes of the stream (9.3.2, text_columns.h).
inline constexpr std::uint8_t kZstdColumns = 4, kZstdColumnsByGroup = 5;
inline constexpr bool by_group(std::uint8_t encoding) { return encoding == kZstdByGroup || encoding == kZstdColumnsByGroup; }
// A dictionary element (9.9): magic, ID, encoding, 3 reserved bytes, stored and raw sizes, the
// dictionary, checksum.
inline constexpr std::size_t kDictionaryHeaderSize = 20;
inline constexpr std::uint32_t kMaxDictionaryBytes = 1u << 20;
// A name chunk element (format 9, 9.10): magic, field, encoding, 2 reserved bytes, stored and raw
// sizes, entries, checksum.
inline constexpr char kNameChunkMagic[4] = {'P', 'G', 'A', 'N'};
inline constexpr std::size_t kNameChunkHeaderSize = 16;
// (A chunk holds at least one entry whole: a value found in every block of a large archive, such
// as lichess's "Rated Blitz game", needs a byte per block.)
inline constexpr std::uint32_t kMaxNameChunkBytes = 1u << 30;
// A block table chunk element (format 10, 9.11): magic, encoding, 3 reserved bytes, stored and
// raw sizes, entries, checksum.
inline constexpr char kTableChunkMagic[4] = {'P', 'G', 'A', 'T'};
inline constexpr std::size_t kTableChunkHeaderSize = 16;
inline constexpr std::uint32_t kMaxTableChunkBytes = 1u << 30;
inline constexpr std::uint64_t kMaxTableChunkBlocks = 1u << 20;
// Block layouts (block header byte 6). 0 (format versions 1 and 2): tag values inline in their
// columns (spec 9.4.1). 1 (version 3): a dictionary per tag column with fixed-width references
// (9.4.2), and the structure section opens with the game directory (9.3.1).
inline constexpr std::uint8_t kBlockLayout0 = 0, kBlockLayout1 = 1;
// Bytes per reference in a layout 1 column of `distinct` values: none for one value, else the
// fewest that hold 0 to `distinct`.
inline constexpr int tag_ref_width(std::uint64_t distinct) {
  return distinct <= 1 ? 0 : distinct < (1u << 8) ? 1 : distinct < (1u << 16) ? 2 : distinct < (1u << 24) ? 3 : 4;
}

enum SectionIndex : int { kTags = 0, kMoves = 1, kStructure = 2, kTexts = 3, kRaw = 4 };

// Little-endian fixed-width values.
inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i));
}
inline std::uint64_t get_le(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes; i-- > 0;) v = v << 8 | static_cast<std::uint8_t>(p[i]);
  return v;
}

std::uint64_t hash64(std::string_view bytes);

// A whole file mapped read-only (an empty file is an empty view); unmapped on destruction.
class MappedFile {
 public:
  static Result<std::unique_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile();
  std::string_view bytes() const { return {data_, size_}; }
  // Drops the whole pages inside `range` (part of bytes()) from this process's memory, so that
  // a pass over a large archive keeps a flat resident size (the pages stay in the page cache).
  void release(std::string_view range) const;

 private:
  MappedFile() = default;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

std::string file_header();
// Checks magic, versions, reserved fields and checksum of the first 32 bytes.
Status check_file_header(std::string_view bytes, std::uint16_t& write_version, std::uint16_t& read_version);

// Per-block facts the index keeps so that a search can skip the block.
struct BlockSummary {
  std::uint32_t date_min = 99999999, date_max = 0;  // YYYYMMDD; unknown parts widen the range
  std::uint8_t results = 0;  // bit 0 "1-0", 1 "0-1", 2 "1/2-1/2", 3 "*", 4 other or none
};

// The index's name table: field (0 White, 1 Black, 2 Event, 3 Site) -> value -> blocks.
inline constexpr const char* kNameFields[4] = {"White", "Black", "Event", "Site"};

class WriterDictionary;
class ReaderDictionaries;

// One value of a name table and the blocks holding a game with it (ascending).
struct NameEntry {
  std::string value;
  std::vector<std::uint32_t> blocks;
};
// Appends an entry as the name tables store it (9.5, 9.10): the value, the number of postings,
// the first block and each next one as the gap to the one before less one.
void put_name_entry(std::string& out, std::string_view value, const std::vector<std::uint32_t>& blocks);
// Reads one entry in that form from the front of `in` into `value` (a view into `in`) and
// `postings`, each posting a block below `blocks` (a block count). Null, or why it cannot
// ("name entry runs past the end", "posting list runs past the end", "posting names a block
// that does not exist"); `in` is then left part way.
const char* read_name_entry(std::string_view& in, std::string_view& value, std::vector<std::uint32_t>& postings,
                            std::uint64_t blocks);
// The name chunk element (9.10) of `field` holding `count` entries (`entries`, each encoded by
// put_name_entry); with `options.compress`, compressed (with `dict`, the archive's tag
// dictionary, if given: names are tag values) where that is smaller.
std::string encode_name_chunk(int field, std::uint64_t count, std::string_view entries, const WriterOptions& options,
                              const WriterDictionary* dict = nullptr);
// The size of the name chunk element at the start of `bytes` from its header (0 if it does not
// start with one or its sizes run past `bytes`); nothing is checked but the magic.
std::size_t name_chunk_element_size(std::string_view bytes);
// What the index says of a name chunk: where it is, how many values it holds, its first value.
struct NameChunkEntry {
  std::uint64_t offset = 0, size = 0, values = 0;
  std::string first;
};
// A name chunk element of `field` checked (checksum, header, sizes; NAME-1) and its entries
// decoded into `content`; `dictionaries`: the archive's (null if none). The entries are checked
// by visit_name_entries.
Status open_name_chunk(std::string_view element, const std::string& where, int field,
                       const ReaderDictionaries* dictionaries, std::string& content);
// Calls visit(value, blocks) for each entry of a chunk's decoded `content`, checking them
// against the chunk's directory entry, the next chunk's first value (null for a field's last
// chunk) and the number of blocks (NAME-1); stops at the first damage.
Status visit_name_entries(std::string_view content, const std::string& where, const NameChunkEntry& entry,
                          const std::string* next_first, std::uint64_t blocks,
                          const std::function<void(std::string_view, const std::vector<std::uint32_t>&)>& visit);
// Both: checks the name chunk `element` of `field` (NAME-1) against its directory entry `entry`, the
// next chunk's first value (`next_first`, null for the field's last chunk) and the number of
// blocks, and reads its entries; `where` prefixes errors. `dictionaries`: the archive's (null if
// none), for a chunk compressed with one.
Status read_name_chunk(std::string_view element, const std::string& where, int field, const NameChunkEntry& entry,
                       const std::string* next_first, std::uint64_t blocks, std::vector<NameEntry>& out,
                       const ReaderDictionaries* dictionaries = nullptr);

// A tag dictionary as the writer uses it: its ID, its bytes (a Zstandard dictionary) and the
// digested form for compression (shared by all threads).
class WriterDictionary {
 public:
  // Null if `content` is not a usable dictionary.
  static std::shared_ptr<const WriterDictionary> make(std::string content, int level);
  ~WriterDictionary();
  std::uint32_t id() const { return id_; }
  const std::string& content() const { return content_; }
  // `plain` as one zstd frame made with the dictionary (its header names the dictionary and the
  // content size), or nothing if that fails.
  std::string compress(std::string_view plain) const;

 private:
  WriterDictionary() = default;
  std::uint32_t id_ = 0;
  std::string content_;
  void* cdict_ = nullptr;  // ZSTD_CDict
};

// `plain` as one zstd frame at `level` (its header gives its content size), or nothing if that
// fails.
std::string compress_frame(std::string_view plain, int level);

// Trains a dictionary of at most `capacity` bytes on `sections` (cut into 4 KiB samples);
// empty if training fails (too little or too uniform input).
std::string train_tag_dictionary(const std::vector<std::string>& sections, std::size_t capacity);
// The dictionary element (9.9) that carries `dict` (its content zstd-compressed when that is
// smaller and `options.compress`).
std::string encode_dictionary_element(const WriterDictionary& dict, const WriterOptions& options);

// The tag dictionaries of an archive, by ID, ready for decompression.
class ReaderDictionaries {
 public:
  ReaderDictionaries() = default;
  ~ReaderDictionaries();
  ReaderDictionaries(const ReaderDictionaries&) = delete;
  ReaderDictionaries& operator=(const ReaderDictionaries&) = delete;
  // Checks a dictionary element (DICT-1) and adds its dictionary; `where` prefixes errors.
  // `expected_id`, if not 0, is the ID the index gives it; `content`, if given, receives the
  // dictionary's bytes (for copying it into another archive).
  Status add(std::string_view element, const std::string& where, std::uint32_t expected_id = 0,
             std::string* content = nullptr);
  // The digested dictionary of `id` (a ZSTD_DDict), or null.
  const void* find(std::uint32_t id) const;
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<std::pair<std::uint32_t, void*>> entries_;
};
// The size of the dictionary element at the start of `bytes`, read from its header (0 if it
// does not start with one or its sizes run past `bytes`); nothing is checked but the magic.
std::size_t dictionary_element_size(std::string_view bytes);
// The ID and content of a checked dictionary element (for copying it between archives).
Status read_dictionary_element(std::string_view element, const std::string& where, std::uint32_t& id,
                               std::string& content);

// A block as it is built: the games' codec streams and tags.
struct BlockBuilder {
  CodecStreams streams;
  std::vector<std::vector<Tag>> tags;  // per game (raw games: empty)
  std::uint32_t games = 0;
  BlockSummary summary;
  // Where each game ended in each stream (moves, structure, texts, raw): the game directory
  // (9.3.1) is made from these when the block is finished.
  std::vector<std::uint32_t> game_end[4];
  // Ends a game whose records were just appended to `streams`: its tags, its ends and the block
  // summary.
  void end_game(const std::vector<Tag>& t);
  // The block's bytes: header, section table, sections, checksum. With `dict`, the tags
  // section is compressed with it (encoding 3) where compression pays.
  std::string finish(const WriterOptions& options, const WriterDictionary* dict = nullptr) const;
  // The tags section before compression (9.4.2).
  std::string tags_section() const;
  // Games per directory group (9.3.1): 16, or fewer where the texts or raw stream is to be
  // split into zstd frames of about options.frame_bytes each.
  std::uint32_t directory_step(const WriterOptions& options) const;
};

// Date tag "YYYY.MM.DD" (with ?? parts) as the range of YYYYMMDD values it allows.
void date_range(std::string_view date, std::uint32_t& lo, std::uint32_t& hi);
std::uint8_t result_bit(const std::string* result_tag);

// One tag as views into a decoded tags section.
struct TagView {
  std::string_view key, value;
};

// A block read back: its sections decompressed, its tags parsed into views (strings are built
// only for the games asked for).
struct DecodedBlock {
  // The archive's tag dictionaries, for a tags section of encoding 3 (set by the caller; null:
  // the archive has none, and such a section is corrupt).
  const ReaderDictionaries* dictionaries = nullptr;
  std::uint32_t games = 0;
  std::uint8_t codec = 0;
  std::uint8_t layout = kBlockLayout0;
  std::string sections[kSections];
  std::uint32_t stored[kSections] = {};
  std::uint8_t encoding[kSections] = {};
  // Sections of encoding kZstdByGroup read lazily (decode_block with kLazyGroups): the stored
  // bytes (a view into the block, which must outlive this), where each group's frame starts in
  // them (one more entry than groups), and which groups are in `sections` already (the rest of
  // the section is zeros until group_ready() decompresses them).
  std::string_view stored_bytes[kSections];
  std::vector<std::uint32_t> frame_start[kSections];
  std::vector<bool> frame_done[kSections];
  // Layout 1: the game directory (the structure section's first `directory_bytes` bytes), as the
  // offset where each group of `directory_step` games starts in each stream (moves, structure
  // stream, texts, raw), one more entry than groups. Layout 0 leaves these empty.
  std::size_t directory_bytes = 0;
  std::uint32_t directory_step = 0;
  std::vector<std::uint32_t> group_start[4];
  std::string_view structure_stream() const { return std::string_view(sections[kStructure]).substr(directory_bytes); }
  std::vector<TagView> tag_views;        // all games' tags, game after game
  std::vector<std::uint32_t> tag_start;  // game j's tags are [tag_start[j], tag_start[j + 1])
  // Scratch space of the tag decoder, kept between blocks.
  std::vector<std::uint32_t> scratch_key_of, scratch_column_size, scratch_column_start, scratch_slots, scratch_fill;
  std::vector<std::string_view> scratch_distinct;

  std::vector<Tag> tags(std::uint32_t game) const {
    std::vector<Tag> out;
    out.reserve(tag_start[game + 1] - tag_start[game]);
    for (std::uint32_t i = tag_start[game]; i < tag_start[game + 1]; ++i)
      out.push_back(Tag{std::string(tag_views[i].key), std::string(tag_views[i].value)});
    return out;
  }
};
// What decode_block decodes. kAll: every section, the tags parsed into tag_views. kLazyGroups:
// the tags are left unparsed (for decode_tags or decode_game_tags), and group-framed sections
// are only checked (each frame's declared size against the directory) and left compressed
// until group_ready() asks for a group. kTagsOnly: the tags section alone, parsed (the other
// sections are left empty and unchecked; the block checksum still covers them).
enum class BlockParts { kAll, kLazyGroups, kTagsOnly };
// `where` ("block 3 at offset 1234") prefixes every error. Checks the checksum first.
Status decode_block(std::string_view bytes, const std::string& where, DecodedBlock& out, BlockParts parts = BlockParts::kAll);
// After decode_block with kLazyGroups: decompresses group k's frames where not done yet.
Status group_ready(DecodedBlock& block, std::uint32_t k, const std::string& where);
// Decodes every game's tags of a block's tags section into out.tag_views and out.tag_start.
Status decode_tags(std::string_view tags_section, std::uint32_t games, std::uint8_t layout, const std::string& where,
                   DecodedBlock& out);
// The tags of game `game` of a block's tags section (decoded without decode_tags). Layout 0 is
// checked as fully as decode_tags checks it; layout 1 reads only the key lists, the columns'
// headers and the game's own references and values, each bounds-checked.
Status decode_game_tags(std::string_view tags_section, std::uint32_t games, std::uint32_t game, std::uint8_t layout,
                        const std::string& where, std::vector<Tag>& out);
// Layout 1: the streams from the start of games group `k` (games k * directory_step on); with
// `bounded`, the streams end where the group ends (a lazily read block has only that group).
CodecCursor group_cursor(const DecodedBlock& block, std::uint32_t k, bool bounded = false);
// Layout 1: after game j was decoded in order, leaving `c`: if j ends its group, the group must
// end where the directory says in every stream.
Status check_group_end(const DecodedBlock& block, std::uint32_t j, const CodecCursor& c, const std::string& where);
// Only the header and section table (sizes, and encodings if asked), after checking the checksum.
Status read_block_sizes(std::string_view bytes, const std::string& where, std::uint32_t& games,
                        std::uint32_t stored[kSections], std::uint32_t raw[kSections],
                        std::uint8_t* encodings = nullptr);

struct IndexEntry {
  std::uint64_t offset = 0, size = 0, first_game = 0;
  std::uint32_t games = 0;
  BlockSummary summary;
};
struct DictionaryEntry {
  std::uint64_t offset = 0, size = 0;
  std::uint32_t id = 0;
};
// What the index says of a block table chunk (format 10): where it is, how many blocks it lists
// and the number (from 0) of its first block's first game.
struct TableChunkEntry {
  std::uint64_t offset = 0, size = 0, blocks = 0, first_game = 0;
};
struct Index {
  std::vector<DictionaryEntry> dictionaries;  // format 8 on: in file order
  // The block table: before format 10 decoded with the index; from 10 on, left empty by
  // decode_index (the chunks are elements of their own: load_block_table, read_table_chunk).
  std::vector<IndexEntry> blocks;
  std::vector<TableChunkEntry> table_chunks;  // format 10 on: the block directory, in file order
  // Up to format 8, the name tables in the index body: names[field]: (value, blocks containing
  // it ascending).
  std::vector<std::pair<std::string, std::vector<std::uint32_t>>> names[4];
  // Format 9 on, the name directory: name_chunks[field], in file order.
  std::vector<NameChunkEntry> name_chunks[4];
};
// The index of a file of `read_version` (below 8: without the dictionary table).
std::string encode_index(const Index& index, const WriterOptions& options, std::uint16_t read_version = kReadVersion);
// `read_version`: the file's (from 8 on the body opens with the dictionary table; from 9 on it
// ends with the name directory, and the name tables are elements of their own). kBlocks
// decodes and checks the dictionary and block tables (and from 9 the name directory) only,
// decompressing no more of the body than they take (opening an archive needs no more); kAll
// also the name tables of files before 9.
enum class IndexParts { kAll, kBlocks };
Status decode_index(std::string_view bytes, std::uint64_t index_offset, std::uint16_t read_version, Index& out,
                    IndexParts parts = IndexParts::kAll);

// Format 10: the blocks' total count (the index's `blocks` before, its block directory from 10
// on).
std::uint64_t block_total(const Index& index);
// Where the blocks and dictionaries end: the first name chunk, else the first table chunk, else
// the index.
std::uint64_t blocks_end(const Index& index, std::uint64_t index_offset);
// Checks that the dictionaries and blocks 0 to blocks - 1 (`entry(b)`) tile
// the file from the header to `end` (INDEX-1); `path` prefixes errors.
Status check_block_layout(const std::vector<DictionaryEntry>& dictionaries, std::uint64_t end, std::uint64_t blocks,
                          const std::function<const IndexEntry&(std::uint64_t)>& entry, const std::string& path);
// The block table chunk elements (9.11) of index.blocks, `per_chunk` blocks each, to be written
// from `offset` on; fills index.table_chunks.
std::string encode_block_table(Index& index, std::uint64_t offset, std::uint64_t per_chunk, const WriterOptions& options);
// The size of the table chunk element at the start of `bytes` from its header (0 if it does not
// start with one or its sizes run past `bytes`); nothing is checked but the magic.
std::size_t table_chunk_element_size(std::string_view bytes);
// Checks table chunk `k` of `index` (TABLE-1: checksum, header, its entries against the
// directory; `games`: the file's total, `end`: blocks_end) and decodes its blocks' entries into
// `out` (first_game filled in). `where` prefixes errors.
Status read_table_chunk(std::string_view file, const Index& index, std::size_t k, std::uint64_t games, std::uint64_t end,
                        const std::string& where, std::vector<IndexEntry>& out);
// Format 10: reads every table chunk into index.blocks and checks the layout (INDEX-1); before,
// nothing to do. `path` prefixes errors.
Status load_block_table(std::string_view file, const std::string& path, std::uint64_t index_offset, std::uint64_t games,
                        Index& index);

std::string encode_footer(std::uint64_t index_offset, std::uint64_t index_size, std::uint64_t games,
                          std::uint64_t blocks, std::uint64_t index_hash);
struct Footer {
  std::uint64_t index_offset = 0, index_size = 0, games = 0, blocks = 0, index_hash = 0;
};
Status decode_footer(std::string_view bytes, std::uint64_t file_size, Footer& out);

}  // namespace pgnarc::container
