// Xiangqi game records (format 5.7.2): exact bytes, round trips of the corpus's games and of
// annotated ones, blocks that mix them with chess games, and damaged records rejected.
#include <fstream>
#include <sstream>

#include "support/codec_util.h"
#include "codec/codec.h"
#include "codec/record/xiangqi_record.h"
#include "pgn/xiangqi_pgn.h"
#include "rules/xiangqi_game.h"
#include "common/iconv_text.h"

namespace pgnarc {
namespace {

using test::hex;

Game xiangqi_game(std::string_view text) {
  GameBuilder b;
  pgn::parse_game_or_xiangqi(text, "test", 1, SourcePos{}, b);
  EXPECT_TRUE(b.ok()) << b.error().message();
  EXPECT_EQ(b.game().rules, GameRules::kXiangqi);
  return b.game();
}

// The games of a corpus file, its text first converted by iconv to `encoding` where given.
std::vector<Game> corpus_games(const std::string& name, const char* encoding = nullptr) {
  std::ifstream in(std::string(PGNARC_CORPUS_DIR) + "/xiangqi/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  PgnReader reader(memory_input(encoding ? common::iconv_to(encoding, s.str()).value() : s.str()), name);
  PgnReader::RawGame rg;
  std::vector<Game> out;
  while (reader.next_raw(rg).value()) {
    GameBuilder b;
    pgn::parse_game_or_xiangqi(rg.text, name, rg.number, rg.start, b);
    EXPECT_TRUE(b.ok()) << b.error().message();
    out.push_back(b.game());
  }
  return out;
}

codec::CodecCursor cursor_of(const codec::CodecStreams& s) {
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw, s.coder, true, s.modelled_tracks};
  c.xiangqi = true;
  c.xiangqi_model = s.xiangqi_model;
  c.xiangqi_spellings = s.codec() >= codec::kXiangqiSpellingsCodec;
  return c;
}

// Decodes every game of `s` in order, and checks that the streams are consumed.
std::vector<Game> decode_all(const codec::CodecStreams& s, const std::vector<Game>& like) {
  codec::CodecCursor c = cursor_of(s);
  std::vector<Game> out;
  for (const Game& g : like) {
    auto d = codec::decode_game(c, g.tags);
    EXPECT_TRUE(d.ok()) << d.error().to_string();
    if (!d) break;
    out.push_back(d->game);
  }
  EXPECT_TRUE(test::moves_consumed(c) && c.structure.empty() && c.texts.empty());
  return out;
}

// The start position's 44 moves: h2e2 has index 30 (5.7); an unannotated line ends with its end,
// of frequency 44 * 4096 / 256 = 704 beside the moves' 4096 each.
TEST(XiangqiRecord, Bytes) {
  const Game g = xiangqi_game("[Game \"Chinese Chess\"]\n\n1. h2e2\n");
  codec::CodecStreams s;
  s.coder = codec::MoveCoder::kUniform;
  ASSERT_TRUE(codec::encode_game(g, s).ok());
  // Header: the variant bit alone (no result, not annotated); variant byte 8; ICCS, lower case
  // and without a hyphen once learnt (case 1, hyphen 1: 0x14).
  EXPECT_EQ(hex(s.structure), "80 08 14");
  EXPECT_TRUE(s.xiangqi);
  EXPECT_EQ(s.codec(), codec::kXiangqiCodec);
  s.modelled_tracks = s.tracks = true;
  EXPECT_EQ(s.codec(), codec::kXiangqiTracksCodec);
  // Whatever the block's coder, the same codeword.
  for (const codec::MoveCoder coder : {codec::MoveCoder::kModel, codec::MoveCoder::kFast}) {
    codec::CodecStreams other;
    other.coder = coder;
    ASSERT_TRUE(codec::encode_game(g, other).ok());
    EXPECT_EQ(other.moves, s.moves);
    EXPECT_EQ(other.move_bits, s.move_bits);
  }
  const auto back = decode_all(s, {g});
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0], g);
}

TEST(XiangqiRecord, CorpusGamesRoundTripBesideChessGames) {
  for (const char* name : {"wukong_iccs.pgn", "wukong_wxf_fullwidth.pgn", "wukong_chinese.pgn"}) {
    SCOPED_TRACE(name);
    std::vector<Game> games = corpus_games(name);
    ASSERT_EQ(games.size(), 15u);
    // A game of chess between them: one block holds both.
    games.insert(games.begin() + 3, test::parse_one("[White \"a\"]\n\n1. e4 e5 2. Nf3 {c} Nc6 1-0"));
    std::size_t uniform_bytes = 0;
    for (const bool model : {false, true})
      for (const codec::MoveCoder coder : {codec::MoveCoder::kUniform, codec::MoveCoder::kModel, codec::MoveCoder::kFast}) {
        SCOPED_TRACE(testing::Message() << "model " << model << ", coder " << static_cast<int>(coder));
        codec::CodecStreams s;
        s.coder = coder;
        s.xiangqi_model = model;
        codec::CodecStats stats;
        for (const Game& g : games) ASSERT_TRUE(codec::encode_game(g, s, &stats).ok());
        const bool modelled = model && coder != codec::MoveCoder::kUniform;
        EXPECT_EQ(s.codec(), modelled ? codec::kXiangqiModelCodec : codec::kXiangqiCodec);
        EXPECT_EQ(stats.mainline_plies, 1378u + 4u);
        EXPECT_EQ(decode_all(s, games), games);
        // The model's codewords are at least a fifth shorter than the uniform ones.
        if (!model && coder == codec::MoveCoder::kUniform) uniform_bytes = s.moves.size();
        if (modelled) EXPECT_LT(s.moves.size() * 5, uniform_bytes * 4);
      }
  }
}

// Games whose move texts are in GB18030 (or name tandem pieces by file) take codec 14, 15 with a
// modelled track; a writer without those codecs cannot encode them, and a block of codec 11 that
// holds their notation bytes is rejected.
TEST(XiangqiRecord, GamesOfFormat110ElementsTakeCodecs14And15) {
  const std::vector<Game> games = corpus_games("wukong_chinese.pgn", "GB18030");
  ASSERT_EQ(games.size(), 15u);
  // The same moves as the UTF-8 file's.
  std::vector<Game> utf8 = corpus_games("wukong_chinese.pgn");
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    EXPECT_EQ(utf8[i].events, games[i].events);
    EXPECT_NE(utf8[i].notation, games[i].notation);
  }
  for (const codec::MoveCoder coder : {codec::MoveCoder::kUniform, codec::MoveCoder::kFast}) {
    codec::CodecStreams s;
    s.coder = coder;
    s.xiangqi_model = s.xiangqi_spellings = true;
    for (const Game& g : games) ASSERT_TRUE(codec::encode_game(g, s).ok());
    EXPECT_EQ(s.codec(), codec::kXiangqiSpellingsCodec);
    EXPECT_EQ(decode_all(s, games), games);
    codec::CodecStreams tracks = s;
    tracks.modelled_tracks = tracks.tracks = true;
    EXPECT_EQ(tracks.codec(), codec::kXiangqiSpellingsTracksCodec);
    codec::CodecCursor c = cursor_of(s);
    c.xiangqi_spellings = false;  // as codec 11 would
    const auto d = codec::decode_game(c, games[0].tags);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code(), ErrorCode::Corruption);
  }
  codec::CodecStreams s;
  s.xiangqi_model = true;  // xiangqi_spellings false
  const Status st = codec::encode_game(games[0], s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("1.10"), std::string::npos) << st.error().message();
  EXPECT_TRUE(s.structure.empty());
}

TEST(XiangqiRecord, AnnotationsRoundTrip) {
  const Game g = xiangqi_game(
      "{before} [Game \"Chinese Chess\"]\n[Result \"0-1\"]\n[PlyCount \"4\"]\n"
      "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n\n"
      "{start} 1... H8+7 $1 (1... C8.5 {centre} (1... P7+1) 2. H2+3) 2. H2+3 ; line\n"
      "2... R9.8 3. R1.2 0-1 {after}\n");
  for (const codec::MoveCoder coder : {codec::MoveCoder::kUniform, codec::MoveCoder::kModel}) {
    codec::CodecStreams s;
    s.coder = coder;
    s.xiangqi_model = coder == codec::MoveCoder::kModel;  // variations start with their ply's history
    ASSERT_TRUE(codec::encode_game(g, s).ok());
    // Result from the tag (5), annotated, frame, counted by PlyCount, variant byte; WXF's three
    // bytes (WXF, ASCII, upper case, dots: 0x65; the horse's letter H: 0x04).
    EXPECT_EQ(hex(s.structure.substr(0, 5)), "dd 08 65 04 00");
    EXPECT_EQ(decode_all(s, {g}), std::vector<Game>{g});
  }
}

TEST(XiangqiRecord, WhatAXiangqiGameCannotBe) {
  Game g = xiangqi_game("[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7\n");
  codec::CodecStreams s;
  Game bad = g;
  bad.events.insert(bad.events.begin() + 1, GameEvent::null_move());
  EXPECT_FALSE(codec::encode_game(bad, s).ok());
  bad = g;
  bad.events[1].move = Move::xiangqi(0, 89);
  EXPECT_FALSE(codec::encode_game(bad, s).ok());
  bad = g;
  bad.notation = "\x03";
  EXPECT_FALSE(codec::encode_game(bad, s).ok());
  EXPECT_TRUE(s.structure.empty() && s.moves.empty()) << "a game refused leaves the streams as they were";
}

// Each damage of the structure stream of "1. h2e2 {c} h9g7" (annotated: ply count 2, no nulls,
// one item) is refused as corrupt, never read as another game.
TEST(XiangqiRecord, DamagedRecordsAreRejected) {
  const Game g = xiangqi_game("[Game \"Chinese Chess\"]\n\n1. h2e2 {c} h9g7\n");
  codec::CodecStreams s;
  ASSERT_TRUE(codec::encode_game(g, s).ok());
  ASSERT_EQ(hex(s.structure), "88 08 14 02 00 01 01 00");
  struct Damage {
    std::size_t at;
    char to;
    const char* what;
  };
  const Damage damages[] = {
      {2, '\x03', "notation 3"},
      {2, '\x54', "an ICCS reserved bit"},
      {2, '\x01', "WXF's three bytes cut short"},
      {4, '\x02', "a null move"},
      {4, '\x01', "a clock track"},
      {7, '\x05', "a clock item"},
      {7, '\x06', "a record item"},
      {1, '\x09', "variant 9"},
  };
  for (const Damage& d : damages) {
    codec::CodecStreams bad = s;
    bad.structure[d.at] = d.to;
    codec::CodecCursor c = cursor_of(bad);
    auto r = codec::decode_game(c, g.tags);
    ASSERT_FALSE(r.ok()) << d.what;
    EXPECT_EQ(r.error().code(), ErrorCode::Corruption) << d.what;
  }
  // In a block whose codec holds no Xiangqi game, variant 8 is reserved.
  codec::CodecCursor chess{s.moves, s.structure, s.texts, s.raw, s.coder, true, false};
  auto r = codec::decode_game(chess, g.tags);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("reserved variant 8"), std::string::npos) << r.error().message();
  // A FEN tag that is no Xiangqi position.
  codec::CodecCursor c = cursor_of(s);
  std::vector<Tag> tags = g.tags;
  tags.push_back(Tag{"FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"});
  EXPECT_EQ(codec::decode_game(c, tags).error().code(), ErrorCode::Corruption);
}

}  // namespace
}  // namespace pgnarc
