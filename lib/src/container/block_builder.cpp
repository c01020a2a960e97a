#include "container/block_builder.h"

#include <algorithm>
#include <stdexcept>

#include "common/bytes.h"
#include "common/endian.h"
#include "common/hash.h"
#include "common/zstd_frame.h"
#include "container/position_filter.h"
#include "container/tag_dictionary.h"
#include "container/tag_values.h"
#include "container/tags_section.h"
#include "container/text_columns.h"

namespace pgnarc::container {

using common::get_le;
using common::put_le;
using common::put_prefixed;
using common::put_varint;

void BlockBuilder::end_game(const std::vector<Tag>& game_tags, std::vector<std::uint8_t> derived_rules) {
  tags.push_back(game_tags);
  derived.push_back(std::move(derived_rules));
  ++games;
  const std::string* stream[4] = {&streams.moves, &streams.structure, &streams.texts, &streams.raw};
  for (int i = 0; i < 4; ++i) game_end[i].push_back(static_cast<std::uint32_t>(stream[i]->size()));
  game_end[0].back() = static_cast<std::uint32_t>(streams.move_bits);  // the moves stream counts bits
  summary.add_game(game_tags);
}

namespace {

// Appends bits [from, from + n) of `src` (most significant first) to `out`, padded with 0 bits to
// a whole byte.
void append_bits(std::string& out, std::string_view src, std::uint64_t from, std::uint64_t n) {
  const std::size_t first = from / 8;
  const unsigned shift = from % 8;
  const std::size_t bytes = (n + 7) / 8;
  const auto byte_at = [&](std::size_t i) { return i < src.size() ? static_cast<unsigned char>(src[i]) : 0u; };
  for (std::size_t i = 0; i < bytes; ++i) {
    unsigned v = byte_at(first + i) << shift | (shift ? byte_at(first + i + 1) >> (8 - shift) : 0u);
    if (i + 1 == bytes && n % 8) v &= 0xFF00u >> (n % 8);
    out += static_cast<char>(v & 0xFF);
  }
}

}  // namespace

std::string encode_tags_section(const std::vector<std::vector<Tag>>& games, const std::vector<std::uint32_t>* players,
                                const StoreOptions& options, const std::vector<std::vector<std::uint8_t>>* derived,
                                bool coded, const TableColumns* tables, bool xiangqi_positions, const NameEntries* names) {
  return encode_tags_section(games, options.compress ? BlockBuilder::kTagChoiceLevel : 0, players, derived, coded, tables,
                             xiangqi_positions, names);
}

std::string BlockBuilder::tags_section(const StoreOptions& options) const {
  return encode_tags_section(tags, players ? &*players : nullptr, options, derive_tags ? &derived : nullptr, code_tags,
                             tables ? &*tables : nullptr, xiangqi_positions, names ? &*names : nullptr);
}

std::uint8_t tags_section_layout(std::string_view in, std::uint32_t games) {
  std::vector<TagColumnView> columns;
  if (!read_tag_columns(in, games, "", columns)) throw std::logic_error("tags_section_layout: a section that does not read");
  std::uint8_t layout = kBlockLayout;
  for (const TagColumnView& c : columns)
    if (c.coding == static_cast<std::uint8_t>(TagCoding::kPlayer) && name_field_of(c.key) != kPlayerField)
      return kNameEntriesLayout;
  for (const TagColumnView& c : columns)
    if (c.coding == static_cast<std::uint8_t>(TagCoding::kUnescaped)) return kUnescapedTagsLayout;
  for (const TagColumnView& c : columns)
    if (c.coding == static_cast<std::uint8_t>(TagCoding::kXiangqiPosition)) return kXiangqiTagsLayout;
  for (const TagColumnView& c : columns)
    if (c.coding == static_cast<std::uint8_t>(TagCoding::kTable)) return kTableTagsLayout;
  for (const TagColumnView& c : columns) {
    if (c.coding == static_cast<std::uint8_t>(TagCoding::kCoded)) return kCodedTagsLayout;
    if (c.coding == static_cast<std::uint8_t>(TagCoding::kDerived) || c.coding == static_cast<std::uint8_t>(TagCoding::kNamed))
      layout = kDerivedTagsLayout;
  }
  return layout;
}

namespace {

// The tags section as stored: compressed with the dictionary where there is one, else in one
// zstd frame; stored when compression does not pay (or is off, or fails).
std::string pack_tags(std::string_view raw, const StoreOptions& options, const WriterDictionary* dict,
                      std::uint8_t& encoding) {
  encoding = kStored;
  if (!options.compress || raw.empty()) return std::string(raw);
  std::string packed = dict ? dict->compress(raw) : common::compress_frame(raw, options.zstd_level);
  if (packed.empty() || packed.size() >= raw.size()) return std::string(raw);
  encoding = dict ? kZstdDictionary : kZstd;
  return packed;
}

void put_section_entry(std::string& table, int s, std::uint8_t encoding, std::size_t stored, std::size_t raw) {
  table += static_cast<char>(s);
  table += static_cast<char>(encoding);
  put_le(table, 0, 2);
  put_le(table, stored, 4);
  put_le(table, raw, 4);
}

}  // namespace

std::string replace_tags_section(std::string_view block, std::string_view tags, const StoreOptions& options,
                                 const WriterDictionary* dict) {
  std::uint8_t encoding;
  const std::string stored = pack_tags(tags, options, dict, encoding);
  // The section table may hold optional sections past the fifth (9.3): they are copied as they are.
  const std::size_t table = kBlockHeaderSize;
  const std::size_t data = table + static_cast<std::uint8_t>(block[5]) * kSectionEntrySize;
  const std::size_t old_stored = get_le(block.data() + table + 4, 4);
  std::string out(block.substr(0, table));
  out[6] = static_cast<char>(tags_section_layout(tags, static_cast<std::uint32_t>(get_le(block.data() + 8, 4))));
  put_section_entry(out, kTags, encoding, stored.size(), tags.size());
  out += block.substr(table + kSectionEntrySize, data - table - kSectionEntrySize);
  out += stored;
  out += block.substr(data + old_stored, block.size() - kBlockChecksumSize - data - old_stored);
  put_le(out, common::hash64(out), 8);
  return out;
}

std::uint64_t BlockBuilder::max_group_games() const {
  // Reading a game decodes the codewords of the games before it in its group: at most
  // kMaxGroupGames games a group, but where the block has no codewords (its games kept verbatim).
  return streams.moves.empty() ? std::max<std::uint64_t>(games, 1) : kMaxGroupGames;
}

bool BlockBuilder::framed(const StoreOptions& options, std::uint64_t step) const {
  // Where groups of `step` games hold less than half a frame (at most kMaxGroupGames games of a
  // few hundred bytes: verbatim games beside coded ones, short comments; one game a group of a
  // block made for position search), frames that small compress too little alone (a block of 141
  // Xiangqi games, 116 of them verbatim: 56% larger framed), and the sections are read whole
  // instead (a block holds at most --block-kib of PGN).
  const std::uint64_t big = std::max(streams.texts.size(), streams.raw.size());
  return options.compress && options.frame_bytes != 0 && big > 2 * options.frame_bytes &&
         2 * step * big >= games * options.frame_bytes;
}

std::uint32_t BlockBuilder::directory_step(const StoreOptions& options) const {
  // Reading a game decodes the codewords of the games before it in its group.
  // Where the texts or verbatim games are stored by group, a group holds about frame_bytes of
  // them: smaller frames would compress them less well.
  // Else one game a group, whatever the move coder: a read then decodes only its own game. With
  // the fast model that is half or less of a read of groups of eight (a ply costs about 0.6 us);
  // with the uniform coder a random read takes about 0.55x the time of groups of about 1 KiB of
  // codewords (TWIC, lichess 2016), for 0.1-3% more bytes (the directory's four varints a game).
  // The exception is a uniform block whose codewords take at most kSmallBlock bytes: it decodes
  // whole in tens of microseconds, and its groups of up to eight games keep small archives small.
  constexpr std::uint64_t kSmallBlock = 1024;
  // A block made for position search needs one game a group anyway: a search reads each game's
  // main line from its own start, as far as it can still reach the position.
  if (options.position_filter) return 1;
  if (const std::uint64_t big = std::max(streams.texts.size(), streams.raw.size()); big > 0) {
    const std::uint64_t step = std::clamp<std::uint64_t>(games * options.frame_bytes / big, 1, max_group_games());
    if (framed(options, step)) return static_cast<std::uint32_t>(step);
  }
  if (streams.coder != codec::MoveCoder::kUniform || streams.moves.size() > kSmallBlock) return 1;
  return static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(games * kSmallBlock / std::max<std::uint64_t>(streams.moves.size(), 1), 1,
                                kMaxGroupGames));
}

BlockBuilder::MovesAndStructure BlockBuilder::moves_and_structure(const StoreOptions& options) const {
  // The game directory (9.3.1): games per group, then per stream one varint per group (the
  // bytes the group's games take), then the structure stream.
  const std::uint32_t step = directory_step(options);
  const std::uint32_t groups = (games + step - 1) / step;
  const auto group_from = [&](int i, std::uint32_t k) { return k ? game_end[i][k * step - 1] : 0u; };
  const auto group_to = [&](int i, std::uint32_t k) { return game_end[i][std::min(games, (k + 1) * step) - 1]; };
  // The moves stream: each group's codewords from a byte boundary (the column counts bytes).
  MovesAndStructure out;
  std::vector<std::uint32_t>& move_bytes = out.group_bytes;
  move_bytes.resize(groups);
  for (std::uint32_t k = 0; k < groups; ++k) {
    const std::size_t before = out.moves.size();
    append_bits(out.moves, streams.moves, group_from(0, k), group_to(0, k) - group_from(0, k));
    move_bytes[k] = static_cast<std::uint32_t>(out.moves.size() - before);
  }
  put_varint(out.structure, step);
  put_varint(out.structure, plies);
  for (std::uint32_t k = 0; k < groups; ++k) put_varint(out.structure, move_bytes[k]);
  for (int i = 1; i < 4; ++i)
    for (std::uint32_t k = 0; k < groups; ++k) put_varint(out.structure, group_to(i, k) - group_from(i, k));
  put_prefixed(out.structure, make_filter(filter_keys));
  out.structure += streams.structure;
  return out;
}

MovesSections moves_sections(const std::vector<const BlockBuilder*>& blocks, const StoreOptions& options) {
  MovesSections out;
  std::vector<std::vector<std::uint32_t>> group_bytes;
  for (const BlockBuilder* b : blocks) {
    BlockBuilder::MovesAndStructure ms = b->moves_and_structure(options);
    out.sections.push_back(std::move(ms.moves));
    out.sections.push_back(std::move(ms.structure));
    group_bytes.push_back(std::move(ms.group_bytes));
  }
  std::vector<std::string_view> moves;
  for (std::size_t k = 0; k < out.sections.size(); k += 2) moves.emplace_back(out.sections[k]);
  out.repeats = repeated_codewords(moves, group_bytes);
  return out;
}

std::string BlockBuilder::finish(const StoreOptions& options, const WriterDictionary* dict,
                                 const std::string* made_tags, const WriterDictionary* text_dict,
                                 const WriterDictionary* moves_dict) const {
  const std::uint32_t step = directory_step(options);
  const std::uint32_t groups = (games + step - 1) / step;
  const bool framed_sections = framed(options, step);
  // Where group k starts and ends in stream i.
  const auto group_from = [&](int i, std::uint32_t k) { return k ? game_end[i][k * step - 1] : 0u; };
  const auto group_to = [&](int i, std::uint32_t k) { return game_end[i][std::min(games, (k + 1) * step) - 1]; };
  const MovesAndStructure ms = moves_and_structure(options);
  const std::string &moves = ms.moves, &structure = ms.structure;
  const std::string made = made_tags ? std::string() : tags_section(options);
  const std::string& tags_plain = made_tags ? *made_tags : made;
  const std::string_view plain[kSections] = {tags_plain, moves, structure, streams.texts, streams.raw};
  std::string table, data;
  for (int s = 0; s < kSections; ++s) {
    const std::string_view raw = plain[s];
    std::uint8_t encoding = kStored;
    std::string packed;
    if (options.compress && !raw.empty()) {
      // Texts and verbatim games also in their column form (9.3.2), kept where every entry
      // allows it and it compresses smaller.
      std::string whole_form;
      const bool columns = (s == kTexts || s == kRaw) && options.text_columns && texts_to_columns(raw, whole_form);
      // The section as frames of the whole or of each group, of the stream's bytes or of their
      // column form; empty if zstd failed.
      const auto frames = [&](bool column_form, bool by_group) {
        std::string out, form;
        for (std::uint32_t k = 0, parts = by_group ? groups : 1; k < parts; ++k) {
          const std::uint32_t from = by_group ? group_from(s - 1, k) : 0;
          std::string_view bytes = by_group ? raw.substr(from, group_to(s - 1, k) - from) : raw;
          if (column_form && !by_group) {
            bytes = whole_form;
          } else if (column_form) {
            form.clear();
            texts_to_columns(bytes, form);
            bytes = form;
          }
          const std::string frame =
              s < kTexts ? (moves_dict ? moves_dict->compress(bytes) : common::compress_frame(bytes, options.zstd_level))
                         : (text_dict && !column_form ? text_dict->compress(bytes)
                                                      : common::compress_frame(bytes, options.text_level));
          if (frame.empty()) return std::string();
          out += frame;
        }
        return out;
      };
      if (s == kTags) {
        packed = pack_tags(raw, options, dict, encoding);
      } else {
        // Texts and raw games larger than two frames go one frame per group (9.3), others in one.
        const bool by_group =
            (s == kTexts || s == kRaw) && framed_sections && raw.size() > 2 * options.frame_bytes && groups > 1;
        packed = frames(false, by_group);
        if (!packed.empty()) encoding = by_group ? kZstdByGroup : kZstd;
        if (columns) {
          std::string in_columns = frames(true, by_group);
          if (!in_columns.empty() && (packed.empty() || in_columns.size() < packed.size())) {
            packed = std::move(in_columns);
            encoding = by_group ? kZstdColumnsByGroup : kZstdColumns;
          }
        }
      }
      if (encoding != kStored && packed.size() >= raw.size()) encoding = kStored;
      if (text_dict && s >= kTexts && (encoding == kZstd || encoding == kZstdByGroup)) encoding = with_text_dictionary(encoding);
      if (moves_dict && (s == kMoves || s == kStructure) && encoding == kZstd) encoding = kZstdMovesDictionary;
    }
    const std::string_view stored = encoding == kStored ? raw : std::string_view(packed);
    put_section_entry(table, s, encoding, stored.size(), raw.size());
    data += stored;
  }
  std::string block(kBlockMagic, 4);
  block += static_cast<char>(streams.codec());
  block += static_cast<char>(kSections);
  block += static_cast<char>(tags_section_layout(tags_plain, games));
  block += static_cast<char>(streams.coder);
  put_le(block, games, 4);
  block += table;
  block += data;
  put_le(block, common::hash64(block), 8);
  return block;
}

}  // namespace pgnarc::container
