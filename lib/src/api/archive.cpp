// Archive: opening, random access by game number, passes, info and verify.
#include <algorithm>
#include <cstdio>
#include <utility>

#include "api/archive_impl.h"
#include "api/json_text.h"
#include "codec/record/decode_game_with_hints.h"
#include "container/derived_tags.h"
#include "container/format.h"
#include "pgn/write_pgn_with_hints.h"
#include "pgnarc/pgn.h"

namespace pgnarc {

using namespace container;

Status Archive::Impl::load(std::uint32_t b, bool all_tags) {
  if (cached != b) {
    cached = ~0u;
    tags_decoded = false;
    reads = 0;
    window_from = 1;
    window_to = 0;
    if (auto st = file->read_block(b, block_bytes); !st) return st;
    where = file->where(b);
    if (auto st = decode_block(block_bytes, where, block, BlockParts::kLazyGroups); !st) return st;
    if (block.games != file->entry(b).games)
      return corruption(where + ": holds " + std::to_string(block.games) + " games, the index says " +
                        std::to_string(file->entry(b).games));
    after_game = ~0u;
    cached = b;
  }
  return all_tags ? decode_tags() : Status{};
}

// The block's tags section decoded whole, once.
Status Archive::Impl::decode_tags() {
  if (tags_decoded) return {};
  if (auto st = decode_tags_section(block.sections[kTags], block.games, where, block.tags, block.players,
                                    block.layout);
      !st)
    return st;
  tags_decoded = true;
  return {};
}

Result<std::pair<std::uint32_t, std::uint32_t>> Archive::Impl::locate(std::uint64_t index) {
  const auto found = file->block_of(index);
  if (!found) return found.error();
  const std::uint32_t b = *found;
  if (auto st = load(b); !st) return st.error();
  return std::pair{b, static_cast<std::uint32_t>(index - file->entry(b).first_game)};
}

// The first game a read of game j decodes: j where the last game decoded ended before it in
// its group, else the first of its group.
std::uint32_t Archive::Impl::first_to_decode(std::uint32_t j) const {
  const std::uint32_t step = block.directory.step;
  return j == after_game && j % step != 0 ? j : j - j % step;
}

// Where the last game decoded ended, if j follows it in its group; else from its group's
// directory entry (the group's frames decompressed, the streams ending with the group),
// skipping the group's games before it (their tags in `tags`).
Result<codec::CodecCursor> Archive::Impl::start_of(std::uint32_t b, std::uint32_t j, const BlockTags& tags) {
  const std::uint32_t step = block.directory.step;
  if (j == after_game && j % step != 0) return after_cursor;
  const std::uint32_t group = j / step;
  if (auto st = group_ready(block, group, where); !st) return st.error();
  codec::CodecCursor c = group_cursor(block, group, true);
  // A game's move codeword ends where its moves end: the games before j are decoded.
  for (std::uint32_t g = group * step; g < j; ++g) {
    if (auto st = codec::skip_game(c, tags.game(g)); !st)
      return corruption(where + ": game " + std::to_string(file->entry(b).first_game + g + 1) + ": " +
                        st.error().message());
  }
  return c;
}

// The first reads of a block write out only the games they need: a typed value or a rating
// still depends on those before it in the block (9.4.1, 9.4.2), but reading them without
// writing them out, and only the players' entries the prediction needs, costs a third of the
// whole or less (TWIC, lichess). From the third read on (reads in order, a pass) the whole
// section is decoded once: a block read many times costs at most about twice that.
Result<const BlockTags*> Archive::Impl::tags_of(std::uint32_t from, std::uint32_t to) {
  constexpr std::uint32_t kWindowReads = 2;
  if (!tags_decoded && window_from <= from && to <= window_to) return &window;
  if (!tags_decoded && reads++ < kWindowReads) {
    window_from = 1;
    window_to = 0;
    if (auto st = decode_game_tags(block.sections[kTags], block.games, from, to, where, window, block.players,
                                 block.layout);
        !st)
      return st.error();
    window_from = from;
    window_to = to;
    return &window;
  }
  if (auto st = decode_tags(); !st) return st.error();
  return &block.tags;
}

Result<ArchiveGame> Archive::Impl::decode(std::uint32_t b, std::uint32_t j, std::vector<std::uint8_t>* hints) {
  auto tags_in = tags_of(first_to_decode(j), j);
  if (!tags_in) return tags_in.error();
  const BlockTags& block_tags = **tags_in;
  auto start = start_of(b, j, block_tags);
  if (!start) return start.error();
  codec::CodecCursor c = *start;
  auto d = hints ? codec::decode_game_with_hints(c, block_tags.game(j), *hints)
                 : codec::decode_game(c, block_tags.game(j));
  const std::string game_where = where + ": game " + std::to_string(file->entry(b).first_game + j + 1);
  if (!d) return corruption(game_where + ": " + d.error().message());
  if (auto st = fill_derived_tags(block_tags, j, *d, game_where); !st) return st.error();
  if (auto st = check_group_end(block, j, c, where); !st) return st.error();
  if (j + 1 == block.games && !all_consumed(c)) return corruption(where + ": bytes left over after its last game");
  after_game = j + 1;
  after_cursor = c;
  return d;
}

Status Archive::Impl::visit_chunk(int field, std::size_t k, const NameVisitor& visit) {
  auto it = chunk_cache.find({field, k});
  if (it == chunk_cache.end()) {
    std::string content;
    if (auto st = file->decode_name_chunk_content(field, k, content); !st) return st;
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
  return file->visit_name_entries(field, k, it->second, visit);
}

Result<std::unique_ptr<Archive>> Archive::open(const std::string& path) {
  return Impl::from_file(ArchiveFile::open(path));
}

Result<std::unique_ptr<Archive>> Archive::open(const std::string& name, std::uint64_t size, ReadFunction read) {
  return Impl::from_file(ArchiveFile::open(common::FileReader::from_function(name, size, std::move(read)), name));
}

Result<std::unique_ptr<Archive>> Archive::Impl::from_file(Result<std::unique_ptr<ArchiveFile>> file) {
  if (!file) return file.error();
  std::unique_ptr<Archive> a(new Archive());
  a->impl_ = std::make_unique<Impl>();
  a->impl_->file = std::move(*file);
  a->impl_->block.dictionaries = &a->impl_->file->dictionaries();
  a->impl_->block.players = a->impl_->file->players();
  return a;
}

Archive::~Archive() = default;

std::uint64_t Archive::game_count() const { return impl_->file->games(); }
std::uint64_t Archive::block_count() const { return impl_->file->blocks(); }

Result<std::vector<std::uint64_t>> Archive::block_starts() {
  ArchiveFile& f = *impl_->file;
  if (auto st = f.need_all(); !st) return st.error();
  std::vector<std::uint64_t> starts(f.blocks() + 1);
  for (std::uint32_t b = 0; b < f.blocks(); ++b) starts[b] = f.entry(b).first_game;
  starts.back() = f.games();
  return starts;
}

namespace {

Error no_game(std::uint64_t i, std::uint64_t count) {
  return invalid_input("no game " + std::to_string(i + 1) + ": the archive has " + std::to_string(count) + " games");
}

}  // namespace

Result<ArchiveGame> Archive::read_game(std::uint64_t i) {
  if (i >= game_count()) return no_game(i, game_count());
  const auto at = impl_->locate(i);
  if (!at) return at.error();
  return impl_->decode(at->first, at->second);
}

Result<std::string> Archive::read_pgn(std::uint64_t i) {
  if (i >= game_count()) return no_game(i, game_count());
  const auto at = impl_->locate(i);
  if (!at) return at.error();
  std::vector<std::uint8_t> hints;
  auto g = impl_->decode(at->first, at->second, &hints);
  if (!g) return g.error();
  std::string out;
  if (g->raw) write_raw_game(g->raw_text, out);
  else if (auto st = pgn::write_pgn_with_hints(g->game, hints, out); !st)
    return corruption(impl_->file->path() + ": game " + std::to_string(i + 1) + ": " + st.error().message());
  return out;
}

Result<std::vector<Tag>> Archive::read_tags(std::uint64_t i) {
  if (i >= game_count()) return no_game(i, game_count());
  const auto at = impl_->locate(i);
  if (!at) return at.error();
  auto tags = impl_->tags_of(at->second, at->second);
  if (!tags) return tags.error();
  if (!(*tags)->derives(at->second)) return (*tags)->game(at->second);
  // Its moves give a tag's value (9.4.5).
  auto g = impl_->decode(at->first, at->second);
  if (!g) return g.error();
  if (!g->raw) return std::move(g->game.tags);
  tags = impl_->tags_of(at->second, at->second);  // (a verbatim game: its readable tag pairs)
  if (!tags) return tags.error();
  return (*tags)->game(at->second);
}

Result<std::vector<Tag>> Archive::read_tags(std::uint64_t i, const std::vector<std::string>& keys) {
  if (i >= game_count()) return no_game(i, game_count());
  const auto wanted = [&](const Tag& t) { return std::find(keys.begin(), keys.end(), t.key) != keys.end(); };
  std::vector<Tag> all;
  if (std::find(keys.begin(), keys.end(), kDerivedKey) != keys.end()) {
    auto tags = read_tags(i);
    if (!tags) return tags.error();
    all = std::move(*tags);
  } else {
    const auto at = impl_->locate(i);
    if (!at) return at.error();
    auto tags = impl_->tags_of(at->second, at->second);
    if (!tags) return tags.error();
    all = (*tags)->game(at->second);
  }
  std::vector<Tag> out;
  for (Tag& t : all)
    if (wanted(t)) out.push_back(std::move(t));
  return out;
}

Status Archive::for_each(const std::function<bool(std::uint64_t, ArchiveGame&)>& visit) {
  Impl& s = *impl_;
  if (auto st = s.file->need_all(); !st) return st;
  for (std::uint32_t b = 0; b < s.file->blocks(); ++b) {
    if (auto st = s.load(b, true); !st) return st;
    for (std::uint32_t j = 0; j < s.block.games; ++j) {
      auto g = s.decode(b, j);
      if (!g) return g.error();
      if (!visit(s.file->entry(b).first_game + j, *g)) return {};
    }
  }
  return {};
}

Result<std::vector<std::uint64_t>> Archive::find(const Query& q) { return impl_->search(q); }

const char* section_name(Section s) {
  switch (s) {
    case Section::Tags: return "tags";
    case Section::Moves: return "moves";
    case Section::Structure: return "structure";
    case Section::Texts: return "texts";
    case Section::Raw: return "raw";
  }
  return "?";
}

double moves_bits_per_ply(const ArchiveInfo& info) {
  if (!info.plies) return 0;
  const SectionInfo& moves = info.section(Section::Moves);
  const std::uint64_t bytes = moves.dictionary_blocks ? moves.raw : moves.stored;
  return static_cast<double>(bytes) * 8.0 / static_cast<double>(info.plies);
}

std::string archive_info_json(const ArchiveInfo& info) {
  std::string out = "{";
  const auto item = [&](const char* key, const std::string& value) {
    if (out.size() > 1 && out.back() != '{') out += ", ";
    ((out += '"') += key) += "\": ";
    out += value;
  };
  const auto number = [](std::uint64_t v) { return std::to_string(v); };
  item("write_version", api::json_string(info.write_version.text()));
  item("read_version", api::json_string(info.read_version.text()));
  const std::pair<const char*, std::uint64_t> figures[] = {
      {"file_bytes", info.file_bytes},         {"games", info.games},
      {"verbatim_games", info.verbatim_games}, {"blocks", info.blocks},
      {"plies", info.plies},                   {"index_bytes", info.index_bytes},
      {"block_overhead_bytes", info.block_overhead_bytes}, {"dictionaries", info.dictionaries},
      {"dictionary_bytes", info.dictionary_bytes}, {"dictionary_blocks", info.dictionary_blocks},
      {"name_chunks", info.name_chunks},       {"name_bytes", info.name_bytes},
      {"table_chunks", info.table_chunks},     {"table_bytes", info.table_bytes}};
  for (const auto& [key, value] : figures) item(key, number(value));
  char bits[32];
  std::snprintf(bits, sizeof bits, "%.4f", moves_bits_per_ply(info));
  item("moves_bits_per_ply", bits);
  item("position_filter_blocks", number(info.position_filter_blocks));
  item("position_filter_bytes", number(info.position_filter_bytes));
  item("sections", "{");
  for (Section k : kAllSections) {
    const SectionInfo& si = info.section(k);
    item(section_name(k), "{\"stored\": " + number(si.stored) + ", \"raw\": " + number(si.raw) +
                              ", \"framed_blocks\": " + number(si.framed_blocks) +
                              ", \"column_blocks\": " + number(si.column_blocks) +
                              ", \"dictionary_blocks\": " + number(si.dictionary_blocks) + "}");
  }
  out += "}";
  item("move_coder_blocks", "{\"fast\": " + number(info.fast_blocks) + ", \"max\": " + number(info.model_blocks) +
                                ", \"uniform\": " + number(info.uniform_blocks) + "}");
  item("clock_model_blocks", number(info.clock_model_blocks));
  item("value_table_entries", number(info.value_table_entries));
  item("value_table_bytes", number(info.value_table_bytes));
  item("value_table_blocks", number(info.value_table_blocks));
  return out + "}";
}

Result<ArchiveInfo> Archive::info(const std::function<void(std::uint64_t)>& progress) {
  ArchiveFile& f = *impl_->file;
  const Index& index = f.index();
  ArchiveInfo info;
  info.write_version = f.write_version();
  info.read_version = f.read_version();
  info.file_bytes = f.file_bytes();
  info.games = f.games();
  info.blocks = f.blocks();
  info.index_bytes = f.footer().index_size;
  info.header_bytes = kHeaderSize;
  info.footer_bytes = kFooterSize;
  info.dictionaries = index.dictionaries.size();
  for (const DictionaryEntry& d : index.dictionaries) info.dictionary_bytes += d.size;
  for (const auto& chunks : index.name_chunks)
    for (const NameChunkEntry& c : chunks) {
      ++info.name_chunks;
      info.name_bytes += c.size;
    }
  for (const TableChunkEntry& c : index.table_chunks) {
    ++info.table_chunks;
    info.table_bytes += c.size;
  }
  for (const ValueTables::Table& t : index.tables.tables()) info.value_table_entries += t.entries;
  for (const IndexExtension& e : index.extensions)
    if (e.id == kValueTablesExtension) info.value_table_bytes += e.bytes.size();
  if (auto st = f.need_all(); !st) return st.error();
  DecodedBlock scratch;
  scratch.dictionaries = &f.dictionaries();
  std::string bytes;
  std::uint64_t games_done = 0;
  for (std::uint32_t b = 0; b < f.blocks(); ++b) {
    if (auto st = f.read_block(b, bytes); !st) return st.error();
    BlockCounts counts;  // (the block's header, checked with its checksum, is left in `scratch`)
    if (auto st = count_block(bytes, f.where(b), scratch, counts); !st) return st.error();
    info.plies += counts.plies;
    info.verbatim_games += counts.verbatim;
    info.position_filter_blocks += counts.filter_bytes > 0;
    info.uniform_blocks += scratch.coder == codec::MoveCoder::kUniform;
    info.model_blocks += scratch.coder == codec::MoveCoder::kModel;
    info.fast_blocks += scratch.coder == codec::MoveCoder::kFast;
    info.clock_model_blocks += scratch.modelled_tracks;
    info.value_table_blocks += counts.table_columns;
    info.position_filter_bytes += counts.filter_bytes;
    games_done += scratch.games;
    if (progress) progress(games_done);
    std::uint64_t sum = 0;
    for (int k = 0; k < kSections; ++k) {
      SectionInfo& section = info.sections[static_cast<std::size_t>(k)];
      section.framed_blocks += by_group(scratch.encoding[k]);
      section.column_blocks += scratch.encoding[k] >= kZstdColumns;
      section.dictionary_blocks += scratch.dictionary[k];
      info.dictionary_blocks += scratch.encoding[k] == kZstdDictionary;
      section.stored += scratch.stored[k];
      section.raw += scratch.raw[k];
      sum += scratch.stored[k];
    }
    info.block_overhead_bytes += f.entry(b).size - sum;
  }
  return info;
}

// Every block decoded on every core by the export's workers (their PGN dropped): the same
// checks as reading each game in turn (checksums, counts, every game, leftover bytes), then
// the name chunks.
Status Archive::verify(const std::function<void(std::uint64_t)>& progress, unsigned threads) {
  return export_pgn([](std::string_view) { return true; }, threads, progress);
}

}  // namespace pgnarc
