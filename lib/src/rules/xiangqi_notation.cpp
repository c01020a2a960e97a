// Xiangqi move notations: a move text is read into a description (piece, which of its kind,
// direction, number), which is matched against every legal move; writing builds the description
// the conventions call for and spells it in a style. Conventions: xiangqi_notation.h.
#include "rules/xiangqi_notation.h"

#include <cstdlib>
#include <string>
#include <string_view>


namespace pgnarc::rules::xiangqi {

namespace {

// Which of the pieces of a kind on one file a text names (front = nearest the enemy's back rank).
enum class Select : std::uint8_t {
  kFile,    // by the file alone ("C2", 炮二); for an odd number of WXF soldiers, the middle one
  kFront,   // WXF "+" ("P+" is the second foremost of four or five), 前
  kMiddle,  // 中; WXF two-file "33"
  kRear,    // WXF "-" ("P-" is the second rearmost of four or five), 后
  kFirst,   // WXF "++", the foremost of four or five
  kLast,    // WXF "--", the rearmost of four or five
  kNumber,  // numbered from the front: 一兵, "1P"
};

// A move as a text describes it, in the mover's terms.
struct Description {
  PieceType type = kNoPieceType;
  bool file_for_piece = false;  // two files with two or more soldiers: the file replaces the piece
  int file = 0;                 // 1..9 from the mover's right; 0 when the text gives none
  Select select = Select::kFile;
  int number = 0;  // kNumber: 1 is the foremost
  int dir = 0;     // +1 forward, -1 backward, 0 sideways
  int count = 0;   // ranks moved (line movers going forward or backward), else destination file
};

// Where a piece stands among the pieces of its side and kind.
struct Group {
  int index = 0;        // how many of them stand in front of it on its file
  int size = 1;         // how many of them stand on its file, itself included
  int crowded = 0;      // on how many files two or more of them stand
};

constexpr int file_number(Side s, int file) { return s == kRed ? kFiles - file : file + 1; }
constexpr bool diagonal(PieceType t) { return t == kAdvisor || t == kElephant || t == kHorse; }

Group group_of(const Position& pos, int square) {
  const Piece p = pos.piece_on(square);
  const int file = file_of(square), rank = rank_of(square);
  Group g;
  g.size = 0;
  for (int f = 0; f < kFiles; ++f) {
    int on_file = 0;
    for (int r = 0; r < kRanks; ++r) {
      if (pos.piece_on(make_square(f, r)) != p) continue;
      ++on_file;
      if (f == file && (side_of(p) == kRed ? r > rank : r < rank)) ++g.index;
    }
    if (f == file) g.size = on_file;
    if (on_file >= 2) ++g.crowded;
  }
  return g;
}

// The direction and number a move shows, whatever names its piece.
void set_motion(const Position& pos, Move m, Description& d) {
  const Side s = side_of(pos.piece_on(m.from));
  const int ranks = rank_of(m.to) - rank_of(m.from);
  const int forward = s == kRed ? ranks : -ranks;
  d.dir = forward > 0 ? 1 : forward < 0 ? -1 : 0;
  d.count = d.dir == 0 || diagonal(d.type) ? file_number(s, file_of(m.to)) : std::abs(ranks);
}

bool matches(const Position& pos, Move m, const Description& d, Notation notation) {
  const Piece p = pos.piece_on(m.from);
  if (type_of(p) != d.type) return false;
  if (d.file && d.file != file_number(side_of(p), file_of(m.from))) return false;
  const Group g = group_of(pos, m.from);
  const bool wxf = notation == Notation::kWxf, many = g.size >= 4;
  switch (d.select) {
    case Select::kFile:
      // The WXF page names the middle one of three or five soldiers by its file.
      if (wxf && d.type == kSoldier && g.size >= 3 && g.size % 2 && g.index != g.size / 2) return false;
      break;
    case Select::kFront:
      if (g.size < 2 || g.index != (wxf && many ? 1 : 0)) return false;
      break;
    case Select::kRear:
      if (g.size < 2 || g.index != (wxf && many ? g.size - 2 : g.size - 1)) return false;
      break;
    case Select::kMiddle:
      if (g.size < 3 || g.size % 2 == 0 || g.index != g.size / 2) return false;
      break;
    case Select::kFirst:
      if (g.size < 2 || g.index != 0) return false;
      break;
    case Select::kLast:
      if (g.size < 2 || g.index != g.size - 1) return false;
      break;
    case Select::kNumber:
      if (g.size < 2 || g.index != d.number - 1) return false;
      break;
  }
  Description motion = d;
  set_motion(pos, m, motion);
  return motion.dir == d.dir && motion.count == d.count;
}

// Whether the piece on `from` could move to `to` by its movement rules, whether or not that would
// leave its general attacked: a horse, chariot or cannon (attacks(), and a cannon's slide to an
// empty square as a chariot's).
bool reaches(const Position& pos, int from, int to) {
  const Piece p = pos.piece_on(from), q = pos.piece_on(to);
  if (q != kNoPiece && side_of(q) == side_of(p)) return false;
  std::uint8_t squares[17];
  if (type_of(p) == kCannon && q == kNoPiece) {
    if (file_of(from) != file_of(to) && rank_of(from) != rank_of(to)) return false;
    const int step = file_of(from) == file_of(to) ? (to > from ? kFiles : -kFiles) : (to > from ? 1 : -1);
    for (int s = from + step; s != to; s += step)
      if (pos.piece_on(s) != kNoPiece) return false;
    return true;
  }
  const int n = attacks(pos.board(), from, squares);
  for (int k = 0; k < n; ++k)
    if (squares[k] == to) return true;
  return false;
}

// Whether the other of two horses, chariots or cannons on the from-square's file could make a
// move of the direction and number `d` shows (tandem_file).
bool twin_could(const Position& pos, Move m, const Description& d) {
  const Piece p = pos.piece_on(m.from);
  for (int r = 0; r < kRanks; ++r) {
    const int other = make_square(file_of(m.from), r);
    if (other == m.from || pos.piece_on(other) != p) continue;
    for (int to = 0; to < kSquares; ++to) {
      Description motion = d;
      set_motion(pos, Move{static_cast<std::uint8_t>(other), static_cast<std::uint8_t>(to)}, motion);
      if (to != other && motion.dir == d.dir && motion.count == d.count && reaches(pos, other, to)) return true;
    }
  }
  return false;
}

// The description the conventions call for (xiangqi_notation.h), given the style's choices.
Description describe(const Position& pos, Move m, Notation notation, const NotationStyle& style) {
  const Piece p = pos.piece_on(m.from);
  Description d;
  d.type = type_of(p);
  d.file = file_number(side_of(p), file_of(m.from));
  set_motion(pos, m, d);
  const Group g = group_of(pos, m.from);
  if (g.size < 2 || d.type == kGeneral) return d;
  const auto front_or_rear = [&] { d.select = g.index == 0 ? Select::kFront : Select::kRear; };
  if (d.type == kAdvisor || d.type == kElephant) {
    if (style.tandem_advisor_elephant == Toggle::kYes) front_or_rear();
  } else if (d.type != kSoldier) {
    if (style.tandem_file != Toggle::kYes || twin_could(pos, m, d)) front_or_rear();
  } else if (g.size == 2 && g.crowded < 2) {
    front_or_rear();
  } else if (g.crowded >= 2) {  // at most three on this file: five soldiers in all
    d.file_for_piece = true;
    d.select = g.index == 0 ? Select::kFront : g.index == g.size - 1 ? Select::kRear : Select::kMiddle;
  } else if (style.soldiers == SoldierOrder::kNumbered) {
    d.select = Select::kNumber;
    d.number = g.index + 1;
  } else if (notation == Notation::kChinese) {  // 前 中 后, or 前 二 三 (四) 后 for four or five
    d.select = g.index == 0 ? Select::kFront : g.index == g.size - 1 ? Select::kRear
             : g.size == 3 ? Select::kMiddle : Select::kNumber;
    d.number = g.index + 1;
  } else if (g.size == 3) {
    d.select = g.index == 0 ? Select::kFront : g.index == 1 ? Select::kFile : Select::kRear;
  } else {  // four or five, as the WXF page
    const int i = g.index, n = g.size;
    d.select = i == 0 ? Select::kFirst : i == 1 ? Select::kFront : i == n - 1 ? Select::kLast
             : i == n - 2 ? Select::kRear : Select::kFile;
  }
  return d;
}

// ---- characters ----

// Candidates by PieceType, in PieceChar order (xiangqi_notation.h).
constexpr std::u32string_view kPieceChars[8] = {U"", U"帅帥将將", U"仕士", U"相象", U"马馬傌", U"车車俥", U"炮砲包", U"兵卒"};
constexpr PieceChar kDefaultChar[2][8] = {{0, 1, 1, 1, 1, 1, 1, 1}, {0, 3, 2, 2, 1, 1, 1, 2}};
// In Big5, which has no 帅 将 马 车: 帥 將 馬 車.
constexpr PieceChar kBig5DefaultChar[2][8] = {{0, 2, 1, 1, 2, 2, 1, 1}, {0, 4, 2, 2, 2, 2, 1, 2}};
constexpr std::u32string_view kNumerals = U"一二三四五六七八九";


template <class E>
E or_default(E value, E fallback) { return value == E{} ? fallback : value; }

// ---- writing ----

// Appends `c` in the style's encoding. A character the encoding lacks cannot be asked for:
// read_notation refuses such notation bytes and learn_move never learns them (it would be
// written in UTF-8).
void put(std::string& out, char32_t c, const NotationStyle& style) {
  if (!append_char(out, c, style.encoding)) append_char(out, c, Encoding::kUtf8);
}

void write_wxf(const Description& d, const NotationStyle& style, std::string& out) {
  static constexpr std::string_view kLetters = " KAEHRCP";
  char letter = kLetters[d.type];
  if (d.type == kElephant && style.wxf_elephant == ElephantLetter::kB) letter = 'B';
  if (d.type == kHorse && style.wxf_horse == HorseLetter::kN) letter = 'N';
  if (style.wxf_case == LetterCase::kLower) letter = static_cast<char>(letter | 0x20);
  const bool before = style.tandem == TandemPlace::kBefore;
  const char file = static_cast<char>('0' + d.file);
  const char mark = d.select == Select::kRear || d.select == Select::kLast ? '-' : '+';
  std::string s;
  switch (d.select) {
    case Select::kFile: s = {letter, file}; break;
    case Select::kFirst: case Select::kLast: s = {mark, mark}; break;
    case Select::kNumber: s = {static_cast<char>('0' + d.number), letter}; break;
    case Select::kFront: case Select::kMiddle: case Select::kRear: {
      const char who = d.file_for_piece ? file : letter;
      if (d.select == Select::kMiddle) s = {who, file};  // only in the two-file form: "33"
      else s = before ? std::string{mark, who} : std::string{who, mark};
      break;
    }
  }
  if (d.dir != 0) s += d.dir > 0 ? '+' : '-';
  else if (style.wxf_sideways == Sideways::kEquals) s += '=';
  else if (style.wxf_sideways != Sideways::kNone) s += '.';
  s += static_cast<char>('0' + d.count);
  if (style.wxf_width != Width::kFullWidth) {
    out += s;
    return;
  }
  for (const char c : s) put(out, 0xFF01 + static_cast<char32_t>(c - 0x21), style);
}

void write_chinese(const Description& d, Side side, const NotationStyle& style, std::string& s) {
  const Digits digits = or_default(style.digits[side], side == kRed ? Digits::kChinese : Digits::kFullWidth);
  const auto digit = [&](std::string& out, int v) {
    switch (digits) {
      case Digits::kUnset: case Digits::kChinese: put(out, kNumerals[static_cast<std::size_t>(v - 1)], style); break;
      case Digits::kFullWidth: put(out, 0xFF10 + static_cast<char32_t>(v), style); break;
      case Digits::kAscii: out += static_cast<char>('0' + v); break;
    }
  };
  const std::u32string_view chars = kPieceChars[d.type];
  const bool big5 = style.encoding == Encoding::kBig5;
  const PieceChar pc = or_default(style.piece_char[side][d.type], (big5 ? kBig5DefaultChar : kDefaultChar)[side][d.type]);
  const auto piece = [&](std::string& out) {
    if (d.file_for_piece) digit(out, d.file);
    else put(out, chars[static_cast<std::size_t>(pc - 1)], style);
  };
  switch (d.select) {
    case Select::kFile: piece(s); digit(s, d.file); break;
    case Select::kNumber: digit(s, d.number); piece(s); break;
    case Select::kFront: case Select::kMiddle: case Select::kRear: case Select::kFirst: case Select::kLast: {
      const char32_t mark = d.select == Select::kMiddle ? U'中'
                            : d.select == Select::kFront || d.select == Select::kFirst ? U'前'
                            : style.rear == Script::kTraditional ? U'後' : U'后';
      if (style.tandem == TandemPlace::kAfter) {
        piece(s);
        put(s, mark, style);
      } else {
        put(s, mark, style);
        piece(s);
      }
      break;
    }
  }
  const Script advance = or_default(style.advance, big5 ? Script::kTraditional : Script::kSimplified);
  put(s, d.dir > 0 ? (advance == Script::kTraditional ? U'進' : U'进') : d.dir < 0 ? U'退' : U'平', style);
  digit(s, d.count);
}

// ---- reading ----

// A text read: its description and the style elements its characters show (position-dependent
// elements aside: learn_move adds those once the move is known).
struct Reading {
  Description desc;
  NotationStyle marks;
};

// Empty when `text` is of the WXF form, else why not.
std::string read_wxf(std::u32string_view cps, Reading& out) {
  std::string s;
  for (const char32_t c : cps) {
    const bool wide = c >= 0xFF01 && c <= 0xFF5E;
    if (!wide && (c < 0x21 || c > 0x7E)) return "a character that is neither ASCII nor full-width";
    if (s.empty()) out.marks.wxf_width = wide ? Width::kFullWidth : Width::kAscii;
    s += static_cast<char>(wide ? c - 0xFF01 + 0x21 : c);
  }
  if (s.size() != 3 && s.size() != 4) return "expected 3 or 4 characters";
  Description& d = out.desc;
  NotationStyle& m = out.marks;
  const auto letter = [&](char c) {
    PieceType t = kNoPieceType;
    switch (c | 0x20) {
      case 'k': t = kGeneral; break;
      case 'a': t = kAdvisor; break;
      case 'e': case 'b': t = kElephant; break;
      case 'h': case 'n': t = kHorse; break;
      case 'r': t = kChariot; break;
      case 'c': t = kCannon; break;
      case 'p': t = kSoldier; break;
      default: return t;
    }
    if (m.wxf_case == LetterCase::kUnset) m.wxf_case = c & 0x20 ? LetterCase::kLower : LetterCase::kUpper;
    if (t == kElephant) m.wxf_elephant = (c | 0x20) == 'b' ? ElephantLetter::kB : ElephantLetter::kE;
    if (t == kHorse) m.wxf_horse = (c | 0x20) == 'n' ? HorseLetter::kN : HorseLetter::kH;
    return t;
  };
  const auto digit = [](char c) { return c >= '1' && c <= '9' ? c - '0' : 0; };
  const auto sign = [](char c) { return c == '+' ? Select::kFront : c == '-' ? Select::kRear : Select::kFile; };
  const PieceType t0 = letter(s[0]), t1 = t0 ? kNoPieceType : letter(s[1]);
  const int n0 = digit(s[0]), n1 = digit(s[1]);
  const Select s0 = sign(s[0]), s1 = sign(s[1]);
  if (t0 && n1) {  // "C2"
    d.type = t0, d.file = n1;
  } else if (t0 && s1 != Select::kFile) {  // "R+"
    d.type = t0, d.select = s1, m.tandem = TandemPlace::kAfter;
  } else if (s0 != Select::kFile && t1) {  // "+R"
    d.type = t1, d.select = s0, m.tandem = TandemPlace::kBefore;
  } else if (s0 != Select::kFile && s0 == s1) {  // "++", "--"
    d.type = kSoldier, d.select = s0 == Select::kFront ? Select::kFirst : Select::kLast;
  } else if (n0 && t1) {  // "1P"
    if (n0 > 5) return "a soldier numbered beyond 5";
    d.type = t1, d.select = Select::kNumber, d.number = n0;
  } else if (n0 && (s1 != Select::kFile || n1 == n0)) {  // "3+", "33"
    d.type = kSoldier, d.file_for_piece = true, d.file = n0;
    d.select = n1 ? Select::kMiddle : s1;
    if (!n1) m.tandem = TandemPlace::kAfter;
  } else if (s0 != Select::kFile && n1) {  // "+3"
    d.type = kSoldier, d.file_for_piece = true, d.file = n1, d.select = s0, m.tandem = TandemPlace::kBefore;
  } else {
    return "expected a piece letter (K A E H R C P) with a file 1-9 or a + or -";
  }
  const char dir = s.size() == 4 ? s[2] : 0;
  d.dir = dir == '+' ? 1 : dir == '-' ? -1 : 0;
  if (dir != 0 && dir != '+' && dir != '-' && dir != '.' && dir != '=')
    return "expected a direction +, -, . or =";
  if (d.dir == 0) m.wxf_sideways = dir == '.' ? Sideways::kDot : dir == '=' ? Sideways::kEquals : Sideways::kNone;
  d.count = digit(s.back());
  if (!d.count) return "expected a number 1-9 at the end";
  return {};
}

struct ChineseDigit {
  int value = 0;
  Digits form = Digits::kUnset;
};

ChineseDigit chinese_digit(char32_t c) {
  if (const std::size_t i = kNumerals.find(c); i != std::u32string_view::npos)
    return {static_cast<int>(i) + 1, Digits::kChinese};
  if (c >= U'１' && c <= U'９') return {static_cast<int>(c - 0xFF10), Digits::kFullWidth};
  if (c >= U'1' && c <= U'9') return {static_cast<int>(c - U'0'), Digits::kAscii};
  return {};
}

std::string read_chinese(std::u32string_view cps, Side side, Reading& out) {
  if (cps.size() != 4) return "expected 4 characters";
  Description& d = out.desc;
  NotationStyle& m = out.marks;
  const auto piece = [&](char32_t c) {
    for (int t = kGeneral; t <= kSoldier; ++t)
      if (const std::size_t i = kPieceChars[t].find(c); i != std::u32string_view::npos) {
        m.piece_char[side][t] = static_cast<PieceChar>(i + 1);
        return static_cast<PieceType>(t);
      }
    return kNoPieceType;
  };
  const auto digit = [&](char32_t c) {
    const ChineseDigit g = chinese_digit(c);
    if (g.value && m.digits[side] == Digits::kUnset) m.digits[side] = g.form;
    return g.value;
  };
  const auto mark = [&](char32_t c) {
    if (c == U'后' || c == U'後') m.rear = c == U'後' ? Script::kTraditional : Script::kSimplified;
    return c == U'前' ? Select::kFront : c == U'中' ? Select::kMiddle : c == U'后' || c == U'後' ? Select::kRear
                                                                                                 : Select::kFile;
  };
  if (const PieceType t = piece(cps[0])) {
    d.type = t;
    if ((d.file = digit(cps[1])) == 0) {  // 車前
      d.select = mark(cps[1]);
      m.tandem = TandemPlace::kAfter;
    }
  } else if (const Select s = mark(cps[0]); s != Select::kFile) {  // 前車, 前三
    d.select = s;
    m.tandem = TandemPlace::kBefore;
    if ((d.type = piece(cps[1])) == kNoPieceType) d.type = kSoldier, d.file_for_piece = true, d.file = digit(cps[1]);
  } else if (const int n = digit(cps[0])) {
    if ((d.type = piece(cps[1])) != kNoPieceType) {  // 一兵
      d.select = Select::kNumber, d.number = n;
      if (n > 5) return "a soldier numbered beyond 5";
    } else {  // 三前
      d.type = kSoldier, d.file_for_piece = true, d.file = n, d.select = mark(cps[1]);
      m.tandem = TandemPlace::kAfter;
    }
  }
  if (!d.type || (d.select == Select::kFile && !d.file) || (d.file_for_piece && (!d.file || d.select == Select::kFile)))
    return "expected a piece and a file, or 前/中/后 and a piece";
  switch (cps[2]) {
    case U'进': case U'進':
      d.dir = 1, m.advance = cps[2] == U'進' ? Script::kTraditional : Script::kSimplified;
      break;
    case U'退': d.dir = -1; break;
    case U'平': d.dir = 0; break;
    default: return "expected 进, 退 or 平 as the third character";
  }
  if ((d.count = digit(cps[3])) == 0) return "expected a number as the fourth character";
  return {};
}

struct Parsed {
  Move move;
  Reading reading;
};

std::string read_form(std::u32string_view cps, Notation notation, Side side, Reading& out) {
  return notation == Notation::kWxf ? read_wxf(cps, out) : read_chinese(cps, side, out);
}

// Reads `text` as a WXF or Chinese text, in the first of `prefer` (a game's encoding, once a text
// has shown it), UTF-8, GB18030 and Big5 whose characters are of the notation's form, and sets
// the encoding the reading shows (none for a text all ASCII). No pair of the encodings' table is
// both GB18030's and Big5's, but a GB18030 text may also be well-formed UTF-8 (車9平8 is
// DC 87 39 C6 BD 38, UTF-8 for ܇9ƽ8): UTF-8 is taken only where it reads as a move text. Returns
// why the text is not of the form (read as UTF-8, or as its bytes), or "".
std::string decode(std::string_view text, Notation notation, Side side, Encoding prefer, Reading& out) {
  std::u32string cps;
  bool ascii = true;
  for (const char c : text) ascii &= static_cast<unsigned char>(c) < 0x80;
  if (ascii) {
    cps.assign(text.begin(), text.end());
    return read_form(cps, notation, side, out);
  }
  const Encoding order[] = {prefer, Encoding::kUtf8, Encoding::kGb18030, Encoding::kBig5};
  for (std::size_t k = 0; k < std::size(order); ++k) {
    const Encoding e = order[k];
    if (e == Encoding::kUnset || (k > 0 && e == prefer)) continue;
    cps.clear();
    Reading r;
    if (!decode_text(text, e, cps) || !read_form(cps, notation, side, r).empty()) continue;
    out = r;
    out.marks.encoding = e;
    return {};
  }
  cps.clear();
  if (!decode_text(text, Encoding::kUtf8, cps)) cps.assign(text.begin(), text.end());
  return read_form(cps, notation, side, out);
}

Result<Parsed> parse(const Position& pos, std::string_view text, Notation notation, Encoding prefer = Encoding::kUnset) {
  const std::string_view name = notation_name(notation);
  Parsed out;
  // The text as it was, or, read in GB18030 or Big5 (as its reading found, else the first of
  // `prefer`, GB18030 and Big5 whose characters it is), in UTF-8 with its encoding named.
  const auto where = [&] {
    Encoding e = out.reading.marks.encoding;
    std::u32string chars;
    if (e == Encoding::kUnset && !decode_text(text, Encoding::kUtf8, chars))
      for (const Encoding c : {prefer, Encoding::kGb18030, Encoding::kBig5}) {
        chars.clear();
        if ((c == Encoding::kGb18030 || c == Encoding::kBig5) && decode_text(text, c, chars)) {
          e = c;
          break;
        }
      }
    chars.clear();
    if ((e != Encoding::kGb18030 && e != Encoding::kBig5) || !decode_text(text, e, chars))
      return " \"" + std::string(text) + "\" in " + pos.fen();
    std::string shown;
    for (const char32_t c : chars) append_char(shown, c, Encoding::kUtf8);
    return " \"" + shown + "\" (" + (e == Encoding::kGb18030 ? "GB18030" : "Big5") + ") in " + pos.fen();
  };
  if (notation == Notation::kIccs) {
    const Result<Move> m = parse_iccs(text);
    if (!m.ok())
      return invalid_input("bad ICCS move" + where() + ": expected a file a-i and a rank 0-9 twice, as in \"h2e2\" or \"H2-E2\"");
    if (!is_legal(pos, *m)) return invalid_input("no legal move matches ICCS move" + where());
    out.move = *m;
    out.reading.marks.iccs_case = text[0] & 0x20 ? LetterCase::kLower : LetterCase::kUpper;
    out.reading.marks.iccs_hyphen = text.size() == 5 ? Toggle::kYes : Toggle::kNo;
    return out;
  }
  const std::string why = decode(text, notation, pos.side_to_move(), prefer, out.reading);
  if (!why.empty()) return invalid_input("bad " + std::string(name) + " move" + where() + ": " + why);
  int found = 0;
  std::string which;
  for (const Move m : legal_moves(pos)) {
    if (!matches(pos, m, out.reading.desc, notation)) continue;
    out.move = m;
    which += (found++ ? ", " : "") + to_iccs(m);
  }
  if (found == 0) return invalid_input("no legal move matches " + std::string(name) + " move" + where());
  if (found > 1)
    return invalid_input(std::string(name) + " move" + where() + " is ambiguous: it matches " + which);
  return out;
}

template <class E>
void merge(E& into, E seen, bool& ok) {
  if (seen == E{}) return;
  if (into == E{}) into = seen;
  else if (into != seen) ok = false;
}

}  // namespace

std::string_view notation_name(Notation n) {
  switch (n) {
    case Notation::kIccs: return "ICCS";
    case Notation::kWxf: return "WXF";
    case Notation::kChinese: return "Chinese";
  }
  return "?";
}

Result<Move> parse_move(const Position& pos, std::string_view text, Notation notation) {
  Result<Parsed> p = parse(pos, text, notation);
  if (!p.ok()) return p.error();
  return p->move;
}

std::string write_move(const Position& pos, Move m, Notation notation, const NotationStyle& style) {
  if (notation == Notation::kIccs) {
    std::string s = to_iccs(m);
    if (style.iccs_case == LetterCase::kUpper) s[0] = static_cast<char>(s[0] & ~0x20), s[2] = static_cast<char>(s[2] & ~0x20);
    if (style.iccs_hyphen == Toggle::kYes) s.insert(2, 1, '-');
    return s;
  }
  const Description d = describe(pos, m, notation, style);
  std::string out;
  if (notation == Notation::kWxf) write_wxf(d, style, out);
  else write_chinese(d, side_of(pos.piece_on(m.from)), style, out);
  return out;
}

Result<LearntMove> learn_move(NotationStyle& style, const Position& pos, std::string_view text, Notation notation) {
  Result<Parsed> p = parse(pos, text, notation, style.encoding);
  if (!p.ok()) return p.error();
  const Description& d = p->reading.desc;
  NotationStyle seen = p->reading.marks;
  // The elements only the position tells: which convention a tandem text followed.
  // An element counts as shown when its two values would write this move differently.
  const auto differs = [&](void (*set)(NotationStyle&, bool)) {
    NotationStyle a = style, b = style;
    set(a, false);
    set(b, true);
    const Description x = describe(pos, p->move, notation, a), y = describe(pos, p->move, notation, b);
    return x.select != y.select || x.number != y.number;
  };
  if (differs([](NotationStyle& s, bool v) { s.tandem_advisor_elephant = v ? Toggle::kYes : Toggle::kNo; }))
    seen.tandem_advisor_elephant = d.select == Select::kFile ? Toggle::kNo : Toggle::kYes;
  if (differs([](NotationStyle& s, bool v) { s.tandem_file = v ? Toggle::kYes : Toggle::kNo; }))
    seen.tandem_file = d.select == Select::kFile ? Toggle::kYes : Toggle::kNo;
  if (differs([](NotationStyle& s, bool v) { s.soldiers = v ? SoldierOrder::kNumbered : SoldierOrder::kFrontRear; }))
    seen.soldiers = d.select == Select::kNumber ? SoldierOrder::kNumbered : SoldierOrder::kFrontRear;

  NotationStyle next = style;
  bool ok = true;
  merge(next.iccs_case, seen.iccs_case, ok);
  merge(next.iccs_hyphen, seen.iccs_hyphen, ok);
  merge(next.encoding, seen.encoding, ok);
  merge(next.wxf_width, seen.wxf_width, ok);
  merge(next.wxf_case, seen.wxf_case, ok);
  merge(next.wxf_sideways, seen.wxf_sideways, ok);
  merge(next.wxf_elephant, seen.wxf_elephant, ok);
  merge(next.wxf_horse, seen.wxf_horse, ok);
  for (int side = 0; side < 2; ++side) {
    for (int t = 0; t < 8; ++t) merge(next.piece_char[side][t], seen.piece_char[side][t], ok);
    merge(next.digits[side], seen.digits[side], ok);
  }
  merge(next.advance, seen.advance, ok);
  merge(next.rear, seen.rear, ok);
  merge(next.tandem, seen.tandem, ok);
  merge(next.soldiers, seen.soldiers, ok);
  merge(next.tandem_advisor_elephant, seen.tandem_advisor_elephant, ok);
  merge(next.tandem_file, seen.tandem_file, ok);
  LearntMove out{p->move, false};
  if (ok && write_move(pos, p->move, notation, next) == text) {
    style = next;
    out.reproducible = true;
  }
  return out;
}

}  // namespace pgnarc::rules::xiangqi
