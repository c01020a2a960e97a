// pgnarc serve's JSON API: /api/info, games, game, tree, share and token, answered from the
// library (the keys of info --json and tree --json where they say the same).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <semaphore>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json_text.h"
#include "common/iconv_text.h"
#include "common/utf8.h"
#include "pgnarc/pgnarc.h"
#include "commands.h"
#include "position.h"
#include "serve.h"

namespace pgnarc::cli {

namespace {

// The archives' text encoding (serve --encoding: iconv's "GB18030" or "BIG5"), empty for UTF-8.
std::string text_encoding;

// `s` as a JSON string of UTF-8 text (JSON is UTF-8): text that is not UTF-8 (older PGN files are
// often Latin-1) is read as Latin-1.
std::string json_string(std::string_view s) { return api::json_string(common::utf8_or_latin1(s)); }

// The same for text of the archives (tags, comments, move texts, PGN): read in their encoding
// where serve was given one.
std::string text_json(std::string_view s) {
  if (!text_encoding.empty()) {
    thread_local common::Iconv to_utf8("UTF-8", text_encoding.c_str());
    if (auto utf8 = to_utf8(s)) return api::json_string(*utf8);
  }
  return json_string(s);
}

}  // namespace

void set_text_encoding(const std::string& iconv_name) { text_encoding = iconv_name; }

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

namespace {
// The open handles an archive keeps for the next requests (each holds a block and caches).
constexpr std::size_t kIdleHandles = 16;
// Position searches: at most two at once, the last 32 positions kept, none of over 2^20 hits.
std::counting_semaphore<2> searches(2);
constexpr std::size_t kSearchesKept = 32, kMaxKeptHits = std::size_t{1} << 20;
}  // namespace

ServedArchive::Lease::~Lease() {
  std::lock_guard lock(owner_.mutex_);
  if (owner_.idle_.size() < kIdleHandles) owner_.idle_.push_back(std::move(archive_));
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

Result<std::shared_ptr<const PositionHits>> ServedArchive::position_hits(const Position& target) {
  return hits_of(target.fen(), [&target](Archive& a) { return a.find_position(target); });
}

Result<std::shared_ptr<const PositionHits>> ServedArchive::xiangqi_hits(const std::string& fen) {
  return hits_of(fen, [&fen](Archive& a) { return a.find_xiangqi_position(fen); });
}

Result<std::shared_ptr<const PositionHits>> ServedArchive::hits_of(
    std::string key, const std::function<Result<PositionHits>(Archive&)>& search) {
  const auto kept = [&]() -> std::shared_ptr<const PositionHits> {
    std::lock_guard lock(mutex_);
    for (const auto& [k, hits] : searched_)
      if (k == key) return hits;
    return nullptr;
  };
  if (auto hits = kept()) return hits;
  searches.acquire();
  struct Release {
    ~Release() { searches.release(); }
  } release;
  if (auto hits = kept()) return hits;  // searched while this request waited
  auto a = lease();
  if (!a) return a.error();
  auto found = search(***a);
  if (!found) return found.error();
  auto hits = std::make_shared<const PositionHits>(std::move(*found));
  std::lock_guard lock(mutex_);
  if (hits->hits.size() <= kMaxKeptHits) {
    if (searched_.size() == kSearchesKept) searched_.erase(searched_.begin());
    searched_.emplace_back(std::move(key), hits);
  }
  return hits;
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
  for (const Tag& t : tags) out += (out.size() > 1 ? ", [" : "[") + text_json(t.key) + ", " + text_json(t.value) + "]";
  return out + "]";
}

std::string joined(const std::vector<Comment>& comments) {
  std::string out;
  for (const Comment& c : comments) out += (out.empty() ? "" : " ") + c.text;
  return out;
}

// A game's moves as a tree (game_tree's nodes, each with the FEN it leads to, as get --fen writes
// it), its main line's node numbers, its rules ("chess" or "xiangqi"), its tags and its PGN (as
// get writes it).
std::string game_json(const Game& g) {
  std::string pgn;
  if (auto st = write_pgn(g, pgn); !st) throw refusal(st.error(), 422);
  const std::vector<GameNode> nodes = value_of(game_tree(g), 422);
  const std::vector<std::string> fens = value_of(node_fens(g, nodes), 422);
  std::string out = "{\"rules\": " + std::string(g.rules == GameRules::kXiangqi ? "\"xiangqi\"" : "\"chess\"") +
                    ", \"tags\": " + tags_json(g.tags) + ", \"result\": " + json_string(result_text(g.result)) +
                    ", \"pgn\": " + text_json(pgn) + ", \"nodes\": [";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const GameNode& node = nodes[i];
    out += i ? ", " : "";
    out += "{\"parent\": " + std::to_string(node.parent) + ", \"ply\": " + std::to_string(node.ply) +
           ", \"san\": " + text_json(node.san) + ", \"uci\": " + json_string(node.uci) +
           ", \"fen\": " + json_string(fens[i]) + ", \"nags\": [";
    for (std::size_t k = 0; k < node.nags.size(); ++k) out += (k ? ", " : "") + std::to_string(node.nags[k]);
    out += "], \"children\": [";
    for (std::size_t k = 0; k < node.variations.size(); ++k)
      out += (k ? ", " : "") + std::to_string(node.variations[k]);
    const MoveNotes& notes = node.notes;
    out += "], \"comment\": " + (notes.comment ? text_json(*notes.comment) : "null") +
           ", \"before\": " + (node.starting_comments.empty() ? "null" : text_json(joined(node.starting_comments))) +
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
  std::string head = "{\"archive\": " + std::to_string(index) + ", \"n\": " + std::to_string(i + 1);
  if (g.raw) {
    std::string pgn;
    write_raw_game(g.raw_text, pgn);
    return {200, head + ", \"verbatim\": true, \"tags\": " + tags_json(value_of((*lease)->read_tags(i))) +
                     ", \"pgn\": " + text_json(pgn) + "}"};
  }
  auto token = share_token(g.game);
  head += ", \"verbatim\": false, \"token\": " + (token ? json_string(*token) : "null") + ", ";
  return {200, head + game_json(g.game).substr(1) + "}"};
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
  return {200, "{\"token\": " + json_string(*t) + ", \"verbatim\": false, " + game_json(g).substr(1) + "}"};
}

// A board as an SVG picture (board_svg.h): the position of fen (a Xiangqi FEN's Xiangqi board,
// else the chess position of the variant), the from and to squares of last (UCI or ICCS) marked,
// flip=1 for Black below, size its width in pixels.
ApiReply board(const Params& params) {
  Args args(params, {"fen", "last", "flip", "size", "variant"});
  const auto fen = args.text("fen");
  if (!fen) throw Refusal{400, "fen (a position) is missing"};
  BoardSvgOptions options;
  options.flip = args.number("flip", 0, 1, 0) == 1;
  options.size = static_cast<int>(args.number("size", 16, 4096, 360));
  const std::string last = args.text("last").value_or("");
  if (is_xiangqi_fen(*fen)) return {200, value_of(xiangqi_board_svg(*fen, last, options)), "image/svg+xml"};
  Variant variant = Variant::kStandard;
  if (auto v = args.text("variant"); v && !variant_of_tag(*v, variant)) throw Refusal{400, "variant: " + unknown_variant(*v)};
  const Position pos = value_of(Position::from_fen(*fen, false, variant));
  if (!last.empty() && last != "0000") {
    const auto square = [&](std::size_t at) -> int {
      if (last.size() < at + 2 || last[at] < 'a' || last[at] > 'h' || last[at + 1] < '1' || last[at + 1] > '8')
        throw Refusal{400, "last: '" + last + "' is not a move in UCI (e2e4)"};
      return (last[at] - 'a') + 8 * (last[at + 1] - '1');
    };
    options.last_move = Move(static_cast<Square>(square(0)), static_cast<Square>(square(2)));
  }
  return {200, board_svg(pos, options), "image/svg+xml"};
}

// The position of the fen, moves and variant parameters (the start position without them).
Position position_arg(const Args& args, Variant& variant) {
  variant = Variant::kStandard;
  if (auto v = args.text("variant"); v && !variant_of_tag(*v, variant)) throw Refusal{400, "variant: " + unknown_variant(*v)};
  return value_of(parse_position_arg(args.text("fen"), args.text("moves").value_or(""), variant, "fen", "moves"));
}

// The FEN of the Xiangqi position of the fen and moves parameters (moves in ICCS), where fen is a
// Xiangqi FEN (ten ranks); none where it is not.
std::optional<std::string> xiangqi_position_arg(const Args& args) {
  const auto fen = args.text("fen");
  if (!fen || !is_xiangqi_fen(*fen)) return std::nullopt;
  if (args.text("variant")) throw Refusal{400, "variant: a Xiangqi position takes none"};
  auto after = xiangqi_fen_after(*fen, args.text("moves").value_or(""));
  if (!after) throw Refusal{400, (after.error().message().starts_with("move ") ? "moves: " : "fen: ") + after.error().message()};
  return *after;
}

ApiReply tree(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {"archive", "fen", "moves", "variant", "limit"});
  ServedArchive& a = *archives[archive_arg(archives, args)];
  const std::size_t limit = args.number("limit", 0, kMaxPage, 0);
  // tree --json's line, with the games kept verbatim, which have no positions to search.
  std::string line;
  std::shared_ptr<const PositionHits> hits;
  if (const auto fen = xiangqi_position_arg(args)) {
    hits = value_of(a.xiangqi_hits(*fen));
    line = position_tree_json(*fen, value_of(xiangqi_position_tree(*fen, *hits)), limit);
  } else {
    Variant variant;
    const Position target = position_arg(args, variant);
    hits = value_of(a.position_hits(target));
    line = position_tree_json(target, position_tree(target, *hits), limit);
  }
  line.pop_back();
  return {200, line + ",\"verbatim_games\":" + std::to_string(hits->verbatim_games) + "}"};
}

// ---- /api/games ---------------------------------------------------------------------------------

// The columns of a row of /api/games: its key, and the tag whose value it gives ("" where missing).
struct Column {
  std::string_view key, tag;
};
constexpr Column kColumns[] = {{"white", "White"}, {"black", "Black"},   {"white_elo", "WhiteElo"},
                               {"black_elo", "BlackElo"}, {"result", "Result"}, {"date", "Date"},
                               {"event", "Event"}, {"site", "Site"},     {"eco", "ECO"}};

// The keys of the columns (and Red, the white column of a Xiangqi game): a list reads only these tags.
const std::vector<std::string>& column_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const Column& c : kColumns) k.emplace_back(c.tag);
    k.emplace_back("Red");
    return k;
  }();
  return keys;
}

// (A Xiangqi game's Red, where it has no White tag, is in the white column, as find --list has it.)
std::string_view column_value(const std::vector<Tag>& tags, const Column& c) {
  const std::string* v = find_tag(tags, c.tag);
  if (!v && std::string_view(c.tag) == "White") v = find_tag(tags, "Red");
  return v ? std::string_view(*v) : std::string_view();
}

Query query_arg(const Args& args) {
  Query q;
  q.white = args.text("white");
  q.black = args.text("black");
  q.player = args.text("player");
  q.event = args.text("event");
  q.site = args.text("site");
  q.red = args.text("red");
  q.exact_names = args.number("exact", 0, 1, 0) == 1;
  // Names typed in UTF-8, looked for in the archives' encoding.
  if (!text_encoding.empty())
    if (const std::string why = query_in_encoding(q, text_encoding, ""); !why.empty()) throw Refusal{400, why};
  if ((q.result = args.text("result")) && *q.result != "1-0" && *q.result != "0-1" && *q.result != "1/2-1/2" &&
      *q.result != "*")
    throw Refusal{400, "result takes 1-0, 0-1, 1/2-1/2 or *, not '" + *q.result + "'"};
  q.eco = args.text("eco");
  q.date_from = args.text("date_from");
  q.date_to = args.text("date_to");
  if (args.text("min_elo")) q.min_elo = static_cast<int>(args.number("min_elo", 0, 9999, 0));
  if (args.text("max_elo")) q.max_elo = static_cast<int>(args.number("max_elo", 0, 9999, 0));
  if (auto who = args.text("elo_of")) {
    if (!elo_of_from_name(*who, q.elo_of))
      throw Refusal{400, "elo_of takes both, either, white or black, not '" + *who + "'"};
    if (!q.min_elo && !q.max_elo)
      throw Refusal{400, "elo_of says whose rating min_elo and max_elo bound: give one of them too"};
  }
  if (const std::string why = query_error(q); !why.empty()) throw Refusal{400, why};
  return q;
}

// The games a request of /api/games matches, ascending (0-based), with the move each played from
// the position where one is given.
struct Matches {
  bool all = false;          // every game of the archive (ids and next left empty)
  bool by_position = false;  // a position was given: next holds the moves
  std::uint64_t total = 0;
  std::vector<std::uint64_t> ids;
  std::vector<std::string> next;
  std::uint64_t verbatim_games = 0;  // not searched for the position
  std::uint64_t id(std::uint64_t k) const { return all ? k : ids[k]; }
};

Matches matches(ServedArchive& a, Archive& archive, const Args& args) {
  Query q = query_arg(args);
  const bool by_position = args.text("fen") || args.text("moves");
  const auto move = args.text("move");
  if (move && !by_position) throw Refusal{400, "move needs a position (fen or moves)"};
  const std::optional<std::string> xiangqi = xiangqi_position_arg(args);
  // A Xiangqi move as ICCS writes it: lower case, no hyphen ("H2-E2" is h2e2).
  std::optional<std::string> move_arg = move;
  if (xiangqi && move) {
    std::string m;
    for (char c : *move)
      if (c != '-') m += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    move_arg = m;
  }
  Variant variant = Variant::kStandard;
  const Position target = xiangqi ? Position() : position_arg(args, variant);
  if (args.text("variant")) q.variant = variant;
  Matches m;
  m.by_position = by_position;
  if (q.empty() && !by_position) {
    m.all = true;
    m.total = a.games();
    return m;
  }
  if (!q.empty()) m.ids = value_of(archive.find(q));
  if (by_position) {
    const auto hits = value_of(xiangqi ? a.xiangqi_hits(*xiangqi) : a.position_hits(target));
    m.verbatim_games = hits->verbatim_games;
    std::vector<std::uint64_t> kept;
    // (A Xiangqi game's move in ICCS: its from- and to-square, file letter and rank digit.)
    const auto iccs = [](int s) { return std::string{static_cast<char>('a' + s % 9), static_cast<char>('0' + s / 9)}; };
    for (const PositionHit& h : hits_among(*hits, q.empty() ? nullptr : &m.ids)) {
      const std::string uci = h.next.is_none() ? ""
                              : xiangqi       ? iccs(h.next.xiangqi_from()) + iccs(h.next.xiangqi_to())
                              : h.next.is_null() ? "0000"
                                                 : target.uci(h.next);
      if (move_arg && uci != *move_arg) continue;
      kept.push_back(h.game);
      m.next.push_back(uci);
    }
    m.ids = std::move(kept);
  }
  m.total = m.ids.size();
  return m;
}

// The page's matches (their places in `m`), `limit` from `offset` in the order asked for: by
// number, or by a column's value (ratings as numbers, a missing one first), ties by number.
std::vector<std::uint64_t> page_order(Archive& archive, const Matches& m, const std::string& sort, bool desc,
                                      std::uint64_t offset, std::uint64_t limit) {
  std::vector<std::uint64_t> page;
  if (sort == "number") {
    for (std::uint64_t k = offset; k < m.total && page.size() < limit; ++k) page.push_back(desc ? m.total - 1 - k : k);
    return page;
  }
  if (m.total > kMaxSorted)
    throw Refusal{400, std::to_string(m.total) + " games match: narrow the search to " + std::to_string(kMaxSorted) +
                           " or fewer to sort them by " + sort};
  const Column& column = *std::find_if(std::begin(kColumns), std::end(kColumns), [&](const Column& c) { return c.key == sort; });
  const bool numeric = sort.ends_with("_elo");
  std::vector<std::pair<std::string, std::uint64_t>> keyed;
  for (std::uint64_t p = 0; p < m.total; ++p) {
    std::string v(column_value(value_of(archive.read_tags(m.id(p), column_keys())), column));
    if (numeric) v = !v.empty() && v.size() <= 6 && v.find_first_not_of("0123456789") == std::string::npos
                         ? std::string(6 - v.size(), '0') + v : "";
    keyed.emplace_back(std::move(v), p);
  }
  std::sort(keyed.begin(), keyed.end(), [desc](const auto& x, const auto& y) {
    return x.first != y.first ? (x.first < y.first) != desc : x.second < y.second;
  });
  for (std::uint64_t p = offset; p < keyed.size() && page.size() < limit; ++p) page.push_back(keyed[p].second);
  return page;
}

ApiReply games(std::vector<std::unique_ptr<ServedArchive>>& archives, const Params& params) {
  Args args(params, {"archive", "white", "black", "player", "event", "site", "exact", "result", "eco", "date_from",
                     "date_to", "min_elo", "max_elo", "elo_of", "variant", "red", "fen", "moves", "move", "offset",
                     "limit", "sort", "order"});
  const std::size_t index = archive_arg(archives, args);
  ServedArchive& a = *archives[index];
  const std::uint64_t offset = args.number("offset", 0, UINT64_MAX, 0);
  const std::uint64_t limit = args.number("limit", 1, kMaxPage, 50);
  const std::string sort = args.text("sort").value_or("number"), order = args.text("order").value_or("asc");
  if (sort != "number" &&
      std::none_of(std::begin(kColumns), std::end(kColumns), [&](const Column& c) { return c.key == sort; })) {
    std::string keys = "number";
    for (const Column& c : kColumns) keys += ", " + std::string(c.key);
    throw Refusal{400, "sort takes " + keys + ", not '" + sort + "'"};
  }
  if (order != "asc" && order != "desc") throw Refusal{400, "order takes asc or desc, not '" + order + "'"};

  auto lease = value_of(a.lease());
  const Matches m = matches(a, **lease, args);
  const std::vector<std::uint64_t> page = page_order(**lease, m, sort, order == "desc", offset, limit);
  std::string out = "{\"archive\": " + std::to_string(index) + ", \"total\": " + std::to_string(m.total) +
                    ", \"offset\": " + std::to_string(offset) + ", \"limit\": " + std::to_string(limit);
  if (m.by_position) out += ", \"verbatim_games\": " + std::to_string(m.verbatim_games);
  out += ", \"games\": [";
  for (std::size_t r = 0; r < page.size(); ++r) {
    const std::uint64_t i = m.id(page[r]);
    const std::vector<Tag> tags = value_of((*lease)->read_tags(i, column_keys()));
    out += (r ? ", " : "") + ("{\"n\": " + std::to_string(i + 1));
    for (const Column& c : kColumns) out += ", \"" + std::string(c.key) + "\": " + text_json(column_value(tags, c));
    if (m.by_position) out += ", \"move\": " + json_string(m.next[page[r]]);
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
    if (endpoint == "board") return board(params);
    return {404, error_body("no API endpoint '" + std::string(endpoint) +
                            "' (there are info, games, game, tree, share, token and board)")};
  } catch (const Refusal& r) {
    return {r.status, error_body(r.message)};
  } catch (const std::exception& e) {
    return {500, error_body(std::string("internal error: ") + e.what())};
  }
}

}  // namespace pgnarc::cli
