// ArchiveWriter: games in, blocks out, in order, on N threads; then the index and the footer.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <deque>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "container/format.h"
#include "container/names.h"

namespace pgnarc {

using namespace container;

namespace {

// One encoded block and what the index needs to know of it. A block made before the writer has
// decided on a tag dictionary is `deferred`: its builder is kept unfinished, with its tags
// section (training input), until the decision.
struct EncodedBlock {
  std::string bytes;
  bool deferred = false;
  BlockBuilder builder;
  std::string tags_raw;
  std::uint32_t games = 0;
  BlockSummary summary;
  std::set<std::string> names[4];
  std::vector<Problem> problems;  // game_number relative to the block (0-based) until placed
  CodecStats stats;
};

void collect_names(const std::vector<Tag>& tags, std::set<std::string> names[4]) {
  for (const Tag& t : tags)
    for (int f = 0; f < 4; ++f)
      if (t.key == kNameFields[f]) names[f].insert(t.value);
}

EncodedBlock encode_block(std::vector<PgnReader::RawGame> raws, const std::string& source, const WriterOptions& options,
                          std::shared_ptr<const WriterDictionary> dict, bool defer) {
  EncodedBlock out;
  BlockBuilder b;
  GameBuilder builder;
  for (std::size_t i = 0; i < raws.size(); ++i) {
    const auto& rg = raws[i];
    parse_game(rg.text, source, rg.number, rg.start, builder);
    Status st;
    if (builder.ok()) st = encode_game(builder.game(), b.streams, &out.stats);
    if (builder.ok() && st) {
      collect_names(builder.game().tags, out.names);
      b.end_game(builder.game().tags);
    } else {
      Error e = builder.ok() ? Error(st.error().code(), source + ": game " + std::to_string(rg.number) + ": " +
                                                            st.error().message())
                             : builder.error();
      encode_raw_game(rg.text, b.streams, &out.stats);
      b.end_game({});
      out.problems.push_back(Problem{i, std::move(e)});
    }
  }
  out.games = b.games;
  out.summary = b.summary;
  if (defer) {
    out.deferred = true;
    out.tags_raw = b.tags_section();
    out.builder = std::move(b);
  } else {
    out.bytes = b.finish(options, dict.get());
  }
  return out;
}

// The writer holds blocks for training until this many, or this many bytes of their tags (more
// training makes a better dictionary for large archives: PGN Mentor, 89,694 games, -1.5% with
// 256 blocks and 128 KiB against 64 blocks and 64 KiB; the held blocks cost memory, 73 MB
// peak there).
constexpr std::size_t kMaxHeldBlocks = 256;
constexpr std::size_t kMaxHeldTagBytes = 4u << 20;
// A dictionary is trained only on at least 8 times its size of tags, and only if it can hold
// 4 KiB (less is not worth an element).
constexpr std::size_t kTrainingPerDictionaryByte = 8;
constexpr std::size_t kMinDictionaryBytes = 4096;

}  // namespace

struct ArchiveWriter::Impl {
  std::string path, tmp_path;
  int fd = -1;
  WriterOptions options;
  std::uint64_t offset = 0;
  Index index;
  std::unique_ptr<NameCollector> names;
  PackStats stats;
  BlockBuilder pending;  // for add_game
  std::size_t pending_bytes = 0;
  std::set<std::string> pending_names[4];
  CodecStats pending_stats;
  bool finished = false;
  // Tag dictionary (9.9): undecided until the first blocks' tags train one (or show that none
  // pays), or until an archive copied in offers one (append); blocks made meanwhile are held.
  bool dict_decided = true;
  std::shared_ptr<const WriterDictionary> dict;
  std::vector<EncodedBlock> held;
  std::size_t held_tags = 0;
  std::uint64_t held_games = 0;
  // Every dictionary in the file so far: ID -> content (a copied one with the same ID must be
  // the same dictionary); the last one copied in, for blocks made after it.
  std::map<std::uint32_t, std::string> dict_contents;
  std::shared_ptr<const WriterDictionary> copied_dict;

  // Games placed or held: the number of the next game made.
  std::uint64_t games_so_far() const { return stats.games + held_games; }

  Status write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return io_error("cannot write " + tmp_path + ": " + std::strerror(errno));
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
      offset += static_cast<std::uint64_t>(n);
    }
    return {};
  }

  // `block_names`: the names of the block's games (null: none given here; append and merge add
  // a copied archive's from its own tables).
  Status place(std::string_view bytes, std::uint32_t games, const BlockSummary& summary, const std::set<std::string>* block_names) {
    const auto block_no = static_cast<std::uint32_t>(index.blocks.size());
    IndexEntry e;
    e.offset = offset;
    e.size = bytes.size();
    e.games = games;
    e.first_game = stats.games;
    e.summary = summary;
    if (auto st = write_all(bytes); !st) return st;
    index.blocks.push_back(e);
    if (block_names)
      for (int f = 0; f < 4; ++f)
        for (const std::string& v : block_names[f])
          if (auto st = names->add(f, v, block_no); !st) return st;
    stats.games += games;
    ++stats.blocks;
    return {};
  }

  Status place_dictionary(std::string_view element, std::uint32_t id, const std::string& content) {
    DictionaryEntry d;
    d.offset = offset;
    d.size = element.size();
    d.id = id;
    if (auto st = write_all(element); !st) return st;
    index.dictionaries.push_back(d);
    dict_contents.emplace(id, content);
    return {};
  }

  // The name tables as chunk elements after the last block (9.10), listed in the index.
  Status write_names() {
    std::string entries, first;
    std::uint64_t count = 0;
    int field = 0;
    const auto close_chunk = [&]() -> Status {
      if (count == 0) return {};
      if (entries.size() + 10 > kMaxNameChunkBytes)
        return invalid_input("the name table entry of " + std::string(kNameFields[field]) + " \"" + first +
                             "\" is too large for a name chunk (2^30 bytes)");
      const std::string element = encode_name_chunk(field, count, entries, options, dict.get());
      index.name_chunks[field].push_back(NameChunkEntry{offset, element.size(), count, first});
      entries.clear();
      count = 0;
      return write_all(element);
    };
    auto st = names->drain([&](int f, NameEntry& e) -> Status {
      if (f != field) {
        if (auto r = close_chunk(); !r) return r;
        field = f;
      }
      if (count == 0) first = e.value;
      put_name_entry(entries, e.value, e.blocks);
      ++count;
      return entries.size() >= options.name_chunk_bytes ? close_chunk() : Status{};
    });
    if (!st) return st;
    return close_chunk();
  }

  // Places a block (its problems reported first), or holds it while the dictionary is undecided.
  Status place(EncodedBlock& b, const std::function<void(const Problem&)>& on_problem) {
    for (Problem& p : b.problems) {
      p.game_number += games_so_far() + 1;
      if (on_problem) on_problem(p);
    }
    b.problems.clear();
    if (!dict_decided && copied_dict)
      if (auto st = decide(); !st) return st;
    if (b.deferred && !dict_decided) {
      held_games += b.games;
      held_tags += b.tags_raw.size();
      held.push_back(std::move(b));
      if (held.size() >= kMaxHeldBlocks || held_tags >= kMaxHeldTagBytes) return decide();
      return {};
    }
    if (b.deferred) b.bytes = b.builder.finish(options, dict.get());
    return place_finished(b);
  }

  Status place_finished(EncodedBlock& b) {
    if (auto st = place(b.bytes, b.games, b.summary, b.names); !st) return st;
    stats.raw_games += b.stats.raw_games;
    stats.plies += b.stats.plies;
    return {};
  }

  // Decides on the tag dictionary: the one an archive copied in offers, else one trained on the
  // held blocks' tags if it makes them smaller, counting its own element; then finishes and
  // places the held blocks.
  Status decide() {
    if (dict_decided) return {};
    dict_decided = true;
    if (copied_dict) {
      dict = copied_dict;
    } else if (!held.empty()) {
      std::vector<std::string> sections;
      std::size_t total = 0;
      for (const EncodedBlock& b : held) {
        sections.push_back(b.tags_raw);
        total += b.tags_raw.size();
      }
      const std::size_t capacity =
          std::min<std::size_t>({options.dictionary_bytes, total / kTrainingPerDictionaryByte, kMaxDictionaryBytes});
      std::shared_ptr<const WriterDictionary> trained;
      if (capacity >= kMinDictionaryBytes) {
        std::string content = train_tag_dictionary(sections, capacity);
        if (!content.empty()) trained = WriterDictionary::make(std::move(content), options.zstd_level);
      }
      if (trained) {
        const std::string element = encode_dictionary_element(*trained, options);
        std::size_t with = element.size(), without = 0;
        for (const std::string& sec : sections) {
          with += trained->compress(sec).size();
          without += compress_frame(sec, options.zstd_level).size();
        }
        if (with < without) {
          if (auto st = place_dictionary(element, trained->id(), trained->content()); !st) return st;
          dict = trained;
        }
      }
    }
    // Finish the held blocks, several at a time, and place them in order.
    std::vector<EncodedBlock> blocks = std::move(held);
    held.clear();
    held_games = 0;
    held_tags = 0;
    const std::size_t step = std::max(1u, options.threads);
    for (std::size_t i = 0; i < blocks.size(); i += step) {
      std::vector<std::future<std::string>> done;
      for (std::size_t j = i; j < std::min(blocks.size(), i + step); ++j)
        done.push_back(std::async(step > 1 ? std::launch::async : std::launch::deferred,
                                  [this, &b = blocks[j]] { return b.builder.finish(options, dict.get()); }));
      for (std::size_t j = i; j < std::min(blocks.size(), i + step); ++j) {
        blocks[j].bytes = done[j - i].get();
        if (auto st = place_finished(blocks[j]); !st) return st;
      }
    }
    return {};
  }

  Status flush_pending() {
    if (pending.games == 0) return {};
    EncodedBlock b;
    b.games = pending.games;
    b.summary = pending.summary;
    for (int f = 0; f < 4; ++f) b.names[f].swap(pending_names[f]);
    b.stats = pending_stats;
    if (dict_decided) {
      b.bytes = pending.finish(options, dict.get());
    } else {
      b.deferred = true;
      b.tags_raw = pending.tags_section();
      b.builder = std::move(pending);
    }
    pending = BlockBuilder{};
    pending_bytes = 0;
    pending_stats = CodecStats{};
    for (auto& s : pending_names) s.clear();
    return place(b, nullptr);
  }
};

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::create(const std::string& path, WriterOptions options) {
  if (options.table_chunk_blocks == 0 || options.table_chunk_blocks > kMaxTableChunkBlocks)
    return invalid_input("the block table chunk size must be 1 to 2^20 blocks");
  std::unique_ptr<ArchiveWriter> w(new ArchiveWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& s = *w->impl_;
  s.path = path;
  s.tmp_path = path + ".tmp." + std::to_string(::getpid());
  s.options = options;
  s.names = std::make_unique<NameCollector>(s.tmp_path + ".names", s.options.name_memory_bytes);
  if (s.options.threads == 0) s.options.threads = std::max(1u, std::thread::hardware_concurrency());
  s.dict_decided = !(s.options.compress && s.options.dictionary_bytes > 0);
  s.fd = ::open(s.tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (s.fd < 0) return io_error("cannot create " + s.tmp_path + ": " + std::strerror(errno));
  if (auto st = s.write_all(file_header()); !st) return st.error();
  return w;
}

ArchiveWriter::~ArchiveWriter() {
  if (!impl_) return;
  if (impl_->fd >= 0) ::close(impl_->fd);
  if (!impl_->finished) ::unlink(impl_->tmp_path.c_str());
}

Status ArchiveWriter::add_game(const Game& game) {
  Impl& s = *impl_;
  if (auto st = encode_game(game, s.pending.streams, &s.pending_stats); !st) return st;
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
  std::deque<std::future<EncodedBlock>> in_flight;
  auto drain_one = [&]() -> Status {
    EncodedBlock b = in_flight.front().get();
    in_flight.pop_front();
    auto st = s.place(b, on_problem);
    if (on_progress) on_progress(s.games_so_far(), reader.bytes_read() - bytes_before);
    return st;
  };
  bool more = true;
  while (more) {
    std::vector<PgnReader::RawGame> batch;
    std::size_t bytes = 0;
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
    if (batch.empty()) break;
    // A block made while the dictionary is undecided is finished later (the decision may come
    // while it is in flight: place() finishes it then).
    const bool defer = !s.dict_decided;
    if (s.options.threads <= 1) {
      EncodedBlock b = encode_block(std::move(batch), source, s.options, s.dict, defer);
      if (auto st = s.place(b, on_problem); !st) return st;
      if (on_progress) on_progress(s.games_so_far(), reader.bytes_read() - bytes_before);
      continue;
    }
    in_flight.push_back(std::async(std::launch::async, encode_block, std::move(batch), source, s.options, s.dict, defer));
    // Bounded memory: at most two blocks per thread are waiting.
    while (in_flight.size() >= 2 * s.options.threads)
      if (auto st = drain_one(); !st) return st;
  }
  while (!in_flight.empty())
    if (auto st = drain_one(); !st) return st;
  s.stats.input_bytes += reader.bytes_read() - bytes_before;
  return {};
}

Status ArchiveWriter::add_archive_blocks(const std::string& path) {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st;
  if (!s.held.empty())  // blocks made before this archive's come before them
    if (auto st = s.decide(); !st) return st;
  auto a = Archive::open(path);  // checks header, footer, index and dictionaries
  if (!a) return a.error();
  // Map the file and copy block by block: memory stays flat whatever the archive's size.
  auto mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  const std::string_view file = (*mapped)->bytes();
  const std::size_t size = file.size();
  Footer footer;
  if (auto r = decode_footer(file.substr(size - kFooterSize), size, footer); !r) return r;
  std::uint16_t write_version, read_version;
  if (auto r = check_file_header(file, write_version, read_version); !r) return r;
  Index src;
  if (auto r = decode_index(file.substr(footer.index_offset, footer.index_size), footer.index_offset, read_version, src);
      !r)
    return r;
  if (auto r = load_block_table(file, path, footer.index_offset, footer.games, src); !r) return r;
  // Its dictionaries first (one already here with the same ID must be the same dictionary).
  ReaderDictionaries src_dictionaries;  // for its name chunks
  for (const DictionaryEntry& d : src.dictionaries) {
    const std::string_view element = file.substr(d.offset, d.size);
    const std::string where = path + ": dictionary at offset " + std::to_string(d.offset);
    const std::uint32_t id = d.id;
    std::string content;
    if (auto r = src_dictionaries.add(element, where, id, &content); !r) return r;
    if (auto it = s.dict_contents.find(id); it != s.dict_contents.end()) {
      if (it->second != content)
        return invalid_input(path + ": its tag dictionary " + std::to_string(id) +
                             " differs from another of the same ID: these archives cannot be joined by copying");
    } else if (auto st = s.place_dictionary(element, id, content); !st) {
      return st;
    }
    s.copied_dict = WriterDictionary::make(std::move(content), s.options.zstd_level);
    if (!s.copied_dict) return corruption(where + " cannot be loaded");
  }
  const auto base = static_cast<std::uint32_t>(s.index.blocks.size());
  for (std::size_t b = 0; b < src.blocks.size(); ++b) {
    const IndexEntry& e = src.blocks[b];
    const std::string_view bytes = file.substr(e.offset, e.size);
    std::uint32_t games, stored[kSections], raw[kSections];
    if (auto r = read_block_sizes(bytes, path + ": block " + std::to_string(b) + " at offset " + std::to_string(e.offset),
                                  games, stored, raw);
        !r)
      return r;
    if (auto r = s.place(bytes, games, e.summary, nullptr); !r) return r;
  }
  // Then its name tables, renumbered (each value's blocks still arrive in ascending order: every
  // block given before is below `base`).
  const auto add_entry = [&](int fld, std::string_view value, const std::vector<std::uint32_t>& blocks) -> Status {
    for (std::uint32_t b : blocks)
      if (auto st = s.names->add(fld, value, base + b); !st) return st;
    return {};
  };
  std::string content;
  for (int fld = 0; fld < 4; ++fld) {
    for (const auto& [value, blocks] : src.names[fld])  // format 8 and before
      if (auto st = add_entry(fld, value, blocks); !st) return st;
    const auto& chunks = src.name_chunks[fld];  // format 9 on
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      const NameChunkEntry& c = chunks[k];
      const std::string where = path + ": name chunk at offset " + std::to_string(c.offset);
      if (auto r = open_name_chunk(file.substr(c.offset, c.size), where, fld, &src_dictionaries, content); !r) return r;
      Status added;
      auto r = visit_name_entries(content, where, c, k + 1 < chunks.size() ? &chunks[k + 1].first : nullptr, src.blocks.size(),
                                  [&](std::string_view value, const std::vector<std::uint32_t>& blocks) {
                                    if (added) added = add_entry(fld, value, blocks);
                                  });
      if (!r) return r;
      if (!added) return added;
    }
  }
  s.stats.input_bytes += size;
  return {};
}

Result<PackStats> ArchiveWriter::finish() {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st.error();
  if (auto st = s.decide(); !st) return st.error();
  if (auto st = s.write_names(); !st) return st.error();
  if (auto st = s.write_all(encode_block_table(s.index, s.offset, s.options.table_chunk_blocks, s.options)); !st)
    return st.error();
  const std::uint64_t index_offset = s.offset;
  const std::string index = encode_index(s.index, s.options);
  if (auto st = s.write_all(index); !st) return st.error();
  if (auto st = s.write_all(encode_footer(index_offset, index.size(), s.stats.games, s.index.blocks.size(), hash64(index))); !st)
    return st.error();
  if (::fsync(s.fd) != 0) return io_error("cannot sync " + s.tmp_path + ": " + std::strerror(errno));
  if (::close(s.fd) != 0) {
    s.fd = -1;
    return io_error("cannot close " + s.tmp_path + ": " + std::strerror(errno));
  }
  s.fd = -1;
  if (std::rename(s.tmp_path.c_str(), s.path.c_str()) != 0)
    return io_error("cannot rename " + s.tmp_path + " to " + s.path + ": " + std::strerror(errno));
  s.finished = true;
  s.stats.output_bytes = s.offset;
  return s.stats;
}

}  // namespace pgnarc
