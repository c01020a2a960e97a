// salvage_pgn: the games of a damaged archive, found block by block without its index.
#include <algorithm>
#include <map>
#include <set>

#include "api/block_pgn.h"
#include "common/endian.h"
#include "common/hash.h"
#include "common/mapped_file.h"
#include "container/archive_file.h"
#include "container/block_reader.h"
#include "container/block_table.h"
#include "container/file_header.h"
#include "container/format.h"
#include "container/name_chunk.h"
#include "container/tag_dictionary.h"
#include "pgnarc/salvage.h"

namespace pgnarc {

using namespace container;
using common::get_le;
using common::hash64;

namespace {

// The players' name chunks found in the file by their magic (sound ones, in file order), read as
// one table from the first, if it follows the end of a sound block or dictionary, up to the first
// that does not follow the one before: a lost chunk before one of them would give every later
// entry another number, so the table ends there.
class FoundPlayers : public PlayerNames {
 public:
  void find(std::string_view file, const std::string& path, const std::set<std::size_t>& sound_ends,
            const ReaderDictionaries& dictionaries) {
    const std::string_view magic(kNameChunkMagic, 4);
    std::vector<std::pair<std::size_t, std::size_t>> chunks;  // offset, size
    for (std::size_t at = file.find(magic, kHeaderSize); at != std::string_view::npos; at = file.find(magic, at + 1)) {
      const std::size_t n = name_chunk_element_size(file.substr(at));
      if (n && static_cast<std::uint8_t>(file[at + 4]) == kPlayerField &&
          get_le(file.data() + at + n - 8, 8) == hash64(file.substr(at, n - 8)))
        chunks.emplace_back(at, n);
    }
    if (chunks.empty() || !sound_ends.contains(chunks.front().first)) return;
    std::string content;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      const auto [at, n] = chunks[i];
      if (i > 0 && at != chunks[i - 1].first + chunks[i - 1].second) return;
      const std::string where = path + ": name chunk at offset " + std::to_string(at);
      if (!decode_name_chunk_content(file.substr(at, n), where, kPlayerField, &dictionaries, content).ok()) return;
      std::vector<std::string> values;
      const auto visit = [&](std::string_view v, const std::vector<std::uint32_t>&) { values.emplace_back(v); };
      if (!visit_name_entries(content, where, nullptr, nullptr, std::uint64_t{1} << 32, sorted_name_field(kPlayerField), visit).ok())
        return;
      for (std::string& v : values) values_.push_back(std::move(v));
    }
  }
  Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const override {
    if (ordinal >= values_.size())
      return corruption(where + ": tags section: a player column names entry " + std::to_string(ordinal) +
                        ", which no sound players' name chunk holds");
    out += values_[ordinal];
    return {};
  }

 private:
  std::vector<std::string> values_;
};

}  // namespace

Result<SalvageReport> salvage_pgn(const std::string& path, const std::function<bool(std::string_view)>& sink) {
  auto mapped = common::MappedFile::open(path);
  if (!mapped) return mapped.error();
  const std::string_view file = (*mapped)->bytes();
  const std::size_t size = file.size();
  SalvageReport report;
  const std::string_view magic(kBlockMagic, 4), dict_magic(kDictionaryMagic, 4);
  // Tag dictionaries are found by their magic too; a damaged one fails the blocks that use it.
  ReaderDictionaries dictionaries;
  std::map<std::size_t, std::size_t> sound_dictionaries;  // offset -> size
  for (std::size_t at = file.find(dict_magic, kHeaderSize); at != std::string_view::npos; at = file.find(dict_magic, at + 1))
    if (const std::size_t n = dictionary_element_size(file.substr(at)))
      if (dictionaries.add(file.substr(at, n), path + ": dictionary at offset " + std::to_string(at)).ok())
        sound_dictionaries.emplace(at, n);
  // The players' table (9.10): the index's where the archive opens, else the one found.
  std::unique_ptr<ArchiveFile> indexed;
  std::string not_whole;  // why the archive does not open as a whole
  if (auto opened = ArchiveFile::open(path)) indexed = std::move(*opened);
  else not_whole = opened.error().message();
  FoundPlayers found;
  if (!indexed) {
    std::set<std::size_t> sound_ends;
    for (const auto& [at, n] : sound_dictionaries) sound_ends.insert(at + n);
    const std::string_view block_magic(kBlockMagic, 4);
    for (std::size_t at = file.find(block_magic, kHeaderSize); at != std::string_view::npos; at = file.find(block_magic, at + 1))
      if (const std::size_t n = block_element_size(file.substr(at)); n && get_le(file.data() + at + n - 8, 8) == hash64(file.substr(at, n - 8)))
        sound_ends.insert(at + n);
    found.find(file, path, sound_ends, dictionaries);
  }
  const PlayerNames* players = indexed ? static_cast<const PlayerNames*>(indexed->players()) : &found;
  std::size_t pos = std::min<std::size_t>(kHeaderSize, size), skip_from = std::string_view::npos;
  auto note_skip = [&](std::size_t upto) {
    if (skip_from != std::string_view::npos && upto > skip_from)
      report.skipped.push_back(path + ": bytes " + std::to_string(skip_from) + " to " + std::to_string(upto) +
                               " skipped (not a sound block)");
    skip_from = std::string_view::npos;
  };
  while (pos + kMinBlockSize <= size) {
    if (auto d = sound_dictionaries.find(pos); d != sound_dictionaries.end()) {  // a sound dictionary is not damage
      note_skip(pos);
      pos += d->second;
      continue;
    }
    // Nor is a name chunk or block table chunk whose checksum holds (the players' table was read
    // before; the games do not depend on the others).
    std::size_t n = name_chunk_element_size(file.substr(pos));
    if (!n) n = table_chunk_element_size(file.substr(pos));
    if (n && get_le(file.data() + pos + n - 8, 8) == hash64(file.substr(pos, n - 8))) {
      note_skip(pos);
      pos += n;
      continue;
    }
    if (const std::size_t len = block_element_size(file.substr(pos))) {
      const std::string_view block = file.substr(pos, len);
      const std::string where = path + ": block at offset " + std::to_string(pos);
      BlockSizes sizes;
      if (read_block_sizes(block, where, sizes).ok()) {
        auto text = api::block_pgn(block, where, sizes.games, report.games, &dictionaries, players);
        if (text) {
          note_skip(pos);
          ++report.blocks;
          report.games += sizes.games;
          if (!sink(*text)) break;
          pos += len;
          continue;
        }
        // A block whose checksum holds but whose games do not decode: said with why (a damaged
        // dictionary or players' table that it needs, or a writer's fault), then skipped whole.
        note_skip(pos);
        report.skipped.push_back(text.error().message() + " (its " + std::to_string(sizes.games) + " games skipped)");
        pos += len;
        continue;
      }
    }
    // Not a sound block here: look for the next block magic.
    if (skip_from == std::string_view::npos) skip_from = pos;
    const std::size_t next = file.find(magic, pos + 1);
    if (next == std::string_view::npos) break;
    pos = next;
  }
  // The index and footer follow the last block: not damage if they check out.
  if (skip_from != std::string_view::npos && file.substr(skip_from, 4) == std::string_view(kIndexMagic, 4)) {
    Footer f;
    const bool sound = size >= kFooterSize && decode_footer(file.substr(size - kFooterSize), size, f).ok() &&
                       f.index_offset == skip_from && hash64(file.substr(f.index_offset, f.index_size)) == f.index_hash;
    if (!sound)
      report.skipped.push_back(path + ": index or footer at offset " + std::to_string(skip_from) +
                               " damaged (the games above do not depend on it)");
    skip_from = std::string_view::npos;
  }
  if (skip_from != std::string_view::npos) note_skip(size);
  // An archive that does not open is damaged even where no region was skipped (a file cut short
  // before its first block, an empty file): said, so that the damage is not missed.
  if (!indexed && report.skipped.empty()) report.skipped.push_back(not_whole);
  return report;
}

}  // namespace pgnarc
