// Archive::find_position, find_xiangqi_position and the trees of their hits: every block's games
// decoded on worker threads, each main line walked and compared with the position looked for.
#include <algorithm>
#include <bit>
#include <charconv>
#include <optional>

#include "api/archive_impl.h"
#include "api/block_pgn.h"
#include "api/block_scan.h"
#include "api/json_text.h"
#include "container/derived_tags.h"
#include "container/position_filter.h"
#include "rules/move_words.h"
#include "rules/xiangqi_game.h"
#include "rules/xiangqi_notation.h"

namespace pgnarc {

using namespace container;

namespace {

// A rating tag's value as a number from 1 to 9999, or 0.
std::uint16_t rating(const std::string* value) {
  if (!value || value->empty() || value->size() > 4) return 0;
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), v);
  return ec == std::errc() && end == value->data() + value->size() ? static_cast<std::uint16_t>(v) : 0;
}

// The Result tag's result where it is one, else the termination marker's.
GameResult result_of(const std::vector<Tag>& tags, GameResult marker) {
  if (const std::string* r = find_tag(tags, "Result")) {
    for (GameResult x : {GameResult::kWhiteWins, GameResult::kBlackWins, GameResult::kDraw, GameResult::kUnknown})
      if (*r == result_text(x)) return x;
  }
  return marker;
}

PositionHit hit_of(const std::vector<Tag>& tags, GameResult marker, const Position& at, Move next, std::uint64_t index) {
  return PositionHit{index, next, result_of(tags, marker),
                     rating(find_tag(tags, at.side_to_move() == kWhite ? "WhiteElo" : "BlackElo"))};
}

// Whether a line at `p` can still reach `t`: what never comes back (may_still_reach), and a
// side's pawns, which never grow in number (but by crazyhouse's drops).
bool may_reach(const Position& p, const Position& t) {
  if (p.variant() != Variant::kCrazyhouse)
    for (Color c : {kWhite, kBlack})
      if (std::popcount(p.pieces(c, kPawn)) < std::popcount(t.pieces(c, kPawn))) return false;
  return may_still_reach(p, t);
}

// Where the main line of `g` (from `start`) first reaches `target`, as a hit of game `index`.
std::optional<PositionHit> first_reach(const Game& g, Position pos, const Position& target, std::uint64_t index) {
  const auto hit = [&](Move next) { return hit_of(g.tags, g.result, pos, next, index); };
  bool here = same_position(pos, target);
  int depth = 0;
  for (const GameEvent& e : g.events) {
    if (e.type == GameEvent::kBeginVariation) ++depth;
    else if (e.type == GameEvent::kEndVariation) --depth;
    if (depth != 0 || (e.type != GameEvent::kMove && e.type != GameEvent::kNullMove)) continue;
    const Move m = e.type == GameEvent::kMove ? e.move : Move::null();
    if (here) return hit(m);
    if (m.is_null()) pos.play_null();
    else pos.play(m);
    here = same_position(pos, target);
  }
  if (here) return hit(Move::none());
  return std::nullopt;
}

// The games of a block of one game a directory group whose main lines reach `target`: each
// game read from its own start, its main line only as far as it can still reach the position.
Result<PositionHits> scan_games(const DecodedBlock& block, const Position& target, std::uint64_t first_game,
                                const std::string& where) {
  PositionHits found;
  for (std::uint32_t j = 0; j < block.games; ++j) {
    const std::vector<Tag> tags = block.tags.game(j);
    std::optional<PositionHit> hit;
    const auto visit = [&](const Position& pos, Move next) {
      if (same_position(pos, target)) {
        hit = hit_of(tags, GameResult::kNone, pos, next, first_game + j);  // (its result below)
        return false;
      }
      return !next.is_none() && may_reach(pos, target);
    };
    bool raw = false;
    GameResult marker = GameResult::kNone;
    if (auto st = codec::scan_main_line(group_cursor(block, j, true), tags, visit, raw, marker); !st)
      return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + st.error().message());
    found.verbatim_games += raw;
    if (hit) {
      hit->result = result_of(tags, marker);
      found.hits.push_back(*hit);
    }
  }
  return found;
}

// The same, every game of the block decoded in turn, with the checks of a full decode.
Result<PositionHits> decode_games(const DecodedBlock& block, const Position& target, std::uint64_t first_game,
                                  const std::string& where) {
  PositionHits found;
  api::BlockGameChecks checks(block, where);
  codec::CodecCursor c = block.cursor();
  for (std::uint32_t j = 0; j < block.games; ++j) {
    auto d = codec::decode_game(c, block.tags.game(j));
    if (!d) return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + d.error().message());
    if (auto st = fill_derived_tags(block.tags, j, *d, where + ": game " + std::to_string(first_game + j + 1)); !st)
      return st.error();
    if (auto st = check_group_end(block, j, c, where); !st) return st.error();
    checks.game(*d);
    if (d->raw) {
      ++found.verbatim_games;
      continue;
    }
    if (d->game.rules != GameRules::kChess) continue;  // a Xiangqi game holds no chess position
    auto start = start_position(d->game);  // (the game decoded: its tags give one)
    if (!start) return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + start.error().message());
    if (auto hit = first_reach(d->game, *start, target, first_game + j)) found.hits.push_back(*hit);
  }
  if (!all_consumed(c)) return corruption(where + ": bytes left over after its last game");
  if (auto st = checks.finish(); !st) return st.error();
  return found;
}

// The Xiangqi games of a block whose main lines reach `target` (placement and side to move).
Result<PositionHits> xiangqi_games(const DecodedBlock& block, const rules::xiangqi::Position& target,
                                   std::uint64_t first_game, const std::string& where) {
  namespace xq = rules::xiangqi;
  PositionHits found;
  api::BlockGameChecks checks(block, where);
  codec::CodecCursor c = block.cursor();
  for (std::uint32_t j = 0; j < block.games; ++j) {
    const std::string game = where + ": game " + std::to_string(first_game + j + 1);
    auto d = codec::decode_game(c, block.tags.game(j));
    if (!d) return corruption(game + ": " + d.error().message());
    if (auto st = fill_derived_tags(block.tags, j, *d, game); !st) return st.error();
    if (auto st = check_group_end(block, j, c, where); !st) return st.error();
    checks.game(*d);
    found.verbatim_games += d->raw;
    if (d->raw || d->game.rules != GameRules::kXiangqi) continue;
    auto start = xq::start_position(d->game.tags);
    if (!start) return corruption(game + ": " + start.error().message());
    xq::Position pos = *start;
    const std::vector<Tag>& tags = d->game.tags;
    const auto hit = [&](Move next) {
      return PositionHit{first_game + j, next, result_of(tags, d->game.result),
                         rating(find_tag(tags, pos.side_to_move() == xq::kRed ? "RedElo" : "BlackElo"))};
    };
    std::optional<PositionHit> first = pos.same_placement(target) ? std::optional(hit(Move::none())) : std::nullopt;
    int depth = 0;
    for (const GameEvent& e : d->game.events) {
      if (e.type == GameEvent::kBeginVariation) ++depth;
      else if (e.type == GameEvent::kEndVariation) --depth;
      if (depth != 0 || e.type != GameEvent::kMove) continue;
      if (first) {
        first->next = e.move;
        break;
      }
      pos.play(xq::move_of(e.move));
      if (pos.same_placement(target)) first = hit(Move::none());
    }
    if (first) found.hits.push_back(*first);
  }
  if (!all_consumed(c)) return corruption(where + ": bytes left over after its last game");
  if (auto st = checks.finish(); !st) return st.error();
  return found;
}

// Every block of `f` searched by `work` on `threads` threads, the hits joined in order of the
// games; `progress` (optional) gets the games searched.
template <class Work>
Result<PositionHits> search_blocks(ArchiveFile& f, unsigned threads, Work&& work,
                                   const std::function<void(std::uint64_t)>& progress) {
  PositionHits out;
  std::uint64_t games_done = 0;
  const auto deliver = [&](std::uint32_t b, PositionHits&& found) -> Result<bool> {
    out.hits.insert(out.hits.end(), found.hits.begin(), found.hits.end());
    out.verbatim_games += found.verbatim_games;
    out.blocks_skipped += found.blocks_skipped;
    out.blocks_filtered += found.blocks_filtered;
    games_done += f.entry(b).games;
    if (progress) progress(games_done);
    return true;
  };
  if (auto st = api::scan_blocks<PositionHits>(f, api::all_blocks(f), threads, work, deliver); !st)
    return st.error();
  return out;
}

}  // namespace

Result<PositionHits> Archive::find_xiangqi_position(std::string_view fen, unsigned threads,
                                                    const std::function<void(std::uint64_t)>& progress) {
  auto parsed = rules::xiangqi::Position::from_fen(fen);
  if (!parsed) return parsed.error();
  const rules::xiangqi::Position target = *parsed;
  ArchiveFile& f = *impl_->file;
  if (auto st = f.need_all(); !st) return st.error();
  const auto work = [&f, &target](std::uint32_t b, std::string_view bytes) -> Result<PositionHits> {
    DecodedBlock block;
    block.dictionaries = &f.dictionaries();
    block.players = f.players();
    const container::Where where = f.where(b);
    const BlockEntry& e = f.entry(b);
    // A block of a codec without Xiangqi games holds none: its header alone is read.
    BlockSizes sizes;
    if (auto st = read_block_sizes(bytes, where, sizes); !st) return st.error();
    if (!sizes.xiangqi) return PositionHits{};
    if (auto st = decode_block(bytes, where, block); !st) return st.error();
    if (block.games != e.games) return corruption(where + ": game count differs from the index");
    return xiangqi_games(block, target, e.first_game, where);
  };
  return search_blocks(f, threads, work, progress);
}

Result<PositionHits> Archive::find_position(const Position& target, unsigned threads,
                                            const std::function<void(std::uint64_t)>& progress) {
  ArchiveFile& f = *impl_->file;
  if (auto st = f.need_all(); !st) return st.error();
  const std::uint64_t key = filter_key(target);
  const bool filterable = container::progress(target) >= kFilterMinProgress;
  const auto work = [&f, &target, key, filterable](std::uint32_t b, std::string_view bytes) -> Result<PositionHits> {
    DecodedBlock block;
    block.dictionaries = &f.dictionaries();
    block.players = f.players();
    const container::Where where = f.where(b);
    const BlockEntry& e = f.entry(b);
    // A block whose position filter lacks the position's key holds no game that reaches it: its
    // directory alone is read first, where a filter can tell.
    if (filterable) {
      if (auto st = decode_block(bytes, where, block, BlockParts::kDirectory); !st) return st.error();
      if (block.games != e.games) return corruption(where + ": game count differs from the index");
      if (!block.directory.filter.empty()) {
        bool bad = false;
        const bool holds = filter_holds(block.directory.filter, {key}, bad);
        if (bad) return corruption(where + ": game directory: the position filter is not one");
        if (!holds) return PositionHits{{}, 0, 1, 1};
      }
    }
    if (auto st = decode_block(bytes, where, block); !st) return st.error();
    if (block.games != e.games) return corruption(where + ": game count differs from the index");
    const bool filtered = !block.directory.filter.empty();
    Result<PositionHits> found = block.directory.step == 1 ? scan_games(block, target, e.first_game, where)
                                                           : decode_games(block, target, e.first_game, where);
    if (found) found->blocks_filtered = filtered;
    return found;
  };
  return search_blocks(f, threads, work, progress);
}

namespace {

// The tree of a search's hits, each next move named by name(move) as {san, uci}, ties sorted by
// order(move) (its place among the legal moves).
template <class Name, class Order>
PositionTree tree_of(const PositionHits& hits, Name&& name, Order&& order) {
  PositionTree tree;
  tree.verbatim_games = hits.verbatim_games;
  std::vector<TreeMove> moves;
  const auto count = [](GameResult r, std::uint64_t& white, std::uint64_t& draws, std::uint64_t& black) {
    white += r == GameResult::kWhiteWins;
    draws += r == GameResult::kDraw;
    black += r == GameResult::kBlackWins;
  };
  for (const PositionHit& h : hits.hits) {
    ++tree.games;
    count(h.result, tree.white, tree.draws, tree.black);
    if (h.next.is_none()) continue;
    auto it = std::find_if(moves.begin(), moves.end(), [&](const TreeMove& m) { return m.move == h.next; });
    if (it == moves.end()) {
      TreeMove m;
      m.move = h.next;
      std::tie(m.san, m.uci) = name(h.next);
      it = moves.insert(moves.end(), std::move(m));
    }
    ++it->games;
    count(h.result, it->white, it->draws, it->black);
    if (h.elo) {
      it->elo_sum += h.elo;
      ++it->elo_games;
    }
  }
  // Most games first; a tie in the order of legal moves.
  std::sort(moves.begin(), moves.end(), [&](const TreeMove& a, const TreeMove& b) {
    return a.games != b.games ? a.games > b.games : order(a.move) < order(b.move);
  });
  tree.moves = std::move(moves);
  return tree;
}

}  // namespace

PositionTree position_tree(const Position& target, const PositionHits& hits) {
  return tree_of(
      hits,
      [&](Move m) {
        return m.is_null() ? std::pair<std::string, std::string>("--", "0000") : std::pair(target.san(m), target.uci(m));
      },
      [&](Move m) { return m.is_null() ? kMaxLegalMoves : target.move_index(m); });  // a null move last
}

Result<PositionTree> xiangqi_position_tree(std::string_view fen, const PositionHits& hits) {
  namespace rx = rules::xiangqi;
  auto parsed = rx::Position::from_fen(fen);
  if (!parsed) return parsed.error();
  const rx::Position& target = *parsed;
  return tree_of(
      hits,
      [&](Move m) {
        const rx::Move x = rx::move_of(m);
        return std::pair(rx::write_move(target, x, rx::Notation::kWxf, rx::NotationStyle{}), rx::to_iccs(x));
      },
      [](Move m) { return rx::move_of(m); });
}

Result<std::string> xiangqi_fen_after(std::string_view fen, std::string_view moves) {
  namespace rx = rules::xiangqi;
  auto pos = rx::Position::from_fen(fen);
  if (!pos) return pos.error();
  int ply = 0;
  for (std::string_view word; rules::next_move_word(moves, word);) {
    auto m = rx::parse_legal_iccs(*pos, word);
    if (!m) return invalid_input("move " + std::to_string(ply + 1) + " '" + std::string(word) + "': " + m.error().message());
    pos->play(*m);
    ++ply;
  }
  return pos->fen();
}

namespace {

using api::json_string;

std::string counts_json(std::uint64_t games, std::uint64_t white, std::uint64_t draws, std::uint64_t black) {
  return "\"games\":" + std::to_string(games) + ",\"white\":" + std::to_string(white) + ",\"draws\":" +
         std::to_string(draws) + ",\"black\":" + std::to_string(black);
}

}  // namespace

std::string position_tree_json(const Position& target, const PositionTree& tree, std::size_t limit) {
  return position_tree_json(target.fen(), tree, limit);
}

std::string position_tree_json(std::string_view fen, const PositionTree& tree, std::size_t limit) {
  std::string out = "{\"position\":" + json_string(fen) + "," +
                    counts_json(tree.games, tree.white, tree.draws, tree.black) + ",\"moves\":[";
  for (std::size_t k = 0; k < tree.moves.size() && (limit == 0 || k < limit); ++k) {
    const TreeMove& m = tree.moves[k];
    const std::int64_t elo = m.average_elo();
    out += std::string(k ? "," : "") + "{\"san\":" + json_string(m.san) + ",\"uci\":" + json_string(m.uci) + "," +
           counts_json(m.games, m.white, m.draws, m.black) +
           ",\"avg_elo\":" + (elo < 0 ? std::string("null") : std::to_string(elo)) + "}";
  }
  return out + "]}";
}

}  // namespace pgnarc
