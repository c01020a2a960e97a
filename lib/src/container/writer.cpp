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

namespace pgnarc {

using namespace container;

namespace {

// One encoded block and what the index needs to know of it.
struct EncodedBlock {
  std::string bytes;
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

EncodedBlock encode_block(std::vector<PgnReader::RawGame> raws, const std::string& source, const WriterOptions& options) {
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
  out.bytes = b.finish(options);
  return out;
}

}  // namespace

struct ArchiveWriter::Impl {
  std::string path, tmp_path;
  int fd = -1;
  WriterOptions options;
  std::uint64_t offset = 0;
  Index index;
  std::map<std::string, std::vector<std::uint32_t>> names[4];
  PackStats stats;
  BlockBuilder pending;  // for add_game
  std::size_t pending_bytes = 0;
  std::set<std::string> pending_names[4];
  CodecStats pending_stats;
  bool finished = false;

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

  Status place(std::string_view bytes, std::uint32_t games, const BlockSummary& summary, const std::set<std::string> block_names[4]) {
    const auto block_no = static_cast<std::uint32_t>(index.blocks.size());
    IndexEntry e;
    e.offset = offset;
    e.size = bytes.size();
    e.games = games;
    e.first_game = stats.games;
    e.summary = summary;
    if (auto st = write_all(bytes); !st) return st;
    index.blocks.push_back(e);
    for (int f = 0; f < 4; ++f)
      for (const std::string& v : block_names[f]) names[f][v].push_back(block_no);
    stats.games += games;
    ++stats.blocks;
    return {};
  }

  Status place(EncodedBlock& b, const std::function<void(const Problem&)>& on_problem) {
    const std::uint64_t first = stats.games;
    if (auto st = place(b.bytes, b.games, b.summary, b.names); !st) return st;
    stats.raw_games += b.stats.raw_games;
    stats.plies += b.stats.plies;
    for (Problem& p : b.problems) {
      p.game_number += first + 1;
      if (on_problem) on_problem(p);
    }
    return {};
  }

  Status flush_pending() {
    if (pending.games == 0) return {};
    const std::string bytes = pending.finish(options);
    if (auto st = place(bytes, pending.games, pending.summary, pending_names); !st) return st;
    stats.plies += pending_stats.plies;
    pending = BlockBuilder{};
    pending_bytes = 0;
    pending_stats = CodecStats{};
    for (auto& s : pending_names) s.clear();
    return {};
  }
};

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::create(const std::string& path, WriterOptions options) {
  std::unique_ptr<ArchiveWriter> w(new ArchiveWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& s = *w->impl_;
  s.path = path;
  s.tmp_path = path + ".tmp." + std::to_string(::getpid());
  s.options = options;
  if (s.options.threads == 0) s.options.threads = std::max(1u, std::thread::hardware_concurrency());
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
    if (on_progress) on_progress(s.stats.games, reader.bytes_read() - bytes_before);
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
    if (s.options.threads <= 1) {
      EncodedBlock b = encode_block(std::move(batch), source, s.options);
      if (auto st = s.place(b, on_problem); !st) return st;
      if (on_progress) on_progress(s.stats.games, reader.bytes_read() - bytes_before);
      continue;
    }
    in_flight.push_back(std::async(std::launch::async, encode_block, std::move(batch), source, s.options));
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
  auto a = Archive::open(path);  // checks header, footer and index
  if (!a) return a.error();
  // Map the file and copy block by block: memory stays flat whatever the archive's size.
  auto mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  const std::string_view file = (*mapped)->bytes();
  const std::size_t size = file.size();
  Footer footer;
  if (auto r = decode_footer(file.substr(size - kFooterSize), size, footer); !r) return r;
  Index src;
  if (auto r = decode_index(file.substr(footer.index_offset, footer.index_size), footer.index_offset, src); !r) return r;
  std::vector<std::set<std::string>> block_names[4];
  for (int fld = 0; fld < 4; ++fld) {
    block_names[fld].resize(src.blocks.size());
    for (const auto& [value, blocks] : src.names[fld])
      for (std::uint32_t b : blocks) block_names[fld][b].insert(value);
  }
  for (std::size_t b = 0; b < src.blocks.size(); ++b) {
    const IndexEntry& e = src.blocks[b];
    const std::string_view bytes = file.substr(e.offset, e.size);
    std::uint32_t games, stored[kSections], raw[kSections];
    if (auto r = read_block_sizes(bytes, path + ": block " + std::to_string(b) + " at offset " + std::to_string(e.offset),
                                  games, stored, raw);
        !r)
      return r;
    std::set<std::string> names[4];
    for (int fld = 0; fld < 4; ++fld) names[fld].swap(block_names[fld][b]);
    if (auto r = s.place(bytes, games, e.summary, names); !r) return r;
  }
  s.stats.input_bytes += size;
  return {};
}

Result<PackStats> ArchiveWriter::finish() {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st.error();
  for (int f = 0; f < 4; ++f) {
    s.index.names[f].reserve(s.names[f].size());
    for (auto& [value, blocks] : s.names[f]) s.index.names[f].emplace_back(value, std::move(blocks));
  }
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
