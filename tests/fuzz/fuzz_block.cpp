// Fuzz target: one block of arbitrary bytes, made to pass its checksum (the input is the block
// without its last 8 bytes; the checksum is computed here), wrapped in a valid archive. So the
// decoders behind the checksum are reached: block header, sections, tags of both layouts, the
// game directory, game records. Damage must be an error, never a crash; and where a pass in
// order reads every game, a fresh reader's random read of each game must give the same game.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "container/format.h"
#include "pgnarc/archive.h"

namespace {

std::string archive_around(const std::string& block, std::uint32_t games) {
  using namespace pgnarc;
  using namespace pgnarc::container;
  Index index;
  IndexEntry e;
  e.offset = kHeaderSize;
  e.size = block.size();
  e.games = games;
  e.summary.date_min = 0;  // widest: a search must not skip the block
  e.summary.date_max = 99999999;
  e.summary.results = 31;
  index.blocks.push_back(e);
  WriterOptions stored;
  stored.compress = false;
  const std::string idx = encode_index(index, stored);
  return file_header() + block + idx + encode_footer(kHeaderSize + block.size(), idx.size(), games, 1, hash64(idx));
}

std::unique_ptr<pgnarc::Archive> open_bytes(const std::string& bytes, int& fd) {
  fd = memfd_create("fuzz.pga", 0);
  if (fd < 0) return nullptr;
  if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) return nullptr;
  auto a = pgnarc::Archive::open("/proc/self/fd/" + std::to_string(fd));
  return a ? std::move(*a) : nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc::container;
  if (size < kBlockHeaderSize) return 0;
  std::string block(reinterpret_cast<const char*>(data), size);
  const auto games = static_cast<std::uint32_t>(get_le(block.data() + 8, 4));
  if (games == 0 || games > 64) return 0;  // the index's own limits are the archive fuzzer's
  put_le(block, hash64(block), 8);
  const std::string bytes = archive_around(block, games);
  int fd = -1;
  auto a = open_bytes(bytes, fd);
  if (a) {
    std::vector<std::string> in_order;
    const bool whole = a->for_each([&](std::uint64_t, pgnarc::ArchiveGame& g) {
      in_order.push_back(g.raw ? g.raw_text : g.game.tags.empty() ? std::string() : g.game.tags[0].value);
      return true;
    }).ok();
    std::string unpacked;
    const bool exported = a->export_pgn([&](std::string_view t) {
      unpacked += t;
      return true;
    }, 1).ok();
    if (whole != exported) __builtin_trap();  // the two passes in order check the same things
    for (std::uint32_t j = 0; j < games; ++j) {
      int fd2 = -1;
      auto fresh = open_bytes(bytes, fd2);
      if (fresh) {
        auto one = fresh->read_pgn(j);
        auto again = a->read_pgn(j);
        if (whole && (!one || !again || *one != *again)) __builtin_trap();
      }
      if (fd2 >= 0) ::close(fd2);
    }
  }
  if (fd >= 0) ::close(fd);
  return 0;
}
