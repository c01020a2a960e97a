#include "api/pack_pipeline.h"

#include <algorithm>
#include <optional>
#include <set>

#include "common/thread_pool.h"
#include "common/zstd_frame.h"
#include "container/derived_tags.h"
#include "container/position_filter.h"
#include "pgn/xiangqi_pgn.h"

namespace pgnarc::api {

using namespace container;

StoreOptions store_options(const WriterOptions& options) {
  StoreOptions s;
  s.compress = options.compress;
  s.zstd_level = options.zstd_level;
  s.text_level = options.text_level;
  s.dictionary_level = options.dictionary_level;
  s.text_columns = options.text_columns;
  s.frame_bytes = options.frame_bytes;
  s.position_filter = options.position_filter;
  return s;
}

codec::MoveCoder move_coder(const WriterOptions& options) {
  switch (options.moves) {
    case MoveCoding::kUniform: return codec::MoveCoder::kUniform;
    case MoveCoding::kMax: return codec::MoveCoder::kModel;
    case MoveCoding::kFast: break;
  }
  return codec::MoveCoder::kFast;
}

void collect_names(const std::vector<Tag>& tags, BlockNames& names) {
  for (const Tag& t : tags)
    if (const int f = name_field_of(t.key); f > kPlayerField && indexed_name(f, t.value)) names[f].insert(t.value);
}

void set_block_coding(const WriterOptions& options, BlockBuilder& b) {
  b.streams.coder = move_coder(options);
  b.streams.modelled_tracks = options.model_clocks;
  b.streams.xiangqi_model = options.xiangqi_model;
  b.streams.xiangqi_spellings = options.xiangqi_model && options.xiangqi_spellings;
  b.streams.xiangqi_book = b.streams.xiangqi_spellings && options.xiangqi_book;
  b.derive_tags = options.derive_tags;
  b.code_tags = options.derive_tags && options.code_tags;
  b.xiangqi_positions = b.code_tags && options.table_tags && options.xiangqi_positions;
}

bool keeps_unescaped_tags(const WriterOptions& options) {
  return options.derive_tags && options.code_tags && options.table_tags && options.unescaped_tags;
}

std::size_t stored_size(std::string_view bytes, const container::StoreOptions& store) {
  if (!store.compress) return bytes.size();
  const std::string frame = common::compress_frame(bytes, store.zstd_level);
  return frame.empty() ? bytes.size() : std::min(frame.size(), bytes.size());
}

bool keeps_name_entries(const WriterOptions& options) {
  return options.derive_tags && options.code_tags && options.table_tags && options.name_entries;
}

namespace {

// The error that keeps a game verbatim where the archive may not hold a value that only its bytes
// as written read, at the first such tag pair (`key`, at `at`).
Error unescaped_tag_error(const std::string& key, const std::string& source, std::uint64_t number, SourcePos at) {
  return Error(ErrorCode::InvalidInput, source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                                            ": game " + std::to_string(number) + ": bad tag pair [" + key +
                                            "]: a quote inside the value is not escaped (\\\"), or its closing "
                                            "quote follows a stray backslash; archives of format 1.11 keep such "
                                            "values (pack --tags tables)");
}

}  // namespace

namespace {
// Event and Site entries are kept where they make the held blocks' tags sections, each
// compressed alone, at least 1/kNameEntriesGain smaller: the Xiangqi collections of the Chinese
// Chess Practical Dataset 29-45%; chess files whose tag dictionary holds their events already
// 5-7% (lichess, TCEC FRC, Dortmund, crazyhouse: a few bytes in the archive, which a reader of
// 1.13 reads without them).
constexpr std::size_t kNameEntriesGain = 8;
}  // namespace

std::size_t number_names(std::vector<EncodedBlock>& blocks, const container::StoreOptions& store, unsigned workers) {
  // Each table in ascending order of value, as the index holds it (9.10).
  std::vector<std::string_view> table[2];
  for (int f : {container::kEventField, container::kSiteField}) {
    std::set<std::string_view> values;
    for (const EncodedBlock& b : blocks) values.insert(b.names[f].begin(), b.names[f].end());
    table[f - 1].assign(values.begin(), values.end());
  }
  for (EncodedBlock& b : blocks) {
    container::NameEntries& e = b.builder.names.emplace();
    for (const auto& g : b.builder.tags)
      for (const Tag& t : g) {
        const int f = name_field_of(t.key);
        if (f != container::kEventField && f != container::kSiteField) continue;
        const auto& values = table[f - 1];
        const auto it = std::lower_bound(values.begin(), values.end(), std::string_view(t.value));
        (f == container::kEventField ? e.event : e.site)
            .push_back(it != values.end() && *it == t.value ? static_cast<std::uint32_t>(it - values.begin())
                                                            : container::kNoNameEntry);
      }
  }
  // Each block's tags section with them, and both sections' sizes compressed alone.
  struct Made {
    std::string tags;
    std::size_t with = 0, without = 0;
  };
  common::OrderedPool<Made> pool(workers);
  for (const EncodedBlock& b : blocks)
    pool.submit([&b, &store] {
      Made m{b.builder.tags_section(store)};
      m.with = stored_size(m.tags, store);
      m.without = stored_size(b.tags_raw, store);
      return m;
    });
  std::vector<std::string> made;
  std::size_t with = 0, without = 0, bytes = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    Made m = pool.next();
    with += m.with;
    without += m.without;
    made.push_back(std::move(m.tags));
  }
  // Kept where that makes the sections at least 1/kNameEntriesGain smaller: where the values are
  // few (a tournament's event), they cost next to nothing as text, and a reader of 1.13 reads them.
  const bool keep = with * kNameEntriesGain <= without * (kNameEntriesGain - 1);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (keep) blocks[i].tags_raw = std::move(made[i]);
    else blocks[i].builder.names.reset();
    bytes += blocks[i].tags_raw.size();
  }
  return bytes;
}

EncodedBlock encode_block(std::vector<PgnReader::RawGame> raws, const std::string& source, const WriterOptions& options) {
  EncodedBlock out;
  BlockBuilder b;
  set_block_coding(options, b);
  GameBuilder builder;
  const bool keeps = keeps_unescaped_tags(options);
  for (std::size_t i = 0; i < raws.size(); ++i) {
    const auto& rg = raws[i];
    pgn::parse_game_or_xiangqi(rg.text, source, rg.number, rg.start, builder, options.variant);
    std::vector<Tag>& tags = builder.game().tags;
    // Where the archive may not hold values written without escapes (9.4.10), a value that
    // escapes read too is kept and written escaped, as any value; a game with a value
    // that only its bytes as written read is kept verbatim, without that tag among the ones that
    // index it.
    std::optional<Error> as_written;
    if (!keeps) {
      const auto& only = builder.as_written_tags();
      if (builder.ok() && !only.empty())
        as_written = unescaped_tag_error(tags[only.front()].key, source, rg.number, *builder.first_as_written_tag());
      for (auto it = only.rbegin(); it != only.rend(); ++it) tags.erase(tags.begin() + static_cast<std::ptrdiff_t>(*it));
      for (Tag& t : tags) t.unescaped = false;
    }
    Status st;
    if (builder.ok() && !as_written) st = codec::encode_game(builder.game(), b.streams, &out.stats);
    if (builder.ok() && !as_written && st) {
      if (options.position_filter) container::add_filter_keys(builder.game(), b.filter_keys);
      collect_names(tags, out.names);
      b.end_game(tags, options.derive_tags ? container::derived_rules(builder.game()) : std::vector<std::uint8_t>{});
    } else {
      Error e = as_written     ? *as_written
                : builder.ok() ? Error(st.error().code(), source + ": game " + std::to_string(rg.number) + ": " +
                                                              st.error().message())
                               : builder.error();
      codec::encode_raw_game(rg.text, b.streams, &out.stats);
      // The tag pairs the parser read before it stopped (all of them when the game failed in its
      // movetext: another variant, an illegal move) index the game for search; decoding a
      // verbatim game gives back its bytes and never these tags (8.5).
      collect_names(tags, out.names);
      b.end_game(tags);
      out.problems.push_back(Problem{i, std::move(e)});
    }
  }
  out.games = b.games;
  b.plies = out.stats.plies;
  out.summary = b.summary;
  out.builder = std::move(b);
  return out;
}

}  // namespace pgnarc::api
