// ArchiveWriter: games in, blocks out, in order, on N threads, placed by the archive builder
// (container/archive_builder.h), which then writes the name chunks, the block table, the index
// and the footer.
#include "pgnarc/archive_writer.h"

#include <algorithm>
#include <optional>
#include <set>
#include <thread>

#include "api/pack_pipeline.h"
#include "common/file_writer.h"
#include "common/thread_pool.h"
#include "common/zstd_frame.h"
#include "container/archive_builder.h"
#include "container/derived_tags.h"
#include "container/position_filter.h"

namespace pgnarc {

using namespace container;

namespace {

// The longest clock or evaluation command that block_counted_bytes leaves out ("[%clk
// 999999:59:59.99]" has 22 bytes): longer text in brackets counts.
constexpr std::size_t kMaxTrackCommand = 32;
// A block's input closes at this many times its size in PGN bytes, clocks counted, whatever the
// bytes counted towards its size: a block of games of nothing but clock comments stays bounded.
constexpr std::size_t kMaxBlockBytesShare = 8;

// The bytes of the clock and evaluation commands ("[%clk ...]", "[%emt ...]", "[%eval ...]", each
// of at most kMaxTrackCommand bytes) in the comment text `body`; `only`: whether the rest of it is
// white space.
std::size_t track_command_bytes(std::string_view body, bool& only) {
  std::size_t commands = 0, other = 0;
  for (std::size_t at = 0; at < body.size();) {
    const std::string_view rest = body.substr(at);
    if (rest.starts_with("[%clk ") || rest.starts_with("[%emt ") || rest.starts_with("[%eval ")) {
      const std::size_t close = rest.substr(0, kMaxTrackCommand).find(']');
      if (close != std::string_view::npos) {
        commands += close + 1;
        at += close + 1;
        continue;
      }
    }
    if (body[at] != ' ' && body[at] != '\n' && body[at] != '\r' && body[at] != '\t') ++other;
    ++at;
  }
  only = commands > 0 && other == 0;
  return commands;
}

// The bytes of a game's PGN `text` that count towards a block's size: all but its clock and
// evaluation commands, and the whole of a comment that holds nothing else (with the space before
// it). A clocked game's PGN is two to three times that of its moves, where its clocks cost a
// fraction of a byte each stored and little time to read; counted so, a block of clocked games
// holds about as many games as one without clocks, and reading one of its games costs about as
// much (a block's PGN, clocks counted, stays below kMaxBlockBytesShare times its size).
std::size_t block_counted_bytes(std::string_view text) {
  std::size_t discount = 0;
  for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    bool only = false;
    const std::size_t commands = track_command_bytes(text.substr(open + 1, close - open - 1), only);
    if (only) discount += close - open + 1 + (open > 0 && text[open - 1] == ' ' ? 1 : 0);
    else discount += commands;
    open = close;
  }
  return text.size() - discount;
}

// The writer holds blocks for training (and for the value table's choice) until this many, or
// this many bytes of their tags (more
// training makes a better dictionary for large archives: PGN Mentor, 89,694 games, -1.5% with
// 256 blocks and 128 KiB against 64 blocks and 64 KiB; the held blocks cost memory, 73 MB
// peak there).
constexpr std::size_t kMaxHeldBlocks = 256;
constexpr std::size_t kMaxHeldTagBytes = 4u << 20;
// Past kMaxHeldBlocks, where the codewords that two or more of those blocks' games share take at
// least a sixteenth of their moves sections, it holds blocks up to kMaxHeldBlocksForMoves until
// their moves and structure streams take more than kMaxHeldMovesBytes, twice what a dictionary
// holds (or their texts and raw streams more than kMaxTextDictionaryInput): if they are the
// archive's all, its moves dictionary (which holds at least half of them and the repeated
// codewords) may pay for holding them (the Chinese Chess Practical Dataset's games by event,
// 29,875 in 280 blocks, 8,741 of them the moves of an earlier game: 14.7% smaller). Files of
// distinct games (PGN Mentor, lichess) are not held longer.
constexpr std::size_t kMaxHeldBlocksForMoves = 1024;
constexpr std::size_t kMaxHeldMovesBytes = 2u << 20;
constexpr std::size_t kHeldRepeatsShare = 16;
// The dictionary sizes tried, as shares of the tags trained on (1/2, 1/4, 1/8, 1/16), each only
// if it can hold 4 KiB (less is not worth an element).
constexpr std::size_t kDictionaryShares[] = {2, 4, 8, 16};
constexpr std::size_t kMinDictionaryBytes = 4096;
// The largest trained dictionary: a larger one takes longer to train than it gains (PGN Mentor's
// 3.9 MB archive 0.25% smaller with 1 MiB, its pack 13% slower); a dictionary that holds a small
// archive's tags as they are may take the whole of WriterOptions::dictionary_bytes.
constexpr std::size_t kMaxTrainedDictionaryBytes = 256 * 1024;
// A text dictionary is tried where the blocks' texts and raw streams hold more than the first
// and at most the second, a moves dictionary where their moves and structure sections do
// (beyond, one dictionary holds too little of them to pay for finishing the blocks again).
constexpr std::size_t kMinTextDictionaryBytes = 8192;
constexpr std::size_t kMaxTextDictionaryInput = 4u << 20;

}  // namespace

struct PGNARC_HIDDEN ArchiveWriter::Impl {
  std::unique_ptr<ArchiveBuilder> archive;
  std::string path;        // the output as given
  bool added_any = false;  // a game or an archive was added
  WriterOptions options;
  StoreOptions store;
  PackStats stats;
  BlockBuilder pending;  // for add_game
  std::shared_ptr<const WriterDictionary> kept_text_dict;  // the archive's text dictionary, if it has one
  std::size_t pending_bytes = 0;      // of the games added one by one, as a block counts them
  std::size_t pending_raw_bytes = 0;  // the same, clocks counted
  BlockNames pending_names;
  codec::CodecStats pending_stats;
  // Tag dictionary (9.9): undecided until the first blocks' tags train one (or show that none
  // pays), or until an archive copied in offers one (append); blocks made meanwhile are held.
  bool dict_decided = true;
  // Value table (9.4.8): undecided until the held blocks show whether one pays, or until an
  // archive is copied in (whose table, or none, the archive keeps).
  bool tables_decided = true;
  std::shared_ptr<const WriterDictionary> dict;
  std::vector<api::EncodedBlock> held;
  std::size_t held_tags = 0;
  std::size_t held_moves = 0, held_texts = 0;  // their moves and structure, texts and raw streams' bytes
  std::optional<bool> held_moves_repeat;  // moves_repeat(), once known
  // The last dictionary copied in, for blocks made after it.
  std::shared_ptr<const WriterDictionary> copied_dict;
  bool copied_archive = false;  // an archive's blocks were copied in (append, merge)
  // Games taken from the coders (placed, held, or being finished): the next game made is the
  // one after them.
  std::uint64_t games_taken = 0;

  unsigned workers() const { return options.threads > 1 ? options.threads : 0; }

  // Takes the next block from the coders, in order: reports its problems and gives its White
  // and Black tags their players' table entries and its games their value table entries (new
  // values enter the tables). Returns whether it is to be finished now; else it is held, with
  // its tags section, until the dictionary and the value table are decided (which may place it
  // at once).
  Result<bool> take(api::EncodedBlock& b, const std::function<void(const Problem&)>& on_problem) {
    for (Problem& p : b.problems) {
      p.game_number += games_taken + 1;
      if (on_problem) on_problem(p);
    }
    b.problems.clear();
    games_taken += b.games;
    b.builder.players.emplace();
    if (auto st = archive->number_players(b.builder.tags, *b.builder.players); !st) return st.error();
    if (options.table_tags && archive->tables().active()) b.builder.tables = archive->number_tables(b.builder.tags);
    if (!dict_decided && copied_dict)
      if (auto st = decide(); !st) return st.error();
    if (dict_decided && tables_decided) return true;
    b.tags_raw = b.builder.tags_section(store);
    held_tags += b.tags_raw.size();
    held_moves += b.builder.streams.moves.size() + b.builder.streams.structure.size();
    held_texts += b.builder.streams.texts.size() + b.builder.streams.raw.size();
    held.push_back(std::move(b));
    const bool enough = held.size() >= kMaxHeldBlocks &&
                        (held.size() >= kMaxHeldBlocksForMoves || held_moves > kMaxHeldMovesBytes ||
                         held_texts > kMaxTextDictionaryInput || !moves_repeat());
    if (enough || held_tags >= kMaxHeldTagBytes)
      if (auto st = decide(); !st) return st.error();
    return false;
  }

  // Finishes a block taken to be finished (on any thread: it reads only the dictionary).
  void finish_block(api::EncodedBlock& b) const {
    b.bytes = b.builder.finish(store, dict.get(), b.tags_raw.empty() ? nullptr : &b.tags_raw);
  }

  // Takes, finishes and places a block on this thread.
  Status place(api::EncodedBlock& b, const std::function<void(const Problem&)>& on_problem) {
    auto now = take(b, on_problem);
    if (!now) return now.error();
    if (!*now) return {};
    finish_block(b);
    return place_finished(b);
  }

  Status place_finished(const api::EncodedBlock& b) {
    if (auto st = archive->add_block(b.bytes, b.games, b.summary, &b.names, &*b.builder.players); !st) return st;
    stats.raw_games += b.stats.raw_games;
    stats.plies += b.stats.plies;
    return {};
  }

  // A dictionary trained on the held blocks' tags, of the size among a few that makes them and
  // their name tables smallest counting its own element (placed then), if any makes them
  // smaller; else null. The sizes are shares of the tags trained on (kDictionaryShares, at most
  // options.dictionary_bytes): what pays depends on how much the blocks' tags repeat each other.
  // The strongest setting (--moves max) searches each size's training parameters too; the
  // others train once a size, a quarter of the work (training is most of a small file's pack).
  // Where the held blocks are the last (`last`: the archive has no others for the dictionary),
  // one more candidate is their tags sections themselves (as much as fits, the last blocks'
  // kept): then every block's tags refer to the one copy in the dictionary, and the tags compress
  // as one stream would, the blocks still read alone (CCPD's 1,985 games in 20 blocks: tags,
  // dictionary and name tables 54 KB trained, 46 KB so).
  Result<std::shared_ptr<const WriterDictionary>> train(bool last) {
    const std::shared_ptr<const WriterDictionary> none;
    std::vector<std::string> sections;
    std::size_t total = 0;
    for (const api::EncodedBlock& b : held) {
      sections.push_back(b.tags_raw);
      total += b.tags_raw.size();
    }
    // The name tables of the held blocks (as one chunk per field: the players' table so far,
    // the others' values of the held blocks): their chunks are compressed with the dictionary
    // too, where that is smaller.
    std::vector<std::string> held_names(kNameFieldCount);
    for (int f = 0; f < kNameFieldCount; ++f) {
      ChunkEntries entries;
      if (f == kPlayerField) {
        for (std::size_t p = 0; p < archive->players().size(); ++p) entries.add(archive->players()[p], {0});
      } else {
        std::set<std::string_view> values;
        for (const api::EncodedBlock& b : held) values.insert(b.names[f].begin(), b.names[f].end());
        for (std::string_view v : values) entries.add(v, {0});
      }
      if (entries.count() > 0) held_names[f] = entries.content();
    }
    // The sizes without a dictionary and each candidate's are measured on the workers, one job
    // each (training is most of a small archive's pack time); the best is chosen in the order
    // of kDictionaryShares, the first of equal sizes, whatever the thread count.
    struct Candidate {
      std::shared_ptr<const WriterDictionary> dict;
      std::string element;
      std::size_t size = 0;  // the tags sections and the element
      std::vector<std::size_t> names;  // each name chunk compressed with the dictionary
    };
    std::vector<std::size_t> names_without(kNameFieldCount, 0);
    auto measure_without = [&]() -> Candidate {
      Candidate c;
      for (const std::string& sec : sections) c.size += common::compress_frame(sec, options.zstd_level).size();
      for (int f = 0; f < kNameFieldCount; ++f) {
        if (!held_names[f].empty()) names_without[f] = common::compress_frame(held_names[f], options.zstd_level).size();
        c.size += names_without[f];
      }
      return c;
    };
    auto measure = [&](std::size_t capacity, bool whole) -> Candidate {
      Candidate c;
      std::string content =
          whole ? whole_dictionary(sections, capacity, options.zstd_level)
                : train_tag_dictionary(sections, capacity,
                                       options.moves == MoveCoding::kMax ? DictionaryTraining::kSearch : DictionaryTraining::kOnce);
      if (content.empty()) return c;
      c.dict = WriterDictionary::make(std::move(content), options.zstd_level);
      if (!c.dict) return c;
      c.element = encode_dictionary_element(*c.dict, store);
      c.size = c.element.size();
      for (const std::string& sec : sections) c.size += c.dict->compress(sec).size();
      for (const std::string& n : held_names) c.names.push_back(n.empty() ? 0 : c.dict->compress(n).size());
      return c;
    };
    std::vector<std::size_t> capacities;
    for (const std::size_t share : kDictionaryShares) {
      const std::size_t capacity = std::min<std::size_t>({options.dictionary_bytes, total / share, kMaxTrainedDictionaryBytes});
      if (capacity < kMinDictionaryBytes || (!capacities.empty() && capacity == capacities.back())) continue;
      capacities.push_back(capacity);
    }
    common::OrderedPool<Candidate> pool(workers());
    pool.submit(measure_without);
    for (const std::size_t capacity : capacities) pool.submit([&measure, capacity] { return measure(capacity, false); });
    const std::size_t whole_capacity = std::min<std::size_t>({options.dictionary_bytes, total + 1024, kMaxDictionaryBytes});
    if (last && whole_capacity >= kMinDictionaryBytes) {
      capacities.push_back(whole_capacity);
      pool.submit([&measure, whole_capacity] { return measure(whole_capacity, true); });
    }
    const std::size_t without = pool.next().size;
    std::shared_ptr<const WriterDictionary> best;
    std::string best_element;
    std::size_t best_size = without;
    for (std::size_t i = 0; i < capacities.size(); ++i) {
      Candidate c = pool.next();
      if (!c.dict) continue;
      // Each name chunk with this dictionary, or without it where that is smaller.
      std::size_t with = c.size;
      for (int f = 0; f < kNameFieldCount; ++f)
        if (!held_names[f].empty()) with += std::min(c.names[f], names_without[f]);
      if (with < best_size) {
        best_size = with;
        best = std::move(c.dict);
        best_element = std::move(c.element);
      }
    }
    if (!best) return none;
    if (auto st = archive->add_dictionary(best_element, best); !st) return st.error();
    return best;
  }

  // Decides on the value table (9.4.8): one of the opening keys the held blocks use, numbered
  // over them, kept if their tags sections with it and the table are smaller than without.
  void decide_tables() {
    tables_decided = true;
    std::vector<std::vector<Tag>> games;
    for (const api::EncodedBlock& b : held) games.insert(games.end(), b.builder.tags.begin(), b.builder.tags.end());
    std::vector<std::string> keys = opening_keys(games);
    if (keys.empty()) return;
    TableBuilder table(std::move(keys));
    for (api::EncodedBlock& b : held) b.builder.tables = TableColumns{table.keys(), table.number(b.builder.tags)};
    struct Sizes {
      std::string tags;
      std::size_t with = 0, without = 0;
    };
    common::OrderedPool<Sizes> pool(workers());
    for (const api::EncodedBlock& b : held)
      pool.submit([this, &b] {
        Sizes s{b.builder.tags_section(store)};
        s.with = api::stored_size(s.tags, store);
        s.without = api::stored_size(b.tags_raw, store);
        return s;
      });
    std::vector<std::string> tabled;
    std::size_t with = table.extension(options.compress ? kValueTablesLevel : 0).size(), without = 0;
    for (std::size_t i = 0; i < held.size(); ++i) {
      Sizes s = pool.next();
      with += s.with;
      without += s.without;
      tabled.push_back(std::move(s.tags));
    }
    if (with >= without) {
      for (api::EncodedBlock& b : held) b.builder.tables.reset();
      return;
    }
    archive->set_tables(std::move(table));
    held_tags = 0;
    for (std::size_t i = 0; i < held.size(); ++i) {
      held[i].tags_raw = std::move(tabled[i]);
      held_tags += held[i].tags_raw.size();
    }
  }

  // Decides on the value table (decide_tables) and the tag dictionary: the one an archive copied
  // in offers, else one trained on the held blocks (`last`: no block follows them); then
  // finishes the held blocks on the workers (where they are the archive's all, with and without
  // a text and a moves dictionary) and places them in order.
  Status decide(bool last = false) {
    if (dict_decided && tables_decided) return {};
    if (!tables_decided) decide_tables();
    if (last && !copied_archive && api::keeps_name_entries(options)) held_tags = api::number_names(held, store, workers());
    if (!dict_decided) {
      dict_decided = true;
      if (copied_dict) {
        dict = copied_dict;
      } else if (!held.empty()) {
        auto trained = train(last);
        if (!trained) return trained.error();
        dict = *trained;
      }
    }
    std::vector<api::EncodedBlock> blocks_held = std::move(held);
    held.clear();
    held_tags = 0;
    held_moves = held_texts = 0;
    if (!last || copied_archive) {
      finish_held(blocks_held, nullptr, nullptr);
      return place_held(blocks_held);
    }
    // The held blocks are the archive's all: with a text dictionary and without it, then with
    // a moves dictionary and without it, each kept where that is smaller.
    std::size_t best = finish_held(blocks_held, nullptr, nullptr);
    std::vector<std::string> best_bytes = take_bytes(blocks_held);
    const auto text_dict = text_dictionary(blocks_held);
    if (text_dict) {
      const std::string element = encode_dictionary_element(*text_dict, store);
      if (const std::size_t with = element.size() + finish_held(blocks_held, text_dict.get(), nullptr); with < best) {
        if (auto st = archive->add_dictionary(element, text_dict); !st) return st;
        best = with - element.size();
        best_bytes = take_bytes(blocks_held);
        kept_text_dict = text_dict;
      }
    }
    const auto moves_dict = moves_dictionary(blocks_held);
    if (moves_dict) {
      const std::string element = encode_dictionary_element(*moves_dict, store);
      if (const std::size_t with = element.size() + finish_held(blocks_held, kept_text_dict.get(), moves_dict.get());
          with < best) {
        if (auto st = archive->add_dictionary(element, moves_dict); !st) return st;
        best_bytes = take_bytes(blocks_held);
      }
    }
    for (std::size_t i = 0; i < blocks_held.size(); ++i) blocks_held[i].bytes = std::move(best_bytes[i]);
    return place_held(blocks_held);
  }

  static std::vector<std::string> take_bytes(std::vector<api::EncodedBlock>& blocks) {
    std::vector<std::string> out;
    for (api::EncodedBlock& b : blocks) out.push_back(std::move(b.bytes));
    return out;
  }

  // Finishes the held blocks on the workers, with the tag dictionary, `text_dict` and
  // `moves_dict` (if any); returns their bytes.
  std::size_t finish_held(std::vector<api::EncodedBlock>& blocks, const WriterDictionary* text_dict,
                          const WriterDictionary* moves_dict) {
    common::OrderedPool<std::string> pool(workers());
    const std::size_t window = std::max(1u, options.threads);
    std::size_t submitted = 0, bytes = 0;
    for (api::EncodedBlock& b : blocks) {
      while (submitted < blocks.size() && pool.pending() < window) {
        const api::EncodedBlock& next = blocks[submitted++];
        pool.submit([this, &next, text_dict, moves_dict] {
          return next.builder.finish(store, dict.get(), &next.tags_raw, text_dict, moves_dict);
        });
      }
      b.bytes = pool.next();
      bytes += b.bytes.size();
    }
    return bytes;
  }

  Status place_held(std::vector<api::EncodedBlock>& blocks) {
    for (api::EncodedBlock& b : blocks)
      if (auto st = place_finished(b); !st) return st;
    return {};
  }

  // A text dictionary (9.9) for `blocks`, the archive's all: their texts and raw streams as they
  // are (tail_dictionary); else null.
  std::shared_ptr<const WriterDictionary> text_dictionary(const std::vector<api::EncodedBlock>& blocks) const {
    if (!options.text_dictionary) return nullptr;
    std::vector<std::string_view> streams;
    for (const api::EncodedBlock& b : blocks)
      for (const std::string* s : {&b.builder.streams.texts, &b.builder.streams.raw})
        if (!s->empty()) streams.push_back(*s);
    return tail_dictionary(streams, blocks.size(), store.text_level);
  }

  // container::moves_sections of `blocks`.
  MovesSections moves_sections(const std::vector<api::EncodedBlock>& blocks) const {
    std::vector<const BlockBuilder*> builders;
    for (const api::EncodedBlock& b : blocks) builders.push_back(&b.builder);
    return container::moves_sections(builders, store);
  }

  // Whether the codewords that two or more of the first kMaxHeldBlocks held blocks' games share
  // take at least 1/kHeldRepeatsShare of their moves sections (found once, at that many blocks).
  bool moves_repeat() {
    if (held_moves_repeat) return *held_moves_repeat;
    held_moves_repeat = false;  // (no moves dictionary can come of them)
    if (options.moves_dictionary && options.compress && options.dictionary_bytes > 0 && !copied_archive) {
      const MovesSections m = moves_sections(held);
      std::size_t bytes = 0;
      for (std::size_t k = 0; k < m.sections.size(); k += 2) bytes += m.sections[k].size();
      held_moves_repeat = m.repeats.size() * kHeldRepeatsShare >= bytes;
    }
    return *held_moves_repeat;
  }

  // A moves dictionary (9.9) for `blocks`, the archive's all: their moves and structure sections
  // before compression, block by block; where they do not fit, the last that fit, then the
  // codewords that two or more groups have (tail_dictionary); else null.
  std::shared_ptr<const WriterDictionary> moves_dictionary(const std::vector<api::EncodedBlock>& blocks) const {
    if (!options.moves_dictionary) return nullptr;
    const MovesSections m = moves_sections(blocks);
    return tail_dictionary(std::vector<std::string_view>(m.sections.begin(), m.sections.end()), blocks.size(),
                           store.zstd_level, m.repeats);
  }

  // A dictionary whose content is `streams` as they are (as much as fits a dictionary, the last
  // ones), made at zstd `level`, where `blocks` (two or more) are compressed and the streams hold
  // more than kMinTextDictionaryBytes and at most kMaxTextDictionaryInput; else null. Where the
  // streams do not fit, `repeats` (at most its last half a dictionary) ends the content, after
  // the last streams that fit beside it. Never one of the tag or text dictionary's ID.
  std::shared_ptr<const WriterDictionary> tail_dictionary(const std::vector<std::string_view>& streams, std::size_t blocks,
                                                          int level, std::string_view repeats = {}) const {
    if (!options.compress || options.dictionary_bytes == 0 || blocks < 2) return nullptr;
    std::size_t total = 0;
    for (std::string_view s : streams) total += s.size();
    if (total <= kMinTextDictionaryBytes || total > kMaxTextDictionaryInput) return nullptr;
    const std::size_t capacity = std::min<std::size_t>(kMaxDictionaryBytes, total + 1024);
    // (whole_dictionary keeps the content's last bytes that fit beside the entropy tables.)
    const std::size_t room = capacity - 1024;
    repeats = total <= room ? std::string_view() : repeats.substr(repeats.size() - std::min(repeats.size(), room / 2));
    // Only the streams the dictionary can hold are copied (for its entropy tables too).
    std::size_t first = streams.size(), held_bytes = repeats.size();
    while (first > 0 && held_bytes < capacity) held_bytes += streams[--first].size();
    std::vector<std::string> tail(streams.begin() + static_cast<std::ptrdiff_t>(first), streams.end());
    if (!repeats.empty()) tail.emplace_back(repeats);
    auto made = WriterDictionary::make(whole_dictionary(tail, capacity, level), level);
    if (made && ((dict && made->id() == dict->id()) || (kept_text_dict && made->id() == kept_text_dict->id())))
      return nullptr;
    return made;
  }

  Status flush_pending() {
    if (pending.games == 0) return {};
    api::EncodedBlock b;
    b.games = pending.games;
    b.summary = pending.summary;
    for (int f = 0; f < kNameFieldCount; ++f) b.names[f].swap(pending_names[f]);
    b.stats = pending_stats;
    pending.plies = pending_stats.plies;
    b.builder = std::move(pending);
    pending = BlockBuilder{};
    pending_bytes = 0;
    pending_raw_bytes = 0;
    pending_stats = codec::CodecStats{};
    for (auto& s : pending_names) s.clear();
    return place(b, nullptr);
  }
};

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::create(const std::string& path, WriterOptions options) {
  if (options.table_chunk_blocks == 0 || options.table_chunk_blocks > kMaxTableChunkBlocks)
    return invalid_input("the block table chunk size must be 1 to 2^20 blocks");
  if (options.block_games == 0 || options.block_games > kMaxBlockGames || options.block_bytes == 0)
    return invalid_input("a block must hold 1 to 2^20 games and at least 1 byte of PGN");
  std::unique_ptr<ArchiveWriter> w(new ArchiveWriter());
  w->impl_ = std::make_unique<Impl>();
  Impl& s = *w->impl_;
  s.options = options;
  if (s.options.threads == 0) s.options.threads = std::max(1u, std::thread::hardware_concurrency());
  s.store = api::store_options(s.options);
  s.dict_decided = !(s.options.compress && s.options.dictionary_bytes > 0);
  s.tables_decided = !(s.options.derive_tags && s.options.code_tags && s.options.table_tags);
  BuilderOptions b;
  b.store = s.store;
  b.overwrite = s.options.overwrite;
  b.table_chunk_blocks = s.options.table_chunk_blocks;
  b.name_chunk_bytes = s.options.name_chunk_bytes;
  b.name_memory_bytes = s.options.name_memory_bytes;
  auto archive = ArchiveBuilder::create(path, b);
  if (!archive) return archive.error();
  s.archive = std::move(*archive);
  s.path = path;
  return w;
}

// An input that is the output file itself is refused: writing the archive would replace it. The
// one exception is the archive being appended to, copied first (append).
static Status refuse_output_as_input(const std::string& output, const std::string& input, bool appended_to) {
  if (output == "-" || appended_to || !common::same_file(input, output)) return {};
  return invalid_input(input + " is also the output " + output + ": write the archive to another file");
}

ArchiveWriter::~ArchiveWriter() = default;

const std::string& ArchiveWriter::temp_path() const { return impl_->archive->temp_path(); }

// Whether `t`'s value, written without escapes, reads back as it (Tag::unescaped): it holds a quote
// or a backslash, no line break, and a PGN reader reads the tag pair so written as this tag.
static bool reads_back_unescaped(const Tag& t) {
  if (t.value.find_first_of("\"\\") == std::string::npos || t.value.find_first_of("\r\n") != std::string::npos)
    return false;
  GameBuilder b;
  parse_game("[" + t.key + " \"" + t.value + "\"]\n\n*\n", "tag", 1, SourcePos{}, b);
  return b.ok() && b.game().tags.size() == 1 && b.game().tags[0] == t;
}

Status ArchiveWriter::add_game(const Game& given) {
  Impl& s = *impl_;
  s.added_any = true;
  api::set_block_coding(s.options, s.pending);
  // Values written without escapes are kept so where the archive may hold them and they read
  // back so; where it may not, they are written escaped, as every other value is.
  std::optional<Game> escaped;
  for (const Tag& t : given.tags) {
    if (!t.unescaped) continue;
    if (!api::keeps_unescaped_tags(s.options)) {
      if (!escaped) escaped = given;
      for (Tag& e : escaped->tags) e.unescaped = false;
      break;
    }
    if (!reads_back_unescaped(t))
      return invalid_input("tag [" + t.key + "]: its value does not read back written without escapes (Tag::unescaped: "
                           "a value that holds a quote or a backslash, no line break, as a PGN reader reads it)");
  }
  const Game& game = escaped ? *escaped : given;
  if (auto st = codec::encode_game(game, s.pending.streams, &s.pending_stats); !st) return st;
  if (s.options.position_filter) add_filter_keys(game, s.pending.filter_keys);
  s.pending.end_game(game.tags, s.options.derive_tags ? derived_rules(game) : std::vector<std::uint8_t>{});
  api::collect_names(game.tags, s.pending_names);
  // About 8 bytes of PGN an event; a comment with clock or evaluation commands at most its other
  // text, and nothing when it holds nothing else (block_counted_bytes).
  s.pending_bytes += 64;
  s.pending_raw_bytes += 64;
  for (const GameEvent& e : game.events) {
    s.pending_raw_bytes += e.type == GameEvent::kComment ? std::max<std::size_t>(8, e.text.size()) : 8;
    std::size_t counted = 8;
    bool only = false;
    if (e.type == GameEvent::kComment)
      if (const std::size_t commands = track_command_bytes(e.text, only); commands > 0)
        counted = only ? 0 : std::min(counted, e.text.size() - commands);
    s.pending_bytes += counted;
  }
  if (s.pending.games >= s.options.block_games || s.pending_bytes >= s.options.block_bytes ||
      s.pending_raw_bytes / kMaxBlockBytesShare >= s.options.block_bytes)
    return s.flush_pending();
  return {};
}

Status ArchiveWriter::add_pgn(PgnReader& reader, const std::function<void(const Problem&)>& on_problem,
                              const std::function<void(std::uint64_t, std::uint64_t)>& on_progress) {
  Impl& s = *impl_;
  if (auto st = refuse_output_as_input(s.path, reader.name(), false); !st) return st;
  s.added_any = true;
  if (auto st = s.flush_pending(); !st) return st;
  const std::string source = reader.name();
  const std::uint64_t bytes_before = reader.bytes_read();
  // Blocks are coded on the workers, taken in order (their players' table entries given), then
  // finished on the workers and placed in order. Bounded memory: at most two blocks per thread
  // wait at each stage.
  common::OrderedPool<api::EncodedBlock> coders(s.workers()), finishers(s.workers());
  const std::size_t window = s.workers() ? 2 * s.options.threads : 1;
  auto place_next = [&]() -> Status {
    api::EncodedBlock b = finishers.next();
    return s.place_finished(b);
  };
  auto take_next = [&]() -> Status {
    auto b = std::make_shared<api::EncodedBlock>(coders.next());
    auto now = s.take(*b, on_problem);
    if (!now) return now.error();
    if (on_progress) on_progress(s.games_taken, reader.bytes_read() - bytes_before);
    if (*now) {
      finishers.submit([&s, b] {
        s.finish_block(*b);
        return std::move(*b);
      });
    }
    while (finishers.pending() >= window)
      if (auto st = place_next(); !st) return st;
    return {};
  };
  for (;;) {
    std::vector<PgnReader::RawGame> batch;
    std::size_t bytes = 0, raw_bytes = 0;
    bool more = true;
    while (batch.size() < s.options.block_games && bytes < s.options.block_bytes &&
           raw_bytes / kMaxBlockBytesShare < s.options.block_bytes) {
      PgnReader::RawGame rg;
      auto got = reader.next_raw(rg);
      if (!got) return got.error();
      if (!*got) {
        more = false;
        break;
      }
      bytes += block_counted_bytes(rg.text);
      raw_bytes += rg.text.size();
      batch.push_back(std::move(rg));
    }
    if (!batch.empty()) {
      coders.submit([&s, &source, batch = std::move(batch)]() mutable {
        return api::encode_block(std::move(batch), source, s.options);
      });
    }
    while (coders.pending() >= (more ? window : 1))
      if (auto st = take_next(); !st) return st;
    if (!more) break;
  }
  while (finishers.pending() > 0)
    if (auto st = place_next(); !st) return st;
  s.stats.input_bytes += reader.bytes_read() - bytes_before;
  return {};
}

Status ArchiveWriter::add_archive_blocks(const std::string& path) {
  Impl& s = *impl_;
  if (auto st = refuse_output_as_input(s.path, path, !s.added_any); !st) return st;
  s.added_any = true;
  if (auto st = s.flush_pending(); !st) return st;
  if (!s.held.empty())  // blocks made before this archive's come before them
    if (auto st = s.decide(); !st) return st;
  ArchiveBuilder::Copied copied;
  if (auto st = s.archive->copy_archive(path, copied); !st) return st;
  s.copied_archive = true;
  s.tables_decided = true;  // the archive's table, or none, is kept
  if (copied.dictionary) s.copied_dict = std::move(copied.dictionary);
  s.games_taken += copied.games;
  s.stats.input_bytes += copied.file_bytes;
  return {};
}

Result<PackStats> ArchiveWriter::finish() {
  Impl& s = *impl_;
  if (auto st = s.flush_pending(); !st) return st.error();
  if (auto st = s.decide(/*last=*/true); !st) return st.error();
  auto bytes = s.archive->finish(s.dict.get());
  if (!bytes) return bytes.error();
  s.stats.games = s.archive->games();
  s.stats.blocks = s.archive->blocks();
  s.stats.output_bytes = *bytes;
  return s.stats;
}

}  // namespace pgnarc
