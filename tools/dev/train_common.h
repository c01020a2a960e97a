// What pgnarc-train's two trainers share (tools/dev/pgnarc_train.cpp: the move model and the
// crazyhouse model; tools/dev/train_fast.cpp: the fast model and its opening book): the games, the
// replay of their coded plies, the AdaGrad fit and its epochs, the int8 rounding, the move model's
// held-out measure, and the writers of a model's C++ table and of its appendix of the format
// specification.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "codec/model/move_model.h"
#include "codec/model/variant_model.h"
#include "main_lines.h"
#include "rules/movegen.h"

namespace pgnarc::train {

using namespace pgnarc;

using GameRec = test::MainLine;

struct Input {
  std::string path;
  std::size_t fit = 0;
  std::vector<GameRec> games;
};

// The features of each move of one position, flattened.
struct FeatureLists : codec::model::PlyFacts {
  std::vector<int> features;
  std::vector<int> start;  // move i's features are features[start[i] .. start[i + 1])
  std::vector<int> piece_features;
  void clear() {
    features.clear();
    start.clear();
    piece_features.clear();
  }
  void piece(Square) { piece_features.clear(); }
  void piece_feature(int k) { piece_features.push_back(k); }
  void move(int) {
    start.push_back(static_cast<int>(features.size()));
    features.insert(features.end(), piece_features.begin(), piece_features.end());
  }
  void move_feature(int k) { features.push_back(k); }
  void finish() { start.push_back(static_cast<int>(features.size())); }
};

// Calls visit(pos, targets, history, played index) for every coded ply of `g` (positions with two
// or more legal moves).
template <class Visit>
void replay(const GameRec& g, Visit&& visit) {
  codec::model::LineState at{g.start, {}};
  rules::PieceTargets t;
  for (Move m : g.moves) {
    if (m.is_null()) {
      at.play_null();
      continue;
    }
    rules::generate_targets(at.pos, t);
    if (t.total > 1) visit(at.pos, t, at.history, rules::index_in(at.pos, t, m));
    at.play(m);
  }
}

struct Trainer {
  std::vector<double> w, g2, grad;
  std::vector<int> touched;
  FeatureLists lists;
  std::vector<double> p;
  double rate = 0.1;
  double nats = 0;
  std::uint64_t plies = 0;
  int most_features = 0;  // the most features any move had

  explicit Trainer(int features) : w(features, 0.0), g2(features, 0.0), grad(features, 0.0) {}

  void step(const Position& pos, const rules::PieceTargets& t, const codec::model::History& h, int played) {
    lists.clear();
    codec::model::compute_facts(pos, h, lists);
    codec::model::enumerate_features(pos, t, lists, lists);
    lists.finish();
    fit(t.total, played);
  }

  // A crazyhouse position's legal moves `list`, with the crazyhouse model's features.
  void step_crazyhouse(const Position& pos, const MoveList& list, const codec::model::History& h, int played) {
    static codec::model::zh::MoveFeatures f[kMaxLegalMoves];
    codec::model::zh::crazyhouse_features(pos, list, h, f);
    step_listed(f, list.size, played);
  }

  // One step on `n` moves whose features a variant's model gave as f[0 .. n).
  template <int kMax>
  void step_listed(const codec::model::FeatureList<kMax>* f, int n, int played) {
    lists.clear();
    for (int i = 0; i < n; ++i) {
      lists.start.push_back(static_cast<int>(lists.features.size()));
      lists.features.insert(lists.features.end(), f[i].k, f[i].k + f[i].n);
    }
    lists.finish();
    fit(n, played);
  }

  // One step on a position's `n` moves, whose features `lists` holds, of which `played` was.
  void fit(int n, int played) {
    for (int i = 0; i < n; ++i) most_features = std::max(most_features, lists.start[i + 1] - lists.start[i]);
    p.assign(static_cast<std::size_t>(n), 0.0);
    double best = -1e300;
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = lists.start[i]; k < lists.start[i + 1]; ++k) s += w[lists.features[k]];
      p[i] = s;
      best = std::max(best, s);
    }
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += p[i] = std::exp(p[i] - best);
    nats += std::log(sum) - std::log(p[played]);
    ++plies;
    for (int i = 0; i < n; ++i) {
      const double gi = p[i] / sum - (i == played ? 1.0 : 0.0);
      for (int k = lists.start[i]; k < lists.start[i + 1]; ++k) {
        const int f = lists.features[k];
        if (grad[f] == 0.0) touched.push_back(f);
        grad[f] += gi;
      }
    }
    for (int f : touched) {
      const double gf = grad[f];
      g2[f] += gf * gf;
      w[f] -= rate * gf / std::sqrt(g2[f] + 1e-8);
      grad[f] = 0.0;
    }
    touched.clear();
  }
};

std::vector<std::int8_t> quantize(const std::vector<double>& w);

struct Measure {
  double bits = 0, uniform = 0, codeword = 0;
  std::uint64_t plies = 0, coded = 0, first = 0;
};

// Held-out figures: the model's bits per coded ply, and the codewords the codec writes for the
// games (main lines as unannotated lines: moves and the end symbol).
Measure measure(const std::vector<GameRec>& games, std::size_t from, const std::int8_t* weights,
                const std::uint32_t* hazard);

// What the trainer writes of a model: its C++ table (with the end hazard, for the move model)
// and the specification's appendix.
struct ModelDoc {
  std::span<const codec::model::FeatureGroup> groups;  // the model's table of feature groups
  const char* source_head;  // the C++ file up to its weights array
  const char* ns;           // the namespace the C++ file closes
  const char* title;        // the appendix's title and first paragraph
  std::size_t per_line;     // weights a line in the C++ file
  const char* book_section = "7.8.1";  // the section of its opening book, where it has one
};

// What a book's C++ file says of itself: what it is, the header it includes, its namespace and
// what writes it; and how many of its bytes a line of the file holds.
struct BookSource {
  const char* what;
  const char* include;
  const char* ns;
  const char* generator;
  std::size_t line = 96;
};

// Writes an opening book's C++ file: kBookBytes over the bytes, which the file holds as lowercase
// hex digits, one string literal of source.line bytes a line (each literal well under the 65,536
// characters compilers must accept), decoded at compile time. False where it cannot be written.
bool write_book(const std::string& path, const std::vector<std::uint8_t>& book, const BookSource& source);

// Writes the model's C++ table `q` (then `hazard` where given) to `path`; false where the file
// cannot be written.
bool write_weights(const std::string& path, const ModelDoc& doc, const std::vector<std::int8_t>& q,
                   const std::vector<std::uint32_t>* hazard);

// Writes the appendix to `tables_path` and the C++ table to `out_path` (each where its path is not
// empty; `book` for the appendix, `hazard` for both, where given); returns main's exit code: 0,
// or 4 (said on stderr) where a file cannot be written.
int write_model(const std::string& out_path, const std::string& tables_path, const ModelDoc& doc,
                const std::vector<std::int8_t>& q, const std::vector<std::uint32_t>* hazard,
                const std::vector<std::uint8_t>* book = nullptr);

// The appendix of the format specification: the groups, W (and H) as the spec's tables.
// False where the file cannot be written.
bool write_tables(const std::string& path, const ModelDoc& doc, const std::vector<std::int8_t>& q,
                  const std::vector<std::uint32_t>* hazard, const std::vector<std::uint8_t>* book = nullptr);

// Fits `tr` on `fit[f]` games of each input f: every one once per epoch, shuffled with a fixed
// seed; step(f, g) steps through the plies of input f's game g.
template <class Step, class After = void (*)(int)>
void fit_epochs(Trainer& tr, const std::vector<std::size_t>& fit, int epochs, std::uint64_t seed, Step&& step,
                After after = [](int) {}) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
  for (std::uint32_t f = 0; f < fit.size(); ++f)
    for (std::uint32_t g = 0; g < fit[f]; ++g) order.emplace_back(f, g);
  std::mt19937_64 rng(seed);
  for (int e = 0; e < epochs; ++e) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    tr.nats = 0;
    tr.plies = 0;
    tr.rate = 0.1 / (1 + e);
    for (const auto& [f, g] : order) step(f, g);
    std::fprintf(stderr, "epoch %d: %.4f bits per coded ply while fitting (%llu plies)\n", e + 1,
                 tr.nats / std::log(2.0) / static_cast<double>(tr.plies), static_cast<unsigned long long>(tr.plies));
    after(e + 1);
  }
}

// The same over the fitted games of `inputs`; step(game) steps through one game's plies.
template <class Step, class After = void (*)(int)>
void fit_epochs(Trainer& tr, const std::vector<Input>& inputs, int epochs, std::uint64_t seed, Step&& step,
                After after = [](int) {}) {
  std::vector<std::size_t> fit;
  for (const Input& in : inputs) fit.push_back(in.fit);
  fit_epochs(
      tr, fit, epochs, seed, [&](std::uint32_t f, std::uint32_t g) { step(inputs[f].games[g]); }, after);
}

inline std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// --model fast (tools/dev/train_fast.cpp): the book of at least `min_games` moves a node, then the
// weights, fitted on every ply or (fit_in_book false) outside the book; returns main's exit code.
// --out writes the weights' C++ file, --book-out the book's, --tables the appendix (each where
// its path is not empty).
int train_fast(const std::vector<Input>& inputs, int epochs, std::uint64_t min_games, bool fit_in_book,
               const std::string& out_path, const std::string& book_path, const std::string& tables_path);

// --variant xiangqi (tools/dev/train_xiangqi.cpp): the Xiangqi model, fitted on the first `fit` Xiangqi
// games of each input (its own reading of the files: `games` is empty); returns main's exit code.
// --variant xiangqi --fens: the FEN of every position of the Xiangqi games' main lines (their start
// and after each ply), one a line on standard output, for tools/dev/train-xiangqi-positions.
int xiangqi_fens(const std::vector<Input>& inputs);
int train_xiangqi(const std::vector<Input>& inputs, int epochs, std::uint64_t book_min, const std::string& out_path,
                  const std::string& book_path, const std::string& tables_path);

}  // namespace pgnarc::train
