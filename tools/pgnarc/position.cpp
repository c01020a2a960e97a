// tree, and the position arguments that find and tree share.
#include "position.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include "commands.h"
#include "common/iconv_text.h"
#include "console.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::cli {

Result<Position> parse_position_arg(const std::optional<std::string>& fen, const std::string& moves,
                                    Variant variant, const char* fen_name, const char* moves_name) {
  Position pos = Position::start(variant);
  if (fen) {
    auto p = Position::from_fen(*fen, false, variant);
    if (!p) return invalid_input(std::string(fen_name) + ": " + p.error().message());
    pos = *p;
  }
  auto after = play_san_line(pos, moves);
  if (!after) return invalid_input(std::string(moves_name) + ": " + after.error().message());
  return after;
}

Result<PositionHits> search_position(Archive& archive, const Position& target, unsigned threads) {
  Progress progress("searching", archive.game_count());
  const auto start = std::chrono::steady_clock::now();
  auto hits = archive.find_position(target, threads, [&](std::uint64_t games) { progress.update(games); });
  if (!hits) return hits;
  progress.finish();
  // The hint only where it would have saved a wait.
  const bool slow = std::chrono::steady_clock::now() - start > std::chrono::seconds(1);
  if (!hits->blocks_filtered && archive.block_count() > 1 && slow && !quiet())
    std::fprintf(stderr,
                 "pgnarc: every block was decoded (pack --position-filter lets a search for a position past the "
                 "opening skip blocks)\n");
  if (hits->blocks_filtered && !quiet())
    std::fprintf(stderr, "pgnarc: %llu of %llu blocks skipped by their position filters\n",
                 static_cast<unsigned long long>(hits->blocks_skipped),
                 static_cast<unsigned long long>(archive.block_count()));
  if (hits->verbatim_games && !quiet())
    std::fprintf(stderr, "pgnarc: %llu games kept verbatim in the blocks decoded were not searched (they have no positions)\n",
                 static_cast<unsigned long long>(hits->verbatim_games));
  return hits;
}

std::string query_in_encoding(Query& q, const std::string& encoding, const std::string& prefix) {
  const auto convert = [&](std::string& text, const std::string& field) {
    std::optional<std::string> out = common::iconv_to(encoding.c_str(), text);
    if (!out) return prefix + field + " '" + text + "' is not UTF-8 text that " + encoding + " can write";
    text = std::move(*out);
    return std::string();
  };
  const std::pair<std::optional<std::string>*, const char*> names[] = {
      {&q.white, "white"}, {&q.black, "black"}, {&q.player, "player"},
      {&q.event, "event"}, {&q.site, "site"},   {&q.red, "red"}};
  for (const auto& [name, field] : names)
    if (*name)
      if (std::string why = convert(**name, field); !why.empty()) return why;
  for (auto& [key, value] : q.tags)
    if (std::string why = convert(value, "tag " + key); !why.empty()) return why;
  q.names_encoding = encoding == "GB18030" ? NameEncoding::kGb18030 : NameEncoding::kBig5;
  return {};
}

bool is_xiangqi_fen(const std::string& fen) {
  const std::string placement = fen.substr(0, fen.find(' '));
  return std::count(placement.begin(), placement.end(), '/') == 9;
}

Result<PositionHits> search_xiangqi_position(Archive& archive, const std::string& fen, unsigned threads) {
  Progress progress("searching", archive.game_count());
  auto hits = archive.find_xiangqi_position(fen, threads, [&](std::uint64_t games) { progress.update(games); });
  if (!hits) return hits;
  progress.finish();
  if (hits->verbatim_games && !quiet())
    std::fprintf(stderr, "pgnarc: %llu games kept verbatim in the blocks decoded were not searched (they have no positions)\n",
                 static_cast<unsigned long long>(hits->verbatim_games));
  return hits;
}

std::vector<PositionHit> hits_among(const PositionHits& hits, const std::vector<std::uint64_t>* matches) {
  if (!matches) return hits.hits;
  std::vector<PositionHit> kept;
  auto m = matches->begin();
  for (const PositionHit& h : hits.hits) {
    m = std::lower_bound(m, matches->end(), h.game);
    if (m != matches->end() && *m == h.game) kept.push_back(h);
  }
  return kept;
}

namespace {

struct TreeArgs {
  std::string archive, moves;
  std::optional<std::string> position;  // (given empty: an error, not the start)
  Variant variant = Variant::kStandard;
  bool json = false;
  std::size_t limit = 0;
  unsigned threads = 0;
};

// Per cent of `part` in `whole`, to one place, as text ("45.2").
std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  const std::uint64_t tenths = (part * 2000 + whole) / (2 * whole);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

// The tree of the position `fen` as a table; `first` names the first player ("white", or "red"
// for Xiangqi).
std::string tree_text(const std::string& fen, const PositionTree& tree, std::size_t limit, const char* first) {
  std::string out = "position: " + fen + "\n";
  appendf(out, "games: %llu (%s wins %s%%, draws %s%%, black wins %s%%)\n",
          static_cast<unsigned long long>(tree.games), first, percent(tree.white, tree.games).c_str(),
          percent(tree.draws, tree.games).c_str(), percent(tree.black, tree.games).c_str());
  if (tree.moves.empty()) return out;
  appendf(out, "%-8s %-6s %9s %6s %7s %7s %7s %7s\n", "move", first[0] == 'r' ? "iccs" : "uci", "games", "%",
          (std::string(first) + "%").c_str(), "draw%", "black%", "avg elo");
  for (std::size_t k = 0; k < tree.moves.size() && (limit == 0 || k < limit); ++k) {
    const TreeMove& m = tree.moves[k];
    const std::int64_t elo = m.average_elo();
    appendf(out, "%-8s %-6s %9llu %6s %7s %7s %7s %7s\n", m.san.c_str(), m.uci.c_str(),
            static_cast<unsigned long long>(m.games), percent(m.games, tree.games).c_str(),
            percent(m.white, m.games).c_str(), percent(m.draws, m.games).c_str(), percent(m.black, m.games).c_str(),
            elo < 0 ? "-" : std::to_string(elo).c_str());
  }
  return out;
}

// The tree of the position `fen` as `tree` prints it: --json's object, or the table.
int print_tree(const std::string& fen, const PositionTree& t, const TreeArgs& a, const char* first) {
  Output out;
  out.write(a.json ? position_tree_json(fen, t, a.limit) + "\n" : tree_text(fen, t, a.limit, first));
  if (auto st = out.close(); !st) return report(st.error());
  return kOk;
}

// The tree of a Xiangqi position (after --moves in ICCS): the Xiangqi games' moves there, in WXF
// and ICCS.
int xiangqi_tree(const TreeArgs& a) {
  if (a.variant != Variant::kStandard) return report(invalid_input("--variant names chess variants, not Xiangqi"));
  std::string fen = *a.position;
  if (!a.moves.empty()) {
    auto after = xiangqi_fen_after(fen, a.moves);
    if (!after) return report(invalid_input("--moves: " + after.error().message()));
    fen = std::move(*after);
  }
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  auto hits = search_xiangqi_position(**archive, fen, a.threads);
  if (!hits) return report_archive_error(hits.error(), a.archive);
  auto t = xiangqi_position_tree(fen, *hits);
  if (!t) return report(t.error());
  return print_tree(fen, *t, a, "red");
}

int tree(const TreeArgs& a) {
  if (a.position && is_xiangqi_fen(*a.position)) return xiangqi_tree(a);
  auto target = parse_position_arg(a.position, a.moves, a.variant);
  if (!target) return report(target.error());
  auto archive = open_archive(a.archive);
  if (!archive) return report_archive_error(archive.error(), a.archive);
  auto hits = search_position(**archive, *target, a.threads);
  if (!hits) return report_archive_error(hits.error(), a.archive);
  return print_tree(target->fen(), position_tree(*target, *hits), a, "white");
}

}  // namespace

Run declare_tree(CLI::App& cmd) {
  auto a = std::make_shared<TreeArgs>();
  cmd.footer(
      "Prints the moves played from a position in the games whose main line reaches it (each game "
      "counted once, where it first reaches it), most played first: their games, the share of the "
      "position's games, how they ended, and the average rating of the player making the move. "
      "The position is FEN (default: the start of the variant, standard chess unless --variant names "
      "another) after --moves; only games under the same rules reach it. A Xiangqi FEN gives the tree "
      "of the Xiangqi games, each move in WXF and ICCS, Red's wins counted as white's (--json keys).");
  cmd.add_option("ARCHIVE", a->archive, "the archive to search (- for standard input)")->required();
  cmd.add_option("--position", a->position,
                 "the position (pieces, side to move, castling rights, and the en passant square "
                 "where a capture there is legal; move counters aside)")
      ->type_name("FEN");
  cmd.add_option("--moves", a->moves,
                 "moves in SAN played from the position, e.g. \"e4 e5 Nf3\" (in ICCS from a Xiangqi "
                 "position: \"h2e2 h9g7\")")
      ->type_name("SAN");
  cmd.add_option_function<std::string>(
         "--variant", [a](const std::string& v) { a->variant = variant_option(v); },
         "the rules the position is played under: standard (with Chess960, the default), crazyhouse, atomic, "
         "antichess, three-check, king-of-the-hill, racing-kings or horde; the position's FEN and moves "
         "are read under them (crazyhouse's pockets as [QNp])")
      ->type_name("NAME");
  cmd.add_flag("--json", a->json,
               "one JSON object: {\"position\": FEN, \"games\": n, \"white\": w, \"draws\": d, \"black\": b, "
               "\"moves\": [{\"san\", \"uci\", \"games\", \"white\", \"draws\", \"black\", \"avg_elo\"}]} "
               "(avg_elo null where no game gives a rating)");
  add_number(cmd, "--limit", a->limit, 0, 1000000, "at most N moves (0: all)");
  add_threads(cmd, a->threads, "decode blocks");
  return [a] { return tree(*a); };
}

}  // namespace pgnarc::cli
