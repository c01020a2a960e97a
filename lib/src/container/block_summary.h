// What the block table keeps of each block so that a search can pass it by: the range of its
// games' dates and the results they have (9.11).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"

namespace pgnarc::container {

struct BlockSummary {
  std::uint32_t date_min = 99999999, date_max = 0;  // YYYYMMDD; unknown parts widen the range
  std::uint8_t results = 0;  // bit 0 "1-0", 1 "0-1", 2 "1/2-1/2", 3 "*", 4 other or none

  // Widens the summary by a game with these tags (its first Date and Result tags count).
  void add_game(const std::vector<Tag>& tags);
};

// A date "YYYY.MM.DD" (with ?? or missing parts) as the range of YYYYMMDD values it allows: an
// unknown year allows 0 to 99999999, an unknown month or day 00 to 99.
void date_range(std::string_view date, std::uint32_t& lo, std::uint32_t& hi);
// The summary's result bit of a Result tag (null: none).
std::uint8_t result_bit(const std::string* result_tag);

}  // namespace pgnarc::container
