// Fuzz target: opening, verifying, reading and searching an archive of arbitrary bytes. Damage
// must be an error, never a crash, a hang or a huge allocation.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "pgnarc/pgnarc.h"
#include "scan_oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = memfd_create("fuzz.pga", 0);
  if (fd < 0) return 0;
  if (::write(fd, data, size) != static_cast<ssize_t>(size)) {
    ::close(fd);
    return 0;
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (auto a = pgnarc::Archive::open(path)) {
    (void)(*a)->info();
    (void)(*a)->verify();
    for (std::uint64_t i = 0; i < (*a)->game_count() && i < 64; ++i) (void)(*a)->read_pgn(i);
    pgnarc::Query q;
    q.player = "a";
    q.date_from = "1900";
    auto fast = (*a)->find(q);
    auto slow = pgnarc::test::find_by_scan(**a, q);
    if (fast && slow && *fast != *slow) __builtin_trap();
  }
  ::close(fd);
  return 0;
}
