// Xiangqi legal move generation in canonical order, check detection, playing moves and perft.
//
// The board is a plain array of 90 squares; every geometric question (where a piece may step,
// which square blocks it, how far a ray runs) is a lookup in tables computed at compile time.
// Legality is decided per move by playing it on a scratch copy of the board and asking whether
// the mover's general is attacked, only along the lines the move changes (see Generator::safe).
#include <algorithm>
#include <bit>

#include "rules/xiangqi.h"

namespace pgnarc::rules::xiangqi {

namespace {

// Up to eight squares a piece reaches from a square, ascending, each with the square that must
// be empty for it (the elephant's eye, the horse's leg; unused for the other pieces).
struct Steps {
  std::uint8_t size = 0;
  std::uint8_t to[8] = {};
  std::uint8_t via[8] = {};
};

// The four rays, in the order that lists their squares' indices from lowest to highest when the
// first two are walked far to near and the last two near to far.
inline constexpr int kRayStep[4] = {-kFiles, -1, 1, kFiles};

constexpr bool on_board(int file, int rank) {
  return file >= 0 && file < kFiles && rank >= 0 && rank < kRanks;
}
constexpr bool in_palace(int file, int rank) {
  return file >= 3 && file <= 5 && ((rank >= 0 && rank <= 2) || (rank >= 7 && rank < kRanks));
}
// Red's half is ranks 0-4, Black's 5-9.
constexpr Side half_of(int rank) { return rank <= 4 ? kRed : kBlack; }

struct Tables {
  std::uint8_t file[kSquares] = {};
  std::uint8_t rank[kSquares] = {};
  std::uint8_t ray_length[kSquares][4] = {};  // squares from the square to the edge, per ray
  Steps general[kSquares];                    // within the palace the square is in
  Steps advisor[kSquares];                    // within the palace the square is in
  Steps elephant[kSquares];                   // within the half the square is in; via = eye
  Steps horse[kSquares];                      // via = leg
  Steps soldier[2][kSquares];                 // per side
  // Attackers: the squares from which a horse, or a soldier of a side, attacks the square.
  Steps horse_from[kSquares];                 // via = the leg of that horse's move
  Steps soldier_from[2][kSquares];
  // How a square relates to a general's square (see Relation): [general][square].
  std::uint8_t relation[kSquares][kSquares] = {};
  std::uint8_t always_test[kSquares] = {};  // kSelf everywhere: the row used in check
};

// What a move from or to a square can change about the attacks on a general (Generator::safe):
// bits 0-2 the ray from the general that holds the square, plus 1 (0: on none of its lines);
// kLeg: a diagonal neighbour, the leg of the horses that attack it through there; kSelf: the
// general's own square.
enum Relation : std::uint8_t { kRayMask = 7, kLeg = 8, kSelf = 16 };

constexpr void add_step(Steps& s, int to, int via) {
  // Insertion keeps `to` ascending, whatever order the geometry below produces.
  int i = s.size++;
  for (; i > 0 && s.to[i - 1] > to; --i) {
    s.to[i] = s.to[i - 1];
    s.via[i] = s.via[i - 1];
  }
  s.to[i] = static_cast<std::uint8_t>(to);
  s.via[i] = static_cast<std::uint8_t>(via);
}

constexpr Tables build_tables() {
  Tables t;
  constexpr int kOrtho[4][2] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
  constexpr int kDiag[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
  for (int sq = 0; sq < kSquares; ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    t.file[sq] = static_cast<std::uint8_t>(f);
    t.rank[sq] = static_cast<std::uint8_t>(r);
    t.ray_length[sq][0] = static_cast<std::uint8_t>(r);
    t.ray_length[sq][1] = static_cast<std::uint8_t>(f);
    t.ray_length[sq][2] = static_cast<std::uint8_t>(kFiles - 1 - f);
    t.ray_length[sq][3] = static_cast<std::uint8_t>(kRanks - 1 - r);
    for (const auto& d : kOrtho) {
      const int tf = f + d[0], tr = r + d[1];
      if (in_palace(f, r) && in_palace(tf, tr) && half_of(tr) == half_of(r))
        add_step(t.general[sq], make_square(tf, tr), 0);
      // Horse: the leg is the orthogonal neighbour, then either diagonal step outwards.
      if (!on_board(tf, tr)) continue;
      for (int side = -1; side <= 1; side += 2) {
        const int hf = tf + d[0] + (d[0] == 0 ? side : 0), hr = tr + d[1] + (d[1] == 0 ? side : 0);
        if (on_board(hf, hr)) {
          add_step(t.horse[sq], make_square(hf, hr), make_square(tf, tr));
          // Seen from the target: the horse on `sq` reaches it over the leg `tf, tr`.
          add_step(t.horse_from[make_square(hf, hr)], sq, make_square(tf, tr));
        }
      }
    }
    for (const auto& d : kDiag) {
      const int af = f + d[0], ar = r + d[1];
      if (in_palace(f, r) && in_palace(af, ar) && half_of(ar) == half_of(r))
        add_step(t.advisor[sq], make_square(af, ar), 0);
      const int ef = f + 2 * d[0], er = r + 2 * d[1];
      if (on_board(ef, er) && half_of(er) == half_of(r))
        add_step(t.elephant[sq], make_square(ef, er), make_square(af, ar));
    }
    for (int s = 0; s < 2; ++s) {
      const int forward = s == kRed ? 1 : -1;
      const bool crossed = half_of(r) != static_cast<Side>(s);
      if (on_board(f, r + forward)) add_step(t.soldier[s][sq], make_square(f, r + forward), 0);
      for (int side = -1; side <= 1 && crossed; side += 2)
        if (on_board(f + side, r)) add_step(t.soldier[s][sq], make_square(f + side, r), 0);
    }
  }
  for (int s = 0; s < 2; ++s)
    for (int sq = 0; sq < kSquares; ++sq)
      for (int i = 0; i < t.soldier[s][sq].size; ++i)
        add_step(t.soldier_from[s][t.soldier[s][sq].to[i]], sq, 0);
  for (int k = 0; k < kSquares; ++k) {
    t.always_test[k] = kSelf;
    for (int sq = 0; sq < kSquares; ++sq) {
      const int df = file_of(sq) - file_of(k), dr = rank_of(sq) - rank_of(k);
      int r = 0;
      if (sq == k) r = kSelf;
      else if (df == 0) r = 1 + (sq < k ? 0 : 3);
      else if (dr == 0) r = 1 + (sq < k ? 1 : 2);
      else if (df * df == 1 && dr * dr == 1) r = kLeg;
      t.relation[k][sq] = static_cast<std::uint8_t>(r);
    }
  }
  return t;
}

inline constexpr Tables kTables = build_tables();

// The bound of kMaxMoves: with its starting pieces a side has at most 17 moves per chariot and
// per cannon (a cannon's capture on a ray needs a screen, an occupied square it cannot go to), 8 per
// horse, 4 per elephant, advisor and general and 3 per soldier.
static_assert(2 * 17 + 2 * 17 + 2 * 8 + 2 * 4 + 2 * 4 + 4 + 5 * 3 <= kMaxMoves);

// Attacks on a general on `king` by the pieces of `by` on board `b`. Advisors and elephants
// never attack a general: they stay in their own palace or half, and the enemy general in its
// own palace. Generals attack along an open file (the "flying general"); they could attack one
// step sideways only inside one palace, which two generals never share.

// Along ray `dir` (an index of kRayStep): a chariot (or, on the file, the general) as the first
// piece, or a cannon as the second.
bool ray_attacked(const Piece* b, int king, int dir, Side by) {
  const int step = kRayStep[dir], n = kTables.ray_length[king][dir];
  int i = 0, s = king;
  while (i < n && b[s += step] == kNoPiece) ++i;
  if (i == n) return false;
  const Piece first = b[s];
  if (first == make_piece(by, kChariot) || (first == make_piece(by, kGeneral) && (dir == 0 || dir == 3)))
    return true;
  for (++i; i < n; ++i)
    if (b[s += step] != kNoPiece) return b[s] == make_piece(by, kCannon);
  return false;
}

// By a horse whose leg is `leg` (any square to test every horse).
bool horse_attacked(const Piece* b, int king, int leg, Side by) {
  const Steps& h = kTables.horse_from[king];
  for (int i = 0; i < h.size; ++i)
    if (b[h.to[i]] == make_piece(by, kHorse) && b[h.via[i]] == kNoPiece && (leg < 0 || h.via[i] == leg))
      return true;
  return false;
}

bool general_attacked(const Piece* b, int king, Side by) {
  for (int dir = 0; dir < 4; ++dir)
    if (ray_attacked(b, king, dir, by)) return true;
  if (horse_attacked(b, king, -1, by)) return true;
  const Steps& p = kTables.soldier_from[by][king];
  for (int i = 0; i < p.size; ++i)
    if (b[p.to[i]] == make_piece(by, kSoldier)) return true;
  return false;
}

// Generates the legal moves of one position into a MoveList, in ascending (from, to) order:
// pieces are visited by ascending square, and each piece's targets are produced ascending
// (the step tables are sorted; rays below the piece are walked far to near, rays above near
// to far). Nothing is sorted afterwards.
class Generator {
 public:
  Generator(const Position& pos, Move* out)
      : b_(pos.board()),
        us_(pos.side_to_move()),
        them_(opponent(us_)),
        king_(pos.general_square(us_)),
        relation_(general_attacked(b_.data(), king_, them_) ? kTables.always_test : kTables.relation[king_]),
        squares_(pos.squares_of(us_)),
        out_(out),
        begin_(out) {}

  int run() {
    const Tables& T = kTables;
    for (int word = 0; word < 2; ++word)
      for (std::uint64_t left = squares_[word]; left; left &= left - 1)
        piece(T, 64 * word + std::countr_zero(left));
    return static_cast<int>(out_ - begin_);
  }
  // The legal moves of the piece on `from` alone (none where it is not the side to move's).
  int run_from(int from) {
    if (b_[from] != kNoPiece && side_of(b_[from]) == us_) piece(kTables, from);
    return static_cast<int>(out_ - begin_);
  }

 private:
  void piece(const Tables& T, int from) {
    leave_ = kUnknown;
    switch (type_of(b_[from])) {
      case kGeneral: steps(from, T.general[from], false); break;
      case kAdvisor: steps(from, T.advisor[from], false); break;
      case kElephant: steps(from, T.elephant[from], true); break;
      case kHorse: steps(from, T.horse[from], true); break;
      case kChariot: slides(from, false); break;
      case kCannon: slides(from, true); break;
      case kSoldier: steps(from, T.soldier[us_][from], false); break;
      case kNoPieceType: break;
    }
  }

  // Whether moving the piece on `from` to `to` leaves the mover's general unattacked. When the
  // general is neither in check nor moving, an attack after the move must pass through `from`
  // or `to`, the only squares that change (and `to` only gains a piece of ours): along the
  // general's ray through either (uncovering a chariot, a cannon or the other general, or
  // becoming a cannon's screen), or by a horse whose leg `from` was. Most moves touch neither
  // and need no test; the others test just those.
  bool safe(int from, int to) {
    const int rf = relation_[from], rt = relation_[to] & kRayMask;
    return (rf | rt) == 0 || test(from, to, rf, rt);
  }

  bool test(int from, int to, int rf, int rt) {
    const Piece moved = b_[from], captured = b_[to];
    b_[to] = moved;
    b_[from] = kNoPiece;
    const Piece* b = b_.data();
    bool attacked;
    if (rf & kSelf) {
      attacked = general_attacked(b, from == king_ ? to : king_, them_);
    } else {
      const int from_ray = (rf & kRayMask) - 1, to_ray = rt - 1;
      attacked = (from_ray >= 0 && leaves_attacked(b, from_ray, to_ray)) ||
                 (to_ray >= 0 && to_ray != from_ray && ray_attacked(b, king_, to_ray, them_)) ||
                 ((rf & kLeg) && horse_attacked(b, king_, from, them_));
    }
    b_[from] = moved;
    b_[to] = captured;
    return !attacked;
  }

  // Whether the ray `from_ray` is attacked on board `b`, where the piece has left it for `to`
  // (on `to_ray`). Unless it moved along the ray, that depends on the piece's square alone: one
  // answer serves all its moves off the ray.
  bool leaves_attacked(const Piece* b, int from_ray, int to_ray) {
    if (to_ray == from_ray) return ray_attacked(b, king_, from_ray, them_);
    if (leave_ == kUnknown) leave_ = ray_attacked(b, king_, from_ray, them_) ? kYes : kNo;
    return leave_ == kYes;
  }

  void add(int from, int to) {
    if (safe(from, to)) *out_++ = Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
  }

  bool enemy(int s) const { return b_[s] != kNoPiece && side_of(b_[s]) == them_; }

  // `blocked` says whether `via` must be empty.
  void steps(int from, const Steps& st, bool blocked) {
    for (int i = 0; i < st.size; ++i) {
      const int to = st.to[i];
      if (blocked && b_[st.via[i]] != kNoPiece) continue;
      if (b_[to] != kNoPiece && side_of(b_[to]) == us_) continue;
      add(from, to);
    }
  }

  // A chariot (or cannon) on `from`: the empty squares up to the first piece of each ray, and
  // the capture of the first piece (a chariot) or of the piece after it (a cannon) when it is
  // an enemy.
  void slides(int from, bool cannon) {
    for (int dir = 0; dir < 4; ++dir) {
      const int step = kRayStep[dir], n = kTables.ray_length[from][dir];
      int i = 0, s = from + step;  // s: the first square of the ray that is not empty
      for (; i < n && b_[s] == kNoPiece; ++i) s += step;
      int capture = -1;
      if (i < n) {
        if (!cannon) {
          if (enemy(s)) capture = s;
        } else {
          int j = i + 1, c = s + step;
          for (; j < n && b_[c] == kNoPiece; ++j) c += step;
          if (j < n && enemy(c)) capture = c;
        }
      }
      if (step < 0) {  // lower squares first: the capture, then the empty squares far to near
        if (capture >= 0) add(from, capture);
        for (int t = s - step; t != from; t -= step) add(from, t);
      } else {
        for (int t = from + step; t != s; t += step) add(from, t);
        if (capture >= 0) add(from, capture);
      }
    }
  }

  std::array<Piece, kSquares> b_;  // the position's board; `safe` plays moves on it and back
  const Side us_, them_;
  const int king_;
  // The relation of each square to the general (all kSelf when it is in check: every move is
  // then tested in full).
  const std::uint8_t* const relation_;
  const std::array<std::uint64_t, 2>& squares_;
  enum Cached : std::uint8_t { kUnknown, kNo, kYes };
  Cached leave_ = kUnknown;  // leaves_attacked's answer for the piece being generated
  Move* out_;
  Move* const begin_;
};

}  // namespace

bool Position::in_check() const { return general_attacked(board_.data(), general_[side_], opponent(side_)); }

void Position::play(Move m) {
  const Piece moved = board_[m.from];
  const bool capture = board_[m.to] != kNoPiece;
  board_[m.to] = moved;
  board_[m.from] = kNoPiece;
  if (type_of(moved) == kGeneral) general_[side_] = m.to;
  const auto bit = [](int s) { return std::uint64_t{1} << (s & 63); };
  squares_[side_][m.from >> 6] &= ~bit(m.from);
  squares_[side_][m.to >> 6] |= bit(m.to);
  squares_[opponent(side_)][m.to >> 6] &= ~bit(m.to);
  // The clocks stop at 65535, the most a FEN gives them (from_fen).
  halfmove_ = capture ? 0 : static_cast<std::uint16_t>(halfmove_ + (halfmove_ < 65535));
  fullmove_ = static_cast<std::uint16_t>(fullmove_ + (side_ == kBlack && fullmove_ < 65535));
  side_ = opponent(side_);
}

int legal_moves(const Position& pos, MoveList& out) {
  out.size = Generator(pos, out.moves.data()).run();
  return out.size;
}

bool is_legal(const Position& pos, Move m) {
  if (m.from >= kSquares || m.to >= kSquares) return false;
  // The moving piece's legal moves alone: a legal move is one of them, in the same order.
  MoveList list;
  list.size = Generator(pos, list.moves.data()).run_from(m.from);
  return std::binary_search(list.begin(), list.end(), m);
}

namespace {

// attacks(), or with `pieces_only` the squares of it that hold a piece.
template <bool pieces_only>
int attacks_of(const std::array<Piece, kSquares>& board, int from, std::uint8_t* out) {
  const Piece p = board[static_cast<std::size_t>(from)];
  int n = 0;
  const auto add = [&](int s) {
    if (!pieces_only || board[static_cast<std::size_t>(s)] != kNoPiece) out[n++] = static_cast<std::uint8_t>(s);
  };
  const auto steps = [&](const Steps& st, bool blocked) {
    for (int i = 0; i < st.size; ++i)
      if (!blocked || board[st.via[i]] == kNoPiece) add(st.to[i]);
  };
  switch (type_of(p)) {
    case kGeneral: steps(kTables.general[from], false); break;
    case kAdvisor: steps(kTables.advisor[from], false); break;
    case kElephant: steps(kTables.elephant[from], true); break;
    case kHorse: steps(kTables.horse[from], true); break;
    case kSoldier: steps(kTables.soldier[side_of(p)][from], false); break;
    case kChariot:
    case kCannon: {
      const bool cannon = type_of(p) == kCannon;
      for (int dir = 0; dir < 4; ++dir) {
        const int step = kRayStep[dir], len = kTables.ray_length[from][dir];
        int i = 0, s = from;
        if (cannon) {  // past the screen, if there is one
          while (i < len && board[static_cast<std::size_t>(s += step)] == kNoPiece) ++i;
          ++i;
        }
        for (; i < len; ++i) {
          add(s += step);
          if (board[static_cast<std::size_t>(s)] != kNoPiece) break;
        }
      }
      break;
    }
    case kNoPieceType: break;
  }
  return n;
}

}  // namespace

int attacks(const std::array<Piece, kSquares>& board, int from, std::uint8_t* out) {
  return attacks_of<false>(board, from, out);
}

int attacked_pieces(const std::array<Piece, kSquares>& board, int from, std::uint8_t* out) {
  return attacks_of<true>(board, from, out);
}

bool general_attacked(const std::array<Piece, kSquares>& board, int general, Side by) {
  return general_attacked(board.data(), general, by);
}

bool uncovers_attack(const std::array<Piece, kSquares>& after, int general, Side by, int from, int to) {
  const std::uint8_t* relation = kTables.relation[general];
  const int from_ray = (relation[from] & kRayMask) - 1, to_ray = (relation[to] & kRayMask) - 1;
  return (from_ray >= 0 && ray_attacked(after.data(), general, from_ray, by)) ||
         (to_ray >= 0 && to_ray != from_ray && ray_attacked(after.data(), general, to_ray, by)) ||
         ((relation[from] & kLeg) && horse_attacked(after.data(), general, from, by));
}

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList list;
  legal_moves(pos, list);
  if (depth == 1) return static_cast<std::uint64_t>(list.size);
  std::uint64_t nodes = 0;
  for (const Move m : list) nodes += perft(pos.after(m), depth - 1);
  return nodes;
}

}  // namespace pgnarc::rules::xiangqi
