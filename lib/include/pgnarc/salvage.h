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

// Reads a damaged archive without its index: walks the file for blocks whose checksum holds,
// writes their games as PGN to `sink` in file order (it returns false to stop), and skips what
// does not check out (`skipped` names every damaged region, and why the archive does not open
// when it does not: a file cut short before its first block, say). Fails only on I/O errors.
PGNARC_EXPORT Result<SalvageReport> salvage_pgn(const std::string& path,
                                                const std::function<bool(std::string_view chunk)>& sink);

}  // namespace pgnarc
