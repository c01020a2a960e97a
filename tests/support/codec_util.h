// Helpers for codec tests: games coded and decoded one at a time, their streams in hex.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "codec/codec.h"
#include "common/bytes.h"
#include "support/pgn_util.h"

namespace pgnarc::test {

inline std::string hex(std::string_view s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (!out.empty()) out += ' ';
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

inline Game parse_one(const std::string& pgn) {
  auto games = read_all(pgn);
  EXPECT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].ok) << games[0].error;
  return games[0].game;
}

inline codec::CodecStreams encode(const Game& g) {
  codec::CodecStreams s;
  auto st = codec::encode_game(g, s);
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
  return s;
}

// A cursor has read every codeword of its moves: nothing left but the 0 bits that end the last byte.
inline bool moves_consumed(const codec::CodecCursor& c) {
  if (c.move_bit == 0) return c.moves.empty();
  return c.moves.size() == 1 && (static_cast<unsigned char>(c.moves[0]) & (0xFFu >> c.move_bit)) == 0;
}

inline Result<ArchiveGame> decode(const codec::CodecStreams& s, const std::vector<Tag>& tags) {
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
  auto d = codec::decode_game(c, tags);
  if (d) {  // a record is consumed exactly
    EXPECT_TRUE(moves_consumed(c) && c.structure.empty() && c.texts.empty() && c.raw.empty());
  }
  return d;
}

// Decoding `s` (one game) with g's tags gives back g.
inline void expect_decodes_to(const codec::CodecStreams& s, const Game& g) {
  auto d = decode(s, g.tags);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->game, g);
}

// Decoding `s` fails as Corruption, and so does skipping it, with the same message.
inline void expect_corrupt(const codec::CodecStreams& s, const std::vector<Tag>& tags, const char* what) {
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
  auto d = codec::decode_game(c, tags);
  ASSERT_FALSE(d.ok()) << what;
  EXPECT_EQ(d.error().code(), ErrorCode::Corruption) << what;
  codec::CodecCursor again{s.moves, s.structure, s.texts, s.raw};
  const Status skipped = codec::skip_game(again, tags);
  ASSERT_FALSE(skipped.ok()) << what;
  EXPECT_EQ(skipped.error().code(), ErrorCode::Corruption) << what;
  EXPECT_EQ(skipped.error().message(), d.error().message()) << what;
}

// Each game of `pgns` decodes back to itself.
inline void expect_round_trips(std::initializer_list<const char*> pgns) {
  for (const char* pgn : pgns) {
    const Game h = parse_one(pgn);
    auto back = decode(encode(h), h.tags);
    ASSERT_TRUE(back.ok()) << pgn;
    EXPECT_EQ(back->game, h) << pgn;
  }
}

// Knights going back and forth (every move legal), ply i followed by the brace comment
// {comments[i]}.
inline Game knights_with_comments(const std::vector<std::string>& comments) {
  const char* moves[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  std::string pgn;
  for (std::size_t i = 0; i < comments.size(); ++i) {
    if (i % 2 == 0) pgn += std::to_string(i / 2 + 1) + ". ";
    pgn += std::string(moves[i % 4]) + " {" + comments[i] + "} ";
  }
  return parse_one(pgn + "*");
}

// The item types of a game's main line, read from its structure stream as the specification
// reads them (the line has no null moves, clock track or variations).
inline std::vector<int> item_types(const codec::CodecStreams& s) {
  std::string_view st = s.structure;
  common::ByteReader r(st);
  std::uint8_t header, type;
  std::uint64_t v, items;
  std::vector<int> types;
  EXPECT_TRUE(r.u8(header) && r.varint(v) && r.varint(v) && v == 0 && r.varint(items));
  for (std::uint64_t i = 0; i < items; ++i) {
    EXPECT_TRUE(r.varint(v) && r.u8(type));
    if (type == 3) EXPECT_TRUE(r.u8(header));
    if (type == 5 || type == 6) EXPECT_TRUE(r.varint(v));
    types.push_back(type);
  }
  return types;
}

}  // namespace pgnarc::test
