// pgnarc-bench: in-process measurements for tools/dev/bench (which runs the peers and prints the
// tables). Each subcommand prints one line of key=value figures.
//
//   pgnarc-bench parse FILE     read and validate every game (SAN resolved against the board)
//   pgnarc-bench codec FILE [fast|max|uniform]   encode and decode every game in memory (moves
//                               and annotations) with that move coder (max unless given),
//                               checking each decodes to the game it came from; and the main
//                               lines replayed by move generation alone (the bound on decoding)
//   pgnarc-bench bound FILE     the log2 bound alone: log2(legal moves) summed over every move of
//                               every readable game (variations too), per ply (null moves too)
//   pgnarc-bench access ARCHIVE PLAYER   latency of reading one random game (median, p99, warm),
//                               and finding a player's games with the index and by a full scan
//   pgnarc-bench columns ARCHIVE   what each tag column costs: per key, its tags, the codings its
//                               blocks chose, its bodies' bytes and their bytes compressed alone
//                               (zstd level 9), summed over the blocks (one line per key)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include <cmath>
#include <vector>

#include <algorithm>
#include <random>

#include "pgnarc/pgnarc.h"
#include "scan_oracle.h"
#include "codec/codec.h"
#include "pgnarc/pgn.h"
#include "rules/movegen.h"
#include "common/zstd_frame.h"
#include "container/archive_file.h"
#include "container/block_reader.h"
#include <map>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// This thread's CPU time. On a shared virtual machine the wall clock also counts the time the
// host ran someone else (steal); CPU time does not, so it is the steadier measure of the code.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// Counts what the reader reports, without building games.
struct Counter : pgnarc::PgnVisitor {
  unsigned long long plies = 0, games = 0, bad = 0;
  void move(const pgnarc::Position&, pgnarc::Move, pgnarc::SourcePos) override { ++plies; }
  void end_game(std::string_view) override { ++games; }
  void game_error(const pgnarc::Error&, std::string_view) override { ++bad; }
};

int cmd_parse(const char* path) {
  const auto t0 = std::chrono::steady_clock::now();
  auto reader = pgnarc::PgnReader::open(path);
  if (!reader) {
    std::fprintf(stderr, "%s\n", reader.error().to_string().c_str());
    return 4;
  }
  Counter c;
  for (;;) {
    auto got = (*reader)->next(c);
    if (!got) {
      std::fprintf(stderr, "%s\n", got.error().to_string().c_str());
      return 4;
    }
    if (!*got) break;
  }
  std::printf("bytes=%llu games=%llu unreadable=%llu plies=%llu seconds=%.6f\n",
              static_cast<unsigned long long>((*reader)->bytes_read()), c.games + c.bad, c.bad, c.plies,
              seconds_since(t0));
  return 0;
}

// The entropy bound computed independently of the codec: sum over main-line and variation
// plies of log2(number of legal moves), from the rules core's move list.
double log2_bound(const pgnarc::Game& g) {
  auto start = pgnarc::start_position(g);
  pgnarc::GameWalker w(*start);
  double bits = 0;
  for (const auto& e : g.events) {
    if (e.type == pgnarc::GameEvent::kMove) bits += std::log2(w.current().legal_moves().size);
    (void)w.step(e);
  }
  return bits;
}

// The readable games of `path` (false if it cannot be opened); `unreadable` counts the others.
bool read_games(const char* path, std::vector<pgnarc::Game>& games, unsigned long long& unreadable) {
  auto reader = pgnarc::PgnReader::open(path);
  if (!reader) {
    std::fprintf(stderr, "%s\n", reader.error().to_string().c_str());
    return false;
  }
  pgnarc::GameBuilder b;
  for (;;) {
    auto got = (*reader)->next(b);
    if (!got || !*got) break;
    if (b.ok()) games.push_back(std::move(b.game()));
    else ++unreadable;
  }
  return true;
}

int cmd_bound(const char* path) {
  std::vector<pgnarc::Game> games;
  unsigned long long unreadable = 0;
  if (!read_games(path, games, unreadable)) return 4;
  double bound = 0;
  unsigned long long plies = 0;
  for (const auto& g : games) {
    bound += log2_bound(g);
    for (const auto& e : g.events)
      plies += e.type == pgnarc::GameEvent::kMove || e.type == pgnarc::GameEvent::kNullMove;
  }
  std::printf("games=%zu plies=%llu log2_bound_bits_per_ply=%.4f\n", games.size(), plies,
              plies ? bound / static_cast<double>(plies) : 0.0);
  return 0;
}

int cmd_codec(const char* path, pgnarc::codec::MoveCoder coder) {
  std::vector<pgnarc::Game> games;
  unsigned long long unreadable = 0;
  if (!read_games(path, games, unreadable)) return 4;
  // Moves only: the same games with comments, NAGs and variations taken out.
  std::vector<pgnarc::Game> bare = games;
  for (auto& g : bare) {
    std::vector<pgnarc::GameEvent> keep;
    int depth = 0;
    for (auto& e : g.events) {
      if (e.type == pgnarc::GameEvent::kBeginVariation) ++depth;
      if (depth == 0 && e.type == pgnarc::GameEvent::kMove) keep.push_back(e);
      if (e.type == pgnarc::GameEvent::kEndVariation) --depth;
    }
    g.events = std::move(keep);
    g.prelude.clear();
    g.epilogue.clear();
  }
  double bound = 0;
  for (const auto& g : bare) bound += log2_bound(g);

  // Each of encode and decode is timed over kPasses passes and the median pass is reported, so
  // that one slow pass (another process, a page fault storm) does not decide the figure.
  constexpr int kPasses = 5;
  pgnarc::codec::CodecStreams streams;
  pgnarc::codec::CodecStats stats;
  std::vector<double> encode_times, decode_times, encode_cpu, decode_cpu;
  for (int pass = 0; pass < kPasses; ++pass) {
    streams = {};
    streams.coder = coder;
    stats = {};
    const double c0 = thread_cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& g : bare)
      if (auto st = pgnarc::codec::encode_game(g, streams, &stats); !st) {
        std::fprintf(stderr, "encode: %s\n", st.error().to_string().c_str());
        return 3;
      }
    encode_times.push_back(seconds_since(t0));
    encode_cpu.push_back(thread_cpu_seconds() - c0);
  }
  std::vector<pgnarc::ArchiveGame> decoded;
  for (int pass = 0; pass < kPasses; ++pass) {
    pgnarc::codec::CodecCursor cur{streams.moves, streams.structure, streams.texts, streams.raw, coder};
    std::vector<std::vector<pgnarc::Tag>> tags;  // copied outside the timing: a reader hands them over
    for (const auto& g : bare) tags.push_back(g.tags);
    decoded.clear();
    decoded.reserve(bare.size());
    const double c0 = thread_cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < bare.size(); ++i) {
      auto d = pgnarc::codec::decode_game(cur, std::move(tags[i]));
      if (!d) {
        std::fprintf(stderr, "decode: %s\n", d.error().to_string().c_str());
        return 3;
      }
      decoded.push_back(std::move(*d));
    }
    decode_times.push_back(seconds_since(t0));
    decode_cpu.push_back(thread_cpu_seconds() - c0);
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double t_encode = median(encode_times), t_decode = median(decode_times);
  const double c_encode = median(encode_cpu), c_decode = median(decode_cpu);
  for (std::size_t i = 0; i < bare.size(); ++i)
    if (!(decoded[i].game == bare[i])) {
      std::fprintf(stderr, "game %zu does not round-trip\n", i + 1);
      return 3;
    }
  // Whole games (annotations included) must round-trip too.
  pgnarc::codec::CodecStreams full;
  full.coder = coder;
  for (const auto& g : games)
    if (auto st = pgnarc::codec::encode_game(g, full); !st) return 3;
  pgnarc::codec::CodecCursor fc{full.moves, full.structure, full.texts, full.raw, coder};
  for (const auto& g : games) {
    auto d = pgnarc::codec::decode_game(fc, g.tags);
    if (!d || !(d->game == g)) {
      std::fprintf(stderr, "annotated game does not round-trip\n");
      return 3;
    }
  }
  // Move generation alone: each main line replayed from move indices found beforehand, by the
  // generator, the move selection and Position::play that decoding runs per ply, without the
  // integer's digits, events or SAN hints. Decoding cannot be faster than this.
  std::vector<std::pair<pgnarc::Position, std::vector<std::uint8_t>>> lines;
  std::uint64_t replay_plies = 0, want_sum = 0;
  for (const auto& g : bare) {
    // (A variant's moves are not the generator's of standard chess timed here.)
    auto start = pgnarc::start_position(g);
    if (!start || start->variant() != pgnarc::Variant::kStandard) continue;
    pgnarc::Position pos = *start;
    pgnarc::rules::PieceTargets t;
    std::vector<std::uint8_t> indices;
    for (const auto& e : g.events) {
      pgnarc::rules::generate_targets(pos, t);
      const int index = pgnarc::rules::index_in(pos, t, e.move);
      if (index < 0) return 3;  // encode_game accepted it: the generator must agree
      indices.push_back(static_cast<std::uint8_t>(index));
      want_sum += e.move.from() * 64u + e.move.to();
      pos.play(e.move);
    }
    replay_plies += indices.size();
    lines.emplace_back(*start, std::move(indices));
  }
  std::vector<double> movegen_times, movegen_cpu;
  for (int pass = 0; pass < kPasses; ++pass) {
    std::uint64_t sum = 0;
    pgnarc::rules::PieceTargets t;
    const double c0 = thread_cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& [start, indices] : lines) {
      pgnarc::Position pos = start;
      for (const std::uint8_t index : indices) {
        pgnarc::rules::generate_targets(pos, t);
        const pgnarc::Move m = pgnarc::rules::move_at_index(pos, t, index);
        sum += m.from() * 64u + m.to();
        pos.play(m);
      }
    }
    movegen_times.push_back(seconds_since(t0));
    movegen_cpu.push_back(thread_cpu_seconds() - c0);
    if (sum != want_sum) {
      std::fprintf(stderr, "move generation replay differs from the games\n");
      return 3;
    }
  }
  const double plies = static_cast<double>(stats.plies);
  std::printf("games=%zu unreadable=%llu plies=%llu move_bytes=%zu bits_per_ply=%.4f log2_bound_bits_per_ply=%.4f "
              "bytes_per_game=%.2f encode_seconds=%.6f decode_seconds=%.6f encode_plies_per_s=%.0f "
              "decode_plies_per_s=%.0f encode_cpu_plies_per_s=%.0f decode_cpu_plies_per_s=%.0f "
              "annotated_structure_bytes=%zu annotated_text_bytes=%zu movegen_plies_per_s=%.0f "
              "movegen_cpu_plies_per_s=%.0f\n",
              games.size(), unreadable, static_cast<unsigned long long>(stats.plies), streams.moves.size(),
              streams.moves.size() * 8.0 / plies, bound / plies, streams.moves.size() / double(games.size()),
              t_encode, t_decode, plies / t_encode, plies / t_decode, plies / c_encode, plies / c_decode, full.structure.size(), full.texts.size(),
              replay_plies / median(movegen_times), replay_plies / median(movegen_cpu));
  return 0;
}

int cmd_access(const char* path, const char* player) {
  auto a = pgnarc::Archive::open(path);
  if (!a) {
    std::fprintf(stderr, "%s\n", a.error().to_string().c_str());
    return 3;
  }
  const std::uint64_t n = (*a)->game_count();
  if (n == 0) return 2;
  if (auto st = (*a)->verify(); !st) return 3;  // warms the page cache
  std::mt19937_64 rng(7);
  std::vector<double> us;
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t g = rng() % n;
    const auto t0 = std::chrono::steady_clock::now();
    auto game = (*a)->read_game(g);
    us.push_back(seconds_since(t0) * 1e6);
    if (!game) return 3;
  }
  std::sort(us.begin(), us.end());
  pgnarc::Query q;
  q.player = player;
  // The first indexed search reads the name chunks it needs (cached for the next searches); the
  // figure is the median of the five after it.
  auto t0 = std::chrono::steady_clock::now();
  auto fast = (*a)->find(q);
  const double t_first = seconds_since(t0);
  std::vector<double> again;
  for (int i = 0; i < 5; ++i) {
    t0 = std::chrono::steady_clock::now();
    fast = (*a)->find(q);
    again.push_back(seconds_since(t0));
  }
  std::sort(again.begin(), again.end());
  const double t_index = again[again.size() / 2];
  t0 = std::chrono::steady_clock::now();
  auto slow = pgnarc::test::find_by_scan(**a, q);  // every game's tags, no index
  const double t_scan = seconds_since(t0);
  if (!fast || !slow || *fast != *slow) return 3;
  std::printf("games=%llu read_median_us=%.1f read_p99_us=%.1f found=%zu find_index_ms=%.3f find_scan_ms=%.3f "
              "find_index_first_ms=%.3f\n",
              static_cast<unsigned long long>(n), us[us.size() / 2], us[us.size() * 99 / 100], fast->size(),
              t_index * 1e3, t_scan * 1e3, t_first * 1e3);
  return 0;
}

// The columns of every block's tags section (spec 9.4), summed by key.
int cmd_columns(const char* path) {
  using namespace pgnarc::container;
  auto opened = ArchiveFile::open(path);
  if (!opened) {
    std::fprintf(stderr, "%s\n", opened.error().to_string().c_str());
    return 4;
  }
  ArchiveFile& f = **opened;
  if (auto st = f.need_all(); !st) return 3;
  struct Cost {
    unsigned long long tags = 0, body = 0, packed = 0;
    std::map<int, unsigned> codings;
  };
  std::map<std::string, Cost> by_key;
  DecodedBlock block;
  block.dictionaries = &f.dictionaries();
  block.players = f.players();
  std::string bytes;
  for (std::uint32_t b = 0; b < f.blocks(); ++b) {
    if (!f.read_block(b, bytes) || !decode_block(bytes, f.where(b), block, BlockParts::kTagsOnly)) return 3;
    std::vector<TagColumnView> columns;
    if (!read_tag_columns(block.sections[kTags], block.games, f.where(b), columns)) return 3;
    for (const TagColumnView& col : columns) {
      Cost& c = by_key[std::string(col.key)];
      c.tags += col.tags;
      c.body += col.body.size();
      c.packed += col.body.size() < 16 ? col.body.size() : pgnarc::common::compress_frame(col.body, 9).size();
      ++c.codings[col.coding];
    }
  }
  for (const auto& [key, c] : by_key) {
    std::string codings;
    for (const auto& [coding, blocks] : c.codings)
      codings += (codings.empty() ? "" : ",") + std::to_string(coding) + "x" + std::to_string(blocks);
    std::printf("key=%s tags=%llu codings=%s body=%llu packed=%llu packed_per_tag=%.2f\n", key.c_str(), c.tags,
                codings.c_str(), c.body, c.packed, c.tags ? static_cast<double>(c.packed) / c.tags : 0.0);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "parse") == 0) return cmd_parse(argv[2]);
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "codec") == 0) {
    const std::string coder = argc == 4 ? argv[3] : "max";
    if (coder != "fast" && coder != "max" && coder != "uniform") {
      std::fprintf(stderr, "pgnarc-bench codec: the move coder is fast, max or uniform, not %s\n", coder.c_str());
      return 2;
    }
    return cmd_codec(argv[2], coder == "fast"      ? pgnarc::codec::MoveCoder::kFast
                              : coder == "uniform" ? pgnarc::codec::MoveCoder::kUniform
                                                   : pgnarc::codec::MoveCoder::kModel);
  }
  if (argc == 3 && std::strcmp(argv[1], "bound") == 0) return cmd_bound(argv[2]);
  if (argc == 4 && std::strcmp(argv[1], "access") == 0) return cmd_access(argv[2], argv[3]);
  if (argc == 3 && std::strcmp(argv[1], "columns") == 0) return cmd_columns(argv[2]);
  std::fprintf(stderr, "usage: pgnarc-bench parse|codec|bound FILE, pgnarc-bench access ARCHIVE PLAYER, "
                       "pgnarc-bench columns ARCHIVE\n");
  return 1;
}
