// What Archive::find looks for.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pgnarc/chess.h"
#include "pgnarc/export.h"

namespace pgnarc {

// Every given field must match. Names (white, black, player, event, site) match as
// case-insensitive substrings; `exact_names` makes them exact (case-sensitive).
struct PGNARC_EXPORT Query {
  std::optional<std::string> white, black, player, event, site;
  bool exact_names = false;
  std::optional<std::string> result;              // "1-0", "0-1", "1/2-1/2", "*"
  std::optional<std::string> eco;                 // prefix, in either case: "B", "b9" or "B90"
  std::optional<std::string> date_from, date_to;  // "YYYY", "YYYY.MM" or "YYYY.MM.DD" (see query_error)
  std::vector<std::pair<std::string, std::string>> tags;  // exact key = value, all of them
  // The rules the game is played under: named by its Variant tag (variant_of_tag), or, without
  // one, as it was packed (pack --variant); kStandard is standard chess and Chess960.
  std::optional<Variant> variant;

  // Whether no field is given (every game matches).
  bool empty() const {
    return !white && !black && !player && !event && !site && !result && !eco && !date_from && !date_to &&
           tags.empty() && !variant;
  }
};

// Why find() would refuse `q` (a date that is not YYYY, YYYY.MM or YYYY.MM.DD with a month
// 01-12 and a day 01-31; "-" or "/" may stand for "."), or "" if it is well formed.
PGNARC_EXPORT std::string query_error(const Query& q);

}  // namespace pgnarc
