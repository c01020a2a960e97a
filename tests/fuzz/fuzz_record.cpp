// Fuzz target: record comments (spec 8.3.3). The input's first byte picks the slots of two
// comments in a short game (the main line, or a variation); the rest, cut at its first byte 0xff,
// gives their texts. The game must come back byte for byte, whether its comments are records or
// text. Then the game's codeword, structure and texts are damaged at a place the input picks: the
// decoder must reject the record or decode some game, never crash or loop.
#include <cstdint>
#include <string>
#include <vector>

#include "codec/codec.h"
#include "pgnarc/pgn.h"

namespace {

// 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6, with a variation (2... d6 3. d4) after 2. Nf3.
const pgnarc::Game& base_game() {
  static const pgnarc::Game game = [] {
    pgnarc::GameBuilder b;
    pgnarc::PgnReader r(pgnarc::memory_input("1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5 a6 *"), "fuzz");
    if (!r.next(b).ok() || !b.ok()) __builtin_trap();
    return b.game();
  }();
  return game;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc;
  if (size < 1) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t cut = rest.find('\xff');
  const std::string_view texts[2] = {rest.substr(0, cut), cut == std::string_view::npos ? "" : rest.substr(cut + 1)};
  // Event positions: before each of the game's events (the variation's brackets hold moves too).
  Game g = base_game();
  const std::size_t at[2] = {data[0] % (g.events.size() + 1), (data[0] >> 4) % (g.events.size() + 1)};
  std::vector<GameEvent> events;
  for (std::size_t i = 0; i <= g.events.size(); ++i) {
    for (int k = 0; k < 2; ++k)
      if (at[k] == i) events.push_back(GameEvent::comment(std::string(texts[k])));
    if (i < g.events.size()) events.push_back(g.events[i]);
  }
  g.events = std::move(events);
  codec::CodecStreams s;
  if (!codec::encode_game(g, s).ok()) return 0;  // a comment where the codec cannot place it
  codec::CodecCursor c{s.moves, s.structure, s.texts, s.raw};
  auto d = codec::decode_game(c, g.tags);
  if (!d || !(d->game == g)) __builtin_trap();
  // Damage: one byte of the three streams changed.
  std::string* parts[3] = {&s.moves, &s.structure, &s.texts};
  std::string* part = parts[size % 3];
  if (part->empty()) return 0;
  (*part)[(size * 7919) % part->size()] ^= static_cast<char>(data[size - 1] | 1);
  codec::CodecCursor damaged{s.moves, s.structure, s.texts, s.raw};
  (void)codec::decode_game(damaged, g.tags);
  return 0;
}
