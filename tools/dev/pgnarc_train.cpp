// pgnarc-train: fits the move model's weights (lib/src/codec/model/move_model.h) to games and reports
// how many bits per ply the integer model needs on games it was not fitted on.
//
//   pgnarc-train [--epochs N] [--out FILE] [--tables FILE] PATH[:FIT] ...
//
// Each PATH is a PGN file; its first FIT games (default 0) are fitted on, the rest are held out.
// The fit is a softmax over each position's legal moves (AdaGrad on the log-likelihood of the
// played move, main lines only, games in a fixed pseudo-random order), in double precision on
// one thread, so the same inputs give the same weights bit for bit on the same build. The
// weights are then rounded to sixteenths of a bit (int8) and the integer model of the codec is
// measured exactly: bits per ply = sum of log2(total / frequency of the played move).
// --out writes the weights as the C++ source lib/src/codec/model/model_weights.cpp, --tables as the
// specification's appendix format-spec/move-model-tables.md. It also reports the weight count,
// the most features any fitted move had (checked against kMaxMoveFeatures) and the model's cost:
// the held-out plies replayed with and without computing the frequencies.
//
//   pgnarc-train --model fast [--book-min N] [--fit-plies all|outside-book] [--book-out FILE] ...
//
// fits the fast model's weights (lib/src/codec/model/fast_model.h) the same way, and counts its opening
// book from the fitted games that start from the standard position (nodes with at least N moves
// played, default 20); --fit-plies outside-book leaves the plies the book holds out of the fit.
// --out then writes the weights as lib/src/codec/model/fast_weights.cpp, --book-out the book's bytes as
// lib/src/codec/model/fast_book.cpp, --tables format-spec/fast-model-tables.md (tools/dev/train-fast).
// It reports held-out bits per ply of the present move model, the fast model alone, the fast model
// with its book, and the library's compiled fast model.
//
//   pgnarc-train --variant xiangqi --fens PATH ...
//
// prints the FEN of every position of the Xiangqi games' main lines, one a line, for
// tools/dev/train-xiangqi-positions.
//
// This file holds the move model's and the crazyhouse model's trainers and the command line;
// train_fast.cpp the fast model's and its book's; train_common.h what they share.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "codec/model/move_model.h"
#include "codec/model/variant_model.h"
#include "pgnarc/pgn.h"
#include "main_lines.h"
#include "train_common.h"

namespace {

using namespace pgnarc::train;

// The end hazard table (move_model.h) from the fitted games' lengths: h(p) = games that end at p
// / games that reach p, pooled over a window of plies around p wide enough to hold 2,000 games
// that reach it; the table holds 2^16 h / (1 - h).
std::vector<std::uint32_t> fit_hazard(const std::vector<Input>& inputs) {
  constexpr int kN = 256;
  std::vector<double> reach(kN, 0), ends(kN, 0);
  for (const Input& in : inputs)
    for (std::size_t g = 0; g < in.fit; ++g) {
      const std::size_t n = in.games[g].moves.size();
      for (std::size_t p = 0; p <= n; ++p) reach[std::min<std::size_t>(p, kN - 1)] += 1;
      ends[std::min<std::size_t>(n, kN - 1)] += 1;
    }
  std::vector<std::uint32_t> table(kN);
  for (int p = 0; p < kN; ++p) {
    double r = reach[p], e = ends[p];
    for (int w = 1; r < 2000 && w < kN; ++w) {
      if (p - w >= 0) r += reach[p - w], e += ends[p - w];
      if (p + w < kN) r += reach[p + w], e += ends[p + w];
    }
    const double h = (e + 0.5) / (r + 1.0);
    const double v = std::round(65536.0 * h / (1.0 - h));
    table[p] = static_cast<std::uint32_t>(std::clamp(v, 1.0, static_cast<double>(codec::model::kMaxEndHazard)));
  }
  return table;
}

const ModelDoc kMoveModelDoc = {
    codec::model::kGroups,
    "// The move model's weights (move_model.h), in sixteenths of a bit. Written by tools/pgnarc-train;\n"
    "// do not edit.\n"
    "#include \"codec/model/move_model.h\"\n\n"
    "namespace pgnarc::codec::model {\n\n",
    "pgnarc::codec::model",
    "# The move model's tables\n\n"
    "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 7.6.4), written by tools/pgnarc-train from\n"
    "the tables it fitted; the library's lib/src/codec/model/model_weights.cpp holds the same numbers.\n\n",
    16};

// The crazyhouse model (--variant crazyhouse): calls visit(pos, legal moves, history, played
// index) for every coded ply of `g` (positions with two or more legal moves).
template <class Visit>
void replay_listed(const GameRec& g, Visit&& visit) {
  codec::model::LineState at{g.start, {}};
  for (Move m : g.moves) {
    if (m.is_null()) {
      at.play_null();
      continue;
    }
    const MoveList list = at.pos.legal_moves();
    if (list.overflow) return;  // (a position no archive codes a move in, MOVE-SYM-4)
    if (list.size > 1) {
      int played = 0;
      while (list[played] != m) ++played;
      visit(at.pos, list, at.history, played);
    }
    at.play(m);
  }
}

const ModelDoc kCrazyhouseDoc = {
    codec::model::zh::kGroups,
    "// The crazyhouse model's weights (variant_model.h), in sixteenths of a bit. Written by\n"
    "// tools/pgnarc-train --variant crazyhouse; do not edit.\n"
    "#include \"codec/model/variant_model.h\"\n\n"
    "namespace pgnarc::codec::model::zh {\n\n",
    "pgnarc::codec::model::zh",
    "# The crazyhouse model's table\n\n"
    "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 7.7), written by tools/pgnarc-train\n"
    "--variant crazyhouse from the table it fitted; the library's\n"
    "lib/src/codec/model/variant_weights.cpp holds the same numbers.\n\n",
    16};

int train_crazyhouse(const std::vector<Input>& inputs, int epochs, const std::string& out_path,
                     const std::string& tables_path) {
  Trainer tr(codec::model::zh::kFeatures);
  fit_epochs(tr, inputs, epochs, 20261126, [&](const GameRec& g) {
    replay_listed(g, [&](const Position& pos, const MoveList& list, const codec::model::History& h, int played) {
      tr.step_crazyhouse(pos, list, h, played);
    });
  });
  if (tr.most_features > codec::model::zh::kMaxMoveFeatures) {
    std::fprintf(stderr, "a move had %d features, more than kMaxMoveFeatures (%d)\n", tr.most_features,
                 codec::model::zh::kMaxMoveFeatures);
    return 3;
  }
  const std::vector<std::int8_t> q = quantize(tr.w);
  std::printf("%-44s %9s %8s %8s %7s\n", "held out (bits per coded ply)", "plies", "model", "uniform", "first");
  for (const Input& in : inputs) {
    if (in.fit == in.games.size()) continue;
    double bits = 0, uniform = 0;
    std::uint64_t coded = 0, first = 0;
    std::uint32_t freq[kMaxLegalMoves];
    for (std::size_t i = in.fit; i < in.games.size(); ++i)
      replay_listed(in.games[i], [&](const Position& pos, const MoveList& list,
                                     const codec::model::History& h, int played) {
        const std::uint32_t total = codec::model::zh::frequencies(pos, list, h, freq, q.data());
        bits += std::log2(static_cast<double>(total) / freq[played]);
        uniform += std::log2(static_cast<double>(list.size));
        first += freq[played] == *std::max_element(freq, freq + list.size);
        ++coded;
      });
    const double n = static_cast<double>(coded);
    std::printf("%-44s %9llu %8.4f %8.4f %6.1f%%\n", in.path.substr(in.path.rfind('/') + 1).c_str(),
                static_cast<unsigned long long>(coded), bits / n, uniform / n, 100.0 * static_cast<double>(first) / n);
  }
  return write_model(out_path, tables_path, kCrazyhouseDoc, q, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 3;
  bool fast_model = false, fit_in_book = true;
  std::uint64_t book_min = 20;
  std::string out_path, book_path, tables_path;
  Variant variant = Variant::kStandard;
  bool xiangqi = false, fens = false;
  std::vector<Input> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--epochs" && i + 1 < argc) epochs = std::atoi(argv[++i]);
    else if (a == "--out" && i + 1 < argc) out_path = argv[++i];
    else if (a == "--book-out" && i + 1 < argc) book_path = argv[++i];
    else if (a == "--tables" && i + 1 < argc) tables_path = argv[++i];
    else if (a == "--model" && i + 1 < argc) {
      const std::string m = argv[++i];
      if (m != "fast" && m != "move") {
        std::fprintf(stderr, "pgnarc-train: --model is move or fast\n");
        return 2;
      }
      fast_model = m == "fast";
    }
    else if (a == "--fens") fens = true;
    else if (a == "--book-min" && i + 1 < argc) book_min = std::stoull(argv[++i]);
    else if (a == "--fit-plies" && i + 1 < argc) {
      const std::string m = argv[++i];
      if (m != "all" && m != "outside-book") {
        std::fprintf(stderr, "pgnarc-train: --fit-plies is all or outside-book\n");
        return 2;
      }
      fit_in_book = m == "all";
    }
    else if (a == "--variant" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v == "xiangqi") {
        xiangqi = true;
      } else if (!variant_from_name(v, variant) || variant != Variant::kCrazyhouse) {
        std::fprintf(stderr, "pgnarc-train: crazyhouse and xiangqi have a model of their own\n");
        return 2;
      }
    }
    else {
      Input in;
      const auto colon = a.rfind(':');
      in.path = a;
      if (colon != std::string::npos && colon + 1 < a.size() && std::isdigit(static_cast<unsigned char>(a[colon + 1]))) {
        in.path = a.substr(0, colon);
        in.fit = std::stoull(a.substr(colon + 1));
      }
      inputs.push_back(std::move(in));
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: pgnarc-train [--variant crazyhouse|xiangqi | --model fast [--book-min N] "
                         "[--fit-plies all|outside-book] [--book-out FILE]] [--epochs N] [--out FILE] [--tables FILE] "
                         "PATH[:FIT] ...\n");
    return 2;
  }
  if (!book_path.empty() && !fast_model && !xiangqi) {
    std::fprintf(stderr, "pgnarc-train: --book-out is for --model fast and --variant xiangqi\n");
    return 2;
  }
  if (fast_model && !out_path.empty() && book_path.empty()) {
    std::fprintf(stderr, "pgnarc-train: --model fast --out needs --book-out (the library needs both files)\n");
    return 2;
  }
  if (fens && !xiangqi) {
    std::fprintf(stderr, "pgnarc-train: --fens is for --variant xiangqi\n");
    return 2;
  }
  if (fens) return xiangqi_fens(inputs);
  if (xiangqi) return train_xiangqi(inputs, epochs, book_min, out_path, book_path, tables_path);
  for (Input& in : inputs) {
    if (!test::read_main_lines("pgnarc-train", in.path, in.games, std::numeric_limits<std::size_t>::max(), variant,
                               variant))
      return 4;
    in.fit = std::min(in.fit, in.games.size());
    std::fprintf(stderr, "%s: %zu games, fitting on %zu\n", in.path.c_str(), in.games.size(), in.fit);
  }
  if (variant == Variant::kCrazyhouse) return train_crazyhouse(inputs, epochs, out_path, tables_path);
  if (fast_model) return train_fast(inputs, epochs, book_min, fit_in_book, out_path, book_path, tables_path);
  Trainer tr(codec::model::kFeatures);
  fit_epochs(tr, inputs, epochs, 20261125, [&](const GameRec& g) {
    replay(g, [&](const Position& pos, const rules::PieceTargets& t, const codec::model::History& h, int played) {
      tr.step(pos, t, h, played);
    });
  });
  if (tr.most_features > codec::model::kMaxMoveFeatures) {
    std::fprintf(stderr, "a move had %d features, more than kMaxMoveFeatures (%d)\n", tr.most_features,
                 codec::model::kMaxMoveFeatures);
    return 3;
  }
  std::fprintf(stderr, "%d weights; at most %d features a move (bound %d)\n", codec::model::kFeatures, tr.most_features,
               codec::model::kMaxMoveFeatures);
  const std::vector<std::int8_t> q = quantize(tr.w);
  // The cost of the model: held-out plies replayed with generation only, then with the model's
  // frequencies too (compute_facts and scoring every legal move), timed on one thread.
  {
    using Clock = std::chrono::steady_clock;
    std::uint64_t coded = 0, sink = 0;
    std::uint32_t freq[kMaxLegalMoves];
    const auto t0 = Clock::now();
    for (const Input& in : inputs)
      for (std::size_t i = in.fit; i < in.games.size(); ++i)
        replay(in.games[i], [&](const Position&, const rules::PieceTargets& t,
                                const codec::model::History&, int played) {
          sink += static_cast<std::uint64_t>(t.total + played);
          ++coded;
        });
    const auto t1 = Clock::now();
    for (const Input& in : inputs)
      for (std::size_t i = in.fit; i < in.games.size(); ++i)
        replay(in.games[i], [&](const Position& pos, const rules::PieceTargets& t,
                                const codec::model::History& h, int played) {
          sink += codec::model::frequencies(pos, t, h, freq, q.data()) + freq[played];
        });
    const auto t2 = Clock::now();
    const double gen = std::chrono::duration<double>(t1 - t0).count(), all = std::chrono::duration<double>(t2 - t1).count();
    std::fprintf(stderr, "timing: %.2fM coded plies/s with the model (%.0f ns per ply, %.0f of them the model's)%s\n",
                 static_cast<double>(coded) / all * 1e-6, all / static_cast<double>(coded) * 1e9,
                 (all - gen) / static_cast<double>(coded) * 1e9, sink == 1 ? " " : "");
  }
  const std::vector<std::uint32_t> hazard = fit_hazard(inputs);
  std::printf("%-44s %9s %8s %8s %8s %8s %7s\n", "held out (bits per ply)", "plies", "model", "codeword", "uniform",
              "coded", "first");
  for (const Input& in : inputs) {
    if (in.fit == in.games.size()) continue;
    const Measure m = measure(in.games, in.fit, q.data(), hazard.data());
    const double plies = static_cast<double>(m.plies);
    std::printf("%-44s %9llu %8.4f %8.4f %8.4f %8.4f %6.1f%%\n", in.path.substr(in.path.rfind('/') + 1).c_str(),
                static_cast<unsigned long long>(m.plies), m.bits / plies, m.codeword / plies, m.uniform / plies,
                m.bits / static_cast<double>(m.coded), 100.0 * static_cast<double>(m.first) / static_cast<double>(m.coded));
  }
  return write_model(out_path, tables_path, kMoveModelDoc, q, &hazard);
}
