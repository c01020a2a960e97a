// The pieces of a search that the archive's search and its helpers share (query.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pgnarc/query.h"

namespace pgnarc::api {

// `s` with ASCII letters lowered.
std::string lower(std::string_view s);
// Does `value` contain `want_lower` (already lower case), ignoring ASCII case?
bool contains_lower(std::string_view value, std::string_view want_lower);
// `s` (in GB18030 or Big5) with the ASCII letters of its one-byte characters lowered.
std::string lower_chars(std::string_view s, NameEncoding e);
// Does `value` contain `want_lower` (lower_chars'), starting on one of its characters, the case of
// its one-byte characters aside?
bool contains_chars(std::string_view value, std::string_view want_lower, NameEncoding e);

// A name a query asks for (equal, or contained ignoring ASCII case), lowered once per search:
// it is tested against every value of the name tables and, in a scan, every game's tag.
struct NameWant {
  std::string want, want_lower;
  bool exact = false;
  NameEncoding encoding = NameEncoding::kUtf8;
  NameWant(const std::string& w, bool e, NameEncoding enc = NameEncoding::kUtf8)
      : want(w),
        want_lower(e ? std::string() : enc == NameEncoding::kUtf8 ? lower(w) : lower_chars(w, enc)),
        exact(e),
        encoding(enc) {}
  bool operator()(std::string_view value) const {
    if (exact) return value == want;
    return encoding == NameEncoding::kUtf8 ? contains_lower(value, want_lower) : contains_chars(value, want_lower, encoding);
  }
};

// The names of a query, each prepared once.
struct QueryNames {
  std::optional<NameWant> white, black, player, event, site, red;
  explicit QueryNames(const Query& q) {
    const auto make = [&](const std::optional<std::string>& w, std::optional<NameWant>& out) {
      if (w) out.emplace(*w, q.exact_names, q.names_encoding);
    };
    make(q.white, white);
    make(q.black, black);
    make(q.player, player);
    make(q.event, event);
    make(q.site, site);
    make(q.red, red);
  }
};

}  // namespace pgnarc::api
