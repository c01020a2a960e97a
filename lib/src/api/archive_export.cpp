// Archive::export_pgn: every block decoded to PGN on worker threads, delivered in order.
#include <algorithm>
#include <mutex>
#include <thread>

#include "api/archive_impl.h"
#include "api/block_pgn.h"
#include "common/thread_pool.h"

namespace pgnarc {

using namespace container;

Status Archive::export_pgn(const std::function<bool(std::string_view)>& sink, unsigned threads,
                           const std::function<void(std::uint64_t)>& progress) {
  ArchiveFile& f = *impl_->file;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  if (auto st = f.need_all(); !st) return st;
  const std::uint32_t n = f.blocks();
  // Blocks are taken in order, at most two per thread ahead of the one delivered next. Output
  // buffers come back to a pool once delivered, so that memory stays mapped and warm: a fresh
  // buffer per block costs page faults and copies, about a fifth of unpack's CPU time.
  const std::uint32_t window = 2 * threads;
  std::mutex buffers_mutex;
  std::vector<std::string> buffers;
  detail::OrderedPool<Result<std::string>> pool(std::min(threads, n));
  std::uint32_t submitted = 0;
  const auto submit = [&] {
    const std::uint32_t b = submitted++;
    pool.submit([&f, &buffers, &buffers_mutex, b] {
      std::string buffer;
      {
        std::lock_guard lock(buffers_mutex);
        if (!buffers.empty()) {
          buffer = std::move(buffers.back());
          buffers.pop_back();
        }
      }
      const BlockEntry& e = f.entry(b);
      // The worker's read buffer, kept from block to block (block_pgn keeps no view into it).
      static thread_local std::string bytes;
      if (auto st = f.read_block(b, bytes); !st) return Result<std::string>(st.error());
      return block_pgn(bytes, f.where(b), e.games, e.first_game, &f.dictionaries(), f.players(),
                       std::move(buffer));
    });
  };
  std::uint64_t games_done = 0;
  for (std::uint32_t b = 0; b < n; ++b) {
    while (submitted < n && pool.pending() < window) submit();
    Result<std::string> text = pool.next();
    if (!text) return text.error();
    games_done += f.entry(b).games;
    if (!sink(*text)) return {};
    {
      std::lock_guard lock(buffers_mutex);
      buffers.push_back(std::move(*text));
    }
    if (progress) progress(games_done);
  }
  // Every byte of the archive is checked on the way: the name chunks last, one at a time
  // (damage there harms no game, but is reported).
  return f.check_name_chunks();
}

}  // namespace pgnarc
