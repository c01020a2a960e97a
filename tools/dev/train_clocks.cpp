// pgnarc-train-clocks: counts the clock model's symbols (lib/src/codec/record/clock_model.h) on
// the clock tracks of games, and writes its tables: the C++ source
// lib/src/codec/record/clock_tables.cpp (--out, cumulative rows) and the specification's appendix
// format-spec/clock-model-tables.md (--tables, frequencies). It reports, for each input, the bits
// a clock and an evaluation take under the tables it wrote (the time's class and rest, the
// fraction; the evaluation's symbols and rest), beside an order-0 code of the same symbols.
//
//   pgnarc-train-clocks [--out FILE] [--tables FILE] [--fit N] PGN...
//
// --fit N counts on the first N games of each input and reports on the rest (0: counts on all,
// reports on all). The tables are smoothed counts: each time row towards a shape centred on the
// class of its context's recent time, each evaluation row towards all rows' sum, every symbol at
// least 1, each row's total about 2^15. The same inputs give the same tables, bit for bit.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "codec/record/clock_model.h"
#include "pgnarc/pgn.h"

namespace {

using namespace pgnarc;
using namespace pgnarc::codec;

// A track as the writer sees it: each ply's clock comment, split.
struct Track {
  ClockBasis basis;
  std::vector<std::string> texts;  // each ply's first comment
};

// The main lines of `path` whose every ply's first comment is a clock (the games' clock tracks,
// near enough for counting).
std::vector<Track> read_tracks(const char* path) {
  std::vector<Track> out;
  auto reader = PgnReader::open(path);
  if (!reader) {
    std::fprintf(stderr, "%s\n", reader.error().to_string().c_str());
    std::exit(1);
  }
  GameBuilder b;
  for (;;) {
    auto got = (*reader)->next(b);
    if (!got || !*got) break;
    if (!b.ok()) continue;
    const Game& g = b.game();
    Track t{clock_basis(g.tags), {}};
    int depth = 0;
    bool first = false, ok = true;
    for (const GameEvent& e : g.events) {
      if (e.type == GameEvent::kBeginVariation) ++depth;
      if (e.type == GameEvent::kEndVariation) --depth;
      if (depth != 0 || e.type == GameEvent::kNag) continue;
      if (e.type == GameEvent::kMove) {
        if (first) ok = false;
        first = true;
      } else if (e.type == GameEvent::kComment && first) {
        ClockSplit c;
        if (e.comment_kind != CommentKind::kBrace || !split_clock(e.text, c)) ok = false;
        t.texts.push_back(e.text);
        first = false;
      } else if (e.type == GameEvent::kNullMove) {
        ok = false;
      }
    }
    if (ok && !first && !t.texts.empty()) out.push_back(std::move(t));
  }
  return out;
}

// A writer's side that counts each table row's symbols and adds up the bits of the others.
struct CountingSide {
  static constexpr bool kDecoding = false;
  std::map<const std::uint32_t*, std::vector<double>>& counts;
  double other_bits = 0, fraction_bits = 0;
  template <int N>
  bool adaptive(const AdaptiveFrequencies<N>& f, int& s) {
    fraction_bits += std::log2(static_cast<double>(f.total) / f.count[s]);
    return true;
  }
  bool raw(int bits, std::uint32_t&) {
    other_bits += bits;
    return true;
  }
  bool uniform(std::uint32_t n, std::uint32_t&) {
    other_bits += std::log2(static_cast<double>(n));
    return true;
  }
  bool cumulative(const std::uint32_t* row, int n, int& s) {
    auto& c = counts[row];
    if (c.empty()) c.assign(n, 0.0);
    c[s] += 1;
    return true;
  }
};

struct Tally {
  std::map<const std::uint32_t*, std::vector<double>> counts;
  double rest_time = 0, rest_eval = 0, fraction = 0;
  std::uint64_t clocks = 0, evals = 0;
};

void count(const std::vector<Track>& tracks, std::size_t from, std::size_t to, Tally& t) {
  for (std::size_t k = from; k < to && k < tracks.size(); ++k) {
    TrackModel model(tracks[k].basis);
    std::uint64_t slot = 0;
    for (const std::string& text : tracks[k].texts) {
      ++slot;
      ClockSplit c;
      split_clock(text, c);
      CountingSide side{t.counts};
      std::uint64_t value = c.value;
      model.time(side, slot, c.form, value);
      t.rest_time += side.other_bits;
      t.fraction += side.fraction_bits;
      ++t.clocks;
      Evaluation e;
      if (frame_of(c, e.value, e.mate) == kFrameEval) {
        CountingSide es{t.counts};
        model.evaluation(es, e);
        t.rest_eval += es.other_bits;
        ++t.evals;
      }
    }
  }
}

// The index of a time symbol on the scale of magnitudes (the negative symbol below 0).
double time_position(int s) { return s == kNegativeTime ? -3.0 : s; }

// A row's frequencies from its counts and a prior (both over n symbols): (count + w * prior) /
// (sum + w), scaled to about 2^15, each at least 1.
std::vector<std::uint32_t> smooth(const std::vector<double>& counts, const std::vector<double>& prior, double w) {
  double sum = 0, psum = 0;
  for (double c : counts) sum += c;
  for (double p : prior) psum += p;
  std::vector<std::uint32_t> f(counts.size());
  for (std::size_t s = 0; s < counts.size(); ++s) {
    const double p = (counts[s] + w * prior[s] / psum) / (sum + w);
    f[s] = static_cast<std::uint32_t>(std::max(1.0, std::round(p * 32768.0)));
  }
  return f;
}

std::vector<double> row_counts(Tally& t, const std::uint32_t* row, int n) {
  auto it = t.counts.find(row);
  return it == t.counts.end() ? std::vector<double>(n, 0.0) : it->second;
}

struct Tables {
  std::vector<std::vector<std::uint32_t>> time, eval;
  std::vector<std::uint32_t> mate;
};

Tables fit(Tally& t) {
  Tables out;
  for (int ctx = 0; ctx < kTimeContexts; ++ctx) {
    const int recent = ctx / 3;
    // The class of the context's recent time (its average's octave: 2^(recent - 1) to 2^recent
    // seconds), or 0 (no time yet: a first clock, against the base).
    const double centre = recent == 11 || recent == 0 ? 0.0 : magnitude_class(static_cast<std::uint64_t>(1.4 * std::ldexp(1.0, recent - 1)));
    std::vector<double> prior(kTimeSymbols);
    for (int s = 0; s < kTimeSymbols; ++s) prior[s] = std::exp2(-std::fabs(time_position(s) - centre) / 1.5) + 0.02;
    out.time.push_back(smooth(row_counts(t, kTimeTable[ctx], kTimeSymbols), prior, 24.0));
  }
  std::vector<double> pooled(kEvalSymbols, 1.0);
  for (int ctx = 0; ctx < kEvalContexts; ++ctx) {
    const auto c = row_counts(t, kEvalTable[ctx], kEvalSymbols);
    for (int s = 0; s < kEvalSymbols; ++s) pooled[s] += c[s];
  }
  for (int ctx = 0; ctx < kEvalContexts; ++ctx)
    out.eval.push_back(smooth(row_counts(t, kEvalTable[ctx], kEvalSymbols), pooled, 32.0));
  std::vector<double> mate_prior(kChangeSymbols);
  for (int s = 0; s < kChangeSymbols; ++s) mate_prior[s] = std::exp2(-static_cast<double>((s + 1) / 2)) + 0.001;
  out.mate = smooth(row_counts(t, kMateTable, kChangeSymbols), mate_prior, 16.0);
  return out;
}

// Bits of `counts` under `f` (and under an order-0 code of the counts themselves).
double bits_under(const std::vector<double>& counts, const std::vector<std::uint32_t>& f) {
  double total = 0, bits = 0;
  for (auto v : f) total += v;
  for (std::size_t s = 0; s < counts.size(); ++s)
    if (counts[s] > 0) bits += counts[s] * std::log2(total / f[s]);
  return bits;
}

void report(const char* name, Tally& t, const Tables& tables) {
  double time = 0, eval = 0;
  std::vector<double> time0(kTimeSymbols, 0.0), eval0(kEvalSymbols, 0.0);
  for (int ctx = 0; ctx < kTimeContexts; ++ctx) {
    const auto c = row_counts(t, kTimeTable[ctx], kTimeSymbols);
    time += bits_under(c, tables.time[ctx]);
    for (int s = 0; s < kTimeSymbols; ++s) time0[s] += c[s];
  }
  for (int ctx = 0; ctx < kEvalContexts; ++ctx) {
    const auto c = row_counts(t, kEvalTable[ctx], kEvalSymbols);
    eval += bits_under(c, tables.eval[ctx]);
    for (int s = 0; s < kEvalSymbols; ++s) eval0[s] += c[s];
  }
  const auto mc = row_counts(t, kMateTable, kChangeSymbols);
  eval += bits_under(mc, tables.mate);
  const auto order0 = [](const std::vector<double>& c) {
    double n = 0, b = 0;
    for (double v : c) n += v;
    for (double v : c)
      if (v > 0) b += v * std::log2(n / v);
    return b;
  };
  const double clocks = static_cast<double>(std::max<std::uint64_t>(t.clocks, 1));
  const double evals = static_cast<double>(std::max<std::uint64_t>(t.evals, 1));
  std::printf("%-48s %8llu clocks %6.3f bits (class %.3f, rest %.3f, fraction %.3f; order-0 class %.3f)\n", name,
              static_cast<unsigned long long>(t.clocks), (time + t.rest_time + t.fraction) / clocks, time / clocks,
              t.rest_time / clocks, t.fraction / clocks, order0(time0) / clocks);
  std::printf("%-48s %8llu evals  %6.3f bits (symbols %.3f, rest %.3f; order-0 symbols %.3f)\n", "",
              static_cast<unsigned long long>(t.evals), (eval + t.rest_eval) / evals, eval / evals, t.rest_eval / evals,
              (order0(eval0) + order0(mc)) / evals);
}

void write_cpp(const char* path, const Tables& t) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  std::fprintf(f,
               "// The clock model's tables (clock_model.h), as cumulative frequencies. Generated by\n"
               "// tools/dev/train-clocks (pgnarc-train-clocks --out); do not edit.\n"
               "#include \"codec/record/clock_model.h\"\n\nnamespace pgnarc::codec {\n\n");
  const auto row = [&](const std::vector<std::uint32_t>& freq) {
    std::uint32_t c = 0;
    std::fprintf(f, "    {0");
    for (std::size_t s = 0; s < freq.size(); ++s) {
      c += freq[s];
      std::fprintf(f, ",%s%u", (s + 1) % 16 == 0 ? "\n     " : " ", c);
    }
    std::fprintf(f, "},\n");
  };
  std::fprintf(f, "const std::uint32_t kTimeTable[kTimeContexts][kTimeSymbols + 1] = {\n");
  for (const auto& r : t.time) row(r);
  std::fprintf(f, "};\n\nconst std::uint32_t kEvalTable[kEvalContexts][kEvalSymbols + 1] = {\n");
  for (const auto& r : t.eval) row(r);
  std::fprintf(f, "};\n\nconst std::uint32_t kMateTable[kChangeSymbols + 1] =\n");
  row(t.mate);
  std::fseek(f, -2, SEEK_CUR);  // the row's ",\n"
  std::fprintf(f, ";\n\n}  // namespace pgnarc::codec\n");
  std::fclose(f);
}

void write_tables(const char* path, const Tables& t) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  std::fprintf(f,
               "# The clock model's tables\n\n"
               "An appendix of [pgnarc-format.md](pgnarc-format.md) (section 8.3.4), written by\n"
               "tools/dev/train-clocks from the symbols it counted; the library's\n"
               "lib/src/codec/record/clock_tables.cpp holds the same numbers as cumulative frequencies.\n"
               "Each row lists its symbols' frequencies in symbol order; a row's total is their sum.\n\n");
  const auto row = [&](const std::vector<std::uint32_t>& freq) {
    for (std::size_t s = 0; s < freq.size(); ++s) std::fprintf(f, "%u%s", freq[s], s + 1 == freq.size() ? "\n" : " ");
  };
  std::fprintf(f, "## Times\n\n%d rows (context = 3 * recent + left), %d symbols each (the classes 0 to 24, then a negative time).\n\n```text\n",
               kTimeContexts, kTimeSymbols);
  for (const auto& r : t.time) row(r);
  std::fprintf(f, "```\n\n## Evaluations\n\n%d rows (context 0 after a mate, else 1 + the octave of the last centipawns), %d symbols each (no change, a rise and a fall of each class 1 to 24, then a mate).\n\n```text\n",
               kEvalContexts, kEvalSymbols);
  for (const auto& r : t.eval) row(r);
  std::fprintf(f, "```\n\n## Mates\n\nOne row, %d symbols (no change, a rise and a fall of each class 1 to 24).\n\n```text\n", kChangeSymbols);
  row(t.mate);
  std::fprintf(f, "```\n");
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const char *out = nullptr, *tables_md = nullptr;
  std::size_t fit_games = 0;
  std::vector<const char*> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!std::strcmp(argv[i], "--tables") && i + 1 < argc) tables_md = argv[++i];
    else if (!std::strcmp(argv[i], "--fit") && i + 1 < argc) fit_games = std::stoul(argv[++i]);
    else inputs.push_back(argv[i]);
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: pgnarc-train-clocks [--out FILE] [--tables FILE] [--fit N] PGN...\n");
    return 2;
  }
  std::vector<std::vector<Track>> tracks;
  Tally fitted;
  for (const char* in : inputs) {
    tracks.push_back(read_tracks(in));
    count(tracks.back(), 0, fit_games ? fit_games : tracks.back().size(), fitted);
  }
  const Tables tables = fit(fitted);
  if (out) write_cpp(out, tables);
  if (tables_md) write_tables(tables_md, tables);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    Tally held;
    count(tracks[k], fit_games, tracks[k].size(), held);
    if (held.clocks == 0) count(tracks[k], 0, tracks[k].size(), held);
    report(inputs[k], held, tables);
  }
  return 0;
}
