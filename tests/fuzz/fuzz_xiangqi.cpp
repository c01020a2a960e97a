// Fuzz target: Xiangqi text. The input is read as a Xiangqi FEN and, after a tag that makes it a
// Xiangqi game, as a movetext (ICCS, WXF or Chinese). A FEN that parses writes back to one that
// parses to the same position, and each legal move's text in each notation (and in GB18030 and
// Big5, tandem pieces by file) reads back as that move and is learnt as written. A game that parses is written back and read again as the same
// game, and its record (coded uniformly or, as the input picks, by the Xiangqi model) decodes to
// it; the record damaged at a place the input picks is rejected or decodes to some game, never
// crashes or loops.
#include <cstdint>
#include <string>

#include "codec/codec.h"
#include "pgn/xiangqi_pgn.h"
#include "pgnarc/pgn.h"
#include "rules/xiangqi_game.h"

namespace {

namespace xq = pgnarc::rules::xiangqi;

void check_fen(std::string_view text) {
  auto p = xq::Position::from_fen(text);
  if (!p) return;
  auto again = xq::Position::from_fen(p->fen());
  if (!again || !(*again == *p)) __builtin_trap();
  const xq::MoveList moves = xq::legal_moves(*p);
  for (const xq::Move& m : moves) {
    if (!xq::is_legal(*p, m)) __builtin_trap();
    for (const xq::Notation n : {xq::Notation::kIccs, xq::Notation::kWxf, xq::Notation::kChinese}) {
      const std::string written = xq::write_move(*p, m, n, xq::NotationStyle{});
      auto back = xq::parse_move(*p, written, n);
      if (!back || !(*back == m)) __builtin_trap();
      xq::NotationStyle style;
      auto learnt = xq::learn_move(style, *p, written, n);
      if (!learnt || !(learnt->move == m) || !learnt->reproducible) __builtin_trap();
      if (n == xq::Notation::kIccs) continue;
      // In GB18030 and Big5 (full-width WXF), with tandem pieces by file: read back and learnt.
      for (const xq::Encoding e : {xq::Encoding::kGb18030, xq::Encoding::kBig5}) {
        xq::NotationStyle other;
        other.encoding = e;
        other.tandem_file = xq::Toggle::kYes;
        other.wxf_width = xq::Width::kFullWidth;
        const std::string text = xq::write_move(*p, m, n, other);
        auto read = xq::parse_move(*p, text, n);
        if (!read || !(*read == m)) __builtin_trap();
        xq::NotationStyle fresh;
        auto l = xq::learn_move(fresh, *p, text, n);
        if (!l || !(l->move == m) || !l->reproducible || fresh.encoding != e) __builtin_trap();
      }
    }
  }
}

void check_game(std::string_view movetext, std::uint8_t damage_at, std::uint8_t damage) {
  using namespace pgnarc;
  const std::string text = "[Game \"Chinese Chess\"]\n\n" + std::string(movetext);
  GameBuilder b;
  pgn::parse_game_or_xiangqi(text, "fuzz", 1, SourcePos{}, b);
  if (!b.ok()) return;
  const Game& g = b.game();
  if (g.rules != GameRules::kXiangqi) __builtin_trap();
  std::string out;
  if (!write_pgn(g, out).ok()) __builtin_trap();
  GameBuilder again;
  pgn::parse_game_or_xiangqi(out, "fuzz", 1, SourcePos{}, again);
  if (!again.ok() || !(again.game() == g)) __builtin_trap();
  codec::CodecStreams s;
  // The Xiangqi model's frequencies (codec 11, or 14 for texts in GB18030 or Big5 or tandem pieces
  // by file; with its book, 17, where a position the book holds is met), or the uniform coder's.
  s.xiangqi_model = s.xiangqi_spellings = damage & 0x80;
  s.xiangqi_book = damage & 0x40;
  if (!codec::encode_game(g, s).ok()) return;  // (more plies than a record holds; 1.10's texts, uniform)
  const auto cursor = [](const codec::CodecStreams& st) {
    codec::CodecCursor c{st.moves, st.structure, st.texts, st.raw, st.coder, true, false};
    c.xiangqi = true;
    c.xiangqi_model = st.xiangqi_model;
    c.xiangqi_spellings = st.codec() >= codec::kXiangqiSpellingsCodec;
    c.xiangqi_book = st.codec() >= codec::kXiangqiBookCodec;
    return c;
  };
  codec::CodecCursor c = cursor(s);
  auto d = codec::decode_game(c, g.tags);
  if (!d || !(d->game == g)) __builtin_trap();
  codec::CodecStreams bad = s;
  std::string& stream = damage_at & 1 ? bad.moves : bad.structure;
  if (stream.empty()) return;
  stream[(damage_at >> 1) % stream.size()] ^= static_cast<char>(damage | 1);
  codec::CodecCursor dc = cursor(bad);
  (void)codec::decode_game(dc, g.tags);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_fen(text);
  if (size >= 2) check_game(text.substr(2), data[0], data[1]);
  return 0;
}
