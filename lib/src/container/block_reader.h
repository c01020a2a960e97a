// A block read back (9.3): its header and section table checked, its sections decompressed
// (group-framed ones lazily, group by group), its game directory parsed, its tags decoded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codec/codec.h"
#include "container/format.h"
#include "container/tags_section.h"
#include "container/where.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

class ReaderDictionaries;

// The game directory (9.3.1) at the start of the structure section: where each group of `step`
// games starts in each stream (moves, structure stream, texts, raw), one more entry than groups.
struct GameDirectory {
  std::size_t bytes = 0;  // its size: the structure stream follows it
  std::uint32_t step = 0;
  std::uint64_t plies = 0;  // of all the block's lines, null moves included
  std::vector<std::uint32_t> group_start[4];
  std::string_view filter;  // the position filter (position_filter.h), empty if none; a view into the structure section
};

// A section of one zstd frame per directory group, read lazily: the stored bytes (a view into
// the block, which must outlive it) and where they start in the block, where each group's frame
// starts in them (one more entry than groups), and which groups are decompressed into the
// section already.
struct GroupFrames {
  std::string_view stored;
  std::size_t at = 0;
  std::vector<std::uint32_t> start;
  std::vector<bool> done;
};

struct DecodedBlock {
  // The archive's dictionaries, for a tags section of encoding 3 and texts and raw sections of
  // encodings 7 and 8 (set by the caller; null: the archive has none, and such a section is
  // corrupt).
  const ReaderDictionaries* dictionaries = nullptr;
  // The archive's players' table, for player columns, and its value tables, for table columns
  // (set by the caller; null: a player or table column is corrupt).
  const PlayerNames* players = nullptr;
  std::uint32_t games = 0;
  codec::MoveCoder coder = codec::MoveCoder::kModel;  // of the block's move codewords
  bool variants = false;                 // its codec is not kMoveCodec
  bool modelled_tracks = false;          // its codec is kModelledTracksCodec, 10, 12 or 15
  bool xiangqi = false;                  // its codec is 9 to 12, 14, 15, 17 or 18
  bool xiangqi_model = false;            // its codec is 11, 12, 14, 15, 17 or 18
  bool xiangqi_spellings = false;        // its codec is 14, 15, 17 or 18
  bool xiangqi_book = false;             // its codec is kXiangqiBookCodec or kXiangqiBookTracksCodec
  bool derived_tags = false;             // its layout is not kBlockLayout (3 to 8)
  std::uint8_t layout = kBlockLayout;    // its layout (9.3)
  std::uint8_t encoding[kSections] = {};  // as BlockSizes gives them
  bool dictionary[kSections] = {};
  std::uint32_t stored[kSections] = {}, raw[kSections] = {};  // each section's sizes, as the table gives them
  std::string sections[kSections];
  GroupFrames frames[kSections];
  GameDirectory directory;
  BlockTags tags;

  std::string_view structure_stream() const { return std::string_view(sections[kStructure]).substr(directory.bytes); }
  // The streams of the whole block.
  codec::CodecCursor cursor() const {
    codec::CodecCursor c{sections[kMoves], structure_stream(), sections[kTexts], sections[kRaw], coder, variants,
                         modelled_tracks};
    c.xiangqi = xiangqi;
    c.xiangqi_model = xiangqi_model;
    c.xiangqi_spellings = xiangqi_spellings;
    c.xiangqi_book = xiangqi_book;
    return c;
  }
};

// What decode_block decodes. kAll: every section, the tags decoded into `tags`. kLazyGroups: the
// tags are left undecoded (for decode_tags_section when a game is read), and group-framed
// sections are only checked (each frame's declared size against the directory) and left
// compressed until group_ready() asks for a group. kTagsOnly: the tags section alone, decoded
// (the other sections are left empty and unchecked; the block checksum still covers them).
// kDirectory: the structure section alone, decompressed and its directory parsed (a position
// search reads a block's filter so).
enum class BlockParts { kAll, kLazyGroups, kTagsOnly, kDirectory };
// `where` ("block 3 at offset 1234") prefixes every error. Checks the checksum first.
Status decode_block(std::string_view bytes, const Where& where, DecodedBlock& out, BlockParts parts = BlockParts::kAll);
// After decode_block with kLazyGroups: decompresses group k's frames where not done yet.
Status group_ready(DecodedBlock& block, std::uint32_t k, const Where& where);
// The streams from the start of games group `k` (games k * directory.step on); with `bounded`,
// the streams end where the group ends (a lazily read block has only that group).
codec::CodecCursor group_cursor(const DecodedBlock& block, std::uint32_t k, bool bounded = false);
// After game j was decoded in order, leaving `c`: if j ends its group, the group must end where
// the directory says in every stream.
// Aligns the cursor's moves to the byte after the group's last codeword (its bits up to there
// must be 0).
Status check_group_end(const DecodedBlock& block, std::uint32_t j, codec::CodecCursor& c, const std::string& where);
// Whether a block's games have taken every byte of its streams (BLOCK-2).
inline bool all_consumed(const codec::CodecCursor& c) {
  return c.moves.empty() && c.structure.empty() && c.texts.empty() && c.raw.empty();
}

// What a block holds, counted without a board: the plies of all its lines (null moves included:
// each line's `plies`, 8.3) from the moves section, and its verbatim games (the entries of the raw
// stream, 8.5). Decompresses the block as decode_block(kLazyGroups) does, then the raw section's
// groups; `scratch` is the buffer (its `dictionaries` set by the caller).
struct BlockCounts {
  std::uint64_t plies = 0, verbatim = 0;
  std::uint64_t filter_bytes = 0;  // of its position filter (0: none)
  bool table_columns = false;      // a tag column names value table entries (9.4.8)
};
Status count_block(std::string_view bytes, const Where& where, DecodedBlock& scratch, BlockCounts& out);

// A block's header and section table, checked with its checksum (no section decoded).
struct BlockSizes {
  std::uint32_t games = 0;
  codec::MoveCoder coder = codec::MoveCoder::kModel;
  bool variants = false;  // its codec is not kMoveCodec
  bool modelled_tracks = false;  // its codec is kModelledTracksCodec, 10, 12 or 15
  bool xiangqi = false;          // its codec is 9 to 12, 14, 15, 17 or 18
  bool xiangqi_model = false;    // its codec is 11, 12, 14, 15, 17 or 18
  bool xiangqi_spellings = false;  // its codec is 14, 15, 17 or 18
  bool xiangqi_book = false;       // its codec is kXiangqiBookCodec or kXiangqiBookTracksCodec
  bool derived_tags = false;     // its layout is not kBlockLayout (3 to 8)
  std::uint8_t layout = kBlockLayout;
  // Each section's encoding, that of 7, 8 or 10 given as the one it adds a dictionary to (1, 2
  // or 1), with `dictionary` set.
  std::uint8_t encoding[kSections] = {};
  bool dictionary[kSections] = {};
  std::uint32_t stored[kSections] = {}, raw[kSections] = {};
  // Where the five sections' bytes begin: after the section table, whose entries past the fifth
  // are optional sections of a later minor version (9.3), stored after the five and skipped.
  std::size_t data_offset = kBlockHeaderSize + kSections * kSectionEntrySize;
};
Status read_block_sizes(std::string_view bytes, const Where& where, BlockSizes& out);
// The size of the block at the start of `bytes` from its section table (0 if it does not start
// with a block magic or its sizes run past `bytes`); nothing else is checked (salvage finds
// blocks so).
std::size_t block_element_size(std::string_view bytes);
// The size the block at the start of `head` declares in its section table, however many bytes
// follow; 0 if `head` does not start with a block magic or is shorter than its section table
// (which kMaxBlockHeadBytes always hold).
std::uint64_t block_declared_size(std::string_view head);
inline constexpr std::size_t kMaxBlockHeadBytes = kBlockHeaderSize + 255 * kSectionEntrySize;
// The read minor version (2.1) a block needs, from its header (of a block made or checked, at
// least its section table's bytes): kXiangqiBookMinor with a codec of the Xiangqi book, else
// kNameEntriesMinor with the name entries' layout, else
// kMovesDictionaryMinor with a section of encoding 10, else
// kTextDictionaryMinor with a section of encoding 7 or 8,
// else kUnescapedTagsMinor with the unescaped tags' layout, else kXiangqiSpellingsMinor with a
// codec of Xiangqi spellings, else kXiangqiPositionsMinor with the Xiangqi positions' layout,
// else kXiangqiModelMinor with a Xiangqi model's codec, else
// kXiangqiCodecMinor with a Xiangqi codec, else kTableTagsMinor
// with the table tags' layout, else
// kCodedTagsMinor with the coded tags' layout, else
// kDerivedTagsMinor with the derived tags' layout, else
// kModelledTracksMinor with the modelled tracks' codec, else
// kFastCoderMinor with the fast model's move coder, else
// kVariantsCodecMinor with the variants' codec, else 0 (9.2).
std::uint8_t block_read_minor(std::string_view bytes);

}  // namespace pgnarc::container
