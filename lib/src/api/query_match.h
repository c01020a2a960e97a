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

// A name a query asks for (equal, or contained ignoring ASCII case), lowered once per search:
// it is tested against every value of the name tables and, in a scan, every game's tag.
struct NameWant {
  std::string want, want_lower;
  bool exact = false;
  NameWant(const std::string& w, bool e) : want(w), want_lower(e ? std::string() : lower(w)), exact(e) {}
  bool operator()(std::string_view value) const { return exact ? value == want : contains_lower(value, want_lower); }
};

// The names of a query, each prepared once.
struct QueryNames {
  std::optional<NameWant> white, black, player, event, site, red;
  explicit QueryNames(const Query& q) {
    const auto make = [&](const std::optional<std::string>& w, std::optional<NameWant>& out) {
      if (w) out.emplace(*w, q.exact_names);
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
