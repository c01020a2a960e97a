// A pass over an archive's blocks on worker threads, the results delivered in block order: the
// frame of an export, a verify and a position search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "common/thread_pool.h"
#include "container/archive_file.h"
#include "pgnarc/status.h"

namespace pgnarc::api {

// Reads each block of `blocks` (ascending) and runs work(b, bytes) -> Result<T> on `threads`
// workers (0: all cores), at most two blocks a thread ahead of the one delivered next; then, in
// block order, deliver(b, T&&) -> Result<bool> (false: stop early). The first error of either ends
// the pass and is returned. `work` may keep nothing that points into `bytes`.
template <class T, class Work, class Deliver>
Status scan_blocks(container::ArchiveFile& f, const std::vector<std::uint32_t>& blocks, unsigned threads, Work work,
                   Deliver deliver) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t n = blocks.size();
  const std::size_t window = 2 * std::size_t{threads};
  common::OrderedPool<Result<T>> pool(static_cast<unsigned>(std::min<std::size_t>(threads, n)));
  std::size_t submitted = 0;
  for (std::size_t k = 0; k < n; ++k) {
    for (; submitted < n && pool.pending() < window; ++submitted)
      pool.submit([&f, &work, b = blocks[submitted]]() -> Result<T> {
        // The worker's read buffer, kept from block to block.
        static thread_local std::string bytes;
        if (auto st = f.read_block(b, bytes); !st) return st.error();
        return work(b, std::string_view(bytes));
      });
    Result<T> done = pool.next();
    if (!done) return done.error();
    Result<bool> more = deliver(blocks[k], std::move(*done));
    if (!more) return more.error();
    if (!*more) return {};
  }
  return {};
}

// Every block of `f`, in order.
inline std::vector<std::uint32_t> all_blocks(const container::ArchiveFile& f) {
  std::vector<std::uint32_t> v(f.blocks());
  for (std::uint32_t b = 0; b < v.size(); ++b) v[b] = b;
  return v;
}

}  // namespace pgnarc::api
