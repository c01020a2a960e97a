// Value tables (spec 9.4.8): tag values that recur across an archive's blocks (an opening's name
// and code), stored once in the index (extension 6) and named by the table columns (coding 11)
// of blocks of layout 5. A table has one or more keys and a list of entries; an entry has, for
// each key, a value or none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// The index extension that holds the value tables (9.5), and its bytes: magic, encoding, stored
// size, raw size, the tables, checksum (9.4.8).
inline constexpr std::uint64_t kValueTablesExtension = 6;
inline constexpr char kValueTablesMagic[4] = {'P', 'G', 'A', 'V'};
inline constexpr std::size_t kValueTablesHeaderSize = 13;
inline constexpr std::uint32_t kMaxValueTablesBytes = 1u << 26;  // stored and decoded
// The zstd level of this writer's tables: compressed once, read once at opening.
inline constexpr int kValueTablesLevel = 19;
// The most tables, keys of a table, entries of a table and values in all (INDEX-3): a reader
// loads the tables when it opens the archive.
inline constexpr std::size_t kMaxTables = 256;
inline constexpr std::size_t kMaxTableKeys = 8;
inline constexpr std::uint64_t kMaxTableEntries = 1u << 24;
inline constexpr std::uint64_t kMaxTableValues = 1u << 24;
// The most entries, and bytes of entries, this writer gives its table (9.4.8).
inline constexpr std::uint32_t kWriterTableEntries = 1u << 16;
inline constexpr std::size_t kWriterTableBytes = 1u << 24;
// The keys of this writer's table, in order: those of them that its first blocks use.
inline constexpr std::string_view kOpeningKeys[] = {"ECO", "Opening", "Variation", "SubVariation", "ECOUrl"};

class ValueTables {
 public:
  struct Table {
    std::vector<std::string> keys;
    std::uint32_t entries = 0;
    // Where value (entry e, key i) is written in the tables' bytes, its varint first: at[e * keys + i].
    std::vector<std::uint32_t> at;
  };

  bool empty() const { return tables_.empty(); }
  const std::vector<Table>& tables() const { return tables_; }
  // Entry e's value for key i of table t, or none.
  std::optional<std::string_view> value(std::size_t t, std::uint32_t e, std::size_t i) const;
  // The place of `key` among table t's keys, or -1.
  int key_index(std::size_t t, std::string_view key) const;

  // The extension's bytes read and checked (INDEX-3); `where` prefixes the error.
  static Result<ValueTables> decode(std::string_view extension, const std::string& where);
  // The size of the extension whose first kValueTablesHeaderSize bytes are `head`, as it
  // declares it, or 0 where they are not an extension's (a salvage finds one by its magic).
  static std::uint64_t declared_size(std::string_view head);

 private:
  std::vector<Table> tables_;
  std::string bytes_;
};

// The one table this writer makes (9.4.8), as it grows: its keys, and its entries numbered in
// the order the games first have them. Its bytes are the extension's body.
class TableBuilder {
 public:
  TableBuilder() = default;
  explicit TableBuilder(std::vector<std::string> keys) : keys_(std::move(keys)) {}
  // A builder holding the first table of `tables` (entry for entry), or an empty one.
  static TableBuilder from(const ValueTables& tables);

  bool active() const { return !keys_.empty(); }
  const std::vector<std::string>& keys() const { return keys_; }
  std::uint32_t entries() const { return entries_; }
  // Each game's entry: the values of its first tag of each key, numbered; -1 for a game with
  // none of the keys, or whose entry is new once the table is full.
  std::vector<std::int64_t> number(const std::vector<std::vector<Tag>>& games);
  // The extension's bytes, the tables compressed at `level` where that is smaller (empty without
  // entries).
  std::string extension(int level) const;

 private:
  std::vector<std::string> keys_;
  std::unordered_map<std::string, std::uint32_t> index_;  // an entry's bytes -> its number
  std::string bytes_;
  std::uint32_t entries_ = 0;
};

// The keys of kOpeningKeys that the games use, in that order.
std::vector<std::string> opening_keys(const std::vector<std::vector<Tag>>& games);

// What a block's tags section needs to code its table columns (9.4.8): the keys of table 0 and
// each game's entry (-1: none).
struct TableColumns {
  std::vector<std::string> keys;
  std::vector<std::int64_t> entry;
};

// For every Event and Site tag of a block's games, in order, its entry in that field's name table
// (9.10, in ascending order of value), or kNoNameEntry where the table does not hold its value.
struct NameEntries {
  std::vector<std::uint32_t> event, site;
};
inline constexpr std::uint32_t kNoNameEntry = 0xFFFFFFFFu;

}  // namespace pgnarc::container
