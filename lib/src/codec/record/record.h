// The game record's vocabulary (internal): the bits of a game's header byte, the item types of a
// line's annotation list, the frames of a clock track, and the limits a record must keep. The
// byte layout is defined in format-spec/pgnarc-format.md, "Game records".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::codec {

// Header byte of a game in the structure stream.
inline constexpr std::uint8_t kResultMask = 0x07;
// The result field's value for "the result the game's Result tag gives" (8.1).
inline constexpr std::uint8_t kResultTagged = 5;
inline constexpr std::uint8_t kAnnotated = 0x08;  // null moves, comments, NAGs or variations follow
inline constexpr std::uint8_t kHasFrame = 0x10;   // prelude and epilogue comments follow
inline constexpr std::uint8_t kRaw = 0x20;        // a verbatim game; nothing else is set
inline constexpr std::uint8_t kCounted = 0x40;    // the main line's plies are the PlyCount tag's
// In a block of the variants codec (kVariantsCodec) a byte follows the header: the Variant the
// game is played under, its tags naming none (8.1); in a block of kMoveCodec the bit is reserved.
inline constexpr std::uint8_t kVariantByte = 0x80;
// The variant byte of a Xiangqi game (kXiangqiCodec): its notation bytes follow
// (rules/xiangqi_game.h: 1, 3 or 8 bytes, as their first byte's notation says).
inline constexpr std::uint8_t kXiangqiVariant = 8;

// Item types of a line's annotation list. A clock item is a brace comment whose text holds a
// clock command "[%clk H:MM:SS]": the seconds are coded as a number, the text around the
// command as two texts. A record item is a brace comment coded as a shape and values
// (comment_record.h). Types above kRecord are reserved.
enum ItemType : std::uint8_t { kBrace = 0, kLine = 1, kEscape = 2, kNag = 3, kVariation = 4, kClock = 5, kRecord = 6 };

// The text around a clock of a line's clock track, named by the two low bits of its frame run:
// two texts of their own, " " on both sides (lichess), nothing, or lichess's analysed form
// " [%eval E] [%clk H:MM:SS] " (the evaluation is then a number after the clock's symbol).
enum ClockFrame : std::uint8_t { kFrameTexts = 0, kFrameSpaces = 1, kFrameBare = 2, kFrameEval = 3 };

// Limits (format specification, "Limits").
// Plies in one game, all its lines together: bounds the work a few bytes can ask of a decoder.
inline constexpr std::uint64_t kMaxPlies = 1u << 16;
// The ply count of a line whose length is not known (an unannotated main line not counted by a
// PlyCount tag): its symbols code its end.
inline constexpr std::uint64_t kUnknownPlies = ~std::uint64_t{0};

// The result the game's first Result tag gives (spec 8.1), if its value is exactly `1-0`, `0-1`,
// `1/2-1/2` or `*`; else GameResult::kNone.
inline GameResult tag_result(const std::vector<Tag>& tags) {
  if (const std::string* v = find_tag(tags, "Result"))
    for (GameResult r : {GameResult::kWhiteWins, GameResult::kBlackWins, GameResult::kDraw, GameResult::kUnknown})
      if (*v == result_text(r)) return r;
  return GameResult::kNone;
}

// The number of plies the game's first PlyCount tag gives (spec 8.1), if its value is a plain
// decimal (no leading zeros) of at most 2^16; else kUnknownPlies.
inline std::uint64_t tag_ply_count(const std::vector<Tag>& tags) {
  const std::string* v = find_tag(tags, "PlyCount");
  if (!v || v->empty() || v->size() > 5 || ((*v)[0] == '0' && v->size() > 1)) return kUnknownPlies;
  std::uint64_t n = 0;
  for (char c : *v) {
    if (c < '0' || c > '9') return kUnknownPlies;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n <= kMaxPlies ? n : kUnknownPlies;
}
inline constexpr int kMaxDepth = kMaxVariationDepth;
inline constexpr std::uint64_t kMaxItems = 1u << 24;

// A line's first varint in the structure stream is its null move count times two, plus one if
// the line has a clock track: takes that bit off `n`.
inline bool take_track_bit(std::uint64_t& n) {
  const bool track = n & 1;
  n >>= 1;
  return track;
}

// The error of a record that breaks the grammar (reading) and of a game the codec cannot
// represent (writing).
inline Error corrupt_record(const std::string& why) { return corruption("game record: " + why); }

// The start position of a game record (8.1, START-1): its tags', under `untagged` (the header's
// variant byte) where they name no variant; a variant's only in a block of kVariantsCodec
// (`variants`).
Result<Position> record_start(const std::vector<Tag>& tags, Variant untagged, bool variants);
inline Error bad_game(const std::string& why) { return invalid_input("cannot encode game: " + why); }

// Does a variation open after the move at events[i - 1] (only comments and NAGs between)?
inline bool variation_follows(const std::vector<GameEvent>& events, std::size_t i, std::size_t end) {
  for (; i < end; ++i) {
    if (events[i].type == GameEvent::kBeginVariation) return true;
    if (events[i].type != GameEvent::kComment && events[i].type != GameEvent::kNag) return false;
  }
  return false;
}

// Just past the kEndVariation that closes the variation opened at events[i] (its own events are
// [i + 1, the result - 1)), or 0 where none closes it before `end`.
inline std::size_t variation_close(const std::vector<GameEvent>& events, std::size_t i, std::size_t end) {
  int level = 1;
  std::size_t j = i + 1;
  for (; j < end && level > 0; ++j) {
    if (events[j].type == GameEvent::kBeginVariation) ++level;
    else if (events[j].type == GameEvent::kEndVariation) --level;
  }
  return level == 0 ? j : 0;
}

struct CodecStreams;
// Writes a frame's comment list (8.2): its count and kinds to the structure stream, its texts to
// the texts stream.
void put_comments(const std::vector<Comment>& comments, CodecStreams& out);

}  // namespace pgnarc::codec
