// One block's games as PGN: the unit of work of an export, a verify and a salvage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "container/tag_dictionary.h"
#include "container/tags_section.h"
#include "pgnarc/status.h"

namespace pgnarc {

// Decodes the whole block `bytes` (every check made: checksum, the game count the index gives,
// every game, the directory, leftover bytes) and writes its games as PGN into `out` (cleared
// first; passing a used buffer saves reallocating). `first_game` (0-based) numbers the games in
// errors; `where` prefixes them. `players`: the archive's players' table (DecodedBlock).
Result<std::string> block_pgn(std::string_view bytes, const std::string& where, std::uint32_t expected_games,
                              std::uint64_t first_game, const container::ReaderDictionaries* dictionaries,
                              const container::PlayerNames* players, std::string out = {});

}  // namespace pgnarc
