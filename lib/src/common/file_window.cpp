#include "common/file_window.h"

#include <algorithm>

namespace pgnarc::common {

Status FileWindow::load(std::uint64_t at, std::uint64_t n) {
  const std::uint64_t len = std::min<std::uint64_t>(std::max<std::uint64_t>(n, kWindowBytes), size() - at);
  // A window grown for one large range goes back to its size after it.
  if (buffer_.capacity() > 2 * kWindowBytes && len <= kWindowBytes) std::string().swap(buffer_);
  start_ = at;
  if (progress_) progress_(at);
  if (auto st = file_.read(at, static_cast<std::size_t>(len), buffer_); !st) {
    buffer_.clear();
    return st;
  }
  return {};
}

Result<std::string_view> FileWindow::bytes(std::uint64_t at, std::uint64_t n) {
  if (at >= size()) return std::string_view();
  n = std::min(n, size() - at);
  if (at < start_ || at + n > start_ + buffer_.size())
    if (auto st = load(at, n); !st) return st.error();
  return std::string_view(buffer_).substr(static_cast<std::size_t>(at - start_), static_cast<std::size_t>(n));
}

Result<std::uint64_t> FileWindow::find(std::string_view pattern, std::uint64_t from) {
  while (from + pattern.size() <= size()) {
    if (from < start_ || from + pattern.size() > start_ + buffer_.size()) {
      // A hole reads as zeros, which the pattern does not hold: the search goes on after it.
      from = file_.next_data(from);
      if (from + pattern.size() > size()) break;
      if (auto st = load(from, kWindowBytes); !st) return st.error();
    }
    const std::string_view window(buffer_);
    const std::size_t in = static_cast<std::size_t>(from - start_);
    const std::size_t hit = window.find(pattern, in);
    if (hit != std::string_view::npos) return start_ + hit;
    // Not in this window: the next starts where a pattern cut at this one's end would.
    const std::uint64_t end = start_ + buffer_.size();
    if (end >= size()) break;
    from = std::max(from, end - std::min<std::uint64_t>(buffer_.size(), pattern.size() - 1));
  }
  return npos;
}

}  // namespace pgnarc::common
