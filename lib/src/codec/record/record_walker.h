// Reading game records (internal): the grammar of a record, walked apart from what is made of it
// (record_decoder.cpp rebuilds the game), so that the checks of the record's bytes stand in one
// place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "codec/entropy/arith_coder.h"
#include "codec/record/clock_track.h"
#include "codec/codec.h"
#include "codec/record/comment_record.h"
#include "codec/record/record.h"

namespace pgnarc::codec {

// Walks one game record of a CodecCursor: its header, a raw game or the frame comments, then the
// main line and, depth first, its variations. The walker reads every byte and checks everything
// the record's bytes alone decide (lengths, reserved values, anchors, limits, item clocks,
// evaluations); the policy receives what the record holds, checks what needs
// more than the bytes (track clocks, predicted from the game's tags; moves, from the board) and
// says how a line's moves and variations are walked. A policy (all calls resolved at compile
// time) has:
//
//   using Start = ...;   // what a line starts from (decoding: its position)
//   struct Line {...};   // what a line keeps from its record until its moves are walked
//   void raw_game(std::string_view text);
//   void begin_game(GameResult result);
//   const std::vector<Tag>& tags() const;      // the game's
//   void frame_comment(int list, CommentKind kind, std::string_view text);   // 0 prelude, 1 epilogue
//   Status main_line(Start& start, Variant untagged);  // after the frame comments; `untagged`
//                                              // is the header's variant byte (8.1) or kStandard
//   void null_move(Line&, std::uint32_t ply);
//   void begin_track(Line&, std::uint64_t plies);
//   bool track_clock(std::uint64_t slot, std::uint64_t symbol, int form);  // false: out of range
//   void track_entry(Line&, std::uint64_t slot, ClockFrame, std::string_view before,
//                    std::string_view after, const Evaluation&);    // the same slot's frame
//                    // (frame 3: before and after are " ", the evaluation is in Evaluation)
//   void track_frame(Line&, std::uint64_t slot, std::uint8_t frame, std::string_view before,
//                    std::string_view after);  // a modelled track's (8.3.4): its time and
//                    // evaluation follow the line's moves in the codeword; kind 0's texts here
//   void item(Line&, std::uint32_t slot, ItemType, std::uint8_t nag, std::string_view text);
//   void clock_item(Line&, std::uint32_t slot, std::uint64_t seconds, std::string_view before,
//                   std::string_view after);
//   void record_item(Line&, std::uint32_t slot, std::string_view shape);  // checked by check_shape;
//                // its values follow the line's moves in the codeword
//   Status moves(RecordWalker&, Line&, const Start&, std::uint64_t plies, int depth);
//                // reads the line's move symbols, then calls walker.line(start, true, depth + 1)
//                // for each variation; plies is kUnknownPlies for an unannotated main line
//                // that is not counted (its symbols code its end)
//   Status end_moves(CodecCursor&);  // after the game: checks the end of its move codeword and
//                                    // advances the cursor's moves past it
//   static constexpr bool kXiangqi;  // the policy reads Xiangqi games (variant byte 8 of a
//                                    // block of kXiangqiCodec), and only those; it then has
//   Status notation(std::string_view bytes);  // the game's notation bytes, after its variant byte
//
// A Xiangqi game has no null moves, clock tracks, clock items or records (5.7.2).
//
// The cursor advances only past a record that was walked to its end.
template <class Policy>
class RecordWalker {
 public:
  using Start = typename Policy::Start;

  RecordWalker(CodecCursor& in, Policy& policy)
      : in_(in), policy_(policy), structure_(in.structure), texts_(in.texts) {}

  Status walk() {
    Status st = game();
    if (st) st = policy_.end_moves(in_);
    if (st) {
      in_.structure = structure_.rest();
      in_.texts = texts_.rest();
    }
    return st;
  }

  // The record of a line that starts at `start`: with `annotated` its ply count (but for a
  // counted main line), null moves, clock track and items; then its moves and variations, by
  // the policy. `counted`: the main line's plies, from the game's PlyCount tag (8.1), else
  // kUnknownPlies; an unannotated line not counted has its end coded in its move symbols.
  Status line(const Start& start, bool annotated, int depth, std::uint64_t counted = kUnknownPlies) {
    if (depth > kMaxDepth) return corrupt_record("variations nested too deep");
    std::uint64_t plies = counted;
    typename Policy::Line line;
    if (annotated && counted == kUnknownPlies && !structure_.varint(plies))
      return corrupt_record("a line's ply count is not a varint of the structure stream (cut short by its end, not minimal, or above 2^64 - 1)");
    if (plies != kUnknownPlies) {
      if (plies > kMaxPlies - total_plies_) return corrupt_record("more than 65536 plies in the game");
      total_plies_ += plies;
    }
    if (annotated)
      if (auto st = annotations(line, plies); !st) return st;
    return policy_.moves(*this, line, start, plies, depth);
  }

 private:
  Status game() {
    std::uint8_t header;
    if (!structure_.u8(header)) return corrupt_record("structure stream ends before the game header");
    if ((header & kVariantByte) && !in_.variants) return corrupt_record("reserved bits set in game header");
    if (header & kRaw) {
      if (header != kRaw) return corrupt_record("raw game header with other bits set");
      std::string_view text;
      common::ByteReader raw(in_.raw);
      if (!raw.prefixed(text)) return corrupt_record("raw text runs past the end of its section");
      policy_.raw_game(text);
      return {};
    }
    GameResult result = static_cast<GameResult>(header & kResultMask);
    if ((header & kResultMask) == kResultTagged) {
      result = tag_result(policy_.tags());
      if (result == GameResult::kNone)
        return corrupt_record("game header takes its result from a Result tag the game does not have");
    } else if (result > GameResult::kUnknown) {
      return corrupt_record("reserved result value");
    }
    Variant untagged = Variant::kStandard;
    std::uint8_t v = 0;
    if ((header & kVariantByte) && !structure_.u8(v)) return corrupt_record("structure stream ends before the game's variant");
    xiangqi_ = v == kXiangqiVariant && in_.xiangqi;
    if (xiangqi_ != Policy::kXiangqi)
      return corrupt_record(xiangqi_ ? "a Xiangqi game read as a game of chess" : "a game of chess read as a Xiangqi game");
    if (xiangqi_) {
      // The notation bytes: 1, 3 or 8, as their first byte's two low bits say (5.7.1).
      constexpr std::size_t kLength[4] = {1, 3, 8, 0};
      std::uint8_t first;
      std::string_view rest;
      if (!structure_.u8(first) || !kLength[first & 3])
        return corrupt_record("a Xiangqi game's notation is missing or of the reserved notation 3");
      if (!structure_.bytes(kLength[first & 3] - 1, rest))
        return corrupt_record("structure stream ends within a Xiangqi game's notation");
      if constexpr (Policy::kXiangqi)
        if (auto st = policy_.notation(std::string(1, static_cast<char>(first)) + std::string(rest)); !st) return st;
    } else if (header & kVariantByte) {
      if (v == 0 || v >= kVariantCount) return corrupt_record("reserved variant " + std::to_string(v) + " in game header");
      untagged = static_cast<Variant>(v);
    }
    policy_.begin_game(result);
    if (header & kHasFrame)
      for (int list = 0; list < 2; ++list)
        if (auto st = frame_comments(list); !st) return st;
    std::uint64_t counted = kUnknownPlies;
    if (header & kCounted) {
      counted = tag_ply_count(policy_.tags());
      if (counted == kUnknownPlies)
        return corrupt_record("game header counts its plies by a PlyCount tag the game does not have");
    }
    Start start{};
    if (auto st = policy_.main_line(start, untagged); !st) return st;
    return line(start, (header & kAnnotated) != 0, 0, counted);
  }

  Status frame_comments(int list) {
    std::uint64_t n;
    if (!structure_.varint(n) || n > structure_.remaining()) return corrupt_record("bad comment count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint8_t kind;
      if (!structure_.u8(kind) || kind > kEscape) return corrupt_record("bad comment kind");
      std::string_view text;
      if (!texts_.prefixed(text)) return corrupt_record("comment text runs past the end of its section");
      policy_.frame_comment(list, static_cast<CommentKind>(kind), text);
    }
    return {};
  }

  // A line's null moves, clock track and items (REC-LINE-1).
  Status annotations(typename Policy::Line& line, std::uint64_t plies) {
    std::uint64_t n;
    if (!structure_.varint(n)) return corrupt_record("bad null move count");
    const bool track = take_track_bit(n);
    if (n > plies) return corrupt_record("bad null move count");
    if (xiangqi_ && (n || track)) return corrupt_record("a null move or a clock track in a Xiangqi game");
    std::uint64_t at = 0;
    for (std::uint64_t k = 0; k < n; ++k) {
      std::uint64_t d;
      if (!structure_.varint(d)) return corrupt_record("bad null move ply");
      at += (k == 0 ? 0 : 1) + d;
      if (at >= plies) return corrupt_record("null move past the end of the line");
      policy_.null_move(line, static_cast<std::uint32_t>(at));
    }
    if (track)
      if (auto st = clock_track(line, plies); !st) return st;
    if (!structure_.varint(n) || n > kMaxItems || n > structure_.remaining()) return corrupt_record("bad item count");
    std::uint64_t slot = 0;
    ClockPair clocks;
    for (std::uint64_t k = 0; k < n; ++k) {
      std::uint64_t d;
      std::uint8_t type, nag = 0;
      std::string_view text;
      if (!structure_.varint(d) || !structure_.u8(type)) return corrupt_record("item runs past the end of its section");
      slot += d;
      if (slot > plies) return corrupt_record("item anchored past the end of the line");
      if (type > kRecord) return corrupt_record("reserved item type");
      if (xiangqi_ && type >= kClock) return corrupt_record("a clock or record item in a Xiangqi game");
      if (type == kNag && !structure_.u8(nag)) return corrupt_record("NAG runs past the end of its section");
      if (type <= kEscape && !texts_.prefixed(text))
        return corrupt_record("comment text runs past the end of its section");
      if (type == kVariation && slot == 0) return corrupt_record("variation before the first ply");
      if (type == kRecord) {
        std::uint64_t rank;
        if (!structure_.varint(rank)) return corrupt_record("record runs past the end of its section");
        std::string_view shape;
        if (rank == 0) {
          if (!texts_.prefixed(shape)) return corrupt_record("comment text runs past the end of its section");
          shapes_.add(shape);
        } else if (const std::string_view* recent = shapes_.use(rank)) {
          shape = *recent;
        } else {
          return corrupt_record("record names a shape the game has not had");
        }
        if (const char* why = check_shape(shape, slot > 0)) return corrupt_record(why);
        policy_.record_item(line, static_cast<std::uint32_t>(slot), shape);
      } else if (type == kClock) {
        std::uint64_t delta, seconds;
        std::string_view before, after;
        if (!structure_.varint(delta)) return corrupt_record("clock runs past the end of its section");
        if (!clocks.decode(slot, delta, seconds)) return corrupt_record("clock out of range");
        if (!texts_.prefixed(before) || !texts_.prefixed(after))
          return corrupt_record("comment text runs past the end of its section");
        policy_.clock_item(line, static_cast<std::uint32_t>(slot), seconds, before, after);
      } else {
        policy_.item(line, static_cast<std::uint32_t>(slot), static_cast<ItemType>(type), nag, text);
      }
    }
    return {};
  }

  // A line's clock track (REC-CLK-7): the frames as runs, then per slot 1 .. plies a clock symbol
  // and the frame's evaluation or texts.
  Status clock_track(typename Policy::Line& line, std::uint64_t plies) {
    if (plies == 0) return corrupt_record("clock track on a line without plies");
    if (in_.modelled_tracks) return modelled_track(line, plies);
    if (plies > structure_.remaining()) return corrupt_record("clock track runs past the end of its section");
    if (const char* why = read_frame_runs(structure_, plies, runs_)) return corrupt_record(why);
    policy_.begin_track(line, plies);
    std::int64_t last_centipawns = 0;
    std::uint64_t slot = 0;
    for (const auto& [length, frame] : runs_) {
      for (std::uint64_t i = 0; i < length; ++i) {
        ++slot;
        std::uint64_t symbol;
        if (!get_symbol(structure_, symbol)) return corrupt_record("clock track runs past the end of its section");
        if (!policy_.track_clock(slot, symbol, frame_form(frame))) return corrupt_record("clock out of range");
        std::string_view before = " ", after = " ";
        Evaluation eval;
        const ClockFrame kind = frame_kind(frame);
        if (kind == kFrameTexts) {
          if (!texts_.prefixed(before) || !texts_.prefixed(after))
            return corrupt_record("comment text runs past the end of its section");
        } else if (kind == kFrameBare) {
          before = after = {};
        } else if (kind == kFrameEval) {
          std::uint64_t e;
          if (!structure_.varint(e)) return corrupt_record("evaluation runs past the end of its section");
          if (!decode_eval(e, last_centipawns, eval)) return corrupt_record("evaluation out of range");
        }
        policy_.track_entry(line, slot, kind, before, after, eval);
      }
    }
    return {};
  }

  // A modelled track (8.3.4): its frame runs and kind 0's texts; the policy reads its times and
  // evaluations after the line's moves.
  Status modelled_track(typename Policy::Line& line, std::uint64_t plies) {
    if (const char* why = read_frame_runs(structure_, plies, runs_)) return corrupt_record(why);
    policy_.begin_track(line, plies);
    std::uint64_t slot = 0;
    for (const auto& [length, frame] : runs_) {
      for (std::uint64_t i = 0; i < length; ++i) {
        ++slot;
        std::string_view before, after;
        if (frame_kind(frame) == kFrameTexts && (!texts_.prefixed(before) || !texts_.prefixed(after)))
          return corrupt_record("comment text runs past the end of its section");
        policy_.track_frame(line, slot, frame, before, after);
      }
    }
    return {};
  }

  CodecCursor& in_;
  Policy& policy_;
  common::ByteCursor structure_, texts_;  // copies, written back by walk()
  std::uint64_t total_plies_ = 0;         // of all the game's lines, against kMaxPlies
  bool xiangqi_ = false;                  // the game is a Xiangqi game
  RecentShapes<std::string_view> shapes_;  // the game's record shapes
  // A track's frame runs, kept from record to record (a track is done with them before its
  // line's variations are walked).
  static thread_local FrameRuns runs_;
};

template <class Policy>
thread_local FrameRuns RecordWalker<Policy>::runs_;

// What a policy that rebuilds the game (record_decoder.cpp, xiangqi_record.cpp) makes of a
// record's header and frame: the game, or a verbatim game's bytes; its tags, given at the start,
// move into the game when it begins.
class RecordOut {
 public:
  explicit RecordOut(std::vector<Tag> tags) : tags_(std::move(tags)) {}
  ArchiveGame out;
  void raw_game(std::string_view text) {
    out.raw = true;
    out.raw_text.assign(text);
  }
  void begin_game(GameResult result) {
    out.game.result = result;
    out.game.tags = std::move(tags_);
    begun_ = true;
  }
  const std::vector<Tag>& tags() const { return begun_ ? out.game.tags : tags_; }
  void frame_comment(int list, CommentKind kind, std::string_view text) {
    (list == 0 ? out.game.prelude : out.game.epilogue).push_back(Comment{kind, std::string(text)});
  }

 private:
  std::vector<Tag> tags_;
  bool begun_ = false;
};

// A policy's end_moves: the game's codeword ends after its last line, with its closing bits
// (7.3); then the cursor's moves go past it.
inline Status end_codeword(ArithDecoder& decoder, CodecCursor& in) {
  const std::int64_t bits = decoder.finish();
  if (bits < 0) return corrupt_record("move codeword does not end as a coder ends it");
  const std::uint64_t at = in.move_bit + static_cast<std::uint64_t>(bits);
  if ((at + 7) / 8 > in.moves.size()) return corrupt_record("move codeword runs past the end of its section");
  in.moves.remove_prefix(at / 8);
  in.move_bit = static_cast<std::uint8_t>(at % 8);
  return {};
}

}  // namespace pgnarc::codec
