#include "container/block_table.h"

#include <algorithm>

#include "common/bytes.h"
#include "container/element.h"

namespace pgnarc::container {

using common::ByteReader;
using common::put_varint;

namespace {

// A block's entry in a table chunk: the gap from `previous_end` (the end of the chunk's entry
// before; 0 for its first) to its offset, size, games, date_min, date_max (varints), results (a
// byte).
void put_block_entry(std::string& out, const BlockEntry& e, std::uint64_t previous_end) {
  put_varint(out, e.offset - previous_end);
  put_varint(out, e.size);
  put_varint(out, e.games);
  put_varint(out, e.summary.date_min);
  put_varint(out, e.summary.date_max);
  out += static_cast<char>(e.summary.results);
}

// Reads one (offset still the gap; first_game left to the caller); null, or what is wrong.
const char* read_block_entry(ByteReader& r, BlockEntry& e) {
  std::uint64_t games, dmin, dmax;
  std::uint8_t results;
  if (!r.varint(e.offset) || !r.varint(e.size) || !r.varint(games) || !r.varint(dmin) || !r.varint(dmax) || !r.u8(results))
    return "runs past the end";
  if (games == 0 || games > kMaxBlockGames) return "with 0 or too many games";
  e.games = static_cast<std::uint32_t>(games);
  e.summary.date_min = static_cast<std::uint32_t>(std::min<std::uint64_t>(dmin, 99999999));
  e.summary.date_max = static_cast<std::uint32_t>(std::min<std::uint64_t>(dmax, 99999999));
  e.summary.results = results;
  return nullptr;
}

}  // namespace

std::string encode_block_table(const std::vector<BlockEntry>& blocks, std::uint64_t offset, std::uint64_t per_chunk,
                               const StoreOptions& options, std::vector<TableChunkEntry>& chunks) {
  std::string out;
  chunks.clear();
  for (std::size_t b = 0; b < blocks.size(); b += per_chunk) {
    const std::size_t end = std::min<std::size_t>(blocks.size(), b + per_chunk);
    std::string content;
    put_varint(content, end - b);
    for (std::size_t i = b; i < end; ++i)
      put_block_entry(content, blocks[i], i == b ? 0 : blocks[i - 1].offset + blocks[i - 1].size);
    const std::string element = encode_element(kTableChunkShape, std::string(kTableChunkMagic, 4), content, options);
    chunks.push_back(TableChunkEntry{offset + out.size(), element.size(), end - b, blocks[b].first_game});
    out += element;
  }
  return out;
}

std::size_t table_chunk_element_size(std::string_view b) { return element_size(b, kTableChunkShape); }

Status decode_table_chunk(std::string_view element, const std::vector<TableChunkEntry>& chunks, std::size_t k,
                        std::uint64_t games, std::uint64_t end, const Where& where, std::vector<BlockEntry>& out) {
  const TableChunkEntry& c = chunks[k];
  std::string content;
  if (auto st = decode_element(element, where, kTableChunkShape, nullptr, content); !st) return st;
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what + " (block table chunk entries)"); };
  std::string_view in(content);
  ByteReader r(in);
  std::uint64_t count;
  if (!r.varint(count) || count != c.blocks) return bad("lists another number of blocks than the index says");
  out.resize(count);
  std::uint64_t first = c.first_game, at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    BlockEntry& e = out[i];
    if (const char* why = read_block_entry(r, e)) return bad("block entry " + std::to_string(i) + " " + why);
    // (Its offset is the gap from the entry before.)
    if (e.offset > end - at || (e.offset += at) < kHeaderSize || e.size > end - e.offset)
      return bad("block entry " + std::to_string(i) + " out of place (block at " + std::to_string(e.offset) + ")");
    at = e.offset + e.size;
    e.first_game = first;
    first += e.games;
  }
  if (r.remaining() != 0) return bad("bytes left over");
  const std::uint64_t next_first = k + 1 < chunks.size() ? chunks[k + 1].first_game : games;
  if (first != next_first)
    return bad("its blocks hold " + std::to_string(first - c.first_game) + " games, the index says " +
               std::to_string(next_first - c.first_game));
  return {};
}

bool LayoutCheck::skip_dictionaries() {
  for (; next_dict_ < dicts_.size() && dicts_[next_dict_].offset == next_offset_; ++next_dict_) {
    const DictionaryEntry& d = dicts_[next_dict_];
    if (d.size < kDictionaryHeaderSize + 8 || d.size > end_ - d.offset) return false;
    next_offset_ = d.offset + d.size;
  }
  return true;
}

const char* LayoutCheck::add(const BlockEntry& e) {
  if (!skip_dictionaries()) return "dictionary entry out of place";
  if (e.offset != next_offset_ || e.offset > end_ || e.size > end_ - e.offset) return "block entry out of place";
  next_offset_ = e.offset + e.size;
  return nullptr;
}

const char* LayoutCheck::finish() {
  // (Every dictionary must have been passed: one left over is not where its entry says.)
  if (!skip_dictionaries() || next_dict_ != dicts_.size()) return "dictionary entry out of place";
  if (next_offset_ != end_) return "blocks and dictionaries do not end where the name chunks, block table or index begin";
  return nullptr;
}

Status check_block_layout(const std::vector<DictionaryEntry>& dictionaries, std::uint64_t end, std::uint64_t blocks,
                          const std::function<const BlockEntry&(std::uint64_t)>& entry, const std::string& path) {
  LayoutCheck layout(dictionaries, end);
  for (std::uint64_t b = 0; b < blocks; ++b)
    if (const char* problem = layout.add(entry(b)))
      return corruption(path + ": block table: " + problem + " (block " + std::to_string(b) + " at offset " +
                        std::to_string(entry(b).offset) + ")");
  if (const char* problem = layout.finish()) return corruption(path + ": block table: " + problem);
  return {};
}

}  // namespace pgnarc::container
