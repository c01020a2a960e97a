// What Archive::find looks for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pgnarc/chess.h"
#include "pgnarc/export.h"

namespace pgnarc {

// The encoding of the names a Query asks for, and of the archive's tags they are compared with.
// In UTF-8 (the default) a name is contained in a value wherever its bytes are, ASCII case aside.
// GB18030 (GBK, GB2312) and Big5, the encodings of Chinese PGN files, have characters of two
// bytes whose second byte may be an ASCII letter: a name is contained only where it starts on a
// character of the value, and only the one-byte characters' case is set aside.
enum class NameEncoding : std::uint8_t { kUtf8, kGb18030, kBig5 };

// Whose rating a Query's min_elo and max_elo bound: the rating is the WhiteElo or BlackElo tag's
// value as a decimal integer (digits only); a missing, empty, "?" or other non-numeric rating lies
// in no range, so a game with one never matches where that rating is asked for.
enum class EloOf : std::uint8_t {
  kBoth,    // White's and Black's ratings both lie in the range (the default)
  kEither,  // White's or Black's rating (or both) lies in it
  kWhite,   // WhiteElo lies in it
  kBlack,   // BlackElo lies in it
};
// "both", "either", "white" or "black" (as find --elo-of names them).
PGNARC_EXPORT const char* elo_of_name(EloOf e);
// The EloOf that `name` names (elo_of_name's); false for any other name.
PGNARC_EXPORT bool elo_of_from_name(std::string_view name, EloOf& out);

// Every given field must match. Names (white, black, player, event, site, red) match as
// case-insensitive substrings; `exact_names` makes them exact (case-sensitive). `player` is the
// White or Black tag's name, and the Red tag's too in an archive of read version 1.7 or later
// (which can hold coded Xiangqi games; no table holds Red, so every block's tags are read).
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
  // The rating lies in [min_elo, max_elo] (either bound may be left out; both are 0 or more);
  // whose rating is `elo_of`'s, which alone restricts nothing.
  std::optional<int> min_elo, max_elo;
  EloOf elo_of = EloOf::kBoth;
  // The Red tag's name (Xiangqi's first player, whose opponent is the Black tag's): no index holds
  // it, so every block's tags are read.
  std::optional<std::string> red;
  // How the names above are compared when not exact (NameEncoding).
  NameEncoding names_encoding = NameEncoding::kUtf8;

  // Whether no field is given (every game matches).
  bool empty() const {
    return !white && !black && !player && !event && !site && !result && !eco && !date_from && !date_to &&
           tags.empty() && !variant && !min_elo && !max_elo && !red;
  }
};

// Why find() would refuse `q` (a date that is not YYYY, YYYY.MM or YYYY.MM.DD with a month
// 01-12 and a day 01-31, "-" or "/" standing for "." allowed; a negative min_elo or max_elo, or a
// min_elo above max_elo; an elo_of that is none of EloOf's values), or "" if it is well formed.
PGNARC_EXPORT std::string query_error(const Query& q);

}  // namespace pgnarc
