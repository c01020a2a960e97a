// Archive::find: the blocks a query can match, from the name chunks and the block summaries,
// then their games' tags.
#include <algorithm>
#include <charconv>
#include <optional>

#include "api/archive_impl.h"
#include "api/query_match.h"
#include "container/block_summary.h"
#include "container/derived_tags.h"
#include "container/format.h"
#include "pgnarc/query.h"

namespace pgnarc {

using namespace container;

namespace api {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  return out;
}

// Does `value` contain `want_lower` (already lower case), ignoring ASCII case? Without copying
// `value`: the name tables' values are tested by the hundred thousand.
bool contains_lower(std::string_view value, std::string_view want_lower) {
  const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  return std::search(value.begin(), value.end(), want_lower.begin(), want_lower.end(),
                     [&](char a, char b) { return fold(a) == b; }) != value.end();
}

namespace {

// The length of the character at `at` of `s`: GB18030's are 1 (below 0x80), 4 (a lead byte, then a
// digit 0x30-0x39) or 2 bytes, Big5's 1 or 2.
std::size_t char_length(std::string_view s, std::size_t at, NameEncoding e) {
  const auto b = static_cast<unsigned char>(s[at]);
  if (b < 0x80) return 1;
  if (e == NameEncoding::kGb18030 && at + 1 < s.size() && s[at + 1] >= '0' && s[at + 1] <= '9') return 4;
  return 2;
}

}  // namespace

std::string lower_chars(std::string_view s, NameEncoding e) {
  std::string out(s);
  for (std::size_t i = 0; i < out.size(); i += char_length(out, i, e))
    if (out[i] >= 'A' && out[i] <= 'Z') out[i] = static_cast<char>(out[i] + 32);
  return out;
}

bool contains_chars(std::string_view value, std::string_view want_lower, NameEncoding e) {
  for (std::size_t start = 0; start + want_lower.size() <= value.size(); start += char_length(value, start, e)) {
    std::size_t at = start, k = 0;
    while (k < want_lower.size()) {
      const std::size_t n = char_length(value, at, e);
      if (n == 1 ? (value[at] >= 'A' && value[at] <= 'Z' ? static_cast<char>(value[at] + 32) : value[at]) != want_lower[k]
                 : at + n > value.size() || value.substr(at, n) != want_lower.substr(k, n))
        break;
      at += n;
      k += n;
    }
    if (k == want_lower.size()) return true;
  }
  return false;
}

}  // namespace api

namespace {

using api::contains_lower;
using api::lower;
using api::NameWant;
using api::QueryNames;

// The tags of one game, as views into a decoded block.
struct TagSpan {
  const TagView* begin_;
  const TagView* end_;
  const TagView* begin() const { return begin_; }
  const TagView* end() const { return end_; }
};

std::optional<std::string_view> find_tag(TagSpan tags, std::string_view key) {
  for (const TagView& t : tags)
    if (t.key == key) return t.value;
  return std::nullopt;
}

// Is `d` "YYYY", "YYYY.MM" or "YYYY.MM.DD" (month 01-12, day 01-31; "-" or "/" may stand for
// ".")?
bool well_formed_date(std::string_view d) {
  if (d.size() != 4 && d.size() != 7 && d.size() != 10) return false;
  const auto separator = [](char c) { return c == '.' || c == '-' || c == '/'; };
  for (std::size_t i = 0; i < d.size(); ++i)
    if (i == 4 || i == 7 ? !separator(d[i]) : d[i] < '0' || d[i] > '9') return false;
  const auto two = [&](std::size_t at) { return (d[at] - '0') * 10 + (d[at + 1] - '0'); };
  return (d.size() < 7 || (two(5) >= 1 && two(5) <= 12)) && (d.size() < 10 || (two(8) >= 1 && two(8) <= 31));
}

// A query date "YYYY[.MM[.DD]]" as the first (lo) or last (hi) YYYYMMDD value it covers.
std::uint32_t query_date(const std::string& d, bool hi) {
  std::uint32_t lo_v, hi_v;
  date_range(d, lo_v, hi_v);
  return hi ? hi_v : lo_v;
}

// A rating tag's value as a decimal integer (digits only, within int), or nullopt: missing,
// empty, "?" and anything else lie in no rating range.
std::optional<int> rating(std::optional<std::string_view> value) {
  if (!value || value->empty() || (*value)[0] < '0' || (*value)[0] > '9') return std::nullopt;
  int v = 0;
  const char* end = value->data() + value->size();
  const auto [at, ec] = std::from_chars(value->data(), end, v);
  if (ec != std::errc() || at != end) return std::nullopt;
  return v;
}

// Does the game's rating (or ratings) named by q.elo_of lie in [q.min_elo, q.max_elo]?
bool ratings_match(TagSpan tags, const Query& q) {
  const auto in_range = [&](const char* key) {
    const auto r = rating(find_tag(tags, key));
    return r && (!q.min_elo || *r >= *q.min_elo) && (!q.max_elo || *r <= *q.max_elo);
  };
  switch (q.elo_of) {
    case EloOf::kBoth: return in_range("WhiteElo") && in_range("BlackElo");
    case EloOf::kEither: return in_range("WhiteElo") || in_range("BlackElo");
    case EloOf::kWhite: return in_range("WhiteElo");
    case EloOf::kBlack: return in_range("BlackElo");
  }
  return false;  // (query_error refuses any other value)
}

// `player_red`: q.player may be the Red tag's name (player_may_be_red).
bool game_matches(TagSpan tags, const Query& q, const QueryNames& names, bool player_red) {
  auto has_name = [&](const char* key, const NameWant& want) {
    const auto v = find_tag(tags, key);
    return v && want(*v);
  };
  if (names.white && !has_name("White", *names.white)) return false;
  if (names.black && !has_name("Black", *names.black)) return false;
  if (names.player && !has_name("White", *names.player) && !has_name("Black", *names.player) &&
      !(player_red && has_name("Red", *names.player)))
    return false;
  if (names.event && !has_name("Event", *names.event)) return false;
  if (names.site && !has_name("Site", *names.site)) return false;
  if (names.red && !has_name("Red", *names.red)) return false;
  if (q.result) {
    const auto r = find_tag(tags, "Result");
    if (!r || *r != *q.result) return false;
  }
  if (q.eco) {
    std::optional<std::string_view> e;
    for (const TagView& t : tags)
      if (lower(t.key) == "eco") {
        e = t.value;
        break;
      }
    // A prefix, in either case ("b9" finds B90).
    if (!e || e->size() < q.eco->size() || lower(e->substr(0, q.eco->size())) != lower(*q.eco)) return false;
  }
  if (q.date_from || q.date_to) {
    const auto d = find_tag(tags, "Date");
    std::uint32_t lo = 0, hi = 99999999;
    if (d) date_range(*d, lo, hi);
    if (!d || lo == 0) return false;  // an unknown date matches no date range
    if (q.date_from && lo < query_date(*q.date_from, false)) return false;
    if (q.date_to && lo > query_date(*q.date_to, true)) return false;
  }
  if ((q.min_elo || q.max_elo) && !ratings_match(tags, q)) return false;
  for (const auto& [k, v] : q.tags) {
    bool found = false;
    for (const TagView& t : tags) found |= t.key == k && t.value == v;
    if (!found) return false;
  }
  // (A game without a Variant tag is under the rules it was packed with: search() asks its record.)
  if (q.variant)
    if (const auto v = find_tag(tags, "Variant")) {
      Variant named;
      if (!variant_of_tag(*v, named) || named != *q.variant) return false;
    }
  return true;
}

}  // namespace

namespace {
constexpr const char* kEloOfNames[] = {"both", "either", "white", "black"};  // in EloOf's order
}  // namespace

const char* elo_of_name(EloOf e) {
  return e <= EloOf::kBlack ? kEloOfNames[static_cast<int>(e)] : "?";
}

bool elo_of_from_name(std::string_view name, EloOf& out) {
  for (int k = 0; k < 4; ++k)
    if (name == kEloOfNames[k]) {
      out = static_cast<EloOf>(k);
      return true;
    }
  return false;
}

std::string query_error(const Query& q) {
  for (const auto& [name, date] : {std::pair{"date-from", &q.date_from}, std::pair{"date-to", &q.date_to}})
    if (*date && !well_formed_date(**date))
      return std::string(name) + " '" + **date + "' is not YYYY, YYYY.MM or YYYY.MM.DD";
  for (const auto& [name, elo] : {std::pair{"min-elo", &q.min_elo}, std::pair{"max-elo", &q.max_elo}})
    if (*elo && **elo < 0)
      return std::string(name) + " " + std::to_string(**elo) + " is negative: a rating is 0 or more";
  if (q.min_elo && q.max_elo && *q.min_elo > *q.max_elo)
    return "min-elo " + std::to_string(*q.min_elo) + " is above max-elo " + std::to_string(*q.max_elo) +
           ": no rating lies between them";
  if (q.elo_of > EloOf::kBlack)
    return "elo-of " + std::to_string(static_cast<int>(q.elo_of)) + " is not both, either, white or black";
  return {};
}

Status Archive::Impl::for_names(int field, const std::string& want, bool exact, const NameVisitor& visit) {
  const auto& chunks = file->index().name_chunks[field];
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    // An exact name is in the one chunk whose range holds it, but in the players' table, which
    // is not sorted: every chunk is read.
    if (exact && sorted_name_field(field) &&
        (want < chunks[k].first || (k + 1 < chunks.size() && !(want < chunks[k + 1].first))))
      continue;
    if (auto st = visit_chunk(field, k, visit); !st) return st;
  }
  return {};
}

namespace {
const std::optional<NameWant> kNoName;

// Whether a player searched for in `f` is also the Red tag's: in an archive that can hold coded
// Xiangqi games (read version 1.7 or later).
bool player_may_be_red(const ArchiveFile& f) { return f.read_version().minor >= kXiangqiCodecMinor; }
}  // namespace

Result<std::vector<bool>> Archive::Impl::candidates(const Query& q, const api::QueryNames& names) {
  ArchiveFile& f = *file;
  std::vector<bool> ok(f.blocks(), true);
  auto restrict_names = [&](int field, const NameWant& want) -> Status {
    std::vector<bool> hit(f.blocks(), false);
    auto st = for_names(field, want.want, want.exact, [&](std::string_view value, const std::vector<std::uint32_t>& blocks) {
      if (want(value))
        for (std::uint32_t b : blocks) hit[b] = true;
    });
    if (!st) return st;
    for (std::size_t b = 0; b < ok.size(); ++b) ok[b] = ok[b] && hit[b];
    return {};
  };
  // White and Black share the players' table: a block where the player played the other colour
  // is a candidate too, and its games are then read. A player is also Red of a Xiangqi game, whose
  // name no table holds: in an archive that may hold Xiangqi games (read version 1.7 or later),
  // every block stays a candidate for it.
  const bool may_hold_red = player_may_be_red(f);
  const std::pair<const std::optional<NameWant>*, int> name_fields[] = {
      {&names.white, kPlayerField}, {&names.black, kPlayerField},
      {may_hold_red ? &kNoName : &names.player, kPlayerField}, {&names.event, kEventField}};
  for (const auto& [want, field] : name_fields)
    if (*want)
      if (auto st = restrict_names(field, **want); !st) return st.error();
  // Web addresses are not in the Site table (indexed_name): a Site search that could match one,
  // by substring or for an address, leaves every block a candidate.
  if (names.site && names.site->exact && indexed_name(kSiteField, names.site->want))
    if (auto st = restrict_names(kSiteField, *names.site); !st) return st.error();
  // Only the table chunks of blocks the names leave are read: an exact name search of a large
  // archive reads a few. (The summaries hold no ratings: a rating bound is tested on the games of
  // every block left.)
  for (std::uint32_t b = 0; b < ok.size(); ++b) {
    if (!ok[b]) continue;
    if (auto st = f.need_chunk(f.chunk_of(b)); !st) return st.error();
    const BlockSummary& summary = f.entry(b).summary;
    if (q.result && !(summary.results & result_bit(&*q.result))) ok[b] = false;
    if (q.date_from && summary.date_max < query_date(*q.date_from, false)) ok[b] = false;
    if (q.date_to && summary.date_min > query_date(*q.date_to, true)) ok[b] = false;
  }
  return ok;
}

Result<std::vector<std::uint64_t>> Archive::Impl::search(const Query& q) {
  if (const std::string why = query_error(q); !why.empty()) return invalid_input(why);
  std::vector<std::uint64_t> out;
  const QueryNames names(q);
  auto c = candidates(q, names);
  if (!c) return c.error();
  const std::vector<bool> ok = std::move(*c);
  const bool player_red = player_may_be_red(*file);
  DecodedBlock tags_only;
  std::string bytes;
  tags_only.dictionaries = &file->dictionaries();
  tags_only.players = file->players();
  for (std::uint32_t b = 0; b < file->blocks(); ++b) {
    if (!ok[b]) continue;
    const DecodedBlock* db;
    if (cached == b && tags_decoded) {  // a block read for one game has only that game's tags
      db = &block;
    } else {
      if (auto st = file->read_block(b, bytes); !st) return st.error();
      if (auto st = decode_block(bytes, file->where(b), tags_only, BlockParts::kTagsOnly); !st) return st.error();
      if (tags_only.games != file->entry(b).games) return corruption(file->where(b) + ": game count differs from the index");
      db = &tags_only;
    }
    // The games decoded in turn, from the whole block, where their tags do not say enough: the
    // rules of a game without a Variant tag (standard chess, but in a block of the variants
    // codec, whose records say), the values of derived tags (9.4.5) that the query reads.
    DecodedBlock whole;
    std::string whole_bytes;
    std::optional<codec::CodecCursor> records;
    std::uint32_t next_record = 0;
    ArchiveGame decoded;
    const auto decode = [&](std::uint32_t j) -> Status {
      if (!records) {
        if (auto st = file->read_block(b, whole_bytes); !st) return st;
        whole.dictionaries = &file->dictionaries();
        whole.players = file->players();
        if (auto st = decode_block(whole_bytes, file->where(b), whole); !st) return st;
        records = whole.cursor();
      }
      for (;; ++next_record) {
        const std::string at = file->where(b) + ": game " + std::to_string(file->entry(b).first_game + next_record + 1);
        auto d = codec::decode_game(*records, whole.tags.game(next_record));
        if (!d) return corruption(at + ": " + d.error().message());
        if (auto st = fill_derived_tags(whole.tags, next_record, *d, at); !st) return st;
        if (auto st = check_group_end(whole, next_record, *records, file->where(b)); !st) return st;
        if (next_record == j) {
          ++next_record;
          decoded = std::move(*d);
          return {};
        }
      }
    };
    const bool reads_derived = std::any_of(q.tags.begin(), q.tags.end(), [](const auto& kv) { return kv.first == kDerivedKey; });
    std::vector<TagView> views;
    for (std::uint32_t j = 0; j < db->games; ++j) {
      TagSpan span{db->tags.views.data() + db->tags.start[j], db->tags.views.data() + db->tags.start[j + 1]};
      const bool derives = reads_derived && db->tags.derives(j);
      if (derives) {
        if (auto st = decode(j); !st) return st.error();
        if (!decoded.raw) {  // (a verbatim game's tags are its readable tag pairs, the block's)
          views.clear();
          for (const Tag& t : decoded.game.tags) views.push_back(TagView{t.key, t.value});
          span = TagSpan{views.data(), views.data() + views.size()};
        }
      }
      if (!game_matches(span, q, names, player_red)) continue;
      if (q.variant && !find_tag(span, "Variant")) {
        Variant v = Variant::kStandard;
        if (db->variants) {
          if (!derives)
            if (auto st = decode(j); !st) return st.error();
          v = decoded.raw ? Variant::kStandard : decoded.game.variant;
        }
        if (v != *q.variant) continue;
      }
      out.push_back(file->entry(b).first_game + j);
    }
  }
  return out;
}

}  // namespace pgnarc
