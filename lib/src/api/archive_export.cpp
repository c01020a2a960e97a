// Archive::export_pgn and for_each_block: every block decoded on worker threads, delivered in order.
#include <mutex>

#include "api/archive_impl.h"
#include "api/block_pgn.h"
#include "api/block_scan.h"

namespace pgnarc {

using namespace container;

namespace {

// Every block of `f` through work(b, bytes) -> Result<T> and then, in block order,
// deliver(b, T&&) -> bool (false: stop), as scan_blocks runs them; after the last block the
// name chunks are checked too, so that a pass over the whole archive checks every byte of it.
template <class T, class Work, class Deliver>
Status whole_archive_pass(ArchiveFile& f, unsigned threads, Work work, Deliver deliver) {
  if (auto st = f.need_all(); !st) return st;
  bool stopped = false;
  const auto until_stopped = [&](std::uint32_t b, T&& value) -> Result<bool> {
    stopped = !deliver(b, std::move(value));
    return !stopped;
  };
  if (auto st = api::scan_blocks<T>(f, api::all_blocks(f), threads, work, until_stopped); !st) return st;
  if (stopped) return {};
  return f.check_name_chunks();
}

}  // namespace

Status Archive::export_pgn(const std::function<bool(std::string_view)>& sink, unsigned threads,
                           const std::function<void(std::uint64_t)>& progress) {
  ArchiveFile& f = *impl_->file;
  // Output buffers come back to a pool once delivered, so that memory stays mapped and warm: a
  // fresh buffer per block costs page faults and copies, about a fifth of unpack's CPU time.
  std::mutex buffers_mutex;
  std::vector<std::string> buffers;
  std::uint64_t games_done = 0;
  const auto work = [&](std::uint32_t b, std::string_view bytes) {
    std::string buffer;
    {
      std::lock_guard lock(buffers_mutex);
      if (!buffers.empty()) {
        buffer = std::move(buffers.back());
        buffers.pop_back();
      }
    }
    const BlockEntry& e = f.entry(b);
    return api::block_pgn(bytes, f.where(b), e.games, e.first_game, &f.dictionaries(), f.players(), std::move(buffer));
  };
  const auto deliver = [&](std::uint32_t b, std::string&& text) {
    games_done += f.entry(b).games;
    if (!sink(text)) return false;
    {
      std::lock_guard lock(buffers_mutex);
      buffers.push_back(std::move(text));
    }
    if (progress) progress(games_done);
    return true;
  };
  // (Damage in the name chunks, checked last, harms no game, but is reported.)
  return whole_archive_pass<std::string>(f, threads, work, deliver);
}

Status Archive::for_each_block(const std::function<bool(std::uint64_t, std::vector<ArchiveGame>&)>& visit,
                               unsigned threads) {
  ArchiveFile& f = *impl_->file;
  const auto work = [&](std::uint32_t b, std::string_view bytes) {
    const BlockEntry& e = f.entry(b);
    return api::block_games(bytes, f.where(b), e.games, e.first_game, &f.dictionaries(), f.players());
  };
  const auto deliver = [&](std::uint32_t b, std::vector<ArchiveGame>&& games) {
    return visit(f.entry(b).first_game, games);
  };
  return whole_archive_pass<std::vector<ArchiveGame>>(f, threads, work, deliver);
}

}  // namespace pgnarc
