// The reference for Archive::find: every game's tags read one by one through the public API and
// matched by a plain reading of the Query's documented meaning, with no index, block summary
// or name table involved.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/archive.h"

namespace pgnarc::test {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// YYYYMMDD of the first (`last` false) or last day a "YYYY.MM.DD" date covers; a part that is
// not all digits ("??", missing) covers its whole range; an unknown year gives nullopt.
inline std::optional<std::uint32_t> oracle_day(std::string_view d, bool last) {
  const auto digits = [&](std::size_t at, std::size_t n) -> std::optional<std::uint32_t> {
    if (at + n > d.size()) return std::nullopt;
    std::uint32_t v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (d[i] < '0' || d[i] > '9') return std::nullopt;
      v = v * 10 + static_cast<std::uint32_t>(d[i] - '0');
    }
    return v;
  };
  const auto year = digits(0, 4);
  if (!year) return std::nullopt;
  const auto month = digits(5, 2);
  const auto day = month ? digits(8, 2) : std::nullopt;
  return (*year * 100 + (month ? *month : last ? 99 : 0)) * 100 + (day ? *day : last ? 99 : 0);
}

inline bool oracle_matches(const std::vector<Tag>& tags, const Query& q) {
  const auto value = [&](std::string_view key) -> std::optional<std::string> {
    for (const Tag& t : tags)
      if (t.key == key) return t.value;
    return std::nullopt;
  };
  const auto name_is = [&](std::string_view key, const std::optional<std::string>& want) {
    const auto v = value(key);
    if (!v) return false;
    return q.exact_names ? *v == *want : ascii_lower(*v).find(ascii_lower(*want)) != std::string::npos;
  };
  if (q.white && !name_is("White", q.white)) return false;
  if (q.black && !name_is("Black", q.black)) return false;
  if (q.player && !name_is("White", q.player) && !name_is("Black", q.player)) return false;
  if (q.event && !name_is("Event", q.event)) return false;
  if (q.site && !name_is("Site", q.site)) return false;
  if (q.result && value("Result") != q.result) return false;
  if (q.eco) {
    std::optional<std::string> eco;
    for (const Tag& t : tags)
      if (!eco && ascii_lower(t.key) == "eco") eco = t.value;
    if (!eco || ascii_lower(*eco).rfind(ascii_lower(*q.eco), 0) != 0) return false;
  }
  if (q.date_from || q.date_to) {
    const auto date = value("Date");
    const auto first = date ? oracle_day(*date, false) : std::nullopt;
    if (!first || *first == 0) return false;
    if (q.date_from && *first < *oracle_day(*q.date_from, false)) return false;
    if (q.date_to && *first > *oracle_day(*q.date_to, true)) return false;
  }
  if (q.min_elo || q.max_elo) {
    // A rating is all digits (and fits an int); anything else is no rating.
    const auto rated_in_range = [&](std::string_view key) {
      const auto v = value(key);
      if (!v || v->empty()) return false;
      long long r = 0;
      for (char c : *v) {
        if (c < '0' || c > '9') return false;
        r = r * 10 + (c - '0');
        if (r > INT_MAX) return false;
      }
      return (!q.min_elo || r >= *q.min_elo) && (!q.max_elo || r <= *q.max_elo);
    };
    const bool white = rated_in_range("WhiteElo"), black = rated_in_range("BlackElo");
    const bool ok = q.elo_of == EloOf::kBoth     ? white && black
                    : q.elo_of == EloOf::kEither ? white || black
                    : q.elo_of == EloOf::kWhite  ? white
                                                 : black;
    if (!ok) return false;
  }
  return std::all_of(q.tags.begin(), q.tags.end(), [&](const auto& kv) {
    return std::any_of(tags.begin(), tags.end(), [&](const Tag& t) { return t.key == kv.first && t.value == kv.second; });
  });
}

// The games (0-based, ascending) of `a` matching `q`, found by reading every game's tags.
inline Result<std::vector<std::uint64_t>> find_by_scan(Archive& a, const Query& q) {
  if (const std::string why = query_error(q); !why.empty()) return invalid_input(why);
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < a.game_count(); ++i) {
    auto tags = a.read_tags(i);
    if (!tags) return tags.error();
    if (oracle_matches(*tags, q)) out.push_back(i);
  }
  return out;
}

}  // namespace pgnarc::test
