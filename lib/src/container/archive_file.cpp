#include "container/archive_file.h"

#include <algorithm>

#include "common/hash.h"
#include "container/format.h"

namespace pgnarc::container {

Result<std::unique_ptr<ArchiveFile>> ArchiveFile::open(const std::string& path) {
  auto reader = common::FileReader::open(path);
  if (!reader) return reader.error();
  return open(std::move(*reader), path);
}

Result<std::unique_ptr<ArchiveFile>> ArchiveFile::open(std::unique_ptr<common::FileReader> reader,
                                                       const std::string& path) {
  std::unique_ptr<ArchiveFile> a(new ArchiveFile());
  ArchiveFile& s = *a;
  s.path_ = path;
  s.file_ = std::move(reader);
  const std::uint64_t size = s.file_->size();
  if (size < kHeaderSize + kFooterSize)
    return corruption(path + ": " + std::to_string(size) + " bytes is too short for an archive (offset 0)");
  auto prefix = [&](const Error& e) { return Error(e.code(), path + ": " + e.message()); };
  std::string bytes;
  if (auto r = s.file_->read(0, kHeaderSize, bytes); !r) return r.error();
  if (auto r = decode_file_header(bytes, s.versions_); !r) return prefix(r.error());
  if (auto r = s.file_->read(size - kFooterSize, kFooterSize, bytes); !r) return r.error();
  if (auto r = decode_footer(bytes, size, s.footer_); !r) return prefix(r.error());
  // (decode_footer checked that the index lies between the header and the footer.)
  if (auto r = s.file_->read(s.footer_.index_offset, s.footer_.index_size, bytes); !r) return r.error();
  if (common::hash64(bytes) != s.footer_.index_hash)
    return corruption(path + ": index checksum mismatch (index at offset " + std::to_string(s.footer_.index_offset) + ")");
  if (auto r = decode_index(bytes, s.footer_.index_offset, s.index_); !r) return prefix(r.error());
  // (decode_index checked that the dictionaries lie before the index.)
  for (const DictionaryEntry& d : s.index_.dictionaries) {
    if (auto r = s.file_->read(d.offset, d.size, bytes); !r) return r.error();
    if (auto r = s.dictionaries_.add(bytes, Where(path + ": dictionary at offset " + std::to_string(d.offset), d.offset), d.id); !r)
      return r.error();
  }
  s.end_of_blocks_ = blocks_end(s.index_, s.footer_.index_offset);
  // A chunk's games are counted when it is read (against the next chunk's first game, or the
  // footer's count for the last); here the last chunk must be left at least a game a block.
  bool agree = block_total(s.index_) == s.footer_.blocks;
  if (!s.index_.table_chunks.empty()) {
    const TableChunkEntry& last = s.index_.table_chunks.back();
    agree = agree && last.first_game + last.blocks <= s.footer_.games;
  } else {
    agree = agree && s.footer_.games == 0;
    s.layout_checked_ = true;  // by decode_index
  }
  if (!agree)
    return corruption(path + ": footer and index disagree on the number of games or blocks (footer at offset " +
                      std::to_string(size - kFooterSize) + ")");
  s.table_.resize(s.index_.table_chunks.size());
  std::uint64_t first = 0;
  for (const TableChunkEntry& c : s.index_.table_chunks) {
    s.chunk_first_block_.push_back(first);
    first += c.blocks;
  }
  s.chunk_first_block_.push_back(s.footer_.blocks);
  for (int field = 0; field < kNameFieldCount; ++field) s.names_[field] = std::make_unique<PlayerTable>(s, field);
  return a;
}

namespace {
// Decoded chunks of one name table (the players', the Event or the Site table) kept for reading
// columns of its entries, in all.
constexpr std::size_t kPlayerCacheBytes = 64u << 20;
}  // namespace

PlayerTable::PlayerTable(const ArchiveFile& file, int field) : file_(file), field_(field) {
  std::uint64_t first = 0;
  for (const NameChunkEntry& c : file.index().name_chunks[field]) {
    first_.push_back(first);
    first += c.values;
  }
  first_.push_back(first);
}

const ValueTables* PlayerTable::value_tables() const {
  return file_.index().tables.empty() ? nullptr : &file_.index().tables;
}

const PlayerNames* PlayerTable::field_names(int field) const { return file_.names(field); }

namespace {
Status past_table(int field, std::uint64_t ordinal, std::uint64_t size, const std::string& where) {
  return corruption(where + ": tags section: " + (field == kPlayerField ? "a player column" : "a column of entries") +
                    std::string(" names entry ") + std::to_string(ordinal) + " of " +
                    (field == kPlayerField ? "a players' table" : field == kEventField ? "an Event table" : "a Site table") +
                    " of " + std::to_string(size));
}
}  // namespace

Status PlayerTable::append(std::uint64_t ordinal, const std::string& where, std::string& out) const {
  std::vector<std::size_t> ends;
  const std::uint32_t entry = static_cast<std::uint32_t>(std::min<std::uint64_t>(ordinal, 0xFFFFFFFFu));
  if (ordinal != entry) return past_table(field_, ordinal, size(), where);
  return append_ascending(&entry, 1, where, out, ends);
}

Status PlayerTable::check_ascending(const std::uint32_t* entries, std::size_t count, const std::string& where) const {
  std::size_t k = first_.size();  // none yet
  for (std::size_t e = 0; e < count; ++e) {
    const std::uint64_t ordinal = entries[e];
    if (ordinal >= size())
      return past_table(field_, ordinal, size(), where);
    if (k < first_.size() && ordinal < first_[k + 1]) continue;
    k = static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), ordinal) - first_.begin() - 1);
    if (auto got = chunk(k); !got) return got.error();
  }
  return {};
}

Status PlayerTable::append_ascending(const std::uint32_t* entries, std::size_t count, const std::string& where,
                                     std::string& out, std::vector<std::size_t>& ends) const {
  std::shared_ptr<const Chunk> chunk;
  std::size_t k = 0;
  for (std::size_t e = 0; e < count; ++e) {
    const std::uint64_t ordinal = entries[e];
    if (ordinal >= size())
      return past_table(field_, ordinal, size(), where);
    if (!chunk || ordinal >= first_[k + 1]) {
      k = static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), ordinal) - first_.begin() - 1);
      auto got = this->chunk(k);
      if (!got) return got.error();
      chunk = std::move(*got);
    }
    const auto i = static_cast<std::size_t>(ordinal - first_[k]);
    const std::size_t from = i == 0 ? 0 : chunk->end[i - 1];
    out.append(chunk->bytes, from, chunk->end[i] - from);
    ends.push_back(out.size());
  }
  return {};
}

Result<std::shared_ptr<const PlayerTable::Chunk>> PlayerTable::chunk(std::size_t k) const {
  std::shared_ptr<const Chunk> chunk;
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(k); it != cache_.end()) chunk = it->second;
  }
  if (!chunk) {
    // Read and checked outside the lock (another thread may read the same chunk meanwhile: the
    // first kept wins).
    std::string content;
    if (auto st = file_.decode_name_chunk_content(field_, k, content); !st) return st.error();
    auto made = std::make_shared<Chunk>();
    if (auto st = file_.visit_name_entries(field_, k, content,
                                           [&](std::string_view v, const std::vector<std::uint32_t>&) {
                                             made->bytes += v;
                                             made->end.push_back(made->bytes.size());
                                           });
        !st)
      return st.error();
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(k); it != cache_.end()) {
      chunk = it->second;
    } else {
      while (!order_.empty() && cached_bytes_ + made->bytes.size() > kPlayerCacheBytes) {
        cached_bytes_ -= cache_[order_.front()]->bytes.size();
        cache_.erase(order_.front());
        order_.pop_front();
      }
      cached_bytes_ += made->bytes.size();
      order_.push_back(k);
      chunk = cache_.emplace(k, std::move(made)).first->second;
    }
  }
  return chunk;
}

std::size_t ArchiveFile::chunk_of(std::uint32_t b) const {
  return static_cast<std::size_t>(std::upper_bound(chunk_first_block_.begin(), chunk_first_block_.end(), b) -
                                  chunk_first_block_.begin() - 1);
}

Where ArchiveFile::where(std::uint32_t b) const {
  const bool known = b < footer_.blocks && !table_[chunk_of(b)].empty();
  if (!known) return path_ + ": block " + std::to_string(b);
  return {path_ + ": block " + std::to_string(b) + " at offset " + std::to_string(entry(b).offset), entry(b).offset};
}

Status ArchiveFile::need_chunk(std::size_t k) {
  if (!table_[k].empty()) return {};
  const Where where(path_ + ": block table chunk at offset " + std::to_string(index_.table_chunks[k].offset),
                    index_.table_chunks[k].offset);
  const TableChunkEntry& c = index_.table_chunks[k];
  // (decode_index checked that the chunk lies before the index.)
  std::string element;
  if (auto st = file_->read(c.offset, c.size, element); !st) return st;
  std::vector<BlockEntry> entries;  // kept only once the whole chunk checks out
  if (auto st = decode_table_chunk(element, index_.table_chunks, k, footer_.games, end_of_blocks_, where, entries); !st)
    return st;
  table_[k] = std::move(entries);
  return {};
}

Status ArchiveFile::need_all() {
  for (std::size_t k = 0; k < table_.size(); ++k)
    if (auto st = need_chunk(k); !st) return st;
  if (layout_checked_) return {};
  const auto at = [this](std::uint64_t b) -> const BlockEntry& { return entry(static_cast<std::uint32_t>(b)); };
  if (auto st = check_block_layout(index_.dictionaries, end_of_blocks_, footer_.blocks, at, path_); !st) return st;
  layout_checked_ = true;
  return {};
}

Result<std::uint32_t> ArchiveFile::block_of(std::uint64_t game) {
  const auto& chunks = index_.table_chunks;
  const auto k = static_cast<std::size_t>(
      std::upper_bound(chunks.begin(), chunks.end(), game,
                       [](std::uint64_t g, const TableChunkEntry& c) { return g < c.first_game; }) -
      chunks.begin() - 1);
  if (auto st = need_chunk(k); !st) return st.error();
  const auto& entries = table_[k];
  auto it = std::upper_bound(entries.begin(), entries.end(), game,
                             [](std::uint64_t g, const BlockEntry& e) { return g < e.first_game; });
  return static_cast<std::uint32_t>(chunk_first_block_[k] + (it - entries.begin() - 1));
}

Status ArchiveFile::read_block(std::uint32_t b, std::string& out) const {
  // (decode_table_chunk checked that the block lies before the blocks' end.)
  if (auto st = file_->read(entry(b).offset, entry(b).size, out); !st) return Error(st.error().code(), where(b) + ": " + st.error().message());
  return {};
}

Where ArchiveFile::name_chunk_where(int field, std::size_t k) const {
  const std::uint64_t offset = index_.name_chunks[field][k].offset;
  return {path_ + ": name chunk at offset " + std::to_string(offset), offset};
}

Status ArchiveFile::decode_name_chunk_content(int field, std::size_t k, std::string& content) const {
  const NameChunkEntry& c = index_.name_chunks[field][k];
  std::string element;
  if (auto st = file_->read(c.offset, c.size, element); !st) return st;
  return container::decode_name_chunk_content(element, name_chunk_where(field, k), field, &dictionaries_, content);
}

Status ArchiveFile::visit_name_entries(int field, std::size_t k, std::string_view content, const NameVisitor& visit) const {
  const auto& chunks = index_.name_chunks[field];
  return container::visit_name_entries(content, name_chunk_where(field, k), &chunks[k],
                                       k + 1 < chunks.size() ? &chunks[k + 1].first : nullptr, footer_.blocks,
                                       sorted_name_field(field), visit);
}

Status ArchiveFile::check_name_chunks() const {
  std::string content;
  for (int f = 0; f < kNameFieldCount; ++f)
    for (std::size_t k = 0; k < index_.name_chunks[f].size(); ++k) {
      if (auto st = decode_name_chunk_content(f, k, content); !st) return st;
      if (auto st = visit_name_entries(f, k, content, [](std::string_view, const std::vector<std::uint32_t>&) {}); !st)
        return st;
    }
  return {};
}

}  // namespace pgnarc::container
