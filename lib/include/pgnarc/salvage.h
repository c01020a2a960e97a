// Reading what is left of a damaged archive.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/export.h"
#include "pgnarc/status.h"

namespace pgnarc {

// What salvage_pgn recovered and what it had to skip.
struct PGNARC_EXPORT SalvageReport {
  std::uint64_t games = 0;           // games written
  std::uint64_t blocks = 0;          // sound blocks found
  std::vector<std::string> skipped;  // damaged regions, with offsets
};

struct PGNARC_EXPORT SalvageOptions {
  // Told, as the file is read, how many bytes of `total` salvage has read: it reads the file
  // twice (the elements blocks depend on, then the blocks), so `total` is twice its size.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

// Reads a damaged archive without its index: walks the file for blocks whose checksum holds,
// writes their games as PGN to `sink` in file order (it returns false to stop), and skips what
// does not check out (`skipped` names every damaged region, and why the archive does not open
// when it does not: a file cut short before its first block, say). Fails only on I/O errors.
// Memory: a window of the file (16 MiB) and the block being decoded, whatever the file's size;
// the holes of a sparse file are skipped, not read.
PGNARC_EXPORT Result<SalvageReport> salvage_pgn(const std::string& path,
                                                const std::function<bool(std::string_view chunk)>& sink);
PGNARC_EXPORT Result<SalvageReport> salvage_pgn(const std::string& path,
                                                const std::function<bool(std::string_view chunk)>& sink,
                                                const SalvageOptions& options);

}  // namespace pgnarc
