// Skipping game records: the record walker (record_walker.h) with a policy that keeps nothing and
// walks a line's variations straight after its record, without the board.
#include "codec/codec.h"
#include "codec/record.h"
#include "codec/record_walker.h"

namespace pgnarc {

using namespace detail;

namespace {

struct SkipPolicy {
  struct Start {};
  struct Line {
    std::uint64_t variations = 0;
  };

  void raw_game(std::string_view) {}
  void begin_game(GameResult) {}
  void frame_comment(int, CommentKind, std::string_view) {}
  Status main_line(Start&) { return {}; }
  void null_move(Line&, std::uint32_t) {}
  void begin_track(Line&, std::uint64_t) {}
  // The prediction needs the game's tags, which a skip does not have.
  bool track_clock(std::uint64_t, std::uint64_t) { return true; }
  void track_entry(Line&, std::uint64_t, ClockFrame, std::string_view, std::string_view, const Evaluation&) {}
  void item(Line& line, std::uint32_t, ItemType type, std::uint8_t, std::string_view) {
    line.variations += type == kVariation;
  }
  void clock_item(Line&, std::uint32_t, std::uint64_t, std::string_view, std::string_view) {}
  template <class Walker>
  Status moves(Walker& walker, Line& line, const Start& start, std::uint64_t, std::string_view, int depth) {
    for (std::uint64_t v = 0; v < line.variations; ++v)
      if (auto st = walker.line(start, true, depth + 1); !st) return st;
    return {};
  }
};

}  // namespace

Status skip_game(CodecCursor& in) {
  SkipPolicy policy;
  return RecordWalker<SkipPolicy>(in, policy).walk();
}

}  // namespace pgnarc
