// The container's constants (format-spec/pgnarc-format.md, section 9): magics, sizes, limits,
// section encodings. Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pgnarc/version.h"

namespace pgnarc::container {

inline constexpr char kFileMagic[8] = {'\x89', 'P', 'G', 'A', '\r', '\n', '\x1a', '\n'};
inline constexpr char kBlockMagic[4] = {'P', 'G', 'A', 'B'};
inline constexpr char kIndexMagic[4] = {'P', 'G', 'A', 'I'};
inline constexpr char kFooterMagic[4] = {'P', 'G', 'A', 'F'};
inline constexpr char kDictionaryMagic[4] = {'P', 'G', 'A', 'D'};
inline constexpr char kNameChunkMagic[4] = {'P', 'G', 'A', 'N'};
inline constexpr char kTableChunkMagic[4] = {'P', 'G', 'A', 'T'};

// The format version this library writes (header bytes 8-11: write and read version) and reads
// (every file whose read version has its major version) is kFormatVersionMajor.Minor
// (pgnarc/version.h). The minor versions that define what a block may use beyond 1.0 (2.1, 9.2):
// the variants' move codec (1.1), the fast model's move coder (1.2), the modelled tracks' codec
// (1.3), the layout of derived tags (1.4), the layout of coded tags (1.5), the layout of table
// columns (1.6), the Xiangqi codecs (1.7), the Xiangqi model's codecs (1.8), the layout of
// Xiangqi positions (1.9), the codecs of Xiangqi move texts in GB18030 or Big5 or naming tandem
// pieces by file (1.10), the layout of unescaped tag values (1.11), the section encodings of
// texts and raw sections with a dictionary (1.12), that of moves and structure sections with a
// dictionary (1.13), the layout of Event and Site columns naming entries of their name tables
// (1.14) and the Xiangqi book's codecs (1.15).
inline constexpr std::uint8_t kVariantsCodecMinor = 1, kFastCoderMinor = 2, kModelledTracksMinor = 3,
                              kDerivedTagsMinor = 4, kCodedTagsMinor = 5, kTableTagsMinor = 6, kXiangqiCodecMinor = 7,
                              kXiangqiModelMinor = 8, kXiangqiPositionsMinor = 9,
                              kXiangqiSpellingsMinor = 10, kUnescapedTagsMinor = 11, kTextDictionaryMinor = 12,
                              kMovesDictionaryMinor = 13, kNameEntriesMinor = 14, kXiangqiBookMinor = 15;
static_assert(kVariantsCodecMinor < kFastCoderMinor && kFastCoderMinor < kModelledTracksMinor &&
              kModelledTracksMinor < kDerivedTagsMinor && kDerivedTagsMinor < kCodedTagsMinor &&
              kCodedTagsMinor < kTableTagsMinor && kTableTagsMinor < kXiangqiCodecMinor &&
              kXiangqiCodecMinor < kXiangqiModelMinor && kXiangqiModelMinor < kXiangqiPositionsMinor &&
              kXiangqiPositionsMinor < kXiangqiSpellingsMinor && kXiangqiSpellingsMinor < kUnescapedTagsMinor &&
              kUnescapedTagsMinor < kTextDictionaryMinor && kTextDictionaryMinor < kMovesDictionaryMinor &&
              kMovesDictionaryMinor < kNameEntriesMinor && kNameEntriesMinor < kXiangqiBookMinor &&
              kXiangqiBookMinor <= kFormatVersionMinor);

inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::size_t kFooterSize = 48;
inline constexpr std::size_t kBlockHeaderSize = 12;
inline constexpr std::size_t kSectionEntrySize = 12;
inline constexpr std::size_t kBlockChecksumSize = 8;
inline constexpr std::size_t kDictionaryHeaderSize = 20;  // 9.9
inline constexpr std::size_t kNameChunkHeaderSize = 16;   // 9.10
inline constexpr std::size_t kTableChunkHeaderSize = 16;  // 9.11

// A block's five sections, in the order its section table lists them.
enum SectionIndex : int { kTags = 0, kMoves = 1, kStructure = 2, kTexts = 3, kRaw = 4 };
inline constexpr int kSections = 5;
// The smallest block: header, section table, checksum.
inline constexpr std::size_t kMinBlockSize = kBlockHeaderSize + kSections * kSectionEntrySize + kBlockChecksumSize;
// The block layout byte (header byte 6): tag columns with value lists, and a game directory; with
// kDerivedTagsLayout (format 1.4), tag columns may be derived from the moves too (9.4.5); with
// kCodedTagsLayout (format 1.5), as with kDerivedTagsLayout, and typed columns may have their
// codes in a codeword (9.4.7); with kTableTagsLayout (format 1.6), as with kCodedTagsLayout, and
// columns may name entries of the archive's value tables (9.4.8); with kXiangqiTagsLayout (format
// 1.9), as with kTableTagsLayout, and a FEN column may hold Xiangqi positions (9.4.9); with
// kUnescapedTagsLayout (format 1.11), as with kXiangqiTagsLayout, and a column may hold values
// written without escapes (9.4.10); with kNameEntriesLayout (format 1.14), as with
// kUnescapedTagsLayout, and an Event or Site column may name entries of its name table (9.4.3).
inline constexpr std::uint8_t kBlockLayout = 1, kDerivedTagsLayout = 3, kCodedTagsLayout = 4,
                              kTableTagsLayout = 5, kXiangqiTagsLayout = 6,
                              kUnescapedTagsLayout = 7, kNameEntriesLayout = 8;  // (2: undefined)
// Whether a block of `layout` may hold what one of kTableTagsLayout may (table columns, coded
// and derived columns), Xiangqi positions (kXiangqiTagsLayout) or unescaped values
// (kUnescapedTagsLayout).
inline constexpr bool table_layout(std::uint8_t layout) { return layout >= kTableTagsLayout; }
inline constexpr bool xiangqi_layout(std::uint8_t layout) { return layout >= kXiangqiTagsLayout; }
inline constexpr bool unescaped_layout(std::uint8_t layout) { return layout >= kUnescapedTagsLayout; }

inline constexpr std::uint32_t kMaxSectionBytes = 256u << 20;
inline constexpr std::uint32_t kMaxBlockGames = 1u << 20;
inline constexpr std::uint32_t kMaxDictionaryBytes = 1u << 20;
// A name chunk holds at least one entry whole: a value found in every block of a large archive,
// such as lichess's "Rated Blitz game", needs a byte per block.
inline constexpr std::uint32_t kMaxNameChunkBytes = 1u << 30;
// The most name entries a chunk may hold: an entry takes at least 4 bytes (9.5).
inline constexpr std::uint32_t kMaxNameChunkValues = kMaxNameChunkBytes / 4;
inline constexpr std::uint32_t kMaxTableChunkBytes = 1u << 30;
// The most entries a players' table may hold (9.5): its entries are numbered by 32 bits.
inline constexpr std::uint64_t kMaxPlayerEntries = 0xFFFFFFFFu;
inline constexpr std::uint64_t kMaxTableChunkBlocks = 1u << 20;

// Section and element encodings (9.3): stored; one zstd frame; one zstd frame per directory
// group (texts and raw sections); one zstd frame made with the archive's tag dictionary (tags
// sections, name chunks); the column form of texts (9.3.2) in one frame or one per group
// (texts and raw sections); (1.12) encodings 1 and 2 of texts and raw sections with frames made
// with one of the archive's dictionaries, 7 and 8; and (1.13) encoding 1 of moves and structure
// sections with a frame made with one, 10. Encodings 6 and 9 are none: vectors name them as
// encodings no reader knows.
inline constexpr std::uint8_t kStored = 0, kZstd = 1, kZstdByGroup = 2, kZstdDictionary = 3, kZstdColumns = 4,
                              kZstdColumnsByGroup = 5, kNoEncoding = 6, kZstdTextDictionary = 7,
                              kZstdTextDictionaryByGroup = 8, kNoEncodingLater = 9, kZstdMovesDictionary = 10,
                              kLastEncoding = kZstdMovesDictionary;
inline constexpr bool undefined_encoding(std::uint8_t encoding) {
  return encoding == kNoEncoding || encoding == kNoEncodingLater || encoding > kLastEncoding;
}
// The encoding with the archive's dictionary of kZstd or kZstdByGroup in a texts or raw section
// (7, 8), and the one an encoding of 7 or 8 adds a dictionary to.
inline constexpr std::uint8_t with_text_dictionary(std::uint8_t encoding) { return static_cast<std::uint8_t>(encoding + 6); }
inline constexpr std::uint8_t without_text_dictionary(std::uint8_t encoding) { return static_cast<std::uint8_t>(encoding - 6); }
static_assert(with_text_dictionary(kZstd) == kZstdTextDictionary && with_text_dictionary(kZstdByGroup) == kZstdTextDictionaryByGroup);
inline constexpr bool by_group(std::uint8_t encoding) { return encoding == kZstdByGroup || encoding == kZstdColumnsByGroup; }

// The fields of the index's name tables (9.10), by number: the players (values of White and
// Black tags, one table: a player of many games plays both colours), events and sites.
inline constexpr int kNameFieldCount = 3;
inline constexpr int kPlayerField = 0, kEventField = 1, kSiteField = 2;
inline constexpr const char* kNameFields[kNameFieldCount] = {"player", "Event", "Site"};

// Whether the table of name field `field` is in ascending order of value (9.10): the Event and
// Site tables are; the players' table is in the order of its entries, which player columns name.
inline bool sorted_name_field(int field) { return field != kPlayerField; }

// The name field whose table holds the values of tags with key `key`, or -1.
inline int name_field_of(std::string_view key) {
  if (key == "White" || key == "Black") return kPlayerField;
  if (key == "Event") return kEventField;
  if (key == "Site") return kSiteField;
  return -1;
}

// Does `value` of name field `field` enter the field's name table (9.10)? Every value does but a
// Site that is a web address ("http://" or "https://", in any ASCII case): those name one game
// each (lichess's https://lichess.org/GAMEID) and would fill the table with entries no search by
// name needs; a search for one scans the tags.
inline bool indexed_name(int field, std::string_view value) {
  if (field != kSiteField) return true;
  const auto starts = [&](std::string_view prefix) {
    if (value.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      char c = value[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      if (c != prefix[i]) return false;
    }
    return true;
  };
  return !starts("http://") && !starts("https://");
}

// What the writer's choices are, as the container sees them (the public WriterOptions less
// what only the pack pipeline uses).
struct StoreOptions {
  bool compress = true;
  int zstd_level = 9;
  int text_level = 15;  // of the texts and raw sections
  int dictionary_level = 19;  // of a tag dictionary's element
  bool text_columns = true;            // try the column form of texts and verbatim games
  std::uint64_t frame_bytes = 32 * 1024;  // texts/raw above twice this go one frame per group
  bool position_filter = false;  // blocks of position filters, and one game a directory group
};

}  // namespace pgnarc::container
