// pgnarc-train: fits the move model's weights (lib/src/codec/move_model.h) to games and reports
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
// --out writes the weights as the C++ source lib/src/codec/model_weights.cpp, --tables as the
// specification's appendix format-spec/move-model-tables.md. It also reports the weight count,
// the most features any fitted move had (checked against kMaxMoveFeatures) and the model's cost:
// the held-out plies replayed with and without computing the frequencies.
//
//   pgnarc-train --model fast [--book-min N] [--fit-plies all|outside-book] ...
//
// fits the fast model's weights (lib/src/codec/fast_model.h) the same way, and counts its opening
// book from the fitted games that start from the standard position (nodes with at least N moves
// played, default 20); --fit-plies outside-book leaves the plies the book holds out of the fit.
// --out then writes lib/src/codec/fast_weights.cpp (weights and book bytes), --tables
// format-spec/fast-model-tables.md. It reports held-out bits per ply of the present move model,
// the fast model alone, the fast model with its book, and the library's compiled fast model.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codec/arith_coder.h"
#include "codec/fast_model.h"
#include "codec/move_coder.h"
#include "codec/move_model.h"
#include "codec/variant_model.h"
#include "common/hash.h"
#include "pgnarc/pgn.h"
#include "support/main_lines.h"
#include "rules/movegen.h"

namespace {

using namespace pgnarc;
using namespace pgnarc::detail;

using GameRec = test::MainLine;

struct Input {
  std::string path;
  std::size_t fit = 0;
  std::vector<GameRec> games;
};

// The features of each move of one position, flattened.
struct FeatureLists : model::PlyFacts {
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
  model::LineState at{g.start, {}};
  PieceTargets t;
  for (Move m : g.moves) {
    if (m.is_null()) {
      at.play_null();
      continue;
    }
    generate_targets(at.pos, t);
    if (t.total > 1) visit(at.pos, t, at.history, index_in(at.pos, t, m));
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

  void step(const Position& pos, const PieceTargets& t, const model::History& h, int played) {
    lists.clear();
    model::compute_facts(pos, h, lists);
    model::enumerate_features(pos, t, lists, lists);
    lists.finish();
    fit(t.total, played);
  }

  // A crazyhouse position's legal moves `list`, with the crazyhouse model's features.
  void step_crazyhouse(const Position& pos, const MoveList& list, const model::History& h, int played) {
    static model::zh::MoveFeatures f[kMaxLegalMoves];
    model::zh::crazyhouse_features(pos, list, h, f);
    lists.clear();
    for (int i = 0; i < list.size; ++i) {
      lists.start.push_back(static_cast<int>(lists.features.size()));
      lists.features.insert(lists.features.end(), f[i].k, f[i].k + f[i].n);
    }
    lists.finish();
    fit(list.size, played);
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

std::vector<std::int8_t> quantize(const std::vector<double>& w) {
  std::vector<std::int8_t> q(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double v = std::round(w[i] / std::log(2.0) * 16.0);
    q[i] = static_cast<std::int8_t>(std::clamp(v, -127.0, 127.0));
  }
  return q;
}

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
    table[p] = static_cast<std::uint32_t>(std::clamp(v, 1.0, static_cast<double>(model::kMaxEndHazard)));
  }
  return table;
}

struct Measure {
  double bits = 0, uniform = 0, codeword = 0;
  std::uint64_t plies = 0, coded = 0, first = 0;
};

// Held-out figures: the model's bits per coded ply, and the codewords the codec writes for the
// games (main lines as unannotated lines: moves and the end symbol).
Measure measure(const std::vector<GameRec>& games, std::size_t from, const std::int8_t* weights,
                const std::uint32_t* hazard) {
  Measure m;
  std::uint32_t freq[kMaxLegalMoves];
  std::string sink;
  std::uint64_t sink_bits = 0;
  PlyFrequencies pf;
  for (std::size_t i = from; i < games.size(); ++i) {
    const GameRec& g = games[i];
    m.plies += g.moves.size();
    replay(g, [&](const Position& pos, const PieceTargets& t, const model::History& h, int played) {
      const std::uint32_t total = model::frequencies(pos, t, h, freq, weights);
      m.bits += std::log2(static_cast<double>(total) / freq[played]);
      m.uniform += std::log2(static_cast<double>(t.total));
      std::uint32_t top = 0;
      for (int k = 0; k < t.total; ++k) top = std::max(top, freq[k]);
      m.first += freq[played] == top;
      ++m.coded;
    });
    bool nulls = false;
    for (Move mv : g.moves) nulls |= mv.is_null();
    if (nulls) continue;
    sink.clear();
    sink_bits = 0;
    ArithEncoder coder(BitSink{sink, sink_bits});
    // The line's symbols as the codec codes an unannotated main line: each move, then the end.
    model::LineState at{g.start, {}};
    PieceTargets t;
    for (std::uint64_t ply = 0;; ++ply) {
      generate_targets(at.pos, t);
      ply_frequencies(MoveCoder::kModel, true, ply, at.pos, t, at.history, pf, weights, hazard);
      const bool end = ply == g.moves.size();
      const PlySymbol y = symbol_of(pf, end ? -1 : index_in(at.pos, t, g.moves[ply]));
      coder.encode(y.c, y.f, y.total);
      if (end) break;
      at.play(g.moves[ply]);
    }
    coder.finish();
    m.codeword += static_cast<double>(sink_bits);
  }
  return m;
}

const char* group_name(int k) {
  if (k >= model::kToByOwnKing) return "to-square by our king's wing [wing][type][square]";
  if (k >= model::kKick) return "a pawn push could attack the to-square [type]";
  if (k >= model::kOutpost) return "outpost [knight, bishop]";
  if (k >= model::kKingDanger) return "our king attacked around [1-2, 3+][type]";
  if (k >= model::kFromMobility) return "mobility where the piece stands [type][count]";
  if (k >= model::kFromByKing) return "from-square by their king's wing [wing][type][square]";
  if (k >= model::kPawnShape) return "pawn shape after the move [isolated, doubled, passed]";
  if (k >= model::kFile) return "file [rook, queen][open, half-open]";
  if (k >= model::kVersusLast) return "versus their last-moved piece [type][attacks it, attacked by it]";
  if (k >= model::kReply) return "reply [their last-moved type][type]";
  if (k >= model::kAfterOurCapture) return "after our capture [type][quiet, capture]";
  if (k >= model::kAfterCapture) return "after their capture [type][quiet, capture]";
  if (k >= model::kDesert) return "leaves a piece undefended [type][most valuable]";
  if (k >= model::kTargets) return "the piece's targets [type][count]";
  if (k >= model::kUnsafeCheck) return "check losing the exchange [type]";
  if (k >= model::kFromAttacker) return "from-square attacked [type][their least attacker][defended]";
  if (k >= model::kThreatValue) return "threat [type][most valuable threatened]";
  if (k >= model::kFork) return "fork [type]";
  if (k >= model::kToByKing) return "to-square by their king's wing [wing][type][square]";
  if (k >= model::kKingZone) return "attacks next to their king [type][1, 2, 3+]";
  if (k >= model::kMobility) return "mobility [type][safe squares attacked]";
  if (k >= model::kNearOurLast) return "near our previous move [type][distance of to]";
  if (k >= model::kFromNearLast) return "from near the opponent's last move [type][distance of from]";
  if (k >= model::kNearLast) return "near the opponent's last move [type][distance of to]";
  if (k >= model::kBack) return "straight back [type]";
  if (k >= model::kAgain) return "the piece moved last [type]";
  if (k >= model::kRescue) return "defends the piece en prise [class]";
  if (k >= model::kHanging) return "another piece en prise [class][type][quiet, capture]";
  if (k >= model::kSee) return "exchange on the to-square [type][quiet, capture][balance]";
  if (k >= model::kKingDistance) return "king distance [type][distance, none]";
  if (k >= model::kCastlingLoss) return "castling loss [king, rook]";
  if (k >= model::kShield) return "king shield";
  if (k >= model::kPassed) return "passed pawn [relative rank]";
  if (k >= model::kCastle) return "castling [king side, queen side]";
  if (k >= model::kPromotion) return "promotion [N B R Q]";
  if (k >= model::kInCheck) return "in check [type]";
  if (k >= model::kEvade) return "evade [type]";
  if (k >= model::kRecapture) return "recapture [type]";
  if (k >= model::kThreat) return "threat [type][higher, undefended]";
  if (k >= model::kCheck) return "check [type][direct, discovered, both]";
  if (k >= model::kFromSafety) return "from-square safety [type][class]";
  if (k >= model::kToSafety) return "to-square safety [type][class]";
  if (k >= model::kCapture) return "capture [type][victim][to attacked]";
  if (k >= model::kFrom) return "from-square [phase][type][square]";
  return "to-square [phase][type][square]";
}

using GroupName = const char* (*)(int);

// A model's feature groups in order, as (offset, size): runs of numbers with one name.
std::vector<std::pair<int, int>> groups_of(int features, GroupName name) {
  std::vector<std::pair<int, int>> groups;
  for (int k = 0; k < features;) {
    int end = k;
    while (end < features && std::strcmp(name(end), name(k)) == 0) ++end;
    groups.emplace_back(k, end - k);
    k = end;
  }
  return groups;
}

// What the trainer writes of a model: its C++ table (with the end hazard, for the move model)
// and the specification's appendix.
struct ModelDoc {
  int features;
  GroupName group;
  const char* source_head;  // the C++ file up to its weights array
  const char* ns;           // the namespace the C++ file closes
  const char* title;        // the appendix's title and first paragraph
};

const ModelDoc kMoveModelDoc = {
    model::kFeatures, group_name,
    "// The move model's weights (move_model.h), in sixteenths of a bit. Written by tools/pgnarc-train;\n"
    "// do not edit.\n"
    "#include \"codec/move_model.h\"\n\n"
    "namespace pgnarc::detail::model {\n\n",
    "pgnarc::detail::model",
    "# The move model's tables\n\n"
    "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 7.6.4), written by tools/pgnarc-train from\n"
    "the tables it fitted; the library's lib/src/codec/model_weights.cpp holds the same numbers.\n\n"};

// SHA-256 (FIPS 180-4) of `bytes`, as 64 lowercase hex digits: the book's checksum in the appendix.
std::string sha256_hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr std::uint32_t kK[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
      0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
      0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
      0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
      0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
      0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
      0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::vector<std::uint8_t> m = bytes;
  m.push_back(0x80);
  while (m.size() % 64 != 56) m.push_back(0);
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
  for (int i = 7; i >= 0; --i) m.push_back(static_cast<std::uint8_t>(bits >> (i * 8)));
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (std::size_t block = 0; block < m.size(); block += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = static_cast<std::uint32_t>(m[block + 4 * i]) << 24 | static_cast<std::uint32_t>(m[block + 4 * i + 1]) << 16 |
             static_cast<std::uint32_t>(m[block + 4 * i + 2]) << 8 | m[block + 4 * i + 3];
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
      const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
  std::string out;
  char buf[9];
  for (std::uint32_t v : h) {
    std::snprintf(buf, sizeof buf, "%08x", v);
    out += buf;
  }
  return out;
}

// Writes v[from, to), `per_line` a line: each line `lead`, the values joined by `join`, then `tail`.
template <class T>
void put_rows(std::ostream& out, const std::vector<T>& v, std::size_t from, std::size_t to, std::size_t per_line,
              const char* lead, const char* join, const char* tail) {
  for (std::size_t k = from; k < to; k += per_line) {
    out << lead;
    for (std::size_t c = k; c < std::min(to, k + per_line); ++c)
      out << (c == k ? "" : join) << +v[c];
    out << tail << "\n";
  }
}

bool write_weights(const std::string& path, const ModelDoc& doc, const std::vector<std::int8_t>& q,
                   const std::vector<std::uint32_t>* hazard, const std::vector<std::uint8_t>* book = nullptr) {
  std::ofstream out(path, std::ios::binary);
  out << doc.source_head << "const std::array<std::int8_t, kFeatures> kWeights = {\n";
  for (const auto& [offset, size] : groups_of(doc.features, doc.group)) {
    out << "    // " << doc.group(offset) << "\n";
    put_rows(out, q, offset, offset + size, 16, "    ", ", ", ",");
  }
  out << "};\n\n";
  if (hazard) {
    out << "const std::array<std::uint32_t, 256> kEndHazard = {\n";
    put_rows(out, *hazard, 0, hazard->size(), 12, "    ", ", ", ",");
    out << "};\n\n";
  }
  if (book) {
    // (An array cannot be empty: an empty book keeps one unused byte.)
    out << "namespace {\nconstexpr std::uint8_t kBook[" << std::max<std::size_t>(book->size(), 1) << "] = {\n";
    if (book->empty()) out << "    0,\n";
    put_rows(out, *book, 0, book->size(), 16, "    ", ", ", ",");
    out << "};\n}  // namespace\nconst std::span<const std::uint8_t> kBookBytes(kBook, " << book->size() << ");\n\n";
  }
  out << "}  // namespace " << doc.ns << "\n";
  return static_cast<bool>(out);
}

// The appendix of the format specification: the groups, W (and H) as the spec's tables.
bool write_tables(const std::string& path, const ModelDoc& doc, const std::vector<std::int8_t>& q,
                  const std::vector<std::uint32_t>* hazard, const std::vector<std::uint8_t>* book = nullptr) {
  std::ofstream out(path, std::ios::binary);
  out << doc.title << "K = " << doc.features
      << " features.\n\n## Groups\n\n| offset | size | group [index] |\n|---:|---:|---|\n";
  const auto groups = groups_of(doc.features, doc.group);
  for (const auto& [offset, size] : groups) out << "| " << offset << " | " << size << " | " << doc.group(offset) << " |\n";
  out << "\n## W\n\nThe weights in sixteenths of a bit, W[offset] first, 16 a line.\n";
  for (const auto& [offset, size] : groups) {
    out << "\n### " << doc.group(offset) << ", from " << offset << "\n\n```text\n";
    put_rows(out, q, offset, offset + size, 16, "", " ", "");
    out << "```\n";
  }
  if (hazard) {
    out << "\n## H\n\nThe end hazard, H[0] first, 16 a line.\n\n```text\n";
    put_rows(out, *hazard, 0, hazard->size(), 16, "", " ", "");
    out << "```\n";
  }
  if (book) {
    static const char kHex[] = "0123456789abcdef";
    out << "\n## Book\n\nThe opening book's bytes (section 7.8.1), " << book->size() << " bytes, SHA-256\n"
        << sha256_hex(*book) << ", as lowercase hex, 32 bytes a line.\n\n```text\n";
    for (std::size_t k = 0; k < book->size(); k += 32) {
      for (std::size_t c = k; c < std::min(book->size(), k + 32); ++c) out << kHex[(*book)[c] >> 4] << kHex[(*book)[c] & 15];
      out << "\n";
    }
    out << "```\n";
  }
  return static_cast<bool>(out);
}

// Fits `tr` on the fitted games of `inputs`: every one once per epoch, shuffled with a fixed
// seed; step(game) steps through one game's plies.
template <class Step, class After = void (*)(int)>
void fit_epochs(Trainer& tr, const std::vector<Input>& inputs, int epochs, std::uint64_t seed, Step&& step,
                After after = [](int) {}) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
  for (std::uint32_t f = 0; f < inputs.size(); ++f)
    for (std::uint32_t g = 0; g < inputs[f].fit; ++g) order.emplace_back(f, g);
  std::mt19937_64 rng(seed);
  for (int e = 0; e < epochs; ++e) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    tr.nats = 0;
    tr.plies = 0;
    tr.rate = 0.1 / (1 + e);
    for (const auto& [f, g] : order) step(inputs[f].games[g]);
    std::fprintf(stderr, "epoch %d: %.4f bits per coded ply while fitting (%llu plies)\n", e + 1,
                 tr.nats / std::log(2.0) / static_cast<double>(tr.plies), static_cast<unsigned long long>(tr.plies));
    after(e + 1);
  }
}

// The crazyhouse model (--variant crazyhouse): calls visit(pos, legal moves, history, played
// index) for every coded ply of `g` (positions with two or more legal moves).
template <class Visit>
void replay_listed(const GameRec& g, Visit&& visit) {
  model::LineState at{g.start, {}};
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

const char* zh_group_name(int k) {
  namespace zh = model::zh;
  if (k >= zh::kKingZone) return "attacks next to their king [kind][0, 1, 2, 3+]";
  if (k >= zh::kThreat) return "threat [kind][none, a piece worth more, an undefended piece]";
  if (k >= zh::kFrom) return "from-square [board kind][relative square]";
  if (k >= zh::kRecapture) return "lands where their last move landed [kind]";
  if (k >= zh::kEvasion) return "we are in check [kind]";
  if (k >= zh::kKingDistance) return "king distance [kind][distance, 0 without a king]";
  if (k >= zh::kCheck) return "check [kind]";
  if (k >= zh::kFromSafety) return "from-square safety [board kind][attacked by them][defended by us]";
  if (k >= zh::kSafety) return "landing square safety [kind][attacked by them][defended by us]";
  if (k >= zh::kVictim) return "capture [kind][victim: none, P, N, B, R, Q, K]";
  return "landing square [kind][relative square]";
}

const ModelDoc kCrazyhouseDoc = {
    model::zh::kFeatures, zh_group_name,
    "// The crazyhouse model's weights (variant_model.h), in sixteenths of a bit. Written by\n"
    "// tools/pgnarc-train --variant crazyhouse; do not edit.\n"
    "#include \"codec/variant_model.h\"\n\n"
    "namespace pgnarc::detail::model::zh {\n\n",
    "pgnarc::detail::model::zh",
    "# The crazyhouse model's table\n\n"
    "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 7.7), written by tools/pgnarc-train\n"
    "--variant crazyhouse from the table it fitted; the library's lib/src/codec/variant_weights.cpp holds\n"
    "the same numbers.\n\n"};

int train_crazyhouse(const std::vector<Input>& inputs, int epochs, const std::string& out_path,
                     const std::string& tables_path) {
  Trainer tr(model::zh::kFeatures);
  fit_epochs(tr, inputs, epochs, 20261126, [&](const GameRec& g) {
    replay_listed(g, [&](const Position& pos, const MoveList& list, const model::History& h, int played) {
      tr.step_crazyhouse(pos, list, h, played);
    });
  });
  if (tr.most_features > model::zh::kMaxMoveFeatures) {
    std::fprintf(stderr, "a move had %d features, more than kMaxMoveFeatures (%d)\n", tr.most_features,
                 model::zh::kMaxMoveFeatures);
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
      replay_listed(in.games[i], [&](const Position& pos, const MoveList& list, const model::History& h, int played) {
        const std::uint32_t total = model::zh::frequencies(pos, list, h, freq, q.data());
        bits += std::log2(static_cast<double>(total) / freq[played]);
        uniform += std::log2(static_cast<double>(list.size));
        first += freq[played] == *std::max_element(freq, freq + list.size);
        ++coded;
      });
    const double n = static_cast<double>(coded);
    std::printf("%-44s %9llu %8.4f %8.4f %6.1f%%\n", in.path.substr(in.path.rfind('/') + 1).c_str(),
                static_cast<unsigned long long>(coded), bits / n, uniform / n, 100.0 * static_cast<double>(first) / n);
  }
  if (!tables_path.empty() && !write_tables(tables_path, kCrazyhouseDoc, q, nullptr)) {
    std::fprintf(stderr, "cannot write %s\n", tables_path.c_str());
    return 4;
  }
  if (!out_path.empty() && !write_weights(out_path, kCrazyhouseDoc, q, nullptr)) {
    std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
    return 4;
  }
  return 0;
}

// ---- The fast model (--model fast): its weights, fitted as the move model's, and its opening
// book, counted from the fitted games (format specification 7.8).

const char* fast_group_name(int k) {
  namespace f = fast;
  if (k >= f::kShield) return "king shield";
  if (k >= f::kCastlingLoss) return "castling loss [king, rook]";
  if (k >= f::kCastle) return "castling [king side, queen side]";
  if (k >= f::kPromotion) return "promotion [N B R Q]";
  if (k >= f::kPassed) return "passed pawn [relative rank]";
  if (k >= f::kKick) return "a pawn push could attack the to-square [type]";
  if (k >= f::kHang) return "another piece en prise [type][class 1-4][quiet, capture][the move attacks it]";
  if (k >= f::kThreat) return "threat [pawn, knight][most valuable threatened none, P, minor, R, Q][fork]";
  if (k >= f::kOurs) return "near our previous move [type][distance of to][straight back]";
  if (k >= f::kDist) return "distances [type][to their king][to their last to-square]";
  if (k >= f::kTactic) return "tactic [type][victim none, P..Q][to class][check none, direct, discovered][recapture]";
  if (k >= f::kContext) return "context [their last-moved type][in check][their last move captured][type]";
  if (k >= f::kFromState) return "from-square state [type][class][attacked by their last-moved piece][moved last]";
  if (k >= f::kFrom) return "from-square [phase][type][square]";
  if (k >= f::kToByOwnKing) return "to-square by our king's wing [wing][type][square]";
  if (k >= f::kToByKing) return "to-square by their king's wing [wing][type][square]";
  return "to-square [phase][type][square]";
}

const ModelDoc kFastDoc = {
    fast::kFeatures, fast_group_name,
    "// The fast move model's weights (fast_model.h), in sixteenths of a bit, and its opening book.\n"
    "// Written by tools/pgnarc-train --model fast; do not edit.\n"
    "#include \"codec/fast_model.h\"\n\n"
    "namespace pgnarc::detail::fast {\n\n",
    "pgnarc::detail::fast",
    "# The fast model's tables\n\n"
    "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 7.8), written by tools/pgnarc-train\n"
    "--model fast from the tables it fitted and the book it counted; the library's\n"
    "lib/src/codec/fast_weights.cpp holds the same numbers and bytes. The fast model has no end hazard of\n"
    "its own: move coder 2 takes the move model's H ([move-model-tables.md](move-model-tables.md)).\n\n"};

using fast::book_key;
using fast::BookKey;
using fast::BookKeyHash;

struct BookCounts {
  std::vector<fast::BookEntry> entries;  // ascending index
  std::uint64_t games = 0;
};
using BookMap = std::unordered_map<BookKey, BookCounts, BookKeyHash>;

struct FastBook {
  std::vector<std::uint8_t> bytes;
  BookMap nodes;  // the nodes as the bytes hold them
  std::size_t kept = 0, entries = 0;

  // The book's node of `pos` as fast::book_node finds it, or null.
  const BookCounts* find(const Position& pos) const {
    if (pos.variant() != Variant::kStandard || pos.fullmove_number() > fast::kBookLastMove) return nullptr;
    const auto it = nodes.find(book_key(pos));
    return it == nodes.end() ? nullptr : &it->second;
  }
};

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// Reads book bytes back with the library's reader (fast::read_book) into `nodes`; false where
// they are malformed, or a node's entries are not in ascending index, or a position is written
// twice.
bool read_book(const std::vector<std::uint8_t>& bytes, BookMap& nodes) {
  bool ok = true;
  const bool read = fast::read_book(bytes, [&](const Position& pos, std::span<const fast::BookEntry> entries) {
    BookCounts own;
    for (const fast::BookEntry& e : entries) {
      if (!own.entries.empty() && e.index <= own.entries.back().index) ok = false;
      own.entries.push_back(e);
      own.games += e.count;
    }
    if (!nodes.emplace(book_key(pos), std::move(own)).second) ok = false;
  });
  return read && ok;
}

// The book of the fitted games that start from the standard position: every position of standard
// chess up to fullmove kBookLastMove, keyed by position (transpositions pooled), with the count of
// each move played there by canonical index; the nodes with at least `min_games` moves played are
// kept and written depth first from the start position, through kept nodes only, each position
// once. Checked by reading the bytes back.
bool build_book(const std::vector<Input>& inputs, std::uint64_t min_games, FastBook& book) {
  BookMap counts;
  const Position start;
  for (const Input& in : inputs)
    for (std::size_t g = 0; g < in.fit; ++g) {
      const GameRec& game = in.games[g];
      if (!(game.start == start)) continue;
      Position pos = start;
      PieceTargets t;
      for (Move m : game.moves) {
        if (m.is_null() || pos.fullmove_number() > fast::kBookLastMove) break;
        generate_targets(pos, t);
        const auto index = static_cast<std::uint8_t>(index_in(pos, t, m));
        BookCounts& c = counts[book_key(pos)];
        auto e = std::lower_bound(c.entries.begin(), c.entries.end(), index,
                                  [](const fast::BookEntry& x, std::uint8_t i) { return x.index < i; });
        if (e == c.entries.end() || e->index != index) e = c.entries.insert(e, fast::BookEntry{index, 0});
        ++e->count;
        ++c.games;
        pos.play(m);
      }
    }
  std::fprintf(stderr, "book: %zu positions seen\n", counts.size());
  std::erase_if(counts, [&](const auto& kv) { return kv.second.games < min_games; });
  book.kept = counts.size();
  // Written depth first; `written` holds the positions already written (a transposition's entry
  // then gets no child).
  std::unordered_set<BookKey, BookKeyHash> written;
  std::vector<std::uint8_t>& out = book.bytes;
  out.clear();
  auto node = [&](auto&& self, const Position& pos) -> void {
    const BookCounts& c = counts.at(book_key(pos));
    written.insert(book_key(pos));
    PieceTargets t;
    generate_targets(pos, t);
    put_varint(out, c.entries.size());
    for (const fast::BookEntry& e : c.entries) {
      Position next = pos;
      next.play(move_at_index(pos, t, e.index));
      const BookKey k = book_key(next);
      const bool follows = counts.contains(k) && !written.contains(k);
      out.push_back(e.index);
      put_varint(out, std::uint64_t{e.count} * 2 + follows);
      if (follows) self(self, next);
    }
  };
  if (counts.contains(book_key(start))) node(node, start);
  // The check: the bytes read back hold exactly the kept nodes reachable from the start through
  // kept nodes, with their counts.
  book.nodes.clear();
  if (!read_book(out, book.nodes) || book.nodes.size() != written.size()) {
    std::fprintf(stderr, "book: the bytes do not read back\n");
    return false;
  }
  std::size_t reachable = 0;
  {
    std::unordered_set<BookKey, BookKeyHash> seen;
    std::vector<Position> stack;
    if (counts.contains(book_key(start))) stack.push_back(start), seen.insert(book_key(start));
    while (!stack.empty()) {
      const Position pos = stack.back();
      stack.pop_back();
      ++reachable;
      const BookCounts& c = counts.at(book_key(pos));
      const auto it = book.nodes.find(book_key(pos));
      if (it == book.nodes.end() || it->second.games != c.games || it->second.entries.size() != c.entries.size()) {
        std::fprintf(stderr, "book: a kept node reachable from the start is missing or differs: %s\n", pos.fen().c_str());
        return false;
      }
      for (std::size_t e = 0; e < c.entries.size(); ++e)
        if (it->second.entries[e].index != c.entries[e].index || it->second.entries[e].count != c.entries[e].count) {
          std::fprintf(stderr, "book: entries differ at %s\n", pos.fen().c_str());
          return false;
        }
      PieceTargets t;
      generate_targets(pos, t);
      for (const fast::BookEntry& e : c.entries) {
        Position next = pos;
        next.play(move_at_index(pos, t, e.index));
        const BookKey k = book_key(next);
        if (counts.contains(k) && seen.insert(k).second) stack.push_back(next);
      }
    }
  }
  if (reachable != book.nodes.size()) {
    std::fprintf(stderr, "book: %zu nodes read back, %zu reachable\n", book.nodes.size(), reachable);
    return false;
  }
  for (const auto& kv : book.nodes) book.entries += kv.second.entries.size();
  std::fprintf(stderr, "book: %zu nodes with N >= %llu, %zu of them reachable from the start: %zu entries, %zu bytes "
                       "(read back: all bytes, every reachable node)\n",
               book.kept, static_cast<unsigned long long>(min_games), book.nodes.size(), book.entries, out.size());
  return true;
}

// The fast model's training features of each move (a To feature stands for three: its ToByKing
// and ToByOwnKing features too), by canonical index.
struct FastSink {
  fast::Offsets o;
  std::vector<int> piece_features;
  std::vector<int> per[kMaxLegalMoves];
  int current = 0;
  void piece(Square) { piece_features.clear(); }
  void piece_feature(int k) { piece_features.push_back(k); }
  void move(int i) {
    current = i;
    per[i].assign(piece_features.begin(), piece_features.end());
  }
  void move_to(int k, int) {
    per[current].push_back(k);
    per[current].push_back(k + o.wing);
    per[current].push_back(k + o.own);
  }
  void move_feature(int k) { per[current].push_back(k); }
};

struct FastMeasure {
  double fast = 0, book = 0, library = 0;
  std::uint64_t plies = 0, coded = 0, in_book = 0;
};

// Held-out bits of the fast model with weights `q`: alone, with `book` (no model where the book
// holds the position), and as the library computes it (fast::frequencies, its compiled tables).
FastMeasure measure_fast(const std::vector<GameRec>& games, std::size_t from, const std::int8_t* q,
                         const FastBook& book, bool library) {
  FastMeasure m;
  std::uint32_t freq[kMaxLegalMoves];
  for (std::size_t i = from; i < games.size(); ++i) {
    m.plies += games[i].moves.size();
    replay(games[i], [&](const Position& pos, const PieceTargets& t, const model::History& h, int played) {
      std::uint32_t total = fast::model_frequencies(pos, t, h, freq, q);
      const double bits = std::log2(static_cast<double>(total) / freq[played]);
      m.fast += bits;
      if (const BookCounts* c = book.find(pos)) {
        const fast::BookNode node{std::span<const fast::BookEntry>(c->entries), c->games};
        total = fast::book_frequencies(node, t.total, freq);
        m.book += std::log2(static_cast<double>(total) / freq[played]);
        ++m.in_book;
      } else {
        m.book += bits;
      }
      if (library) {
        total = fast::frequencies(pos, t, h, freq);
        m.library += std::log2(static_cast<double>(total) / freq[played]);
      }
      ++m.coded;
    });
  }
  return m;
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// --model fast: the book first (so that the fit can leave its plies out), then the weights.
int train_fast(const std::vector<Input>& inputs, int epochs, std::uint64_t min_games, bool fit_in_book,
               const std::string& out_path, const std::string& tables_path) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  FastBook book;
  if (!build_book(inputs, min_games, book)) return 3;
  Trainer tr(fast::kFeatures);
  FastSink sink;
  std::uint64_t skipped = 0;
  auto held_out = [&](int epoch) {
    const std::vector<std::int8_t> q = quantize(tr.w);
    for (const Input& in : inputs) {
      if (in.fit == in.games.size()) continue;
      const FastMeasure m = measure_fast(in.games, in.fit, q.data(), book, false);
      const double plies = static_cast<double>(m.plies);
      std::fprintf(stderr, "  epoch %d held out %-44s fast %.4f  fast+book %.4f\n", epoch, base_name(in.path).c_str(),
                   m.fast / plies, m.book / plies);
    }
  };
  fit_epochs(
      tr, inputs, epochs, 20261125,
      [&](const GameRec& g) {
        replay(g, [&](const Position& pos, const PieceTargets& t, const model::History& h, int played) {
          if (!fit_in_book && book.find(pos)) return void(++skipped);
          fast::Facts f;
          model::compute_facts(pos, h, f);
          sink.o = fast::offsets_of(f);
          fast::enumerate_features<model::LineSliders>(pos, t, f, sink);
          tr.lists.clear();
          for (int i = 0; i < t.total; ++i) {
            tr.lists.start.push_back(static_cast<int>(tr.lists.features.size()));
            tr.lists.features.insert(tr.lists.features.end(), sink.per[i].begin(), sink.per[i].end());
          }
          tr.lists.finish();
          tr.fit(t.total, played);
        });
      },
      held_out);
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::fprintf(stderr, "%d weights fitted %s in %.0f s (%llu in-book plies an epoch left out)\n", fast::kFeatures,
               fit_in_book ? "on every ply" : "outside the book", seconds,
               static_cast<unsigned long long>(skipped / static_cast<std::uint64_t>(std::max(epochs, 1))));
  const std::vector<std::int8_t> q = quantize(tr.w);
  // "library" is fast::frequencies with the compiled tables: the same as "fast+book" once the
  // written tables are built in.
  std::printf("%-44s %9s %8s %8s %9s %8s %8s\n", "held out (bits per ply)", "plies", "present", "fast", "fast+book",
              "library", "in book");
  for (const Input& in : inputs) {
    if (in.fit == in.games.size()) continue;
    const Measure p = measure(in.games, in.fit, model::kWeights.data(), model::kEndHazard.data());
    const FastMeasure m = measure_fast(in.games, in.fit, q.data(), book, true);
    const double plies = static_cast<double>(m.plies);
    std::printf("%-44s %9llu %8.4f %8.4f %9.4f %8.4f %7.1f%%\n", base_name(in.path).c_str(),
                static_cast<unsigned long long>(m.plies), p.bits / plies, m.fast / plies, m.book / plies,
                m.library / plies, 100.0 * static_cast<double>(m.in_book) / static_cast<double>(m.coded));
  }
  if (!tables_path.empty() && !write_tables(tables_path, kFastDoc, q, nullptr, &book.bytes)) {
    std::fprintf(stderr, "cannot write %s\n", tables_path.c_str());
    return 4;
  }
  if (!out_path.empty() && !write_weights(out_path, kFastDoc, q, nullptr, &book.bytes)) {
    std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
    return 4;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 3;
  bool fast_model = false, fit_in_book = true;
  std::uint64_t book_min = 20;
  std::string out_path, tables_path;
  Variant variant = Variant::kStandard;
  std::vector<Input> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--epochs" && i + 1 < argc) epochs = std::atoi(argv[++i]);
    else if (a == "--out" && i + 1 < argc) out_path = argv[++i];
    else if (a == "--tables" && i + 1 < argc) tables_path = argv[++i];
    else if (a == "--model" && i + 1 < argc) {
      const std::string m = argv[++i];
      if (m != "fast" && m != "move") {
        std::fprintf(stderr, "pgnarc-train: --model is move or fast\n");
        return 2;
      }
      fast_model = m == "fast";
    }
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
      if (!variant_from_name(argv[++i], variant) || variant != Variant::kCrazyhouse) {
        std::fprintf(stderr, "pgnarc-train: only crazyhouse has a model of its own\n");
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
    std::fprintf(stderr, "usage: pgnarc-train [--variant crazyhouse | --model fast [--book-min N] "
                         "[--fit-plies all|outside-book]] [--epochs N] [--out FILE] [--tables FILE] PATH[:FIT] ...\n");
    return 2;
  }
  for (Input& in : inputs) {
    if (!test::read_main_lines("pgnarc-train", in.path, in.games, std::numeric_limits<std::size_t>::max(), variant,
                               variant))
      return 4;
    in.fit = std::min(in.fit, in.games.size());
    std::fprintf(stderr, "%s: %zu games, fitting on %zu\n", in.path.c_str(), in.games.size(), in.fit);
  }
  if (variant == Variant::kCrazyhouse) return train_crazyhouse(inputs, epochs, out_path, tables_path);
  if (fast_model) return train_fast(inputs, epochs, book_min, fit_in_book, out_path, tables_path);
  Trainer tr(model::kFeatures);
  fit_epochs(tr, inputs, epochs, 20261125, [&](const GameRec& g) {
    replay(g, [&](const Position& pos, const PieceTargets& t, const model::History& h, int played) {
      tr.step(pos, t, h, played);
    });
  });
  if (tr.most_features > model::kMaxMoveFeatures) {
    std::fprintf(stderr, "a move had %d features, more than kMaxMoveFeatures (%d)\n", tr.most_features,
                 model::kMaxMoveFeatures);
    return 3;
  }
  std::fprintf(stderr, "%d weights; at most %d features a move (bound %d)\n", model::kFeatures, tr.most_features,
               model::kMaxMoveFeatures);
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
        replay(in.games[i], [&](const Position&, const PieceTargets& t, const model::History&, int played) {
          sink += static_cast<std::uint64_t>(t.total + played);
          ++coded;
        });
    const auto t1 = Clock::now();
    for (const Input& in : inputs)
      for (std::size_t i = in.fit; i < in.games.size(); ++i)
        replay(in.games[i], [&](const Position& pos, const PieceTargets& t, const model::History& h, int played) {
          sink += model::frequencies(pos, t, h, freq, q.data()) + freq[played];
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
  if (!tables_path.empty() && !write_tables(tables_path, kMoveModelDoc, q, &hazard)) {
    std::fprintf(stderr, "cannot write %s\n", tables_path.c_str());
    return 4;
  }
  if (!out_path.empty() && !write_weights(out_path, kMoveModelDoc, q, &hazard)) {
    std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
    return 4;
  }
  return 0;
}
