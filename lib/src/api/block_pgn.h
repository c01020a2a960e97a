// One block's games as PGN: the unit of work of an export, a verify and a salvage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codec/codec.h"
#include "container/block_reader.h"
#include "container/tag_dictionary.h"
#include "container/tags_section.h"
#include "pgnarc/archive.h"
#include "pgnarc/status.h"

namespace pgnarc::api {

// What a reader checks of a block whose every game it decodes, besides each game itself: that
// their plies add up to the directory's count (9.3.1) and that its position filter, if any, is
// one and holds every key of their main lines (9.3.3).
class BlockGameChecks {
 public:
  BlockGameChecks(const container::DecodedBlock& block, const std::string& where) : block_(block), where_(where) {}
  BlockGameChecks(const BlockGameChecks&) = delete;
  BlockGameChecks& operator=(const BlockGameChecks&) = delete;
  // After each game of the block, in order.
  void game(const ArchiveGame& d);
  // After the last.
  Status finish() const;

 private:
  const container::DecodedBlock& block_;
  const std::string& where_;
  std::uint64_t plies_ = 0;
  std::vector<std::uint64_t> keys_;
};

// Decodes the whole block `bytes` (every check made: checksum, the game count the index gives,
// every game, the directory, leftover bytes) and writes its games as PGN into `out` (cleared
// first; passing a used buffer saves reallocating). `first_game` (0-based) numbers the games in
// errors; `where` prefixes them. `players`: the archive's players' table (DecodedBlock).
Result<std::string> block_pgn(std::string_view bytes, const container::Where& where, std::uint32_t expected_games,
                              std::uint64_t first_game, const container::ReaderDictionaries* dictionaries,
                              const container::PlayerNames* players, std::string out = {});
// The same block's games, decoded with the same checks.
Result<std::vector<ArchiveGame>> block_games(std::string_view bytes, const container::Where& where,
                                             std::uint32_t expected_games, std::uint64_t first_game,
                                             const container::ReaderDictionaries* dictionaries,
                                             const container::PlayerNames* players);

}  // namespace pgnarc::api
