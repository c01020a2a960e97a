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

int distance(int a, int b) {
  return std::max(std::abs(rx::file_of(a) - rx::file_of(b)), std::abs(rx::rank_of(a) - rx::rank_of(b)));
}

// How many pieces of each side attack each square: count[side][square].
void attack_counts(const rx::Position& pos, std::uint8_t (&count)[2][kSquares]) {
  std::fill(&count[0][0], &count[0][0] + 2 * kSquares, std::uint8_t{0});
  std::uint8_t squares[24];
  for (int side = 0; side < 2; ++side)
    for (int word = 0; word < 2; ++word)
      for (std::uint64_t left = pos.squares_of(static_cast<rx::Side>(side))[word]; left; left &= left - 1) {
        const int n = rx::attacks(pos.board(), 64 * word + std::countr_zero(left), squares);
        for (int i = 0; i < n; ++i) ++count[side][squares[i]];
      }
}

}  // namespace

void xiangqi_features(const rx::Position& pos, const rx::MoveList& list, const History& h, MoveFeatures* out) {
  const rx::Side us = pos.side_to_move(), them = rx::opponent(us);
  // rel(s): the square as the side to move sees the board, Black's turned half a turn.
  const auto rel = [us](int s) { return us == rx::kRed ? s : kSquares - 1 - s; };
  std::array<rx::Piece, kSquares> board = pos.board();
  int pieces = 0;
  for (rx::Piece p : board) pieces += p != rx::kNoPiece;
  const int phase = pieces >= 28 ? 0 : pieces >= 18 ? 1 : 2;
  std::uint8_t count[2][kSquares];
  attack_counts(pos, count);
  const int their_general = pos.general_square(them);
  const bool in_check = pos.in_check();
  const int reply = h.last_kind < 0 ? 7 : h.last_kind;
  std::uint8_t squares[24];
  // The squares the piece on `own_from` attacks before it moves: own[s] == own_from + 1.
  std::uint8_t own[kSquares] = {};
  int own_from = -1;
  for (int i = 0; i < list.size; ++i) {
    const rx::Move m = list[i];
    MoveFeatures& f = out[i];
    f.n = 0;
    const rx::Piece piece = board[m.from], victim = board[m.to];
    const int kind = rx::type_of(piece) - 1;
    if (m.from != own_from) {
      own_from = m.from;
      const int n = rx::attacks(board, m.from, squares);
      for (int j = 0; j < n; ++j) own[squares[j]] = static_cast<std::uint8_t>(own_from + 1);
    }
    const bool own_to = own[m.to] == own_from + 1;
    f.add(kTo + (phase * kKinds + kind) * kSquares + rel(m.to));
    f.add(kFrom + (phase * kKinds + kind) * kSquares + rel(m.from));
    f.add(kVictim + kind * 8 + (victim == rx::kNoPiece ? 0 : rx::type_of(victim)));
    f.add(kToSafety + kind * 4 + (count[them][m.to] != 0) * 2 + (count[us][m.to] > own_to));
    f.add(kFromSafety + kind * 4 + (count[them][m.from] != 0) * 2 + (count[us][m.from] != 0));
    // The move played on the board, for the check and the threat, and taken back.
    board[m.to] = piece;
    board[m.from] = rx::kNoPiece;
    bool check = false;
    int threat = 0;
    const int n = rx::attacked_pieces(board, m.to, squares);
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
    if (check) f.add(kCheck + kind);
    if (in_check) f.add(kEvasion + kind);
    if (m.to == h.last_to) f.add(kRecapture + kind);
    f.add(kThreat + kind * 3 + threat);
    f.add(kReply + reply * kKinds + kind);
    if (m.from == h.our_to) {
      f.add(kMovedLast + kind);
      if (m.to == h.our_from) f.add(kBack + kind);
    }
    f.add(kGeneralDistance + kind * 10 + distance(m.to, their_general));
    if (h.last_to >= 0) f.add(kNearLast + kind * 5 + std::min(distance(m.to, h.last_to), 4));
  }
}

std::uint32_t frequencies(const rx::Position& pos, const rx::MoveList& list, const History& h, std::uint32_t* freq,
                          const std::int8_t* weights) {
  MoveFeatures features[rx::kMaxMoves];
  xiangqi_features(pos, list, h, features);
  int score[rx::kMaxMoves];
  for (int i = 0; i < list.size; ++i) score[i] = features[i].score(weights);
  return frequencies_of_scores(score, list.size, freq);
}

}  // namespace pgnarc::codec::model::xq
