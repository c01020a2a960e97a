#include "support/archive_surgery.h"

#include <cstdio>
#include <cstdlib>

#include "codec/entropy/arith_coder.h"
#include "common/endian.h"
#include "common/hash.h"
#include "container/block_builder.h"
#include "container/block_reader.h"
#include "container/format.h"

namespace pgnarc::test {

using namespace container;
using common::get_le;
using common::hash64;
using common::put_le;

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "archive surgery: %s\n", why.c_str());
  std::abort();
}

std::string footer_for(std::uint64_t index_offset, std::string_view index, std::uint64_t games, std::uint64_t blocks) {
  Footer f;
  f.index_offset = index_offset;
  f.index_size = index.size();
  f.games = games;
  f.blocks = blocks;
  f.index_hash = hash64(index);
  return encode_footer(f);
}

}  // namespace

StoreOptions stored_sections() {
  StoreOptions o;
  o.compress = false;
  return o;
}

ArchiveParts parts_of(std::string_view pga) {
  ArchiveParts p;
  if (pga.size() < kFooterSize) fail("shorter than a footer");
  if (auto st = decode_footer(pga.substr(pga.size() - kFooterSize), pga.size(), p.footer); !st) fail(st.error().message());
  if (auto st = decode_index(pga.substr(p.footer.index_offset, p.footer.index_size), p.footer.index_offset, p.index); !st)
    fail(st.error().message());
  const std::uint64_t end = blocks_end(p.index, p.footer.index_offset);
  std::vector<BlockEntry> part;
  for (std::size_t k = 0; k < p.index.table_chunks.size(); ++k) {
    const TableChunkEntry& c = p.index.table_chunks[k];
    if (c.offset > pga.size() || c.size > pga.size() - c.offset) fail("a table chunk past the end");
    if (auto st = decode_table_chunk(pga.substr(c.offset, c.size), p.index.table_chunks, k, p.footer.games, end,
                                   "table chunk", part);
        !st)
      fail(st.error().message());
    p.blocks.insert(p.blocks.end(), part.begin(), part.end());
  }
  return p;
}

std::string rebuild(std::string_view pga, std::uint64_t tail_at, std::string_view tail, Index index,
                    const std::vector<BlockEntry>& blocks, std::uint64_t per_chunk) {
  std::vector<BlockEntry> numbered = blocks;
  std::uint64_t games = 0;
  for (BlockEntry& e : numbered) {
    e.first_game = games;
    games += e.games;
  }
  const std::string table =
      encode_block_table(numbered, tail_at + tail.size(), per_chunk, stored_sections(), index.table_chunks);
  const std::string idx = encode_index(index, stored_sections());
  const std::uint64_t index_offset = tail_at + tail.size() + table.size();
  return std::string(pga.substr(0, tail_at)) + std::string(tail) + table + idx +
         footer_for(index_offset, idx, games, blocks.size());
}

std::string with_tables(std::string_view pga, const ArchiveParts& parts) {
  const ArchiveParts old = parts_of(pga);
  const std::uint64_t at = old.index.table_chunks.empty() ? old.footer.index_offset : old.index.table_chunks[0].offset;
  return rebuild(pga, at, "", parts.index, parts.blocks);
}

std::string with_index(std::string_view pga, const Index& index) {
  const Footer f = parts_of(pga).footer;
  const std::string idx = encode_index(index, stored_sections());
  return std::string(pga.substr(0, f.index_offset)) + idx + footer_for(f.index_offset, idx, f.games, f.blocks);
}

std::string edit_names(std::string_view pga,
                       const std::function<void(int, std::size_t, std::vector<NameEntry>&)>& edit) {
  ArchiveParts p = parts_of(pga);
  const std::uint64_t start = p.index.name_chunks[0].at(0).offset;
  std::string tail;
  for (int field = 0; field < kNameFieldCount; ++field) {
    const std::vector<NameChunkEntry> chunks = p.index.name_chunks[field];
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      std::vector<NameEntry> entries;
      if (auto st = decode_name_chunk(pga.substr(chunks[k].offset, chunks[k].size), "name chunk", field, chunks[k],
                                    k + 1 < chunks.size() ? &chunks[k + 1].first : nullptr, p.blocks.size(), entries);
          !st)
        fail(st.error().message());
      edit(field, k, entries);
      ChunkEntries body;
      for (const NameEntry& e : entries) body.add(e.value, e.blocks);
      const std::string element = encode_name_chunk(field, body, stored_sections());
      NameChunkEntry& c = p.index.name_chunks[field][k];
      c.offset = start + tail.size();
      c.size = element.size();
      c.values = entries.size();
      c.first = entries.at(0).value;
      tail += element;
    }
  }
  return rebuild(pga, start, tail, p.index, p.blocks);
}

std::string edit_block(std::string pga, const std::function<void(std::string&)>& edit) {
  const std::uint64_t size = parts_of(pga).blocks.at(0).size;
  std::string block = pga.substr(kHeaderSize, size - 8);
  edit(block);
  if (block.size() != size - 8) fail("edit_block changed the block's size");
  put_le(block, hash64(block), 8);
  return pga.replace(kHeaderSize, block.size(), block);
}

std::string resize_block(const std::string& pga, const std::function<void(std::string&)>& edit) {
  ArchiveParts p = parts_of(pga);
  for (const auto& chunks : p.index.name_chunks)
    if (!chunks.empty()) fail("resize_block: the archive has name chunks");
  BlockEntry& entry = p.blocks.at(0);
  std::string block = pga.substr(kHeaderSize, entry.size - 8);
  edit(block);
  put_le(block, hash64(block), 8);
  entry.size = block.size();
  return rebuild(pga.substr(0, kHeaderSize) + block, kHeaderSize + block.size(), "", p.index, p.blocks);
}

std::string archive_of(const std::vector<codec::CodecStreams>& games, const std::vector<std::vector<Tag>>& tags,
                       const std::string& trailing_moves, const WriterDictionary* dict) {
  BlockBuilder b;
  for (std::size_t g = 0; g < games.size(); ++g) {
    // The game's codeword, bit after bit.
    for (std::uint64_t i = 0; i < games[g].move_bits; ++i)
      codec::BitSink{b.streams.moves, b.streams.move_bits}.put(codec::bit_at(games[g].moves, i));
    b.streams.structure += games[g].structure;
    b.streams.texts += games[g].texts;
    b.streams.raw += games[g].raw;
    b.streams.coder = games[g].coder;
    b.streams.variants |= games[g].variants;
    b.streams.modelled_tracks |= games[g].modelled_tracks && games[g].tracks;
    b.streams.tracks |= games[g].tracks;
    b.streams.xiangqi |= games[g].xiangqi;
    b.end_game(tags[g]);
    // The block's ply count: of the games that decode (a damaged one fails before it is compared).
    codec::CodecCursor c{games[g].moves, games[g].structure, games[g].texts, games[g].raw, games[g].coder,
                         games[g].codec() != codec::kMoveCodec,
                         games[g].codec() == codec::kModelledTracksCodec || games[g].codec() == codec::kXiangqiTracksCodec};
    c.xiangqi = games[g].xiangqi;
    if (auto d = codec::decode_game(c, tags[g]); d && !d->raw)
      for (const GameEvent& e : d->game.events) b.plies += e.type == GameEvent::kMove || e.type == GameEvent::kNullMove;
  }
  // Bytes after the last game: part of its group.
  for (char byte : trailing_moves)
    for (int k = 7; k >= 0; --k) codec::BitSink{b.streams.moves, b.streams.move_bits}.put((static_cast<unsigned char>(byte) >> k) & 1u);
  if (!trailing_moves.empty()) b.game_end[0].back() = static_cast<std::uint32_t>(b.streams.move_bits);
  StoreOptions o = stored_sections();
  o.compress = dict != nullptr;  // with a dictionary: the tags section compressed with it
  const std::string block = b.finish(o, dict);
  BlockEntry e;
  e.offset = kHeaderSize;
  e.size = block.size();
  e.games = b.games;
  e.summary = b.summary;
  // (The read version 1.0 of the vectors made before 1.3, whatever their blocks; 1.3 or 1.7
  // where a block needs it.)
  const std::uint8_t needed = block_read_minor(block);
  const std::uint8_t minor = needed == kModelledTracksMinor || needed == kXiangqiCodecMinor ? needed : 0;
  const std::string head = encode_file_header(minor) + block;
  return rebuild(head, head.size(), "", Index{}, {e});
}

std::string fix_header_checksum(std::string h) {
  const std::uint64_t sum = hash64(std::string_view(h).substr(0, 28)) & 0xFFFFFFFFu;
  for (int i = 0; i < 4; ++i) h[28 + i] = static_cast<char>(sum >> (8 * i));
  return h;
}

std::pair<std::size_t, std::size_t> section_of(std::string_view block, int s) {
  std::size_t at = kBlockHeaderSize + kSections * kSectionEntrySize;
  for (int i = 0; i < s; ++i) at += get_le(block.data() + kBlockHeaderSize + i * kSectionEntrySize + 4, 4);
  return {at, get_le(block.data() + kBlockHeaderSize + s * kSectionEntrySize + 4, 4)};
}

}  // namespace pgnarc::test
