#include "api/block_pgn.h"

#include <vector>

#include "codec/san_hints.h"
#include "container/block_reader.h"
#include "container/position_filter.h"
#include "pgn/san_hints.h"
#include "pgnarc/pgn.h"

namespace pgnarc {

using namespace container;

Result<std::string> block_pgn(std::string_view bytes, const std::string& where, std::uint32_t expected_games,
                              std::uint64_t first_game, const ReaderDictionaries* dictionaries,
                              const PlayerNames* players, std::string out) {
  DecodedBlock block;
  block.dictionaries = dictionaries;
  block.players = players;
  if (auto st = decode_block(bytes, where, block); !st) return st.error();
  if (block.games != expected_games) return corruption(where + ": game count differs from the index");
  // A filter must hold every key of the block's main lines (9.3.3), or a search would miss games.
  FilterSet filter;
  const bool filtered = !block.directory.filter.empty();
  if (filtered && !read_filter(block.directory.filter, filter))
    return corruption(where + ": game directory: the position filter is not one");
  std::vector<std::uint64_t> keys;
  CodecCursor c = block.cursor();
  out.clear();
  std::vector<std::uint8_t> hints;
  std::uint64_t plies = 0;
  for (std::uint32_t j = 0; j < block.games; ++j) {
    auto d = detail::decode_game_with_hints(c, block.tags.game(j), hints);
    if (!d) return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + d.error().message());
    for (const GameEvent& e : d->game.events) plies += e.type == GameEvent::kMove || e.type == GameEvent::kNullMove;
    if (auto st = check_group_end(block, j, c, where); !st) return st.error();
    if (filtered && !d->raw) {
      keys.clear();
      add_filter_keys(d->game, keys);
      for (std::uint64_t k : keys)
        if (!filter.may_hold(k))
          return corruption(where + ": game " + std::to_string(first_game + j + 1) +
                            ": a position of its main line is not in the block's position filter");
    }
    if (d->raw) write_raw_game(d->raw_text, out);
    else if (auto st = detail::write_pgn_with_hints(d->game, hints, out); !st)
      return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + st.error().message());
  }
  if (!all_consumed(c)) return corruption(where + ": bytes left over after its last game");
  if (plies != block.directory.plies) return corruption(where + ": the games' plies differ from the game directory's count");
  return out;
}

}  // namespace pgnarc
