// Writing game records: a game's moves, annotations and clocks to the four streams (codec.h).
#include "codec/codec.h"

#include <algorithm>
#include <cmath>

#include "common/bytes.h"
#include "codec/record/clock_track.h"
#include "codec/record/comment_record.h"
#include "codec/entropy/move_coder.h"
#include "codec/record/record.h"
#include "codec/record/xiangqi_record.h"
#include "rules/movegen.h"

namespace pgnarc::codec {

using common::put_prefixed;
using common::put_u8;
using common::put_varint;

namespace {

struct Item {
  std::uint32_t slot;
  std::uint8_t type;
  std::uint8_t nag = 0;
  const std::string* text = nullptr;
  ClockSplit clock;                        // kClock
  bool record = false;                     // a brace comment that splits as a record
  RecordSplit split;
  std::size_t var_begin = 0, var_end = 0;  // events of a variation, brackets excluded
  model::LineState start;                  // where a variation starts
};

// A game's record comments as the writer codes them.
struct GameRecords {
  GameRecords(MoveCoder coder, std::uint64_t work) : model(coder, work) {}
  RecordModel model;
  RecentShapes<std::string> shapes;
};

// Encodes the line made of events [begin, end) (one nesting level; variations recurse), its
// move symbols into `symbols`. An unannotated line (the main line of a game of moves only) has
// no structure entries; unless it is counted (its plies are the PlyCount tag's), its symbols
// code the end of the line. A counted annotated line stores no ply count.
Status encode_line(const std::vector<GameEvent>& events, std::size_t begin, std::size_t end,
                   const model::LineState& start, bool annotated, bool counted, int depth,
                   const ClockBasis& basis, GameRecords& records, CodecStreams& out, std::vector<PlySymbol>& symbols,
                   CodecStats* stats) {
  if (depth > kMaxDepth) return bad_game("variations nested deeper than " + std::to_string(kMaxDepth));
  // A line whose length is known (annotated: stored; counted: the PlyCount tag's) codes no end.
  const bool ends = !annotated && !counted;
  PlyFrequencies freq;
  std::vector<std::uint32_t> nulls;
  std::vector<Item> items;
  model::LineState at = start, prev = start;
  const Position& pos = at.pos;
  const bool variant = pos.variant() != Variant::kStandard;
  std::uint32_t slot = 0;
  PlyMoves moves;
  // An annotated line keeps its positions (states[s] after s plies) and moves for its records.
  std::vector<model::LineState> states;
  std::vector<Move> line_moves;
  if (annotated) states.push_back(start);
  for (std::size_t i = begin; i < end; ++i) {
    const GameEvent& e = events[i];
    switch (e.type) {
      case GameEvent::kMove: {
        if (!moves.generate(pos)) return bad_game("more than " + std::to_string(kMaxLegalMoves) + " legal moves in position " + pos.fen());
        const int index = moves.index_of(pos, e.move);
        if (index < 0) return bad_game("illegal move " + pos.uci(e.move) + " in position " + pos.fen());
        moves.frequencies(out.coder, ends, slot, at, freq);
        if (freq.total) symbols.push_back(symbol_of(freq, index));
        if (stats && moves.count() > 1) stats->log2_legal_moves += std::log2(static_cast<double>(moves.count()));
        if (variation_follows(events, i + 1, end)) prev = at;
        at.play(e.move);
        ++slot;
        if (annotated) {
          states.push_back(at);
          line_moves.push_back(e.move);
        }
        break;
      }
      case GameEvent::kNullMove:
        nulls.push_back(slot);
        if (variation_follows(events, i + 1, end)) prev = at;
        at.play_null();
        ++slot;
        if (annotated) {
          states.push_back(at);
          line_moves.push_back(Move::null());
        }
        break;
      case GameEvent::kComment: {
        Item it{slot, static_cast<std::uint8_t>(e.comment_kind), 0, &e.text, {}, false, {}, 0, 0, {}};
        if (e.comment_kind == CommentKind::kBrace && split_clock(e.text, it.clock)) it.type = kClock;
        items.push_back(std::move(it));
        break;
      }
      case GameEvent::kNag:
        items.push_back(Item{slot, kNag, e.nag, nullptr, {}, false, {}, 0, 0, {}});
        break;
      case GameEvent::kBeginVariation: {
        if (slot == 0) return bad_game("a variation does not follow a move");
        const std::size_t j = variation_close(events, i, end);
        if (j == 0) return bad_game("a variation is not closed");
        items.push_back(Item{slot, kVariation, 0, nullptr, {}, false, {}, i + 1, j - 1, prev});
        i = j - 1;
        break;
      }
      case GameEvent::kEndVariation:
        return bad_game("end of a variation that did not begin");
    }
  }
  if (stats) stats->plies += slot;
  if (stats && stats->plies > kMaxPlies) return bad_game("more than " + std::to_string(kMaxPlies) + " plies");
  if (depth == 0 && stats) stats->mainline_plies += slot;

  if (ends) {
    if (!moves.generate(pos)) return bad_game("more than " + std::to_string(kMaxLegalMoves) + " legal moves in position " + pos.fen());
    moves.frequencies(out.coder, ends, slot, at, freq);
    symbols.push_back(symbol_of(freq, -1));
    return {};
  }
  if (!annotated) return {};
  if (!counted) put_varint(out.structure, slot);
  // The clock track (REC-CLK-3): when every ply of the line is followed first of all by a clock
  // comment, those comments are coded as one number each, without slot or type. NAGs may come
  // before the clock at a slot, as in lichess's "6... Bg4? { [%eval 1.87] [%clk 0:10:03] }", if
  // the item after the clock is not a NAG, so that a reader can put the clock back after the
  // slot's leading NAGs.
  std::vector<bool> in_track(items.size(), false);
  bool track = slot > 0;
  for (std::size_t k = 0, s = 1; track && s <= slot; ++s) {
    while (k < items.size() && items[k].slot < s) ++k;
    while (k < items.size() && items[k].slot == s && items[k].type == kNag) ++k;
    track = k < items.size() && items[k].slot == s && items[k].type == kClock &&
            !(k + 1 < items.size() && items[k + 1].slot == s && items[k + 1].type == kNag);
    if (track) in_track[k] = true;
  }
  if (!track) in_track.assign(items.size(), false);
  put_varint(out.structure, nulls.size() * 2 + (track ? 1 : 0));
  std::uint32_t last = 0;
  for (std::size_t k = 0; k < nulls.size(); ++k) {
    put_varint(out.structure, k == 0 ? nulls[0] : nulls[k] - last - 1);
    last = nulls[k];
  }
  if (track) {
    std::vector<TrackClock> clocks;
    clocks.reserve(slot);
    for (std::size_t k = 0; k < items.size(); ++k)
      if (in_track[k]) clocks.push_back(TrackClock{items[k].slot, &items[k].clock});
    if (!put_clock_track(clocks, basis, out.structure, out.texts, out.modelled_tracks ? &symbols : nullptr))
      return bad_game("a clock track's value cannot be coded");
    out.tracks = true;
  }
  ClockPair item_clocks;
  put_varint(out.structure, items.size() - (track ? slot : 0));
  last = 0;
  for (std::size_t k = 0; k < items.size(); ++k) {
    Item& it = items[k];
    if (in_track[k]) continue;
    put_varint(out.structure, it.slot - last);
    last = it.slot;
    // A clock item is a clock of whole seconds in the first form (REC-CLK-2); another brace
    // comment is a record if it splits as one (split here, not for the track's clocks), else a
    // comment.
    const bool clock = it.type == kClock && it.clock.form == 0;
    // (A variant's positions have no records: their moves are not the move model's.)
    it.record = !variant && (it.type == kBrace || (it.type == kClock && !clock)) &&
                split_record(*it.text, it.slot > 0 ? &states[it.slot - 1].pos : nullptr, states[it.slot].pos,
                             it.split) &&
                records.model.admit(it.split);
    const std::uint8_t type = it.record                      ? static_cast<std::uint8_t>(kRecord)
                              : it.type == kClock && !clock ? static_cast<std::uint8_t>(kBrace)
                                                            : it.type;
    put_u8(out.structure, type);
    if (it.type == kNag) put_u8(out.structure, it.nag);
    if (it.record) {
      adopt_recent_signs(it.split, records.shapes);
      const std::uint64_t rank = records.shapes.rank(it.split.shape);
      put_varint(out.structure, rank);
      if (rank == 0) {
        put_prefixed(out.texts, it.split.shape);
        records.shapes.add(it.split.shape);
      } else {
        records.shapes.use(rank);
      }
    } else if (clock) {
      put_varint(out.structure, item_clocks.encode(it.slot, it.clock.value));
      for (std::string_view part : {it.clock.before, it.clock.after}) {
        put_prefixed(out.texts, part);
      }
    } else if (it.text) {
      put_prefixed(out.texts, *it.text);
    }
  }
  // The records' values follow the line's moves in the codeword.
  if (std::any_of(items.begin(), items.end(), [](const Item& it) { return it.record; })) {
    records.model.enter_line(states, line_moves);
    for (const Item& it : items)
      if (it.record && !records.model.encode(it.split, it.slot > 0 ? &states[it.slot - 1] : nullptr,
                                             states[it.slot], symbols))
        return bad_game("a record comment cannot be coded");
  }
  for (const Item& it : items)
    if (it.type == kVariation)
      if (auto st = encode_line(events, it.var_begin, it.var_end, it.start, true, false, depth + 1, basis, records, out,
                                symbols, stats);
          !st)
        return st;
  return {};
}

}  // namespace

void put_comments(const std::vector<Comment>& comments, CodecStreams& out) {
  put_varint(out.structure, comments.size());
  for (const Comment& c : comments) {
    put_u8(out.structure, static_cast<std::uint8_t>(c.kind));
    put_prefixed(out.texts, c.text);
  }
}

static Status encode_game_within(const Game& game, CodecStreams& out, std::uint64_t record_work, CodecStats* stats);

Status encode_game(const Game& game, CodecStreams& out, CodecStats* stats) {
  return encode_game_within(game, out, kMaxGameRecordWork, stats);
}

Status encode_game_with_record_work(const Game& game, CodecStreams& out, std::uint64_t record_work) {
  return encode_game_within(game, out, record_work, nullptr);
}

static Status encode_game_within(const Game& game, CodecStreams& out, std::uint64_t record_work, CodecStats* stats) {
  if (game.rules == GameRules::kXiangqi) return encode_xiangqi_game(game, out, stats);
  auto start = start_position(game);
  if (!start) return bad_game(start.error().message());
  const Variant variant = start->variant();
  // The variant by a byte after the header (8.1) where no Variant tag names it.
  const bool variant_byte = variant != Variant::kStandard && !game.tag("Variant");
  if (game.variant != Variant::kStandard && game.tag("Variant"))
    return bad_game("the game has a Variant tag and another variant besides");
  bool annotated = false;
  for (const GameEvent& e : game.events) annotated |= e.type != GameEvent::kMove;
  const bool frame = !game.prelude.empty() || !game.epilogue.empty();
  // Counted (8.1): the PlyCount tag gives the main line's plies (moves and null moves).
  const bool counted = tag_ply_count(game.tags) == static_cast<std::uint64_t>(game.mainline_plies());
  // Encode into scratch streams first so that a failure leaves `out` untouched.
  CodecStreams s;
  s.coder = out.coder;
  s.modelled_tracks = out.modelled_tracks;
  // The result as the Result tag's when they agree (8.1): the tag already holds it.
  const bool tagged = game.result != GameResult::kNone && tag_result(game.tags) == game.result;
  const std::uint8_t result = tagged ? kResultTagged : static_cast<std::uint8_t>(game.result);
  put_u8(s.structure, static_cast<std::uint8_t>(result | (annotated ? kAnnotated : 0) | (frame ? kHasFrame : 0) |
                                                (counted ? kCounted : 0) | (variant_byte ? kVariantByte : 0)));
  if (variant_byte) put_u8(s.structure, static_cast<std::uint8_t>(variant));
  if (frame) {
    put_comments(game.prelude, s);
    put_comments(game.epilogue, s);
  }
  CodecStats local;
  const ClockBasis basis = clock_basis(game.tags);
  std::vector<PlySymbol> symbols;
  GameRecords records(s.coder, record_work);
  if (auto st = encode_line(game.events, 0, game.events.size(), {*start, {}}, annotated, counted, 0, basis, records, s,
                            symbols, &local);
      !st)
    return st;
  put_codeword(symbols, out.moves, out.move_bits);
  out.structure += s.structure;
  out.texts += s.texts;
  out.variants |= variant != Variant::kStandard;
  out.tracks |= s.tracks;
  if (stats) stats->add_game(local);
  return {};
}

void encode_raw_game(std::string_view raw_text, CodecStreams& out, CodecStats* stats) {
  put_u8(out.structure, kRaw);
  put_prefixed(out.raw, raw_text);
  if (stats) {
    ++stats->games;
    ++stats->raw_games;
  }
}

}  // namespace pgnarc::codec
