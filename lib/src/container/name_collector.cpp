#include "container/name_collector.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <queue>


namespace pgnarc::container {

namespace {

// What a held value costs in memory besides its bytes (the map node, the string and the
// vector), and what a held posting costs (the vector grows by doubling).
constexpr std::size_t kValueOverhead = 112;
constexpr std::size_t kPostingBytes = 8;
constexpr std::size_t kReadStep = 64 * 1024;

// Parses one entry as put_name_entry wrote it; false if `in` ends first (nothing is consumed).
bool parse_entry(std::string_view& in, NameEntry& e) {
  std::string_view rest = in, value;
  if (read_name_entry(rest, value, e.blocks, std::uint64_t{1} << 32)) return false;
  e.value.assign(value);
  in = rest;
  return true;
}

// One field of one run, read back through a buffer that grows to hold the longest entry.
class RunCursor {
 public:
  RunCursor(int fd, std::uint64_t begin, std::uint64_t end) : fd_(fd), at_(begin), end_(end) {}
  // The next entry into `entry`; false at the end of the run.
  Result<bool> next() {
    for (;;) {
      std::string_view in = std::string_view(buf_).substr(pos_);
      if (parse_entry(in, entry)) {
        pos_ = buf_.size() - in.size();
        return true;
      }
      if (at_ == end_) {
        if (pos_ == buf_.size()) return false;
        return corruption("name scratch file: a run ends inside an entry");
      }
      buf_.erase(0, pos_);
      pos_ = 0;
      const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(std::max(kReadStep, buf_.size()), end_ - at_));
      const std::size_t have = buf_.size();
      buf_.resize(have + want);
      std::size_t got = 0;
      while (got < want) {
        const ssize_t n = ::pread(fd_, buf_.data() + have + got, want - got, static_cast<off_t>(at_ + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return io_error(std::string("cannot read the name scratch file: ") + (n < 0 ? std::strerror(errno) : "short"));
        got += static_cast<std::size_t>(n);
      }
      at_ += want;
    }
  }
  NameEntry entry;

 private:
  int fd_;
  std::uint64_t at_, end_;
  std::string buf_;
  std::size_t pos_ = 0;
};

}  // namespace

NameCollector::~NameCollector() {
  if (fd_ >= 0) ::close(fd_);
}

Status NameCollector::add(int field, std::string_view value, std::uint32_t block) {
  auto& table = held_[field];
  auto it = table.find(value);
  if (it == table.end()) {
    it = table.emplace(std::string(value), std::vector<std::uint32_t>{}).first;
    held_bytes_ += kValueOverhead + value.size();
  }
  if (it->second.empty() || it->second.back() != block) {
    it->second.push_back(block);
    held_bytes_ += kPostingBytes;
  }
  return held_bytes_ > budget_ ? spill() : Status{};
}

Status NameCollector::write_scratch(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(scratch_size_));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot write " + scratch_path_ + ": " + std::strerror(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
    scratch_size_ += static_cast<std::uint64_t>(n);
  }
  return {};
}

Status NameCollector::spill() {
  if (fd_ < 0) {
    fd_ = ::open(scratch_path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd_ < 0) return io_error("cannot create " + scratch_path_ + ": " + std::strerror(errno));
    ::unlink(scratch_path_.c_str());  // the open descriptor keeps it while it is needed
  }
  Run run;
  std::string out;
  for (int f = 0; f < 4; ++f) {
    run.begin[f] = scratch_size_;
    for (const auto& [value, blocks] : held_[f]) {
      put_name_entry(out, value, blocks);
      if (out.size() >= kReadStep) {
        if (auto st = write_scratch(out); !st) return st;
        out.clear();
      }
    }
    if (auto st = write_scratch(out); !st) return st;
    out.clear();
    run.end[f] = scratch_size_;
    held_[f].clear();
  }
  runs_.push_back(run);
  held_bytes_ = 0;
  return {};
}

Status NameCollector::drain(const std::function<Status(int, NameEntry&)>& emit) {
  if (runs_.empty()) {  // everything is in memory
    for (int f = 0; f < 4; ++f) {
      NameEntry e;
      for (auto& [value, blocks] : held_[f]) {
        e.value = value;
        e.blocks = std::move(blocks);
        if (auto st = emit(f, e); !st) return st;
      }
      held_[f].clear();
    }
    held_bytes_ = 0;
    return {};
  }
  if (held_bytes_ > 0)
    if (auto st = spill(); !st) return st;
  for (int f = 0; f < 4; ++f) {
    std::vector<RunCursor> cursors;
    cursors.reserve(runs_.size());
    for (const Run& r : runs_) cursors.emplace_back(fd_, r.begin[f], r.end[f]);
    // The runs with an entry left, smallest value first (earlier run first among equals).
    const auto later = [&](std::size_t a, std::size_t b) {
      const int c = cursors[a].entry.value.compare(cursors[b].entry.value);
      return c != 0 ? c > 0 : a > b;
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
    for (std::size_t i = 0; i < cursors.size(); ++i) {
      auto got = cursors[i].next();
      if (!got) return got.error();
      if (*got) heap.push(i);
    }
    NameEntry merged;
    bool have = false;
    while (!heap.empty()) {
      const std::size_t i = heap.top();
      heap.pop();
      NameEntry& e = cursors[i].entry;
      if (have && e.value == merged.value) {
        for (std::uint32_t b : e.blocks)
          if (merged.blocks.back() != b) merged.blocks.push_back(b);
      } else {
        if (have)
          if (auto st = emit(f, merged); !st) return st;
        merged.value.swap(e.value);
        merged.blocks.swap(e.blocks);
        have = true;
      }
      auto got = cursors[i].next();
      if (!got) return got.error();
      if (*got) heap.push(i);
    }
    if (have)
      if (auto st = emit(f, merged); !st) return st;
  }
  runs_.clear();
  ::close(fd_);
  fd_ = -1;
  scratch_size_ = 0;
  return {};
}

}  // namespace pgnarc::container
