// The move codec: games <-> bytes.
//
// A game's moves are stored as one codeword of bits: at each ply the played move is a symbol
// among the legal moves in their canonical order (Position::legal_moves), with the integer
// frequency that the move coder gives it (move_coder.h), and an arithmetic coder
// (arith_coder.h) makes the game's symbols one codeword, which ends itself: a game's codeword
// follows the last one's with no length between. The model coder (move_model.h) gives likely
// moves more; the uniform coder gives every legal move the same. Everything else about a game (result,
// null moves, comments, NAGs, variations) goes to a structure stream and a text stream, and an
// unreadable game's bytes to a raw stream. The format specification states every byte; these
// functions are pure: bytes in, game out, no I/O.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::codec {

// The identifier of the game record codec, carried by each block (see the format
// specification): each game's moves as one codeword of modelled move symbols; comments, NAGs and variations as anchored items;
// clock comments ("[%clk H:MM:SS]") as numbers; and a line whose every ply carries a clock as a
// clock track: its frames as runs and each clock as a symbol (usually one byte) against the clock
// predicted from the game's TimeControl, with lichess's evaluation before it ("[%eval 0.17]
// [%clk 0:01:00]") as a number. Blocks of any other codec are refused as Unsupported.
inline constexpr std::uint8_t kMoveCodec = 6;
// The same codec with games under lichess's variants (format 1.1): a game's start position may
// be a variant's (named by its Variant tag, or by a byte after its header where the tags name
// none), and its plies are coded over the variant's legal moves: in a block of the model coder,
// three-check's and king of the hill's by the move model (their moves are standard chess's),
// crazyhouse's by the crazyhouse model (variant_model.h), the others' uniformly. A writer
// gives it only to blocks that hold such a game, so that other blocks stay readable by 1.0.
inline constexpr std::uint8_t kVariantsCodec = 7;
// The variants' codec with modelled clock tracks (format 1.3): a clock track's times and
// evaluations are symbols of the game's codeword after its line's moves, with the clock model's
// frequencies (clock_model.h), where codecs 6 and 7 keep them as bytes of the structure stream. A
// writer gives it only to blocks that hold a clock track, so that other blocks stay readable by
// 1.2.
inline constexpr std::uint8_t kModelledTracksCodec = 8;
// Codecs 7 and 8 with Xiangqi games besides (format 1.7): a game whose header's variant byte is 8
// is a Xiangqi game (5.7), its notation bytes after that byte, its moves coded over Xiangqi's
// legal moves, each with the same frequency whatever the block's coder. A writer gives them only
// to blocks that hold a Xiangqi game: 10 where codec 8 would be, else 9.
inline constexpr std::uint8_t kXiangqiCodec = 9;
inline constexpr std::uint8_t kXiangqiTracksCodec = 10;
// Codecs 9 and 10 whose Xiangqi games have the Xiangqi model's frequencies (format 1.8,
// xiangqi_model.h) under the model and the fast coder (under the uniform coder they are codecs
// 9 and 10). A writer gives them only to blocks of those coders that hold a Xiangqi game: 12
// where codec 10 would be, else 11.
inline constexpr std::uint8_t kXiangqiModelCodec = 11;
inline constexpr std::uint8_t kXiangqiModelTracksCodec = 12;
// Codecs 11 and 12 whose Xiangqi games' notation bytes may set two more elements (format 1.10,
// 5.7.1), reserved in codecs 9 to 12: the encoding of their move texts (GB18030 or Big5) and
// tandem pieces named by their file. A writer gives them only to blocks that hold such a game: 15
// where codec 12 (or 10) would be, else 14. Codec 13 is not a codec, as layout 2 is not a
// layout (the vector invalid/unknown_codec_13 names it as one no reader knows).
inline constexpr std::uint8_t kXiangqiSpellingsCodec = 14;
inline constexpr std::uint8_t kXiangqiSpellingsTracksCodec = 15;
inline constexpr std::uint8_t kUndefinedCodec = 13;
// Codecs 14 and 15 whose Xiangqi games take the frequencies of the Xiangqi model's opening book
// (format 1.15, 7.9.1; xiangqi_book.h) in the positions it holds, the model's in the others,
// under the model and the fast coder. A writer gives them where it would give 11, 12, 14 or 15
// to a block one of whose Xiangqi games' coded positions the book holds: 18 where a track was
// modelled, else 17 (a block whose Xiangqi games never meet the book codes the same bytes
// without it, readable by 1.8 to 1.14). Codec 16 is not a codec, as 13 is not (the vector
// invalid/unknown_codec_16 of 1.10 names it as one no reader knows).
inline constexpr std::uint8_t kXiangqiBookCodec = 17;
inline constexpr std::uint8_t kXiangqiBookTracksCodec = 18;
inline constexpr std::uint8_t kUndefinedCodec16 = 16;

// The frequencies a block's move symbols have (the block header says which).
enum class MoveCoder : std::uint8_t {
  kUniform = 0,  // every legal move equally likely
  kModel = 1,    // the move model's frequencies (the strongest: `--moves max`)
  kFast = 2,     // the fast model's (format 1.2): the opening book's counts, else a few table lookups a move
};

// The per-game output of the codec, appended to four streams that a block keeps as sections.
struct CodecStreams {
  std::string moves;      // the games' move codewords, bit after bit (most significant first)
  std::string structure;  // result, flags, null moves, comment/NAG/variation anchors
  std::string texts;      // comment texts
  std::string raw;        // verbatim games
  std::uint64_t move_bits = 0;  // bits in `moves`
  MoveCoder coder = MoveCoder::kModel;
  bool variants = false;  // a game under a variant was encoded: the block's codec is kVariantsCodec
  bool modelled_tracks = false;  // code clock tracks with the clock model (kModelledTracksCodec)
  bool tracks = false;          // a clock track was encoded
  bool xiangqi = false;         // a Xiangqi game was encoded
  // Code Xiangqi games with the Xiangqi model where the coder is not uniform (kXiangqiModelCodec);
  // set before the first game is encoded.
  bool xiangqi_model = false;
  // Code Xiangqi games whose notation bytes set an element of codecs 14 and 15 (with
  // xiangqi_model); set before the first game is encoded. Without, such a game cannot be encoded.
  bool xiangqi_spellings = false;
  bool xiangqi_spelled = false;  // such a game was encoded: the block's codec is 14, 15, 17 or 18
  // Code Xiangqi games with the Xiangqi model's opening book too (kXiangqiBookCodec; with
  // xiangqi_model and xiangqi_spellings); set before the first game is encoded.
  bool xiangqi_book = false;
  bool xiangqi_in_book = false;  // with xiangqi_book, a ply was coded in a position the book holds
  // Whether Xiangqi games are coded with the Xiangqi model.
  bool xiangqi_modelled() const { return xiangqi_model && coder != MoveCoder::kUniform; }
  // Whether the book gives a Xiangqi position it holds its frequencies.
  bool xiangqi_booked() const { return xiangqi_book && xiangqi_modelled(); }
  // The block's codec: with a Xiangqi game coded in a position the book holds
  // kXiangqiBookTracksCodec where a track was modelled, else kXiangqiBookCodec; with a Xiangqi
  // game of codec 14's elements kXiangqiSpellingsTracksCodec where a track was modelled, else
  // kXiangqiSpellingsCodec; with other Xiangqi games kXiangqiTracksCodec
  // where a track was modelled, else kXiangqiCodec, each 2 more where the Xiangqi model codes
  // their moves; without, kModelledTracksCodec where a track was modelled, else kVariantsCodec
  // where a game is under a variant, else kMoveCodec.
  std::uint8_t codec() const {
    const bool track = modelled_tracks && tracks;
    if (xiangqi && xiangqi_booked() && xiangqi_in_book) return track ? kXiangqiBookTracksCodec : kXiangqiBookCodec;
    if (xiangqi && xiangqi_spelled) return track ? kXiangqiSpellingsTracksCodec : kXiangqiSpellingsCodec;
    if (xiangqi)
      return static_cast<std::uint8_t>((track ? kXiangqiTracksCodec : kXiangqiCodec) + (xiangqi_modelled() ? 2 : 0));
    return modelled_tracks && tracks ? kModelledTracksCodec : variants ? kVariantsCodec : kMoveCodec;
  }
};

// Figures about what was encoded, for reports and benchmarks.
struct CodecStats {
  std::uint64_t games = 0;
  std::uint64_t raw_games = 0;
  std::uint64_t plies = 0;            // all plies, variations included
  std::uint64_t mainline_plies = 0;
  double log2_legal_moves = 0;        // sum of log2(legal moves) over coded plies: the entropy bound
  // One more game, with the figures of its lines.
  void add_game(const CodecStats& game) {
    ++games;
    plies += game.plies;
    mainline_plies += game.mainline_plies;
    log2_legal_moves += game.log2_legal_moves;
  }
};

// Appends `game` to `out`. Fails (InvalidInput) if a move is not legal where it stands, a
// variation does not follow a move, or the start position cannot be derived from the tags.
Status encode_game(const Game& game, CodecStreams& out, CodecStats* stats = nullptr);
// As encode_game, with the game's budget of record work (8.3.3, REC-RCD-2) set to `record_work`:
// above the format's limit, it writes what a reader must reject (for the conformance vectors).
Status encode_game_with_record_work(const Game& game, CodecStreams& out, std::uint64_t record_work);
// Appends a game kept verbatim: its bytes exactly as they were in the input.
void encode_raw_game(std::string_view raw_text, CodecStreams& out, CodecStats* stats = nullptr);

// Read positions in the four streams of a block.
struct CodecCursor {
  std::string_view moves;
  std::string_view structure;
  std::string_view texts;
  std::string_view raw;
  MoveCoder coder = MoveCoder::kModel;
  bool variants = false;  // the block's codec is kVariantsCodec or kModelledTracksCodec
  bool modelled_tracks = false;  // the block's codec is kModelledTracksCodec
  std::uint8_t move_bit = 0;  // the next codeword starts at this bit (0-7, most significant first) of moves[0]
  bool xiangqi = false;  // the block's codec is 9 to 12, 14, 15, 17 or 18 (variants too)
  bool xiangqi_model = false;  // the block's codec is 11, 12, 14, 15, 17 or 18
  bool xiangqi_spellings = false;  // the block's codec is 14, 15, 17 or 18
  bool xiangqi_book = false;       // the block's codec is kXiangqiBookCodec or kXiangqiBookTracksCodec
  // Whether Xiangqi games are coded with the Xiangqi model.
  bool xiangqi_modelled() const { return xiangqi_model && coder != MoveCoder::kUniform; }
  // Whether the book gives a Xiangqi position it holds its frequencies.
  bool xiangqi_booked() const { return xiangqi_book && xiangqi_modelled(); }
};

// Decodes the next game from `in`, advancing `in` past it on success. `tags` are the game's tags
// (they give the start position and the clock track's prediction; a game not kept verbatim has
// them as its tags). Any inconsistency (a length past the end, a reserved value, a move codeword
// whose value lies in no symbol or whose closing bits are not a coder's, a move where there is no
// legal move) fails with Corruption.
Result<ArchiveGame> decode_game(CodecCursor& in, std::vector<Tag> tags);

// Reads the main line of the next game of `in` ply by ply, for a search: visit(position, move)
// for each ply (the position it is played in; Move::null() for a null move), then
// visit(position, Move::none()) where the line ends; stops as soon as visit returns false. Reads
// no more of the game than its main line's moves need, and does not advance `in` (a caller that
// scans game after game starts each at its own directory group: one game a group). Sets `raw`
// for a game kept verbatim (visit is not called) and `result` to the game's result; a Xiangqi
// game, which has no chess position, is not read (visit is not called, result is kNone). Damage
// it meets is Corruption; it does not check what lies beyond the moves it reads.
Status scan_main_line(const CodecCursor& in, std::vector<Tag> tags,
                      const std::function<bool(const Position& before, Move move)>& visit, bool& raw,
                      GameResult& result);

// Advances `in` past the next game (whose tags are `tags`): a game's codeword ends where its
// moves end, so this decodes the game (decode_game, the game dropped).
Status skip_game(CodecCursor& in, const std::vector<Tag>& tags);

}  // namespace pgnarc::codec
