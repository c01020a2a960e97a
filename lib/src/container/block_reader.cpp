#include "container/block_reader.h"

#include <algorithm>
#include <cstring>

#include "common/bytes.h"
#include "common/endian.h"
#include "common/hash.h"
#include "common/zstd_frame.h"
#include "codec/record/record.h"
#include "container/tag_dictionary.h"
#include "container/tag_values.h"
#include "container/text_columns.h"

namespace pgnarc::container {

using common::ByteCursor;
using common::get_le;

Status read_block_sizes(std::string_view b, const Where& where, BlockSizes& out) {
  auto bad = [&](const std::string& what, std::size_t at) { return corruption(where + ": " + what + where.byte(at)); };
  if (b.size() < kMinBlockSize) return bad("block shorter than its header", 0);
  if (get_le(b.data() + b.size() - 8, 8) != common::hash64(b.substr(0, b.size() - 8)))
    return bad("checksum mismatch", b.size() - 8);
  if (std::memcmp(b.data(), kBlockMagic, 4) != 0) return bad("bad block magic", 0);
  const auto codec = static_cast<std::uint8_t>(b[4]);
  const std::string later = ", which format " + std::to_string(kFormatVersionMajor) + "." + std::to_string(kFormatVersionMinor) +
                            " does not define";
  if (codec < codec::kMoveCodec || codec > codec::kXiangqiBookTracksCodec || codec == codec::kUndefinedCodec ||
      codec == codec::kUndefinedCodec16)
    return unsupported(where + ": move codec " + std::to_string(codec) + later + where.byte(4));
  out.variants = codec != codec::kMoveCodec;
  out.modelled_tracks = codec == codec::kModelledTracksCodec || codec == codec::kXiangqiTracksCodec ||
                        codec == codec::kXiangqiModelTracksCodec || codec == codec::kXiangqiSpellingsTracksCodec ||
                        codec == codec::kXiangqiBookTracksCodec;
  out.xiangqi = codec >= codec::kXiangqiCodec;
  out.xiangqi_model = codec >= codec::kXiangqiModelCodec;
  out.xiangqi_spellings = codec >= codec::kXiangqiSpellingsCodec;
  out.xiangqi_book = codec >= codec::kXiangqiBookCodec;
  const auto section_count = static_cast<std::uint8_t>(b[5]);
  if (section_count < kSections) return bad("section count below 5", 5);
  out.data_offset = kBlockHeaderSize + std::size_t{section_count} * kSectionEntrySize;
  if (b.size() < out.data_offset + kBlockChecksumSize) return bad("block shorter than its section table", 5);
  const auto layout = static_cast<std::uint8_t>(b[6]);
  if (layout != kBlockLayout && (layout < kDerivedTagsLayout || layout > kNameEntriesLayout))
    return unsupported(where + ": block layout " + std::to_string(layout) + later + where.byte(6));
  out.layout = layout;
  out.derived_tags = layout != kBlockLayout;
  const auto coder = static_cast<std::uint8_t>(b[7]);
  if (coder > static_cast<std::uint8_t>(codec::MoveCoder::kFast))
    return unsupported(where + ": move coder " + std::to_string(coder) + later + where.byte(7));
  out.coder = static_cast<codec::MoveCoder>(coder);
  out.games = static_cast<std::uint32_t>(get_le(b.data() + 8, 4));
  if (out.games == 0 || out.games > kMaxBlockGames) return bad("game count out of range", 8);
  std::uint64_t total = 0;
  for (int s = 0; s < kSections; ++s) {
    const char* e = b.data() + kBlockHeaderSize + s * kSectionEntrySize;
    const std::size_t at = kBlockHeaderSize + static_cast<std::size_t>(s) * kSectionEntrySize;
    if (static_cast<std::uint8_t>(e[0]) != s) return bad("sections out of order", at);
    auto encoding = static_cast<std::uint8_t>(e[1]);
    // An encoding a later minor version may define is unsupported; of those this version
    // defines, one frame per group, the column form and a text dictionary's frames (7 and 8)
    // are for texts and raw sections (they have a directory column and hold text), a tag
    // dictionary for tags sections, a moves dictionary's frame (10) for moves and structure
    // sections.
    if (undefined_encoding(encoding))
      return unsupported(where + ": section " + std::to_string(s) + " has encoding " + std::to_string(encoding) + later +
                         where.byte(at + 1));
    if (encoding == kZstdMovesDictionary) {
      if (s != kMoves && s != kStructure) return bad("unknown section encoding", at + 1);
      encoding = kZstd;
      out.dictionary[s] = true;
    } else if (encoding > kNoEncoding) {
      if (s < kTexts) return bad("unknown section encoding", at + 1);
      encoding = without_text_dictionary(encoding);
      out.dictionary[s] = true;
    }
    out.encoding[s] = encoding;
    if ((encoding == kZstdByGroup && s < kTexts) ||
        (encoding == kZstdDictionary && s != kTags) || (encoding >= kZstdColumns && s < kTexts))
      return bad("unknown section encoding", at + 1);
    if (get_le(e + 2, 2) != 0) return bad("reserved bytes not zero", at + 2);
    out.stored[s] = static_cast<std::uint32_t>(get_le(e + 4, 4));
    out.raw[s] = static_cast<std::uint32_t>(get_le(e + 8, 4));
    if (out.raw[s] > kMaxSectionBytes) return bad("section larger than the limit", at + 8);
    if (encoding == kStored && out.stored[s] != out.raw[s]) return bad("stored section sizes differ", at + 4);
    total += out.stored[s];
  }
  // The optional sections that a later minor version may add: ids above 4, ascending; this
  // reader skips their bytes, whatever their encoding.
  for (std::size_t s = kSections; s < section_count; ++s) {
    const char* e = b.data() + kBlockHeaderSize + s * kSectionEntrySize;
    const std::size_t at = kBlockHeaderSize + s * kSectionEntrySize;
    const auto id = static_cast<std::uint8_t>(e[0]);
    if (id < kSections || (s > kSections && id <= static_cast<std::uint8_t>(*(e - kSectionEntrySize))))
      return bad("sections out of order", at);
    if (get_le(e + 2, 2) != 0) return bad("reserved bytes not zero", at + 2);
    total += get_le(e + 4, 4);
  }
  if (total != b.size() - out.data_offset - kBlockChecksumSize)
    return bad("section sizes do not add up to the block size", kBlockHeaderSize);
  return {};
}

std::uint64_t block_declared_size(std::string_view head) {
  if (head.size() < kMinBlockSize || head.substr(0, 4) != std::string_view(kBlockMagic, 4)) return 0;
  const std::size_t sections = std::max<std::uint8_t>(static_cast<std::uint8_t>(head[5]), kSections);
  if (head.size() < kBlockHeaderSize + sections * kSectionEntrySize) return 0;
  std::uint64_t total = kBlockHeaderSize + sections * kSectionEntrySize + kBlockChecksumSize;
  for (std::size_t k = 0; k < sections; ++k) total += get_le(head.data() + kBlockHeaderSize + k * kSectionEntrySize + 4, 4);
  return total;
}

std::size_t block_element_size(std::string_view bytes) {
  const std::uint64_t total = block_declared_size(bytes);
  return total && total <= bytes.size() ? static_cast<std::size_t>(total) : 0;
}

std::uint8_t block_read_minor(std::string_view b) {
  const auto codec = static_cast<std::uint8_t>(b[4]);
  const auto encoding = [&b](int s) { return static_cast<std::uint8_t>(b[kBlockHeaderSize + s * kSectionEntrySize + 1]); };
  if (codec >= codec::kXiangqiBookCodec) return kXiangqiBookMinor;
  if (static_cast<std::uint8_t>(b[6]) == kNameEntriesLayout) return kNameEntriesMinor;
  if (encoding(kMoves) == kZstdMovesDictionary || encoding(kStructure) == kZstdMovesDictionary) return kMovesDictionaryMinor;
  for (int s = kTexts; s < kSections; ++s)
    if (encoding(s) > kNoEncoding) return kTextDictionaryMinor;
  if (static_cast<std::uint8_t>(b[6]) == kUnescapedTagsLayout) return kUnescapedTagsMinor;
  if (codec >= codec::kXiangqiSpellingsCodec) return kXiangqiSpellingsMinor;
  if (static_cast<std::uint8_t>(b[6]) == kXiangqiTagsLayout) return kXiangqiPositionsMinor;
  if (codec >= codec::kXiangqiModelCodec) return kXiangqiModelMinor;
  if (codec >= codec::kXiangqiCodec) return kXiangqiCodecMinor;
  if (static_cast<std::uint8_t>(b[6]) == kTableTagsLayout) return kTableTagsMinor;
  if (static_cast<std::uint8_t>(b[6]) == kCodedTagsLayout) return kCodedTagsMinor;
  if (static_cast<std::uint8_t>(b[6]) == kDerivedTagsLayout) return kDerivedTagsMinor;
  if (codec == codec::kModelledTracksCodec) return kModelledTracksMinor;
  if (static_cast<std::uint8_t>(b[7]) == static_cast<std::uint8_t>(codec::MoveCoder::kFast)) return kFastCoderMinor;
  return codec == codec::kVariantsCodec ? kVariantsCodecMinor : 0;
}

namespace {

// The game directory at the start of the structure section, parsed into group start offsets,
// with the check that each stream's column adds up to the stream's size. `raw`: the sections'
// sizes from the block's table (group-framed sections are not decoded yet).
Status parse_directory(const std::string& where, const std::uint32_t raw[kSections], DecodedBlock& out) {
  GameDirectory& dir = out.directory;
  dir.bytes = 0;
  dir.step = 0;
  dir.filter = {};
  for (auto& g : dir.group_start) g.clear();
  auto bad = [&](const char* what) { return corruption(where + ": game directory: " + what); };
  ByteCursor r(out.sections[kStructure]);
  std::uint64_t step;
  if (!r.varint(step) || step == 0 || step > kMaxBlockGames) return bad("bad games per entry");
  dir.step = static_cast<std::uint32_t>(step);
  if (!r.varint(dir.plies) || dir.plies > out.games * codec::kMaxPlies) return bad("bad ply count");
  const std::uint32_t groups = static_cast<std::uint32_t>((out.games + step - 1) / step);
  if (4ull * groups > r.remaining()) return bad("runs past the end of the structure section");
  for (auto& col : dir.group_start) {
    col.resize(groups + 1);
    std::uint64_t sum = 0;
    for (std::uint32_t k = 0; k < groups; ++k) {
      std::uint64_t v;
      col[k] = static_cast<std::uint32_t>(sum);
      if (!r.varint(v) || v > kMaxSectionBytes) return bad("runs past the end of the structure section");
      sum += v;
      if (sum > kMaxSectionBytes) return bad("entries add up to more than a section holds");
    }
    col[groups] = static_cast<std::uint32_t>(sum);
  }
  std::uint64_t filter = 0;
  if (!r.varint(filter) || !r.bytes(filter, dir.filter)) return bad("the position filter runs past the end of the structure section");
  dir.bytes = out.sections[kStructure].size() - r.remaining();
  const std::size_t sizes[4] = {raw[kMoves], r.remaining(), raw[kTexts], raw[kRaw]};
  for (int i = 0; i < 4; ++i)
    if (dir.group_start[i].back() != sizes[i]) return bad("a stream's entries do not add up to its size");
  return {};
}

// The archive's dictionary that `frame` names (BLOCK-5), or null if it names none or one the
// archive does not hold.
const ZSTD_DDict* named_dictionary(const DecodedBlock& block, std::string_view frame) {
  const std::uint32_t id = common::frame_dictionary_id(frame);
  return id && block.dictionaries ? block.dictionaries->find(id) : nullptr;
}

std::string no_dictionary(std::string_view frame) {
  const std::uint32_t id = common::frame_dictionary_id(frame);
  return id ? "names dictionary " + std::to_string(id) + ", which the archive does not hold" : "names no dictionary";
}

// A section of one Zstandard frame per directory group (9.3), each declaring the size its group
// takes in the stream, nothing after the last, and, with the archive's dictionaries, naming one
// of them: records where each frame starts.
Status walk_frames(DecodedBlock& block, int s, const Where& where) {
  GroupFrames& frames = block.frames[s];
  const std::vector<std::uint32_t>& column = block.directory.group_start[s - 1];
  auto bad = [&](const std::string& what, std::size_t at) {
    return corruption(where + ": section " + std::to_string(s) + ": " + what + where.byte(frames.at + at));
  };
  frames.start.clear();
  std::size_t pos = 0;
  for (std::size_t k = 0; k + 1 < column.size(); ++k) {
    frames.start.push_back(static_cast<std::uint32_t>(pos));
    const std::string_view rest = frames.stored.substr(pos);
    if (rest.size() < 4 || get_le(rest.data(), 4) != ZSTD_MAGICNUMBER)
      return bad("group " + std::to_string(k) + " has no Zstandard frame", pos);
    const std::size_t n = ZSTD_findFrameCompressedSize(rest.data(), rest.size());
    if (ZSTD_isError(n)) return bad("group " + std::to_string(k) + "'s frame is damaged", pos);
    const unsigned long long content = ZSTD_getFrameContentSize(rest.data(), n), size = column[k + 1] - column[k];
    if (block.encoding[s] == kZstdColumnsByGroup ? content > max_columns_size(size) : content != size)
      return bad("group " + std::to_string(k) + "'s frame does not declare the size the directory gives", pos);
    if (block.dictionary[s] && !named_dictionary(block, rest.substr(0, n)))
      return bad("group " + std::to_string(k) + "'s frame " + no_dictionary(rest.substr(0, n)), pos);
    pos += n;
  }
  frames.start.push_back(static_cast<std::uint32_t>(pos));
  if (pos != frames.stored.size()) return bad("bytes after the last group's frame", pos);
  return {};
}

// The texts stream of `size` bytes appended to `out` from `frame`, a zstd frame of its column
// form (9.3.2) that declares its size (checked by the caller, or here: up to the form's bound).
Status texts_from_columns(std::string_view frame, std::size_t size, std::string& out, const std::string& what) {
  static thread_local std::string form;
  const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (declared > max_columns_size(size) || !common::decompress_exact(frame, static_cast<std::uint32_t>(declared), form))
    return corruption(what + " does not decompress to its declared size");
  if (const char* why = columns_to_texts(form, size, out)) return corruption(what + ": column form: " + why);
  return {};
}

// Decompresses frame k of group-framed section s into its place in the section.
Status decompress_group(DecodedBlock& block, int s, std::uint32_t k, const Where& where) {
  const GroupFrames& frames = block.frames[s];
  const std::uint32_t from = frames.start[k], to = frames.start[k + 1];
  const std::uint32_t at = block.directory.group_start[s - 1][k], size = block.directory.group_start[s - 1][k + 1] - at;
  const std::string_view frame = frames.stored.substr(from, to - from);
  const std::string what =
      where + ": section " + std::to_string(s) + ": group " + std::to_string(k) + "'s frame" + where.byte(frames.at + from);
  if (block.encoding[s] == kZstdColumnsByGroup) {
    static thread_local std::string texts;
    texts.clear();
    if (auto st = texts_from_columns(frame, size, texts, what); !st) return st;
    std::copy(texts.begin(), texts.end(), block.sections[s].begin() + at);
    return {};
  }
  // (walk_frames found each frame's dictionary.)
  const ZSTD_DDict* ddict = block.dictionary[s] ? named_dictionary(block, frame) : nullptr;
  const std::size_t n =
      ZSTD_decompressDCtx(common::thread_dctx(ddict), block.sections[s].data() + at, size, frame.data(), frame.size());
  if (ZSTD_isError(n) || n != size) return corruption(what + " does not decompress to its size");
  return {};
}

}  // namespace

Status decode_block(std::string_view b, const Where& where, DecodedBlock& out, BlockParts parts) {
  BlockSizes sizes;
  if (auto st = read_block_sizes(b, where, sizes); !st) return st;
  out.games = sizes.games;
  out.coder = sizes.coder;
  out.variants = sizes.variants;
  out.modelled_tracks = sizes.modelled_tracks;
  out.xiangqi = sizes.xiangqi;
  out.xiangqi_model = sizes.xiangqi_model;
  out.xiangqi_spellings = sizes.xiangqi_spellings;
  out.xiangqi_book = sizes.xiangqi_book;
  out.derived_tags = sizes.derived_tags;
  out.layout = sizes.layout;
  std::copy(sizes.encoding, sizes.encoding + kSections, out.encoding);
  std::copy(sizes.dictionary, sizes.dictionary + kSections, out.dictionary);
  std::copy(sizes.stored, sizes.stored + kSections, out.stored);
  std::copy(sizes.raw, sizes.raw + kSections, out.raw);
  const std::uint32_t* raw = sizes.raw;
  std::size_t pos = sizes.data_offset;
  for (int s = 0; s < kSections; ++s) {
    const std::string_view stored = b.substr(pos, out.stored[s]);
    out.frames[s].stored = stored;
    out.frames[s].at = pos;
    out.frames[s].start.clear();
    out.frames[s].done.clear();
    pos += out.stored[s];
    if ((parts == BlockParts::kTagsOnly && s != kTags) || (parts == BlockParts::kDirectory && s != kStructure)) {
      out.sections[s].clear();
      continue;
    }
    const std::string at = where.byte(out.frames[s].at);
    const ZSTD_DDict* ddict = nullptr;
    if (out.encoding[s] == kZstdDictionary || (out.dictionary[s] && out.encoding[s] == kZstd)) {
      // The frame must name a dictionary of the archive (BLOCK-5).
      ddict = named_dictionary(out, stored);
      if (!ddict) return corruption(where + ": section " + std::to_string(s) + " " + no_dictionary(stored) + at);
    }
    if (out.encoding[s] == kStored) {
      out.sections[s].assign(stored);
    } else if (by_group(out.encoding[s])) {
      out.sections[s].clear();  // filled group by group once the directory is known
    } else if (out.encoding[s] == kZstdColumns) {
      out.sections[s].clear();
      if (auto st = texts_from_columns(stored, raw[s], out.sections[s], where + ": section " + std::to_string(s) + at); !st)
        return st;
    } else if (!common::decompress_exact(stored, raw[s], out.sections[s], ddict)) {
      return corruption(where + ": section " + std::to_string(s) + " does not decompress to its size" + at);
    }
  }
  if (parts == BlockParts::kTagsOnly) {
    out.directory = GameDirectory{};
    return decode_tags_section(out.sections[kTags], out.games, where, out.tags, out.players, out.layout);
  }
  if (auto st = parse_directory(where, raw, out); !st) return st;
  if (parts == BlockParts::kDirectory) return {};
  for (int s = kTexts; s < kSections; ++s) {
    if (!by_group(out.encoding[s])) continue;
    if (auto st = walk_frames(out, s, where); !st) return st;
    const auto groups = static_cast<std::uint32_t>(out.frames[s].start.size() - 1);
    if (parts == BlockParts::kLazyGroups) {
      out.sections[s].assign(raw[s], '\0');
      out.frames[s].done.assign(groups, false);
      continue;
    }
    // The section grows only as frames give their bytes (a declared size that lies costs no
    // memory beyond what the frames before it yielded).
    for (std::uint32_t k = 0; k < groups; ++k) {
      out.sections[s].resize(out.directory.group_start[s - 1][k + 1]);
      if (auto st = decompress_group(out, s, k, where); !st) return st;
    }
  }
  if (parts == BlockParts::kAll) return decode_tags_section(out.sections[kTags], out.games, where, out.tags, out.players, out.layout);
  return {};
}

Status count_block(std::string_view bytes, const Where& where, DecodedBlock& block, BlockCounts& out) {
  if (auto st = decode_block(bytes, where, block, BlockParts::kLazyGroups); !st) return st;
  std::vector<bool>& raw_done = block.frames[kRaw].done;
  for (std::uint32_t k = 0; k < raw_done.size(); ++k)
    if (!raw_done[k]) {
      if (auto st = decompress_group(block, kRaw, k, where); !st) return st;
      raw_done[k] = true;
    }
  out.plies = block.directory.plies;
  out.filter_bytes = block.directory.filter.size();
  // Layout 5 is the table columns'; layouts 6 to 8 may hold them beside Xiangqi positions,
  // unescaped values and name entries, or not.
  out.table_columns = block.layout == kTableTagsLayout;
  if (xiangqi_layout(block.layout)) {
    std::vector<TagColumnView> columns;
    if (auto st = read_tag_columns(block.sections[kTags], block.games, where, columns); !st) return st;
    for (const TagColumnView& c : columns) out.table_columns |= c.coding == static_cast<std::uint8_t>(TagCoding::kTable);
  }
  std::string_view raw_stream = block.sections[kRaw], bytes_of;
  common::ByteReader raw(raw_stream);
  while (raw.remaining())
    if (!raw.prefixed(bytes_of)) return corruption(where + ": the raw section ends inside a verbatim game");
    else ++out.verbatim;
  return {};
}

Status group_ready(DecodedBlock& block, std::uint32_t k, const Where& where) {
  for (int s = kTexts; s < kSections; ++s) {
    if (block.frames[s].done.empty() || block.frames[s].done[k]) continue;
    if (auto st = decompress_group(block, s, k, where); !st) return st;
    block.frames[s].done[k] = true;
  }
  return {};
}

codec::CodecCursor group_cursor(const DecodedBlock& block, std::uint32_t k, bool bounded) {
  auto from = [&](int i, std::string_view stream) {
    const std::uint32_t start = block.directory.group_start[i][k];
    return bounded ? stream.substr(start, block.directory.group_start[i][k + 1] - start) : stream.substr(start);
  };
  codec::CodecCursor c{from(0, block.sections[kMoves]), from(1, block.structure_stream()), from(2, block.sections[kTexts]),
                       from(3, block.sections[kRaw]), block.coder, block.variants, block.modelled_tracks};
  c.xiangqi = block.xiangqi;
  c.xiangqi_model = block.xiangqi_model;
  c.xiangqi_spellings = block.xiangqi_spellings;
  c.xiangqi_book = block.xiangqi_book;
  return c;
}

Status check_group_end(const DecodedBlock& block, std::uint32_t j, codec::CodecCursor& c, const std::string& where) {
  const std::uint32_t step = block.directory.step;
  if ((j + 1) % step != 0 && j + 1 != block.games) return {};
  // A group's move codewords end at a byte boundary, the bits up to it 0.
  if (c.move_bit != 0) {
    if (c.moves.empty() || (static_cast<unsigned char>(c.moves[0]) & (0xFFu >> c.move_bit)) != 0)
      return corruption(where + ": game directory: the move codewords of the games up to game " + std::to_string(j + 1) +
                        " of the block are not followed by zero bits to the end of their byte");
    c.moves.remove_prefix(1);
    c.move_bit = 0;
  }
  // Where the games stopped reading, against where the next group starts (or the streams end).
  const std::uint32_t next = (j + step) / step;
  const std::string_view base[4] = {block.sections[kMoves], block.structure_stream(), block.sections[kTexts],
                                    block.sections[kRaw]};
  const std::string_view at[4] = {c.moves, c.structure, c.texts, c.raw};
  for (int i = 0; i < 4; ++i)
    if (at[i].data() != base[i].data() + block.directory.group_start[i][next])
      return corruption(where + ": game directory: the games up to game " + std::to_string(j + 1) +
                        " of the block do not end where their entry says");
  return {};
}

}  // namespace pgnarc::container
