#include "api/block_pgn.h"

#include <vector>

#include "codec/record/decode_game_with_hints.h"
#include "container/block_reader.h"
#include "container/derived_tags.h"
#include "container/position_filter.h"
#include "pgn/write_pgn_with_hints.h"
#include "pgnarc/pgn.h"

namespace pgnarc::api {

using namespace container;

void BlockGameChecks::game(const ArchiveGame& d) {
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

namespace {

// Decodes every game of the block `bytes` in order with every check of a full decode, giving
// each to game(j, decoded, hints) -> Status; the hints (for writing its SAN) only `with_hints`.
template <class Visit>
Status each_block_game(std::string_view bytes, const container::Where& where, std::uint32_t expected_games,
                       std::uint64_t first_game, const ReaderDictionaries* dictionaries, const PlayerNames* players,
                       bool with_hints, Visit game) {
  DecodedBlock block;
  block.dictionaries = dictionaries;
  block.players = players;
  if (auto st = decode_block(bytes, where, block); !st) return st;
  if (block.games != expected_games) return corruption(where + ": game count differs from the index");
  BlockGameChecks checks(block, where);
  codec::CodecCursor c = block.cursor();
  std::vector<std::uint8_t> hints;
  std::vector<std::string> spare;  // the comments of games written, for the next one's clocks
  for (std::uint32_t j = 0; j < block.games; ++j) {
    auto d = with_hints ? codec::decode_game_with_hints(c, block.tags.game(j), hints, &spare)
                        : codec::decode_game(c, block.tags.game(j));
    if (!d) return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + d.error().message());
    if (auto st = fill_derived_tags(block.tags, j, *d, where + ": game " + std::to_string(first_game + j + 1)); !st)
      return st;
    if (auto st = check_group_end(block, j, c, where); !st) return st;
    checks.game(*d);
    if (auto st = game(j, *d, hints); !st)
      return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + st.error().message());
    if (with_hints) codec::recycle_comments(d->game, spare);
  }
  if (!all_consumed(c)) return corruption(where + ": bytes left over after its last game");
  return checks.finish();
}

}  // namespace

Result<std::string> block_pgn(std::string_view bytes, const container::Where& where, std::uint32_t expected_games,
                              std::uint64_t first_game, const ReaderDictionaries* dictionaries,
                              const PlayerNames* players, std::string out) {
  out.clear();
  const auto write = [&](std::uint32_t, ArchiveGame& d, const std::vector<std::uint8_t>& hints) -> Status {
    if (d.raw) {
      write_raw_game(d.raw_text, out);
      return {};
    }
    return pgn::write_pgn_with_hints(d.game, hints, out);
  };
  if (auto st = each_block_game(bytes, where, expected_games, first_game, dictionaries, players, true, write); !st)
    return st.error();
  return out;
}

Result<std::vector<ArchiveGame>> block_games(std::string_view bytes, const container::Where& where,
                                             std::uint32_t expected_games, std::uint64_t first_game,
                                             const ReaderDictionaries* dictionaries, const PlayerNames* players) {
  std::vector<ArchiveGame> games;
  games.reserve(expected_games);
  const auto keep = [&](std::uint32_t, ArchiveGame& d, const std::vector<std::uint8_t>&) -> Status {
    games.push_back(std::move(d));
    return {};
  };
  if (auto st = each_block_game(bytes, where, expected_games, first_game, dictionaries, players, false, keep); !st)
    return st.error();
  return games;
}

}  // namespace pgnarc::api
