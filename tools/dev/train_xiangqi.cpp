// pgnarc-train --variant xiangqi: fits the Xiangqi model's weights (lib/src/codec/model/xiangqi_model.h)
// to the main lines of Xiangqi games, as the move model's are fitted (train_common.h), and reports
// the integer model's bits per coded ply on the held-out games against the uniform coder's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

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
    "and of huskyth/ZeroChess (from xqbase.com), as tools/dev/xiangqi-games writes them.\n\n",
    18};

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

int train_xiangqi(const std::vector<Input>& inputs, int epochs, const std::string& out_path,
                  const std::string& tables_path) {
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
  std::printf("%-44s %9s %8s %8s %7s %9s\n", "held out (bits per coded ply)", "plies", "model", "uniform", "first",
              "ns/ply");
  for (std::size_t f = 0; f < inputs.size(); ++f) {
    if (fit[f] == games[f].size()) continue;
    double bits = 0, uniform = 0;
    std::uint64_t coded = 0, first = 0;
    std::uint32_t freq[rx::kMaxMoves];
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = fit[f]; i < games[f].size(); ++i)
      replay_xiangqi(games[f][i], [&](const rx::Position& pos, const rx::MoveList& list, const xm::History& h,
                                      int played) {
        const std::uint32_t total = xm::frequencies(pos, list, h, freq, q.data());
        bits += std::log2(static_cast<double>(total) / freq[played]);
        uniform += std::log2(static_cast<double>(list.size));
        first += freq[played] == *std::max_element(freq, freq + list.size);
        ++coded;
      });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double n = static_cast<double>(coded);
    std::printf("%-44s %9llu %8.4f %8.4f %6.1f%% %9.0f\n", base_name(inputs[f].path).c_str(),
                static_cast<unsigned long long>(coded), bits / n, uniform / n, 100.0 * static_cast<double>(first) / n,
                secs / n * 1e9);
  }
  return write_model(out_path, tables_path, kXiangqiDoc, q, nullptr);
}

}  // namespace pgnarc::train
