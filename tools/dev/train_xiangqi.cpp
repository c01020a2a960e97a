// pgnarc-train --variant xiangqi: fits the Xiangqi model's weights (lib/src/codec/model/xiangqi_model.h)
// to the main lines of Xiangqi games, as the move model's are fitted (train_common.h), and reports
// the integer model's bits per coded ply on the held-out games against the uniform coder's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <unordered_map>
#include <unordered_set>

#include "codec/model/xiangqi_book.h"
#include "codec/model/xiangqi_model.h"
#include "pgn/xiangqi_pgn.h"
#include "pgnarc/pgn.h"
#include "rules/xiangqi_game.h"
#include "train_common.h"

namespace pgnarc::train {

namespace {

namespace rx = rules::xiangqi;
namespace xm = codec::model::xq;

struct XiangqiLine {
  rx::Position start;
  std::vector<rx::Move> moves;
};

// The main lines of the Xiangqi games of `path` (games in error and chess games left out).
bool read_xiangqi_lines(const std::string& path, std::vector<XiangqiLine>& out) {
  auto reader = PgnReader::open(path);
  if (!reader) {
    std::fprintf(stderr, "pgnarc-train: %s\n", reader.error().to_string().c_str());
    return false;
  }
  PgnReader::RawGame raw;
  while (true) {
    auto more = (*reader)->next_raw(raw);
    if (!more) {
      std::fprintf(stderr, "pgnarc-train: %s\n", more.error().to_string().c_str());
      return false;
    }
    if (!*more) break;
    GameBuilder b;
    pgn::parse_game_or_xiangqi(raw.text, path, raw.number, raw.start, b);
    if (!b.ok() || b.game().rules != GameRules::kXiangqi) continue;
    auto start = rx::start_position(b.game().tags);
    if (!start) continue;
    XiangqiLine line{*start, {}};
    int depth = 0;
    for (const GameEvent& e : b.game().events) {
      if (e.type == GameEvent::kBeginVariation) ++depth;
      else if (e.type == GameEvent::kEndVariation) --depth;
      else if (e.type == GameEvent::kMove && depth == 0) line.moves.push_back(rx::move_of(e.move));
    }
    out.push_back(std::move(line));
  }
  return true;
}

// Calls visit(pos, legal moves, history, played index) for every coded ply of `g` (positions with
// two or more legal moves).
template <class Visit>
void replay_xiangqi(const XiangqiLine& g, Visit&& visit) {
  rx::Position pos = g.start;
  xm::History h;
  rx::MoveList list;
  for (rx::Move m : g.moves) {
    rx::legal_moves(pos, list);
    if (list.size > 1) visit(pos, list, h, static_cast<int>(std::lower_bound(list.begin(), list.end(), m) - list.begin()));
    h = xm::history_after(h, pos, m);
    pos.play(m);
  }
}

const ModelDoc kXiangqiDoc = {
    xm::kGroups,
    "// The Xiangqi model's weights (xiangqi_model.h), in sixteenths of a bit. Written by\n"
    "// tools/pgnarc-train --variant xiangqi; do not edit.\n"
    "#include \"codec/model/xiangqi_model.h\"\n\n"
    "namespace pgnarc::codec::model::xq {\n\n",
    "pgnarc::codec::model::xq",
    "# The Xiangqi model's table\n\n"
    "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 7.9), written by tools/pgnarc-train\n"
    "--variant xiangqi from the table it fitted; the library's\n"
    "lib/src/codec/model/xiangqi_weights.cpp holds the same numbers. tools/dev/train-xiangqi fits it on the\n"
    "master games of the Chinese Chess Practical Dataset (Yu-Han Tseng and Bo-Nian Chen, 2026, CC BY 4.0)\n"
    "and of huskyth/ZeroChess (from xqbase.com), as tools/dev/xiangqi-games writes them; the book (7.9.1)\n"
    "counts the same games, and lib/src/codec/model/xiangqi_book.cpp holds its bytes.\n\n",
    18, "7.9.1"};

const BookSource kXiangqiBookSource = {"The Xiangqi model's opening book (xiangqi_book.h; format specification 7.9.1)",
                                       "codec/model/xiangqi_book.h", "pgnarc::codec::model::xq",
                                       "tools/dev/train-xiangqi (pgnarc-train --variant xiangqi --book-out)", 128};

using xm::BookKey;
using xm::BookKeyHash;
struct BookCounts {
  std::vector<codec::model::BookEntry> entries;  // ascending index
  std::uint64_t games = 0;
};
using BookMap = std::unordered_map<BookKey, BookCounts, BookKeyHash>;

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// The book (7.9.1) of the fitted games that start from the start position: every position up to
// fullmove kBookLastMove, keyed by position (transpositions pooled), with the count of each move
// played there; the nodes with at least `min_games` moves played are kept and written depth first
// from the start position, through kept nodes only, each position once. Read back with the
// library's reader into `nodes`, which must then hold every kept node reachable from the start.
bool build_book(const std::vector<std::vector<XiangqiLine>>& games, const std::vector<std::size_t>& fit,
                std::uint64_t min_games, std::vector<std::uint8_t>& out, BookMap& nodes) {
  BookMap counts;
  const rx::Position start;
  for (std::size_t f = 0; f < games.size(); ++f)
    for (std::size_t g = 0; g < fit[f]; ++g) {
      const XiangqiLine& line = games[f][g];
      if (!(line.start == start)) continue;
      rx::Position pos = start;
      rx::MoveList list;
      for (rx::Move m : line.moves) {
        if (pos.fullmove_number() > xm::kBookLastMove) break;
        rx::legal_moves(pos, list);
        const auto index = static_cast<std::uint8_t>(std::lower_bound(list.begin(), list.end(), m) - list.begin());
        BookCounts& c = counts[xm::book_key(pos)];
        auto e = std::lower_bound(c.entries.begin(), c.entries.end(), index,
                                  [](const codec::model::BookEntry& x, std::uint8_t i) { return x.index < i; });
        if (e == c.entries.end() || e->index != index) e = c.entries.insert(e, codec::model::BookEntry{index, 0});
        ++e->count;
        ++c.games;
        pos.play(m);
      }
    }
  std::fprintf(stderr, "book: %zu positions seen\n", counts.size());
  std::erase_if(counts, [&](const auto& kv) { return kv.second.games < min_games; });
  std::unordered_set<BookKey, BookKeyHash> written;
  out.clear();
  auto node = [&](auto&& self, const rx::Position& pos) -> void {
    const BookCounts& c = counts.at(xm::book_key(pos));
    written.insert(xm::book_key(pos));
    rx::MoveList list;
    rx::legal_moves(pos, list);
    put_varint(out, c.entries.size());
    for (const codec::model::BookEntry& e : c.entries) {
      const rx::Position next = pos.after(list[e.index]);
      const BookKey k = xm::book_key(next);
      const bool follows = next.fullmove_number() <= xm::kBookLastMove && counts.contains(k) && !written.contains(k);
      out.push_back(e.index);
      put_varint(out, std::uint64_t{e.count} * 2 + follows);
      if (follows) self(self, next);
    }
  };
  if (counts.contains(xm::book_key(start))) node(node, start);
  // The check: the bytes read back hold every written node with its counts, each position once.
  nodes.clear();
  bool ok = true;
  const bool read = xm::read_book(out, [&](const rx::Position& pos, std::span<const codec::model::BookEntry> entries) {
    BookCounts own;
    own.entries.assign(entries.begin(), entries.end());
    for (const auto& e : entries) own.games += e.count;
    const auto it = counts.find(xm::book_key(pos));
    if (it == counts.end() || it->second.games != own.games || it->second.entries.size() != own.entries.size()) ok = false;
    if (!nodes.emplace(xm::book_key(pos), std::move(own)).second) ok = false;
  });
  if (!read || !ok || nodes.size() != written.size()) {
    std::fprintf(stderr, "book: the bytes do not read back\n");
    return false;
  }
  std::size_t entries = 0;
  for (const auto& kv : nodes) entries += kv.second.entries.size();
  std::fprintf(stderr, "book: %zu nodes with N >= %llu, %zu of them reachable from the start: %zu entries, %zu bytes\n",
               counts.size(), static_cast<unsigned long long>(min_games), nodes.size(), entries, out.size());
  return true;
}

}  // namespace

int xiangqi_fens(const std::vector<Input>& inputs) {
  for (const Input& in : inputs) {
    std::vector<XiangqiLine> games;
    if (!read_xiangqi_lines(in.path, games)) return 4;
    for (const XiangqiLine& g : games) {
      rx::Position pos = g.start;
      std::printf("%s\n", pos.fen().c_str());
      for (rx::Move m : g.moves) {
        pos.play(m);
        std::printf("%s\n", pos.fen().c_str());
      }
    }
  }
  return 0;
}

int train_xiangqi(const std::vector<Input>& inputs, int epochs, std::uint64_t book_min, const std::string& out_path,
                  const std::string& book_path, const std::string& tables_path) {
  std::vector<std::vector<XiangqiLine>> games(inputs.size());
  std::vector<std::size_t> fit(inputs.size());
  for (std::size_t f = 0; f < inputs.size(); ++f) {
    if (!read_xiangqi_lines(inputs[f].path, games[f])) return 4;
    fit[f] = std::min(inputs[f].fit, games[f].size());
    std::fprintf(stderr, "%s: %zu Xiangqi games, fitting on %zu\n", inputs[f].path.c_str(), games[f].size(), fit[f]);
  }
  Trainer tr(xm::kFeatures);
  static xm::MoveFeatures features[rx::kMaxMoves];
  const auto step = [&](const rx::Position& pos, const rx::MoveList& list, const xm::History& h, int played) {
    xm::xiangqi_features(pos, list, h, features);
    tr.step_listed(features, list.size, played);
  };
  fit_epochs(tr, fit, epochs, 20261201, [&](std::uint32_t f, std::uint32_t g) { replay_xiangqi(games[f][g], step); });
  if (tr.most_features > xm::kMaxMoveFeatures) {
    std::fprintf(stderr, "a move had %d features, more than kMaxMoveFeatures (%d)\n", tr.most_features,
                 xm::kMaxMoveFeatures);
    return 3;
  }
  std::fprintf(stderr, "%d weights; at most %d features a move (bound %d)\n", xm::kFeatures, tr.most_features,
               xm::kMaxMoveFeatures);
  const std::vector<std::int8_t> q = quantize(tr.w);
  std::vector<std::uint8_t> book;
  BookMap nodes;
  if (!build_book(games, fit, book_min, book, nodes)) return 3;
  std::printf("%-44s %9s %8s %8s %8s %7s %9s\n", "held out (bits per coded ply)", "plies", "model", "+book", "uniform",
              "first", "ns/ply");
  for (std::size_t f = 0; f < inputs.size(); ++f) {
    if (fit[f] == games[f].size()) continue;
    double bits = 0, booked = 0, uniform = 0;
    std::uint64_t coded = 0, first = 0;
    std::uint32_t freq[rx::kMaxMoves], book_freq[rx::kMaxMoves];
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = fit[f]; i < games[f].size(); ++i)
      replay_xiangqi(games[f][i], [&](const rx::Position& pos, const rx::MoveList& list, const xm::History& h,
                                      int played) {
        const std::uint32_t total = xm::frequencies(pos, list, h, freq, q.data());
        bits += std::log2(static_cast<double>(total) / freq[played]);
        const auto it = pos.fullmove_number() <= xm::kBookLastMove ? nodes.find(xm::book_key(pos)) : nodes.end();
        if (it == nodes.end()) {
          booked += std::log2(static_cast<double>(total) / freq[played]);
        } else {
          const codec::model::BookNode node{it->second.entries, it->second.games};
          const std::uint32_t t = codec::model::book_frequencies(node, list.size, book_freq);
          booked += std::log2(static_cast<double>(t) / book_freq[played]);
        }
        uniform += std::log2(static_cast<double>(list.size));
        first += freq[played] == *std::max_element(freq, freq + list.size);
        ++coded;
      });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double n = static_cast<double>(coded);
    std::printf("%-44s %9llu %8.4f %8.4f %8.4f %6.1f%% %9.0f\n", base_name(inputs[f].path).c_str(),
                static_cast<unsigned long long>(coded), bits / n, booked / n, uniform / n, 100.0 * static_cast<double>(first) / n,
                secs / n * 1e9);
  }
  if (int rc = write_model(out_path, tables_path, kXiangqiDoc, q, nullptr, &book)) return rc;
  if (!book_path.empty() && !write_book(book_path, book, kXiangqiBookSource)) {
    std::fprintf(stderr, "cannot write %s\n", book_path.c_str());
    return 4;
  }
  return 0;
}

}  // namespace pgnarc::train
