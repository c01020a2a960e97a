// pgnarc-train --model fast: the fast model's weights (lib/src/codec/fast_model.h), fitted as the
// move model's (train_common.h), and its opening book, counted from the fitted games and checked
// by reading its bytes back (format specification 7.8); reports held-out bits per ply.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codec/fast_model.h"
#include "train_common.h"

namespace pgnarc::train {
namespace {

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

}  // namespace


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

}  // namespace pgnarc::train
