// salvage_pgn: the games of a damaged archive, found block by block without its index.
//
// The file is read through one window (common/file_window.h), twice: a scan for the elements
// that blocks depend on (tag dictionaries, the players' name chunks, the value tables, and,
// where the index is lost, the sound blocks' ends), then the walk from block to block. Memory is
// the window plus the block being decoded and the value tables (at most 64 MiB, 9.4.8),
// whatever the file's size; the holes of a sparse file are skipped.
#include <algorithm>
#include <map>
#include <set>

#include "api/block_pgn.h"
#include "common/endian.h"
#include "common/file_window.h"
#include "common/hash.h"
#include "container/archive_file.h"
#include "container/block_reader.h"
#include "container/element.h"
#include "container/file_header.h"
#include "container/format.h"
#include "container/name_chunk.h"
#include "container/tag_dictionary.h"
#include "container/value_tables.h"
#include "pgnarc/salvage.h"

namespace pgnarc {

using namespace container;
using common::FileWindow;
using common::get_le;

namespace {

// Every element's magic: these three bytes, then its kind (9.2).
constexpr std::string_view kElementPrefix("PGA", 3);

// An archive file read through a window, element by element.
class ElementScan {
 public:
  explicit ElementScan(FileWindow& window) : window_(window) {}

  // The size the element that starts at `at` declares, if one does and lies inside the file;
  // 0 if not.
  Result<std::uint64_t> declared_size(std::uint64_t at) {
    auto head = window_.bytes(at, kMaxBlockHeadBytes);
    if (!head) return head.error();
    std::uint64_t n = block_declared_size(*head);
    for (const ElementShape* shape : {&kDictionaryShape, &kNameChunkShape, &kTableChunkShape})
      if (!n) n = element_declared_size(*head, *shape);
    return n <= window_.size() - at ? n : 0;
  }
  // The size of the element that starts at `at` if one does, lies inside the file and its
  // checksum holds; 0 if not.
  Result<std::uint64_t> sound_size(std::uint64_t at) {
    auto n = declared_size(at);
    if (!n || !*n) return n;
    auto sum = hash(at, *n - 8);
    if (!sum) return sum.error();
    auto stored = window_.bytes(at + *n - 8, 8);
    if (!stored) return stored.error();
    return get_le(stored->data(), 8) == *sum ? *n : 0;
  }
  // The format's checksum of the bytes [at, at + n), read a window at a time.
  Result<std::uint64_t> hash(std::uint64_t at, std::uint64_t n) {
    if (n <= FileWindow::kWindowBytes) {
      auto bytes = window_.bytes(at, n);
      if (!bytes) return bytes.error();
      return common::hash64(*bytes);
    }
    common::Hash64Stream sum;
    for (std::uint64_t done = 0; done < n;) {
      auto bytes = window_.bytes(at + done, std::min<std::uint64_t>(n - done, FileWindow::kWindowBytes));
      if (!bytes) return bytes.error();
      sum.update(*bytes);
      done += bytes->size();
    }
    return sum.digest();
  }
  // The kind of element whose magic starts at `at` ('B', 'D', 'N', ...), 0 if none.
  Result<char> kind(std::uint64_t at) {
    auto head = window_.bytes(at, 5);
    if (!head) return head.error();
    return head->size() >= 4 && head->substr(0, 3) == kElementPrefix ? (*head)[3] : '\0';
  }

 private:
  FileWindow& window_;
};

// One field's name chunks found in the file (sound ones, in file order: the players', which
// player columns name, or the Event or Site table's, which layout 8's columns of entries name),
// read as one table from the first, if it follows the end of a sound block, dictionary or name
// chunk of another field, up to the first that does not follow the one before: a lost chunk
// before one of them would give every later entry another number, so the table ends there. The
// players' table holds the others, and the value tables (9.4.8) found by their magic in the
// index, whose own checksum holds where the index's does not.
class FoundNames : public PlayerNames {
 public:
  explicit FoundNames(int field) : field_(field) {}
  std::optional<ValueTables> tables;
  const FoundNames* fields[kNameFieldCount] = {};
  const ValueTables* value_tables() const override { return tables ? &*tables : nullptr; }
  const PlayerNames* field_names(int field) const override { return fields[field]; }

  Status read(FileWindow& window, const std::string& path, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& chunks,
              const std::set<std::uint64_t>& sound_ends, const ReaderDictionaries& dictionaries) {
    if (chunks.empty() || !sound_ends.contains(chunks.front().first)) return {};
    std::string content;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      const auto [at, n] = chunks[i];
      if (i > 0 && at != chunks[i - 1].first + chunks[i - 1].second) return {};
      auto element = window.bytes(at, n);
      if (!element) return element.error();
      const Where where(path + ": name chunk at offset " + std::to_string(at), at);
      if (!decode_name_chunk_content(*element, where, field_, &dictionaries, content).ok()) return {};
      std::vector<std::string> values;
      const auto visit = [&](std::string_view v, const std::vector<std::uint32_t>&) { values.emplace_back(v); };
      if (!visit_name_entries(content, where, nullptr, nullptr, std::uint64_t{1} << 32, sorted_name_field(field_), visit).ok())
        return {};
      for (std::string& v : values) values_.push_back(std::move(v));
    }
    return {};
  }
  Status append(std::uint64_t ordinal, const std::string& where, std::string& out) const override {
    if (ordinal >= values_.size())
      return corruption(where + ": tags section: " + (field_ == kPlayerField ? "a player" : field_ == kEventField ? "an Event" : "a Site") +
                        " column names entry " + std::to_string(ordinal) + ", which no sound " +
                        (field_ == kPlayerField ? "players'" : kNameFields[field_]) +
                        " name chunk holds (one of the table's is lost or follows damage)");
    out += values_[ordinal];
    return {};
  }

 private:
  int field_;
  std::vector<std::string> values_;
};

}  // namespace

Result<SalvageReport> salvage_pgn(const std::string& path, const std::function<bool(std::string_view)>& sink) {
  return salvage_pgn(path, sink, SalvageOptions{});
}

Result<SalvageReport> salvage_pgn(const std::string& path, const std::function<bool(std::string_view)>& sink,
                                  const SalvageOptions& options) {
  auto reader = common::FileReader::open(path);
  if (!reader) return reader.error();
  const std::uint64_t size = (*reader)->size();
  std::uint64_t pass = 0;  // the bytes of the passes before this one
  FileWindow window(**reader, [&](std::uint64_t at) {
    if (options.progress) options.progress(pass + at, 2 * size);
  });
  ElementScan scan(window);
  SalvageReport report;
  // The archive's players' table (9.10), if it opens; else the one found below.
  std::unique_ptr<ArchiveFile> indexed;
  std::string not_whole;  // why the archive does not open as a whole
  if (auto opened = ArchiveFile::open(path)) indexed = std::move(*opened);
  else not_whole = opened.error().message();

  // The first pass: tag dictionaries (a damaged one fails the blocks that use it), the players'
  // name chunks and, without the index, the ends of sound blocks, which a table must follow; and
  // the sound elements that are not blocks, which the walk passes over as no damage.
  ReaderDictionaries dictionaries;
  std::map<std::uint64_t, std::uint64_t> not_damage;  // offset -> size: sound dictionaries and chunks
  std::vector<std::pair<std::uint64_t, std::uint64_t>> name_chunks[kNameFieldCount];
  std::set<std::uint64_t> sound_ends;
  FoundNames found[kNameFieldCount] = {FoundNames(kPlayerField), FoundNames(kEventField), FoundNames(kSiteField)};
  for (int f = 0; f < kNameFieldCount; ++f) found[kPlayerField].fields[f] = &found[f];
  for (auto at = window.find(kElementPrefix, kHeaderSize);; at = window.find(kElementPrefix, *at + 1)) {
    if (!at) return at.error();
    if (*at == FileWindow::npos) break;
    auto kind = scan.kind(*at);
    if (!kind) return kind.error();
    if (*kind == kValueTablesMagic[3] && !indexed) {
      // The value tables: the last sound ones (the index is the file's last element).
      auto head = window.bytes(*at, kValueTablesHeaderSize);
      if (!head) return head.error();
      const std::uint64_t n = ValueTables::declared_size(*head);
      if (n == 0 || n > size - *at) continue;
      auto bytes = window.bytes(*at, n);
      if (!bytes) return bytes.error();
      if (auto t = ValueTables::decode(*bytes, path + ": value tables at offset " + std::to_string(*at)))
        found[kPlayerField].tables = std::move(*t);
      continue;
    }
    if (*kind != kDictionaryMagic[3] && *kind != kNameChunkMagic[3] && *kind != kTableChunkMagic[3] &&
        (indexed || *kind != kBlockMagic[3]))
      continue;
    auto n = scan.sound_size(*at);
    if (!n) return n.error();
    if (!*n) continue;
    // (A dictionary is read whole, of a name chunk its field only.)
    auto element = window.bytes(*at, *kind == kDictionaryMagic[3] ? *n : 5);
    if (!element) return element.error();
    if (*kind == kDictionaryMagic[3]) {
      if (dictionaries.add(*element, Where(path + ": dictionary at offset " + std::to_string(*at), *at)).ok()) {
        not_damage.emplace(*at, *n);
        sound_ends.insert(*at + *n);
      }
    } else if (*kind == kBlockMagic[3]) {
      sound_ends.insert(*at + *n);
    } else {
      not_damage.emplace(*at, *n);
      if (const auto f = static_cast<std::uint8_t>((*element)[4]); *kind == kNameChunkMagic[3] && f < kNameFieldCount) {
        name_chunks[f].emplace_back(*at, *n);
        sound_ends.insert(*at + *n);  // (a field's first chunk follows the last of the field before)
      }
    }
  }
  if (!indexed)
    for (int f = 0; f < kNameFieldCount; ++f)
      if (auto st = found[f].read(window, path, name_chunks[f], sound_ends, dictionaries); !st) return st.error();
  const PlayerNames* players = indexed ? static_cast<const PlayerNames*>(indexed->players()) : &found[kPlayerField];

  // The walk: block by block from the header, over what checks out, to the next block magic
  // past what does not.
  pass = size;
  std::uint64_t pos = std::min<std::uint64_t>(kHeaderSize, size), skip_from = FileWindow::npos;
  auto note_skip = [&](std::uint64_t upto) {
    if (skip_from != FileWindow::npos && upto > skip_from)
      report.skipped.push_back(path + ": bytes " + std::to_string(skip_from) + " to " + std::to_string(upto) +
                               " skipped (not a sound block)");
    skip_from = FileWindow::npos;
  };
  while (pos + kMinBlockSize <= size) {
    // A sound dictionary, name chunk or block table chunk is not damage (the players' table was
    // read before; the games do not depend on the others).
    if (const auto sound = not_damage.find(pos); sound != not_damage.end()) {
      note_skip(pos);
      pos += sound->second;
      continue;
    }
    auto kind = scan.kind(pos);
    if (!kind) return kind.error();
    // A block is checked whole by read_block_sizes, checksum first; one larger than the window
    // is checked a window at a time before it is read into memory.
    auto n = *kind == kBlockMagic[3] ? scan.declared_size(pos) : Result<std::uint64_t>(0);
    if (n && *n > FileWindow::kWindowBytes) n = scan.sound_size(pos);
    if (!n) return n.error();
    if (*n) {
      auto block = window.bytes(pos, *n);
      if (!block) return block.error();
      const Where where(path + ": block at offset " + std::to_string(pos), pos);
      BlockSizes sizes;
      if (read_block_sizes(*block, where, sizes).ok()) {
        auto text = api::block_pgn(*block, where, sizes.games, report.games, &dictionaries, players);
        note_skip(pos);
        pos += *n;
        if (text) {
          ++report.blocks;
          report.games += sizes.games;
          if (!sink(*text)) break;
          continue;
        }
        // A block whose checksum holds but whose games do not decode: said with why (a damaged
        // dictionary or players' table that it needs, or a writer's fault), then skipped whole.
        report.skipped.push_back(text.error().message() + " (its " + std::to_string(sizes.games) + " games skipped)");
        continue;
      }
    }
    // Not a sound block here: look for the next block magic.
    if (skip_from == FileWindow::npos) skip_from = pos;
    auto next = window.find(std::string_view(kBlockMagic, 4), pos + 1);
    if (!next) return next.error();
    if (*next == FileWindow::npos) break;
    pos = *next;
  }
  // The index and footer follow the last block: not damage if they check out.
  if (skip_from != FileWindow::npos && skip_from + 4 <= size) {
    auto kind = scan.kind(skip_from);
    if (!kind) return kind.error();
    if (*kind == kIndexMagic[3]) {
      Footer f;
      bool sound = false;
      if (size >= kFooterSize) {
        auto tail = window.bytes(size - kFooterSize, kFooterSize);
        if (!tail) return tail.error();
        if (decode_footer(*tail, size, f).ok() && f.index_offset == skip_from) {
          auto sum = scan.hash(f.index_offset, f.index_size);
          if (!sum) return sum.error();
          sound = *sum == f.index_hash;
        }
      }
      if (!sound)
        report.skipped.push_back(path + ": index or footer at offset " + std::to_string(skip_from) +
                                 " damaged (the games above do not depend on it)");
      skip_from = FileWindow::npos;
    }
  }
  if (skip_from != FileWindow::npos) note_skip(size);
  if (options.progress) options.progress(2 * size, 2 * size);
  // An archive that does not open is damaged even where no region was skipped (a file cut short
  // before its first block, an empty file): said, so that the damage is not missed.
  if (!indexed && report.skipped.empty()) report.skipped.push_back(not_whole);
  return report;
}

}  // namespace pgnarc
