// Record comments (internal; format specification, "Record comments"): an engine's report after
// a move, `{ d=27, pd=Ng6, mt=00:06:16, tl=01:54:13, s=22597 kN/s, pv=Ng3 Ng6 d4, wv=0.02, }`,
// cutechess's `{+0.45/23 12s}`, is data. A brace comment is split into its **shape**, the text
// with each value replaced by a mark and a format byte, and its **values**: decimal numbers, times
// (H:MM:SS) and runs of moves (SAN from the position before or after the comment's ply). The
// shape goes to the texts stream once per game (a game's records refer to their shapes by recency
// in the structure stream); the values go to the game's codeword after the moves of their line,
// each coded against the same field of the same side's previous record with adaptive integer
// frequencies, and each move of a run against the moves already seen from its position (the
// game's own move there, the last run that passed it) and then the move model. Everything is
// integer arithmetic: the bytes depend on nothing else.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codec/entropy/arith_coder.h"
#include "codec/codec.h"
#include "codec/entropy/move_coder.h"
#include "codec/entropy/symbol_coder.h"
#include "codec/model/move_model.h"

namespace pgnarc::codec {

// --- Shapes -----------------------------------------------------------------------------------

// The marks of a shape, each followed by one format byte. A comment holding a byte of these
// values is not a record.
inline constexpr std::uint8_t kMarkMoves = 0x02;   // format 2: from the position before the ply, 3: after
inline constexpr std::uint8_t kMarkTime = 0x03;    // format 2 + hour digits - 1 (1 to 10 digits)
inline constexpr std::uint8_t kMarkNumber = 0x04;  // format 2 + fraction + 8 * (sign + 3 * (width - 1))
inline constexpr std::uint8_t kFormatPre = 2, kFormatPost = 3;
inline constexpr std::uint8_t kMaxNumberFormat = 2 + 7 + 8 * (2 + 3 * 9);  // 241
inline constexpr std::uint8_t kMaxTimeFormat = 2 + 9;

// Limits: a number has at most 18 digits; a time is below 10^12 seconds; a run has 1 to 1024
// moves; a shape has at most 1024 values; a game's records hold at most 2^18 shape bytes, values
// and run moves together (they bound the work and the text a few bytes of a record can ask of a
// decoder: a record names a shape in a byte, and a move with one legal choice costs no bits).
inline constexpr std::int64_t kMaxRecordNumber = 999'999'999'999'999'999;
inline constexpr std::int64_t kMaxRecordTime = 999'999'999'999;
inline constexpr std::uint64_t kMaxRunMoves = 1024;
inline constexpr std::size_t kMaxShapeValues = 1024;
inline constexpr std::uint64_t kMaxGameRecordWork = 1u << 18;
// A game's records refer to at most this many recent shapes.
inline constexpr std::size_t kMaxRecentShapes = 255;

// One value of a record.
struct RecordValue {
  std::uint8_t mark = 0, format = 0;
  std::int64_t number = 0;   // a number (its digits as an integer, signed) or a time in seconds
  std::vector<Move> moves;   // a run
};

struct RecordSplit {
  std::string shape;
  std::vector<RecordValue> values;
};

// Splits a brace comment's `text` into a shape and values, moves read from `pre` (the position
// before the comment's ply; null at slot 0) or `post` (after it). False if the text is no record:
// it holds a mark byte, or no value.
bool split_record(std::string_view text, const Position* pre, const Position& post, RecordSplit& out);

// Why `shape` is not a valid shape for a record at a slot with (`has_pre`) or without a position
// before its ply, or nullptr: every mark is followed by a format byte of its range, a run "before
// the ply" needs one, and it has 1 to kMaxShapeValues values.
const char* check_shape(std::string_view shape, bool has_pre);

// Appends the text of a number or time value in `format`.
void append_number(std::string& out, std::int64_t value, std::uint8_t format);
void append_time(std::string& out, std::int64_t seconds, std::uint8_t format);

// A game's recent shapes, most recent first: a record names its shape by its rank here (1 the
// most recent) or 0 for a shape that follows in the texts stream.
// The writer keeps the shapes (T = std::string); a reader's point into the texts stream
// (std::string_view).
template <class T>
class RecentShapes {
 public:
  // The rank of `shape`, 0 if it is not here.
  std::uint64_t rank(std::string_view shape) const {
    for (std::size_t k = 0; k < shapes_.size(); ++k)
      if (shapes_[k] == shape) return k + 1;
    return 0;
  }
  // The shape at `rank` (1 ..), moved to the front; nullptr if there is none.
  const T* use(std::uint64_t rank) {
    if (rank == 0 || rank > shapes_.size()) return nullptr;
    std::rotate(shapes_.begin(), shapes_.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                shapes_.begin() + static_cast<std::ptrdiff_t>(rank));
    return &shapes_.front();
  }
  std::size_t size() const { return shapes_.size(); }
  const T& at(std::uint64_t rank) const { return shapes_[rank - 1]; }
  void add(std::string_view shape) {
    if (shapes_.size() == kMaxRecentShapes) shapes_.pop_back();
    shapes_.insert(shapes_.begin(), T(shape));
  }

 private:
  std::vector<T> shapes_;
};

// The writer's choice of sign style: where `r` differs from one of the four most recent shapes
// only in the sign style (0 or 1) of negative numbers, which read the same in both, `r` takes
// that shape.
void adopt_recent_signs(RecordSplit& r, const RecentShapes<std::string>& shapes);

// --- Values -----------------------------------------------------------------------------------

// A game's record state, in the encoder and the decoder alike: the fields seen, by label, and the
// moves seen from each position.
class RecordModel {
 public:
  // `limit`: the game's budget of shape bytes, values and run moves (tests raise it to write
  // what a reader must reject).
  explicit RecordModel(MoveCoder coder, std::uint64_t limit = kMaxGameRecordWork) : coder_(coder), limit_(limit) {}
  // The writer's check that a game's records stay within kMaxGameRecordWork: counts `r`'s shape
  // bytes, values and moves, false (and nothing counted) if they would pass it.
  bool admit(const RecordSplit& r);
  // Before a line's records: the line's moves (moves[k] played from states[k]; null moves are
  // Move::null()) as the game's moves from their positions.
  void enter_line(const std::vector<model::LineState>& states, const std::vector<Move>& moves);
  // Appends the symbols of a record's values to `out`. `pre` is null at slot 0. False if the
  // record cannot be coded (past the game's limit, which admit() keeps the writer from).
  bool encode(const RecordSplit& r, const model::LineState* pre, const model::LineState& post,
              std::vector<PlySymbol>& out);
  // Reads a record of `shape` (checked by check_shape) from `in` and appends its text to `text`;
  // false (with `why`) if the codeword does not hold one.
  bool decode(std::string_view shape, const model::LineState* pre, const model::LineState& post, ArithDecoder& in,
              std::string& text, const char*& why);

 private:
  struct Field {
    AdaptiveFrequencies<65> widths;  // the bit width of the zigzag difference
    std::int64_t last[2] = {0, 0};
    int fraction[2] = {0, 0};  // digits after the point of `last`
    bool seen[2] = {false, false};
    std::int64_t step[2] = {0, 0};  // time left: what was added to (previous - move time)
    std::uint64_t product[2] = {0, 0};  // nodes: speed times move time of the last record
  };
  struct Seen {
    Move recent = Move::none();  // the last run's move from this position
    Move game = Move::none();    // the game's move from it
  };
  template <class Coder>
  bool values(std::string_view shape, const model::LineState* pre, const model::LineState& post, Coder& coder);
  Field& field(const std::string& key);
  Seen& seen(const Position& pos);

  MoveCoder coder_;
  std::uint64_t limit_;
  std::unordered_map<std::string, std::size_t> field_index_;
  std::vector<Field> fields_;
  std::unordered_map<std::string, Seen> seen_;
  std::array<AdaptiveFrequencies<2>, 3> one_hint_;  // [run index 0, 1, 2+]: the hint, another move
  std::array<AdaptiveFrequencies<3>, 3> two_hints_;  // the recent move, the game's, another
  std::uint64_t work_ = 0;                           // shape bytes, values and run moves so far
  std::uint64_t admitted_ = 0;                       // the writer's count of them
  rules::PieceTargets targets_;
  PlyFrequencies freq_;
  std::unordered_map<std::string, int> labels_;  // kept from record to record for its buckets
  std::string key_, position_key_;
};

}  // namespace pgnarc::codec
