#include "codec/position/position_code.h"

#include <algorithm>
#include <bit>

#include "codec/position/fen_text.h"
#include "rules/movegen.h"

namespace pgnarc::codec {

using rules::generate_targets;
using rules::move_at_index;

namespace {

constexpr char kSymbolLetters[] = ".PNBRQKpnbrqk";

int symbol_of(Piece p) { return p == kNoPiece ? 0 : color_of(p) * 6 + type_of(p); }

// The squares in the order the placement form codes them: FEN order, a8 to h8, ..., a1 to h1.
constexpr Square fen_square(int k) { return make_square(k % 8, 7 - k / 8); }

// The rooks that may carry colour c's castling right on `side`: c's rooks on its first rank on
// that side of its king (which stands on that rank), the outermost first.
int castling_candidates(const std::array<std::uint8_t, 64>& squares, Color c, CastleSide side, Square out[8]) {
  const int rank = c == kWhite ? 0 : 7;
  const int king = c == kWhite ? 6 : 12, rook = c == kWhite ? 4 : 10;
  int king_file = -1;
  for (int f = 0; f < 8; ++f)
    if (squares[make_square(f, rank)] == king) king_file = f;
  if (king_file < 0) return 0;
  int n = 0;
  if (side == kKingSide) {
    for (int f = 7; f > king_file; --f)
      if (squares[make_square(f, rank)] == rook) out[n++] = make_square(f, rank);
  } else {
    for (int f = 0; f < king_file; ++f)
      if (squares[make_square(f, rank)] == rook) out[n++] = make_square(f, rank);
  }
  return n;
}

// The squares a FEN may name as its en passant square with `side` to move (5.2): empty, the
// square the opponent's pawn left empty, and that pawn on the square its double step reached;
// by file.
int ep_candidates(const std::array<std::uint8_t, 64>& squares, int side, Square out[8]) {
  const int target_rank = side == 0 ? 5 : 2, from_rank = side == 0 ? 6 : 1, pawn_rank = side == 0 ? 4 : 3;
  const int their_pawn = side == 0 ? 7 : 1;
  int n = 0;
  for (int f = 0; f < 8; ++f)
    if (squares[make_square(f, target_rank)] == 0 && squares[make_square(f, from_rank)] == 0 &&
        squares[make_square(f, pawn_rank)] == their_pawn)
      out[n++] = make_square(f, target_rank);
  return n;
}

// The FEN of `p` with the en passant field `ep` and the counters of `v`.
void fen_with_counters(const Position& p, Square ep, const PositionCoder::Value& v, std::string& text) {
  std::string s = p.fen(ep);
  s.resize(s.rfind(' ', s.rfind(' ') - 1));  // without " halfmove fullmove"
  text += s;
  if (v.counters == PositionCoder::kNoCounters) return;
  const std::uint64_t half = v.counters == PositionCoder::kReplayed ? p.halfmove_clock() : v.halfmove;
  const std::uint64_t full = v.counters == PositionCoder::kReplayed ? p.fullmove_number() : v.fullmove;
  text += ' ' + std::to_string(half) + ' ' + std::to_string(full);
}

}  // namespace

std::array<PieceType, 8> chess960_rank(int number) {
  std::array<PieceType, 8> rank{};
  int n = number;
  rank[2 * (n % 4) + 1] = kBishop;  // the bishop on a light square: b, d, f or h
  n /= 4;
  rank[2 * (n % 4)] = kBishop;  // on a dark square: a, c, e or g
  n /= 4;
  const auto place_on_free = [&](int k, PieceType t) {
    for (int f = 0; f < 8; ++f)
      if (rank[f] == kNoPieceType && k-- == 0) {
        rank[f] = t;
        return;
      }
  };
  place_on_free(n % 6, kQueen);
  n /= 6;
  // The knights' places among the five free squares, then rook, king, rook on the three left.
  static constexpr int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  place_on_free(kKnights[n][1], kKnight);
  place_on_free(kKnights[n][0], kKnight);
  place_on_free(0, kRook);
  place_on_free(0, kKing);
  place_on_free(0, kRook);
  return rank;
}

Position arranged_start(int white, int black) {
  const auto row = [](int number, bool lower) {
    std::string r;
    for (PieceType t : chess960_rank(number)) r += static_cast<char>(kSymbolLetters[t] + (lower ? 32 : 0));
    return r;
  };
  return Position::from_fen(row(black, true) + "/pppppppp/8/8/8/8/PPPPPPPP/" + row(white, false) + " w KQkq - 0 1").value();
}

PositionCoder::PositionCoder() = default;

template <class Side>
bool PositionCoder::code_counters(Side& side, Value& v, bool replayable) {
  if (!side.adaptive(counters_, v.counters)) return false;
  counters_.update(v.counters);
  if (v.counters == kReplayed && !replayable) return false;
  if (v.counters != kGiven) return true;
  return code_width_number(side, halfmove_, v.halfmove) && code_width_number(side, fullmove_, v.fullmove) &&
         v.halfmove <= 65535 && v.fullmove <= 65535;
}

template <class Side>
bool PositionCoder::code(Side& side, Value& v, std::string& text, const char*& why) {
  why = "the codeword holds no position here";
  if (!side.adaptive(form_, v.form)) return false;
  form_.update(v.form);
  if (v.form == kText) return true;
  if (v.form == kDerived) {
    if (!side.adaptive(start_, v.start)) return false;
    start_.update(v.start);
    if (v.start == kStandard) {
      v.white = v.black = kStandardArrangement;
    } else {
      if (!side.uniform(kArrangements, v.white)) return false;
      if (v.start == kChess960) v.black = v.white;
      else if (!side.uniform(kArrangements, v.black)) return false;
    }
    std::uint64_t plies = v.moves.size();
    if (!code_width_number(side, plies_, plies)) return false;
    if (plies > kMaxDerivedPlies) return why = "a derived position of more than 1023 plies", false;
    if constexpr (Side::kDecoding) v.moves.assign(plies, 0);
    model::LineState line{arranged_start(static_cast<int>(v.white), static_cast<int>(v.black)), {}};
    Square double_step = kNoSquare;
    for (std::size_t k = 0; k < plies; ++k) {
      const Position& pos = line.pos;
      generate_targets(pos, targets_);
      if (targets_.total == 0) return why = "a derived position's move where there is no legal move", false;
      ply_frequencies(MoveCoder::kModel, false, k, pos, targets_, line.history, freq_);
      if (freq_.total && !side.move(freq_, v.moves[k])) return false;
      const Move m = move_at_index(pos, targets_, v.moves[k]);
      const bool pawn = type_of(pos.piece_on(m.from())) == kPawn;
      line.play(m);
      double_step = pawn && (m.from() ^ m.to()) == 16 ? static_cast<Square>((m.from() + m.to()) / 2) : kNoSquare;
    }
    if (double_step != kNoSquare) {
      if (!side.adaptive(ep_style_, v.ep_style)) return false;
      ep_style_.update(v.ep_style);
    }
    if (!code_counters(side, v, true)) return false;
    const Position& p = line.pos;
    const Square ep = double_step == kNoSquare ? kNoSquare : v.ep_style == 0 ? p.legal_ep_square() : double_step;
    fen_with_counters(p, ep, v, text);
    return true;
  }
  // The placement form.
  bool king[2] = {false, false};
  for (int k = 0; k < 64; ++k) {
    const Square sq = fen_square(k);
    std::uint32_t f[13];
    for (int s = 0; s < 13; ++s) f[s] = kSquareFrequencies[sq][s] + 64u * seen_[sq][s];
    if (king[0]) f[6] = 0;
    if (king[1]) f[12] = 0;
    int s = v.squares[sq];
    if (!side.table(f, 13, s)) return false;
    v.squares[sq] = static_cast<std::uint8_t>(s);
    king[0] |= s == 6;
    king[1] |= s == 12;
    auto& row = seen_[sq];
    ++row[s];
    unsigned total = 0;
    for (auto c : row) total += c;
    if (total >= 1024)
      for (auto& c : row) c = static_cast<std::uint16_t>((c + 1) / 2);
  }
  if (!side.adaptive(side_, v.side)) return false;
  side_.update(v.side);
  Square candidates[8];
  std::string castling;
  for (int r = 0; r < 4; ++r) {
    const Color c = r < 2 ? kWhite : kBlack;
    const CastleSide cs = r % 2 == 0 ? kKingSide : kQueenSide;
    const int n = castling_candidates(v.squares, c, cs, candidates);
    if (n == 0) {
      v.castling[r] = -1;
      continue;
    }
    int has = v.castling[r] >= 0;
    if (!side.adaptive(castle_[r], has)) return false;
    castle_[r].update(has);
    if (!has) {
      v.castling[r] = -1;
      continue;
    }
    std::uint32_t which = static_cast<std::uint32_t>(std::max(v.castling[r], 0));
    if (n > 1 && !side.uniform(static_cast<std::uint32_t>(n), which)) return false;
    v.castling[r] = static_cast<int>(n > 1 ? which : 0);
    // X-FEN: K or Q names the outermost rook, a file letter any other.
    const char letter = which == 0 ? (cs == kKingSide ? 'K' : 'Q') : static_cast<char>('A' + file_of(candidates[which]));
    castling += c == kWhite ? letter : static_cast<char>(letter + 32);
  }
  const int n = ep_candidates(v.squares, v.side, candidates);
  Square ep = kNoSquare;
  if (n > 0) {
    int has = v.ep >= 0;
    if (!side.adaptive(ep_present_, has)) return false;
    ep_present_.update(has);
    if (has) {
      std::uint32_t which = static_cast<std::uint32_t>(std::max(v.ep, 0));
      if (n > 1 && !side.uniform(static_cast<std::uint32_t>(n), which)) return false;
      v.ep = static_cast<int>(n > 1 ? which : 0);
      ep = candidates[v.ep];
    } else {
      v.ep = -1;
    }
  } else {
    v.ep = -1;
  }
  if (!code_counters(side, v, false)) return false;
  append_placement(text, v.squares.data(), 8, 8, kSymbolLetters);
  text += v.side == 0 ? " w " : " b ";
  text += castling.empty() ? "-" : castling;
  text += ' ';
  text += square_name(ep);
  if (v.counters == kGiven) text += ' ' + std::to_string(v.halfmove) + ' ' + std::to_string(v.fullmove);
  return true;
}

bool PositionCoder::text_of(const Value& v, std::string& text) const {
  // The coder's state is not needed to write a value: code() on a copy, with symbols dropped.
  PositionCoder scratch(*this);
  std::vector<PlySymbol> dropped;
  SymbolWriter w{dropped};
  Value copy = v;
  const char* why = nullptr;
  return scratch.code(w, copy, text, why);
}

int PositionCoder::encode(std::string_view fen, std::vector<PlySymbol>& out) {
  Value v;
  auto pos = Position::from_fen(fen);
  const std::vector<std::string_view> fields = fen_fields(fen);
  if (pos && (fields.size() == 4 || fields.size() == 6)) {
    std::uint64_t half = 0, full = 1;
    const bool counters = fields.size() == 6;
    if (counters && (!parse_fen_counter(fields[4], half) || !parse_fen_counter(fields[5], full))) full = 0;
    const std::string_view ep_field = fields[3];
    std::string text;
    // Derived: from the plies the counters give, if a search finds the moves.
    const int black = pos->side_to_move() == kBlack;
    const std::uint64_t plies = full == 0 ? 0 : 2 * (full - 1) + black;
    if (full > 0 && plies <= 16 && derive_position(*pos, static_cast<int>(plies), v)) {
      v.form = kDerived;
      for (v.ep_style = 0; v.ep_style < 2; ++v.ep_style) {
        v.counters = !counters ? kNoCounters : kReplayed;
        text.clear();
        if (text_of(v, text) && text == fen) break;
        if (counters) {
          v.counters = kGiven;
          v.halfmove = half;
          v.fullmove = full;
          text.clear();
          if (text_of(v, text) && text == fen) break;
        }
      }
      if (v.ep_style == 2) v.form = kText;
    }
    if (v.form == kText) {
      v = Value{};
      v.form = kPlacement;
      for (int s = 0; s < 64; ++s) v.squares[s] = static_cast<std::uint8_t>(symbol_of(pos->piece_on(static_cast<Square>(s))));
      v.side = pos->side_to_move() == kBlack;
      Square candidates[8];
      for (int r = 0; r < 4; ++r) {
        const Color c = r < 2 ? kWhite : kBlack;
        const CastleSide cs = r % 2 == 0 ? kKingSide : kQueenSide;
        const Square rook = pos->castling_rook(c, cs);
        const int n = castling_candidates(v.squares, c, cs, candidates);
        v.castling[r] = static_cast<int>(std::find(candidates, candidates + n, rook) - candidates);
        if (v.castling[r] == n) v.castling[r] = -1;
      }
      const int n = ep_candidates(v.squares, v.side, candidates);
      for (int k = 0; k < n; ++k)
        if (square_name(candidates[k]) == ep_field) v.ep = k;
      v.counters = counters ? kGiven : kNoCounters;
      v.halfmove = half;
      v.fullmove = full;
      text.clear();
      if (!text_of(v, text) || text != fen) v.form = kText;
    }
  }
  if (v.form == kText) v = Value{};
  SymbolWriter w{out};
  std::string text;
  const char* why = nullptr;
  code(w, v, text, why);
  return v.form;
}

bool PositionCoder::decode(ArithDecoder& in, bool& coded, std::string& text, const char*& why) {
  SymbolReader r{in};
  Value v;
  v.form = kText;
  const std::size_t from = text.size();
  if (!code(r, v, text, why)) return false;
  coded = v.form != kText;
  if (v.form == kPlacement && !Position::from_fen(std::string_view(text).substr(from))) {
    why = "a coded position that is not a valid FEN";
    return false;
  }
  return true;
}

// --- The writer's search for a derived value ----------------------------------------------------

namespace {

// Whether `p` can still reach `t`'s pieces and castling rights with `rw` more moves of White and
// `rb` of Black: what never comes back (may_still_reach), and each move puts one piece of its
// side on a square (castling two) and captures at most one of the other side.
bool can_reach(const Position& p, const Position& t, int rw, int rb) {
  if (!may_still_reach(p, t)) return false;
  for (Color c : {kWhite, kBlack}) {
    bool t_rights = false, p_rights = false;
    for (CastleSide s : {kKingSide, kQueenSide}) {
      t_rights |= t.castling_rook(c, s) != kNoSquare;
      p_rights |= p.castling_rook(c, s) != kNoSquare;
    }
    int fill = 0;
    for (int type = kPawn; type <= kKing; ++type)
      fill += std::popcount(t.pieces(c, static_cast<PieceType>(type)) & ~p.pieces(c, static_cast<PieceType>(type)));
    if (p_rights && !t_rights && fill > 0) --fill;
    const int captures = std::popcount(p.pieces(~c)) - std::popcount(t.pieces(~c));
    if (std::max(fill, captures) > (c == kWhite ? rw : rb)) return false;
  }
  return true;
}

bool same_pieces(const Position& p, const Position& t) {
  if (p.occupied() != t.occupied() || p.side_to_move() != t.side_to_move()) return false;
  for (Color c : {kWhite, kBlack}) {
    for (int type = kPawn; type <= kKing; ++type)
      if (p.pieces(c, static_cast<PieceType>(type)) != t.pieces(c, static_cast<PieceType>(type))) return false;
    for (CastleSide s : {kKingSide, kQueenSide})
      if (p.castling_rook(c, s) != t.castling_rook(c, s)) return false;
  }
  return true;
}

bool search(const Position& p, int depth, int plies, const Position& t, std::vector<int>& path, int& budget) {
  if (depth == plies) return same_pieces(p, t);
  if (--budget < 0) return false;
  const int left = plies - depth;
  const int ours = (left + 1) / 2, theirs = left / 2;
  if (!can_reach(p, t, p.side_to_move() == kWhite ? ours : theirs, p.side_to_move() == kWhite ? theirs : ours))
    return false;
  const MoveList moves = p.legal_moves();
  for (int i = 0; i < moves.size; ++i) {
    Position q = p;
    q.play(moves[i]);
    path.push_back(i);
    if (search(q, depth + 1, plies, t, path, budget)) return true;
    path.pop_back();
  }
  return false;
}

// The arrangements whose first rank agrees with `t`'s castling rights for colour c and from
// which c can fill its squares of `t` in `moves` moves.
std::vector<int> arrangements_for(const Position& t, Color c, int moves) {
  static const std::vector<std::array<PieceType, 8>> ranks = [] {
    std::vector<std::array<PieceType, 8>> v;
    for (int n = 0; n < kArrangements; ++n) v.push_back(chess960_rank(n));
    return v;
  }();
  const int first = c == kWhite ? 0 : 7, second = c == kWhite ? 1 : 6;
  int pawns_home = 0;
  for (int f = 0; f < 8; ++f) pawns_home += t.piece_on(make_square(f, second)) == make_piece(c, kPawn);
  bool rights = false;
  for (CastleSide s : {kKingSide, kQueenSide}) rights |= t.castling_rook(c, s) != kNoSquare;
  const int pieces = std::popcount(t.pieces(c));
  std::vector<int> out;
  for (int n = 0; n < kArrangements; ++n) {
    const auto& rank = ranks[n];
    int home = pawns_home;
    for (int f = 0; f < 8; ++f) home += t.piece_on(make_square(f, first)) == make_piece(c, rank[f]);
    int fill = pieces - home;
    if (!rights && fill > 0) --fill;  // castling puts two pieces in place
    if (fill > moves) continue;
    bool fits = true;
    for (CastleSide s : {kKingSide, kQueenSide}) {
      const Square r = t.castling_rook(c, s);
      if (r == kNoSquare) continue;
      fits &= rank[file_of(r)] == kRook && rank[file_of(t.king_square(c))] == kKing;
    }
    if (fits) out.push_back(n);
  }
  return out;
}

}  // namespace

bool derive_position(const Position& target, int plies, PositionCoder::Value& v) {
  if (plies < 0) return false;
  const std::vector<int> white = arrangements_for(target, kWhite, (plies + 1) / 2);
  const std::vector<int> black = arrangements_for(target, kBlack, plies / 2);
  int budget = 20000;
  const auto attempt = [&](int start, int w, int b) {
    std::vector<int> path;
    if (!search(arranged_start(w, b), 0, plies, target, path, budget)) return false;
    v.start = start;
    v.white = static_cast<std::uint32_t>(w);
    v.black = static_cast<std::uint32_t>(b);
    v.moves = std::move(path);
    return true;
  };
  const auto in = [](const std::vector<int>& set, int n) { return std::binary_search(set.begin(), set.end(), n); };
  if (in(white, kStandardArrangement) && in(black, kStandardArrangement) &&
      attempt(PositionCoder::kStandard, kStandardArrangement, kStandardArrangement))
    return true;
  for (int w : white)
    if (w != kStandardArrangement && in(black, w) && attempt(PositionCoder::kChess960, w, w)) return true;
  int pairs = 0;
  for (int w : white)
    for (int b : black)
      if (w != b && pairs++ < 8 && attempt(PositionCoder::kDouble960, w, b)) return true;
  return false;
}

}  // namespace pgnarc::codec
