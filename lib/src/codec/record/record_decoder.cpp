// Decoding game records: the record walker (record_walker.h) with a policy that rebuilds the game,
// replaying its moves on the board.
#include <array>

#include "codec/record/clock_model.h"
#include "codec/record/clock_track.h"
#include "codec/codec.h"
#include "codec/record/comment_record.h"
#include "codec/entropy/move_coder.h"
#include "codec/record/record.h"
#include "codec/record/record_walker.h"
#include "codec/record/decode_game_with_hints.h"
#include "codec/record/xiangqi_record.h"
#include "rules/movegen.h"

namespace pgnarc::codec {

using common::unzigzag;

Result<Position> record_start(const std::vector<Tag>& tags, Variant untagged, bool variants) {
  if (untagged != Variant::kStandard && find_tag(tags, "Variant"))
    return corrupt_record("the game header names a variant and so does a Variant tag");
  auto s = start_position(tags, untagged);
  if (!s) return corrupt_record("the tags give no start position: " + s.error().message());
  if (s->variant() != Variant::kStandard && !variants)
    return corrupt_record(std::string("the game is under the variant ") + variant_name(s->variant()) +
                          ", which a block of codec 6 does not hold");
  return s;
}

namespace {

// The move of ply `slot` of a line at `at` (its moves `t` generated), read off `dec` with the
// coder's frequencies (`freq` their scratch): Move::none() at the end of a line that `ends`, or
// Corruption where the codeword holds no move.
Result<Move> read_ply(ArithDecoder& dec, MoveCoder coder, bool ends, std::uint64_t slot, const model::LineState& at,
                      const PlyMoves& t, PlyFrequencies& freq) {
  t.frequencies(coder, ends, slot, at, freq);
  int m = 0;
  if (freq.total) {
    m = read_symbol(dec, freq);
    if (m == -2) return corrupt_record("move codeword holds no symbol here");
    if (m == -1) return Move::none();
  } else if (t.count() == 0) {
    return corrupt_record("a move is coded where there is no legal move");
  }
  if (ends && slot == kMaxPlies) return corrupt_record("more than 65536 plies in the game");
  return t.at(at.pos, m);
}

// Generates the moves of `pos` into `t`, for a ply or a line's end to be read; Corruption where a
// variant's position has more than a move list holds (MOVE-SYM-4). (Where only a move's check
// suffix is wanted, t.generate's list may be cut short: it is not empty.)
Status generate(const Position& pos, PlyMoves& t) {
  if (t.generate(pos)) [[likely]]
    return {};
  return corrupt_record("more than " + std::to_string(kMaxLegalMoves) + " legal moves in position " + pos.fen());
}

class DecodePolicy : public RecordOut {
 public:
  static constexpr bool kXiangqi = false;
  // Where a line starts: the position, and what the model knows of the moves before it.
  using Start = model::LineState;
  // An item of a line as read, until the moves reach its slot.
  struct DItem {
    std::uint32_t slot;
    ItemType type;
    std::uint8_t nag;
    std::string_view text;   // a comment's text; kRecord: its shape
    std::string built_text;  // kClock: the comment text rebuilt around its clock command; kRecord: the
                             // record's text
  };
  // A clock track's entry: its frame, and its time and evaluation (a modelled track's read after
  // the line's moves, 8.3.4); its comment is written when the moves reach its slot.
  struct TrackFrame {
    std::uint32_t slot;
    std::uint8_t frame;
    std::string_view before, after;  // kind 0's texts
    std::uint64_t value = 0;
    Evaluation eval;
  };
  struct Line {
    std::vector<std::uint32_t> nulls;
    std::vector<DItem> items;        // in slot order
    std::vector<TrackFrame> frames;  // the clock track's, slots 1, 2, ...
    bool records = false;            // items of kRecord among them
  };

  DecodePolicy(std::vector<Tag> tags, std::vector<std::uint8_t>* hints, std::vector<std::string>* spare,
               const CodecCursor& in)
      : RecordOut(std::move(tags)), hints_(hints), spare_(spare), coder_(in.coder), variants_(in.variants),
        modelled_(in.modelled_tracks), records_(in.coder) {
    decoder_.start(in.moves, in.move_bit);
  }

  Status main_line(Start& start, Variant untagged) {
    auto s = record_start(out.game.tags, untagged, variants_);
    if (!s) return s.error();
    start = Start{*s, {}};
    out.game.variant = untagged;
    return {};
  }
  void null_move(Line& line, std::uint32_t ply) { line.nulls.push_back(ply); }

  void begin_track(Line& line, std::uint64_t plies) {
    line.frames.reserve(plies);
    if (!basis_known_) {
      basis_ = clock_basis(out.game.tags);
      basis_known_ = true;
    }
    predictor_ = ClockPredictor{basis_};
  }
  // The time at `slot` is the predicted one (in the command's units) less the symbol's (zigzag)
  // value.
  bool track_clock(std::uint64_t slot, std::uint64_t symbol, int form) {
    const std::int64_t value = predictor_.predict(slot, form) - unzigzag(symbol);
    if (value < 0 || static_cast<std::uint64_t>(value) > max_clock_value(form_precision(form))) return false;
    predictor_.played(slot, value, form);
    track_value_ = static_cast<std::uint64_t>(value);
    track_form_ = form;
    return true;
  }
  void track_entry(Line& line, std::uint64_t slot, ClockFrame frame, std::string_view before, std::string_view after,
                   const Evaluation& eval) {
    line.frames.push_back(TrackFrame{static_cast<std::uint32_t>(slot), static_cast<std::uint8_t>(frame + 4 * track_form_),
                                     before, after, track_value_, eval});
  }

  void track_frame(Line& line, std::uint64_t slot, std::uint8_t frame, std::string_view before, std::string_view after) {
    line.frames.push_back(TrackFrame{static_cast<std::uint32_t>(slot), frame, before, after, 0, {}});
  }

  void item(Line& line, std::uint32_t slot, ItemType type, std::uint8_t nag, std::string_view text) {
    line.items.push_back(DItem{slot, type, nag, text, {}});
  }
  void clock_item(Line& line, std::uint32_t slot, std::uint64_t seconds, std::string_view before,
                  std::string_view after) {
    line.items.push_back(DItem{slot, kClock, 0, {}, clock_comment(before, seconds, 0, after)});
  }
  void record_item(Line& line, std::uint32_t slot, std::string_view shape) {
    line.items.push_back(DItem{slot, kRecord, 0, shape, {}});
    line.records = true;
  }

  // Reads the line's moves from the game's codeword (up to its end symbol where the line's length
  // is kUnknownPlies), then gives the events: the moves, with the items at their slots and each
  // variation read when its slot is reached (from the position before the ply it replaces).
  template <class Walker>
  Status moves(Walker& walker, Line& line, const Start& start, std::uint64_t plies, int depth) {
    std::vector<DItem>& items = line.items;
    std::vector<GameEvent>& events = out.game.events;
    // Without items the events are the moves alone, in the order they are read.
    const bool direct = items.empty() && line.frames.empty();
    std::vector<Move> read;
    std::vector<std::uint8_t> notes;
    if (auto st = read_moves(line.nulls, start, plies, direct, read, notes); !st) return st;
    if (direct) return {};
    if (modelled_ && !line.frames.empty())
      if (auto st = read_track(line); !st) return st;
    if (line.records) {
      // (A writer gives no records to a variant's game: their values are coded against the
      // move model's moves.)
      if (start.pos.variant() != Variant::kStandard) return corrupt_record("a record comment in a variant's game");
      if (auto st = read_records(items, start, read); !st) return st;
    }
    const std::vector<TrackFrame>& frames = line.frames;
    events.reserve(events.size() + read.size() + frames.size() + items.size());
    Start at = start, prev = start;
    std::size_t next_item = 0, next_frame = 0;
    for (std::uint32_t slot = 0;; ++slot) {
      // A slot's clock comes after its leading NAGs, before its other items.
      if (next_frame < frames.size() && frames[next_frame].slot == slot) {
        for (; next_item < items.size() && items[next_item].slot == slot && items[next_item].type == kNag; ++next_item)
          events.push_back(GameEvent::make_nag(items[next_item].nag));
        const TrackFrame& f = frames[next_frame++];
        GameEvent& e = events.emplace_back();  // the comment built in place
        e.type = GameEvent::kComment;
        e.text = spare_text();
        append_track_comment(e.text, frame_kind(f.frame), f.value, frame_form(f.frame), f.before, f.after, f.eval);
      }
      for (; next_item < items.size() && items[next_item].slot == slot; ++next_item) {
        const DItem& it = items[next_item];
        switch (it.type) {
          case kNag: events.push_back(GameEvent::make_nag(it.nag)); break;
          case kVariation:
            events.push_back(GameEvent::begin_variation());
            if (auto st = walker.line(prev, true, depth + 1); !st) return st;
            events.push_back(GameEvent::end_variation());
            break;
          case kClock:
          case kRecord: events.push_back(GameEvent::comment(std::move(items[next_item].built_text))); break;
          default:
            events.push_back(GameEvent::comment(std::string(it.text), static_cast<CommentKind>(it.type)));
        }
      }
      if (slot == read.size()) break;
      // The position before this ply is needed only if a variation follows it.
      bool variation_follows = false;
      for (std::size_t k = next_item; k < items.size() && items[k].slot == slot + 1; ++k)
        variation_follows |= items[k].type == kVariation;
      if (variation_follows) prev = at;
      const Move m = read[slot];
      if (m.is_null()) {
        events.push_back(GameEvent::null_move());
        at.play_null();
        continue;
      }
      events.emplace_back().move = m;  // a default event is a move
      if (hints_) hints_->push_back(notes[slot]);
      if (next_item < items.size()) at.play(m);  // the position matters only for a variation to come
    }
    return {};
  }

  // The game's codeword ends after its last line: its closing bits, then the cursor past it.
  Status end_moves(CodecCursor& in) { return end_codeword(decoder_, in); }

 private:
  // A modelled track's times and evaluations (after the line's moves in the codeword, before its
  // records' values), into its frames.
  Status read_track(Line& line) {
    TrackModel model(basis_);
    SymbolReader side{decoder_};
    for (TrackFrame& f : line.frames) {
      if (const TrackCode c = model.time(side, f.slot, frame_form(f.frame), f.value); c != kOk)
        return corrupt_record(c == kMissing ? "clock track's time not in the move codeword" : "clock out of range");
      if (frame_kind(f.frame) == kFrameEval)
        if (const TrackCode c = model.evaluation(side, f.eval); c != kOk)
          return corrupt_record(c == kMissing ? "evaluation not in the move codeword" : "evaluation out of range");
    }
    return {};
  }

  // An empty string, with the storage of a spare one where there is one.
  std::string spare_text() {
    if (!spare_ || spare_->empty()) return {};
    std::string text = std::move(spare_->back());
    spare_->pop_back();
    return text;
  }

  // The values of a line's records (after its moves in the codeword, before its variations'
  // symbols), each from the positions before and after its ply.
  Status read_records(std::vector<DItem>& items, const Start& start, const std::vector<Move>& read) {
    std::vector<Start> states;
    states.reserve(read.size() + 1);
    states.push_back(start);
    for (const Move m : read) {
      Start next = states.back();
      if (m.is_null()) next.play_null();
      else next.play(m);
      states.push_back(std::move(next));
    }
    records_.enter_line(states, read);
    for (DItem& it : items) {
      if (it.type != kRecord) continue;
      const char* why = nullptr;
      if (!records_.decode(it.text, it.slot > 0 ? &states[it.slot - 1] : nullptr, states[it.slot], decoder_,
                           it.built_text, why))
        return corrupt_record(why);
    }
    return {};
  }

  // The moves of a line, null moves as Move::null(): to the game's events (and hints) directly
  // with `direct`, else into `read` (and `notes`, one SAN note per ply).
  Status read_moves(const std::vector<std::uint32_t>& nulls, const Start& start, std::uint64_t plies, bool direct,
                    std::vector<Move>& read, std::vector<std::uint8_t>& notes) {
    const bool ends = plies == kUnknownPlies;
    std::vector<GameEvent>& events = out.game.events;
    std::vector<std::uint8_t>* hint_out = hints_ ? (direct ? hints_ : &notes) : nullptr;
    if (!ends) {
      if (direct) events.reserve(events.size() + plies);
      else read.reserve(plies);
    }
    Start at = start;
    const Position& pos = at.pos;
    PlyMoves targets;
    PlyFrequencies freq;
    std::size_t next_null = 0;
    // The hint of the last move waits for the position after it, which gives its check suffix.
    std::size_t pending = kNoHint;
    const auto settle = [&] {
      if (pending == kNoHint) return;
      (*hint_out)[pending] = static_cast<std::uint8_t>((*hint_out)[pending] | targets.suffix() << 2);
      pending = kNoHint;
    };
    for (std::uint64_t slot = 0;; ++slot) {
      if (!ends && slot == plies) break;
      if (next_null < nulls.size() && nulls[next_null] == slot) {
        ++next_null;
        if (pending != kNoHint) {
          targets.generate(pos);
          settle();
        }
        if (direct) events.push_back(GameEvent::null_move());
        else read.push_back(Move::null());
        if (hint_out && !direct) hint_out->push_back(0);
        at.play_null();
        continue;
      }
      if (auto st = generate(pos, targets); !st) return st;
      settle();
      const Result<Move> read_move = read_ply(decoder_, coder_, ends, slot, at, targets, freq);
      if (!read_move) return read_move.error();
      if (read_move->is_none()) break;
      const Move move = *read_move;
      if (hint_out) {
        pending = hint_out->size();
        hint_out->push_back(targets.note(pos, move));
      }
      if (direct) events.emplace_back().move = move;  // a default event is a move
      else read.push_back(move);
      at.play(move);
    }
    if (pending != kNoHint) {
      targets.generate(pos);
      settle();
    }
    return {};
  }

  static constexpr std::size_t kNoHint = ~std::size_t{0};
  std::vector<std::uint8_t>* hints_;  // SAN hints of the moves, in event order (or null)
  std::vector<std::string>* spare_;   // emptied strings for the track's comments (or null)
  // Tracks: the clock basis read from the game's tags at the first track, a track's prediction,
  // and the entry being read.
  bool basis_known_ = false;
  ClockBasis basis_;
  ClockPredictor predictor_;
  std::uint64_t track_value_ = 0;  // the time of the track entry being read, and its form
  int track_form_ = 0;
  MoveCoder coder_;
  bool variants_;         // the block's codec holds variants' games
  bool modelled_;         // the block's codec models clock tracks (8.3.4)
  ArithDecoder decoder_;  // the game's codeword
  RecordModel records_;   // the game's record comments
};

// The policy of scan_main_line: the main line's moves one by one, to a visitor, and nothing
// else made of the record (items are read past, clocks taken as they are).
class ScanPolicy {
 public:
  static constexpr bool kXiangqi = false;
  using Start = model::LineState;
  struct Line {
    std::vector<std::uint32_t> nulls;
  };
  // What ends the walk early: the visitor said stop, or the main line is read (its variations
  // and records do not matter). Not an error of the record.
  static constexpr const char* kStop = "scan stopped";

  ScanPolicy(std::vector<Tag> tags, const std::function<bool(const Position&, Move)>& visit, const CodecCursor& in)
      : tags_(std::move(tags)), visit_(visit), coder_(in.coder), variants_(in.variants) {
    decoder_.start(in.moves, in.move_bit);
  }
  bool raw = false, stopped = false;
  GameResult result = GameResult::kNone;

  void raw_game(std::string_view) { raw = true; }
  void begin_game(GameResult r) { result = r; }
  const std::vector<Tag>& tags() const { return tags_; }
  void frame_comment(int, CommentKind, std::string_view) {}
  Status main_line(Start& start, Variant untagged) {
    auto s = record_start(tags_, untagged, variants_);
    if (!s) return s.error();
    start = Start{*s, {}};
    return {};
  }
  void null_move(Line& line, std::uint32_t ply) { line.nulls.push_back(ply); }
  void begin_track(Line&, std::uint64_t) {}
  bool track_clock(std::uint64_t, std::uint64_t, int) { return true; }
  void track_entry(Line&, std::uint64_t, ClockFrame, std::string_view, std::string_view, const Evaluation&) {}
  void track_frame(Line&, std::uint64_t, std::uint8_t, std::string_view, std::string_view) {}
  void item(Line&, std::uint32_t, ItemType, std::uint8_t, std::string_view) {}
  void clock_item(Line&, std::uint32_t, std::uint64_t, std::string_view, std::string_view) {}
  void record_item(Line&, std::uint32_t, std::string_view) {}
  Status end_moves(CodecCursor&) { return {}; }

  template <class Walker>
  Status moves(Walker&, Line& line, const Start& start, std::uint64_t plies, int) {
    const bool ends = plies == kUnknownPlies;
    Start at = start;
    std::size_t next_null = 0;
    for (std::uint64_t slot = 0;; ++slot) {
      if (!ends && slot == plies) break;
      if (next_null < line.nulls.size() && line.nulls[next_null] == slot) {
        ++next_null;
        if (!visit_(at.pos, Move::null())) return stop();
        at.play_null();
        continue;
      }
      if (auto st = generate(at.pos, targets_); !st) return st;
      const Result<Move> read_move = read_ply(decoder_, coder_, ends, slot, at, targets_, freq_);
      if (!read_move) return read_move.error();
      if (read_move->is_none()) break;
      const Move move = *read_move;
      if (!visit_(at.pos, move)) return stop();
      at.play(move);
    }
    visit_(at.pos, Move::none());
    return stop();
  }

 private:
  Status stop() {
    stopped = true;
    return corrupt_record(kStop);
  }

  std::vector<Tag> tags_;
  const std::function<bool(const Position&, Move)>& visit_;
  MoveCoder coder_;
  bool variants_;
  ArithDecoder decoder_;
  PlyMoves targets_;
  PlyFrequencies freq_;
};

Result<ArchiveGame> decode(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>* hints,
                           std::vector<std::string>* spare = nullptr) {
  if (is_xiangqi_record(in)) return decode_xiangqi_game(in, std::move(tags));
  DecodePolicy policy(std::move(tags), hints, spare, in);
  if (auto st = RecordWalker<DecodePolicy>(in, policy).walk(); !st) return st.error();
  return std::move(policy.out);
}

}  // namespace

Result<ArchiveGame> decode_game(CodecCursor& in, std::vector<Tag> tags) { return decode(in, std::move(tags), nullptr); }

Status scan_main_line(const CodecCursor& in, std::vector<Tag> tags,
                      const std::function<bool(const Position&, Move)>& visit, bool& raw, GameResult& result) {
  CodecCursor c = in;
  if (is_xiangqi_record(c)) {
    // A Xiangqi game holds no position of chess: nothing to visit, nothing read.
    raw = false;
    result = GameResult::kNone;
    return {};
  }
  ScanPolicy policy(std::move(tags), visit, c);
  Status st = RecordWalker<ScanPolicy>(c, policy).walk();
  raw = policy.raw;
  result = policy.result;
  if (policy.stopped) return {};
  return st;
}

Status skip_game(CodecCursor& in, const std::vector<Tag>& tags) {
  auto d = decode(in, tags, nullptr);
  if (!d) return d.error();
  return {};
}

Result<ArchiveGame> decode_game_with_hints(CodecCursor& in, std::vector<Tag> tags, std::vector<std::uint8_t>& hints,
                                            std::vector<std::string>* spare) {
  hints.clear();
  return decode(in, std::move(tags), &hints, spare);
}

void recycle_comments(Game& game, std::vector<std::string>& spare) {
  for (GameEvent& e : game.events) {
    if (spare.size() >= kSpareComments) return;
    if (e.type == GameEvent::kComment && !e.text.empty()) {
      e.text.clear();
      spare.push_back(std::move(e.text));
    }
  }
}

}  // namespace pgnarc::codec
