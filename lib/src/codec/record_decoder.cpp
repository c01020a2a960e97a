// Decoding game records: the record walker (record_walker.h) with a policy that rebuilds the game,
// replaying its moves on the board.
#include <array>

#include "codec/clock_track.h"
#include "codec/codec.h"
#include "codec/move_integer.h"
#include "codec/record.h"
#include "codec/record_walker.h"
#include "codec/san_hints.h"
#include "rules/movegen.h"

namespace pgnarc {

using namespace detail;

namespace {

class DecodePolicy {
 public:
  using Start = Position;
  // An item of a line as read, until the moves reach its slot.
  struct DItem {
    std::uint32_t slot;
    ItemType type;
    std::uint8_t nag;
    std::string_view text;
    std::string clock_text;  // kClock: the comment text rebuilt around its clock command
  };
  struct Line {
    std::vector<std::uint32_t> nulls;
    std::vector<DItem> items;  // the clock track's clocks first (`tracked` of them), then the others
    std::size_t tracked = 0;
  };

  DecodePolicy(std::vector<Tag> tags, std::vector<std::uint8_t>* hints) : tags_(std::move(tags)), hints_(hints) {}

  DecodedGame out;

  void raw_game(std::string_view text) {
    out.raw = true;
    out.raw_text.assign(text);
  }
  void begin_game(GameResult result) {
    out.game.result = result;
    out.game.tags = std::move(tags_);
  }
  void frame_comment(int list, CommentKind kind, std::string_view text) {
    (list == 0 ? out.game.prelude : out.game.epilogue).push_back(Comment{kind, std::string(text)});
  }
  Status main_line(Position& start) {
    auto s = start_position(out.game.tags);
    if (!s) return corrupt_record("the tags give no start position: " + s.error().message());
    start = *s;
    return {};
  }
  void null_move(Line& line, std::uint32_t ply) { line.nulls.push_back(ply); }

  void begin_track(Line& line, std::uint64_t plies) {
    line.items.reserve(plies);
    if (!basis_known_) {
      basis_ = clock_basis(out.game.tags);
      basis_known_ = true;
    }
    predictor_ = ClockPredictor{basis_, {0, 0}};
  }
  // The clock at `slot` is the predicted one less the symbol's (zigzag) value.
  bool track_clock(std::uint64_t slot, std::uint64_t symbol) {
    const std::int64_t seconds = predictor_.predict(slot) - unzigzag(symbol);
    if (seconds < 0 || static_cast<std::uint64_t>(seconds) > kMaxClockSeconds) return false;
    predictor_.last[slot & 1] = seconds;
    track_seconds_ = static_cast<std::uint64_t>(seconds);
    return true;
  }
  void track_entry(Line& line, std::uint64_t slot, ClockFrame frame, std::string_view before, std::string_view after,
                   const Evaluation& eval) {
    if (frame == kFrameEval) {
      eval_text_.clear();
      append_eval_frame(eval_text_, eval);
      before = eval_text_;
    }
    line.items.push_back(
        DItem{static_cast<std::uint32_t>(slot), kClock, 0, {}, clock_comment(before, track_seconds_, after)});
    ++line.tracked;
  }

  void item(Line& line, std::uint32_t slot, ItemType type, std::uint8_t nag, std::string_view text) {
    line.items.push_back(DItem{slot, type, nag, text, {}});
  }
  void clock_item(Line& line, std::uint32_t slot, std::uint64_t seconds, std::string_view before,
                  std::string_view after) {
    line.items.push_back(DItem{slot, kClock, 0, {}, clock_comment(before, seconds, after)});
  }

  // Plays the line's moves from `start`, the items at their slots, each variation when its slot
  // is reached (from the position before the ply it replaces).
  template <class Walker>
  Status moves(Walker& walker, Line& line, const Position& start, std::uint64_t plies, std::string_view integer,
               int depth) {
    merge_track(line.items, line.tracked);
    const std::vector<std::uint32_t>& nulls = line.nulls;
    std::vector<DItem>& items = line.items;
    DigitReader& digits = digit_readers_[static_cast<std::size_t>(depth)];
    digits.load(integer);

    Position pos = start, prev = start;
    std::size_t next_item = 0, next_null = 0;
    std::vector<GameEvent>& events = out.game.events;
    events.reserve(events.size() + plies + items.size());
    PieceTargets targets;
    // With hints: the hint of this line's last move waits for the position after it, which
    // gives its check suffix.
    std::size_t pending = kNoHint;
    // Plays the next coded move; false if the position has no legal move to code.
    const auto play_next = [&] {
      generate_targets(pos, targets);
      if (pending != kNoHint) {
        (*hints_)[pending] = static_cast<std::uint8_t>((*hints_)[pending] | san_suffix(targets) << 2);
        pending = kNoHint;
      }
      const int n = targets.total;
      if (n == 0) return false;
      const std::uint32_t m = n == 1 ? 0 : digits.next(static_cast<std::uint32_t>(n));
      const Move move = move_at_index(pos, targets, static_cast<int>(m));
      if (hints_) {
        pending = hints_->size();
        hints_->push_back(san_note(pos, targets, move));
      }
      events.emplace_back().move = move;  // a default event is a move
      pos.play(move);
      return true;
    };
    // Before a null move and at the end of the line: the last move's suffix from `pos`.
    const auto settle = [&] {
      if (pending == kNoHint) return;
      generate_targets(pos, targets);
      (*hints_)[pending] = static_cast<std::uint8_t>((*hints_)[pending] | san_suffix(targets) << 2);
      pending = kNoHint;
    };
    if (items.empty() && nulls.empty()) {  // moves only: the common case
      for (std::uint64_t ply = 0; ply < plies; ++ply)
        if (!play_next()) return corrupt_record("a move is coded where there is no legal move");
      if (!digits.exhausted()) return corrupt_record("move integer holds more than its plies");
      settle();
      return {};
    }
    for (std::uint32_t slot = 0;; ++slot) {
      for (; next_item < items.size() && items[next_item].slot == slot; ++next_item) {
        const DItem& it = items[next_item];
        switch (it.type) {
          case kNag: events.push_back(GameEvent::make_nag(it.nag)); break;
          case kVariation:
            events.push_back(GameEvent::begin_variation());
            if (auto st = walker.line(prev, true, depth + 1); !st) return st;
            events.push_back(GameEvent::end_variation());
            break;
          case kClock: events.push_back(GameEvent::comment(std::move(items[next_item].clock_text))); break;
          default:
            events.push_back(GameEvent::comment(std::string(it.text), static_cast<CommentKind>(it.type)));
        }
      }
      if (slot == plies) break;
      // The position before this ply is needed only if a variation follows it.
      bool variation_follows = false;
      for (std::size_t k = next_item; k < items.size() && items[k].slot == slot + 1; ++k)
        variation_follows |= items[k].type == kVariation;
      if (variation_follows) prev = pos;
      if (next_null < nulls.size() && nulls[next_null] == slot) {
        ++next_null;
        settle();
        events.push_back(GameEvent::null_move());
        pos.play_null();
        continue;
      }
      if (!play_next()) return corrupt_record("a move is coded where there is no legal move");
    }
    if (!digits.exhausted()) return corrupt_record("move integer holds more than its plies");
    settle();
    return {};
  }

 private:
  // items = the track's clocks (the first `track` entries, slots 1, 2, ...) then the line's other
  // items in slot order: puts each track clock after the leading NAGs of its slot, before the
  // slot's other items.
  static void merge_track(std::vector<DItem>& items, std::size_t track) {
    // No track, or nothing but the track (a lichess game without NAGs): already in order.
    if (track == 0 || track == items.size()) return;
    std::vector<DItem> merged;
    merged.reserve(items.size());
    std::size_t other = track;
    for (std::size_t k = 0; k < track; ++k) {
      const std::uint32_t s = items[k].slot;
      for (; other < items.size() && items[other].slot < s; ++other) merged.push_back(std::move(items[other]));
      for (; other < items.size() && items[other].slot == s && items[other].type == kNag; ++other)
        merged.push_back(std::move(items[other]));
      merged.push_back(std::move(items[k]));
    }
    for (; other < items.size(); ++other) merged.push_back(std::move(items[other]));
    items = std::move(merged);
  }

  static constexpr std::size_t kNoHint = ~std::size_t{0};
  std::vector<Tag> tags_;             // until begin_game moves them into the game
  std::vector<std::uint8_t>* hints_;  // SAN hints of the moves, in event order (or null)
  // Tracks: the clock basis read from the game's tags at the first track, a track's prediction,
  // and the entry being read.
  bool basis_known_ = false;
  ClockBasis basis_;
  ClockPredictor predictor_;
  std::uint64_t track_seconds_ = 0;
  std::string eval_text_;
  // One per nesting level (a variation is decoded while its parent line is part way through).
  static thread_local std::array<DigitReader, kMaxDepth + 2> digit_readers_;
};

thread_local std::array<DigitReader, kMaxDepth + 2> DecodePolicy::digit_readers_;

Result<DecodedGame> decode(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>* hints) {
  DecodePolicy policy(std::move(tags), hints);
  if (auto st = RecordWalker<DecodePolicy>(in, policy).walk(); !st) return st.error();
  return std::move(policy.out);
}

}  // namespace

Result<DecodedGame> decode_game(CodecCursor& in, std::vector<Tag> tags) { return decode(in, std::move(tags), nullptr); }

Result<DecodedGame> detail::decode_game_with_hints(CodecCursor& in, std::vector<Tag> tags,
                                                   std::vector<std::uint8_t>& hints) {
  hints.clear();
  return decode(in, std::move(tags), &hints);
}

}  // namespace pgnarc
