#include "container/format.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <unordered_map>

#include "codec/bytes.h"
#include "container/text_columns.h"

namespace pgnarc::container {

using detail::ByteReader;
using detail::ByteCursor;
using detail::put_prefixed;
using detail::put_varint;

std::uint64_t hash64(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

Result<std::unique_ptr<MappedFile>> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return io_error("cannot stat " + path + ": " + std::strerror(errno));
  }
  std::unique_ptr<MappedFile> f(new MappedFile());
  f->size_ = static_cast<std::size_t>(st.st_size);
  if (f->size_ > 0) {
    void* m = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      ::close(fd);
      return io_error("cannot map " + path + ": " + std::strerror(errno));
    }
    f->data_ = static_cast<const char*>(m);
  }
  ::close(fd);
  return f;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::release(std::string_view range) const {
  if (!data_ || range.empty()) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(range.data()) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(range.data()) + range.size()) / page * page;
  // The pages stay in the page cache; a later read maps them again. Failure costs only memory.
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

std::string file_header() {
  std::string h(kFileMagic, 8);
  put_le(h, kWriteVersion, 2);
  put_le(h, kReadVersion, 2);
  put_le(h, 0, 4);   // flags: all reserved
  put_le(h, 0, 8);   // reserved
  put_le(h, 0, 4);   // reserved
  put_le(h, hash64(h) & 0xFFFFFFFFu, 4);
  return h;
}

Status check_file_header(std::string_view b, std::uint16_t& write_version, std::uint16_t& read_version) {
  if (b.size() < kHeaderSize) return corruption("file header: the file is shorter than 32 bytes (offset 0)");
  if (std::memcmp(b.data(), kFileMagic, 8) != 0) return corruption("file header: not a pgnarc archive (bad magic at offset 0)");
  if (get_le(b.data() + 28, 4) != (hash64(b.substr(0, 28)) & 0xFFFFFFFFu))
    return corruption("file header: checksum mismatch (offset 28)");
  write_version = static_cast<std::uint16_t>(get_le(b.data() + 8, 2));
  read_version = static_cast<std::uint16_t>(get_le(b.data() + 10, 2));
  if (read_version > kWriteVersion)
    return unsupported("archive needs a reader of version " + std::to_string(read_version) + "; this one reads version " +
                       std::to_string(kWriteVersion));
  if (get_le(b.data() + 12, 4) != 0) return corruption("file header: reserved flag bits set (offset 12)");
  if (get_le(b.data() + 16, 8) != 0 || get_le(b.data() + 24, 4) != 0)
    return corruption("file header: reserved bytes not zero (offset 16)");
  return {};
}

// ---- tags --------------------------------------------------------------------------------------

void date_range(std::string_view d, std::uint32_t& lo, std::uint32_t& hi) {
  // Each of year (4), month (2), day (2) digits; unknown ("??" or missing) parts widen the range.
  auto part = [&](std::size_t pos, std::size_t len, std::uint32_t min, std::uint32_t max, std::uint32_t& a, std::uint32_t& b) {
    if (pos + len > d.size()) {
      a = min;
      b = max;
      return false;
    }
    std::uint32_t v = 0;
    for (std::size_t i = pos; i < pos + len; ++i) {
      if (d[i] < '0' || d[i] > '9') {
        a = min;
        b = max;
        return false;
      }
      v = v * 10 + static_cast<std::uint32_t>(d[i] - '0');
    }
    a = b = v;
    return true;
  };
  std::uint32_t y0, y1, m0, m1, d0, d1;
  if (!part(0, 4, 0, 9999, y0, y1)) {
    lo = 0;
    hi = 99999999;
    return;
  }
  if (!part(5, 2, 0, 99, m0, m1)) {
    d0 = 0;
    d1 = 99;
  } else {
    part(8, 2, 0, 99, d0, d1);
  }
  lo = (y0 * 100 + m0) * 100 + d0;
  hi = (y1 * 100 + m1) * 100 + d1;
}

std::uint8_t result_bit(const std::string* r) {
  if (!r) return 16;
  if (*r == "1-0") return 1;
  if (*r == "0-1") return 2;
  if (*r == "1/2-1/2") return 4;
  if (*r == "*") return 8;
  return 16;
}

void BlockBuilder::end_game(const std::vector<Tag>& t) {
  tags.push_back(t);
  ++games;
  const std::string* stream[4] = {&streams.moves, &streams.structure, &streams.texts, &streams.raw};
  for (int i = 0; i < 4; ++i) game_end[i].push_back(static_cast<std::uint32_t>(stream[i]->size()));
  const std::string* date = nullptr;
  const std::string* result = nullptr;
  for (const Tag& tag : t) {
    if (tag.key == "Date" && !date) date = &tag.value;
    if (tag.key == "Result" && !result) result = &tag.value;
  }
  std::uint32_t lo = 0, hi = 99999999;
  if (date) date_range(*date, lo, hi);
  summary.date_min = std::min(summary.date_min, lo);
  summary.date_max = std::max(summary.date_max, hi);
  summary.results |= result_bit(result);
}

namespace {

// Parts 1 and 2 of a tags section (both layouts): the key table, then per game the keys used.
std::vector<std::string> key_lists(const std::vector<std::vector<Tag>>& games,
                                   std::unordered_map<std::string_view, std::uint32_t>& key_id, std::string& out) {
  std::vector<std::string> keys;
  std::string per_game;
  for (const auto& g : games) {
    put_varint(per_game, g.size());
    for (const Tag& t : g) {
      auto [it, fresh] = key_id.try_emplace(t.key, static_cast<std::uint32_t>(keys.size()));
      if (fresh) keys.push_back(t.key);
      put_varint(per_game, it->second);
    }
  }
  put_varint(out, keys.size());
  for (const std::string& k : keys) {
    put_prefixed(out, k);
  }
  out += per_game;
  return keys;
}

// Layout 1 (format version 3, spec 9.4.2): each column is a dictionary of its distinct values
// in order of first use, then one fixed-width reference per tag, so that one game's values are
// found without reading the other games' (references to a first use count the first uses before
// them: a pass over at most one byte per tag of the column).
std::string encode_tags(const std::vector<std::vector<Tag>>& games) {
  std::unordered_map<std::string_view, std::uint32_t> key_id;  // views of `games`' keys
  std::string out;
  const std::vector<std::string> keys = key_lists(games, key_id, out);
  std::vector<std::vector<const std::string*>> columns(keys.size());
  for (const auto& g : games)
    for (const Tag& t : g) columns[key_id.find(t.key)->second].push_back(&t.value);
  std::unordered_map<std::string_view, std::uint32_t> seen;
  std::vector<std::uint32_t> refs;
  std::string dictionary;
  for (const auto& col : columns) {
    seen.clear();
    seen.reserve(col.size());
    refs.clear();
    dictionary.clear();
    // A reference is 0 for a value's first use (it enters the dictionary), else 1 + the
    // value's place in the dictionary.
    for (const std::string* v : col) {
      auto [it, fresh] = seen.try_emplace(*v, static_cast<std::uint32_t>(seen.size()));
      if (fresh) {
        put_prefixed(dictionary, *v);
      }
      refs.push_back(fresh ? 0 : it->second + 1);
    }
    put_varint(out, seen.size());
    put_prefixed(out, dictionary);
    // In byte planes: every reference's low byte, then every second byte, and so on.
    const int width = tag_ref_width(seen.size());
    for (int plane = 0; plane < width; ++plane)
      for (std::uint32_t r : refs) out += static_cast<char>(r >> (8 * plane));
  }
  return out;
}

// Parts 1 and 2 of a tags section: the key table, then each game's keys; calls on_tag(game,
// key) for every tag in order and counts each key's tags into column_size.
template <typename OnTag>
Status read_key_lists(ByteCursor& r, std::uint32_t games, const std::string& where, std::vector<std::string_view>& keys,
                      std::vector<std::uint32_t>& column_size, OnTag&& on_tag) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t n_keys;
  if (!r.varint(n_keys) || n_keys > r.remaining()) return bad("bad key count");
  keys.resize(n_keys);
  for (auto& k : keys) {
    if (!r.prefixed(k)) return bad("key runs past the end");
  }
  column_size.assign(n_keys, 0);
  for (std::uint32_t g = 0; g < games; ++g) {
    std::uint64_t n;
    if (!r.varint(n) || n > r.remaining()) return bad("bad tag count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t id;
      if (!r.varint(id) || id >= n_keys) return bad("bad key index");
      on_tag(g, static_cast<std::uint32_t>(id));
      ++column_size[id];
    }
  }
  return {};
}

// Reference `e` of `count` references stored in `width` byte planes (low bytes first). A column
// of one value stores none (width 0): its first tag is that value's first use (0), the others
// repeat it (1).
std::uint64_t plane_ref(std::string_view refs, std::uint32_t count, std::uint32_t e, int width) {
  if (width == 0) return e != 0;
  std::uint64_t v = 0;
  for (int plane = width; plane-- > 0;)
    v = v << 8 | static_cast<std::uint8_t>(refs[static_cast<std::size_t>(plane) * count + e]);
  return v;
}

// A layout 1 column's header and dictionary: the number of distinct values and the dictionary's
// bytes (not yet split into values), checked against the column's tag count.
Status read_dictionary(ByteCursor& r, std::uint32_t tags, const std::string& where, std::uint64_t& distinct,
                       std::string_view& dictionary) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  std::uint64_t bytes;
  if (!r.varint(distinct) || distinct == 0 || distinct > tags) return bad("bad distinct value count");
  if (!r.varint(bytes) || !r.bytes(bytes, dictionary)) return bad("dictionary runs past the end");
  return {};
}

// The one walk over a whole tags section, with every check, for both decoders below (and both
// layouts). It reads the key table; calls on_tag(game, key) for each game's tag keys in order;
// calls on_columns(column_size) once every game's keys are read; then calls on_value(key, rank,
// value) for every value, column after column (rank: the value's place in its column).
// `distinct` is scratch space.
template <typename OnTag, typename OnColumns, typename OnValue>
Status walk_tags(std::string_view in, std::uint32_t games, std::uint8_t layout, const std::string& where,
                 std::vector<std::string_view>& keys, std::vector<std::uint32_t>& column_size,
                 std::vector<std::string_view>& distinct, OnTag&& on_tag, OnColumns&& on_columns,
                 OnValue&& on_value) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  ByteCursor r(in);
  if (auto st = read_key_lists(r, games, where, keys, column_size, on_tag); !st) return st;
  on_columns(column_size);
  for (std::uint32_t k = 0; k < keys.size(); ++k) {
    distinct.clear();
    if (layout == kBlockLayout0) {
      for (std::uint32_t e = 0; e < column_size[k]; ++e) {
        std::uint64_t ref;
        std::string_view v;
        if (!r.varint(ref)) return bad("value runs past the end");
        if (ref == 0) {
          if (!r.prefixed(v)) return bad("value runs past the end");
          distinct.push_back(v);
        } else {
          if (ref > distinct.size()) return bad("reference to a value not seen");
          v = distinct[ref - 1];
        }
        on_value(k, e, v);
      }
      continue;
    }
    std::uint64_t n_distinct;
    std::string_view dictionary;
    if (auto st = read_dictionary(r, column_size[k], where, n_distinct, dictionary); !st) return st;
    ByteCursor d(dictionary);
    for (std::uint64_t i = 0; i < n_distinct; ++i) {
      std::string_view v;
      if (!d.prefixed(v)) return bad("dictionary value runs past its dictionary");
      distinct.push_back(v);
    }
    if (d.remaining() != 0) return bad("bytes left over in a dictionary");
    const int width = tag_ref_width(n_distinct);
    std::string_view refs;
    if (!r.bytes(std::uint64_t{column_size[k]} * width, refs)) return bad("references run past the end");
    // A first use (0) takes the next dictionary value; a repeat (r > 0) names one already used.
    std::uint64_t used = 0;
    for (std::uint32_t e = 0; e < column_size[k]; ++e) {
      const std::uint64_t ref = plane_ref(refs, column_size[k], e, width);
      if (ref == 0 ? used >= n_distinct : ref > used) return bad("reference to a value not in the dictionary");
      on_value(k, e, distinct[ref == 0 ? used++ : ref - 1]);
    }
    if (used != n_distinct) return bad("dictionary value never used");
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

// One game's tags from a layout 1 section: the key lists are read whole (they give each
// column's length), then each column the game uses is entered by its dictionary and one
// reference; the other columns are stepped over.
Status game_tags_dictionary(std::string_view in, std::uint32_t games, std::uint32_t game, const std::string& where,
                            std::vector<Tag>& out) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  struct Want {
    std::uint32_t key, rank;
  };
  std::vector<Want> want;  // in the game's tag order
  std::vector<std::string_view> keys;
  std::vector<std::uint32_t> column_size;
  ByteCursor r(in);
  if (auto st = read_key_lists(r, games, where, keys, column_size,
                               [&](std::uint32_t g, std::uint32_t key) {
                                 if (g == game) want.push_back(Want{key, column_size[key]});
                               });
      !st)
    return st;
  out.assign(want.size(), Tag{});
  for (std::uint32_t k = 0; k < keys.size(); ++k) {
    std::uint64_t n_distinct;
    std::string_view dictionary, refs;
    if (auto st = read_dictionary(r, column_size[k], where, n_distinct, dictionary); !st) return st;
    const int width = tag_ref_width(n_distinct);
    if (!r.bytes(std::uint64_t{column_size[k]} * width, refs)) return bad("references run past the end");
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (want[i].key != k) continue;
      const std::uint32_t rank = want[i].rank;
      std::uint64_t ref = plane_ref(refs, column_size[k], rank, width);
      if (ref == 0) {  // a first use: its value is the next after those first used before it
        for (std::uint32_t e = 0; e < rank; ++e) ref += plane_ref(refs, column_size[k], e, width) == 0;
      } else {
        --ref;
      }
      if (ref >= n_distinct) return bad("reference to a value not in the dictionary");
      ByteCursor d(dictionary);
      std::string_view v;
      for (std::uint64_t j = 0; j <= ref; ++j) {
        if (!d.prefixed(v)) return bad("dictionary value runs past its dictionary");
      }
      out[i] = Tag{std::string(keys[k]), std::string(v)};
    }
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

}  // namespace

Status decode_tags(std::string_view in, std::uint32_t games, std::uint8_t layout, const std::string& where,
                   DecodedBlock& out) {
  // Scratch arrays live in `out` so that a reader decoding block after block does not
  // reallocate them.
  auto& key_of = out.scratch_key_of;  // key index of each tag view
  auto& column_start = out.scratch_column_start;
  auto& slots = out.scratch_slots;
  key_of.clear();
  out.tag_views.clear();
  out.tag_start.assign(1, 0);
  std::vector<std::string_view> keys;
  std::uint32_t current_game = 0;
  return walk_tags(
      in, games, layout, where, keys, out.scratch_column_size, out.scratch_distinct,
      [&](std::uint32_t game, std::uint32_t key) {
        for (; current_game < game; ++current_game) out.tag_start.push_back(static_cast<std::uint32_t>(out.tag_views.size()));
        out.tag_views.push_back(TagView{keys[key], {}});
        key_of.push_back(key);
      },
      [&](const std::vector<std::uint32_t>& column_size) {
        for (; current_game < games; ++current_game) out.tag_start.push_back(static_cast<std::uint32_t>(out.tag_views.size()));
        // Where each column's values go: the tags with that key, in order (a counting sort).
        column_start.assign(column_size.size() + 1, 0);
        for (std::size_t k = 0; k < column_size.size(); ++k) column_start[k + 1] = column_start[k] + column_size[k];
        slots.resize(key_of.size());
        auto& fill = out.scratch_fill;
        fill.assign(column_start.begin(), column_start.end() - 1);
        for (std::uint32_t i = 0; i < key_of.size(); ++i) slots[fill[key_of[i]]++] = i;
      },
      [&](std::uint32_t key, std::uint32_t rank, std::string_view value) {
        out.tag_views[slots[column_start[key] + rank]].value = value;
      });
}

// One game's tags. Layout 0: the same walk over the section as decode_tags (so the same checks),
// without writing the other games' tags anywhere.
Status decode_game_tags(std::string_view in, std::uint32_t games, std::uint32_t game, std::uint8_t layout,
                        const std::string& where, std::vector<Tag>& out) {
  if (layout == kBlockLayout1) return game_tags_dictionary(in, games, game, where, out);
  // The wanted game's tags as (key, rank in that key's column, position among its tags).
  struct Want {
    std::uint32_t key, rank, position;
  };
  std::vector<Want> want;
  std::vector<std::string_view> keys, distinct;
  std::vector<std::uint32_t> column_size;  // the walker's count so far: the rank of the next tag
  std::size_t next = 0;
  return walk_tags(
      in, games, layout, where, keys, column_size, distinct,
      [&](std::uint32_t g, std::uint32_t key) {
        if (g == game) want.push_back(Want{key, column_size[key], static_cast<std::uint32_t>(want.size())});
      },
      [&](const std::vector<std::uint32_t>&) {
        std::sort(want.begin(), want.end(),
                  [](const Want& a, const Want& b) { return a.key != b.key ? a.key < b.key : a.rank < b.rank; });
        out.assign(want.size(), Tag{});
      },
      [&](std::uint32_t key, std::uint32_t rank, std::string_view value) {
        if (next < want.size() && want[next].key == key && want[next].rank == rank) {
          out[want[next].position] = Tag{std::string(keys[key]), std::string(value)};
          ++next;
        }
      });
}

// ---- blocks ------------------------------------------------------------------------------------

std::uint32_t BlockBuilder::directory_step(const WriterOptions& options) const {
  constexpr std::uint64_t kStep = 16;
  const std::uint64_t big = std::max(streams.texts.size(), streams.raw.size());
  if (!options.compress || options.frame_bytes == 0 || big <= 2 * options.frame_bytes) return kStep;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(games * options.frame_bytes / big, 1, kStep));
}

namespace {

// `plain` as one zstd frame, at `level` or with the digested dictionary `cdict` (a ZSTD_CDict,
// whose level it carries). One compression context per thread, reused (the same bytes as
// ZSTD_compress and ZSTD_compress_usingCDict).
std::string compress_with(std::string_view plain, int level, const void* cdict) {
  struct Context {
    ZSTD_CCtx* p = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(p); }
  };
  static thread_local Context context;
  std::string packed(ZSTD_compressBound(plain.size()), '\0');
  const std::size_t n =
      cdict ? ZSTD_compress_usingCDict(context.p, packed.data(), packed.size(), plain.data(), plain.size(),
                                       static_cast<const ZSTD_CDict*>(cdict))
            : ZSTD_compressCCtx(context.p, packed.data(), packed.size(), plain.data(), plain.size(), level);
  if (ZSTD_isError(n)) return {};
  packed.resize(n);
  return packed;
}

}  // namespace

std::string compress_frame(std::string_view plain, int level) { return compress_with(plain, level, nullptr); }

std::string BlockBuilder::tags_section() const { return encode_tags(tags); }

std::string BlockBuilder::finish(const WriterOptions& options, const WriterDictionary* dict) const {
  // The game directory (9.3.1): games per group, then per stream one varint per group (the
  // bytes the group's games take), then the structure stream.
  const std::uint32_t step = directory_step(options);
  const std::uint32_t groups = (games + step - 1) / step;
  // Where group k starts and ends in stream i.
  const auto group_from = [&](int i, std::uint32_t k) { return k ? game_end[i][k * step - 1] : 0u; };
  const auto group_to = [&](int i, std::uint32_t k) { return game_end[i][std::min(games, (k + 1) * step) - 1]; };
  std::string structure;
  put_varint(structure, step);
  for (int i = 0; i < 4; ++i)
    for (std::uint32_t k = 0; k < groups; ++k) put_varint(structure, group_to(i, k) - group_from(i, k));
  structure += streams.structure;
  const std::string tags_plain = encode_tags(tags);
  const std::string_view plain[kSections] = {tags_plain, streams.moves, structure, streams.texts, streams.raw};
  std::string table, data;
  for (int s = 0; s < kSections; ++s) {
    const std::string_view raw = plain[s];
    std::uint8_t encoding = kStored;
    std::string packed;
    if (options.compress && !raw.empty()) {
      // Texts and verbatim games also in their column form (9.3.2), kept where every entry
      // allows it and it compresses smaller.
      std::string whole_form;
      const bool columns = (s == kTexts || s == kRaw) && options.text_columns && texts_to_columns(raw, whole_form);
      // The section as frames of `parts` (the whole, or one per group), of the stream's bytes or
      // of their column form; empty if zstd failed.
      const auto frames = [&](bool column_form, bool by_group) {
        std::string out, form;
        for (std::uint32_t k = 0, parts = by_group ? groups : 1; k < parts; ++k) {
          const std::uint32_t from = by_group ? group_from(s - 1, k) : 0;
          std::string_view bytes = by_group ? raw.substr(from, group_to(s - 1, k) - from) : raw;
          if (column_form && !by_group) {
            bytes = whole_form;
          } else if (column_form) {
            form.clear();
            texts_to_columns(bytes, form);
            bytes = form;
          }
          const std::string frame = compress_frame(bytes, options.zstd_level);
          if (frame.empty()) return std::string();
          out += frame;
        }
        return out;
      };
      if (s == kTags && dict) {
        packed = dict->compress(raw);
        if (!packed.empty()) encoding = kZstdDictionary;
      } else {
        // Texts and raw games larger than two frames go one frame per group (9.3), others in one.
        const bool by_group =
            (s == kTexts || s == kRaw) && options.frame_bytes && raw.size() > 2 * options.frame_bytes && groups > 1;
        packed = frames(false, by_group);
        if (!packed.empty()) encoding = by_group ? kZstdByGroup : kZstd;
        if (columns) {
          std::string in_columns = frames(true, by_group);
          if (!in_columns.empty() && (packed.empty() || in_columns.size() < packed.size())) {
            packed = std::move(in_columns);
            encoding = by_group ? kZstdColumnsByGroup : kZstdColumns;
          }
        }
      }
      if (encoding != kStored && packed.size() >= raw.size()) encoding = kStored;
    }
    const std::string_view stored = encoding == kStored ? raw : std::string_view(packed);
    table += static_cast<char>(s);
    table += static_cast<char>(encoding);
    put_le(table, 0, 2);
    put_le(table, stored.size(), 4);
    put_le(table, raw.size(), 4);
    data += stored;
  }
  std::string block(kBlockMagic, 4);
  block += static_cast<char>(kMoveCodec);
  block += static_cast<char>(kSections);
  block += static_cast<char>(kBlockLayout1);
  block += '\0';
  put_le(block, games, 4);
  block += table;
  block += data;
  put_le(block, hash64(block), 8);
  return block;
}

namespace {

Status parse_block_header(std::string_view b, const std::string& where, std::uint32_t& games, std::uint8_t& codec,
                          std::uint8_t& layout, std::uint8_t encodings[kSections], std::uint32_t stored[kSections], std::uint32_t raw[kSections]) {
  auto bad = [&](const std::string& what, std::size_t at) {
    return corruption(where + ": " + what + " (block byte " + std::to_string(at) + ")");
  };
  const std::size_t min = kBlockHeaderSize + kSections * kSectionEntrySize + 8;
  if (b.size() < min) return bad("block shorter than its header", 0);
  if (get_le(b.data() + b.size() - 8, 8) != hash64(b.substr(0, b.size() - 8)))
    return bad("checksum mismatch", b.size() - 8);
  if (std::memcmp(b.data(), kBlockMagic, 4) != 0) return bad("bad block magic", 0);
  codec = static_cast<std::uint8_t>(b[4]);
  if (codec != kMoveCodec)
    return unsupported(where + ": unknown move codec " + std::to_string(codec));
  if (static_cast<std::uint8_t>(b[5]) != kSections) return bad("section count is not 5", 5);
  layout = static_cast<std::uint8_t>(b[6]);
  if (layout > kBlockLayout1) return unsupported(where + ": unknown block layout " + std::to_string(layout));
  if (b[7] != 0) return bad("reserved byte not zero", 7);
  games = static_cast<std::uint32_t>(get_le(b.data() + 8, 4));
  if (games == 0 || games > kMaxBlockGames) return bad("game count out of range", 8);
  std::uint64_t total = 0;
  for (int s = 0; s < kSections; ++s) {
    const char* e = b.data() + kBlockHeaderSize + s * kSectionEntrySize;
    const std::size_t at = kBlockHeaderSize + static_cast<std::size_t>(s) * kSectionEntrySize;
    if (static_cast<std::uint8_t>(e[0]) != s) return bad("sections out of order", at);
    encodings[s] = static_cast<std::uint8_t>(e[1]);
    // One frame per group: texts and raw sections of layout 1 only (they have a directory column).
    // A dictionary: tags sections only (of layout 1, the only layout written with format 8).
    // Column forms (format 11): texts and raw sections of layout 1 only.
    if (encodings[s] > kZstdColumnsByGroup || (encodings[s] == kZstdByGroup && (layout != kBlockLayout1 || s < kTexts)) ||
        (encodings[s] == kZstdDictionary && (layout != kBlockLayout1 || s != kTags)) ||
        (encodings[s] >= kZstdColumns && (layout != kBlockLayout1 || s < kTexts)))
      return bad("unknown section encoding", at + 1);
    if (get_le(e + 2, 2) != 0) return bad("reserved bytes not zero", at + 2);
    stored[s] = static_cast<std::uint32_t>(get_le(e + 4, 4));
    raw[s] = static_cast<std::uint32_t>(get_le(e + 8, 4));
    if (raw[s] > kMaxSectionBytes) return bad("section larger than the limit", at + 8);
    if (encodings[s] == kStored && stored[s] != raw[s]) return bad("stored section sizes differ", at + 4);
    total += stored[s];
  }
  if (total != b.size() - min) return bad("section sizes do not add up to the block size", kBlockHeaderSize);
  return {};
}

}  // namespace

namespace {

// The thread's decompression context (freed when the thread ends), ready for a new frame with
// the digested dictionary `ddict` (a ZSTD_DDict) or none: a context keeps the last dictionary
// it was given, so every use says which.
ZSTD_DCtx* thread_dctx(const void* ddict = nullptr) {
  struct Context {
    ZSTD_DCtx* p = ZSTD_createDCtx();
    ~Context() { ZSTD_freeDCtx(p); }
  };
  static thread_local Context context;
  ZSTD_DCtx_reset(context.p, ZSTD_reset_session_only);
  ZSTD_DCtx_refDDict(context.p, static_cast<const ZSTD_DDict*>(ddict));
  return context.p;
}

}  // namespace

// Decompresses one zstd frame that must give exactly `size` bytes, with the digested dictionary
// `ddict` (a ZSTD_DDict) or none. The buffer grows only as output is produced, so a size field
// that lies costs no memory beyond what the frame yields.
bool decompress(std::string_view in, std::uint32_t size, std::string& out, const void* ddict = nullptr) {
  ZSTD_DCtx* dctx = thread_dctx(ddict);
  out.clear();
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  std::size_t have = 0, ret = 1;
  while (ret != 0) {
    if (have == out.size()) {
      if (have == size) {  // full: the frame must end here
        char probe;
        ZSTD_outBuffer o{&probe, 1, 0};
        ret = ZSTD_decompressStream(dctx, &o, &input);
        if (ZSTD_isError(ret) || o.pos != 0) return false;
        if (ret != 0 && input.pos == input.size) return false;
        continue;
      }
      out.resize(std::min<std::size_t>(size, std::max<std::size_t>(64 * 1024, 2 * have)));
    }
    ZSTD_outBuffer o{out.data() + have, out.size() - have, 0};
    ret = ZSTD_decompressStream(dctx, &o, &input);
    if (ZSTD_isError(ret)) return false;
    have += o.pos;
    if (ret != 0 && o.pos == 0 && input.pos == input.size) return false;  // truncated frame
  }
  if (have != size || input.pos != input.size) return false;
  out.resize(have);
  return true;
}

namespace {

// Layout 1: the game directory at the start of the structure section (9.3.1), parsed into group
// start offsets, with the check that each stream's column adds up to the stream's size.
// `raw`: the sections' sizes from the block's table (group-framed sections are not decoded yet).
Status parse_directory(const std::string& where, const std::uint32_t raw[kSections], DecodedBlock& out) {
  out.directory_bytes = 0;
  out.directory_step = 0;
  for (auto& g : out.group_start) g.clear();
  if (out.layout == kBlockLayout0) return {};
  auto bad = [&](const char* what) { return corruption(where + ": game directory: " + what); };
  ByteCursor r(out.sections[kStructure]);
  std::uint64_t step;
  if (!r.varint(step) || step == 0 || step > kMaxBlockGames) return bad("bad games per entry");
  out.directory_step = static_cast<std::uint32_t>(step);
  const std::uint32_t groups = static_cast<std::uint32_t>((out.games + step - 1) / step);
  if (4ull * groups > r.remaining()) return bad("runs past the end of the structure section");
  for (auto& col : out.group_start) {
    col.resize(groups + 1);
    std::uint64_t sum = 0;
    for (std::uint32_t k = 0; k < groups; ++k) {
      std::uint64_t v;
      col[k] = static_cast<std::uint32_t>(sum);
      if (!r.varint(v) || v > kMaxSectionBytes) return bad("runs past the end of the structure section");
      sum += v;
      if (sum > kMaxSectionBytes) return bad("entries add up to more than a section holds");
    }
    col[groups] = static_cast<std::uint32_t>(sum);
  }
  out.directory_bytes = out.sections[kStructure].size() - r.remaining();
  const std::size_t sizes[4] = {out.sections[kMoves].size(), r.remaining(), raw[kTexts], raw[kRaw]};
  for (int i = 0; i < 4; ++i)
    if (out.group_start[i].back() != sizes[i]) return bad("a stream's entries do not add up to its size");
  return {};
}

}  // namespace

CodecCursor group_cursor(const DecodedBlock& block, std::uint32_t k, bool bounded) {
  auto from = [&](int i, std::string_view stream) {
    const std::uint32_t start = block.group_start[i][k];
    return bounded ? stream.substr(start, block.group_start[i][k + 1] - start) : stream.substr(start);
  };
  return CodecCursor{from(0, block.sections[kMoves]), from(1, block.structure_stream()), from(2, block.sections[kTexts]),
                     from(3, block.sections[kRaw])};
}

Status check_group_end(const DecodedBlock& block, std::uint32_t j, const CodecCursor& c, const std::string& where) {
  if (block.layout == kBlockLayout0 || ((j + 1) % block.directory_step != 0 && j + 1 != block.games)) return {};
  // Where the games stopped reading, against where the next group starts (or the streams end).
  const std::uint32_t next = (j + block.directory_step) / block.directory_step;
  const std::string_view base[4] = {block.sections[kMoves], block.structure_stream(), block.sections[kTexts],
                                    block.sections[kRaw]};
  const std::string_view at[4] = {c.moves, c.structure, c.texts, c.raw};
  for (int i = 0; i < 4; ++i)
    if (at[i].data() != base[i].data() + block.group_start[i][next])
      return corruption(where + ": game directory: the games up to game " + std::to_string(j + 1) +
                        " of the block do not end where their entry says");
  return {};
}

Status read_block_sizes(std::string_view b, const std::string& where, std::uint32_t& games,
                        std::uint32_t stored[kSections], std::uint32_t raw[kSections], std::uint8_t* encodings) {
  std::uint8_t codec, layout, enc[kSections];
  auto st = parse_block_header(b, where, games, codec, layout, enc, stored, raw);
  if (encodings) std::copy(enc, enc + kSections, encodings);
  return st;
}

namespace {

// A section of encoding kZstdByGroup (9.3): one Zstandard frame per directory group, each
// declaring the size its group takes in the stream (`column`: group start offsets), nothing
// after the last. Records where each frame starts in block.frame_start[s].
Status walk_frames(DecodedBlock& block, int s, std::size_t block_pos, const std::string& where) {
  const std::string_view in = block.stored_bytes[s];
  std::vector<std::uint32_t>& frame_start = block.frame_start[s];
  const std::vector<std::uint32_t>& column = block.group_start[s - 1];
  auto bad = [&](const std::string& what, std::size_t at) {
    return corruption(where + ": section " + std::to_string(s) + ": " + what + " (block byte " +
                      std::to_string(block_pos + at) + ")");
  };
  frame_start.clear();
  std::size_t pos = 0;
  for (std::size_t k = 0; k + 1 < column.size(); ++k) {
    frame_start.push_back(static_cast<std::uint32_t>(pos));
    const std::string_view rest = in.substr(pos);
    if (rest.size() < 4 || get_le(rest.data(), 4) != ZSTD_MAGICNUMBER)
      return bad("group " + std::to_string(k) + " has no Zstandard frame", pos);
    const std::size_t n = ZSTD_findFrameCompressedSize(rest.data(), rest.size());
    if (ZSTD_isError(n)) return bad("group " + std::to_string(k) + "'s frame is damaged", pos);
    const unsigned long long content = ZSTD_getFrameContentSize(rest.data(), n), size = column[k + 1] - column[k];
    if (block.encoding[s] == kZstdColumnsByGroup ? content > max_columns_size(size) : content != size)
      return bad("group " + std::to_string(k) + "'s frame does not declare the size the directory gives", pos);
    pos += n;
  }
  frame_start.push_back(static_cast<std::uint32_t>(pos));
  if (pos != in.size()) return bad("bytes after the last group's frame", pos);
  return {};
}

// The texts stream of `size` bytes appended to `out` from `frame`, a zstd frame of its column
// form (9.3.2) that declares its size (checked by the caller, or here: up to the form's bound).
Status texts_from_columns(std::string_view frame, std::size_t size, std::string& out, const std::string& what) {
  static thread_local std::string form;
  const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (declared > max_columns_size(size) || !decompress(frame, static_cast<std::uint32_t>(declared), form))
    return corruption(what + " does not decompress to its declared size");
  if (const char* why = columns_to_texts(form, size, out)) return corruption(what + ": column form: " + why);
  return {};
}

// Decompresses frame k of group-framed section s into its place in the section.
Status decompress_group(DecodedBlock& block, int s, std::uint32_t k, const std::string& where) {
  const std::uint32_t from = block.frame_start[s][k], to = block.frame_start[s][k + 1];
  const std::uint32_t at = block.group_start[s - 1][k], size = block.group_start[s - 1][k + 1] - at;
  const std::string_view frame = block.stored_bytes[s].substr(from, to - from);
  const std::string what = where + ": section " + std::to_string(s) + ": group " + std::to_string(k) + "'s frame";
  if (block.encoding[s] == kZstdColumnsByGroup) {
    static thread_local std::string texts;
    texts.clear();
    if (auto st = texts_from_columns(frame, size, texts, what); !st) return st;
    std::copy(texts.begin(), texts.end(), block.sections[s].begin() + at);
    return {};
  }
  const std::size_t n = ZSTD_decompressDCtx(thread_dctx(), block.sections[s].data() + at, size, frame.data(), frame.size());
  if (ZSTD_isError(n) || n != size) return corruption(what + " does not decompress to its size");
  return {};
}

}  // namespace

Status decode_block(std::string_view b, const std::string& where, DecodedBlock& out, BlockParts parts) {
  std::uint32_t raw[kSections];
  if (auto st = parse_block_header(b, where, out.games, out.codec, out.layout, out.encoding, out.stored, raw); !st)
    return st;
  std::size_t pos = kBlockHeaderSize + kSections * kSectionEntrySize;
  std::size_t section_pos[kSections];
  for (int s = 0; s < kSections; ++s) {
    const std::string_view stored = b.substr(pos, out.stored[s]);
    out.stored_bytes[s] = stored;
    out.frame_start[s].clear();
    out.frame_done[s].clear();
    section_pos[s] = pos;
    pos += out.stored[s];
    if (parts == BlockParts::kTagsOnly && s != kTags) {
      out.sections[s].clear();
      continue;
    }
    const void* ddict = nullptr;
    if (out.encoding[s] == kZstdDictionary) {
      // The frame must name a dictionary of the archive (BLOCK-5).
      const unsigned id = ZSTD_getDictID_fromFrame(stored.data(), stored.size());
      ddict = id && out.dictionaries ? out.dictionaries->find(id) : nullptr;
      if (!ddict)
        return corruption(where + ": section " + std::to_string(s) + " names tag dictionary " + std::to_string(id) +
                          ", which the archive does not hold (block byte " + std::to_string(section_pos[s]) + ")");
    }
    if (out.encoding[s] == kStored) {
      out.sections[s].assign(stored);
    } else if (by_group(out.encoding[s])) {
      out.sections[s].clear();  // filled group by group once the directory is known
    } else if (out.encoding[s] == kZstdColumns) {
      out.sections[s].clear();
      if (auto st = texts_from_columns(stored, raw[s], out.sections[s],
                                       where + ": section " + std::to_string(s) + " (block byte " +
                                           std::to_string(section_pos[s]) + ")");
          !st)
        return st;
    } else if (!decompress(stored, raw[s], out.sections[s], ddict)) {
      return corruption(where + ": section " + std::to_string(s) + " does not decompress to its size (block byte " +
                        std::to_string(section_pos[s]) + ")");
    }
  }
  if (parts == BlockParts::kTagsOnly) {
    out.directory_bytes = 0;
    out.directory_step = 0;
    for (auto& g : out.group_start) g.clear();
    return decode_tags(out.sections[kTags], out.games, out.layout, where, out);
  }
  if (auto st = parse_directory(where, raw, out); !st) return st;
  for (int s = kTexts; s < kSections; ++s) {
    if (!by_group(out.encoding[s])) continue;
    if (auto st = walk_frames(out, s, section_pos[s], where); !st) return st;
    const auto groups = static_cast<std::uint32_t>(out.frame_start[s].size() - 1);
    if (parts == BlockParts::kLazyGroups) {
      out.sections[s].assign(raw[s], '\0');
      out.frame_done[s].assign(groups, false);
      continue;
    }
    // The section grows only as frames give their bytes (a declared size that lies costs no
    // memory beyond what the frames before it yielded).
    for (std::uint32_t k = 0; k < groups; ++k) {
      out.sections[s].resize(out.group_start[s - 1][k + 1]);
      if (auto st = decompress_group(out, s, k, where); !st) return st;
    }
  }
  if (parts == BlockParts::kAll) return decode_tags(out.sections[kTags], out.games, out.layout, where, out);
  return {};
}

Status group_ready(DecodedBlock& block, std::uint32_t k, const std::string& where) {
  for (int s = kTexts; s < kSections; ++s) {
    if (block.frame_done[s].empty() || block.frame_done[s][k]) continue;
    if (auto st = decompress_group(block, s, k, where); !st) return st;
    block.frame_done[s][k] = true;
  }
  return {};
}

// ---- tag dictionaries (9.9) ---------------------------------------------------------------------

std::shared_ptr<const WriterDictionary> WriterDictionary::make(std::string content, int level) {
  const unsigned id = ZDICT_getDictID(content.data(), content.size());
  if (id == 0 || content.size() > kMaxDictionaryBytes) return nullptr;
  std::shared_ptr<WriterDictionary> d(new WriterDictionary());
  d->id_ = id;
  d->content_ = std::move(content);
  d->cdict_ = ZSTD_createCDict(d->content_.data(), d->content_.size(), level);
  if (!d->cdict_) return nullptr;
  return d;
}

WriterDictionary::~WriterDictionary() { ZSTD_freeCDict(static_cast<ZSTD_CDict*>(cdict_)); }

std::string WriterDictionary::compress(std::string_view plain) const { return compress_with(plain, 0, cdict_); }

std::string train_tag_dictionary(const std::vector<std::string>& sections, std::size_t capacity) {
  constexpr std::size_t kSample = 4096;
  std::string samples;
  std::vector<std::size_t> sizes;
  for (const std::string& sec : sections)
    for (std::size_t at = 0; at < sec.size(); at += kSample) {
      sizes.push_back(std::min(kSample, sec.size() - at));
      samples.append(sec, at, sizes.back());
    }
  std::string dict(capacity, '\0');
  const std::size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(), sizes.data(),
                                              static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(n)) return {};
  dict.resize(n);
  return dict;
}

namespace {

// Elements beside the blocks share a form (9.9, 9.10): a magic and the element's own fields,
// among them an encoding byte and reserved bytes, then the stored size and the raw size (4 bytes
// each), the content as stored, and XXH64 of every byte before. An element kind is where those
// fields sit and how large its content may be.
struct ElementShape {
  const char* magic;
  const char* name;  // in errors: "dictionary", "name chunk"
  std::size_t header_size, encoding_at, reserved_at, reserved_bytes, stored_size_at;
  std::uint32_t max_raw;
  bool dictionary_encoding;  // encoding 3 (zstd with one of the archive's tag dictionaries) allowed
};
constexpr ElementShape kDictionaryShape{kDictionaryMagic, "dictionary", kDictionaryHeaderSize, 8, 9, 3, 12,
                                        kMaxDictionaryBytes, false};
constexpr ElementShape kNameChunkShape{kNameChunkMagic, "name chunk", kNameChunkHeaderSize, 5, 6, 2, 8,
                                       kMaxNameChunkBytes, true};
constexpr ElementShape kTableChunkShape{kTableChunkMagic, "block table chunk", kTableChunkHeaderSize, 4, 5, 3, 8,
                                        kMaxTableChunkBytes, false};

// The element of `shape` whose header starts with `head` (up to its encoding byte, which is
// written here), holding `content`: stored as it is, or compressed (options.compress) where that
// is smaller, with zstd (encoding 1) or, given `dict`, with the archive's tag dictionary
// (encoding 3), the smaller of the two.
std::string make_element(const ElementShape& shape, std::string head, std::string_view content, const WriterOptions& options,
                         const WriterDictionary* dict = nullptr) {
  std::string packed;
  std::uint8_t encoding = kStored;
  if (options.compress) {
    packed = compress_frame(content, options.zstd_level);
    if (!packed.empty() && packed.size() < content.size()) encoding = kZstd;
    if (dict) {
      std::string with = dict->compress(content);
      if (!with.empty() && with.size() < (encoding == kZstd ? packed.size() : content.size())) {
        packed.swap(with);
        encoding = kZstdDictionary;
      }
    }
  }
  const std::string_view stored = encoding == kStored ? content : std::string_view(packed);
  head += static_cast<char>(encoding);
  put_le(head, 0, static_cast<int>(shape.reserved_bytes));
  put_le(head, stored.size(), 4);
  put_le(head, content.size(), 4);
  head += stored;
  put_le(head, hash64(head), 8);
  return head;
}

// The size of the element of `shape` at the start of `b`, from its header; 0 if `b` does not
// start with its magic or the sizes run past `b`.
std::size_t element_size(std::string_view b, const ElementShape& shape) {
  if (b.size() < shape.header_size + 8 || std::memcmp(b.data(), shape.magic, 4) != 0) return 0;
  const std::uint64_t total = shape.header_size + get_le(b.data() + shape.stored_size_at, 4) + 8;
  return total <= b.size() ? static_cast<std::size_t>(total) : 0;
}

// Checks the element `b` of `shape` (checksum first, then magic, encoding, reserved bytes and
// sizes) and decodes its content; `dictionaries` (null if none) for encoding 3. The element's
// own fields are its caller's to check.
Status open_element(std::string_view b, const std::string& where, const ElementShape& shape,
                    const ReaderDictionaries* dictionaries, std::string& content) {
  const std::string name = shape.name;
  auto bad = [&](const std::string& what, std::size_t at) {
    return corruption(where + ": " + what + " (" + name + " byte " + std::to_string(at) + ")");
  };
  if (b.size() < shape.header_size + 8) return bad("shorter than a " + name + " element", 0);
  if (get_le(b.data() + b.size() - 8, 8) != hash64(b.substr(0, b.size() - 8))) return bad("checksum mismatch", b.size() - 8);
  if (std::memcmp(b.data(), shape.magic, 4) != 0) return bad("bad " + name + " magic", 0);
  const auto encoding = static_cast<std::uint8_t>(b[shape.encoding_at]);
  if (encoding > kZstd && !(shape.dictionary_encoding && encoding == kZstdDictionary))
    return bad("unknown " + name + " encoding", shape.encoding_at);
  if (get_le(b.data() + shape.reserved_at, static_cast<int>(shape.reserved_bytes)) != 0)
    return bad("reserved bytes not zero", shape.reserved_at);
  const std::uint64_t stored = get_le(b.data() + shape.stored_size_at, 4), raw = get_le(b.data() + shape.stored_size_at + 4, 4);
  if (shape.header_size + stored + 8 != b.size()) return bad("stored size does not match the element's size", shape.stored_size_at);
  if (raw > shape.max_raw || (encoding == kStored && raw != stored)) return bad("bad " + name + " size", shape.stored_size_at + 4);
  const std::string_view body = b.substr(shape.header_size, stored);
  const void* ddict = nullptr;
  if (encoding == kZstdDictionary) {  // the frame names a dictionary of the archive
    const unsigned id = ZSTD_getDictID_fromFrame(body.data(), body.size());
    ddict = id && dictionaries ? dictionaries->find(id) : nullptr;
    if (!ddict) return bad("names tag dictionary " + std::to_string(id) + ", which the archive does not hold", shape.header_size);
  }
  if (encoding == kStored) content.assign(body);
  else if (!decompress(body, static_cast<std::uint32_t>(raw), content, ddict))
    return bad("does not decompress to its size", shape.header_size);
  return {};
}

}  // namespace

std::string encode_dictionary_element(const WriterDictionary& dict, const WriterOptions& options) {
  std::string head(kDictionaryMagic, 4);  // magic, ID; then encoding, 3 reserved bytes
  put_le(head, dict.id(), 4);
  return make_element(kDictionaryShape, std::move(head), dict.content(), options);
}

std::size_t dictionary_element_size(std::string_view b) { return element_size(b, kDictionaryShape); }

Status read_dictionary_element(std::string_view b, const std::string& where, std::uint32_t& id, std::string& content) {
  if (auto st = open_element(b, where, kDictionaryShape, nullptr, content); !st) return st;
  id = static_cast<std::uint32_t>(get_le(b.data() + 4, 4));
  // A Zstandard dictionary (RFC 8878, 5): magic EC30A437, then the ID the element gives.
  if (content.size() < 8 || get_le(content.data(), 4) != 0xEC30A437u || get_le(content.data() + 4, 4) != id || id == 0)
    return corruption(where + ": not a Zstandard dictionary of the element's ID (dictionary byte " +
                      std::to_string(kDictionaryHeaderSize) + ")");
  return {};
}

ReaderDictionaries::~ReaderDictionaries() {
  for (auto& [id, d] : entries_) ZSTD_freeDDict(static_cast<ZSTD_DDict*>(d));
}

Status ReaderDictionaries::add(std::string_view element, const std::string& where, std::uint32_t expected_id,
                               std::string* content_out) {
  std::uint32_t id;
  std::string own;
  std::string& content = content_out ? *content_out : own;
  if (auto st = read_dictionary_element(element, where, id, content); !st) return st;
  if (expected_id && id != expected_id)
    return corruption(where + ": holds dictionary " + std::to_string(id) + ", the index says " + std::to_string(expected_id));
  if (find(id)) return corruption(where + ": a second dictionary with ID " + std::to_string(id));
  ZSTD_DDict* d = ZSTD_createDDict(content.data(), content.size());
  if (!d) return corruption(where + ": the dictionary cannot be loaded");
  entries_.emplace_back(id, d);
  return {};
}

const void* ReaderDictionaries::find(std::uint32_t id) const {
  for (const auto& [i, d] : entries_)
    if (i == id) return d;
  return nullptr;
}

// ---- name chunks (format 9) ----------------------------------------------------------------------

void put_name_entry(std::string& out, std::string_view value, const std::vector<std::uint32_t>& blocks) {
  put_prefixed(out, value);
  put_varint(out, blocks.size());
  std::uint32_t last = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    put_varint(out, i == 0 ? blocks[i] : blocks[i] - last - 1);
    last = blocks[i];
  }
}

const char* read_name_entry(std::string_view& in, std::string_view& value, std::vector<std::uint32_t>& postings,
                            std::uint64_t blocks) {
  ByteReader r(in);
  std::uint64_t n;
  if (!r.prefixed(value) || !r.varint(n) || n > blocks) return "name entry runs past the end";
  postings.resize(n);
  std::uint64_t at = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t d;
    if (!r.varint(d)) return "posting list runs past the end";
    if (d >= blocks || (at += (k == 0 ? 0 : 1) + d) >= blocks) return "posting names a block that does not exist";
    postings[k] = static_cast<std::uint32_t>(at);
  }
  return nullptr;
}

std::string encode_name_chunk(int field, std::uint64_t count, std::string_view entries, const WriterOptions& options,
                              const WriterDictionary* dict) {
  std::string content;
  put_varint(content, count);
  content += entries;
  std::string head(kNameChunkMagic, 4);  // magic, field; then encoding, 2 reserved bytes
  head += static_cast<char>(field);
  return make_element(kNameChunkShape, std::move(head), content, options, dict);
}

std::size_t name_chunk_element_size(std::string_view b) { return element_size(b, kNameChunkShape); }

Status open_name_chunk(std::string_view b, const std::string& where, int field, const ReaderDictionaries* dictionaries,
                       std::string& content) {
  if (auto st = open_element(b, where, kNameChunkShape, dictionaries, content); !st) return st;
  if (static_cast<std::uint8_t>(b[4]) != field)
    return corruption(where + ": holds another field than the index says (name chunk byte 4)");
  return {};
}

Status visit_name_entries(std::string_view content, const std::string& where, const NameChunkEntry& entry,
                          const std::string* next_first, std::uint64_t blocks,
                          const std::function<void(std::string_view, const std::vector<std::uint32_t>&)>& visit) {
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what + " (name chunk entries)"); };
  ByteReader r(content);
  std::uint64_t count;
  if (!r.varint(count) || count != entry.values) return bad("holds another number of values than the index says");
  std::vector<std::uint32_t> postings;
  std::string_view last;
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view v;
    if (const char* why = read_name_entry(content, v, postings, blocks)) return bad(why);
    if (postings.empty()) return bad("name entry " + std::to_string(i) + " has no blocks");
    if (i == 0 ? v != entry.first : !(last < v))
      return bad(i == 0 ? "first value differs from the index" : "values not in ascending order");
    last = v;
    visit(v, postings);
  }
  if (r.remaining() != 0) return bad("bytes left over");
  if (next_first && !(last < *next_first)) return bad("last value not below the next chunk's first");
  return {};
}

Status read_name_chunk(std::string_view b, const std::string& where, int field, const NameChunkEntry& entry,
                       const std::string* next_first, std::uint64_t blocks, std::vector<NameEntry>& out,
                       const ReaderDictionaries* dictionaries) {
  out.clear();
  std::string content;
  if (auto st = open_name_chunk(b, where, field, dictionaries, content); !st) return st;
  return visit_name_entries(content, where, entry, next_first, blocks,
                            [&](std::string_view v, const std::vector<std::uint32_t>& postings) {
                              out.push_back(NameEntry{std::string(v), postings});
                            });
}

// ---- index and footer --------------------------------------------------------------------------

namespace {

// A block's entry as the block table stores it (9.5): offset, size, games, date_min, date_max
// (varints), results (a byte). In a table chunk (9.11) the offset is written as the gap from
// `previous_end` (the end of the chunk's entry before; 0 for its first).
void put_block_entry(std::string& out, const IndexEntry& e, std::uint64_t previous_end = 0) {
  put_varint(out, e.offset - previous_end);
  put_varint(out, e.size);
  put_varint(out, e.games);
  put_varint(out, e.summary.date_min);
  put_varint(out, e.summary.date_max);
  out += static_cast<char>(e.summary.results);
}
// Reads one (first_game is left to the caller); false if it runs past the end, or if its game
// count is 0 or above kMaxBlockGames (`bad_games` then says which).
bool read_block_entry(ByteReader& r, IndexEntry& e, bool& bad_games) {
  std::uint64_t games, dmin, dmax;
  std::uint8_t results;
  bad_games = false;
  if (!r.varint(e.offset) || !r.varint(e.size) || !r.varint(games) || !r.varint(dmin) || !r.varint(dmax) || !r.u8(results))
    return false;
  if (games == 0 || games > kMaxBlockGames) {
    bad_games = true;
    return false;
  }
  e.games = static_cast<std::uint32_t>(games);
  e.summary.date_min = static_cast<std::uint32_t>(std::min<std::uint64_t>(dmin, 99999999));
  e.summary.date_max = static_cast<std::uint32_t>(std::min<std::uint64_t>(dmax, 99999999));
  e.summary.results = results;
  return true;
}

// Checks that the dictionaries and blocks (in order, each given to add()) follow each other from
// the header on without gaps or overlaps, none past `end` (INDEX-1); after close(), offset() is
// where they end.
class LayoutCheck {
 public:
  LayoutCheck(const std::vector<DictionaryEntry>& dictionaries, std::uint64_t end) : dicts_(dictionaries), end_(end) {}
  // Null, or what is wrong.
  const char* add(const IndexEntry& e);
  const char* close();
  // close(), and the blocks and dictionaries must end at `end`.
  const char* finish();
  std::uint64_t offset() const { return next_offset_; }

 private:
  bool skip_dictionaries();
  const std::vector<DictionaryEntry>& dicts_;
  std::uint64_t end_, next_offset_ = kHeaderSize;
  std::size_t next_dict_ = 0;
};

bool LayoutCheck::skip_dictionaries() {
  for (; next_dict_ < dicts_.size() && dicts_[next_dict_].offset == next_offset_; ++next_dict_) {
    const DictionaryEntry& d = dicts_[next_dict_];
    if (d.size < kDictionaryHeaderSize + 8 || d.size > end_ - d.offset) return false;
    next_offset_ = d.offset + d.size;
  }
  return true;
}

const char* LayoutCheck::add(const IndexEntry& e) {
  if (!skip_dictionaries()) return "dictionary entry out of place";
  if (e.offset != next_offset_ || e.offset > end_ || e.size > end_ - e.offset) return "block entry out of place";
  next_offset_ = e.offset + e.size;
  return nullptr;
}

const char* LayoutCheck::close() {
  // (Every dictionary must have been passed: one left over is not where its entry says.)
  if (!skip_dictionaries() || next_dict_ != dicts_.size()) return "dictionary entry out of place";
  return nullptr;
}

const char* LayoutCheck::finish() {
  if (const char* problem = close()) return problem;
  if (next_offset_ != end_) return "blocks and dictionaries do not end where the name chunks, block table or index begin";
  return nullptr;
}

}  // namespace

std::uint64_t block_total(const Index& index) {
  if (index.table_chunks.empty()) return index.blocks.size();
  std::uint64_t n = 0;
  for (const TableChunkEntry& c : index.table_chunks) n += c.blocks;
  return n;
}

std::uint64_t blocks_end(const Index& index, std::uint64_t index_offset) {
  for (const auto& chunks : index.name_chunks)
    if (!chunks.empty()) return chunks[0].offset;
  return index.table_chunks.empty() ? index_offset : index.table_chunks[0].offset;
}

std::string encode_block_table(Index& index, std::uint64_t offset, std::uint64_t per_chunk, const WriterOptions& options) {
  std::string out;
  index.table_chunks.clear();
  for (std::size_t b = 0; b < index.blocks.size(); b += per_chunk) {
    const std::size_t end = std::min<std::size_t>(index.blocks.size(), b + per_chunk);
    std::string content;
    put_varint(content, end - b);
    for (std::size_t i = b; i < end; ++i)
      put_block_entry(content, index.blocks[i], i == b ? 0 : index.blocks[i - 1].offset + index.blocks[i - 1].size);
    const std::string element = make_element(kTableChunkShape, std::string(kTableChunkMagic, 4), content, options);
    index.table_chunks.push_back(TableChunkEntry{offset + out.size(), element.size(), end - b, index.blocks[b].first_game});
    out += element;
  }
  return out;
}

std::size_t table_chunk_element_size(std::string_view b) { return element_size(b, kTableChunkShape); }

Status read_table_chunk(std::string_view file, const Index& index, std::size_t k, std::uint64_t games, std::uint64_t end,
                        const std::string& where, std::vector<IndexEntry>& out) {
  const TableChunkEntry& c = index.table_chunks[k];
  std::string content;
  if (c.offset > file.size() || c.size > file.size() - c.offset) return corruption(where + ": runs past the end of the file");
  if (auto st = open_element(file.substr(c.offset, c.size), where, kTableChunkShape, nullptr, content); !st) return st;
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what + " (block table chunk entries)"); };
  std::string_view in(content);
  ByteReader r(in);
  std::uint64_t count;
  if (!r.varint(count) || count != c.blocks) return bad("lists another number of blocks than the index says");
  out.resize(count);
  std::uint64_t first = c.first_game, at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    IndexEntry& e = out[i];
    bool bad_games;
    if (!read_block_entry(r, e, bad_games))
      return bad(bad_games ? "block entry " + std::to_string(i) + " with 0 or too many games" : "block entry runs past the end");
    // (Its offset is the gap from the entry before.)
    if (e.offset > end - at || (e.offset += at) < kHeaderSize || e.size > end - e.offset)
      return bad("block entry " + std::to_string(i) + " out of place (block at " + std::to_string(e.offset) + ")");
    at = e.offset + e.size;
    e.first_game = first;
    first += e.games;
  }
  if (r.remaining() != 0) return bad("bytes left over");
  const std::uint64_t next_first = k + 1 < index.table_chunks.size() ? index.table_chunks[k + 1].first_game : games;
  if (first != next_first)
    return bad("its blocks hold " + std::to_string(first - c.first_game) + " games, the index says " +
               std::to_string(next_first - c.first_game));
  return {};
}

Status check_block_layout(const std::vector<DictionaryEntry>& dictionaries, std::uint64_t end, std::uint64_t blocks,
                          const std::function<const IndexEntry&(std::uint64_t)>& entry, const std::string& path) {
  LayoutCheck layout(dictionaries, end);
  for (std::uint64_t b = 0; b < blocks; ++b)
    if (const char* problem = layout.add(entry(b)))
      return corruption(path + ": block table: " + problem + " (block " + std::to_string(b) + " at offset " +
                        std::to_string(entry(b).offset) + ")");
  if (const char* problem = layout.finish()) return corruption(path + ": block table: " + problem);
  return {};
}

Status load_block_table(std::string_view file, const std::string& path, std::uint64_t index_offset, std::uint64_t games,
                        Index& index) {
  if (index.table_chunks.empty()) return {};
  const std::uint64_t end = blocks_end(index, index_offset);
  index.blocks.clear();
  std::vector<IndexEntry> part;
  for (std::size_t k = 0; k < index.table_chunks.size(); ++k) {
    const std::string where = path + ": block table chunk at offset " + std::to_string(index.table_chunks[k].offset);
    if (auto st = read_table_chunk(file, index, k, games, end, where, part); !st) return st;
    index.blocks.insert(index.blocks.end(), part.begin(), part.end());
  }
  return check_block_layout(index.dictionaries, end, index.blocks.size(),
                            [&](std::uint64_t b) -> const IndexEntry& { return index.blocks[b]; }, path);
}

std::string encode_index(const Index& index, const WriterOptions& options, std::uint16_t read_version) {
  std::string body;
  if (read_version >= 8) {
    put_varint(body, index.dictionaries.size());
    for (const DictionaryEntry& d : index.dictionaries) {
      put_varint(body, d.offset);
      put_varint(body, d.size);
      put_varint(body, d.id);
    }
  }
  if (read_version >= 10) {
    put_varint(body, index.table_chunks.size());
    for (const TableChunkEntry& c : index.table_chunks) {
      put_varint(body, c.offset);
      put_varint(body, c.size);
      put_varint(body, c.blocks);
      put_varint(body, c.first_game);
    }
  } else {
    put_varint(body, index.blocks.size());
    for (const IndexEntry& e : index.blocks) put_block_entry(body, e);
  }
  if (read_version >= 9) {
    for (const auto& chunks : index.name_chunks) {
      put_varint(body, chunks.size());
      for (const NameChunkEntry& c : chunks) {
        put_varint(body, c.offset);
        put_varint(body, c.size);
        put_varint(body, c.values);
        put_prefixed(body, c.first);
      }
    }
  } else {
    for (const auto& field : index.names) {
      put_varint(body, field.size());
      for (const auto& [value, blocks] : field) put_name_entry(body, value, blocks);
    }
  }
  std::string out(kIndexMagic, 4);
  std::uint8_t encoding = kStored;
  std::string packed;
  if (options.compress && !body.empty()) {
    packed = compress_frame(body, options.zstd_level);
    if (!packed.empty() && packed.size() < body.size()) encoding = kZstd;
  }
  out += static_cast<char>(encoding);
  put_le(out, body.size(), 4);
  out += encoding == kZstd ? packed : body;
  return out;
}

namespace {

// The dictionary and block tables at the start of an index body. `whole`: `body` is all of it;
// if not, running out of bytes is kShort (decompress more and try again), not damage.
enum class Parsed { kOk, kShort, kBad };
Parsed parse_tables(std::string_view body, bool whole, std::uint64_t index_offset, std::uint16_t read_version,
                    Index& out, std::size_t& used, std::string& why) {
  ByteReader r(body);
  const auto bad = [&](const std::string& what) {
    why = what;
    return Parsed::kBad;
  };
  const auto short_or = [&](const std::string& what) { return whole ? bad(what) : Parsed::kShort; };
  const std::size_t size = body.size();
  std::uint64_t n;
  // Format 8 on: the dictionaries, in file order, with distinct IDs.
  out.dictionaries.clear();
  if (read_version >= 8) {
    if (!r.varint(n) || n > r.remaining()) return short_or("bad dictionary count");
    out.dictionaries.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      DictionaryEntry& d = out.dictionaries[k];
      std::uint64_t id;
      if (!r.varint(d.offset) || !r.varint(d.size) || !r.varint(id)) return short_or("dictionary entry runs past the end");
      if (id == 0 || id > 0xFFFFFFFFu) return bad("dictionary ID out of range");
      d.id = static_cast<std::uint32_t>(id);
      for (std::size_t j = 0; j < k; ++j)
        if (out.dictionaries[j].id == d.id) return bad("two dictionaries with ID " + std::to_string(id));
    }
  }
  out.blocks.clear();
  out.table_chunks.clear();
  std::uint64_t next_offset = kHeaderSize;
  if (read_version >= 10) {
    // The block directory: chunks of at least one block, each block of at least one game.
    if (!r.varint(n) || n > r.remaining()) return short_or("bad block table chunk count");
    out.table_chunks.resize(n);
    std::uint64_t blocks = 0;
    for (std::size_t k = 0; k < n; ++k) {
      TableChunkEntry& c = out.table_chunks[k];
      if (!r.varint(c.offset) || !r.varint(c.size) || !r.varint(c.blocks) || !r.varint(c.first_game))
        return short_or("block table chunk entry runs past the end");
      if (c.blocks == 0 || c.blocks > kMaxTableChunkBlocks || (blocks += c.blocks) > 0xFFFFFFFFu)
        return bad("block table chunk with 0 or too many blocks");
      if (k == 0 ? c.first_game != 0
                 : c.first_game < out.table_chunks[k - 1].first_game + out.table_chunks[k - 1].blocks)
        return bad("block table chunk's first game out of order");
    }
  } else {
    if (!r.varint(n) || n > r.remaining()) return short_or("bad block count");
    LayoutCheck layout(out.dictionaries, index_offset);
    out.blocks.resize(n);
    std::uint64_t first = 0;
    for (auto& e : out.blocks) {
      bool bad_games;
      if (!read_block_entry(r, e, bad_games)) {
        if (!bad_games) return short_or("block entry runs past the end");
        return bad("block entry out of place (block at " + std::to_string(e.offset) + ")");
      }
      if (const char* problem = layout.add(e)) return bad(std::string(problem) + " (block at " + std::to_string(e.offset) + ")");
      e.first_game = first;
      first += e.games;
    }
    if (const char* problem = layout.close()) return bad(problem);
    next_offset = layout.offset();
  }
  // Format 9 on: the name chunks follow, field after field, each field's first values ascending.
  // From 10 on the blocks' end is not known before their table is read: the first name chunk
  // (or, without one, the first table chunk) starts the chain of elements after them.
  constexpr std::uint64_t kChainStart = ~std::uint64_t{0};
  if (read_version >= 10) next_offset = kChainStart;
  const auto chained = [&](std::uint64_t offset) {
    if (next_offset == kChainStart) next_offset = offset < kHeaderSize ? kHeaderSize : offset;
    return offset == next_offset;
  };
  for (auto& chunks : out.name_chunks) chunks.clear();
  if (read_version >= 9) {
    for (auto& chunks : out.name_chunks) {
      if (!r.varint(n) || n > r.remaining()) return short_or("bad name chunk count");
      chunks.resize(n);
      for (std::size_t k = 0; k < n; ++k) {
        NameChunkEntry& c = chunks[k];
        std::string_view first_value;
        if (!r.varint(c.offset) || !r.varint(c.size) || !r.varint(c.values) || !r.prefixed(first_value))
          return short_or("name chunk entry runs past the end");
        if (!chained(c.offset) || c.size < kNameChunkHeaderSize + 8 || c.size > index_offset - c.offset ||
            c.values == 0 || c.values > c.size)
          return bad("name chunk entry out of place (chunk at " + std::to_string(c.offset) + ")");
        c.first.assign(first_value);
        if (k > 0 && !(chunks[k - 1].first < c.first)) return bad("name chunks not in ascending order");
        next_offset = c.offset + c.size;
      }
    }
  }
  // Format 10: the block table chunks follow the name chunks, up to the index; the blocks and
  // dictionaries before them are checked when the table is read (load_block_table), but for
  // the dictionaries' bounds, and all of it when there are no blocks.
  if (read_version >= 10) {
    for (const TableChunkEntry& c : out.table_chunks) {
      if (!chained(c.offset) || c.size < kTableChunkHeaderSize + 8 || c.size > index_offset - c.offset)
        return bad("block table chunk entry out of place (chunk at " + std::to_string(c.offset) + ")");
      next_offset = c.offset + c.size;
    }
    const std::uint64_t end = blocks_end(out, index_offset);
    std::uint64_t at = kHeaderSize;
    for (const DictionaryEntry& d : out.dictionaries) {
      if (d.offset < at || d.offset > end || d.size < kDictionaryHeaderSize + 8 || d.size > end - d.offset)
        return bad("dictionary entry out of place (dictionary at " + std::to_string(d.offset) + ")");
      at = d.offset + d.size;
    }
    if (out.table_chunks.empty())
      if (const char* problem = LayoutCheck(out.dictionaries, end).finish()) return bad(problem);
    if (next_offset == kChainStart) next_offset = index_offset;
  }
  if (next_offset != index_offset) return bad("blocks do not end where the index begins");
  // From 9 on the directory ends the body: anything after it (here, or still to decompress) is
  // left over.
  if (read_version >= 9 && (r.remaining() != 0 || !whole)) return bad("bytes left over");
  used = size - r.remaining();
  return Parsed::kOk;
}

}  // namespace

Status decode_index(std::string_view b, std::uint64_t index_offset, std::uint16_t read_version, Index& out,
                    IndexParts parts) {
  const std::string where = "index at offset " + std::to_string(index_offset);
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what); };
  if (b.size() < 9 || std::memcmp(b.data(), kIndexMagic, 4) != 0) return bad("bad index magic");
  const auto encoding = static_cast<std::uint8_t>(b[4]);
  const std::uint64_t raw_size = get_le(b.data() + 5, 4);
  if (encoding > kZstd || raw_size > (1ull << 31)) return bad("bad index encoding or size");
  if (encoding == kStored && b.size() - 9 != raw_size) return bad("size mismatch");
  std::string body;
  std::size_t used = 0;
  std::string why;
  if (encoding == kZstd && parts == IndexParts::kBlocks) {
    // Only as much of the body as the tables need, decompressed in growing steps (the name
    // tables after them can be most of a large archive's index).
    ZSTD_DCtx* dctx = thread_dctx();
    ZSTD_inBuffer input{b.data() + 9, b.size() - 9, 0};
    std::size_t have = 0, step = 64 * 1024;
    for (;;) {
      body.resize(std::min<std::size_t>(raw_size, have + step));
      step *= 2;
      ZSTD_outBuffer o{body.data(), body.size(), have};
      while (o.pos < o.size) {
        const std::size_t ret = ZSTD_decompressStream(dctx, &o, &input);
        if (ZSTD_isError(ret)) return bad("does not decompress to its size");
        if (ret == 0 || (input.pos == input.size && o.pos < o.size)) break;
      }
      have = o.pos;
      const bool whole = have == raw_size;
      const Parsed p = parse_tables(std::string_view(body).substr(0, have), whole, index_offset, read_version, out, used, why);
      if (p == Parsed::kOk) return {};
      if (p == Parsed::kBad) return bad(why);
      if (have < body.size()) return bad("does not decompress to its size");  // the frame ended early
    }
  }
  if (encoding == kZstd) {
    body.resize(raw_size);
    const std::size_t n = ZSTD_decompress(body.data(), raw_size, b.data() + 9, b.size() - 9);
    if (ZSTD_isError(n) || n != raw_size) return bad("does not decompress to its size");
  }
  const std::string_view all = encoding == kZstd ? std::string_view(body) : b.substr(9);
  if (parse_tables(all, true, index_offset, read_version, out, used, why) != Parsed::kOk) return bad(why);
  if (parts == IndexParts::kBlocks || read_version >= 9) return {};
  std::string_view in = all.substr(used);
  ByteReader r(in);
  for (auto& field : out.names) {
    std::uint64_t count;
    if (!r.varint(count) || count > r.remaining()) return bad("bad name count");
    field.resize(count);
    for (auto& [value, blocks] : field) {
      std::string_view v;
      if (const char* problem = read_name_entry(in, v, blocks, out.blocks.size())) return bad(problem);
      value.assign(v);
    }
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

std::string encode_footer(std::uint64_t index_offset, std::uint64_t index_size, std::uint64_t games,
                          std::uint64_t blocks, std::uint64_t index_hash) {
  std::string f;
  put_le(f, index_offset, 8);
  put_le(f, index_size, 8);
  put_le(f, games, 8);
  put_le(f, blocks, 8);
  put_le(f, index_hash, 8);
  put_le(f, hash64(f) & 0xFFFFFFFFu, 4);
  f.append(kFooterMagic, 4);
  return f;
}

Status decode_footer(std::string_view f, std::uint64_t file_size, Footer& out) {
  const std::string at = " (footer at offset " + std::to_string(file_size - kFooterSize) + ")";
  if (std::memcmp(f.data() + 44, kFooterMagic, 4) != 0) return corruption("footer: bad magic; the file may be truncated" + at);
  if (get_le(f.data() + 40, 4) != (hash64(f.substr(0, 40)) & 0xFFFFFFFFu)) return corruption("footer: checksum mismatch" + at);
  out.index_offset = get_le(f.data(), 8);
  out.index_size = get_le(f.data() + 8, 8);
  out.games = get_le(f.data() + 16, 8);
  out.blocks = get_le(f.data() + 24, 8);
  out.index_hash = get_le(f.data() + 32, 8);
  if (out.index_offset < kHeaderSize || out.index_offset > file_size - kFooterSize ||
      out.index_size != file_size - kFooterSize - out.index_offset)
    return corruption("footer: index offset or size out of range" + at);
  return {};
}

}  // namespace pgnarc::container
