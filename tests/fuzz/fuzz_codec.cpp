// Fuzz target: the move codec's decoder on arbitrary streams. The input gives three 16-bit
// lengths and a mode byte, then the moves, structure and texts streams, then the raw stream. The
// mode names the move coder (mode % 3: uniform, model, fast) and the codec (mode / 3 % 9: 6 to
// 12, 14 and 15; 8, 10, 12 and 15 with their clock tracks in the codeword, 8.3.4). The record is
// decoded with no tags and with a PlyCount, a Result and a TimeControl tag taken from the first
// two bytes (so that counted main lines, tagged results and clock predictions are reached). A
// record that decodes can be skipped, and encodes, with the same tags, coder and codec, to one
// that decodes to the same game.
#include <cstdint>
#include <string>
#include <vector>

#include "codec/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 7) return 0;
  std::size_t len[3];
  for (int i = 0; i < 3; ++i) len[i] = data[2 * i] | (data[2 * i + 1] << 8);
  std::string_view rest(reinterpret_cast<const char*>(data) + 7, size - 7);
  pgnarc::codec::CodecCursor c;
  std::string_view* parts[3] = {&c.moves, &c.structure, &c.texts};
  for (int i = 0; i < 3; ++i) {
    const std::size_t n = std::min(len[i], rest.size());
    *parts[i] = rest.substr(0, n);
    rest.remove_prefix(n);
  }
  c.raw = rest;
  c.coder = static_cast<pgnarc::codec::MoveCoder>(data[6] % 3);
  const int k = data[6] / 3 % 11;
  const int codec = k < 7 ? 6 + k : k < 9 ? 7 + k : 8 + k;  // 6 to 12, 14, 15, 17 and 18
  c.variants = codec > 6;
  c.modelled_tracks = codec == 8 || codec == 10 || codec == 12 || codec == 15 || codec == 18;
  c.xiangqi = codec >= 9;
  c.xiangqi_model = codec >= 11;
  c.xiangqi_spellings = codec >= 14;
  c.xiangqi_book = codec >= 17;
  static const char* const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  const std::vector<pgnarc::Tag> tagged = {pgnarc::Tag{"PlyCount", std::to_string(data[0] % 64)},
                                           pgnarc::Tag{"Result", results[data[1] % 4]},
                                           pgnarc::Tag{"TimeControl", std::to_string(data[0]) + "+" + std::to_string(data[1] >> 6)}};
  for (const std::vector<pgnarc::Tag>& tags : {std::vector<pgnarc::Tag>{}, tagged}) {
    pgnarc::codec::CodecCursor in = c, skip = c;
    const bool skipped = pgnarc::codec::skip_game(skip, tags).ok();
    auto d = pgnarc::codec::decode_game(in, tags);
    if (!d) continue;
    if (!skipped) __builtin_trap();  // whatever decodes can be skipped
    if (d->raw) continue;
    pgnarc::codec::CodecStreams s;
    s.coder = c.coder;
    s.modelled_tracks = c.modelled_tracks;
    s.xiangqi_model = c.xiangqi_model;
    s.xiangqi_spellings = c.xiangqi_spellings;
    if (!pgnarc::codec::encode_game(d->game, s)) __builtin_trap();
    // (A game under a variant needs codec 7 or above, a Xiangqi game 9 or above; a track of a
    // codec of modelled tracks is written modelled again.)
    if ((s.variants && !c.variants) || (s.xiangqi && !c.xiangqi)) __builtin_trap();
    pgnarc::codec::CodecCursor c2{s.moves, s.structure, s.texts, s.raw, c.coder, c.variants, c.modelled_tracks};
    c2.xiangqi = c.xiangqi;
    c2.xiangqi_model = c.xiangqi_model;
    c2.xiangqi_spellings = c.xiangqi_spellings;
    auto d2 = pgnarc::codec::decode_game(c2, tags);
    if (!d2 || !(d2->game == d->game)) __builtin_trap();
  }
  return 0;
}
