#include "api/block_pgn.h"

#include <vector>

#include "codec/san_hints.h"
#include "container/block_reader.h"
#include "container/position_filter.h"
#include "pgn/san_hints.h"
#include "pgnarc/pgn.h"

namespace pgnarc {

using namespace container;

void BlockGameChecks::game(const DecodedGame& d) {
  for (const GameEvent& e : d.game.events) plies_ += e.type == GameEvent::kMove || e.type == GameEvent::kNullMove;
  if (!block_.directory.filter.empty() && !d.raw) add_filter_keys(d.game, keys_);
}

Status BlockGameChecks::finish() const {
  if (plies_ != block_.directory.plies) return corruption(where_ + ": the games' plies differ from the game directory's count");
  if (block_.directory.filter.empty()) return {};
  bool bad = false;
  const bool holds = filter_holds(block_.directory.filter, keys_, bad);
  if (bad) return corruption(where_ + ": game directory: the position filter is not one");
  if (!holds) return corruption(where_ + ": a position of a main line of its games is not in its position filter");
  return {};
}

Result<std::string> block_pgn(std::string_view bytes, const std::string& where, std::uint32_t expected_games,
                              std::uint64_t first_game, const ReaderDictionaries* dictionaries,
                              const PlayerNames* players, std::string out) {
  DecodedBlock block;
  block.dictionaries = dictionaries;
  block.players = players;
  if (auto st = decode_block(bytes, where, block); !st) return st.error();
  if (block.games != expected_games) return corruption(where + ": game count differs from the index");
  BlockGameChecks checks(block, where);
  CodecCursor c = block.cursor();
  out.clear();
  std::vector<std::uint8_t> hints;
  for (std::uint32_t j = 0; j < block.games; ++j) {
    auto d = detail::decode_game_with_hints(c, block.tags.game(j), hints);
    if (!d) return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + d.error().message());
    if (auto st = check_group_end(block, j, c, where); !st) return st.error();
    checks.game(*d);
    if (d->raw) write_raw_game(d->raw_text, out);
    else if (auto st = detail::write_pgn_with_hints(d->game, hints, out); !st)
      return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + st.error().message());
  }
  if (!all_consumed(c)) return corruption(where + ": bytes left over after its last game");
  if (auto st = checks.finish(); !st) return st.error();
  return out;
}

}  // namespace pgnarc
