// model_dump: what the library's move model makes of the positions of some lines of play, printed
// for tests/reference/spec_model.py, a reference of the model written from the specification
// alone, to recompute and compare (the format of the dump is described there).
//
// For each position of each line it prints the FEN, the model's history (7.6.1), the ply number,
// the end frequency and total of the position's symbols as an unannotated line would code them
// (7.1, model coder), and each legal move in canonical order with its frequency and its features.
// The lines are the main lines of PGN files, and random playouts from a few start positions with
// a fixed seed, which reach what games rarely do: Chess960 castling, promotions with and without
// capture, en passant, null moves (some in check, so that a king can be captured and go
// missing).
//
// Usage: model_dump [--games-per-file N] [--playouts N] [--plies N] [--seed S] PATH...
// PATH is a PGN file or a directory, whose *.pgn files are read in name order; a file's games
// with errors (unknown variants, illegal moves) are skipped.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "codec/entropy/move_coder.h"
#include "codec/model/move_model.h"
#include "pgnarc/pgn.h"
#include "main_lines.h"
#include "rules/movegen.h"

namespace {

using namespace pgnarc;
using namespace pgnarc::codec;

using Line = test::MainLine;

// Random lines of `plies` plies from `fens` (each start in turn): a null move at 12% of the
// plies (in check too), and where a side has no legal move a null move if it has no king or at
// one time in two, else the line ends; captures are preferred at 40% of the plies. std::mt19937
// and `%` only, so that the lines are the same on every platform.
std::vector<Line> playouts(const std::vector<std::string>& fens, int count, int plies, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Line> out;
  for (int g = 0; g < count; ++g) {
    const std::string& fen = fens[static_cast<std::size_t>(g) % fens.size()];
    auto start = Position::from_fen(fen);
    if (!start) {
      std::fprintf(stderr, "model_dump: %s: %s\n", fen.c_str(), start.error().to_string().c_str());
      std::exit(2);
    }
    Line line{"playout " + std::to_string(g) + " from " + fen, *start, {}};
    Position pos = *start;
    // One playout in 9 three times as long, past the last entry of the end hazard (ply 255).
    const int length = g % 9 == 0 ? 3 * plies : plies;
    for (int ply = 0; ply < length; ++ply) {
      const MoveList ml = pos.legal_moves();
      bool null = rng() % 100 < 12;
      if (ml.size == 0) {
        if (pos.pieces(pos.side_to_move(), kKing) && rng() % 2) break;
        null = true;
      }
      if (null) {
        line.moves.push_back(Move::null());
        pos.play_null();
        continue;
      }
      int pick = static_cast<int>(rng() % static_cast<unsigned>(ml.size));
      if (rng() % 10 < 4) {
        std::vector<int> captures;
        for (int i = 0; i < ml.size; ++i)
          if (pos.piece_on(ml[i].to()) != kNoPiece && ml[i].kind() != Move::kCastling) captures.push_back(i);
        if (!captures.empty()) pick = captures[rng() % captures.size()];
      }
      line.moves.push_back(ml[pick]);
      pos.play(ml[pick]);
    }
    out.push_back(std::move(line));
  }
  return out;
}

// Collects each move's features: its piece's, then its own.
struct FeatureSink {
  std::vector<int> piece_features;
  std::vector<std::vector<int>> moves;
  void piece(Square) { piece_features.clear(); }
  void piece_feature(int k) { piece_features.push_back(k); }
  void move(int) { moves.push_back(piece_features); }
  void move_feature(int k) { moves.back().push_back(k); }
};

std::string uci(Move m) {
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.kind() == Move::kPromotion) s += "nbrq"[m.promotion() - kKnight];
  return s;
}

std::string history_text(const model::History& h) {
  std::string s;
  if (h.last_from == kNoSquare) {
    s = "-";
  } else {
    s = square_name(h.last_from) + "," + square_name(h.last_to) + "," + rules::kPieceLetters[h.last_type] + "," +
        (h.last_captured ? "1" : "0");
  }
  if (h.our_last_from == kNoSquare) {
    s += " -";
  } else {
    s += " " + square_name(h.our_last_from) + "," + square_name(h.our_last_to) + "," +
         (h.our_last_captured ? "1" : "0");
  }
  return s;
}

struct Counts {
  std::uint64_t lines = 0, positions = 0, moves = 0;
};

// Prints one position of a line (ply `p`, history `h`).
void dump_position(const Position& pos, const model::History& h, std::uint64_t p, Counts& counts) {
  rules::PieceTargets t;
  rules::generate_targets(pos, t);
  PlyFrequencies freq;
  ply_frequencies(codec::MoveCoder::kModel, true, p, pos, t, h, freq);
  const MoveList ml = pos.legal_moves();
  FeatureSink sink;
  if (t.total > 0) {
    model::PlyFacts f;
    model::compute_facts(pos, h, f);
    model::enumerate_features(pos, t, f, sink);
  }
  if (ml.size != t.total || static_cast<int>(sink.moves.size()) != t.total) {
    std::fprintf(stderr, "model_dump: %s: %d legal moves, %d targets, %zu feature lists\n", pos.fen().c_str(),
                 ml.size, t.total, sink.moves.size());
    std::exit(2);
  }
  std::printf("P %llu %s\nH %s\nE %u %u\n", static_cast<unsigned long long>(p), pos.fen().c_str(),
              history_text(h).c_str(), freq.end, freq.total);
  for (int i = 0; i < ml.size; ++i) {
    std::printf("M %s %u", uci(ml[i]).c_str(), freq.freq[i]);
    for (int k : sink.moves[static_cast<std::size_t>(i)]) std::printf(" %d", k);
    std::printf("\n");
  }
  ++counts.positions;
  counts.moves += static_cast<std::uint64_t>(ml.size);
}

void dump_line(const Line& line, Counts& counts) {
  std::printf("L %s\n", line.label.c_str());
  ++counts.lines;
  model::LineState at{line.start, {}};
  std::uint64_t p = 0;
  for (Move m : line.moves) {
    dump_position(at.pos, at.history, p, counts);
    if (m.is_null()) {
      std::printf("N\n");
      at.play_null();
    } else {
      std::printf("A %d\n", at.pos.move_index(m));
      at.play(m);
    }
    ++p;
  }
  dump_position(at.pos, at.history, p, counts);  // where the line ends: its end symbol
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t games_per_file = 1000000;
  int playout_count = 0, plies = 100;
  unsigned seed = 1;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--games-per-file") games_per_file = std::strtoull(argv[++i], nullptr, 10);
    else if (i + 1 < argc && a == "--playouts") playout_count = std::atoi(argv[++i]);
    else if (i + 1 < argc && a == "--plies") plies = std::atoi(argv[++i]);
    else if (i + 1 < argc && a == "--seed") seed = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (a.starts_with("--")) {
      std::fprintf(stderr, "usage: model_dump [--games-per-file N] [--playouts N] [--plies N] [--seed S] PATH...\n");
      return 2;
    } else paths.push_back(a);
  }
  std::vector<Line> lines;
  for (const std::string& path : paths) {
    std::vector<std::string> files;
    if (std::filesystem::is_directory(path)) {
      for (const auto& e : std::filesystem::directory_iterator(path))
        if (e.is_regular_file() && e.path().extension() == ".pgn") files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(path);
    }
    for (const std::string& f : files)
      if (!test::read_main_lines("model_dump", f, lines, games_per_file)) return 2;
  }
  // Start positions for the playouts: the standard one; Chess960 castling with the king on b1
  // (queen-side castling moves it right), on f1 between its rooks, on g1 (king-side castling
  // leaves it there); promotions, with captures, for both sides; pawns only, for double steps
  // and en passant; an en passant capture the king's rank forbids; a middlegame with both
  // castlings, en passant and pins (the perft position "kiwipete").
  const std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rkrnbbqn/pppppppp/8/8/8/8/PPPPPPPP/RKRNBBQN w KQkq - 0 1",
      "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
      "qnnrbbkr/pppppppp/8/8/8/8/PPPPPPPP/QNNRBBKR w KQkq - 0 1",
      "r1n1b1q1/1PPPPPPP/8/2k5/5K2/8/ppppppp1/1R1N1B1Q w - - 0 1",
      "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
      "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  };
  for (Line& l : playouts(fens, playout_count, plies, seed)) lines.push_back(std::move(l));
  Counts counts;
  for (const Line& l : lines) dump_line(l, counts);
  std::printf("Z %llu %llu %llu\n", static_cast<unsigned long long>(counts.lines),
              static_cast<unsigned long long>(counts.positions), static_cast<unsigned long long>(counts.moves));
  return std::fflush(stdout) == 0 ? 0 : 2;
}
