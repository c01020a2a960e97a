// Archive::export_pgn: every block decoded to PGN on worker threads, delivered in order.
#include <mutex>

#include "api/archive_impl.h"
#include "api/block_pgn.h"
#include "api/block_scan.h"

namespace pgnarc {

using namespace container;

Status Archive::export_pgn(const std::function<bool(std::string_view)>& sink, unsigned threads,
                           const std::function<void(std::uint64_t)>& progress) {
  ArchiveFile& f = *impl_->file;
  if (auto st = f.need_all(); !st) return st;
  // Output buffers come back to a pool once delivered, so that memory stays mapped and warm: a
  // fresh buffer per block costs page faults and copies, about a fifth of unpack's CPU time.
  std::mutex buffers_mutex;
  std::vector<std::string> buffers;
  std::uint64_t games_done = 0;
  bool stopped = false;
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
    return block_pgn(bytes, f.where(b), e.games, e.first_game, &f.dictionaries(), f.players(), std::move(buffer));
  };
  const auto deliver = [&](std::uint32_t b, std::string&& text) -> Result<bool> {
    games_done += f.entry(b).games;
    if (!sink(text)) return stopped = true, false;
    {
      std::lock_guard lock(buffers_mutex);
      buffers.push_back(std::move(text));
    }
    if (progress) progress(games_done);
    return true;
  };
  if (auto st = detail::scan_blocks<std::string>(f, detail::all_blocks(f), threads, work, deliver); !st) return st;
  if (stopped) return {};
  // Every byte of the archive is checked on the way: the name chunks last, one at a time
  // (damage there harms no game, but is reported).
  return f.check_name_chunks();
}

Status Archive::for_each_block(const std::function<bool(std::uint64_t, std::vector<ArchiveGame>&)>& visit,
                               unsigned threads) {
  ArchiveFile& f = *impl_->file;
  if (auto st = f.need_all(); !st) return st;
  bool stopped = false;
  const auto work = [&](std::uint32_t b, std::string_view bytes) {
    const BlockEntry& e = f.entry(b);
    return block_games(bytes, f.where(b), e.games, e.first_game, &f.dictionaries(), f.players());
  };
  const auto deliver = [&](std::uint32_t b, std::vector<ArchiveGame>&& games) -> Result<bool> {
    if (!visit(f.entry(b).first_game, games)) return stopped = true, false;
    return true;
  };
  if (auto st = detail::scan_blocks<std::vector<ArchiveGame>>(f, detail::all_blocks(f), threads, work, deliver); !st)
    return st;
  if (stopped) return {};
  return f.check_name_chunks();
}

}  // namespace pgnarc
