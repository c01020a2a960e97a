// Xiangqi games as PGN holds them: their tags, start, lines and notation bytes.
#include "rules/xiangqi_game.h"

#include <algorithm>
#include <cstdint>

namespace pgnarc::rules::xiangqi {

namespace {

// ASCII letters in lower case, with spaces, tabs, hyphens and underscores removed.
std::string fold(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == ' ' || c == '\t' || c == '-' || c == '_') continue;
    out += c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c;
  }
  return out;
}

bool names_game(std::string_view value) {
  const std::string f = fold(value);
  return f == "chinesechess" || f == "xiangqi";
}

// How many characters a Chinese move may name each piece type by (kPieceChars in
// xiangqi_notation.cpp): the largest PieceChar of the type.
constexpr int kPieceCharCount[8] = {0, 4, 2, 2, 3, 3, 3, 2};

// Two-bit fields: `max` is the largest value the element's enum has.
template <class E>
unsigned put2(E e, int shift) { return static_cast<unsigned>(e) << shift; }
template <class E>
bool get2(unsigned byte, int shift, unsigned max, E& out) {
  const unsigned v = (byte >> shift) & 3;
  out = static_cast<E>(v);
  return v <= max;
}

// The encoding element (WXF byte 2 bits 2-3, Chinese bits 42-43 of P): 0 UTF-8, 1 GB18030,
// 2 Big5; 3 is reserved. UTF-8 shown by a text (kUtf8) is 0 as well.
unsigned encoding_value(Encoding e) { return e == Encoding::kGb18030 ? 1 : e == Encoding::kBig5 ? 2 : 0; }
bool read_encoding(unsigned bits, Encoding& out) {
  bits &= 3;
  out = bits == 1 ? Encoding::kGb18030 : bits == 2 ? Encoding::kBig5 : Encoding::kUnset;
  return bits != 3;
}
// The tandem-by-file element (WXF byte 2 bits 4-5, Chinese bits 44-45 of P): 0 no, 1 yes; 2 and
// 3 are reserved. A text that shows "no" leaves it 0, so that such a game's notation bytes are
// those of codecs 9 to 12.
unsigned by_file_value(Toggle t) { return t == Toggle::kYes ? 1 : 0; }
bool read_by_file(unsigned bits, Toggle& out) {
  bits &= 3;
  out = bits == 1 ? Toggle::kYes : Toggle::kUnset;
  return bits <= 1;
}
// The piece characters a Big5 text cannot hold, by type and PieceChar: 帅 将 马 车 俥, which Big5
// lacks, and 包, whose second byte is `]`, a delimiter of PGN.
constexpr bool kNotInBig5[8][5] = {{}, {false, true, false, true, false}, {}, {}, {false, true, false, false, false},
                                   {false, true, false, true, false}, {false, false, false, true, false}, {}};

Error bad_notation(std::string_view bytes, const std::string& why) {
  std::string hex;
  for (const char c : bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto b = static_cast<unsigned char>(c);
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return invalid_input("bad Xiangqi notation bytes " + (hex.empty() ? std::string("(none)") : hex) + ": " + why);
}

}  // namespace

bool notation_of_format(std::string_view value, Notation& out) {
  const std::string f = fold(value);
  if (f == "iccs") out = Notation::kIccs;
  else if (f == "wxf") out = Notation::kWxf;
  else if (f == "chinese") out = Notation::kChinese;
  else return false;
  return true;
}

bool names_xiangqi(const std::vector<Tag>& tags) {
  Notation n;
  if (const std::string* v = find_tag(tags, "Game")) return names_game(*v);
  if (const std::string* v = find_tag(tags, "Variant")) return names_game(*v);
  if (const std::string* v = find_tag(tags, "Format"); v && notation_of_format(*v, n)) return true;
  return find_tag(tags, "Red") && !find_tag(tags, "White");
}

Result<Position> start_position(const std::vector<Tag>& tags) {
  if (const std::string* fen = find_tag(tags, "FEN")) return Position::from_fen(*fen);
  return Position();
}

std::string notation_bytes(Notation notation, const NotationStyle& s) {
  std::string out;
  const auto byte = [&out](unsigned v) { out += static_cast<char>(v); };
  switch (notation) {
    case Notation::kIccs:
      byte(0 | put2(s.iccs_case, 2) | put2(s.iccs_hyphen, 4));
      break;
    case Notation::kWxf:
      byte(1 | put2(s.wxf_width, 2) | put2(s.wxf_case, 4) | put2(s.wxf_sideways, 6));
      byte(put2(s.wxf_elephant, 0) | put2(s.wxf_horse, 2) | put2(s.tandem, 4) | put2(s.soldiers, 6));
      byte(put2(s.tandem_advisor_elephant, 0) | (encoding_value(s.encoding) << 2) | (by_file_value(s.tandem_file) << 4));
      break;
    case Notation::kChinese: {
      byte(2 | put2(s.advance, 2) | put2(s.rear, 4) | put2(s.tandem, 6));
      byte(put2(s.soldiers, 0) | put2(s.tandem_advisor_elephant, 2) | put2(s.digits[kRed], 4) |
           put2(s.digits[kBlack], 6));
      std::uint64_t chars = 0;
      for (int side = 0; side < 2; ++side)
        for (int t = 1; t < 8; ++t)
          chars |= std::uint64_t{s.piece_char[static_cast<std::size_t>(side)][static_cast<std::size_t>(t)]}
                   << (3 * (7 * side + t - 1));
      chars |= std::uint64_t{encoding_value(s.encoding)} << 42 | std::uint64_t{by_file_value(s.tandem_file)} << 44;
      for (int k = 0; k < 6; ++k) byte(static_cast<unsigned>(chars >> (8 * k)) & 0xFF);
      break;
    }
  }
  return out;
}

bool needs_spellings_codec(const NotationStyle& style) {
  return encoding_value(style.encoding) != 0 || by_file_value(style.tandem_file) != 0;
}

Status read_notation(std::string_view bytes, Notation& notation, NotationStyle& style) {
  if (bytes.empty()) return bad_notation(bytes, "no bytes");
  const auto b = [&bytes](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(bytes[i])); };
  NotationStyle s;
  bool ok = true;
  switch (b(0) & 3) {
    case 0:
      notation = Notation::kIccs;
      if (bytes.size() != 1) return bad_notation(bytes, "ICCS takes 1 byte");
      ok = get2(b(0), 2, 2, s.iccs_case) && get2(b(0), 4, 2, s.iccs_hyphen) && (b(0) >> 6) == 0;
      break;
    case 1:
      notation = Notation::kWxf;
      if (bytes.size() != 3) return bad_notation(bytes, "WXF takes 3 bytes");
      ok = get2(b(0), 2, 2, s.wxf_width) && get2(b(0), 4, 2, s.wxf_case) && get2(b(0), 6, 3, s.wxf_sideways) &&
           get2(b(1), 0, 2, s.wxf_elephant) && get2(b(1), 2, 2, s.wxf_horse) && get2(b(1), 4, 2, s.tandem) &&
           get2(b(1), 6, 2, s.soldiers) && get2(b(2), 0, 2, s.tandem_advisor_elephant) &&
           read_encoding(b(2) >> 2, s.encoding) && read_by_file(b(2) >> 4, s.tandem_file) && (b(2) >> 6) == 0;
      break;
    case 2: {
      notation = Notation::kChinese;
      if (bytes.size() != 8) return bad_notation(bytes, "Chinese takes 8 bytes");
      ok = get2(b(0), 2, 2, s.advance) && get2(b(0), 4, 2, s.rear) && get2(b(0), 6, 2, s.tandem) &&
           get2(b(1), 0, 2, s.soldiers) && get2(b(1), 2, 2, s.tandem_advisor_elephant) &&
           get2(b(1), 4, 3, s.digits[kRed]) && get2(b(1), 6, 3, s.digits[kBlack]);
      std::uint64_t chars = 0;
      for (int k = 0; k < 6; ++k) chars |= std::uint64_t{b(2 + static_cast<std::size_t>(k))} << (8 * k);
      ok = ok && read_encoding(static_cast<unsigned>(chars >> 42), s.encoding) &&
           read_by_file(static_cast<unsigned>(chars >> 44), s.tandem_file) && (chars >> 46) == 0;
      for (int side = 0; side < 2 && ok; ++side)
        for (int t = 1; t < 8 && ok; ++t) {
          const auto v = static_cast<PieceChar>((chars >> (3 * (7 * side + t - 1))) & 7);
          ok = v <= kPieceCharCount[t] && (s.encoding != Encoding::kBig5 || !kNotInBig5[t][v]);
          s.piece_char[static_cast<std::size_t>(side)][static_cast<std::size_t>(t)] = v;
        }
      ok = ok && !(s.encoding == Encoding::kBig5 && s.advance == Script::kSimplified);
      break;
    }
    default:
      return bad_notation(bytes, "notation 3 is reserved");
  }
  if (!ok) return bad_notation(bytes, "an element out of range, a reserved bit set or a character a Big5 text cannot hold");
  style = s;
  return {};
}

namespace {

// Whether `text` is not UTF-8 (a double-byte encoding's) or holds a CJK ideograph.
bool chinese_characters(std::string_view text) {
  std::u32string chars;
  if (!decode_text(text, Encoding::kUtf8, chars))
    return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  return std::any_of(chars.begin(), chars.end(), [](char32_t c) { return c >= 0x4E00 && c <= 0x9FFF; });
}

}  // namespace

MoveReader::MoveReader(const std::vector<Tag>& tags) {
  if (const std::string* v = find_tag(tags, "Format")) known_ = notation_of_format(*v, notation_);
}

Result<Move> MoveReader::read(const Position& pos, std::string_view text) {
  if (!known_) {
    // The first move tells the notation: the forms of the three do not overlap (ICCS starts
    // with a file letter and a digit, WXF with a piece letter or a mark, Chinese outside ASCII).
    std::string chinese;  // why a text of other than ASCII is no Chinese move
    for (const Notation n : {Notation::kIccs, Notation::kWxf, Notation::kChinese}) {
      Result<Move> m = parse_move(pos, text, n);
      if (!m.ok()) {
        if (n == Notation::kChinese) chinese = m.error().message();
        continue;
      }
      notation_ = n;
      known_ = true;
      break;
    }
    if (!known_) {
      // A text of Chinese characters (in GB18030 or Big5, or CJK ideographs in UTF-8) is a Chinese
      // move: its reader says what is wrong, in UTF-8.
      if (chinese_characters(text)) return invalid_input(chinese);
      std::string why = "\"";
      why.append(text).append("\" is no legal move in ICCS, WXF or Chinese notation in ").append(pos.fen());
      return invalid_input(why);
    }
  }
  Result<LearntMove> m = learn_move(style_, pos, text, notation_);
  if (!m) {
    for (const Notation n : {Notation::kIccs, Notation::kWxf, Notation::kChinese})
      if (n != notation_ && parse_move(pos, text, n).ok())
        return invalid_input("move \"" + std::string(text) + "\" is in " + std::string(notation_name(n)) +
                             " notation, where the game's moves are in " + std::string(notation_name(notation_)));
    return m.error();
  }
  if (!m->reproducible)
    return invalid_input("move \"" + std::string(text) + "\" is written unlike the game's earlier moves (" + to_iccs(m->move) +
                         " would be written \"" + write_move(pos, m->move, notation_, style_) + "\")");
  return m->move;
}

Result<Position> position_after(const Game& game, int plies, Move* last_move) {
  if (last_move) *last_move = Move{};
  Result<Position> start = xiangqi::start_position(game.tags);
  if (!start) return start;
  return after_main_line(*start, game.events, plies, [last_move](Position& pos, const GameEvent& e) -> Status {
    const Move m = move_of(e.move);
    if (e.type == GameEvent::kNullMove || !is_legal(pos, m))
      return invalid_input("illegal Xiangqi move " + (e.type == GameEvent::kNullMove ? std::string("--") : to_iccs(m)) +
                           " in " + pos.fen());
    pos.play(m);
    if (last_move) *last_move = m;
    return {};
  });
}

Result<MoveTexts> move_texts(const Game& game, bool write) {
  Notation notation;
  NotationStyle style;
  if (Status st = read_notation(game.notation, notation, style); !st) return st.error();
  Result<Position> start = xiangqi::start_position(game.tags);
  if (!start) return start.error();
  Walker walker(*start);
  MoveTexts out{*start, {}};
  for (const GameEvent& e : game.events) {
    switch (e.type) {
      case GameEvent::kMove: {
        const Move m = move_of(e.move);
        if (!is_legal(walker.current(), m))
          return invalid_input("illegal Xiangqi move " + to_iccs(m) + " in " + walker.current().fen());
        if (write) out.texts.push_back(write_move(walker.current(), m, notation, style));
        walker.play(m);
        break;
      }
      case GameEvent::kNullMove:
        return invalid_input("a null move in a Xiangqi game");
      case GameEvent::kBeginVariation:
        if (!walker.begin_variation()) return invalid_input("a variation with no move before it to replace");
        break;
      case GameEvent::kEndVariation:
        if (!walker.end_variation()) return invalid_input("an end of variation on the main line");
        break;
      case GameEvent::kComment: case GameEvent::kNag:
        break;
    }
  }
  if (walker.depth() != 0) return invalid_input("a variation not closed");
  return out;
}

}  // namespace pgnarc::rules::xiangqi
