#include "container/archive_builder.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "common/hash.h"
#include "common/zstd_frame.h"
#include "container/archive_file.h"
#include "container/block_builder.h"
#include "container/block_reader.h"
#include "container/file_header.h"

namespace pgnarc::container {

namespace {

// A players' entry as the name collector's key: its number in 4 bytes, most significant first,
// so that the collector's byte order is the entries' order.
std::string player_key(std::uint32_t p) {
  return std::string{static_cast<char>(p >> 24), static_cast<char>(p >> 16), static_cast<char>(p >> 8),
                     static_cast<char>(p)};
}

// Calls `visit(value, blocks)` for every entry of the name table of `field` of `src`, chunk by
// chunk, until one returns an error, which is returned (as is an error reading a chunk).
template <class Visit>
Status visit_name_table(ArchiveFile& src, int field, Visit&& visit) {
  std::string content;
  for (std::size_t k = 0; k < src.index().name_chunks[field].size(); ++k) {
    if (auto r = src.decode_name_chunk_content(field, k, content); !r) return r;
    Status st;
    auto r = src.visit_name_entries(field, k, content, [&](std::string_view value, const std::vector<std::uint32_t>& in) {
      if (st) st = visit(value, in);
    });
    if (!r) return r;
    if (!st) return st;
  }
  return {};
}

}  // namespace

ArchiveBuilder::ArchiveBuilder(common::AtomicFile file, const BuilderOptions& options) : options_(options) {
  file_.emplace(std::move(file));
  // The name scratch file goes beside the temporary file, or where temporary files go when the
  // archive is written directly (standard output, a FIFO).
  std::string scratch = file_->temp_path();
  if (scratch.empty()) {
    const char* tmpdir = std::getenv("TMPDIR");
    scratch = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/pgnarc." + std::to_string(::getpid());
  }
  names_ = std::make_unique<NameCollector>(scratch + ".names", options_.name_memory_bytes);
}

Result<std::unique_ptr<ArchiveBuilder>> ArchiveBuilder::create(const std::string& path, const BuilderOptions& options) {
  auto file = common::AtomicFile::create(path, options.overwrite);
  if (!file) return file.error();
  std::unique_ptr<ArchiveBuilder> b(new ArchiveBuilder(std::move(*file), options));
  // The read version (2.1): 1.0 until a block that needs a later one is placed; where the header
  // cannot be written again at the end (a stream), this library's own version from the start.
  if (auto st = b->file_->write(encode_file_header(b->file_->rewritable() ? 0 : kFormatVersionMinor)); !st) return st.error();
  return b;
}

Status ArchiveBuilder::number_players(const std::vector<std::vector<Tag>>& games, std::vector<std::uint32_t>& out) {
  out.clear();
  for (const auto& g : games)
    for (const Tag& t : g) {
      if (name_field_of(t.key) != kPlayerField) continue;
      if (const std::int64_t p = players_.find(t.value); p >= 0) {
        out.push_back(static_cast<std::uint32_t>(p));
      } else if (players_.size() >= kMaxPlayerEntries) {
        return invalid_input("more than 2^32 - 1 player names: the players' table is full");
      } else {
        out.push_back(players_.add(t.value));
      }
    }
  return {};
}

Status ArchiveBuilder::add_block(std::string_view bytes, std::uint32_t games, const BlockSummary& summary,
                                 const BlockNames* names, const std::vector<std::uint32_t>* players) {
  const auto block_no = static_cast<std::uint32_t>(blocks_.size());
  BlockEntry e;
  e.offset = file_->offset();
  e.size = bytes.size();
  e.games = games;
  e.first_game = games_;
  e.summary = summary;
  read_minor_ = std::max(read_minor_, block_read_minor(bytes));
  if (auto st = file_->write(bytes); !st) return st;
  blocks_.push_back(e);
  if (names)
    for (int f = 0; f < kNameFieldCount; ++f)
      if (f != kPlayerField)
        for (const std::string& v : (*names)[f])
          if (auto st = names_->add(f, v, block_no); !st) return st;
  if (players)
    for (const std::uint32_t p : *players)
      if (auto st = names_->add(kPlayerField, player_key(p), block_no); !st) return st;
  games_ += games;
  return {};
}

Status ArchiveBuilder::add_dictionary(std::string_view element, std::shared_ptr<const WriterDictionary> dictionary) {
  DictionaryEntry d;
  d.offset = file_->offset();
  d.size = element.size();
  d.id = dictionary->id();
  if (auto st = file_->write(element); !st) return st;
  index_.dictionaries.push_back(d);
  dictionaries_.emplace(d.id, std::move(dictionary));
  return {};
}

Status ArchiveBuilder::copy_archive(const std::string& path, Copied& out) {
  auto opened = ArchiveFile::open(path);  // checks header, footer, index and dictionaries
  if (!opened) return opened.error();
  ArchiveFile& src = **opened;
  if (auto st = src.need_all(); !st) return st;
  // Its dictionaries first.
  std::string element;
  for (const DictionaryEntry& d : src.index().dictionaries) {
    if (auto r = src.read(d.offset, d.size, element); !r) return r;
    const std::string where = path + ": dictionary at offset " + std::to_string(d.offset);
    std::uint32_t id;
    std::string content;
    if (auto r = decode_dictionary_element(element, where, id, content); !r) return r;
    if (auto it = dictionaries_.find(id); it != dictionaries_.end()) {
      if (it->second->content() != content)
        return invalid_input(path + ": its tag dictionary " + std::to_string(id) +
                             " differs from another of the same ID: these archives cannot be joined by copying");
      out.dictionary = it->second;
    } else {
      out.dictionary = WriterDictionary::make(std::move(content), options_.store.zstd_level);
      if (!out.dictionary) return corruption(where + " cannot be loaded");
      if (auto st = add_dictionary(element, out.dictionary); !st) return st;
    }
  }
  // Its players' table and value table: followed, or merged by value. (A value table this writer
  // would not make, of several tables or of other keys, is not followed: its blocks are coded
  // again.)
  const auto base = static_cast<std::uint32_t>(blocks_.size());
  const auto& src_tables = src.index().tables.tables();
  const bool own_kind = src_tables.size() <= 1 &&
                        std::all_of(src_tables.begin(), src_tables.end(), [](const ValueTables::Table& t) {
                          return std::all_of(t.keys.begin(), t.keys.end(), [](const std::string& k) {
                            return std::find(std::begin(kOpeningKeys), std::end(kOpeningKeys), k) != std::end(kOpeningKeys);
                          });
                        });
  const bool same_players = players_.size() == 0 && tables_.entries() == 0 && own_kind;
  if (same_players) {
    tables_ = TableBuilder::from(src.index().tables);
    auto st = visit_name_table(src, kPlayerField, [&](std::string_view value, const std::vector<std::uint32_t>& in) {
      const std::uint32_t p = players_.add(value);
      for (std::uint32_t b : in)
        if (auto added = names_->add(kPlayerField, player_key(p), base + b); !added) return added;
      return Status{};
    });
    if (!st) return st;
  }
  // Its blocks (each checked against its checksum and section table).
  std::string block;
  DecodedBlock tags_of;
  tags_of.dictionaries = &src.dictionaries();
  tags_of.players = src.players();
  std::vector<std::vector<Tag>> games;
  std::vector<std::uint32_t> players;
  for (std::uint32_t b = 0; b < src.blocks(); ++b) {
    if (auto r = src.read_block(b, block); !r) return r;
    BlockSizes sizes;
    if (auto r = read_block_sizes(block, src.where(b), sizes); !r) return r;
    out.games += sizes.games;
    // (A block whose Event or Site column names entries of its archive's tables, layout 8, is
    // coded again: the joined tables number their values otherwise.)
    if (same_players && sizes.layout != kNameEntriesLayout) {
      if (auto r = add_block(block, sizes.games, src.entry(b).summary, nullptr, nullptr); !r) return r;
      continue;
    }
    if (auto r = decode_block(block, src.where(b), tags_of, BlockParts::kTagsOnly); !r) return r;
    games.resize(tags_of.games);
    for (std::uint32_t j = 0; j < tags_of.games; ++j) games[j] = tags_of.tags.game(j);
    // Derived tags stay derived, by their rules (their values, which need the moves, unread);
    // coded columns (9.4.7) and table columns (9.4.8) only where the block had layout 4 or 5,
    // which it keeps where its new section still needs it (replace_tags_section).
    const std::vector<std::vector<std::uint8_t>> derived = tags_of.tags.derived_rules(tags_of.games);
    if (auto r = number_players(games, players); !r) return r;
    const bool coded = tags_of.layout == kCodedTagsLayout || table_layout(tags_of.layout);
    std::optional<TableColumns> tables;
    if (coded && tables_.active()) tables = number_tables(games);
    // The tags section compressed as it was: with the same dictionary (copied above, as its
    // frame was checked to name one of its archive's), or without one.
    const WriterDictionary* with = nullptr;
    if (sizes.encoding[kTags] == kZstdDictionary)
      with = dictionaries_.at(common::frame_dictionary_id(std::string_view(block).substr(sizes.data_offset, sizes.stored[kTags]))).get();
    const std::string tags = encode_tags_section(games, &players, options_.store, tags_of.derived_tags ? &derived : nullptr,
                                                 coded, tables ? &*tables : nullptr, xiangqi_layout(tags_of.layout));
    std::string recoded = replace_tags_section(block, tags, options_.store, with);
    // Events and sites that were entries are text now, which a dictionary of sections without
    // them may not hold: compressed alone where that is smaller.
    if (with && sizes.layout == kNameEntriesLayout)
      if (std::string alone = replace_tags_section(block, tags, options_.store, nullptr); alone.size() < recoded.size())
        recoded = std::move(alone);
    // (Where the players' table is followed, its postings came with it.)
    if (auto r = add_block(recoded, sizes.games, src.entry(b).summary, nullptr, same_players ? nullptr : &players); !r)
      return r;
  }
  // Then its other name tables, renumbered (each value's blocks still arrive in ascending order:
  // every block given before is below `base`), holding only the values a table holds
  // (indexed_name).
  for (int field = 0; field < kNameFieldCount; ++field) {
    if (field == kPlayerField) continue;
    auto st = visit_name_table(src, field, [&](std::string_view value, const std::vector<std::uint32_t>& in) {
      if (indexed_name(field, value))
        for (std::uint32_t b : in)
          if (auto added = names_->add(field, value, base + b); !added) return added;
      return Status{};
    });
    if (!st) return st;
  }
  out.file_bytes = src.file_bytes();
  return {};
}

// The name tables as chunk elements after the last block (9.10), listed in the index.
Status ArchiveBuilder::write_names(const WriterDictionary* dictionary) {
  ChunkEntries entries;
  std::string first;
  int field = 0;
  const auto close_chunk = [&]() -> Status {
    if (entries.count() == 0) return {};
    if (entries.size() + 10 > kMaxNameChunkBytes)
      return invalid_input("the name table entry of " + std::string(kNameFields[field]) + " \"" + first +
                           "\" is too large for a name chunk (2^30 bytes)");
    const std::string element = encode_name_chunk(field, entries, options_.store, dictionary);
    index_.name_chunks[field].push_back(NameChunkEntry{file_->offset(), element.size(), entries.count(), first});
    entries = ChunkEntries{};
    return file_->write(element);
  };
  const auto add = [&](std::string_view value, const std::vector<std::uint32_t>& holding) -> Status {
    if (entries.count() == 0) first = value;
    entries.add(value, holding);
    return entries.size() >= options_.name_chunk_bytes ? close_chunk() : Status{};
  };
  // The players' table in the order of its entries (the collector's field 0, keyed by entry
  // number), then the other fields' tables in ascending order of value.
  std::uint64_t next_player = 0;
  auto st = names_->drain([&](int f, NameEntry& e) -> Status {
    if (f != field) {
      if (auto r = close_chunk(); !r) return r;
      field = f;
    }
    if (f != kPlayerField) return add(e.value, e.blocks);
    // (An entry numbered for a block that was never placed: the writer failed before.)
    if (e.value != player_key(static_cast<std::uint32_t>(next_player)))
      return io_error("the archive cannot be finished: a block was lost to an earlier error");
    return add(players_[next_player++], e.blocks);
  });
  if (!st) return st;
  if (next_player != players_.size())
    return io_error("the archive cannot be finished: a block was lost to an earlier error");
  return close_chunk();
}

Result<std::uint64_t> ArchiveBuilder::finish(const WriterDictionary* names_dictionary) {
  if (auto st = write_names(names_dictionary); !st) return st.error();
  const std::string table =
      encode_block_table(blocks_, file_->offset(), options_.table_chunk_blocks, options_.store, index_.table_chunks);
  if (auto st = file_->write(table); !st) return st.error();
  Footer footer;
  footer.index_offset = file_->offset();
  index_.extensions.clear();
  if (std::string tables = tables_.extension(options_.store.compress ? kValueTablesLevel : 0); !tables.empty())
    index_.extensions.push_back(IndexExtension{kValueTablesExtension, std::move(tables)});
  const std::string index = encode_index(index_, options_.store);
  if (auto st = file_->write(index); !st) return st.error();
  footer.index_size = index.size();
  footer.games = games_;
  footer.blocks = blocks_.size();
  footer.index_hash = common::hash64(index);
  if (auto st = file_->write(encode_footer(footer)); !st) return st.error();
  if (read_minor_ != 0 && file_->rewritable())
    if (auto st = file_->write_at(0, encode_file_header(read_minor_)); !st) return st.error();
  const std::uint64_t bytes = file_->offset();
  if (auto st = file_->commit(); !st) return st.error();
  return bytes;
}

}  // namespace pgnarc::container
