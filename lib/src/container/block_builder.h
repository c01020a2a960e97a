// A block as it is built (9.3): the games' codec streams and tags, then the block's bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codec/codec.h"
#include "container/block_summary.h"
#include "container/format.h"
#include "container/value_tables.h"
#include "pgnarc/game.h"

namespace pgnarc::container {

class WriterDictionary;

struct BlockBuilder {
  codec::CodecStreams streams;
  std::vector<std::vector<Tag>> tags;  // per game (verbatim games: their readable tag pairs)
  // Per game, the rules of 9.4.5 that give each of its tags' values (empty: none).
  std::vector<std::vector<std::uint8_t>> derived;
  // Whether the tags section may have the codings of layout 3 (derived and named columns, 9.4.5
  // and 9.4.6); the block has layout 3 where it has one.
  bool derive_tags = false;
  // Whether typed tag columns may have their codes in a codeword (coding 10, 9.4.7); the block
  // has layout 4 where one does.
  bool code_tags = false;
  // Each White and Black tag's entry in the players' table, in the order of `tags`, given
  // before the tags section is made; without them (a block made apart from an archive writer),
  // those columns are coded as text.
  std::optional<std::vector<std::uint32_t>> players;
  // The archive's value table's keys and each game's entry (9.4.8), given with the players'
  // entries where the archive has a table: the columns of its keys are then table columns, and
  // the block has layout 5.
  std::optional<TableColumns> tables;
  // Whether a FEN column may hold Xiangqi positions (coding 12, 9.4.9); the block has layout 6
  // where one does.
  bool xiangqi_positions = false;
  // Each Event and Site tag's entry in its name table (NameEntries), given where the archive's
  // tables are known before its blocks are finished (all its blocks held): an Event or Site
  // column may then name them, and the block has layout 8 where one does.
  std::optional<NameEntries> names;
  std::uint32_t games = 0;
  std::uint64_t plies = 0;  // of all the games' lines (CodecStats::plies), set before finish()
  BlockSummary summary;
  // Where each game ended in each stream (moves, structure, texts, raw): the game directory
  // (9.3.1) is made from these when the block is finished.
  std::vector<std::uint32_t> game_end[4];
  // The filter keys of the block's main lines' positions (position_filter.h), if the block is
  // to have a position filter.
  std::vector<std::uint64_t> filter_keys;

  // Ends a game whose records were just appended to `streams`: its tags (with the rules that
  // give their values, derived_rules: none for a verbatim game or where tags are not derived),
  // its ends and the block summary.
  void end_game(const std::vector<Tag>& game_tags, std::vector<std::uint8_t> derived_rules = {});
  // The block's bytes: header, section table, sections, checksum. With `dict`, the tags
  // section is compressed with it (encoding 3) where compression pays. `made_tags`: the tags
  // section already made by tags_section(options) (a block held for dictionary training has
  // it), else null and it is made here. With `text_dict`, the texts and raw sections' frames of
  // the plain form are made with it (encodings 7 and 8; those of the column form without it).
  // With `moves_dict`, the moves and structure sections' frames are made with it (encoding 10).
  std::string finish(const StoreOptions& options, const WriterDictionary* dict = nullptr,
                     const std::string* made_tags = nullptr, const WriterDictionary* text_dict = nullptr,
                     const WriterDictionary* moves_dict = nullptr) const;
  // The moves and structure sections before compression (9.3): the codewords group by group,
  // each group's from a byte boundary; the game directory, then the structure stream.
  struct MovesAndStructure {
    std::string moves, structure;
    std::vector<std::uint32_t> group_bytes;  // the bytes of each group's codewords in `moves`
  };
  MovesAndStructure moves_and_structure(const StoreOptions& options) const;
  // The tags section before compression (9.4), its columns' codings chosen by their size
  // compressed (at kTagChoiceLevel) when the block is compressed, else by their raw size.
  std::string tags_section(const StoreOptions& options) const;
  static constexpr int kTagChoiceLevel = 3;
  // Games per directory group (9.3.1): reading a game decodes the codewords of the group's
  // games before it, so a group holds one game, but in a uniform block whose codewords take at
  // most 1 KiB (up to eight games) and where the texts or raw stream is to be split into zstd
  // frames (about options.frame_bytes of it: up to max_group_games()).
  std::uint32_t directory_step(const StoreOptions& options) const;
  static constexpr std::uint32_t kMaxGroupGames = 8;
  // kMaxGroupGames, or every game of a block without codewords (its games kept verbatim).
  std::uint64_t max_group_games() const;
  // Whether the texts and raw streams are to be split into frames, one per group of `step` games:
  // where one of them is more than two frames and the groups hold half a frame or more.
  bool framed(const StoreOptions& options, std::uint64_t step) const;
};

// The tags section of `games` (9.4), `players` their White and Black tags' players' table
// entries (or null), `tables` their value table entries (or null), its columns' codings chosen
// as BlockBuilder::tags_section chooses them.
std::string encode_tags_section(const std::vector<std::vector<Tag>>& games, const std::vector<std::uint32_t>* players,
                                const StoreOptions& options,
                                const std::vector<std::vector<std::uint8_t>>* derived = nullptr, bool coded = false,
                                const TableColumns* tables = nullptr, bool xiangqi_positions = false,
                                const NameEntries* names = nullptr);
// The layout a block of the tags section `in` (of `games` games, as the writer made it) needs:
// kNameEntriesLayout where an Event or Site column names entries of its table (9.4.3), else
// kUnescapedTagsLayout where a column holds values written without escapes (9.4.10), else
// kXiangqiTagsLayout where a column holds Xiangqi positions (9.4.9), else kTableTagsLayout where
// a column is a table column (9.4.8), else kCodedTagsLayout where a column
// is coded (9.4.7), else kDerivedTagsLayout where a column is
// derived or named (9.4.5, 9.4.6), else kBlockLayout.
std::uint8_t tags_section_layout(std::string_view in, std::uint32_t games);

// `block` (a sound block) with its tags section replaced by `tags` (stored as a block's tags
// section is: with `dict` where given, and where compression pays), its layout the one `tags`
// needs (tags_section_layout) and its checksum made anew.
std::string replace_tags_section(std::string_view block, std::string_view tags, const StoreOptions& options,
                                 const WriterDictionary* dict);

// Blocks' moves and structure sections before compression (moves_and_structure), each block's
// moves section then its structure section, and the codewords that two or more of their groups
// share (repeated_codewords).
struct MovesSections {
  std::vector<std::string> sections;
  std::string repeats;
};
MovesSections moves_sections(const std::vector<const BlockBuilder*>& blocks, const StoreOptions& options);

}  // namespace pgnarc::container
