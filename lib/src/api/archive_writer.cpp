// ArchiveWriter: games in, blocks out, in order, on N threads; then the name chunks, the block
// table, the index and the footer.
#include "pgnarc/archive_writer.h"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "api/pack_pipeline.h"
#include "common/file_writer.h"
#include "common/hash.h"
#include "common/thread_pool.h"
#include "common/zstd_frame.h"
#include "container/archive_file.h"
#include "container/block_reader.h"
#include "container/file_header.h"
#include "container/index.h"
#include "container/name_collector.h"
#include "container/player_numbers.h"
#include "container/position_filter.h"

namespace pgnarc {

using namespace container;

namespace {

// The writer holds blocks for training until this many, or this many bytes of their tags (more
// training makes a better dictionary for large archives: PGN Mentor, 89,694 games, -1.5% with
// 256 blocks and 128 KiB against 64 blocks and 64 KiB; the held blocks cost memory, 73 MB
// peak there).
constexpr std::size_t kMaxHeldBlocks = 256;
constexpr std::size_t kMaxHeldTagBytes = 4u << 20;
// The dictionary sizes tried, as shares of the tags trained on (1/2, 1/4, 1/8, 1/16), each only
// if it can hold 4 KiB (less is not worth an element).
constexpr std::size_t kDictionaryShares[] = {2, 4, 8, 16};
constexpr std::size_t kMinDictionaryBytes = 4096;

}  // namespace

struct ArchiveWriter::Impl {
  std::optional<detail::AtomicFile> file;
  WriterOptions options;
  StoreOptions store;
  std::vector<BlockEntry> blocks;
  Index index;
  std::unique_ptr<NameCollector> names;
  PackStats stats;
  BlockBuilder pending;  // for add_game
  std::size_t pending_bytes = 0;
  BlockNames pending_names;
  CodecStats pending_stats;
  // Tag dictionary (9.9): undecided until the first blocks' tags train one (or show that none
  // pays), or until an archive copied in offers one (append); blocks made meanwhile are held.
  bool dict_decided = true;
  // The oldest 1.y that reads every block placed (2.1): 1 where a block has the variants codec,
  // 2 where one has the fast model's coder.
  std::uint8_t read_minor = 0;
  std::shared_ptr<const WriterDictionary> dict;
  std::vector<EncodedBlock> held;
  std::size_t held_tags = 0;
  // Every dictionary in the file so far: ID -> content (a copied one with the same ID must be
  // the same dictionary); the last one copied in, for blocks made after it.
  std::map<std::uint32_t, std::shared_ptr<const WriterDictionary>> dicts;
  std::shared_ptr<const WriterDictionary> copied_dict;
  // The players' table (9.10): every White and Black value in order of first use, and each
  // value's entry. The blocks naming each entry go to the name collector as field 0, keyed by
  // the entry's number (player_key), so that they are held in bounded memory.
  PlayerNumbers player_values;
  // Games taken from the coders (placed, held, or being finished): the next game made is the
  // one after them.
  std::uint64_t games_taken = 0;

  unsigned workers() const { return options.threads > 1 ? options.threads : 0; }

  // `block_names`: the Event and Site values of the block's games, `players` its players' table
  // entries (null: none given here; append and merge add a copied archive's from its own name
  // chunks).
  Status place(std::string_view bytes, std::uint32_t games, const BlockSummary& summary, const BlockNames* block_names,
               const std::vector<std::uint32_t>* players) {
    const auto block_no = static_cast<std::uint32_t>(blocks.size());
    BlockEntry e;
    e.offset = file->offset();
    e.size = bytes.size();
    e.games = games;
    e.first_game = stats.games;
    e.summary = summary;
    read_minor = std::max(read_minor, block_read_minor(bytes));
    if (auto st = file->write(bytes); !st) return st;
    blocks.push_back(e);
    if (block_names)
      for (int f = 0; f < kNameFieldCount; ++f)
        if (f != kPlayerField)
          for (const std::string& v : (*block_names)[f])
            if (auto st = names->add(f, v, block_no); !st) return st;
    if (players)
      for (const std::uint32_t p : *players)
        if (auto st = names->add(kPlayerField, player_key(p), block_no); !st) return st;
    stats.games += games;
    ++stats.blocks;
    return {};
  }

  Status place_dictionary(std::string_view element, std::shared_ptr<const WriterDictionary> dictionary) {
    DictionaryEntry d;
    d.offset = file->offset();
    d.size = element.size();
    d.id = dictionary->id();
    if (auto st = file->write(element); !st) return st;
    index.dictionaries.push_back(d);
    dicts.emplace(d.id, std::move(dictionary));
    return {};
  }

  // The name tables as chunk elements after the last block (9.10), listed in the index.
  Status write_names() {
    ChunkEntries entries;
    std::string first;
    int field = 0;
    const auto close_chunk = [&]() -> Status {
      if (entries.count() == 0) return {};
      if (entries.size() + 10 > kMaxNameChunkBytes)
        return invalid_input("the name table entry of " + std::string(kNameFields[field]) + " \"" + first +
                             "\" is too large for a name chunk (2^30 bytes)");
      const std::string element = encode_name_chunk(field, entries, store, dict.get());
      index.name_chunks[field].push_back(NameChunkEntry{file->offset(), element.size(), entries.count(), first});
      entries = ChunkEntries{};
      return file->write(element);
    };
    const auto add = [&](std::string_view value, const std::vector<std::uint32_t>& holding) -> Status {
      if (entries.count() == 0) first = value;
      entries.add(value, holding);
      return entries.size() >= options.name_chunk_bytes ? close_chunk() : Status{};
    };
    // The players' table in the order of its entries (the collector's field 0, keyed by entry
    // number), then the other fields' tables in ascending order of value.
    std::uint64_t next_player = 0;
    auto st = names->drain([&](int f, NameEntry& e) -> Status {
      if (f != field) {
        if (auto r = close_chunk(); !r) return r;
        field = f;
      }
      if (f != kPlayerField) return add(e.value, e.blocks);
      // (An entry numbered for a block that was never placed: the writer failed before.)
      if (e.value != player_key(static_cast<std::uint32_t>(next_player)))
        return io_error("the archive cannot be finished: a block was lost to an earlier error");
      return add(player_values[next_player++], e.blocks);
    });
    if (!st) return st;
    if (next_player != player_values.size())
      return io_error("the archive cannot be finished: a block was lost to an earlier error");
    return close_chunk();
  }

  // The players' table entries of the White and Black tags of `games`, in order, into `out`;
  // values not met before enter the table.
  Status number_players(const std::vector<std::vector<Tag>>& games, std::vector<std::uint32_t>& out) {
    out.clear();
    for (const auto& g : games)
      for (const Tag& t : g) {
        if (name_field_of(t.key) != kPlayerField) continue;
        if (const std::int64_t p = player_values.find(t.value); p >= 0) {
          out.push_back(static_cast<std::uint32_t>(p));
        } else if (player_values.size() >= kMaxPlayerEntries) {
          return invalid_input("more than 2^32 - 1 player names: the players' table is full");
        } else {
          out.push_back(player_values.add(t.value));
        }
      }
    return {};
  }
  // A players' entry as the name collector's key: its number in 4 bytes, most significant
  // first, so that the collector's byte order is the entries' order.
  static std::string player_key(std::uint32_t p) {
    return std::string{static_cast<char>(p >> 24), static_cast<char>(p >> 16), static_cast<char>(p >> 8),
                       static_cast<char>(p)};
  }

  // Takes the next block from the coders, in order: reports its problems and gives its White
  // and Black tags their players' table entries (new values enter the table). Returns whether
  // it is to be finished now; else it is held, with its tags section, until the dictionary is
  // decided (which may place it at once).
  Result<bool> take(EncodedBlock& b, const std::function<void(const Problem&)>& on_problem) {
    for (Problem& p : b.problems) {
      p.game_number += games_taken + 1;
      if (on_problem) on_problem(p);
    }
    b.problems.clear();
    games_taken += b.games;
    b.builder.players.emplace();
    if (auto st = number_players(b.builder.tags, *b.builder.players); !st) return st.error();
    if (!dict_decided && copied_dict)
      if (auto st = decide(); !st) return st.error();
    if (dict_decided) return true;
    b.tags_raw = b.builder.tags_section(store);
    held_tags += b.tags_raw.size();
    held.push_back(std::move(b));
    if (held.size() >= kMaxHeldBlocks || held_tags >= kMaxHeldTagBytes)
      if (auto st = decide(); !st) return st.error();
    return false;
  }

  // Finishes a block taken to be finished (on any thread: it reads only the dictionary).
  void finish_block(EncodedBlock& b) const {
    b.bytes = b.builder.finish(store, dict.get(), b.tags_raw.empty() ? nullptr : &b.tags_raw);
  }

  // Takes, finishes and places a block on this thread.
  Status place(EncodedBlock& b, const std::function<void(const Problem&)>& on_problem) {
    auto now = take(b, on_problem);
    if (!now) return now.error();
    if (!*now) return {};
    finish_block(b);
    return place_finished(b);
  }

  Status place_finished(const EncodedBlock& b) {
    if (auto st = place(b.bytes, b.games, b.summary, &b.names, &*b.builder.players); !st) return st;
    stats.raw_games += b.stats.raw_games;
    stats.plies += b.stats.plies;
    return {};
  }

  // A dictionary trained on the held blocks' tags, of the size among a few that makes them and
  // their name tables smallest counting its own element (placed then), if any makes them
  // smaller; else null. The sizes are shares of the tags trained on (kDictionaryShares, at most
  // options.dictionary_bytes): what pays depends on how much the blocks' tags repeat each other.
  // The strongest setting (--moves max) searches each size's training parameters too; the
  // others train once a size, a quarter of the work (training is most of a small file's pack).
  Result<std::shared_ptr<const WriterDictionary>> train() {
    const std::shared_ptr<const WriterDictionary> none;
    std::vector<std::string> sections;
    std::size_t total = 0;
    for (const EncodedBlock& b : held) {
      sections.push_back(b.tags_raw);
      total += b.tags_raw.size();
    }
    // The name tables of the held blocks (as one chunk per field: the players' table so far,
    // the others' values of the held blocks): their chunks are compressed with the dictionary
    // too, where that is smaller.
    std::vector<std::string> held_names(kNameFieldCount);
    for (int f = 0; f < kNameFieldCount; ++f) {
      ChunkEntries entries;
      if (f == kPlayerField) {
        for (std::size_t p = 0; p < player_values.size(); ++p) entries.add(player_values[p], {0});
      } else {
        std::set<std::string_view> values;
        for (const EncodedBlock& b : held) values.insert(b.names[f].begin(), b.names[f].end());
        for (std::string_view v : values) entries.add(v, {0});
      }
      if (entries.count() > 0) held_names[f] = entries.content();
    }
    // The sizes without a dictionary and each candidate's are measured on the workers, one job
    // each (training is most of a small archive's pack time); the best is chosen in the order
    // of kDictionaryShares, the first of equal sizes, whatever the thread count.
    struct Candidate {
      std::shared_ptr<const WriterDictionary> dict;
      std::string element;
      std::size_t size = 0;  // the tags sections and the element
      std::vector<std::size_t> names;  // each name chunk compressed with the dictionary
    };
    std::vector<std::size_t> names_without(kNameFieldCount, 0);
    auto measure_without = [&]() -> Candidate {
      Candidate c;
      for (const std::string& sec : sections) c.size += detail::compress_frame(sec, options.zstd_level).size();
      for (int f = 0; f < kNameFieldCount; ++f) {
        if (!held_names[f].empty()) names_without[f] = detail::compress_frame(held_names[f], options.zstd_level).size();
        c.size += names_without[f];
      }
      return c;
    };
    auto measure = [&](std::size_t capacity) -> Candidate {
      Candidate c;
      std::string content = train_tag_dictionary(
          sections, capacity, options.moves == MoveCoding::kMax ? DictionaryTraining::kSearch : DictionaryTraining::kOnce);
      if (content.empty()) return c;
      c.dict = WriterDictionary::make(std::move(content), options.zstd_level);
      if (!c.dict) return c;
      c.element = encode_dictionary_element(*c.dict, store);
      c.size = c.element.size();
      for (const std::string& sec : sections) c.size += c.dict->compress(sec).size();
      for (const std::string& n : held_names) c.names.push_back(n.empty() ? 0 : c.dict->compress(n).size());
      return c;
    };
    std::vector<std::size_t> capacities;
    for (const std::size_t share : kDictionaryShares) {
      const std::size_t capacity = std::min<std::size_t>({options.dictionary_bytes, total / share, kMaxDictionaryBytes});
      if (capacity < kMinDictionaryBytes || (!capacities.empty() && capacity == capacities.back())) continue;
      capacities.push_back(capacity);
    }
    detail::OrderedPool<Candidate> pool(workers());
    pool.submit(measure_without);
    for (const std::size_t capacity : capacities) pool.submit([&measure, capacity] { return measure(capacity); });
    const std::size_t without = pool.next().size;
    std::shared_ptr<const WriterDictionary> best;
    std::string best_element;
    std::size_t best_size = without;
    for (std::size_t i = 0; i < capacities.size(); ++i) {
      Candidate c = pool.next();
      if (!c.dict) continue;
      // Each name chunk with this dictionary, or without it where that is smaller.
      std::size_t with = c.size;
      for (int f = 0; f < kNameFieldCount; ++f)
        if (!held_names[f].empty()) with += std::min(c.names[f], names_without[f]);
      if (with < best_size) {
        best_size = with;
        best = std::move(c.dict);
        best_element = std::move(c.element);
      }
    }
    if (!best) return none;
    if (auto st = place_dictionary(best_element, best); !st) return st.error();
    return best;
  }

  // Decides on the tag dictionary: the one an archive copied in offers, else one trained on the
  // held blocks; then finishes the held blocks on the workers and places them in order.
  Status decide() {
    if (dict_decided) return {};
    dict_decided = true;
    if (copied_dict) {
      dict = copied_dict;
    } else if (!held.empty()) {
      auto trained = train();
      if (!trained) return trained.error();
      dict = *trained;
    }
    std::vector<EncodedBlock> blocks_held = std::move(held);
    held.clear();
    held_tags = 0;
    detail::OrderedPool<std::string> pool(workers());
    const std::size_t window = std::max(1u, options.threads);
    std::size_t submitted = 0;
    for (EncodedBlock& b : blocks_held) {
      while (submitted < blocks_held.size() && pool.pending() < window) {
        const EncodedBlock& next = blocks_held[submitted++];
        pool.submit([this, &next] { return next.builder.finish(store, dict.get(), &next.tags_raw); });
      }
      b.bytes = pool.next();
      if (auto st = place_finished(b); !st) return st;
    }
    return {};
  }

  Status flush_pending() {
    if (pending.games == 0) return {};
    EncodedBlock b;
    b.games = pending.games;
    b.summary = pending.summary;
    for (int f = 0; f < kNameFieldCount; ++f) b.names[f].swap(pending_names[f]);
    b.stats = pending_stats;
    pending.plies = pending_stats.plies;
    b.builder = std::move(pending);
    pending = BlockBuilder{};
    pending_bytes = 0;
    pending_stats = CodecStats{};
    for (auto& s : pending_names) s.clear();
    return place(b, nullptr);
  }

  // The blocks of the archive at `path` copied, with its dictionaries and name tables
  // (renumbered; its players' table followed or merged into this one, 9.8).
  Status copy_archive(const std::string& path);
};

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::create(const std::string& path, WriterOptions options) {
  if (options.table_chunk_blocks == 0 || options.table_chunk_blocks > kMaxTableChunkBlocks)
    return invalid_input("the block table chunk size must be 1 to 2^20 blocks");
  if (options.block_games == 0 || options.block_games > kMaxBlockGames || options.block_bytes == 0)
    return invalid_input("a block must hold 1 to 2^20 games and at least 1 byte of PGN");
  std::unique_ptr<ArchiveWriter> w(new ArchiveWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& s = *w->impl_;
  s.options = options;
  if (s.options.threads == 0) s.options.threads = std::max(1u, std::thread::hardware_concurrency());
  s.store = store_options(s.options);
  s.dict_decided = !(s.options.compress && s.options.dictionary_bytes > 0);
  auto file = detail::AtomicFile::create(path, s.options.overwrite);
  if (!file) return file.error();
  s.file.emplace(std::move(*file));
  // The name scratch file goes beside the temporary file, or where temporary files go when the
  // archive is written directly (standard output, a FIFO).
  std::string scratch = s.file->temp_path();
  if (scratch.empty()) {
    const char* tmpdir = std::getenv("TMPDIR");
    scratch = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/pgnarc." + std::to_string(::getpid());
  }
  s.names = std::make_unique<NameCollector>(scratch + ".names", s.options.name_memory_bytes);
  // The read version (2.1): 1.0 until a block of the variants codec (1.1) or of the fast model
  // (1.2) is placed; where the header cannot be written again at the end (a stream), this
  // writer's own version from the start.
  if (auto st = s.file->write(file_header(s.file->rewritable() ? 0 : kVersionMinor)); !st) return st.error();
  return w;
}

ArchiveWriter::~ArchiveWriter() = default;

const std::string& ArchiveWriter::temp_path() const { return impl_->file->temp_path(); }

Status ArchiveWriter::add_game(const Game& game) {
  Impl& s = *impl_;
  s.pending.streams.coder = move_coder(s.options);
  if (auto st = encode_game(game, s.pending.streams, &s.pending_stats); !st) return st;
  if (s.options.position_filter) add_filter_keys(game, s.pending.filter_keys);
  s.pending.end_game(game.tags);
  collect_names(game.tags, s.pending_names);
  s.pending_bytes += 64 + 8 * game.events.size();
  if (s.pending.games >= s.options.block_games || s.pending_bytes >= s.options.block_bytes) return s.flush_pending();
  return {};
}

Status ArchiveWriter::add_pgn(PgnReader& reader, const std::function<void(const Problem&)>& on_problem,
                              const std::function<void(std::uint64_t, std::uint64_t)>& on_progress) {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st;
  const std::string source = reader.name();
  const std::uint64_t bytes_before = reader.bytes_read();
  // Blocks are coded on the workers, taken in order (their players' table entries given), then
  // finished on the workers and placed in order. Bounded memory: at most two blocks per thread
  // wait at each stage.
  detail::OrderedPool<EncodedBlock> coders(s.workers()), finishers(s.workers());
  const std::size_t window = s.workers() ? 2 * s.options.threads : 1;
  auto place_next = [&]() -> Status {
    EncodedBlock b = finishers.next();
    return s.place_finished(b);
  };
  auto take_next = [&]() -> Status {
    auto b = std::make_shared<EncodedBlock>(coders.next());
    auto now = s.take(*b, on_problem);
    if (!now) return now.error();
    if (on_progress) on_progress(s.games_taken, reader.bytes_read() - bytes_before);
    if (*now) {
      finishers.submit([&s, b] {
        s.finish_block(*b);
        return std::move(*b);
      });
    }
    while (finishers.pending() >= window)
      if (auto st = place_next(); !st) return st;
    return {};
  };
  for (;;) {
    std::vector<PgnReader::RawGame> batch;
    std::size_t bytes = 0;
    bool more = true;
    while (batch.size() < s.options.block_games && bytes < s.options.block_bytes) {
      PgnReader::RawGame rg;
      auto got = reader.next_raw(rg);
      if (!got) return got.error();
      if (!*got) {
        more = false;
        break;
      }
      bytes += rg.text.size();
      batch.push_back(std::move(rg));
    }
    if (!batch.empty()) {
      coders.submit([&s, &source, batch = std::move(batch)]() mutable {
        return encode_block(std::move(batch), source, s.options);
      });
    }
    while (coders.pending() >= (more ? window : 1))
      if (auto st = take_next(); !st) return st;
    if (!more) break;
  }
  while (finishers.pending() > 0)
    if (auto st = place_next(); !st) return st;
  s.stats.input_bytes += reader.bytes_read() - bytes_before;
  return {};
}

Status ArchiveWriter::add_archive_blocks(const std::string& path) {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st;
  if (!s.held.empty())  // blocks made before this archive's come before them
    if (auto st = s.decide(); !st) return st;
  return s.copy_archive(path);
}

Status ArchiveWriter::Impl::copy_archive(const std::string& path) {
  auto opened = ArchiveFile::open(path);  // checks header, footer, index and dictionaries
  if (!opened) return opened.error();
  ArchiveFile& src = **opened;
  if (auto st = src.need_all(); !st) return st;
  // Its dictionaries first (one already here with the same ID must be the same dictionary).
  std::string element;
  for (const DictionaryEntry& d : src.index().dictionaries) {
    if (auto r = src.read(d.offset, d.size, element); !r) return r;
    const std::string where = path + ": dictionary at offset " + std::to_string(d.offset);
    std::uint32_t id;
    std::string content;
    if (auto r = read_dictionary_element(element, where, id, content); !r) return r;
    if (auto it = dicts.find(id); it != dicts.end()) {
      if (it->second->content() != content)
        return invalid_input(path + ": its tag dictionary " + std::to_string(id) +
                             " differs from another of the same ID: these archives cannot be joined by copying");
      copied_dict = it->second;
    } else {
      copied_dict = WriterDictionary::make(std::move(content), options.zstd_level);
      if (!copied_dict) return corruption(where + " cannot be loaded");
      if (auto st = place_dictionary(element, copied_dict); !st) return st;
    }
  }
  // Its players' table: followed entry for entry when this archive's is empty, its blocks then
  // copied as they are; else merged into this one by value, each block's tags section coded
  // again with this table's entries (9.8).
  const auto base = static_cast<std::uint32_t>(blocks.size());
  const bool same_players = player_values.size() == 0;
  std::string content;
  if (same_players) {
    for (std::size_t k = 0; k < src.index().name_chunks[kPlayerField].size(); ++k) {
      if (auto r = src.open_name_chunk(kPlayerField, k, content); !r) return r;
      Status added;
      auto r = src.visit_name_entries(kPlayerField, k, content, [&](std::string_view value, const std::vector<std::uint32_t>& in) {
        const std::uint32_t p = player_values.add(value);
        for (std::uint32_t b : in)
          if (added) added = names->add(kPlayerField, player_key(p), base + b);
      });
      if (!r) return r;
      if (!added) return added;
    }
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
    games_taken += sizes.games;
    if (same_players) {
      if (auto r = place(block, sizes.games, src.entry(b).summary, nullptr, nullptr); !r) return r;
      continue;
    }
    if (auto r = decode_block(block, src.where(b), tags_of, BlockParts::kTagsOnly); !r) return r;
    games.resize(tags_of.games);
    for (std::uint32_t j = 0; j < tags_of.games; ++j) games[j] = tags_of.tags.game(j);
    if (auto r = number_players(games, players); !r) return r;
    // The tags section compressed as it was: with the same dictionary (copied above, as its
    // frame was checked to name one of its archive's), or without one.
    const WriterDictionary* with = nullptr;
    if (sizes.encoding[kTags] == kZstdDictionary) {
      const std::string_view frame = std::string_view(block).substr(sizes.data_offset, sizes.stored[kTags]);
      with = dicts.at(detail::frame_dictionary_id(frame)).get();
    }
    const std::string recoded = replace_tags_section(block, make_tags_section(games, &players, store), store, with);
    if (auto r = place(recoded, sizes.games, src.entry(b).summary, nullptr, &players); !r) return r;
  }
  // Then its other name tables, renumbered (each value's blocks still arrive in ascending order:
  // every block given before is below `base`), holding only the values a table holds
  // (indexed_name).
  for (int field = 0; field < kNameFieldCount; ++field) {
    if (field == kPlayerField) continue;
    for (std::size_t k = 0; k < src.index().name_chunks[field].size(); ++k) {
      if (auto r = src.open_name_chunk(field, k, content); !r) return r;
      Status added;
      auto r = src.visit_name_entries(field, k, content, [&](std::string_view value, const std::vector<std::uint32_t>& in) {
        if (!indexed_name(field, value)) return;
        for (std::uint32_t b : in)
          if (added) added = names->add(field, value, base + b);
      });
      if (!r) return r;
      if (!added) return added;
    }
  }
  stats.input_bytes += src.file_bytes();
  return {};
}

Result<PackStats> ArchiveWriter::finish() {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st.error();
  if (auto st = s.decide(); !st) return st.error();
  if (auto st = s.write_names(); !st) return st.error();
  const std::string table =
      encode_block_table(s.blocks, s.file->offset(), s.options.table_chunk_blocks, s.store, s.index.table_chunks);
  if (auto st = s.file->write(table); !st) return st.error();
  Footer footer;
  footer.index_offset = s.file->offset();
  const std::string index = encode_index(s.index, s.store);
  if (auto st = s.file->write(index); !st) return st.error();
  footer.index_size = index.size();
  footer.games = s.stats.games;
  footer.blocks = s.blocks.size();
  footer.index_hash = detail::hash64(index);
  if (auto st = s.file->write(encode_footer(footer)); !st) return st.error();
  if (s.read_minor != 0 && s.file->rewritable())
    if (auto st = s.file->write_at(0, file_header(s.read_minor)); !st) return st.error();
  s.stats.output_bytes = s.file->offset();
  if (auto st = s.file->commit(); !st) return st.error();
  return s.stats;
}

}  // namespace pgnarc
