// The fast move model (fast_model.h).
#include "codec/model/fast_model.h"

#include <cassert>
#include <cstring>
#include <vector>

#include "codec/model/model_facts.h"
#include "codec/model/scores_v3.h"
#include "common/hash.h"

namespace pgnarc::codec::fast {

using namespace pgnarc::rules;
using common::hash64;

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
                w[kTo + ph * kTypes * 64 + k] + w[kToByTheirWing + tw * kTypes * 64 + k] + w[kToByOurWing + ow * kTypes * 64 + k]);
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


// The part of model::compute_facts that the fast model reads (fast_model.h), the same values:
// the fields it does not read are left unset.
template <class Sliders>
PGNARC_ALWAYS_INLINE void compute_facts(const Position& pos, const History& history, Facts& f) {
  const AttackTables& T = attack_tables();
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occ = pos.occupied();
  f.us = us;
  f.flip = us == kWhite ? 0 : 56;
  f.phase = model::facts_impl::phase(pos);
  f.our_king = pos.king_square(us);
  f.their_king = pos.king_square(them);

  // Pawns and knights attack by shifts of their bitboards, one per direction: no square is
  // attacked twice from one direction, so counting attacks direction by direction counts them
  // piece by piece. Sliders and kings one by one.
  Bitboard pawn_dirs[2][2], knight_dirs[2][8];
  for (Color c : {kWhite, kBlack}) {
    model::facts_impl::pawn_attack_directions(pos.pieces(c, kPawn), c, pawn_dirs[c]);
    model::facts_impl::knight_attack_directions(pos.pieces(c, kKnight), knight_dirs[c]);
  }
  const Bitboard their_pawn_attacks = pawn_dirs[them][0] | pawn_dirs[them][1];
  Bitboard their_knight_attacks = 0, their_bishop_attacks = 0, their_rook_attacks = 0, their_queen_attacks = 0;
  for (Bitboard a : knight_dirs[them]) their_knight_attacks |= a;
  for (Bitboard b = pos.pieces(them, kBishop); b;) their_bishop_attacks |= Sliders::bishop(T, pop_lsb(b), occ);
  for (Bitboard b = pos.pieces(them, kRook); b;) their_rook_attacks |= Sliders::rook(T, pop_lsb(b), occ);
  for (Bitboard b = pos.pieces(them, kQueen); b;) {
    const Square s = pop_lsb(b);
    their_queen_attacks |= Sliders::bishop(T, s, occ) | Sliders::rook(T, s, occ);
  }
  Bitboard their_king_attacks = 0;
  for (Bitboard b = pos.pieces(them, kKing); b;) their_king_attacks |= T.king[pop_lsb(b)];
  f.their_attacks = their_pawn_attacks | their_knight_attacks | their_bishop_attacks | their_rook_attacks |
                    their_queen_attacks | their_king_attacks;
  f.lower[kPawn] = 0;
  f.lower[kKnight] = f.lower[kBishop] = their_pawn_attacks;
  f.lower[kRook] = their_pawn_attacks | their_knight_attacks | their_bishop_attacks;
  f.lower[kQueen] = f.lower[kRook] | their_rook_attacks;
  f.lower[kKing] = f.their_attacks;

  Bitboard once = 0, twice = 0;
  const auto add_ours = [&](Bitboard a) {
    twice |= once & a;
    once |= a;
  };
  add_ours(pawn_dirs[us][0]);
  add_ours(pawn_dirs[us][1]);
  for (Bitboard a : knight_dirs[us]) add_ours(a);
  for (Bitboard b = pos.pieces(us, kBishop); b;) add_ours(Sliders::bishop(T, pop_lsb(b), occ));
  for (Bitboard b = pos.pieces(us, kRook); b;) add_ours(Sliders::rook(T, pop_lsb(b), occ));
  for (Bitboard b = pos.pieces(us, kQueen); b;) {
    const Square s = pop_lsb(b);
    add_ours(Sliders::bishop(T, s, occ) | Sliders::rook(T, s, occ));
  }
  for (Bitboard b = pos.pieces(us, kKing); b;) add_ours(T.king[pop_lsb(b)]);
  f.our_once = once;
  f.our_twice = twice;
  f.in_check = f.our_king != kNoSquare && (f.their_attacks >> f.our_king & 1);

  model::facts_impl::check_facts<Sliders>(T, pos, occ, f);

  f.undefended = (pos.pieces(them) & ~pos.pieces(them, kKing)) & ~f.their_attacks;
  f.their_queens = pos.pieces(them, kQueen);
  f.their_rooks = pos.pieces(them, kRook);
  f.their_minors = pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  // Their pieces worth more than each type (P 1, N B 3, R 5, Q 9).
  f.higher[kQueen] = f.higher[kKing] = 0;
  f.higher[kRook] = f.their_queens;
  f.higher[kKnight] = f.higher[kBishop] = f.their_queens | f.their_rooks;
  f.higher[kPawn] = f.higher[kKnight] | f.their_minors;

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
    f.pawn_kicks = kicks & ~their_pawn_attacks;
  }
  f.last_attacks = 0;
  if (history.last_to != kNoSquare) {
    const Piece p = pos.piece_on(history.last_to);
    if (p != kNoPiece && color_of(p) == them)
      f.last_attacks = model::piece_attacks<Sliders>(T, type_of(p), them, history.last_to, occ);
  }
  {
    // The squares behind their pawns on their files, seen from our side, and the files next to
    // them: our pawn outside them is passed.
    const Bitboard behind = model::facts_impl::behind_pawns(their_pawns, us);
    f.pawn_span = behind | ((behind & ~file_bb(0)) >> 1) | ((behind & ~file_bb(7)) << 1);
  }
  {
    static constexpr int kClass[7] = {0, 1, 2, 2, 3, 4, 0};
    int n = 0;
    f.en_prise[0] = f.en_prise[1] = kNoSquare;
    f.en_prise_class[0] = f.en_prise_class[1] = 0;
    for (int t = kQueen; t >= kPawn && n < 2; --t)
      for (Bitboard b = pos.pieces(us, static_cast<PieceType>(t)) & (f.lower[t] | (f.their_attacks & ~once));
           b && n < 2; ++n) {
        f.en_prise[n] = pop_lsb(b);
        f.en_prise_class[n] = kClass[t];
      }
  }
  const auto wing = [](Square king) { return king == kNoSquare ? 1 : file_of(king) < 3 ? 0 : file_of(king) < 5 ? 1 : 2; };
  f.wing_base = model::kToByTheirWing + wing(f.their_king) * kTypes * 64;
  f.own_wing_base = model::kToByOurWing + wing(f.our_king) * kTypes * 64;
  f.castle_rooks = 0;
  for (CastleSide side : {kKingSide, kQueenSide})
    if (const Square r = pos.castling_rook(us, side); r != kNoSquare) f.castle_rooks |= bb(r);
}

template <class Sliders, bool kV3 = false>
std::uint32_t frequencies_with(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq,
                               const std::int8_t* weights) {
  Facts f;
  fast::compute_facts<Sliders>(pos, history, f);
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
  struct Moves {
    Position pos;
    PieceTargets t;
    int count() const { return t.total; }
    Position after(int index) const {
      Position next = pos;
      next.play(move_at_index(pos, t, index));
      return next;
    }
  };
  return model::read_book_nodes(bytes, Position(), [](const Position& pos) {
    Moves m{pos, {}};
    generate_targets(pos, m.t);
    return m;
  }, visit);
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
    if (!ok || keys.empty()) return;
    std::size_t slots = 16;
    while (slots < keys.size() * 2) slots *= 2;
    slots_.assign(slots, Slot{});
    mask_ = slots - 1;
    filter_.assign(kFilterBits / 64, 0);
    // Nodes in the order the bytes start them: a position written again keeps its first node.
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const BookKey& k = keys[i];
      const std::uint32_t b = filter_bit(k.white | k.by_type[0] | k.by_type[1] | k.by_type[2] | k.by_type[3] |
                                             k.by_type[4] | k.by_type[5],
                                         k.side);
      filter_[b >> 6] |= std::uint64_t{1} << (b & 63);
      std::size_t s = BookKeyHash{}(k) & mask_;
      while (slots_[s].used && !(slots_[s].key == k)) s = (s + 1) & mask_;
      if (slots_[s].used) continue;
      std::uint64_t games = 0;
      for (std::size_t e = 0; e < spans[i].second; ++e) games += entries_[spans[i].first + e].count;
      slots_[s] = Slot{k, BookNode{std::span<const BookEntry>(entries_.data() + spans[i].first, spans[i].second), games},
                       true};
    }
  }

  const BookNode* find(const Position& pos) const {
    if (slots_.empty()) return nullptr;
    // Most positions are in no node: their occupancy and side to move rule them out first.
    const std::uint32_t b = filter_bit(pos.occupied(), static_cast<std::uint8_t>(pos.side_to_move()));
    if (!(filter_[b >> 6] >> (b & 63) & 1)) return nullptr;
    const BookKey k = book_key(pos);
    for (std::size_t s = BookKeyHash{}(k) & mask_;; s = (s + 1) & mask_) {
      const Slot& slot = slots_[s];
      if (!slot.used) return nullptr;
      if (slot.key == k) return &slot.node;
    }
  }

 private:
  // A position's key beside its node, so that a lookup reads one place.
  struct Slot {
    BookKey key{};
    BookNode node{};
    bool used = false;
  };
  std::vector<BookEntry> entries_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  // A bit for each node's occupancy and side to move (a set bit may be another position's).
  static constexpr int kFilterShift = 47;
  static constexpr std::uint32_t kFilterBits = std::uint32_t{1} << (64 - kFilterShift);
  static std::uint32_t filter_bit(Bitboard occupied, std::uint8_t side) {
    return static_cast<std::uint32_t>(((occupied ^ side) * 0x9E3779B97F4A7C15ull) >> kFilterShift);
  }
  std::vector<std::uint64_t> filter_;
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

std::uint32_t frequencies(const Position& pos, const PieceTargets& t, const History& history, std::uint32_t* freq) {
  if (const BookNode* node = book_node(pos)) return book_frequencies(*node, t.total, freq);
  return model_frequencies(pos, t, history, freq);
}

}  // namespace pgnarc::codec::fast
