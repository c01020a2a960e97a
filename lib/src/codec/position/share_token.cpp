#include "codec/position/share_token.h"

#include <algorithm>

#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"
#include "codec/position/position_code.h"
#include "codec/position/xiangqi_position.h"
#include "codec/record/record.h"
#include "rules/movegen.h"
#include "rules/xiangqi_game.h"

namespace pgnarc::codec {

using rules::generate_targets;
using rules::move_at_index;
using rules::PieceTargets;

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Header byte 1: bits 0-1 the move coder, bit 2 a set-up start, bit 3 Chess960, bits 4-6 the
// result (GameResult, 0 to 4), bit 7 reserved (0).
constexpr unsigned kSetUp = 4, kChess960 = 8;

namespace rx = rules::xiangqi;

Error not_a_token(const std::string& why) { return invalid_input("not a share token: " + why); }

// The Seven Tag Roster with unknown values and the game's result, `first` naming the first player
// (White, or Red).
void add_roster(Game& game, const char* first) {
  for (const char* key : {"Event", "Site", "Date", "Round", first, "Black", "Result"})
    game.tags.push_back(Tag{key, std::string(key == std::string_view("Date") ? "????.??.??" : "?")});
  game.tags.back().value = game.result == GameResult::kNone ? "*" : result_text(game.result);
}

// Why the codeword just read does not end the token as TOKEN-1 asks (its last byte the token's,
// the bits after it 0), or nullptr.
const char* bad_end(ArithDecoder& in, std::string_view code) {
  const std::int64_t bits = in.finish();
  if (bits < 0 || static_cast<std::uint64_t>(bits + 7) / 8 != code.size()) return "its codeword does not end where it does";
  if (bits % 8 && static_cast<std::uint8_t>(code.back()) & (0xFFu >> (bits % 8))) return "bits after its codeword that are not 0";
  return nullptr;
}

std::string token_bytes(std::uint8_t version, unsigned flags, const std::vector<PlySymbol>& symbols) {
  std::string out;
  out += static_cast<char>(version);
  out += static_cast<char>(flags);
  std::uint64_t bits = 0;
  put_codeword(symbols, out, bits);
  return out;
}

// The main line's moves (the last depth-0 moves of `game.events`), in order.
template <class Visit>
Status for_each_main_move(const Game& game, Visit&& visit) {
  int depth = 0;
  for (const GameEvent& e : game.events) {
    if (e.type == GameEvent::kBeginVariation) ++depth;
    else if (e.type == GameEvent::kEndVariation) --depth;
    if (depth != 0) continue;
    if (e.type == GameEvent::kNullMove) return invalid_input("a null move (--) in the main line cannot be shared");
    if (e.type != GameEvent::kMove) continue;
    if (auto st = visit(e.move); !st) return st;
  }
  return {};
}

Result<std::string> encode_xiangqi_token(const Game& game) {
  auto start = rx::start_position(game.tags);
  if (!start) return invalid_input("no start position to share: " + start.error().message());
  const bool set_up = game.tag("FEN") != nullptr;
  std::vector<PlySymbol> symbols;
  if (set_up) {
    XiangqiPositionCoder positions;
    if (!positions.encode(start->fen(), symbols))
      return invalid_input("the start position " + start->fen() + " cannot be coded");
  }
  rx::Position pos = *start;
  model::xq::History history;
  rx::MoveList list;
  PlyFrequencies freq;
  std::uint64_t ply = 0;
  auto st = for_each_main_move(game, [&](Move move) -> Status {
    const rx::Move m = rx::move_of(move);
    rx::legal_moves(pos, list);
    const auto at = std::lower_bound(list.begin(), list.end(), m);
    if (at == list.end() || *at != m)
      return invalid_input("illegal move " + rx::to_iccs(m) + " in position " + pos.fen());
    if (ply == kMaxPlies) return invalid_input("a main line of more than 65536 plies cannot be shared");
    xiangqi_frequencies(true, false, true, ply++, pos, list, history, freq);
    symbols.push_back(symbol_of(freq, static_cast<int>(at - list.begin())));
    history = model::xq::history_after(history, pos, m);
    pos.play(m);
    return {};
  });
  if (!st) return st.error();
  rx::legal_moves(pos, list);
  xiangqi_frequencies(true, false, true, ply, pos, list, history, freq);
  symbols.push_back(symbol_of(freq, -1));
  return token_bytes(kXiangqiTokenVersion, static_cast<unsigned>(MoveCoder::kModel) | (set_up ? kSetUp : 0) |
                         static_cast<unsigned>(game.result) << 4,
                     symbols);
}

Result<Game> decode_xiangqi_token(unsigned flags, std::string_view code) {
  const auto bad = not_a_token;
  ArithDecoder in;
  in.start(code, 0);
  Game game;
  game.rules = GameRules::kXiangqi;
  game.result = static_cast<GameResult>((flags >> 4) & 7);
  game.tags.push_back(Tag{"Game", "Chinese Chess"});
  add_roster(game, "Red");
  rx::Position pos;
  if (flags & kSetUp) {
    XiangqiPositionCoder positions;
    std::string fen;
    const char* why = nullptr;
    if (!positions.decode(in, fen, why)) return bad(why);
    pos = rx::Position::from_fen(fen).value();
    game.tags.push_back(Tag{"FEN", fen});
  }
  game.tags.push_back(Tag{"Format", "ICCS"});
  game.notation = rx::notation_bytes(rx::Notation::kIccs, rx::NotationStyle{});
  model::xq::History history;
  rx::MoveList list;
  PlyFrequencies freq;
  for (std::uint64_t ply = 0;; ++ply) {
    rx::legal_moves(pos, list);
    xiangqi_frequencies((flags & 3) == 1, false, true, ply, pos, list, history, freq);
    const int m = read_symbol(in, freq);
    if (m == -2) return bad("its codeword holds no move here");
    if (m == -1) break;
    if (ply == kMaxPlies) return bad("more than 65536 plies");
    const rx::Move move = list[m];
    game.events.push_back(GameEvent::make_move(Move::xiangqi(move.from, move.to)));
    history = model::xq::history_after(history, pos, move);
    pos.play(move);
  }
  if (const char* why = bad_end(in, code)) return bad(why);
  return game;
}

}  // namespace

Result<std::string> encode_token(const Game& game) {
  if (game.rules == GameRules::kXiangqi) return encode_xiangqi_token(game);
  auto start = start_position(game);
  if (!start) return invalid_input("no start position to share: " + start.error().message());
  if (start->variant() != Variant::kStandard)
    return unsupported(std::string("share tokens hold games of standard chess and Chess960, not of ") +
                       variant_name(start->variant()));
  const bool set_up = game.tag("FEN") != nullptr;
  std::vector<PlySymbol> symbols;
  if (set_up) {
    PositionCoder positions;
    if (positions.encode(start->fen(), symbols) == PositionCoder::kText)
      return invalid_input("the start position " + start->fen() + " cannot be coded");
  }
  model::LineState line{*start, {}};
  PieceTargets targets;
  PlyFrequencies freq;
  std::uint64_t ply = 0;
  auto st = for_each_main_move(game, [&](Move move) -> Status {
    generate_targets(line.pos, targets);
    const int index = line.pos.move_index(move);
    if (index < 0) return invalid_input("illegal move " + line.pos.uci(move) + " in position " + line.pos.fen());
    if (ply == kMaxPlies) return invalid_input("a main line of more than 65536 plies cannot be shared");
    ply_frequencies(MoveCoder::kModel, true, ply++, line.pos, targets, line.history, freq);
    symbols.push_back(symbol_of(freq, index));
    line.play(move);
    return {};
  });
  if (!st) return st.error();
  generate_targets(line.pos, targets);
  ply_frequencies(MoveCoder::kModel, true, ply, line.pos, targets, line.history, freq);
  symbols.push_back(symbol_of(freq, -1));
  return token_bytes(kTokenVersion, static_cast<unsigned>(MoveCoder::kModel) | (set_up ? kSetUp : 0) |
                         (start->chess960() ? kChess960 : 0) | static_cast<unsigned>(game.result) << 4,
                     symbols);
}

Result<Game> decode_token(std::string_view bytes) {
  const auto bad = not_a_token;
  if (bytes.size() < 2) return bad("too short");
  const std::uint8_t version = static_cast<std::uint8_t>(bytes[0]);
  if (version != kTokenVersion && version != kXiangqiTokenVersion)
    return bad("token version " + std::to_string(version) + " (this reader knows 1), or 3 for a Xiangqi game");
  const unsigned flags = static_cast<std::uint8_t>(bytes[1]);
  const unsigned coder = flags & 3, result = (flags >> 4) & 7;
  if (coder > 1 || result > 4 || (flags & 0x80) || (version == kXiangqiTokenVersion && (flags & kChess960)))
    return bad("reserved bits set in its header");
  const std::string_view code = bytes.substr(2);
  if (version == kXiangqiTokenVersion) return decode_xiangqi_token(flags, code);
  ArithDecoder in;
  in.start(code, 0);
  Game game;
  game.result = static_cast<GameResult>(result);
  add_roster(game, "White");
  Position start;
  if (flags & kSetUp) {
    PositionCoder positions;
    bool coded = false;
    std::string fen;
    const char* why = nullptr;
    if (!positions.decode(in, coded, fen, why)) return bad(why);
    if (!coded) return bad("its start position is kept as text");
    auto p = Position::from_fen(fen, flags & kChess960);
    if (!p) return bad("its start position is not a FEN");
    start = *p;
    game.tags.push_back(Tag{"SetUp", "1"});
    game.tags.push_back(Tag{"FEN", fen});
  }
  start.set_chess960(start.chess960() || (flags & kChess960));
  if (flags & kChess960) game.tags.push_back(Tag{"Variant", "Chess960"});
  model::LineState line{start, {}};
  PieceTargets targets;
  PlyFrequencies freq;
  for (std::uint64_t ply = 0;; ++ply) {
    generate_targets(line.pos, targets);
    ply_frequencies(static_cast<MoveCoder>(coder), true, ply, line.pos, targets, line.history, freq);
    const int m = read_symbol(in, freq);
    if (m == -2) return bad("its codeword holds no move here");
    if (m == -1) break;
    if (ply == kMaxPlies) return bad("more than 65536 plies");
    const Move move = move_at_index(line.pos, targets, m);
    game.events.push_back(GameEvent::make_move(move));
    line.play(move);
  }
  if (const char* why = bad_end(in, code)) return bad(why);
  return game;
}

std::string base64url(std::string_view bytes) {
  std::string out;
  std::uint32_t acc = 0;
  int held = 0;
  for (unsigned char b : bytes) {
    acc = acc << 8 | b;
    held += 8;
    while (held >= 6) {
      held -= 6;
      out += kAlphabet[(acc >> held) & 63];
    }
  }
  if (held > 0) out += kAlphabet[(acc << (6 - held)) & 63];
  return out;
}

bool from_base64url(std::string_view text, std::string& bytes) {
  if (text.size() % 4 == 1) return false;
  bytes.clear();
  std::uint32_t acc = 0;
  int held = 0;
  for (char c : text) {
    int v = c >= 'A' && c <= 'Z' ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '-' ? 62
            : c == '_' ? 63
                       : -1;
    if (v < 0) return false;
    acc = (acc << 6 | static_cast<std::uint32_t>(v)) & 0xFFFFFF;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes += static_cast<char>((acc >> held) & 0xFF);
    }
  }
  return (acc & ((1u << held) - 1)) == 0;  // the last character's bits below its bytes are 0
}

}  // namespace pgnarc::codec
