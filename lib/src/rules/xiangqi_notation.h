// Xiangqi move notations: ICCS coordinates, WXF and Chinese, read leniently and written back in
// the style a game's movetext shows (internal to the rules layer).
//
// An archive stores a move as its index among the legal moves, so it must be able to give back
// the text it read. A NotationStyle holds every byte-level choice a game's movetext makes (full-
// width or ASCII, 进 or 進, where the front/rear mark goes, ...); learn_move reads a move, adds the
// choices its text shows to the game's style and says whether write_move now reproduces the text
// byte for byte. Where it does not (a choice the style cannot hold, or one that contradicts an
// earlier move of the game), the caller keeps that text verbatim.
//
// The notations (text is UTF-8, or GB18030 or Big5: xiangqi_encoding.h):
//   ICCS     "h2e2", "H2-E2": from- and to-square (xiangqi.h).
//   WXF      "C2.5", "H8+7", "R1+1", "+R+1" / "R++1": the World Xiangqi Federation's notation
//            (www.wxf.org/xq/computer/wxf_notation.html, adopted 1997): piece letter K A E H R C P
//            (B and N also read, as in FEN), the file the piece stands on counted from the mover's
//            right (1..9), a direction + (forward), - (backward), . or = (sideways), then for a
//            forward or backward move of a line mover (K R C P) the number of ranks moved, else the
//            destination file. Written in ASCII or all in full-width forms ("Ｃ２＝５").
//   Chinese  "炮二平五", "马８进７", "前炮平四": piece character, file (Red counts 一..九 from
//            its right, Black １..９ from its right), 进 / 退 / 平, number as in WXF.
//
// Two or more pieces of a kind on one file (tandem pieces) are told apart instead of by file:
//   two (any kind)       front / rear: WXF "+" / "-" in place of the file, before the letter
//                        ("+R+1", as wukong's full-width files) or after it ("R+.3", "C--1", as
//                        the WXF page); Chinese 前 / 后 (後) before the piece ("前炮平四", as every
//                        real file we found) or after it ("車前平三", as the WXF page's Chinese).
//   three soldiers       Chinese 前 / 中 / 后; WXF "P+" / "P3" (the middle one by its file, as the
//                        WXF page says) / "P-". Or numbered from the front (一兵 二兵 三兵,
//                        "1P" "2P" "3P"): a style choice (SoldierOrder).
//   four or five         WXF page: "++" foremost, "P+" second, "P3" middle of five, "P-" second
//                        rearmost, "--" rearmost. Chinese: 前兵 二兵 三兵 (四兵) 后兵, as DPXQ's
//                        move decoder writes them (www.dpxq.com; copied in maksimKorzh/wukong-
//                        xiangqi xqdb/move_decoder.js); numbered style 一兵 .. 五兵. The ordinal is
//                        in the side's digits (black ２卒); DPXQ writes 二 for both sides, which a
//                        style cannot hold (such a text is kept verbatim).
//   two files with two   WXF page: the file replaces the letter: "3+.4", "33.4" (middle), "3-.4"
//   or more soldiers     (prefix form "+3.4"). Chinese: the file replaces the piece: 前三平四,
//                        中三平四, 后三平四 (as DPXQ's decoder; after the mark: 三前平四). No real
//                        file in the corpus gathered has this case.
//   advisors, elephants  two on a file never need a mark (the one that can go forward is the rear
//                        one), so by default they keep the file number; a style may learn the
//                        marks (tandem_advisor_elephant) if a game uses them.
// Reading accepts every form above whatever the style, and a plain file number for tandem pieces
// when only one of them can make the move described (a style may learn to write it so where the
// other could not make such a move even leaving its general attacked: tandem_file).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/status.h"
#include "rules/xiangqi.h"
#include "rules/xiangqi_encoding.h"

namespace pgnarc::rules::xiangqi {

enum class Notation : std::uint8_t { kIccs, kWxf, kChinese };
// "ICCS", "WXF" or "Chinese".
std::string_view notation_name(Notation n);

// Every element starts at 0, "not seen yet"; write_move then uses the default named first.
enum class LetterCase : std::uint8_t { kUnset, kLower, kUpper };  // ICCS default lower, WXF upper
enum class Toggle : std::uint8_t { kUnset, kNo, kYes };           // default no
enum class Width : std::uint8_t { kUnset, kAscii, kFullWidth };   // every character of a WXF move
enum class Sideways : std::uint8_t { kUnset, kDot, kEquals, kNone };  // "C2.5", "C2=5", "C25"
enum class ElephantLetter : std::uint8_t { kUnset, kE, kB };
enum class HorseLetter : std::uint8_t { kUnset, kH, kN };
enum class TandemPlace : std::uint8_t { kUnset, kBefore, kAfter };  // default: WXF after, Chinese before
enum class SoldierOrder : std::uint8_t { kUnset, kFrontRear, kNumbered };  // three (WXF: 3+) on a file
enum class Digits : std::uint8_t { kUnset, kChinese, kFullWidth, kAscii };  // 一 / １ / 1
enum class Script : std::uint8_t { kUnset, kSimplified, kTraditional };  // 进/進, 后/後

// The characters a Chinese move may name a piece by, per type, in the order PieceChar counts
// them (1-based; 0 is unset). Either side's character is read for either side.
//   general 帅 帥 将 將, advisor 仕 士, elephant 相 象, horse 马 馬 傌, chariot 车 車 俥,
//   cannon 炮 砲 包, soldier 兵 卒.
// Defaults: Red 帅 仕 相 马 车 炮 兵, Black 将 士 象 马 车 炮 卒.
using PieceChar = std::uint8_t;

// The byte-level choices of one game's movetext. Elements no move has shown stay unset.
struct NotationStyle {
  // WXF and Chinese: the encoding of their characters beyond ASCII (xiangqi_encoding.h). In Big5
  // the Chinese defaults are 帥 將 馬 車 進, which it has.
  Encoding encoding = Encoding::kUnset;
  // ICCS
  LetterCase iccs_case = LetterCase::kUnset;
  Toggle iccs_hyphen = Toggle::kUnset;
  // WXF
  Width wxf_width = Width::kUnset;
  LetterCase wxf_case = LetterCase::kUnset;
  Sideways wxf_sideways = Sideways::kUnset;
  ElephantLetter wxf_elephant = ElephantLetter::kUnset;
  HorseLetter wxf_horse = HorseLetter::kUnset;
  // Chinese, per side (indexed by Side)
  std::array<std::array<PieceChar, 8>, 2> piece_char{};  // [side][PieceType]
  std::array<Digits, 2> digits{};                        // default Red 一, Black １
  Script advance = Script::kUnset;                       // 进 or 進
  Script rear = Script::kUnset;                          // 后 or 後
  // Tandem pieces, WXF and Chinese
  TandemPlace tandem = TandemPlace::kUnset;
  SoldierOrder soldiers = SoldierOrder::kUnset;
  Toggle tandem_advisor_elephant = Toggle::kUnset;
  // Two horses, chariots or cannons on a file named by their file, as a single piece is, unless
  // the other could make a move of the same direction and number by its movement rules (check
  // aside): then front / rear (the Chinese Chess Practical Dataset's texts). Default no.
  Toggle tandem_file = Toggle::kUnset;

  friend bool operator==(const NotationStyle&, const NotationStyle&) = default;
};

// Reads `text` as a move of `pos` in `notation`, in any of the forms above. Fails with
// InvalidInput quoting the text and, once it is well formed, the FEN: when it is not of the
// notation's form, when no legal move matches it, or when several do (naming them in ICCS).
Result<Move> parse_move(const Position& pos, std::string_view text, Notation notation);

// The text of `m`, a legal move of `pos`, in `notation` and `style` (unset elements as defaulted
// above). For ICCS the same as to_iccs up to case and hyphen.
std::string write_move(const Position& pos, Move m, Notation notation, const NotationStyle& style);

// A move read by learn_move, and whether write_move gives its text back.
struct LearntMove {
  Move move;
  bool reproducible = false;
};

// parse_move, and then: adds to `style` the choices `text` shows and returns reproducible = true
// when write_move(pos, move, notation, style) == text byte for byte; when that cannot be (a
// choice the style has no element for, such as mixed widths, a plain file number where the
// position calls for front/rear, or one contradicting an element an earlier move set), leaves
// `style` unchanged and returns reproducible = false. Elements once set never change, so a move
// that was reproducible stays so however many moves are learnt after it. Fails as parse_move.
Result<LearntMove> learn_move(NotationStyle& style, const Position& pos, std::string_view text,
                              Notation notation);

}  // namespace pgnarc::rules::xiangqi
