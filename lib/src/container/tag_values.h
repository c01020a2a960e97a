// The typed forms of tag values (spec 9.4.1): integers, dates, times of day and identifiers,
// each read only from its one canonical spelling, so that a value written back from its number
// is the value read, byte for byte. A value not in its column's form is kept as text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnarc::container {

// How a column of the tags section codes its values (9.4.1).
enum class TagCoding : std::uint8_t {
  kText = 0,        // a value list and references
  kInteger = 1,     // decimal integers, from a prediction
  kRating = 2,      // ratings, from the same player's previous rating
  kDate = 3,        // YYYY.MM.DD with ?? parts, from the previous date
  kTime = 4,        // HH:MM:SS, from the previous time
  kIdentifier = 5,  // a fixed prefix and a base-62 or decimal tail
  kPlayer = 6,      // White and Black: entries of the players' table (9.10)
  kPosition = 7,    // FEN: start positions as symbols of the start-position code (9.4.4)
  kDerived = 8,     // CurrentPosition: the final position, which the moves give (9.4.5), in blocks of layout 3
  kNamed = 9,       // values that begin with the game's White or Black value (9.4.6), in blocks of layout 3
  kCoded = 10,      // a column of coding 1 to 4 whose codes are symbols of a codeword (9.4.7), in blocks of layout 4
  kTable = 11,      // entries of one of the archive's value tables (9.4.8), in blocks of layout 5
  kXiangqiPosition = 12,  // FEN: Xiangqi positions as symbols of the Xiangqi position code (9.4.9), in blocks of layout 6
  kUnescaped = 13,        // text, some of whose values are written without escapes (9.4.10), in blocks of layout 7
};
inline constexpr std::uint8_t kTagCodings = 14;

// The most bytes a block's typed tag values take written out (spec 11).
inline constexpr std::size_t kMaxTypedTagBytes = std::size_t{1} << 28;

// Integers and decimal identifier tails are below 10^18 in magnitude (at most 18 digits).
inline constexpr std::int64_t kTagNumberLimit = 1'000'000'000'000'000'000;

// An integer of the plain form (`0`, `17`, `-3`: no leading zeros, no `-0`) or, with
// `signed_form`, of the signed form (`+0`, `+12`, `-3`: always a sign).
bool parse_tag_integer(std::string_view v, bool signed_form, std::int64_t& out);
void format_tag_integer(std::int64_t v, bool signed_form, std::string& out);

// A date `YYYY.MM.DD` whose year may be `????` and month or day `??`, as the number
// (Y * 13 + M) * 32 + D: Y the year plus 1 (0 for `????`), M the month 1-12 (0 for `??`), D the day
// 1-31 (0 for `??`). Below kTagDateLimit.
inline constexpr std::int64_t kTagDateLimit = 10001 * 13 * 32;
bool parse_tag_date(std::string_view v, std::int64_t& out);
void format_tag_date(std::int64_t v, std::string& out);

// A time `HH:MM:SS` (hours 00-99, minutes and seconds 00-59) as seconds, below kTagTimeLimit.
inline constexpr std::int64_t kTagTimeLimit = 100 * 3600;
bool parse_tag_time(std::string_view v, std::int64_t& out);
void format_tag_time(std::int64_t v, std::string& out);

// An identifier: `prefix` then a tail of exactly `length` base-62 characters (0-9, A-Z, a-z in
// that order of digit values, most significant first), or with `length` 0 a decimal number
// (no leading zeros, at most 18 digits). The prefix is at most kTagPrefixLimit bytes.
inline constexpr std::size_t kTagPrefixLimit = 64;
inline constexpr int kTagIdentifierDigits = 10;  // base-62 tails of 1 to 10 characters
struct IdentifierForm {
  std::string_view prefix;
  int length = 0;
};
// 62^length for a base-62 tail, kTagNumberLimit for a decimal one: the tails' numbers are below it.
std::int64_t identifier_limit(int length);
bool parse_tag_identifier(std::string_view v, const IdentifierForm& form, std::int64_t& out);
void format_tag_identifier(std::int64_t v, const IdentifierForm& form, std::string& out);

// The form of `v` as an identifier, if it ends in ASCII letters and digits: the prefix before
// its last run of at most 10 of them (base-62, `length` the run's size); or, `decimal`, before
// its last run of decimal digits (length 0). False if no such tail or the prefix is too long.
bool identifier_form_of(std::string_view v, bool decimal, IdentifierForm& out);

}  // namespace pgnarc::container
