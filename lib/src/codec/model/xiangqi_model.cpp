#include "codec/model/xiangqi_model.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "codec/model/move_model.h"

namespace pgnarc::codec::model::xq {

namespace {

// The value of a piece of each type (7.9): general (never compared) 0, advisor 2, elephant 2,
// horse 4, chariot 9, cannon 4, soldier 1.
constexpr int kValue[8] = {0, 0, 2, 2, 4, 9, 4, 1};

// The king-step distance between two squares: the larger of their file and rank distances.
constexpr auto kDistance = [] {
  std::array<std::array<std::uint8_t, kSquares>, kSquares> t{};
  for (int a = 0; a < kSquares; ++a)
    for (int b = 0; b < kSquares; ++b) {
      const int df = rx::file_of(a) - rx::file_of(b), dr = rx::rank_of(a) - rx::rank_of(b);
      t[a][b] = static_cast<std::uint8_t>(std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr));
    }
  return t;
}();
int distance(int a, int b) { return kDistance[a][b]; }

// The occupied squares of each rank (bit f: file f) and file (bit r: rank r), for the squares a
// chariot or cannon attacks without walking its rays.
struct Lines {
  std::uint16_t rank[rx::kRanks] = {}, file[rx::kFiles] = {};
  explicit Lines(const rx::Position& pos) {
    for (int side = 0; side < 2; ++side)
      for (int word = 0; word < 2; ++word)
        for (std::uint64_t left = pos.squares_of(static_cast<rx::Side>(side))[word]; left; left &= left - 1) {
          const int s = 64 * word + std::countr_zero(left);
          rank[rx::rank_of(s)] |= static_cast<std::uint16_t>(1u << rx::file_of(s));
          file[rx::file_of(s)] |= static_cast<std::uint16_t>(1u << rx::rank_of(s));
        }
  }
};

// What a chariot (or, with `cannon`, a cannon) at index `at` of a line of `size` squares, whose
// occupied indexes are `line`, attacks along it each way: the indexes from lo[k] to hi[k] (none
// where lo[k] > hi[k]), the last of them, where piece[k], a piece (k = 0 upwards, 1 downwards).
// A chariot's run to the first piece; a cannon's from past the first piece (its screen) to the
// next.
struct Runs {
  int lo[2], hi[2];
  bool piece[2];
  Runs(unsigned line, int at, int size, bool cannon) {
    unsigned up = line >> (at + 1);
    lo[0] = at + 1;
    if (cannon) {
      lo[0] = up ? at + 2 + std::countr_zero(up) : size;
      up = up ? line >> lo[0] : 0;
    }
    piece[0] = up != 0;
    hi[0] = up ? lo[0] + std::countr_zero(up) : size - 1;
    unsigned down = line & ((1u << at) - 1);
    hi[1] = at - 1;
    if (cannon) {
      hi[1] = down ? std::bit_width(down) - 2 : -1;
      down = hi[1] >= 0 ? line & ((1u << (hi[1] + 1)) - 1) : 0;
    }
    piece[1] = down != 0;
    lo[1] = down ? std::bit_width(down) - 1 : 0;
  }
};

// How many pieces of each side attack each square: count[side][square] (rx::attacks's squares).
void attack_counts(const rx::Position& pos, const Lines& lines, std::uint8_t (&count)[2][kSquares]) {
  std::fill(&count[0][0], &count[0][0] + 2 * kSquares, std::uint8_t{0});
  std::uint8_t squares[24];
  const auto& board = pos.board();
  for (int side = 0; side < 2; ++side)
    for (int word = 0; word < 2; ++word)
      for (std::uint64_t left = pos.squares_of(static_cast<rx::Side>(side))[word]; left; left &= left - 1) {
        const int s = 64 * word + std::countr_zero(left);
        const int type = rx::type_of(board[s]);
        if (type != rx::kChariot && type != rx::kCannon) {
          const int n = rx::attacks(board, s, squares);
          for (int i = 0; i < n; ++i) ++count[side][squares[i]];
          continue;
        }
        const int f = rx::file_of(s), r = rx::rank_of(s);
        const Runs along_rank(lines.rank[r], f, rx::kFiles, type == rx::kCannon);
        const Runs along_file(lines.file[f], r, rx::kRanks, type == rx::kCannon);
        for (int k = 0; k < 2; ++k) {
          for (int q = along_rank.lo[k]; q <= along_rank.hi[k]; ++q) ++count[side][rx::make_square(q, r)];
          for (int q = along_file.lo[k]; q <= along_file.hi[k]; ++q) ++count[side][rx::make_square(f, q)];
        }
      }
}

// rx::attacked_pieces of the piece that moved from `from` to `to` on `after` (the board after the
// move; `lines`: before it), in another order.
int attacked_after(const std::array<rx::Piece, kSquares>& after, const Lines& lines, int from, int to,
                   std::uint8_t* out) {
  const int type = rx::type_of(after[to]);
  if (type != rx::kChariot && type != rx::kCannon) return rx::attacked_pieces(after, to, out);
  const bool cannon = type == rx::kCannon;
  const int f = rx::file_of(to), r = rx::rank_of(to);
  // The lines through `to` after the move: `from` emptied (`to`'s own bit is never read).
  unsigned rank = lines.rank[r], file = lines.file[f];
  if (rx::rank_of(from) == r) rank &= ~(1u << rx::file_of(from));
  if (rx::file_of(from) == f) file &= ~(1u << rx::rank_of(from));
  const Runs along_rank(rank, f, rx::kFiles, cannon), along_file(file, r, rx::kRanks, cannon);
  int n = 0;
  for (int k = 0; k < 2; ++k) {
    if (along_rank.piece[k]) out[n++] = static_cast<std::uint8_t>(rx::make_square(k ? along_rank.lo[k] : along_rank.hi[k], r));
    if (along_file.piece[k]) out[n++] = static_cast<std::uint8_t>(rx::make_square(f, k ? along_file.lo[k] : along_file.hi[k]));
  }
  return n;
}

// Gives each feature of each legal move list[i] to add(i, feature), the features of a move in
// turn: xiangqi_features keeps them, frequencies sums their weights.
template <class Add>
void each_feature(const rx::Position& pos, const rx::MoveList& list, const History& h, Add&& add) {
  const rx::Side us = pos.side_to_move(), them = rx::opponent(us);
  // rel(s): the square as the side to move sees the board, Black's turned half a turn.
  const auto rel = [us](int s) { return us == rx::kRed ? s : kSquares - 1 - s; };
  std::array<rx::Piece, kSquares> board = pos.board();
  int pieces = 0;
  for (rx::Piece p : board) pieces += p != rx::kNoPiece;
  const int phase = pieces >= 28 ? 0 : pieces >= 18 ? 1 : 2;
  const Lines lines(pos);
  std::uint8_t count[2][kSquares];
  attack_counts(pos, lines, count);
  const int their_general = pos.general_square(them);
  const bool in_check = pos.in_check();
  const int reply = h.last_kind < 0 ? 7 : h.last_kind;
  std::uint8_t squares[24];
  for (int i = 0; i < list.size; ++i) {
    const rx::Move m = list[i];
    const auto f = [&add, i](int feature) { add(i, feature); };
    const rx::Piece piece = board[m.from], victim = board[m.to];
    const int kind = rx::type_of(piece) - 1;
    // Whether the piece attacks its to-square before it moves: a legal move goes where the piece
    // attacks (attacks() holds every capture the piece could make), but for a cannon's move that
    // captures nothing, which stops short of its screen.
    const bool own_to = rx::type_of(piece) != rx::kCannon || victim != rx::kNoPiece;
    f(kTo + (phase * kKinds + kind) * kSquares + rel(m.to));
    f(kFrom + (phase * kKinds + kind) * kSquares + rel(m.from));
    f(kVictim + kind * 8 + (victim == rx::kNoPiece ? 0 : rx::type_of(victim)));
    f(kToSafety + kind * 4 + (count[them][m.to] != 0) * 2 + (count[us][m.to] > own_to));
    f(kFromSafety + kind * 4 + (count[them][m.from] != 0) * 2 + (count[us][m.from] != 0));
    // The move played on the board, for the check and the threat, and taken back.
    board[m.to] = piece;
    board[m.from] = rx::kNoPiece;
    bool check = false;
    int threat = 0;
    const int n = attacked_after(board, lines, m.from, m.to, squares);
    for (int j = 0; j < n; ++j) {
      const rx::Piece p = board[squares[j]];
      if (rx::side_of(p) != them) continue;
      if (rx::type_of(p) == rx::kGeneral) {
        check = true;
        continue;
      }
      if (threat == 1) continue;
      if (kValue[rx::type_of(p)] > kValue[rx::type_of(piece)]) threat = 1;
      else if (count[them][squares[j]] == 0) threat = 2;
    }
    if (!check) check = rx::uncovers_attack(board, their_general, us, m.from, m.to);
    board[m.from] = piece;
    board[m.to] = victim;
    if (check) f(kCheck + kind);
    if (in_check) f(kEvasion + kind);
    if (m.to == h.last_to) f(kRecapture + kind);
    f(kThreat + kind * 3 + threat);
    f(kReply + reply * kKinds + kind);
    if (m.from == h.our_to) {
      f(kMovedLast + kind);
      if (m.to == h.our_from) f(kBack + kind);
    }
    f(kGeneralDistance + kind * 10 + distance(m.to, their_general));
    if (h.last_to >= 0) f(kNearLast + kind * 5 + std::min(distance(m.to, h.last_to), 4));
  }
}

}  // namespace

void xiangqi_features(const rx::Position& pos, const rx::MoveList& list, const History& h, MoveFeatures* out) {
  for (int i = 0; i < list.size; ++i) out[i].n = 0;
  each_feature(pos, list, h, [out](int i, int feature) { out[i].add(feature); });
}

std::uint32_t frequencies(const rx::Position& pos, const rx::MoveList& list, const History& h, std::uint32_t* freq,
                          const std::int8_t* weights) {
  int score[rx::kMaxMoves] = {};
  each_feature(pos, list, h, [&score, weights](int i, int feature) { score[i] += weights[feature]; });
  return frequencies_of_scores(score, list.size, freq);
}

}  // namespace pgnarc::codec::model::xq
