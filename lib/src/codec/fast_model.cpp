// The fast move model (fast_model.h).
#include "codec/fast_model.h"

#include <cassert>
#include <cstring>
#include <vector>

#include "codec/scores_v3.h"
#include "common/hash.h"

namespace pgnarc::detail::fast {

namespace {

void pawn_attacks_by_side(Bitboard pawns, Color c, Bitboard out[2]) {
  const Bitboard not_a = ~file_bb(0), not_h = ~file_bb(7);
  if (c == kWhite) {
    out[0] = (pawns & not_a) << 7;
    out[1] = (pawns & not_h) << 9;
  } else {
    out[0] = (pawns & not_a) >> 9;
    out[1] = (pawns & not_h) >> 7;
  }
}

void knight_attacks_by_jump(Bitboard knights, Bitboard out[8]) {
  const Bitboard not_a = ~file_bb(0), not_h = ~file_bb(7);
  const Bitboard not_ab = ~(file_bb(0) | file_bb(1)), not_gh = ~(file_bb(6) | file_bb(7));
  out[0] = (knights & not_h) << 17;
  out[1] = (knights & not_a) << 15;
  out[2] = (knights & not_gh) << 10;
  out[3] = (knights & not_ab) << 6;
  out[4] = (knights & not_a) >> 17;
  out[5] = (knights & not_h) >> 15;
  out[6] = (knights & not_ab) >> 10;
  out[7] = (knights & not_gh) >> 6;
}

int wing_of(Square king) { return king == kNoSquare ? 1 : file_of(king) < 3 ? 0 : file_of(king) < 5 ? 1 : 2; }

}  // namespace

template <class Sliders>
void compute_facts(const Position& pos, const History& history, Facts& f) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.occupied();
  f.us = us;
  f.flip = us == kWhite ? 0 : 56;
  f.occ = occ;
  int material = 0;
  for (Color c : {kWhite, kBlack})
    material += popcount(pos.pieces(c, kKnight)) + popcount(pos.pieces(c, kBishop)) +
                2 * popcount(pos.pieces(c, kRook)) + 4 * popcount(pos.pieces(c, kQueen));
  const int move = pos.fullmove_number();
  f.phase = material >= 20 && move <= 10   ? 0
            : material >= 20 && move <= 20 ? 1
            : material >= 16               ? 2
            : material >= 8                ? 3
                                           : 4;
  f.our_king = pos.king_square(us);
  f.their_king = pos.king_square(them);
  Bitboard pawn_att[2][2], knight_att[2][8];
  for (Color c : {kWhite, kBlack}) {
    pawn_attacks_by_side(pos.pieces(c, kPawn), c, pawn_att[c]);
    knight_attacks_by_jump(pos.pieces(c, kKnight), knight_att[c]);
  }
  Bitboard by_type[7] = {};
  by_type[kPawn] = pawn_att[them][0] | pawn_att[them][1];
  for (Bitboard a : knight_att[them]) by_type[kKnight] |= a;
  for (int t = kBishop; t <= kKing; ++t)
    for (Bitboard b = pos.pieces(them, static_cast<PieceType>(t)); b;)
      by_type[t] |= model::piece_attacks<Sliders>(T, static_cast<PieceType>(t), them, pop_lsb(b), occ);
  f.their_attacks = by_type[kPawn] | by_type[kKnight] | by_type[kBishop] | by_type[kRook] | by_type[kQueen] |
                    by_type[kKing];
  f.attacked_lower[kNoPieceType] = 0;
  f.attacked_lower[kPawn] = 0;
  f.attacked_lower[kKnight] = f.attacked_lower[kBishop] = by_type[kPawn];
  f.attacked_lower[kRook] = by_type[kPawn] | by_type[kKnight] | by_type[kBishop];
  f.attacked_lower[kQueen] = f.attacked_lower[kRook] | by_type[kRook];
  f.attacked_lower[kKing] = f.their_attacks;
  Bitboard once = 0, twice = 0;
  auto add = [&](Bitboard a) {
    twice |= once & a;
    once |= a;
  };
  add(pawn_att[us][0]);
  add(pawn_att[us][1]);
  for (Bitboard a : knight_att[us]) add(a);
  for (int t = kBishop; t <= kKing; ++t)
    for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)); b;)
      add(model::piece_attacks<Sliders>(T, static_cast<PieceType>(t), us, pop_lsb(b), occ));
  f.our_once = once;
  f.our_twice = twice;
  f.in_check = f.our_king != kNoSquare && (f.their_attacks >> f.our_king & 1);
  const Square k = f.their_king;
  f.discoverers = 0;
  for (Bitboard& c : f.check_squares) c = 0;
  if (k != kNoSquare) {
    f.check_squares[kPawn] = T.pawn[them][k];
    f.check_squares[kKnight] = T.knight[k];
    f.check_squares[kBishop] = Sliders::bishop(T, k, occ);
    f.check_squares[kRook] = Sliders::rook(T, k, occ);
    f.check_squares[kQueen] = f.check_squares[kBishop] | f.check_squares[kRook];
    const Bitboard rq = pos.pieces(us, kRook) | pos.pieces(us, kQueen);
    const Bitboard bq = pos.pieces(us, kBishop) | pos.pieces(us, kQueen);
    for (Bitboard s = (T.rook_rays[k] & rq) | (T.bishop_rays[k] & bq); s;) {
      const Bitboard between = T.between[k][pop_lsb(s)] & occ;
      if (between && !more_than_one(between)) f.discoverers |= between & pos.pieces(us);
    }
  }
  const Bitboard their_pieces = pos.pieces(them) & ~pos.pieces(them, kKing);
  f.undefended = their_pieces & ~f.their_attacks;
  f.higher[kQueen] = f.higher[kKing] = 0;
  f.higher[kRook] = pos.pieces(them, kQueen);
  f.higher[kKnight] = f.higher[kBishop] = f.higher[kRook] | pos.pieces(them, kRook);
  f.higher[kPawn] = f.higher[kKnight] | pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  f.higher[kNoPieceType] = f.higher[kPawn] | pos.pieces(them, kPawn);
  f.last_to = history.last_to;
  f.our_last_from = history.our_last_from;
  f.our_last_to = history.our_last_to;
  f.last_captured = history.last_captured;
  f.last_type = history.last_type;
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  {
    const Bitboard pushed = (them == kWhite ? their_pawns << 8 : their_pawns >> 8) & ~occ;
    const Bitboard kicks = them == kWhite ? ((pushed << 7) & ~file_bb(7)) | ((pushed << 9) & ~file_bb(0))
                                          : ((pushed >> 9) & ~file_bb(7)) | ((pushed >> 7) & ~file_bb(0));
    f.pawn_kicks = kicks & ~by_type[kPawn];
  }
  f.last_attacks = 0;
  if (history.last_to != kNoSquare) {
    const Piece p = pos.piece_on(history.last_to);
    if (p != kNoPiece && color_of(p) == them)
      f.last_attacks = model::piece_attacks<Sliders>(T, type_of(p), them, history.last_to, occ);
  }
  {
    // The squares behind an enemy pawn (from its side), on its file or a next one.
    Bitboard behind = their_pawns;
    if (us == kWhite) {
      for (int i = 0; i < 3; ++i) behind |= behind >> (8 << i);
      behind >>= 8;
    } else {
      for (int i = 0; i < 3; ++i) behind |= behind << (8 << i);
      behind <<= 8;
    }
    f.pawn_span = behind | ((behind & ~file_bb(0)) >> 1) | ((behind & ~file_bb(7)) << 1);
  }
  {
    // Our two most valuable pieces en prise: attacked by a piece worth less, or attacked and
    // not defended; queens first, then rooks, minors, pawns, each type by square.
    static constexpr int kClassOfType[7] = {0, 1, 2, 2, 3, 4, 0};
    int n = 0;
    f.hanging_square[0] = f.hanging_square[1] = kNoSquare;
    f.hanging_class[0] = f.hanging_class[1] = 0;
    for (int t = kQueen; t >= kPawn && n < 2; --t)
      for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)) & (f.attacked_lower[t] | (f.their_attacks & ~once));
           b && n < 2; ++n) {
        f.hanging_square[n] = pop_lsb(b);
        f.hanging_class[n] = kClassOfType[t];
      }
  }
  f.their_wing = wing_of(f.their_king);
  f.our_wing = wing_of(f.our_king);
  f.their_queens = pos.pieces(them, kQueen);
  f.their_rooks = pos.pieces(them, kRook);
  f.their_minors = pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  f.castle_rooks = 0;
  for (CastleSide side : {kKingSide, kQueenSide})
    if (const Square r = pos.castling_rook(us, side); r != kNoSquare) f.castle_rooks |= bb(r);
}

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
  compute_facts<Sliders>(pos, history, f);
  int slots[kMaxLegalMoves + 1];
  int* const score = slots + 1;
  if (weights == kWeights.data()) {
    static const CombinedTable table(kWeights.data());
    CombinedSink sink{weights, table.sum.data(), slots, score};
    enumerate_features<Sliders>(pos, t, f, sink);
    sink.flush();
  } else {
    PlainSink sink{weights, offsets_of(f), slots, score};
    enumerate_features<Sliders>(pos, t, f, sink);
    sink.flush();
  }
#if PGNARC_HAVE_V3
  if constexpr (kV3) return model::frequencies_of_scores_v3(score, t.total, freq);
#endif
  return model::frequencies_of_scores(score, t.total, freq);
}

}  // namespace

#if PGNARC_HAVE_V3
namespace {
struct PextSliders {
  PGNARC_V3_TARGET static Bitboard bishop(const AttackTables& T, Square s, Bitboard occ) {
    return pext_bishop_attacks(T, s, occ);
  }
  PGNARC_V3_TARGET static Bitboard rook(const AttackTables& T, Square s, Bitboard occ) {
    return pext_rook_attacks(T, s, occ);
  }
};
}  // namespace

PGNARC_V3_TARGET __attribute__((flatten)) std::uint32_t model_frequencies_v3(const Position& pos, const PieceTargets& t,
                                                                       const History& history, std::uint32_t* freq,
                                                                       const std::int8_t* weights) {
  return frequencies_with<PextSliders, true>(pos, t, history, freq, weights);
}
#endif

std::uint32_t model_frequencies_base(const Position& pos, const PieceTargets& t, const History& history,
                                     std::uint32_t* freq, const std::int8_t* weights) {
  return frequencies_with<model::LineSliders>(pos, t, history, freq, weights);
}

template void compute_facts<model::LineSliders>(const Position&, const History&, Facts&);

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
  compute_facts<model::LineSliders>(pos, history, f);
  int slots[kMaxLegalMoves + 1];
  int* const score = slots + 1;
  PlainSink sink{weights, offsets_of(f), slots, score};
  enumerate_features<model::LineSliders>(pos, t, f, sink);
  sink.flush();
  return model::frequencies_of_scores(score, t.total, freq);
}

// ---- The opening book.

namespace {

// What identifies a position for the book: its pieces, side to move, castling rights and
// en passant square (compared byte for byte; a hash only picks the slot).
struct BookKey {
  Bitboard by_type[6];
  Bitboard white;
  std::uint8_t side, ep;
  std::uint8_t castle_rook[4];
  std::uint8_t pad[2];
};
static_assert(sizeof(BookKey) == 64);

BookKey book_key(const Position& pos) {
  BookKey k;
  std::memset(&k, 0, sizeof k);
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

std::uint64_t hash_of(const BookKey& k) {
  return hash64(std::string_view(reinterpret_cast<const char*>(&k), sizeof k));
}

// The book read from its bytes (7.8.1), its nodes in an open-addressed table by position.
class Book {
 public:
  explicit Book(std::span<const std::uint8_t> bytes) {
    read(bytes);
    std::size_t slots = 16;
    while (slots < nodes_.size() * 2) slots *= 2;
    slot_of_.assign(slots, -1);
    mask_ = slots - 1;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      std::size_t s = hash_of(keys_[i]) & mask_;
      while (slot_of_[s] >= 0) s = (s + 1) & mask_;
      slot_of_[s] = static_cast<std::int32_t>(i);
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      nodes_[i].entries = std::span<const BookEntry>(entries_.data() + first_[i], nodes_[i].entries.size());
  }

  const BookNode* find(const Position& pos) const {
    const BookKey k = book_key(pos);
    for (std::size_t s = hash_of(k) & mask_;; s = (s + 1) & mask_) {
      const std::int32_t i = slot_of_[s];
      if (i < 0) return nullptr;
      if (std::memcmp(&keys_[static_cast<std::size_t>(i)], &k, sizeof k) == 0) return &nodes_[static_cast<std::size_t>(i)];
    }
  }

 private:
  std::vector<BookKey> keys_;
  std::vector<BookNode> nodes_;
  std::vector<std::size_t> first_;
  std::vector<BookEntry> entries_;
  std::vector<std::int32_t> slot_of_;
  std::size_t mask_ = 0;

  // The bytes: the start position's node, depth first; a node is its entry count (varint),
  // then per entry its move index (one byte) and count * 2 + "its child node follows" (varint),
  // each entry's child node (where it follows) right after that entry.
  void read(std::span<const std::uint8_t> bytes) {
    std::size_t at = 0;
    auto varint = [&]() {
      std::uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        assert(at < bytes.size());
        const std::uint8_t b = bytes[at++];
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
      }
    };
    if (bytes.empty()) return;
    read_node(bytes, at, Position(), varint);
    assert(at == bytes.size());
  }

  template <class Varint>
  void read_node(std::span<const std::uint8_t> bytes, std::size_t& at, const Position& pos, Varint& varint) {
    const std::size_t count = varint();
    const std::size_t id = nodes_.size();
    keys_.push_back(book_key(pos));
    first_.push_back(entries_.size());
    nodes_.push_back(BookNode{});
    // A node's entries are read first into a local list (its children's entries come between
    // them in the bytes), then stored together.
    std::vector<BookEntry> own;
    std::uint64_t games = 0;
    for (std::size_t e = 0; e < count; ++e) {
      const std::uint8_t index = bytes[at++];
      const std::uint64_t v = varint();
      own.push_back(BookEntry{index, static_cast<std::uint32_t>(v >> 1)});
      games += v >> 1;
      if (v & 1) {
        PieceTargets t;
        generate_targets(pos, t);
        assert(index < t.total);
        Position next = pos;
        next.play(move_at_index(pos, t, index));
        read_node(bytes, at, next, varint);
      }
    }
    first_[id] = entries_.size();
    entries_.insert(entries_.end(), own.begin(), own.end());
    nodes_[id].entries = std::span<const BookEntry>(static_cast<const BookEntry*>(nullptr), count);
    nodes_[id].games = games;
  }
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
