// Xiangqi game records: written as the record encoder writes chess games, with Xiangqi's legal
// moves; read by the record walker (record_walker.h) with a policy of their own.
#include "codec/record/xiangqi_record.h"

#include <algorithm>
#include <cmath>

#include "common/bytes.h"
#include "codec/entropy/move_coder.h"
#include "codec/record/record.h"
#include "codec/record/record_walker.h"
#include "rules/xiangqi_game.h"

namespace pgnarc::codec {

namespace xq = rules::xiangqi;
using model::xq::History;
using model::xq::history_after;

using common::put_prefixed;
using common::put_u8;
using common::put_varint;

namespace {

// The index of `m` among `list` (ascending), or -1.
int index_in(const xq::MoveList& list, xq::Move m) {
  const auto it = std::lower_bound(list.begin(), list.end(), m);
  return it != list.end() && *it == m ? static_cast<int>(it - list.begin()) : -1;
}

struct Item {
  std::uint32_t slot;
  std::uint8_t type;
  std::uint8_t nag = 0;
  const std::string* text = nullptr;
  std::size_t var_begin = 0, var_end = 0;  // kVariation: its events, brackets excluded
  xq::Position start;                      // kVariation: where it starts
  History history;                         // kVariation: the history of its first ply
};

// The line of events [begin, end) (variations recurse), as the chess encoder codes a line, its
// move symbols into `symbols`.
Status encode_line(const std::vector<GameEvent>& events, std::size_t begin, std::size_t end, const xq::Position& start,
                   const History& start_history, bool annotated, bool counted, int depth, CodecStreams& out,
                   std::vector<PlySymbol>& symbols, CodecStats& stats) {
  if (depth > kMaxDepth) return bad_game("variations nested deeper than " + std::to_string(kMaxDepth));
  const bool ends = !annotated && !counted, modelled = out.xiangqi_modelled(), booked = out.xiangqi_booked();
  xq::Position at = start, prev = start;
  History h = start_history, prev_h = start_history;
  xq::MoveList list;
  PlyFrequencies freq;
  std::vector<Item> items;
  std::uint32_t slot = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const GameEvent& e = events[i];
    switch (e.type) {
      case GameEvent::kMove: {
        const int n = xq::legal_moves(at, list);
        const xq::Move m = xq::move_of(e.move);
        const int index = index_in(list, m);
        if (index < 0) return bad_game("illegal Xiangqi move " + xq::to_iccs(m) + " in " + at.fen());
        out.xiangqi_in_book |= xiangqi_frequencies(modelled, booked, ends, slot, at, list, h, freq);
        if (freq.total) symbols.push_back(symbol_of(freq, index));
        if (n > 1) stats.log2_legal_moves += std::log2(static_cast<double>(n));
        if (variation_follows(events, i + 1, end)) prev = at, prev_h = h;
        h = history_after(h, at, m);
        at.play(m);
        ++slot;
        break;
      }
      case GameEvent::kNullMove:
        return bad_game("a null move in a Xiangqi game");
      case GameEvent::kComment:
        items.push_back(Item{slot, static_cast<std::uint8_t>(e.comment_kind), 0, &e.text, 0, 0, {}, {}});
        break;
      case GameEvent::kNag:
        items.push_back(Item{slot, kNag, e.nag, nullptr, 0, 0, {}, {}});
        break;
      case GameEvent::kBeginVariation: {
        if (slot == 0) return bad_game("a variation does not follow a move");
        const std::size_t j = variation_close(events, i, end);
        if (j == 0) return bad_game("a variation is not closed");
        items.push_back(Item{slot, kVariation, 0, nullptr, i + 1, j - 1, prev, prev_h});
        i = j - 1;
        break;
      }
      case GameEvent::kEndVariation:
        return bad_game("end of a variation that did not begin");
    }
  }
  stats.plies += slot;
  if (stats.plies > kMaxPlies) return bad_game("more than " + std::to_string(kMaxPlies) + " plies");
  if (depth == 0) stats.mainline_plies += slot;
  if (ends) {
    xq::legal_moves(at, list);
    out.xiangqi_in_book |= xiangqi_frequencies(modelled, booked, true, slot, at, list, h, freq);
    symbols.push_back(symbol_of(freq, -1));
    return {};
  }
  if (!annotated) return {};
  if (!counted) put_varint(out.structure, slot);
  put_varint(out.structure, 0);  // no null moves, no clock track
  put_varint(out.structure, items.size());
  std::uint32_t last = 0;
  for (const Item& it : items) {
    put_varint(out.structure, it.slot - last);
    last = it.slot;
    put_u8(out.structure, it.type);
    if (it.type == kNag) put_u8(out.structure, it.nag);
    if (it.text) put_prefixed(out.texts, *it.text);
  }
  for (const Item& it : items)
    if (it.type == kVariation)
      if (auto st = encode_line(events, it.var_begin, it.var_end, it.start, it.history, true, false, depth + 1, out,
                                symbols, stats);
          !st)
        return st;
  return {};
}

// Rebuilds a Xiangqi game from its record.
class XiangqiDecodePolicy : public RecordOut {
 public:
  static constexpr bool kXiangqi = true;
  // A line's start: its position and the history of its first ply.
  struct Start {
    xq::Position pos;
    History history;
  };
  struct DItem {
    std::uint32_t slot;
    ItemType type;
    std::uint8_t nag;
    std::string_view text;
  };
  struct Line {
    std::vector<DItem> items;  // in slot order
  };

  XiangqiDecodePolicy(std::vector<Tag> tags, const CodecCursor& in)
      : RecordOut(std::move(tags)), modelled_(in.xiangqi_modelled()), booked_(in.xiangqi_booked()), spellings_(in.xiangqi_spellings) {
    decoder_.start(in.moves, in.move_bit);
  }

  Status notation(std::string bytes) {
    xq::Notation n;
    xq::NotationStyle style;
    if (Status st = xq::read_notation(bytes, n, style); !st) return corrupt_record(st.error().message());
    if (xq::needs_spellings_codec(style) && !spellings_)
      return corrupt_record("Xiangqi notation bytes set an element of format 1.10 (encoding, tandem pieces by file), "
                            "reserved in a block of codec 9 to 12");
    out.game.rules = GameRules::kXiangqi;
    out.game.notation = std::move(bytes);
    return {};
  }
  Status main_line(Start& start, Variant) {
    auto s = xq::start_position(out.game.tags);
    if (!s) return corrupt_record("the tags give no Xiangqi start position: " + s.error().message());
    start = Start{*s, {}};
    return {};
  }
  // The walker refuses these in a Xiangqi game before they come here.
  void null_move(Line&, std::uint32_t) {}
  void begin_track(Line&, std::uint64_t) {}
  bool track_clock(std::uint64_t, std::uint64_t, int) { return false; }
  void track_entry(Line&, std::uint64_t, ClockFrame, std::string_view, std::string_view, const Evaluation&) {}
  void track_frame(Line&, std::uint64_t, std::uint8_t, std::string_view, std::string_view) {}
  void clock_item(Line&, std::uint32_t, std::uint64_t, std::string_view, std::string_view) {}
  void record_item(Line&, std::uint32_t, std::string_view) {}

  void item(Line& line, std::uint32_t slot, ItemType type, std::uint8_t nag, std::string_view text) {
    line.items.push_back(DItem{slot, type, nag, text});
  }

  // The line's moves, read off the codeword (to its end symbol where its length is
  // kUnknownPlies), then its events with the items at their slots and each variation read when
  // its slot is reached, from the position before the ply it replaces.
  template <class Walker>
  Status moves(Walker& walker, Line& line, const Start& start, std::uint64_t plies, int depth) {
    const bool ends = plies == kUnknownPlies;
    std::vector<xq::Move> read;
    xq::Position at = start.pos;
    History h = start.history;
    for (std::uint64_t slot = 0; ends || slot < plies; ++slot) {
      const int n = xq::legal_moves(at, list_);
      xiangqi_frequencies(modelled_, booked_, ends, slot, at, list_, h, freq_);
      int m = 0;
      if (freq_.total) {
        m = read_symbol(decoder_, freq_);
        if (m == -2) return corrupt_record("move codeword holds no symbol here");
        if (m == -1) break;
      } else if (n == 0) {
        return corrupt_record("a move is coded where there is no legal move");
      }
      if (ends && slot == kMaxPlies) return corrupt_record("more than 65536 plies in the game");
      read.push_back(list_[m]);
      h = history_after(h, at, list_[m]);
      at.play(list_[m]);
    }
    std::vector<GameEvent>& events = out.game.events;
    const std::vector<DItem>& items = line.items;
    at = start.pos;
    h = start.history;
    Start prev = start;
    std::size_t next = 0;
    for (std::uint32_t slot = 0;; ++slot) {
      for (; next < items.size() && items[next].slot == slot; ++next) {
        const DItem& it = items[next];
        if (it.type == kNag) {
          events.push_back(GameEvent::make_nag(it.nag));
        } else if (it.type == kVariation) {
          events.push_back(GameEvent::begin_variation());
          if (auto st = walker.line(prev, true, depth + 1); !st) return st;
          events.push_back(GameEvent::end_variation());
        } else {
          events.push_back(GameEvent::comment(std::string(it.text), static_cast<CommentKind>(it.type)));
        }
      }
      if (slot == read.size()) break;
      prev = Start{at, h};
      h = history_after(h, at, read[slot]);
      at.play(read[slot]);
      events.push_back(GameEvent::make_move(Move::xiangqi(read[slot].from, read[slot].to)));
    }
    return {};
  }

  Status end_moves(CodecCursor& in) { return end_codeword(decoder_, in); }

 private:
  const bool modelled_;  // the block codes Xiangqi games with the Xiangqi model
  const bool booked_;    // and with its book (codec 17 or 18)
  const bool spellings_;  // its notation bytes may set the elements of codecs 14 and 15
  ArithDecoder decoder_;
  xq::MoveList list_;
  PlyFrequencies freq_;
};

}  // namespace

Status encode_xiangqi_game(const Game& game, CodecStreams& out, CodecStats* stats) {
  xq::Notation notation;
  xq::NotationStyle style;
  if (Status st = xq::read_notation(game.notation, notation, style); !st) return bad_game(st.error().message());
  const bool spelled = xq::needs_spellings_codec(style);
  if (spelled && !(out.xiangqi_spellings && out.xiangqi_model))
    return bad_game("move texts in GB18030 or Big5, or naming two pieces on a file by their file, need "
                    "format 1.10 (pack or append --xiangqi model)");
  auto start = xq::start_position(game.tags);
  if (!start) return bad_game(start.error().message());
  bool annotated = false;
  for (const GameEvent& e : game.events) annotated |= e.type != GameEvent::kMove;
  const bool frame = !game.prelude.empty() || !game.epilogue.empty();
  const bool counted = tag_ply_count(game.tags) == static_cast<std::uint64_t>(game.mainline_plies());
  const bool tagged = game.result != GameResult::kNone && tag_result(game.tags) == game.result;
  CodecStreams s;  // scratch: a failure leaves `out` as it was
  const std::uint8_t result = tagged ? kResultTagged : static_cast<std::uint8_t>(game.result);
  put_u8(s.structure, static_cast<std::uint8_t>(result | (annotated ? kAnnotated : 0) | (frame ? kHasFrame : 0) |
                                                (counted ? kCounted : 0) | kVariantByte));
  put_u8(s.structure, kXiangqiVariant);
  s.structure += game.notation;
  if (frame) {
    put_comments(game.prelude, s);
    put_comments(game.epilogue, s);
  }
  CodecStats local;
  std::vector<PlySymbol> symbols;
  s.coder = out.coder;
  s.xiangqi_model = out.xiangqi_model;
  s.xiangqi_book = out.xiangqi_book;
  if (auto st = encode_line(game.events, 0, game.events.size(), *start, {}, annotated, counted, 0, s, symbols, local);
      !st)
    return st;
  put_codeword(symbols, out.moves, out.move_bits);
  out.structure += s.structure;
  out.texts += s.texts;
  out.xiangqi = true;
  out.xiangqi_spelled |= spelled;
  out.xiangqi_in_book |= s.xiangqi_in_book;
  if (stats) stats->add_game(local);
  return {};
}

bool is_xiangqi_record(const CodecCursor& in) {
  return in.xiangqi && in.structure.size() >= 2 && (static_cast<std::uint8_t>(in.structure[0]) & kVariantByte) &&
         static_cast<std::uint8_t>(in.structure[1]) == kXiangqiVariant;
}

Result<ArchiveGame> decode_xiangqi_game(CodecCursor& in, std::vector<Tag> tags) {
  XiangqiDecodePolicy policy(std::move(tags), in);
  if (auto st = RecordWalker<XiangqiDecodePolicy>(in, policy).walk(); !st) return st.error();
  return std::move(policy.out);
}

}  // namespace pgnarc::codec
