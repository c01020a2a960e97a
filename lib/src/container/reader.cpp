// Archive: opening, random access by game number, iteration, search, verification.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <deque>
#include <exception>
#include <map>
#include <thread>
#include <cerrno>
#include <cstring>
#include <optional>

#include "container/format.h"
#include "codec/san_hints.h"
#include "pgn/san_hints.h"

namespace pgnarc {

using namespace container;

namespace {

// A pass over the blocks (a scan, an unpack) gives their mapped pages back once read, so that
// resident memory stays flat, but in runs of at least 8 MiB: each madvise interrupts the CPUs
// of the process's other threads to flush their TLBs, which done per block (about 13 KB on
// PGN Mentor) took some 5% of unpack's time.
class PageReleaser {
 public:
  explicit PageReleaser(const MappedFile& map) : map_(map) {}
  // Block bytes read: released with those before them once the run is long enough.
  void done(std::string_view block) {
    const char* end = block.data() + block.size();
    if (!from_ || block.data() < from_) from_ = block.data();
    if (end - from_ >= kRun) {
      map_.release({from_, static_cast<std::size_t>(end - from_)});
      from_ = end;
    }
  }

 private:
  static constexpr std::ptrdiff_t kRun = std::ptrdiff_t{8} << 20;
  const MappedFile& map_;
  const char* from_ = nullptr;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  return out;
}

// Does `value` contain `want_lower` (already lower case), ignoring ASCII case? Without copying
// `value`: the name tables' values are tested by the hundred thousand.
bool contains_lower(std::string_view value, std::string_view want_lower) {
  const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  return std::search(value.begin(), value.end(), want_lower.begin(), want_lower.end(),
                     [&](char a, char b) { return fold(a) == b; }) != value.end();
}

// A name a query asks for (equal, or contained ignoring ASCII case), lowered once per search:
// it is tested against every value of the name tables and, in a scan, every game's tag.
struct NameWant {
  std::string want, want_lower;
  bool exact = false;
  NameWant(const std::string& w, bool e) : want(w), want_lower(e ? std::string() : lower(w)), exact(e) {}
  bool operator()(std::string_view value) const { return exact ? value == want : contains_lower(value, want_lower); }
};

// The names of a query, each prepared once.
struct QueryNames {
  std::optional<NameWant> white, black, player, event, site;
  explicit QueryNames(const Query& q) {
    const auto make = [&](const std::optional<std::string>& w, std::optional<NameWant>& out) {
      if (w) out.emplace(*w, q.exact_names);
    };
    make(q.white, white);
    make(q.black, black);
    make(q.player, player);
    make(q.event, event);
    make(q.site, site);
  }
};

// The tags of one game, as views into a decoded block.
struct TagSpan {
  const TagView* begin_;
  const TagView* end_;
  const TagView* begin() const { return begin_; }
  const TagView* end() const { return end_; }
};

// Whether a block's games have taken every byte of its streams (spec BLOCK-2).
bool all_consumed(const CodecCursor& c) { return c.moves.empty() && c.structure.empty() && c.texts.empty() && c.raw.empty(); }

std::optional<std::string_view> find_tag(TagSpan tags, std::string_view key) {
  for (const TagView& t : tags)
    if (t.key == key) return t.value;
  return std::nullopt;
}

// Is `d` "YYYY", "YYYY.MM" or "YYYY.MM.DD" (month 01-12, day 01-31; "-" or "/" may stand for
// ".")?
bool well_formed_date(std::string_view d) {
  if (d.size() != 4 && d.size() != 7 && d.size() != 10) return false;
  const auto separator = [](char c) { return c == '.' || c == '-' || c == '/'; };
  for (std::size_t i = 0; i < d.size(); ++i)
    if (i == 4 || i == 7 ? !separator(d[i]) : d[i] < '0' || d[i] > '9') return false;
  const auto two = [&](std::size_t at) { return (d[at] - '0') * 10 + (d[at + 1] - '0'); };
  return (d.size() < 7 || (two(5) >= 1 && two(5) <= 12)) && (d.size() < 10 || (two(8) >= 1 && two(8) <= 31));
}

// A query date "YYYY[.MM[.DD]]" as the first (lo) or last (hi) YYYYMMDD value it covers.
std::uint32_t query_date(const std::string& d, bool hi) {
  std::uint32_t lo_v, hi_v;
  date_range(d, lo_v, hi_v);
  return hi ? hi_v : lo_v;
}

bool game_matches(TagSpan tags, const Query& q, const QueryNames& names) {
  auto has_name = [&](const char* key, const NameWant& want) {
    const auto v = find_tag(tags, key);
    return v && want(*v);
  };
  if (names.white && !has_name("White", *names.white)) return false;
  if (names.black && !has_name("Black", *names.black)) return false;
  if (names.player && !has_name("White", *names.player) && !has_name("Black", *names.player)) return false;
  if (names.event && !has_name("Event", *names.event)) return false;
  if (names.site && !has_name("Site", *names.site)) return false;
  if (q.result) {
    const auto r = find_tag(tags, "Result");
    if (!r || *r != *q.result) return false;
  }
  if (q.eco) {
    std::optional<std::string_view> e;
    for (const TagView& t : tags)
      if (lower(t.key) == "eco") {
        e = t.value;
        break;
      }
    // A prefix, in either case ("b9" finds B90).
    if (!e || e->size() < q.eco->size() || lower(e->substr(0, q.eco->size())) != lower(*q.eco)) return false;
  }
  if (q.date_from || q.date_to) {
    const auto d = find_tag(tags, "Date");
    std::uint32_t lo = 0, hi = 99999999;
    if (d) date_range(*d, lo, hi);
    if (!d || lo == 0) return false;  // an unknown date matches no date range
    if (q.date_from && lo < query_date(*q.date_from, false)) return false;
    if (q.date_to && lo > query_date(*q.date_to, true)) return false;
  }
  for (const auto& [k, v] : q.tags) {
    bool found = false;
    for (const TagView& t : tags) found |= t.key == k && t.value == v;
    if (!found) return false;
  }
  return true;
}

}  // namespace

struct Archive::Impl {
  std::string path;
  std::unique_ptr<MappedFile> map;
  const char* data = nullptr;
  std::size_t size = 0;
  std::uint16_t write_version = 0, read_version = 0;
  Footer footer;
  Index index;
  ReaderDictionaries dictionaries;  // loaded and checked at open
  // The last block decoded, with where each game starts in its streams.
  std::uint32_t cached = ~0u;
  bool tags_decoded = false;
  DecodedBlock block;
  std::vector<CodecCursor> starts;  // layout 0
  CodecCursor next_start;  // where the first game not yet in `starts` begins
  // Where the game after the last one decoded begins (a pass in order starts each game there).
  std::uint32_t after_game = ~0u;
  CodecCursor after_cursor;


  // The block table: before format 10 decoded whole at open (as one chunk); from 10 on, chunk
  // by chunk when first needed, so that opening reads none of it and a random read one chunk.
  // Whole-archive passes (export, verify, info, a scan) read every chunk first, and then check
  // that blocks and dictionaries follow each other without gaps (INDEX-1); an indexed search
  // reads the chunks of the blocks the name tables leave.
  std::uint64_t end_of_blocks = 0;  // where blocks and dictionaries end
  std::vector<std::vector<IndexEntry>> table;  // per chunk; empty until read
  std::vector<std::uint64_t> chunk_first_block;  // per chunk, then the block count
  bool layout_checked = false;

  std::size_t chunk_of(std::uint32_t b) const {
    return static_cast<std::size_t>(std::upper_bound(chunk_first_block.begin(), chunk_first_block.end(), b) -
                                    chunk_first_block.begin() - 1);
  }
  bool have_entry(std::uint32_t b) const { return b < footer.blocks && !table[chunk_of(b)].empty(); }
  // Block b's entry; its chunk must have been read.
  const IndexEntry& entry(std::uint32_t b) const {
    const std::size_t k = chunk_of(b);
    return table[k][b - chunk_first_block[k]];
  }
  Status need_chunk(std::size_t k) {
    if (!table[k].empty()) return {};
    const std::string where =
        path + ": block table chunk at offset " + std::to_string(index.table_chunks[k].offset);
    std::vector<IndexEntry> entries;  // kept only once the whole chunk checks out
    if (auto st = read_table_chunk(std::string_view(data, size), index, k, footer.games, end_of_blocks, where, entries); !st)
      return st;
    table[k] = std::move(entries);
    return {};
  }
  Status need_all() {
    for (std::size_t k = 0; k < table.size(); ++k)
      if (auto st = need_chunk(k); !st) return st;
    if (layout_checked) return {};
    const auto at = [this](std::uint64_t b) -> const IndexEntry& { return entry(static_cast<std::uint32_t>(b)); };
    if (auto st = check_block_layout(index.dictionaries, end_of_blocks, footer.blocks, at, path); !st) return st;
    layout_checked = true;
    return {};
  }

  std::string where(std::uint32_t b) const {
    return path + ": block " + std::to_string(b) + (have_entry(b) ? " at offset " + std::to_string(entry(b).offset) : "");
  }
  std::string_view bytes(std::uint32_t b) const {
    return std::string_view(data + entry(b).offset, entry(b).size);
  }

  // Loads block b. Its tags are decoded all at once only from the second game read in it (or at
  // once with `all_tags`): one random read needs only its own game's tags (decode_game_tags), a
  // scan needs them all.
  Status load(std::uint32_t b, bool all_tags = false) {
    const bool again = cached == b;
    if (!again) {
      cached = ~0u;
      tags_decoded = false;
      if (auto st = decode_block(bytes(b), where(b), block, BlockParts::kLazyGroups); !st) return st;
      if (block.games != entry(b).games)
        return corruption(where(b) + ": holds " + std::to_string(block.games) + " games, the index says " +
                          std::to_string(entry(b).games));
      starts.clear();
      next_start = CodecCursor{block.sections[kMoves], block.structure_stream(), block.sections[kTexts],
                               block.sections[kRaw]};
      after_game = ~0u;
      cached = b;
    }
    if ((again || all_tags) && !tags_decoded) {
      if (auto st = decode_tags(block.sections[kTags], block.games, block.layout, where(b), block); !st) return st;
      tags_decoded = true;
    }
    return {};
  }

  // Finds where games up to j of the loaded block b start, skipping the games before them (a
  // random read skips only the games before its own; the whole block, and the check that no
  // bytes are left over after its last game, when a read reaches the last game).
  Status find_start(std::uint32_t b, std::uint32_t j) {
    while (starts.size() <= j) {
      const auto g = static_cast<std::uint32_t>(starts.size());
      starts.push_back(next_start);
      if (auto st = skip_game(next_start); !st) {
        starts.pop_back();
        return corruption(where(b) + ": game " + std::to_string(entry(b).first_game + g + 1) + ": " +
                          st.error().message());
      }
      if (starts.size() == block.games && !all_consumed(next_start)) {
        starts.pop_back();
        return corruption(where(b) + ": bytes left over after its last game");
      }
    }
    return {};
  }

  // Where game j of the loaded block b starts: where the last game decoded ended, if j follows
  // it in its group; else, layout 1: from its group's directory entry (the group's frames
  // decompressed, the streams ending with the group), skipping the group's games before it;
  // layout 0: skipping every game before it.
  Result<CodecCursor> start_of(std::uint32_t b, std::uint32_t j) {
    if (block.layout == kBlockLayout0) {
      if (j == after_game) return after_cursor;
      if (auto st = find_start(b, j); !st) return st.error();
      return starts[j];
    }
    if (j == after_game && j % block.directory_step != 0) return after_cursor;
    const std::uint32_t group = j / block.directory_step;
    if (auto st = group_ready(block, group, where(b)); !st) return st.error();
    CodecCursor c = group_cursor(block, group, true);
    for (std::uint32_t g = group * block.directory_step; g < j; ++g)
      if (auto st = skip_game(c); !st)
        return corruption(where(b) + ": game " + std::to_string(entry(b).first_game + g + 1) + ": " +
                          st.error().message());
    return c;
  }

  // The block holding game `game` (below the game count), its table chunk read.
  Result<std::uint32_t> block_of(std::uint64_t game) {
    std::size_t k = 0;
    if (!index.table_chunks.empty())
      k = static_cast<std::size_t>(std::upper_bound(index.table_chunks.begin(), index.table_chunks.end(), game,
                                                    [](std::uint64_t g, const TableChunkEntry& c) { return g < c.first_game; }) -
                                   index.table_chunks.begin() - 1);
    if (auto st = need_chunk(k); !st) return st.error();
    const auto& entries = table[k];
    auto it = std::upper_bound(entries.begin(), entries.end(), game,
                               [](std::uint64_t g, const IndexEntry& e) { return g < e.first_game; });
    return static_cast<std::uint32_t>(chunk_first_block[k] + (it - entries.begin() - 1));
  }

  // Game j's tags of the loaded block b.
  Result<std::vector<Tag>> tags_of(std::uint32_t b, std::uint32_t j) {
    if (tags_decoded) return block.tags(j);
    std::vector<Tag> tags;
    if (auto st = decode_game_tags(block.sections[kTags], block.games, j, block.layout, where(b), tags); !st) return st.error();
    return tags;
  }

  // `notes`: if given, receives the SAN hints of the game's moves (codec/san_hints.h).
  Result<ArchiveGame> decode(std::uint32_t b, std::uint32_t j, std::vector<std::uint8_t>* notes = nullptr) {
    auto start = start_of(b, j);
    if (!start) return start.error();
    CodecCursor c = *start;
    auto tags = tags_of(b, j);
    if (!tags) return tags.error();
    auto d = notes ? detail::decode_game_with_hints(c, std::move(*tags), *notes) : decode_game(c, std::move(*tags));
    if (!d) return corruption(where(b) + ": game " + std::to_string(entry(b).first_game + j + 1) + ": " +
                              d.error().message());
    if (auto st = check_group_end(block, j, c, where(b)); !st) return st.error();
    if (j + 1 == block.games && !all_consumed(c))
      return corruption(where(b) + ": bytes left over after its last game");
    after_game = j + 1;
    after_cursor = c;
    ArchiveGame g;
    g.raw = d->raw;
    g.game = std::move(d->game);
    g.raw_text = std::move(d->raw_text);
    return g;
  }

  // Name chunks (format 9) read and checked once, their decoded entries kept for later searches
  // up to kChunkCacheBytes (oldest dropped first): a session of searches reads each chunk once.
  static constexpr std::size_t kChunkCacheBytes = 16u << 20;
  std::map<std::pair<int, std::size_t>, std::string> chunk_cache;
  std::deque<std::pair<int, std::size_t>> chunk_order;
  std::size_t chunk_cache_bytes = 0;

  // Calls visit(value, blocks) for each entry of name chunk k of `field`, checked.
  using NameVisitor = std::function<void(std::string_view, const std::vector<std::uint32_t>&)>;
  std::string chunk_where(int field, std::size_t k) const {
    return path + ": name chunk at offset " + std::to_string(index.name_chunks[field][k].offset);
  }
  // Name chunk k of `field` checked and decoded into `content`.
  Status open_chunk(int field, std::size_t k, std::string& content) const {
    const NameChunkEntry& c = index.name_chunks[field][k];
    return open_name_chunk(std::string_view(data + c.offset, c.size), chunk_where(field, k), field, &dictionaries, content);
  }
  // The entries of chunk k of `field`, decoded into `content`, checked and visited.
  Status visit_entries(int field, std::size_t k, std::string_view content, const NameVisitor& visit) const {
    const auto& chunks = index.name_chunks[field];
    return visit_name_entries(content, chunk_where(field, k), chunks[k], k + 1 < chunks.size() ? &chunks[k + 1].first : nullptr,
                              footer.blocks, visit);
  }
  Status visit_chunk(int field, std::size_t k, const NameVisitor& visit) {
    auto it = chunk_cache.find({field, k});
    if (it == chunk_cache.end()) {
      std::string content;
      if (auto st = open_chunk(field, k, content); !st) return st;
      while (!chunk_order.empty() && chunk_cache_bytes + content.size() > kChunkCacheBytes) {
        auto old = chunk_cache.find(chunk_order.front());
        chunk_cache_bytes -= old->second.size();
        chunk_cache.erase(old);
        chunk_order.pop_front();
      }
      chunk_cache_bytes += content.size();
      chunk_order.push_back({field, k});
      it = chunk_cache.emplace(std::make_pair(field, k), std::move(content)).first;
    }
    return visit_entries(field, k, it->second, visit);
  }

  // Calls visit(value, blocks) for the values of `field` that can equal `want` (with `exact`)
  // or that can contain it: from format 9 on, chunk by chunk (an exact name reads the one chunk
  // whose range holds it); before, from the tables load_names() decoded.
  Status for_names(int field, const std::string& want, bool exact, const NameVisitor& visit) {
    for (const auto& [value, blocks] : index.names[field]) visit(value, blocks);
    const auto& chunks = index.name_chunks[field];
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      if (exact && (want < chunks[k].first || (k + 1 < chunks.size() && !(want < chunks[k + 1].first)))) continue;
      if (auto st = visit_chunk(field, k, visit); !st) return st;
    }
    return {};
  }

  // Blocks that can hold a match, from the name tables and the block summaries.
  Result<std::vector<bool>> candidates(const Query& q, const QueryNames& names) {
    std::vector<bool> ok(footer.blocks, true);
    auto restrict_names = [&](const std::vector<int>& fields, const NameWant& want) -> Status {
      std::vector<bool> hit(footer.blocks, false);
      for (int f : fields) {
        auto st = for_names(f, want.want, want.exact, [&](std::string_view value, const std::vector<std::uint32_t>& blocks) {
          if (want(value))
            for (std::uint32_t b : blocks) hit[b] = true;
        });
        if (!st) return st;
      }
      for (std::size_t b = 0; b < ok.size(); ++b) ok[b] = ok[b] && hit[b];
      return {};
    };
    const std::pair<const std::optional<NameWant>*, std::vector<int>> name_fields[] = {
        {&names.white, {0}}, {&names.black, {1}}, {&names.player, {0, 1}}, {&names.event, {2}}, {&names.site, {3}}};
    for (const auto& [want, fields] : name_fields)
      if (*want)
        if (auto st = restrict_names(fields, **want); !st) return st.error();
    // Only the table chunks of blocks the names leave are read (format 10): an exact name
    // search of a large archive reads a few.
    for (std::size_t b = 0; b < ok.size(); ++b) {
      if (!ok[b]) continue;
      if (auto st = need_chunk(chunk_of(static_cast<std::uint32_t>(b))); !st) return st.error();
      const BlockSummary& s = entry(static_cast<std::uint32_t>(b)).summary;
      if (q.result && !(s.results & result_bit(&*q.result))) ok[b] = false;
      if (q.date_from && s.date_max < query_date(*q.date_from, false)) ok[b] = false;
      if (q.date_to && s.date_min > query_date(*q.date_to, true)) ok[b] = false;
    }
    return ok;
  }

  // Before format 9, the index's name tables, decoded (and checked) the first time a search or
  // verify needs them: opening an archive reads only the dictionary and block tables.
  bool names_loaded = false;
  Status load_names() {
    if (names_loaded || read_version >= 9) return {};
    Index full;
    const std::string_view bytes(data + footer.index_offset, footer.index_size);
    if (auto st = decode_index(bytes, footer.index_offset, read_version, full); !st)
      return Error(st.error().code(), path + ": " + st.error().message());
    for (int f = 0; f < 4; ++f) index.names[f] = std::move(full.names[f]);
    names_loaded = true;
    return {};
  }

  // Every name chunk checked (format 9; verify, the end of export_pgn). Read past the cache,
  // which it leaves as it was: a pass over every chunk should not fill it.
  Status check_name_chunks() const {
    std::string content;
    for (int f = 0; f < 4; ++f)
      for (std::size_t k = 0; k < index.name_chunks[f].size(); ++k) {
        if (auto st = open_chunk(f, k, content); !st) return st;
        if (auto st = visit_entries(f, k, content, [](std::string_view, const std::vector<std::uint32_t>&) {}); !st) return st;
      }
    return {};
  }

  Result<std::vector<std::uint64_t>> search(const Query& q) {
    if (const std::string why = query_error(q); !why.empty()) return invalid_input(why);
    std::vector<std::uint64_t> out;
    if (auto st = load_names(); !st) return st.error();
    const QueryNames names(q);
    auto c = candidates(q, names);
    if (!c) return c.error();
    const std::vector<bool> ok = std::move(*c);
    DecodedBlock tags_only;
    tags_only.dictionaries = &dictionaries;
    for (std::uint32_t b = 0; b < footer.blocks; ++b) {
      if (!ok[b]) continue;
      const DecodedBlock* db;
      if (cached == b && tags_decoded) {  // a block read for one game has only that game's tags
        db = &block;
      } else {
        if (auto st = decode_block(bytes(b), where(b), tags_only, BlockParts::kTagsOnly); !st) return st.error();
        if (tags_only.games != entry(b).games) return corruption(where(b) + ": game count differs from the index");
        db = &tags_only;
      }
      for (std::uint32_t j = 0; j < db->games; ++j) {
        const TagSpan span{db->tag_views.data() + db->tag_start[j], db->tag_views.data() + db->tag_start[j + 1]};
        if (game_matches(span, q, names)) out.push_back(entry(b).first_game + j);
      }
    }
    return out;
  }
};

Result<std::unique_ptr<Archive>> Archive::open(const std::string& path) {
  std::unique_ptr<Archive> a(new Archive());
  a->impl_ = std::make_unique<Impl>();
  Impl& s = *a->impl_;
  s.path = path;
  auto mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  s.map = std::move(*mapped);
  s.data = s.map->bytes().data();
  s.size = s.map->bytes().size();
  if (s.size < kHeaderSize + kFooterSize)
    return corruption(path + ": " + std::to_string(s.size) + " bytes is too short for an archive (offset 0)");
  const std::string_view file(s.data, s.size);
  auto prefix = [&](const Error& e) { return Error(e.code(), path + ": " + e.message()); };
  if (auto r = check_file_header(file, s.write_version, s.read_version); !r) return prefix(r.error());
  if (auto r = decode_footer(file.substr(s.size - kFooterSize), s.size, s.footer); !r) return prefix(r.error());
  const std::string_view index = file.substr(s.footer.index_offset, s.footer.index_size);
  if (hash64(index) != s.footer.index_hash)
    return corruption(path + ": index checksum mismatch (index at offset " + std::to_string(s.footer.index_offset) + ")");
  if (auto r = decode_index(index, s.footer.index_offset, s.read_version, s.index, IndexParts::kBlocks); !r)
    return prefix(r.error());
  for (const DictionaryEntry& d : s.index.dictionaries)
    if (auto r = s.dictionaries.add(file.substr(d.offset, d.size), path + ": dictionary at offset " + std::to_string(d.offset), d.id);
        !r)
      return r.error();
  s.block.dictionaries = &s.dictionaries;
  // The block table as chunks (format 10), or the index's whole table as one chunk before.
  s.end_of_blocks = blocks_end(s.index, s.footer.index_offset);
  bool agree = block_total(s.index) == s.footer.blocks;
  if (s.index.table_chunks.empty()) {
    std::uint64_t games = 0;
    for (const auto& e : s.index.blocks) games += e.games;
    agree = agree && games == s.footer.games;
    if (!s.index.blocks.empty()) {
      s.table.push_back(std::move(s.index.blocks));
      s.chunk_first_block.push_back(0);
    }
    s.layout_checked = true;  // by decode_index
  } else {
    // A chunk's games are counted when it is read (against the next chunk's first game, or the
    // footer's count for the last); here the last chunk must be left at least a game a block.
    const TableChunkEntry& last = s.index.table_chunks.back();
    agree = agree && last.first_game + last.blocks <= s.footer.games;
    s.table.resize(s.index.table_chunks.size());
    std::uint64_t first = 0;
    for (const TableChunkEntry& c : s.index.table_chunks) {
      s.chunk_first_block.push_back(first);
      first += c.blocks;
    }
  }
  s.chunk_first_block.push_back(s.footer.blocks);
  if (!agree)
    return corruption(path + ": footer and index disagree on the number of games or blocks (footer at offset " +
                      std::to_string(s.size - kFooterSize) + ")");
  return a;
}

Archive::~Archive() = default;

std::uint64_t Archive::game_count() const { return impl_->footer.games; }
std::uint64_t Archive::block_count() const { return impl_->footer.blocks; }

Result<ArchiveGame> Archive::read_game(std::uint64_t i) {
  Impl& s = *impl_;
  if (i >= game_count())
    return invalid_input("no game " + std::to_string(i + 1) + ": the archive has " + std::to_string(game_count()) + " games");
  const auto found = s.block_of(i);
  if (!found) return found.error();
  const std::uint32_t b = *found;
  if (auto st = s.load(b); !st) return st.error();
  return s.decode(b, static_cast<std::uint32_t>(i - s.entry(b).first_game));
}

Result<std::string> Archive::read_pgn(std::uint64_t i) {
  Impl& s = *impl_;
  if (i >= game_count())
    return invalid_input("no game " + std::to_string(i + 1) + ": the archive has " + std::to_string(game_count()) + " games");
  const auto found = s.block_of(i);
  if (!found) return found.error();
  const std::uint32_t b = *found;
  if (auto st = s.load(b); !st) return st.error();
  std::vector<std::uint8_t> notes;
  auto g = s.decode(b, static_cast<std::uint32_t>(i - s.entry(b).first_game), &notes);
  if (!g) return g.error();
  std::string out;
  if (g->raw) write_raw_game(g->raw_text, out);
  else if (auto st = detail::write_pgn_with_hints(g->game, notes, out); !st)
    return corruption(s.path + ": game " + std::to_string(i + 1) + ": " + st.error().message());
  return out;
}

Result<std::vector<Tag>> Archive::read_tags(std::uint64_t i) {
  Impl& s = *impl_;
  if (i >= game_count()) return invalid_input("no game " + std::to_string(i + 1));
  const auto found = s.block_of(i);
  if (!found) return found.error();
  const std::uint32_t b = *found;
  if (auto st = s.load(b); !st) return st.error();
  return s.tags_of(b, static_cast<std::uint32_t>(i - s.entry(b).first_game));
}

Status Archive::for_each(const std::function<bool(std::uint64_t, ArchiveGame&)>& visit) {
  Impl& s = *impl_;
  if (auto st = s.need_all(); !st) return st;
  PageReleaser pages(*s.map);
  for (std::uint32_t b = 0; b < s.footer.blocks; ++b) {
    if (auto st = s.load(b, true); !st) return st;
    for (std::uint32_t j = 0; j < s.block.games; ++j) {
      auto g = s.decode(b, j);
      if (!g) return g.error();
      if (!visit(s.entry(b).first_game + j, *g)) return {};
    }
    pages.done(s.bytes(b));  // the block's sections are copies by now
  }
  return {};
}

namespace {

// One block's games as PGN (a worker's job in export_pgn).
Result<std::string> block_pgn(std::string_view bytes, const std::string& where, std::uint32_t expected_games,
                              std::uint64_t first_game, const ReaderDictionaries* dictionaries, std::string out = {}) {
  DecodedBlock block;
  block.dictionaries = dictionaries;
  if (auto st = decode_block(bytes, where, block); !st) return st.error();
  if (block.games != expected_games) return corruption(where + ": game count differs from the index");
  CodecCursor c{block.sections[kMoves], block.structure_stream(), block.sections[kTexts], block.sections[kRaw]};
  out.clear();
  std::vector<std::uint8_t> notes;
  for (std::uint32_t j = 0; j < block.games; ++j) {
    auto d = detail::decode_game_with_hints(c, block.tags(j), notes);
    if (!d) return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + d.error().message());
    if (auto st = check_group_end(block, j, c, where); !st) return st.error();
    if (d->raw) write_raw_game(d->raw_text, out);
    else if (auto st = detail::write_pgn_with_hints(d->game, notes, out); !st)
      return corruption(where + ": game " + std::to_string(first_game + j + 1) + ": " + st.error().message());
  }
  if (!all_consumed(c))
    return corruption(where + ": bytes left over after its last game");
  return out;
}

}  // namespace

Status Archive::export_pgn(const std::function<bool(std::string_view)>& sink, unsigned threads,
                           const std::function<void(std::uint64_t)>& progress) {
  Impl& s = *impl_;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  if (auto st = s.need_all(); !st) return st;
  const auto n = static_cast<std::uint32_t>(s.footer.blocks);
  // Workers that live through the whole export take blocks in order, at most two per thread
  // ahead of the one delivered next. Their output buffers come back to a pool once delivered, so
  // that memory stays mapped and warm: a thread and a fresh buffer per block cost page faults and
  // copies, about a fifth of unpack's CPU time.
  const std::uint32_t window = 2 * threads;
  struct Slot {  // block b's outcome waits in slot b % window
    bool ready = false;
    Result<std::string> text = std::string();
    std::exception_ptr thrown;  // rethrown on delivery, as std::async would
  };
  std::vector<Slot> done(window);
  std::vector<std::string> buffers;
  std::mutex mutex;
  std::condition_variable delivered, taken;
  std::uint32_t next = 0, consumed = 0;
  bool stop = false;
  const auto work = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      taken.wait(lock, [&] { return stop || next >= n || next < consumed + window; });
      if (stop || next >= n) return;
      const std::uint32_t b = next++;
      std::string buffer;
      if (!buffers.empty()) {
        buffer = std::move(buffers.back());
        buffers.pop_back();
      }
      lock.unlock();
      const IndexEntry& e = s.entry(b);
      Slot slot;
      slot.ready = true;
      try {
        slot.text = block_pgn(s.bytes(b), s.where(b), e.games, e.first_game, &s.dictionaries, std::move(buffer));
      } catch (...) {  // out of memory, say: the caller sees it, not std::terminate
        slot.thrown = std::current_exception();
      }
      lock.lock();
      done[b % window] = std::move(slot);
      delivered.notify_all();
    }
  };
  // The workers are stopped and joined however this function ends (a sink may throw).
  struct Pool {
    std::mutex& mutex;
    std::condition_variable& taken;
    bool& stop;
    std::vector<std::thread> threads;
    ~Pool() {
      {
        std::lock_guard lock(mutex);
        stop = true;
      }
      taken.notify_all();
      for (auto& t : threads) t.join();
    }
  } pool{mutex, taken, stop, {}};
  for (unsigned t = 0; t < std::min<std::uint32_t>(threads, n); ++t) pool.threads.emplace_back(work);
  std::uint64_t games_done = 0;
  PageReleaser pages(*s.map);
  for (std::uint32_t b = 0; b < n; ++b) {
    Slot slot;
    {
      std::unique_lock lock(mutex);
      delivered.wait(lock, [&] { return done[b % window].ready; });
      std::swap(slot, done[b % window]);
    }
    if (slot.thrown) std::rethrow_exception(slot.thrown);
    if (!slot.text) return slot.text.error();
    games_done += s.entry(b).games;
    pages.done(s.bytes(b));
    if (!sink(*slot.text)) return {};
    {
      std::lock_guard lock(mutex);
      buffers.push_back(std::move(*slot.text));
      ++consumed;
    }
    taken.notify_all();
    if (progress) progress(games_done);
  }
  // Every byte of the archive is checked on the way: the name chunks last (format 9), one at a
  // time (damage there harms no game, but is reported).
  return s.check_name_chunks();
}

std::string query_error(const Query& q) {
  for (const auto& [name, date] : {std::pair{"date-from", &q.date_from}, std::pair{"date-to", &q.date_to}})
    if (*date && !well_formed_date(**date))
      return std::string(name) + " '" + **date + "' is not YYYY, YYYY.MM or YYYY.MM.DD";
  return {};
}

Result<std::vector<std::uint64_t>> Archive::find(const Query& q) { return impl_->search(q); }

const char* section_name(pgnarc::Section s) {
  switch (s) {
    case Section::Tags: return "tags";
    case Section::Moves: return "moves";
    case Section::Structure: return "structure";
    case Section::Texts: return "texts";
    case Section::Raw: return "raw";
  }
  return "?";
}

Result<ArchiveInfo> Archive::info() {
  Impl& s = *impl_;
  ArchiveInfo info;
  info.write_version = s.write_version;
  info.read_version = s.read_version;
  info.file_bytes = s.size;
  info.games = game_count();
  info.blocks = block_count();
  info.index_bytes = s.footer.index_size;
  info.header_bytes = kHeaderSize;
  info.footer_bytes = kFooterSize;
  info.dictionaries = s.index.dictionaries.size();
  for (const DictionaryEntry& d : s.index.dictionaries) info.dictionary_bytes += d.size;
  for (const auto& chunks : s.index.name_chunks)
    for (const NameChunkEntry& c : chunks) {
      ++info.name_chunks;
      info.name_bytes += c.size;
    }
  for (const TableChunkEntry& c : s.index.table_chunks) {
    ++info.table_chunks;
    info.table_bytes += c.size;
  }
  if (auto st = s.need_all(); !st) return st.error();
  for (std::uint32_t b = 0; b < s.footer.blocks; ++b) {
    std::uint32_t games, stored[kSections], raw[kSections];
    std::uint8_t encodings[kSections];
    if (auto st = read_block_sizes(s.bytes(b), s.where(b), games, stored, raw, encodings); !st) return st.error();
    std::uint64_t sum = 0;
    for (int k = 0; k < kSections; ++k) {
      SectionInfo& section = info.sections[static_cast<std::size_t>(k)];
      section.framed_blocks += by_group(encodings[k]);
      section.column_blocks += encodings[k] >= kZstdColumns;
      info.dictionary_blocks += encodings[k] == kZstdDictionary;
      section.stored += stored[k];
      section.raw += raw[k];
      sum += stored[k];
    }
    info.block_overhead_bytes += s.entry(b).size - sum;
  }
  return info;
}

// Every block decoded on every core by the export's workers (their PGN dropped): the same
// checks as reading each game in turn (checksums, counts, every game, leftover bytes), then
// the name chunks. Format 8 tables are decoded first, which checks them.
Status Archive::verify(const std::function<void(std::uint64_t)>& progress, unsigned threads) {
  if (auto st = impl_->load_names(); !st) return st;
  return export_pgn([](std::string_view) { return true; }, threads, progress);
}

}  // namespace pgnarc

namespace pgnarc {

Result<SalvageReport> salvage_pgn(const std::string& path, const std::function<bool(std::string_view)>& sink) {
  auto mapped = MappedFile::open(path);
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
  std::size_t pos = std::min<std::size_t>(kHeaderSize, size), skip_from = std::string_view::npos;
  auto note_skip = [&](std::size_t upto) {
    if (skip_from != std::string_view::npos && upto > skip_from)
      report.skipped.push_back(path + ": bytes " + std::to_string(skip_from) + " to " + std::to_string(upto) +
                               " skipped (not a sound block)");
    skip_from = std::string_view::npos;
  };
  while (pos + kBlockHeaderSize + kSections * kSectionEntrySize + 8 <= size) {
    if (auto d = sound_dictionaries.find(pos); d != sound_dictionaries.end()) {  // a sound dictionary is not damage
      note_skip(pos);
      pos += d->second;
      continue;
    }
    // Nor is a name chunk (format 9) or block table chunk (10) whose checksum holds: the games
    // do not depend on them.
    std::size_t n = name_chunk_element_size(file.substr(pos));
    if (!n) n = table_chunk_element_size(file.substr(pos));
    if (n && get_le(file.data() + pos + n - 8, 8) == hash64(file.substr(pos, n - 8))) {
      note_skip(pos);
      pos += n;
      continue;
    }
    std::size_t len = 0;
    if (file.substr(pos, 4) == magic) {
      std::uint64_t total = kBlockHeaderSize + kSections * kSectionEntrySize + 8;
      for (int k = 0; k < kSections; ++k) total += get_le(file.data() + pos + kBlockHeaderSize + k * kSectionEntrySize + 4, 4);
      if (total <= size - pos) len = static_cast<std::size_t>(total);
    }
    Result<std::string> text = std::string();
    if (len) {
      std::uint32_t games = 0, stored[kSections], raw[kSections];
      const std::string where = path + ": block at offset " + std::to_string(pos);
      if (read_block_sizes(file.substr(pos, len), where, games, stored, raw).ok())
        text = block_pgn(file.substr(pos, len), where, games, report.games, &dictionaries);
      else len = 0;
      if (len && text) {
        note_skip(pos);
        ++report.blocks;
        report.games += games;
        if (!sink(*text)) break;
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
  return report;
}

}  // namespace pgnarc
