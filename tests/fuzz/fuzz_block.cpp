// Fuzz target: one block of arbitrary bytes, made to pass its checksum (the input is the block
// without its last 8 bytes; the checksum is computed here), wrapped in a valid archive. So the
// decoders behind the checksum are reached: block header, sections, the tags section, the
// game directory, game records. Damage must be an error, never a crash; and where a pass in
// order reads every game, unpack must write those games and a fresh reader's random read of
// each game must give the same PGN.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/endian.h"
#include "common/hash.h"
#include "container/block_table.h"
#include "container/file_header.h"
#include "container/format.h"
#include "container/index.h"
#include "pgnarc/pgnarc.h"
#include "pgnarc/pgn.h"

namespace {

std::string archive_around(const std::string& block, std::uint32_t games) {
  using namespace pgnarc::container;
  BlockEntry e;
  e.offset = kHeaderSize;
  e.size = block.size();
  e.games = games;
  e.summary.date_min = 0;  // widest: a search must not skip the block
  e.summary.date_max = 99999999;
  e.summary.results = 31;
  StoreOptions stored;
  stored.compress = false;
  Index index;
  const std::string table = encode_block_table({e}, kHeaderSize + block.size(), 1, stored, index.table_chunks);
  const std::string idx = encode_index(index, stored);
  Footer f;
  f.index_offset = kHeaderSize + block.size() + table.size();
  f.index_size = idx.size();
  f.games = games;
  f.blocks = 1;
  f.index_hash = pgnarc::common::hash64(idx);
  return encode_file_header(0) + block + table + idx + encode_footer(f);
}

std::unique_ptr<pgnarc::Archive> open_bytes(const std::string& bytes, int& fd) {
  fd = memfd_create("fuzz.pga", 0);
  if (fd < 0) return nullptr;
  if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) return nullptr;
  auto a = pgnarc::Archive::open("/proc/self/fd/" + std::to_string(fd));
  return a ? std::move(*a) : nullptr;
}

int close_all(int fd) {
  if (fd >= 0) ::close(fd);
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc::container;
  using pgnarc::common::get_le;
  using pgnarc::common::hash64;
  using pgnarc::common::put_le;
  if (size < kBlockHeaderSize) return 0;
  std::string block(reinterpret_cast<const char*>(data), size);
  const auto games = static_cast<std::uint32_t>(get_le(block.data() + 8, 4));
  if (games == 0 || games > 64) return 0;  // the index's own limits are the archive fuzzer's
  put_le(block, hash64(block), 8);
  const std::string bytes = archive_around(block, games);
  int fd = -1;
  auto a = open_bytes(bytes, fd);
  if (a) {
    // Each game's PGN from a pass in order; together they are what unpack writes.
    std::vector<std::string> in_order;
    const bool whole = a->for_each([&](std::uint64_t, pgnarc::ArchiveGame& g) {
      std::string pgn;
      if (g.raw) pgnarc::write_raw_game(g.raw_text, pgn);
      else if (!pgnarc::write_pgn(g.game, pgn).ok()) __builtin_trap();  // a decoded game is legal
      in_order.push_back(std::move(pgn));
      return true;
    }).ok();
    std::string unpacked;
    const bool exported = a->export_pgn([&](std::string_view t) {
      unpacked += t;
      return true;
    }, 1).ok();
    if (whole != exported) __builtin_trap();  // the two passes in order check the same things
    if (!whole) return close_all(fd);
    std::string joined;
    for (const std::string& g : in_order) joined += g;
    if (joined != unpacked) __builtin_trap();
    for (std::uint32_t j = 0; j < games; ++j) {  // each game read at random, by a fresh reader
      int fd2 = -1;
      if (auto fresh = open_bytes(bytes, fd2)) {
        auto one = fresh->read_pgn(j);
        if (!one || *one != in_order[j]) __builtin_trap();
      }
      close_all(fd2);
    }
  }
  return close_all(fd);
}
