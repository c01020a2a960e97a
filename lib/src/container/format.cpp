#include "container/format.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <unordered_map>

#include "codec/bytes.h"

namespace pgnarc::container {

using detail::ByteReader;
using detail::ByteCursor;
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

void BlockBuilder::add_tags(const std::vector<Tag>& t) {
  tags.push_back(t);
  ++games;
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

// Tags in columns: key table, per game the keys used, then for each key its values in game
// order, each either new (0, then the bytes) or the r-th distinct value seen before in that
// column (r >= 1).
std::string encode_tags(const std::vector<std::vector<Tag>>& games) {
  std::vector<std::string> keys;
  std::unordered_map<std::string_view, std::uint32_t> key_id;  // views of `games`' keys
  std::string per_game;
  for (const auto& g : games) {
    put_varint(per_game, g.size());
    for (const Tag& t : g) {
      auto [it, fresh] = key_id.try_emplace(t.key, static_cast<std::uint32_t>(keys.size()));
      if (fresh) keys.push_back(t.key);
      put_varint(per_game, it->second);
    }
  }
  std::string out;
  put_varint(out, keys.size());
  for (const std::string& k : keys) {
    put_varint(out, k.size());
    out += k;
  }
  out += per_game;
  std::vector<std::vector<const std::string*>> columns(keys.size());
  for (const auto& g : games)
    for (const Tag& t : g) columns[key_id.find(t.key)->second].push_back(&t.value);
  std::unordered_map<std::string_view, std::uint32_t> seen;
  for (const auto& col : columns) {
    seen.clear();
    seen.reserve(col.size());
    for (const std::string* v : col) {
      auto [it, fresh] = seen.try_emplace(*v, static_cast<std::uint32_t>(seen.size() + 1));
      if (fresh) {
        put_varint(out, 0);
        put_varint(out, v->size());
        out += *v;
      } else {
        put_varint(out, it->second);
      }
    }
  }
  return out;
}

}  // namespace

namespace {

// The one walk over a tags section, with every check, for both decoders below. It reads the
// key table; calls on_tag(game, key) for each game's tag keys in order; calls
// on_columns(column_size) once every game's keys are read; then calls on_value(key, rank,
// value) for every value, column after column (rank: the value's place in its column).
// `distinct` is scratch space.
template <typename OnTag, typename OnColumns, typename OnValue>
Status walk_tags(std::string_view in, std::uint32_t games, const std::string& where,
                 std::vector<std::string_view>& keys, std::vector<std::uint32_t>& column_size,
                 std::vector<std::string_view>& distinct, OnTag&& on_tag, OnColumns&& on_columns,
                 OnValue&& on_value) {
  auto bad = [&](const char* what) { return corruption(where + ": tags section: " + what); };
  ByteCursor r(in);
  std::uint64_t n_keys;
  if (!r.varint(n_keys) || n_keys > r.remaining()) return bad("bad key count");
  keys.resize(n_keys);
  for (auto& k : keys) {
    std::uint64_t len;
    if (!r.varint(len) || !r.bytes(len, k)) return bad("key runs past the end");
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
  on_columns(column_size);
  for (std::uint32_t k = 0; k < n_keys; ++k) {
    distinct.clear();
    for (std::uint32_t e = 0; e < column_size[k]; ++e) {
      std::uint64_t ref;
      std::string_view v;
      if (!r.varint(ref)) return bad("value runs past the end");
      if (ref == 0) {
        std::uint64_t len;
        if (!r.varint(len) || !r.bytes(len, v)) return bad("value runs past the end");
        distinct.push_back(v);
      } else {
        if (ref > distinct.size()) return bad("reference to a value not seen");
        v = distinct[ref - 1];
      }
      on_value(k, e, v);
    }
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return {};
}

}  // namespace

Status decode_tags(std::string_view in, std::uint32_t games, const std::string& where, DecodedBlock& out) {
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
      in, games, where, keys, out.scratch_column_size, out.scratch_distinct,
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

// One game's tags: the same walk over the section as decode_tags (so the same checks), without
// writing the other games' tags anywhere.
Status decode_game_tags(std::string_view in, std::uint32_t games, std::uint32_t game, const std::string& where,
                        std::vector<Tag>& out) {
  // The wanted game's tags as (key, rank in that key's column, position among its tags).
  struct Want {
    std::uint32_t key, rank, position;
  };
  std::vector<Want> want;
  std::vector<std::string_view> keys, distinct;
  std::vector<std::uint32_t> column_size;  // the walker's count so far: the rank of the next tag
  std::size_t next = 0;
  return walk_tags(
      in, games, where, keys, column_size, distinct,
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

std::string BlockBuilder::finish(const WriterOptions& options) const {
  const std::string plain[kSections] = {encode_tags(tags), streams.moves, streams.structure, streams.texts, streams.raw};
  std::string table, data;
  for (int s = 0; s < kSections; ++s) {
    std::uint8_t encoding = kStored;
    std::string_view stored = plain[s];
    std::string packed;
    if (options.compress && !plain[s].empty()) {
      packed.resize(ZSTD_compressBound(plain[s].size()));
      const std::size_t n = ZSTD_compress(packed.data(), packed.size(), plain[s].data(), plain[s].size(), options.zstd_level);
      if (!ZSTD_isError(n) && n < plain[s].size()) {
        packed.resize(n);
        stored = packed;
        encoding = kZstd;
      }
    }
    table += static_cast<char>(s);
    table += static_cast<char>(encoding);
    put_le(table, 0, 2);
    put_le(table, stored.size(), 4);
    put_le(table, plain[s].size(), 4);
    data += stored;
  }
  std::string block(kBlockMagic, 4);
  block += static_cast<char>(codec);
  block += static_cast<char>(kSections);
  put_le(block, 0, 2);
  put_le(block, games, 4);
  block += table;
  block += data;
  put_le(block, hash64(block), 8);
  return block;
}

namespace {

Status parse_block_header(std::string_view b, const std::string& where, std::uint32_t& games, std::uint8_t& codec,
                          std::uint8_t encodings[kSections], std::uint32_t stored[kSections], std::uint32_t raw[kSections]) {
  auto bad = [&](const std::string& what, std::size_t at) {
    return corruption(where + ": " + what + " (block byte " + std::to_string(at) + ")");
  };
  const std::size_t min = kBlockHeaderSize + kSections * kSectionEntrySize + 8;
  if (b.size() < min) return bad("block shorter than its header", 0);
  if (get_le(b.data() + b.size() - 8, 8) != hash64(b.substr(0, b.size() - 8)))
    return bad("checksum mismatch", b.size() - 8);
  if (std::memcmp(b.data(), kBlockMagic, 4) != 0) return bad("bad block magic", 0);
  codec = static_cast<std::uint8_t>(b[4]);
  if (codec != kMoveCodecLegalIndexV1 && codec != kMoveCodecLegalIndexV2)
    return unsupported(where + ": unknown move codec " + std::to_string(codec));
  if (static_cast<std::uint8_t>(b[5]) != kSections) return bad("section count is not 5", 5);
  if (get_le(b.data() + 6, 2) != 0) return bad("reserved bytes not zero", 6);
  games = static_cast<std::uint32_t>(get_le(b.data() + 8, 4));
  if (games == 0 || games > kMaxBlockGames) return bad("game count out of range", 8);
  std::uint64_t total = 0;
  for (int s = 0; s < kSections; ++s) {
    const char* e = b.data() + kBlockHeaderSize + s * kSectionEntrySize;
    const std::size_t at = kBlockHeaderSize + static_cast<std::size_t>(s) * kSectionEntrySize;
    if (static_cast<std::uint8_t>(e[0]) != s) return bad("sections out of order", at);
    encodings[s] = static_cast<std::uint8_t>(e[1]);
    if (encodings[s] > kZstd) return bad("unknown section encoding", at + 1);
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

// Decompresses one zstd frame that must give exactly `size` bytes. The buffer grows only as
// output is produced, so a size field that lies costs no memory beyond what the frame yields.
bool decompress(std::string_view in, std::uint32_t size, std::string& out) {
  // One context per thread, freed when the thread ends.
  struct Context {
    ZSTD_DCtx* p = ZSTD_createDCtx();
    ~Context() { ZSTD_freeDCtx(p); }
  };
  static thread_local Context context;
  ZSTD_DCtx* dctx = context.p;
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
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

Status read_block_sizes(std::string_view b, const std::string& where, std::uint32_t& games,
                        std::uint32_t stored[kSections], std::uint32_t raw[kSections]) {
  std::uint8_t codec, enc[kSections];
  return parse_block_header(b, where, games, codec, enc, stored, raw);
}

Status decode_block(std::string_view b, const std::string& where, DecodedBlock& out, bool decode_tags_too) {
  std::uint8_t enc[kSections];
  std::uint32_t raw[kSections];
  if (auto st = parse_block_header(b, where, out.games, out.codec, enc, out.stored, raw); !st) return st;
  std::size_t pos = kBlockHeaderSize + kSections * kSectionEntrySize;
  for (int s = 0; s < kSections; ++s) {
    const std::string_view stored = b.substr(pos, out.stored[s]);
    if (enc[s] == kStored) {
      out.sections[s].assign(stored);
    } else if (!decompress(stored, raw[s], out.sections[s])) {
      return corruption(where + ": section " + std::to_string(s) + " does not decompress to its size (block byte " +
                        std::to_string(pos) + ")");
    }
    pos += out.stored[s];
  }
  if (decode_tags_too) return decode_tags(out.sections[kTags], out.games, where, out);
  return {};
}

// ---- index and footer --------------------------------------------------------------------------

std::string encode_index(const Index& index, const WriterOptions& options) {
  std::string body;
  put_varint(body, index.blocks.size());
  for (const IndexEntry& e : index.blocks) {
    put_varint(body, e.offset);
    put_varint(body, e.size);
    put_varint(body, e.games);
    put_varint(body, e.summary.date_min);
    put_varint(body, e.summary.date_max);
    body += static_cast<char>(e.summary.results);
  }
  for (const auto& field : index.names) {
    put_varint(body, field.size());
    for (const auto& [value, blocks] : field) {
      put_varint(body, value.size());
      body += value;
      put_varint(body, blocks.size());
      std::uint32_t last = 0;
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        put_varint(body, i == 0 ? blocks[i] : blocks[i] - last - 1);
        last = blocks[i];
      }
    }
  }
  std::string out(kIndexMagic, 4);
  std::uint8_t encoding = kStored;
  std::string packed;
  if (options.compress && !body.empty()) {
    packed.resize(ZSTD_compressBound(body.size()));
    const std::size_t n = ZSTD_compress(packed.data(), packed.size(), body.data(), body.size(), options.zstd_level);
    if (!ZSTD_isError(n) && n < body.size()) {
      packed.resize(n);
      encoding = kZstd;
    }
  }
  out += static_cast<char>(encoding);
  put_le(out, body.size(), 4);
  out += encoding == kZstd ? packed : body;
  return out;
}

Status decode_index(std::string_view b, std::uint64_t index_offset, Index& out) {
  const std::string where = "index at offset " + std::to_string(index_offset);
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what); };
  if (b.size() < 9 || std::memcmp(b.data(), kIndexMagic, 4) != 0) return bad("bad index magic");
  const auto encoding = static_cast<std::uint8_t>(b[4]);
  const std::uint64_t raw_size = get_le(b.data() + 5, 4);
  if (encoding > kZstd || raw_size > (1ull << 31)) return bad("bad index encoding or size");
  std::string body;
  if (encoding == kZstd) {
    body.resize(raw_size);
    const std::size_t n = ZSTD_decompress(body.data(), raw_size, b.data() + 9, b.size() - 9);
    if (ZSTD_isError(n) || n != raw_size) return bad("does not decompress to its size");
  } else {
    if (b.size() - 9 != raw_size) return bad("size mismatch");
    body.assign(b.substr(9));
  }
  std::string_view in = body;
  ByteReader r(in);
  std::uint64_t n;
  if (!r.varint(n) || n > r.remaining()) return bad("bad block count");
  std::uint64_t next_offset = kHeaderSize, first = 0;
  out.blocks.resize(n);
  for (auto& e : out.blocks) {
    std::uint64_t games, dmin, dmax;
    std::uint8_t results;
    if (!r.varint(e.offset) || !r.varint(e.size) || !r.varint(games) || !r.varint(dmin) || !r.varint(dmax) || !r.u8(results))
      return bad("block entry runs past the end");
    // Blocks follow each other from the header to the index, without gaps or overlaps.
    if (e.offset != next_offset || e.size > index_offset - e.offset || games == 0 || games > kMaxBlockGames)
      return bad("block entry out of place (block at " + std::to_string(e.offset) + ")");
    next_offset = e.offset + e.size;
    e.games = static_cast<std::uint32_t>(games);
    e.first_game = first;
    first += games;
    e.summary.date_min = static_cast<std::uint32_t>(std::min<std::uint64_t>(dmin, 99999999));
    e.summary.date_max = static_cast<std::uint32_t>(std::min<std::uint64_t>(dmax, 99999999));
    e.summary.results = results;
  }
  if (next_offset != index_offset) return bad("blocks do not end where the index begins");
  for (auto& field : out.names) {
    std::uint64_t count;
    if (!r.varint(count) || count > r.remaining()) return bad("bad name count");
    field.resize(count);
    for (auto& [value, blocks] : field) {
      std::uint64_t len, postings;
      std::string_view v;
      if (!r.varint(len) || !r.bytes(len, v) || !r.varint(postings) || postings > out.blocks.size())
        return bad("name entry runs past the end");
      value.assign(v);
      blocks.resize(postings);
      std::uint64_t at = 0;
      for (std::size_t i = 0; i < postings; ++i) {
        std::uint64_t d;
        if (!r.varint(d)) return bad("posting list runs past the end");
        at += (i == 0 ? 0 : 1) + d;
        if (at >= out.blocks.size()) return bad("posting names a block that does not exist");
        blocks[i] = static_cast<std::uint32_t>(at);
      }
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
