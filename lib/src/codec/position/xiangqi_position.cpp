#include "codec/position/xiangqi_position.h"

#include "codec/entropy/symbol_coder.h"
#include "codec/position/fen_text.h"
#include "rules/xiangqi.h"

namespace pgnarc::codec {

namespace rx = rules::xiangqi;

namespace {

constexpr char kSymbolLetters[] = ".KABNRCPkabnrcp";
// The kinds in the order the sets form codes them: the palace's and the soldiers' first (few
// squares), then the pieces that may stand anywhere.
constexpr rx::PieceType kSetOrder[7] = {rx::kGeneral, rx::kAdvisor, rx::kElephant, rx::kSoldier,
                                        rx::kHorse,   rx::kChariot, rx::kCannon};

constexpr int symbol_of(int side, rx::PieceType t) { return side * 7 + t; }
constexpr int symbol_of(rx::Piece p) { return p == rx::kNoPiece ? 0 : symbol_of(rx::side_of(p), rx::type_of(p)); }
constexpr rx::PieceType type_of_symbol(int s) { return static_cast<rx::PieceType>(s > 7 ? s - 7 : s); }

// C(n, k) for n <= 90, k <= 5 (the most a kind has: five soldiers).
struct Binomials {
  std::uint32_t c[91][6]{};
  constexpr Binomials() {
    for (int n = 0; n <= 90; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= 5; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
constexpr Binomials kBinomials;

// A counter: its bit width (0 to 16, each as likely), then the bits below its top bit.
template <class Side>
bool code_counter(Side& side, std::uint32_t& u) {
  std::uint32_t width = static_cast<std::uint32_t>(std::bit_width(u));
  if (!side.uniform(17, width)) return false;
  if (width < 2) {
    u = width;
    return true;
  }
  std::uint32_t rest = u & ((1u << (width - 1)) - 1);
  if (!side.uniform(1u << (width - 1), rest)) return false;
  u = 1u << (width - 1) | rest;
  return true;
}

}  // namespace

std::string xiangqi_fen_text(const XiangqiPositionCoder::Value& v) {
  std::string text;
  append_placement(text, v.squares.data(), rx::kFiles, rx::kRanks, kSymbolLetters);
  text += v.side == 0 ? " w" : " b";
  if (v.fields == XiangqiPositionCoder::kTwo) return text;
  text += " - -";
  if (v.fields == XiangqiPositionCoder::kZeroOne) text += " 0 1";
  if (v.fields == XiangqiPositionCoder::kCounters)
    text += ' ' + std::to_string(v.halfmove) + ' ' + std::to_string(v.fullmove);
  return text;
}

template <class Side>
bool XiangqiPositionCoder::code(Side& side, Value& v, const char*& why) {
  why = "the codeword holds no Xiangqi position here";
  std::uint32_t form = static_cast<std::uint32_t>(v.form);
  if (!side.uniform(2, form)) return false;
  v.form = static_cast<int>(form);
  int count[15] = {};
  if (v.form == kSquares) {
    for (int q = 0; q < 90; ++q) {
      std::uint32_t f[15];
      for (int s = 0; s < 15; ++s) {
        const std::uint32_t table = kXiangqiSquareFrequencies[q][s];
        f[s] = table == 0 || (s > 0 && count[s] == rx::kStartCount[type_of_symbol(s)]) ? 0 : table + 64u * seen_[q][s];
      }
      int s = v.squares[q];
      if (!side.table(f, 15, s)) return false;
      v.squares[q] = static_cast<std::uint8_t>(s);
      ++count[s];
    }
    if (count[symbol_of(0, rx::kGeneral)] == 0 || count[symbol_of(1, rx::kGeneral)] == 0)
      return why = "a Xiangqi position without a general", false;
  } else {
    std::array<bool, 90> taken{};
    for (int colour = 0; colour < 2; ++colour)
      for (rx::PieceType t : kSetOrder) {
        const int symbol = symbol_of(colour, t);
        std::uint8_t candidates[90];
        std::uint32_t n = 0;
        for (int q = 0; q < 90; ++q)
          if (!taken[q] && rx::can_stand(static_cast<rx::Side>(colour), t, q)) candidates[n++] = static_cast<std::uint8_t>(q);
        // Which candidates hold the kind, ascending.
        std::uint32_t at[5];
        std::uint32_t k = 0;
        if constexpr (!Side::kDecoding)
          for (std::uint32_t i = 0; i < n; ++i)
            if (v.squares[candidates[i]] == symbol) at[k++] = i;
        const std::uint32_t most = static_cast<std::uint32_t>(rx::kStartCount[t]);
        if (t != rx::kGeneral) {
          if (!side.uniform(most + 1, k)) return false;
        } else {
          k = 1;
        }
        if (k == 0) continue;
        // More pieces than candidates (the other side's pieces fill a palace): no such value.
        if (kBinomials.c[n][k] == 0) return why = "a Xiangqi position with more pieces of a kind than squares for them", false;
        // The set's rank among the k-sets of the n candidates: sum of C(at[j], j + 1).
        std::uint32_t rank = 0;
        if constexpr (!Side::kDecoding)
          for (std::uint32_t j = 0; j < k; ++j) rank += kBinomials.c[at[j]][j + 1];
        if (!side.uniform(kBinomials.c[n][k], rank)) return false;
        if constexpr (Side::kDecoding)
          for (std::uint32_t j = k; j-- > 0;) {
            std::uint32_t i = j;
            while (i + 1 < n && kBinomials.c[i + 1][j + 1] <= rank) ++i;
            rank -= kBinomials.c[i][j + 1];
            at[j] = i;
          }
        for (std::uint32_t j = 0; j < k; ++j) {
          v.squares[candidates[at[j]]] = static_cast<std::uint8_t>(symbol);
          taken[candidates[at[j]]] = true;
        }
      }
  }
  for (int q = 0; q < 90; ++q) {
    auto& row = seen_[q];
    ++row[v.squares[q]];
    unsigned total = 0;
    for (auto c : row) total += c;
    if (total >= 1024)
      for (auto& c : row) c = static_cast<std::uint16_t>((c + 1) / 2);
  }
  std::uint32_t side_to_move = static_cast<std::uint32_t>(v.side), fields = static_cast<std::uint32_t>(v.fields);
  if (!side.uniform(2, side_to_move) || !side.uniform(4, fields)) return false;
  v.side = static_cast<int>(side_to_move);
  v.fields = static_cast<int>(fields);
  if (v.fields == kCounters && !(code_counter(side, v.halfmove) && code_counter(side, v.fullmove))) return false;
  return true;
}

std::uint64_t XiangqiPositionCoder::cost(const Value& v) const {
  XiangqiPositionCoder scratch(*this);
  std::vector<PlySymbol> symbols;
  SymbolWriter w{symbols};
  Value copy = v;
  const char* why = nullptr;
  scratch.code(w, copy, why);
  std::string bytes;
  std::uint64_t bits = 0;
  put_codeword(symbols, bytes, bits);
  return bits;
}

bool XiangqiPositionCoder::encode(std::string_view fen, std::vector<PlySymbol>& out) {
  auto pos = rx::Position::from_fen(fen);
  if (!pos) return false;
  const std::vector<std::string_view> fields = fen_fields(fen);
  Value v;
  for (int q = 0; q < 90; ++q) v.squares[q] = static_cast<std::uint8_t>(symbol_of(pos->piece_on(q)));
  v.side = pos->side_to_move() == rx::kBlack;
  if (fields.size() == 2) {
    v.fields = kTwo;
  } else if (fields.size() == 4) {
    v.fields = kFour;
  } else if (fields.size() == 6 && parse_fen_counter(fields[4], v.halfmove) && parse_fen_counter(fields[5], v.fullmove)) {
    v.fields = v.halfmove == 0 && v.fullmove == 1 ? kZeroOne : kCounters;
  } else {
    return false;
  }
  if (xiangqi_fen_text(v) != fen) return false;
  Value sets = v;
  sets.form = kSets;
  if (cost(sets) < cost(v)) v = sets;
  SymbolWriter w{out};
  const char* why = nullptr;
  return code(w, v, why);
}

bool XiangqiPositionCoder::decode(ArithDecoder& in, std::string& text, const char*& why) {
  SymbolReader r{in};
  Value v;
  if (!code(r, v, why)) return false;
  const std::string fen = xiangqi_fen_text(v);
  if (!rx::Position::from_fen(fen)) return why = "a coded Xiangqi position that is not a valid FEN", false;
  text += fen;
  return true;
}

}  // namespace pgnarc::codec
