// pgnarc serve's JSON API: /api/info, games, game, tree, share and token, answered from the
// library (the keys of info --json and tree --json where they say the same).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json_text.h"
#include "pgnarc/pgnarc.h"
#include "position.h"
#include "serve.h"

namespace pgnarc::cli {

namespace {

// `s` as a JSON string of UTF-8 text: text that is not UTF-8 (older PGN files are often Latin-1)
// is read as Latin-1, each byte the character of its code.
std::string json_string(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n != 0 && i + n <= s.size() && !(n == 2 && c < 0xC2);
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (!ok) {
      std::string latin1;
      for (const char b : s) {
        const auto u = static_cast<unsigned char>(b);
        if (u < 0x80) latin1 += b;
        else latin1 += {static_cast<char>(0xC0 | (u >> 6)), static_cast<char>(0x80 | (u & 0x3F))};
      }
      return api::json_string(latin1);
    }
    i += n;
  }
  return api::json_string(s);
}

}  // namespace

Result<std::unique_ptr<ServedArchive>> ServedArchive::open(const std::string& path) {
  auto a = Archive::open(path);
  if (!a) return a.error();
  std::unique_ptr<ServedArchive> s(new ServedArchive);
  s->path_ = path;
  s->name_ = std::filesystem::path(path).filename().string();
  s->games_ = (*a)->game_count();
  s->idle_.push_back(std::move(*a));
  return s;
}

ServedArchive::Lease::~Lease() {
  std::lock_guard lock(owner_.mutex_);
  owner_.idle_.push_back(std::move(archive_));
}

Result<std::unique_ptr<ServedArchive::Lease>> ServedArchive::lease() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto a = std::move(idle_.back());
      idle_.pop_back();
      return std::make_unique<Lease>(*this, std::move(a));
    }
  }
  auto a = Archive::open(path_);
  if (!a) return a.error();
  return std::make_unique<Lease>(*this, std::move(*a));
}

Result<std::string> ServedArchive::info_json() {
  {
    std::lock_guard lock(mutex_);
    if (!info_.empty()) return info_;
  }
  auto a = lease();
  if (!a) return a.error();
  auto info = (**a)->info();
  if (!info) return info.error();
  std::lock_guard lock(mutex_);
  info_ = archive_info_json(*info);
  return info_;
}

namespace {

// The most games a page of /api/games lists, and the most matches it sorts by a tag.
constexpr std::uint64_t kMaxPage = 500, kMaxSorted = 20000;
// The longest parameter value read (a FEN, a line of moves, a name).
constexpr std::size_t kMaxValue = 1000;

// A request that cannot be answered: its status and message.
struct Refusal {
  int status;
  std::string message;
};

// The request's parameters, each known to the endpoint and given at most once.
class Args {
 public:
  Args(const Params& params, std::initializer_list<std::string_view> known) : params_(params) {
    for (const auto& [name, value] : params) {
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw Refusal{400, "unknown parameter '" + name + "'"};
      if (params.count(name) > 1) throw Refusal{400, "parameter '" + name + "' given more than once"};
      if (value.size() > kMaxValue)
        throw Refusal{400, "parameter '" + name + "' is longer than " + std::to_string(kMaxValue) + " bytes"};
    }
  }
  std::optional<std::string> text(const std::string& name) const {
    auto it = params_.find(name);
    if (it == params_.end() || it->second.empty()) return std::nullopt;
    return it->second;
  }
  // A whole number from lo to hi (digits only), or `fallback` where the parameter is absent.
  std::uint64_t number(const std::string& name, std::uint64_t lo, std::uint64_t hi, std::uint64_t fallback) const {
    auto v = text(name);
    if (!v) return fallback;
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || end != v->data() + v->size() || n < lo || n > hi)
      throw Refusal{400, name + " takes a number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                             ", not '" + *v + "'"};
    return n;
  }

 private:
  const Params& params_;
};

std::string error_body(const std::string& message) { return "{\"error\": " + json_string(message) + "}"; }

// The status of a library error: a damaged or unreadable archive is the server's failure.
Refusal refusal(const Error& e, int status_for_invalid = 400) {
  const bool server = e.code() == ErrorCode::Corruption || e.code() == ErrorCode::IO;
  return {server ? 500 : status_for_invalid, e.message()};
}
template <class T>
T value_of(Result<T> r, int status_for_invalid = 400) {
  if (!r) throw refusal(r.error(), status_for_invalid);
  return std::move(*r);
}

// The archive parameter: an index into the archives served (0, the first, by default).
std::size_t archive_arg(const std::vector<std::unique_ptr<ServedArchive>>& archives, const Args& args) {
  return args.number("archive", 0, archives.size() - 1, 0);
}

// Game `n` (numbered from 1, as get numbers them) of the archive: its 0-based index.
std::uint64_t game_arg(ServedArchive& a, const Args& args) {
  if (!args.text("n")) throw Refusal{400, "n (a game number) is missing"};
  const std::uint64_t n = args.number("n", 1, UINT64_MAX, 0);
  if (n > a.games())
    throw Refusal{404, "no game " + std::to_string(n) + ": " + a.name() + " has " + std::to_string(a.games())};
  return n - 1;
}

std::string number_json(double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string tags_json(const std::vector<Tag>& tags) {
  std::string out = "[";
  for (const Tag& t : tags) out += (out.size() > 1 ? ", [" : "[") + json_string(t.key) + ", " + json_string(t.value) + "]";
  return out + "]";
}

std::string joined(const std::vector<Comment>& comments) {
  std::string out;
  for (const Comment& c : comments) out += (out.empty() ? "" : " ") + c.text;
  return out;
}

// A game's moves as a tree (game_tree's nodes, each with the FEN it leads to, as get --fen writes
// it), its main line's node numbers, its tags and its PGN.
std::string game_json(const Game& g, const std::string& pgn) {
  const std::vector<GameNode> nodes = value_of(game_tree(g), 422);
  std::vector<Position> at(nodes.size());
  at[0] = value_of(start_position(g), 422);
  std::string out = "{\"tags\": " + tags_json(g.tags) + ", \"result\": " + json_string(result_text(g.result)) +
                    ", \"pgn\": " + json_string(pgn) + ", \"nodes\": [";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const GameNode& node = nodes[i];
    std::string fen;
    if (i == 0) {
      fen = value_of(fen_after(g, 0), 422);
    } else {
      at[i] = at[static_cast<std::size_t>(node.parent)];
      Square ep = kNoSquare;
      if (node.move.is_null()) {
        at[i].play_null();
      } else {
        ep = double_step_square(at[i], node.move);
        at[i].play(node.move);
      }
      fen = at[i].fen(ep);
    }
    out += i ? ", " : "";
    out += "{\"parent\": " + std::to_string(node.parent) + ", \"ply\": " + std::to_string(node.ply) +
           ", \"san\": " + json_string(node.san) + ", \"uci\": " + json_string(node.uci) +
           ", \"fen\": " + json_string(fen) + ", \"nags\": [";
    for (std::size_t k = 0; k < node.nags.size(); ++k) out += (k ? ", " : "") + std::to_string(node.nags[k]);
    out += "], \"children\": [";
    for (std::size_t k = 0; k < node.variations.size(); ++k)
      out += (k ? ", " : "") + std::to_string(node.variations[k]);
    const MoveNotes& notes = node.notes;
    out += "], \"comment\": " + (notes.comment ? json_string(*notes.comment) : "null") +
           ", \"before\": " + (node.starting_comments.empty() ? "null" : json_string(joined(node.starting_comments))) +
           ", \"clock\": " + (notes.clock ? number_json(*notes.clock) : "null") +
           ", \"eval\": " + (notes.eval ? number_json(*notes.eval) : "null") +
           ", \"mate\": " + (notes.mate ? std::to_string(*notes.mate) : "null") + "}";
  }
  out += "], \"mainline\": [0";
  for (std::size_t i = 0; !nodes[i].variations.empty();) {
    i = static_cast<std::size_t>(nodes[i].variations[0]);
    out += ", " + std::to_string(i);
  }
  return out + "]";
}

ApiReply info(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {});
  std::string out = "{\"archives\": [";
  for (std::size_t i = 0; i < archives.size(); ++i) {
    const std::string line = value_of(archives[i]->info_json());
    out += (i ? ", " : "") + ("{\"archive\": " + std::to_string(i) + ", \"name\": " + json_string(archives[i]->name()) +
                              ", " + line.substr(1));
  }
  return {200, out + "]}"};
}

ApiReply game(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {"archive", "n"});
  const std::size_t index = archive_arg(archives, args);
  ServedArchive& a = *archives[index];
  const std::uint64_t i = game_arg(a, args);
  auto lease = value_of(a.lease());
  ArchiveGame g = value_of((*lease)->read_game(i));
  const std::string pgn = value_of((*lease)->read_pgn(i));
  std::string head = "{\"archive\": " + std::to_string(index) + ", \"n\": " + std::to_string(i + 1);
  if (g.raw)
    return {200, head + ", \"verbatim\": true, \"tags\": " + tags_json(value_of((*lease)->read_tags(i))) +
                     ", \"pgn\": " + json_string(pgn) + "}"};
  auto token = share_token(g.game);
  head += ", \"verbatim\": false, \"token\": " + (token ? json_string(*token) : "null") + ", ";
  return {200, head + game_json(g.game, pgn).substr(1) + "}"};
}

ApiReply share(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {"archive", "n"});
  ServedArchive& a = *archives[archive_arg(archives, args)];
  const std::uint64_t i = game_arg(a, args);
  auto lease = value_of(a.lease());
  ArchiveGame g = value_of((*lease)->read_game(i));
  if (g.raw) throw Refusal{422, "game " + std::to_string(i + 1) + " is kept verbatim: it has no share token"};
  const std::string token = value_of(share_token(g.game), 422);
  return {200, "{\"token\": " + json_string(token) + ", \"url\": " + json_string("/s/" + token) + "}"};
}

ApiReply token(const Params& params) {
  Args args(params, {"t"});
  auto t = args.text("t");
  if (!t) throw Refusal{400, "t (a share token) is missing"};
  const Game g = value_of(open_share_token(*t));
  std::string pgn;
  if (auto st = write_pgn(g, pgn); !st) throw refusal(st.error(), 422);
  return {200, "{\"token\": " + json_string(*t) + ", \"verbatim\": false, " + game_json(g, pgn).substr(1) + "}"};
}

// The position of the fen, moves and variant parameters (the start position without them).
Position position_arg(const Args& args, Variant& variant) {
  variant = Variant::kStandard;
  if (auto v = args.text("variant"); v && !variant_from_name(*v, variant) && !variant_of_tag(*v, variant))
    throw Refusal{400, "variant: unknown rules '" + *v + "'"};
  return value_of(parse_position_arg(args.text("fen"), args.text("moves").value_or(""), variant, "fen", "moves"));
}

ApiReply tree(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {"archive", "fen", "moves", "variant", "limit"});
  ServedArchive& a = *archives[archive_arg(archives, args)];
  Variant variant;
  const Position target = position_arg(args, variant);
  const std::size_t limit = args.number("limit", 0, kMaxPage, 0);
  auto lease = value_of(a.lease());
  const PositionHits hits = value_of((*lease)->find_position(target));
  return {200, position_tree_json(target, position_tree(target, hits), limit)};
}

// ---- /api/games ---------------------------------------------------------------------------------

constexpr std::string_view kRowTags[] = {"White", "Black", "WhiteElo", "BlackElo", "Result", "Date", "Event", "Site", "ECO"};
constexpr std::string_view kRowKeys[] = {"white", "black", "white_elo", "black_elo", "result", "date", "event", "site", "eco"};

Query query_arg(const Args& args) {
  Query q;
  q.white = args.text("white");
  q.black = args.text("black");
  q.player = args.text("player");
  q.event = args.text("event");
  q.site = args.text("site");
  q.exact_names = args.number("exact", 0, 1, 0) == 1;
  if ((q.result = args.text("result")) && *q.result != "1-0" && *q.result != "0-1" && *q.result != "1/2-1/2" &&
      *q.result != "*")
    throw Refusal{400, "result takes 1-0, 0-1, 1/2-1/2 or *, not '" + *q.result + "'"};
  q.eco = args.text("eco");
  q.date_from = args.text("date_from");
  q.date_to = args.text("date_to");
  for (const char* bound : {"min_elo", "max_elo"})
    if (args.text(bound)) (bound[1] == 'i' ? q.min_elo : q.max_elo) = static_cast<int>(args.number(bound, 0, 9999, 0));
  if (auto who = args.text("elo_of"); who && !elo_of_from_name(*who, q.elo_of))
    throw Refusal{400, "elo_of takes both, either, white or black, not '" + *who + "'"};
  if (const std::string why = query_error(q); !why.empty()) throw Refusal{400, why};
  return q;
}

// The value of row tag `k` in `tags` ("" where missing).
std::string_view row_value(const std::vector<Tag>& tags, std::size_t k) {
  const std::string* v = find_tag(tags, kRowTags[k]);
  return v ? std::string_view(*v) : std::string_view();
}

ApiReply games(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {"archive", "white", "black", "player", "event", "site", "exact", "result", "eco", "date_from",
                     "date_to", "min_elo", "max_elo", "elo_of", "variant", "fen", "moves", "move", "offset", "limit",
                     "sort", "order"});
  const std::size_t index = archive_arg(archives, args);
  ServedArchive& a = *archives[index];
  Query q = query_arg(args);
  const std::uint64_t offset = args.number("offset", 0, UINT64_MAX, 0);
  const std::uint64_t limit = args.number("limit", 1, kMaxPage, 50);
  const std::string sort = args.text("sort").value_or("number"), order = args.text("order").value_or("asc");
  const auto key = std::find(std::begin(kRowKeys), std::end(kRowKeys), sort);
  if (sort != "number" && key == std::end(kRowKeys))
    throw Refusal{400, "sort takes number, white, black, white_elo, black_elo, result, date, event, site or eco, not '" +
                           sort + "'"};
  if (order != "asc" && order != "desc") throw Refusal{400, "order takes asc or desc, not '" + order + "'"};
  const bool by_position = args.text("fen") || args.text("moves");
  const auto move = args.text("move");
  if (move && !by_position) throw Refusal{400, "move needs a position (fen or moves)"};
  Variant variant;
  const Position target = position_arg(args, variant);
  if (args.text("variant")) q.variant = variant;

  auto lease = value_of(a.lease());
  Archive& archive = **lease;
  // The matches, ascending (with the move each played from the position where one is given).
  std::vector<std::uint64_t> ids;
  std::vector<std::string> next;
  std::uint64_t total = a.games();
  const bool all = q.empty() && !by_position;
  if (!all) {
    if (!q.empty()) ids = value_of(archive.find(q));
    if (by_position) {
      const PositionHits hits = value_of(archive.find_position(target));
      std::vector<std::uint64_t> kept;
      for (const PositionHit& h : hits.hits) {
        if (!q.empty() && !std::binary_search(ids.begin(), ids.end(), h.game)) continue;
        const std::string uci = h.next.is_none() ? "" : h.next.is_null() ? "0000" : target.uci(h.next);
        if (move && uci != *move) continue;
        kept.push_back(h.game);
        next.push_back(uci);
      }
      ids = std::move(kept);
    }
    total = ids.size();
  }
  // The page's positions among the matches, in the order asked for.
  std::vector<std::uint64_t> page;
  if (sort == "number") {
    for (std::uint64_t k = offset; k < total && page.size() < limit; ++k) page.push_back(order == "asc" ? k : total - 1 - k);
  } else {
    if (total > kMaxSorted)
      throw Refusal{400, std::to_string(total) + " games match: narrow the search to " + std::to_string(kMaxSorted) +
                             " or fewer to sort them by " + sort};
    const std::size_t k = static_cast<std::size_t>(key - std::begin(kRowKeys));
    const bool numeric = sort == "white_elo" || sort == "black_elo";
    std::vector<std::pair<std::string, std::uint64_t>> keyed;
    for (std::uint64_t p = 0; p < total; ++p) {
      std::string v(row_value(value_of(archive.read_tags(all ? p : ids[p])), k));
      // Ratings compare as numbers: zero-padded, a missing one first.
      if (numeric) v = v.find_first_not_of("0123456789") == std::string::npos && !v.empty() && v.size() <= 6
                           ? std::string(6 - v.size(), '0') + v : "";
      keyed.emplace_back(std::move(v), p);
    }
    std::stable_sort(keyed.begin(), keyed.end());
    if (order == "desc") std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (std::uint64_t p = offset; p < keyed.size() && page.size() < limit; ++p) page.push_back(keyed[p].second);
  }
  std::string out = "{\"archive\": " + std::to_string(index) + ", \"total\": " + std::to_string(total) + ", \"offset\": " + std::to_string(offset) +
                    ", \"limit\": " + std::to_string(limit) + ", \"games\": [";
  for (std::size_t r = 0; r < page.size(); ++r) {
    const std::uint64_t i = all ? page[r] : ids[page[r]];
    const std::vector<Tag> tags = value_of(archive.read_tags(i));
    out += (r ? ", " : "") + ("{\"n\": " + std::to_string(i + 1));
    for (std::size_t k = 0; k < std::size(kRowKeys); ++k)
      out += ", \"" + std::string(kRowKeys[k]) + "\": " + json_string(row_value(tags, k));
    if (by_position) out += ", \"move\": " + json_string(next[page[r]]);
    out += "}";
  }
  return {200, out + "]}"};
}

}  // namespace

ApiReply api_request(std::vector<std::unique_ptr<ServedArchive>>& archives, std::string_view endpoint,
                     const Params& params) {
  try {
    if (endpoint == "info") return info(archives, params);
    if (endpoint == "games") return games(archives, params);
    if (endpoint == "game") return game(archives, params);
    if (endpoint == "tree") return tree(archives, params);
    if (endpoint == "share") return share(archives, params);
    if (endpoint == "token") return token(params);
    return {404, error_body("no API endpoint '" + std::string(endpoint) +
                            "' (there are info, games, game, tree, share and token)")};
  } catch (const Refusal& r) {
    return {r.status, error_body(r.message)};
  } catch (const std::exception& e) {
    return {500, error_body(std::string("internal error: ") + e.what())};
  }
}

}  // namespace pgnarc::cli
