#include "container/index.h"

#include <algorithm>

#include <cstring>

#include "common/bytes.h"
#include "common/endian.h"
#include "common/zstd_frame.h"

namespace pgnarc::container {

using common::ByteReader;
using common::get_le;
using common::put_le;
using common::put_prefixed;
using common::put_varint;

std::uint64_t block_total(const Index& index) {
  std::uint64_t n = 0;
  for (const TableChunkEntry& c : index.table_chunks) n += c.blocks;
  return n;
}

std::uint64_t blocks_end(const Index& index, std::uint64_t index_offset) {
  for (const auto& chunks : index.name_chunks)
    if (!chunks.empty()) return chunks[0].offset;
  return index.table_chunks.empty() ? index_offset : index.table_chunks[0].offset;
}

std::string encode_index(const Index& index, const StoreOptions& options) {
  std::string body;
  put_varint(body, index.dictionaries.size());
  for (const DictionaryEntry& d : index.dictionaries) {
    put_varint(body, d.offset);
    put_varint(body, d.size);
    put_varint(body, d.id);
  }
  put_varint(body, index.table_chunks.size());
  for (const TableChunkEntry& c : index.table_chunks) {
    put_varint(body, c.offset);
    put_varint(body, c.size);
    put_varint(body, c.blocks);
    put_varint(body, c.first_game);
  }
  for (const auto& chunks : index.name_chunks) {
    put_varint(body, chunks.size());
    for (const NameChunkEntry& c : chunks) {
      put_varint(body, c.offset);
      put_varint(body, c.size);
      put_varint(body, c.values);
      put_prefixed(body, c.first);
    }
  }
  // The extensions (9.5): this library's writer writes the value tables (9.4.8), made for the
  // archive it writes, and no other (it carries none of an archive it copies as they are: each
  // describes its archive as a whole).
  put_varint(body, index.extensions.size());
  for (const IndexExtension& e : index.extensions) {
    put_varint(body, e.id);
    put_prefixed(body, e.bytes);
  }
  std::string out(kIndexMagic, 4);
  std::uint8_t encoding = kStored;
  std::string packed;
  // An index with value tables is stored, their extension's bytes as they are (compressed on
  // their own), for a salvage to find by their magic (9.4.8).
  const bool tables = std::any_of(index.extensions.begin(), index.extensions.end(),
                                  [](const IndexExtension& e) { return e.id == kValueTablesExtension; });
  if (options.compress && !body.empty() && !tables) {
    packed = common::compress_frame(body, options.zstd_level);
    if (!packed.empty() && packed.size() < body.size()) encoding = kZstd;
  }
  out += static_cast<char>(encoding);
  put_le(out, body.size(), 4);
  out += encoding == kZstd ? packed : body;
  return out;
}

namespace {

// The directories of an index body; null, or what is wrong.
const char* parse_body(std::string_view body, std::uint64_t index_offset, Index& out, std::string& why) {
  ByteReader r(body);
  std::uint64_t n;
  // The dictionaries, in file order, with distinct IDs.
  if (!r.varint(n) || n > r.remaining()) return "bad dictionary count";
  out.dictionaries.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    DictionaryEntry& d = out.dictionaries[k];
    std::uint64_t id;
    if (!r.varint(d.offset) || !r.varint(d.size) || !r.varint(id)) return "dictionary entry runs past the end";
    if (id == 0 || id > 0xFFFFFFFFu) return "dictionary ID out of range";
    d.id = static_cast<std::uint32_t>(id);
    for (std::size_t j = 0; j < k; ++j)
      if (out.dictionaries[j].id == d.id) return (why = "two dictionaries with ID " + std::to_string(id)).c_str();
  }
  // The block directory: chunks of at least one block, each block of at least one game.
  if (!r.varint(n) || n > r.remaining()) return "bad block table chunk count";
  out.table_chunks.resize(n);
  std::uint64_t blocks = 0;
  for (std::size_t k = 0; k < n; ++k) {
    TableChunkEntry& c = out.table_chunks[k];
    if (!r.varint(c.offset) || !r.varint(c.size) || !r.varint(c.blocks) || !r.varint(c.first_game))
      return "block table chunk entry runs past the end";
    if (c.blocks == 0 || c.blocks > kMaxTableChunkBlocks || (blocks += c.blocks) > 0xFFFFFFFFu)
      return "block table chunk with 0 or too many blocks";
    if (k == 0 ? c.first_game != 0 : c.first_game < out.table_chunks[k - 1].first_game + out.table_chunks[k - 1].blocks)
      return "block table chunk's first game out of order";
  }
  // The elements after the blocks follow each other up to the index: the name chunks, field
  // after field (the Event's and Site's first values ascending), then the table chunks. Where the blocks
  // end is not known before their table is read: the first element starts the chain.
  constexpr std::uint64_t kChainStart = ~std::uint64_t{0};
  std::uint64_t next_offset = kChainStart;
  const auto chained = [&](std::uint64_t offset) {
    if (next_offset == kChainStart) next_offset = offset < kHeaderSize ? kHeaderSize : offset;
    return offset == next_offset;
  };
  for (int field = 0; field < kNameFieldCount; ++field) {
    auto& chunks = out.name_chunks[field];
    if (!r.varint(n) || n > r.remaining()) return "bad name chunk count";
    chunks.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      NameChunkEntry& c = chunks[k];
      std::string_view first_value;
      if (!r.varint(c.offset) || !r.varint(c.size) || !r.varint(c.values) || !r.prefixed(first_value))
        return "name chunk entry runs past the end";
      if (!chained(c.offset) || c.offset > index_offset || c.size < kNameChunkHeaderSize + 8 ||
          c.size > index_offset - c.offset || c.values == 0 ||
          c.values > kMaxNameChunkValues)
        return (why = "name chunk entry out of place (chunk at " + std::to_string(c.offset) + ")").c_str();
      c.first.assign(first_value);
      if (sorted_name_field(field) && k > 0 && !(chunks[k - 1].first < c.first))
        return "name chunks not in ascending order";
      next_offset = c.offset + c.size;
    }
  }
  for (const TableChunkEntry& c : out.table_chunks) {
    if (!chained(c.offset) || c.offset > index_offset || c.size < kTableChunkHeaderSize + 8 ||
        c.size > index_offset - c.offset)
      return (why = "block table chunk entry out of place (chunk at " + std::to_string(c.offset) + ")").c_str();
    next_offset = c.offset + c.size;
  }
  // The blocks and dictionaries before them are checked when the table is read
  // (check_block_layout), but for the dictionaries' bounds, and all of it when there are no
  // blocks.
  const std::uint64_t end = blocks_end(out, index_offset);
  std::uint64_t at = kHeaderSize;
  for (const DictionaryEntry& d : out.dictionaries) {
    if (d.offset < at || d.offset > end || d.size < kDictionaryHeaderSize + 8 || d.size > end - d.offset)
      return (why = "dictionary entry out of place (dictionary at " + std::to_string(d.offset) + ")").c_str();
    at = d.offset + d.size;
  }
  if (out.table_chunks.empty())
    if (const char* problem = LayoutCheck(out.dictionaries, end).finish()) return problem;
  if (next_offset == kChainStart) next_offset = index_offset;
  if (next_offset != index_offset) return "blocks do not end where the index begins";
  // The extensions that a later minor version may add, IDs ascending: their bytes are skipped
  // here; decode_index refuses the archive if one it must understand is among them.
  if (!r.varint(n) || n > r.remaining()) return "bad extension count";
  out.extensions.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    IndexExtension& e = out.extensions[k];
    std::string_view bytes;
    if (!r.varint(e.id) || !r.prefixed(bytes)) return "extension runs past the end";
    if (k > 0 && e.id <= out.extensions[k - 1].id) return "extension IDs not ascending";
    e.bytes.assign(bytes);
  }
  if (r.remaining() != 0) return "bytes left over";
  return nullptr;
}

}  // namespace

Status decode_index(std::string_view b, std::uint64_t index_offset, Index& out) {
  const std::string where = "index at offset " + std::to_string(index_offset);
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what); };
  if (b.size() < 9 || std::memcmp(b.data(), kIndexMagic, 4) != 0) return bad("bad index magic");
  const auto encoding = static_cast<std::uint8_t>(b[4]);
  const std::uint64_t raw_size = get_le(b.data() + 5, 4);
  if (encoding > kZstd || raw_size > (1ull << 31)) return bad("bad index encoding or size");
  if (encoding == kStored && b.size() - 9 != raw_size) return bad("size mismatch");
  std::string body;
  if (encoding == kZstd && !common::decompress_exact(b.substr(9), static_cast<std::uint32_t>(raw_size), body))
    return bad("does not decompress to its size");
  std::string why;
  if (const char* problem = parse_body(encoding == kZstd ? std::string_view(body) : b.substr(9), index_offset, out, why))
    return bad(problem);
  // What is corrupt first (INDEX-3 too), then what this version does not define (INDEX-2).
  for (const IndexExtension& e : out.extensions)
    if (e.id == kValueTablesExtension) {
      auto tables = ValueTables::decode(e.bytes, where);
      if (!tables) return tables.error();
      out.tables = std::move(*tables);
    }
  for (const IndexExtension& e : out.extensions) {
    if (e.id % 2 == 1)
      return unsupported(where + ": index extension " + std::to_string(e.id) + " is not defined in format " +
                         std::to_string(kFormatVersionMajor) + "." + std::to_string(kFormatVersionMinor) +
                         ", and a reader must understand it (it is odd)");
  }
  return {};
}

}  // namespace pgnarc::container
