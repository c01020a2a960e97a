// The fast move model (fast_model.h).
#include "codec/fast_model.h"

#include <cassert>
#include <cstring>
#include <vector>

#include "codec/model_facts.h"
#include "codec/scores_v3.h"
#include "common/hash.h"

namespace pgnarc::detail::fast {

namespace {

// The three to-square tables summed, by (phase, their wing, our wing): one lookup a move.
inline constexpr int kCombined = kPhases * 3 * 3 * kTypes * 64;

struct CombinedTable {
  std::vector<std::int16_t> sum;
  explicit CombinedTable(const std::int8_t* w) : sum(kCombined) {
    for (int ph = 0; ph < kPhases; ++ph)
      for (int tw = 0; tw < 3; ++tw)
        for (int ow = 0; ow < 3; ++ow)
          for (int k = 0; k < kTypes * 64; ++k)
            sum[((ph * 3 + tw) * 3 + ow) * kTypes * 64 + k] = static_cast<std::int16_t>(
                w[kTo + ph * kTypes * 64 + k] + w[kToByKing + tw * kTypes * 64 + k] + w[kToByOwnKing + ow * kTypes * 64 + k]);
  }
};

// Scores the moves into score[0 .. n-1] (a move's score goes out when the next begins; slot -1
// takes the first move's empty predecessor).
struct CombinedSink {
  const std::int8_t* w;
  const std::int16_t* combined;
  int* out;
  int* score;
  int base = 0, current = 0;
  void piece(Square) { base = 0; }
  void piece_feature(int k) { base += w[k]; }
  void move(int i) {
    *out = current;
    out = score + i;
    current = base;
  }
  void move_to(int, int c) { current += combined[c]; }
  void move_feature(int k) { current += w[k]; }
  void flush() { *out = current; }
};

// The same scores, feature by feature.
struct PlainSink {
  const std::int8_t* w;
  Offsets o;
  int* out;
  int* score;
  int base = 0, current = 0;
  void piece(Square) { base = 0; }
  void piece_feature(int k) { base += w[k]; }
  void move(int i) {
    *out = current;
    out = score + i;
    current = base;
  }
  void move_to(int k, int) { current += w[k] + w[k + o.wing] + w[k + o.own]; }
  void move_feature(int k) { current += w[k]; }
  void flush() { *out = current; }
};


template <class Sliders, bool kV3 = false>
std::uint32_t frequencies_with(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                               const std::int8_t* weights) {
  Facts f;
  model::compute_facts<Sliders>(pos, history, f);
  int slots[kMaxLegalMoves + 1];
  int* const score = slots + 1;
  if (weights == kWeights.data()) {
    static const CombinedTable table(kWeights.data());
    CombinedSink sink{weights, table.sum.data(), slots, score};
    fast::enumerate_features<Sliders>(pos, t, f, sink);
    sink.flush();
  } else {
    PlainSink sink{weights, offsets_of(f), slots, score};
    fast::enumerate_features<Sliders>(pos, t, f, sink);
    sink.flush();
  }
#if PGNARC_HAVE_V3
  if constexpr (kV3) return model::frequencies_of_scores_v3(score, t.total, freq);
#endif
  return model::frequencies_of_scores(score, t.total, freq);
}

}  // namespace

#if PGNARC_HAVE_V3

PGNARC_V3_TARGET __attribute__((flatten)) std::uint32_t model_frequencies_v3(const Position& pos, const PieceTargets& t,
                                                                       const History& history, std::uint32_t* freq,
                                                                       const std::int8_t* weights) {
  return frequencies_with<model::PextSliders, true>(pos, t, history, freq, weights);
}
#endif

std::uint32_t model_frequencies_base(const Position& pos, const PieceTargets& t, const History& history,
                                     std::uint32_t* freq, const std::int8_t* weights) {
  return frequencies_with<model::LineSliders>(pos, t, history, freq, weights);
}


std::uint32_t model_frequencies(const Position& pos, const PieceTargets& t, const History& history,
                                std::uint32_t* freq, const std::int8_t* weights) {
#if PGNARC_HAVE_V3
  static const bool v3 = v3_generator_supported();
  if (v3) return model_frequencies_v3(pos, t, history, freq, weights);
#endif
  return model_frequencies_base(pos, t, history, freq, weights);
}

std::uint32_t model_frequencies_reference(const Position& pos, const PieceTargets& t, const History& history,
                                          std::uint32_t* freq, const std::int8_t* weights) {
  Facts f;
  model::compute_facts<model::LineSliders>(pos, history, f);
  int slots[kMaxLegalMoves + 1];
  int* const score = slots + 1;
  PlainSink sink{weights, offsets_of(f), slots, score};
  fast::enumerate_features<model::LineSliders>(pos, t, f, sink);
  sink.flush();
  return model::frequencies_of_scores(score, t.total, freq);
}

// ---- The opening book.

BookKey book_key(const Position& pos) {
  BookKey k;
  std::memset(&k, 0, sizeof k);  // the padding too: keys are compared as bytes
  for (int t = kPawn; t <= kKing; ++t)
    k.by_type[t - kPawn] = pos.pieces(kWhite, static_cast<PieceType>(t)) | pos.pieces(kBlack, static_cast<PieceType>(t));
  k.white = pos.pieces(kWhite);
  k.side = static_cast<std::uint8_t>(pos.side_to_move());
  k.ep = static_cast<std::uint8_t>(pos.ep_square());
  k.castle_rook[0] = static_cast<std::uint8_t>(pos.castling_rook(kWhite, kKingSide));
  k.castle_rook[1] = static_cast<std::uint8_t>(pos.castling_rook(kWhite, kQueenSide));
  k.castle_rook[2] = static_cast<std::uint8_t>(pos.castling_rook(kBlack, kKingSide));
  k.castle_rook[3] = static_cast<std::uint8_t>(pos.castling_rook(kBlack, kQueenSide));
  return k;
}

std::size_t BookKeyHash::operator()(const BookKey& k) const {
  return hash64(std::string_view(reinterpret_cast<const char*>(&k), sizeof k));
}

bool read_book(std::span<const std::uint8_t> bytes,
               const std::function<void(const Position&, std::span<const BookEntry>)>& visit) {
  // The nodes in the order the bytes start them (a node before the nodes written among its
  // entries), each handed over once its entries are read.
  struct Node {
    Position pos;
    std::vector<BookEntry> entries;
  };
  std::vector<Node> nodes;
  std::size_t at = 0;
  bool ok = true;
  auto varint = [&]() -> std::uint64_t {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= bytes.size()) return ok = false, 0;
      const std::uint8_t b = bytes[at++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return ok = false, 0;
  };
  auto node = [&](auto&& self, const Position& pos) -> void {
    const std::size_t id = nodes.size();
    nodes.push_back(Node{pos, {}});
    const std::uint64_t count = varint();
    PieceTargets t;
    generate_targets(pos, t);
    for (std::uint64_t e = 0; ok && e < count; ++e) {
      if (at >= bytes.size()) return void(ok = false);
      const int index = bytes[at++];
      const std::uint64_t v = varint();
      if (!ok || index >= t.total || (v >> 1) > 0xFFFFFFFFu) return void(ok = false);
      nodes[id].entries.push_back(BookEntry{static_cast<std::uint8_t>(index), static_cast<std::uint32_t>(v >> 1)});
      if (v & 1) {
        Position next = pos;
        next.play(move_at_index(pos, t, index));
        self(self, next);
      }
    }
  };
  if (!bytes.empty()) node(node, Position());
  if (!ok || at != bytes.size()) return false;
  for (const Node& n : nodes) visit(n.pos, n.entries);
  return true;
}

namespace {

// The book read from its bytes (7.8.1), its nodes in an open-addressed table by position; where
// a position's node is written twice, the one the bytes start first is the one found.
class Book {
 public:
  explicit Book(std::span<const std::uint8_t> bytes) {
    std::vector<BookKey> keys;
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // each node's entries in entries_
    const bool ok = read_book(bytes, [&](const Position& pos, std::span<const BookEntry> entries) {
      keys.push_back(book_key(pos));
      spans.emplace_back(entries_.size(), entries.size());
      entries_.insert(entries_.end(), entries.begin(), entries.end());
    });
    // (The bytes are the library's own, which a test reads to their end.)
    assert(ok);
    if (!ok) return;
    keys_ = std::move(keys);
    nodes_.resize(keys_.size());
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      std::uint64_t games = 0;
      for (std::size_t e = 0; e < spans[i].second; ++e) games += entries_[spans[i].first + e].count;
      nodes_[i] = BookNode{std::span<const BookEntry>(entries_.data() + spans[i].first, spans[i].second), games};
    }
    std::size_t slots = 16;
    while (slots < keys_.size() * 2) slots *= 2;
    slot_of_.assign(slots, -1);
    mask_ = slots - 1;
    // Nodes in the order the bytes start them: a position written again keeps its first node.
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      std::size_t s = BookKeyHash{}(keys_[i]) & mask_;
      while (slot_of_[s] >= 0 && !(keys_[static_cast<std::size_t>(slot_of_[s])] == keys_[i])) s = (s + 1) & mask_;
      if (slot_of_[s] < 0) slot_of_[s] = static_cast<std::int32_t>(i);
    }
  }

  const BookNode* find(const Position& pos) const {
    if (nodes_.empty()) return nullptr;
    const BookKey k = book_key(pos);
    for (std::size_t s = BookKeyHash{}(k) & mask_;; s = (s + 1) & mask_) {
      const std::int32_t i = slot_of_[s];
      if (i < 0) return nullptr;
      if (keys_[static_cast<std::size_t>(i)] == k) return &nodes_[static_cast<std::size_t>(i)];
    }
  }

 private:
  std::vector<BookKey> keys_;
  std::vector<BookNode> nodes_;
  std::vector<BookEntry> entries_;
  std::vector<std::int32_t> slot_of_;
  std::size_t mask_ = 0;
};

const Book& the_book() {
  static const Book book(kBookBytes);
  return book;
}

}  // namespace

const BookNode* book_node(const Position& pos) {
  if (pos.variant() != Variant::kStandard || pos.fullmove_number() > kBookLastMove) return nullptr;
  return the_book().find(pos);
}

std::uint32_t book_frequencies(const BookNode& node, int n, std::uint32_t* freq) {
  // f_i = floor(c_i * 2^16 / (N + 3)) + floor(3 * 2^16 / ((N + 3) * n)) + 1
  const std::uint64_t d = node.games + 3;
  const auto escape = static_cast<std::uint32_t>((std::uint64_t{3} << 16) / (d * static_cast<std::uint64_t>(n)) + 1);
  for (int i = 0; i < n; ++i) freq[i] = escape;
  for (const BookEntry& e : node.entries) freq[e.index] += static_cast<std::uint32_t>((std::uint64_t{e.count} << 16) / d);
  std::uint32_t total = 0;
  for (int i = 0; i < n; ++i) total += freq[i];
  return total;
}

std::uint32_t frequencies(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq) {
  if (const BookNode* node = book_node(pos)) return book_frequencies(*node, t.total, freq);
  return model_frequencies(pos, t, history, freq);
}

}  // namespace pgnarc::detail::fast
