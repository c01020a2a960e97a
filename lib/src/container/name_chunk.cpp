#include "container/name_chunk.h"

#include "common/bytes.h"
#include "container/element.h"

namespace pgnarc::container {

using common::ByteCursor;
using common::ByteReader;
using common::put_prefixed;
using common::put_varint;

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

namespace {

// A rest's bytes end at 0x00; a 0x00 or 0x01 byte of it is written as 0x01 followed by the byte
// plus one.
constexpr char kRestEnd = 0x00, kRestEscape = 0x01;

}  // namespace

void ChunkEntries::add(std::string_view value, const std::vector<std::uint32_t>& blocks) {
  std::size_t shared = 0;
  while (shared < previous_.size() && shared < value.size() && previous_[shared] == value[shared]) ++shared;
  put_varint(shared_, shared);
  for (const char c : value.substr(shared)) {
    if (c == kRestEnd || c == kRestEscape) {
      rests_ += kRestEscape;
      rests_ += static_cast<char>(c + 1);
    } else {
      rests_ += c;
    }
  }
  rests_ += kRestEnd;
  put_varint(postings_, blocks.size());
  put_varint(postings_, common::zigzag(std::int64_t{blocks.front()} - previous_first_));
  for (std::size_t i = 1; i < blocks.size(); ++i) put_varint(postings_, blocks[i] - blocks[i - 1] - 1);
  previous_first_ = blocks.front();
  previous_.assign(value);
  ++count_;
}

std::string ChunkEntries::content() const {
  std::string out;
  put_varint(out, count_);
  out += shared_;
  out += rests_;
  out += postings_;
  return out;
}

std::string encode_name_chunk(int field, const ChunkEntries& entries, const StoreOptions& options,
                              const WriterDictionary* dict) {
  std::string head(kNameChunkMagic, 4);  // magic, field; then encoding, 2 reserved bytes
  head += static_cast<char>(field);
  return encode_element(kNameChunkShape, std::move(head), entries.content(), options, dict);
}

std::size_t name_chunk_element_size(std::string_view b) { return element_size(b, kNameChunkShape); }

Status decode_name_chunk_content(std::string_view b, const Where& where, int field, const ReaderDictionaries* dictionaries,
                       std::string& content) {
  if (auto st = decode_element(b, where, kNameChunkShape, dictionaries, content); !st) return st;
  if (static_cast<std::uint8_t>(b[4]) != field)
    return corruption(where + ": holds another field than the index says (name chunk byte 4)");
  return {};
}

Status visit_name_entries(std::string_view content, const std::string& where, const NameChunkEntry* entry,
                          const std::string* next_first, std::uint64_t blocks, bool ascending, const NameVisitor& visit) {
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what + " (name chunk entries)"); };
  ByteCursor r(content);
  std::uint64_t count;
  if (!r.varint(count) || (entry ? count != entry->values : count > kMaxNameChunkValues))
    return bad("holds another number of values than the index says");
  if (count > r.remaining()) return bad("name entry runs past the end");
  // Where each column starts: the shared column here, the rests after `count` varints, the
  // postings after `count` rests (each up to its end byte, an escape taking the byte after it).
  // The three are then read side by side, one entry at a time.
  ByteCursor shared_col = r;
  std::uint64_t skip;
  for (std::uint64_t i = 0; i < count; ++i)
    if (!r.varint(skip)) return bad("name entry runs past the end");
  ByteCursor rests_col = r;
  for (std::uint64_t i = 0; i < count; ++i)
    for (std::uint8_t c = 1; c != static_cast<std::uint8_t>(kRestEnd);) {
      if (!r.u8(c)) return bad("name entry runs past the end");
      if (c == static_cast<std::uint8_t>(kRestEscape) && !r.u8(c)) return bad("name entry runs past the end");
    }
  ByteCursor& postings_col = r;
  std::vector<std::uint32_t> postings;
  std::string last, value;
  std::int64_t previous_first = 0;
  std::uint64_t total = 0;  // the bytes of the values
  for (std::size_t i = 0; i < count; ++i) {
    // The value is the first `shared` bytes of the one before, then its own rest, which must not
    // begin with the byte that follows them there (`shared` is the longest prefix in common).
    std::uint64_t shared = 0;
    (void)shared_col.varint(shared);  // (read above)
    if (shared > last.size()) return bad("name entry " + std::to_string(i) + " shares more than the value before holds");
    value.assign(last, 0, static_cast<std::size_t>(shared));
    for (;;) {
      std::uint8_t c = 0;
      (void)rests_col.u8(c);
      if (c == static_cast<std::uint8_t>(kRestEnd)) break;
      if (c == static_cast<std::uint8_t>(kRestEscape)) {
        (void)rests_col.u8(c);
        if (c < 1 || c > 2) return bad("name entry " + std::to_string(i) + " has a bad escape");
        c = static_cast<std::uint8_t>(c - 1);
      }
      value += static_cast<char>(c);
    }
    if (shared < last.size() && value.size() > shared && value[shared] == last[shared])
      return bad("name entry " + std::to_string(i) + " shares a prefix other than the longest with the one before");
    if ((total += value.size()) > kMaxNameChunkBytes) return bad("values longer than 2^30 bytes in all");
    // Its postings: the first block from the entry before's first, each next one after a gap.
    std::uint64_t n, first;
    if (!postings_col.varint(n) || n > blocks || n > postings_col.remaining()) return bad("name entry runs past the end");
    if (n == 0) return bad("name entry " + std::to_string(i) + " has no blocks");
    if (!postings_col.varint(first)) return bad("posting list runs past the end");
    if (first >= (std::uint64_t{1} << 40)) return bad("posting names a block that does not exist");
    const std::int64_t at0 = previous_first + common::unzigzag(first);
    if (at0 < 0 || static_cast<std::uint64_t>(at0) >= blocks) return bad("posting names a block that does not exist");
    postings.assign(1, static_cast<std::uint32_t>(at0));
    previous_first = at0;
    std::uint64_t at = static_cast<std::uint64_t>(at0);
    for (std::uint64_t k = 1; k < n; ++k) {
      std::uint64_t d;
      if (!postings_col.varint(d)) return bad("posting list runs past the end");
      if (d >= blocks || (at += 1 + d) >= blocks) return bad("posting names a block that does not exist");
      postings.push_back(static_cast<std::uint32_t>(at));
    }
    if (i == 0 ? entry && value != entry->first : ascending && !(last < value))
      return bad(i == 0 ? "first value differs from the index" : "values not in ascending order");
    last.swap(value);
    visit(last, postings);
  }
  if (postings_col.remaining() != 0) return bad("bytes left over");
  if (ascending && next_first && !(last < *next_first)) return bad("last value not below the next chunk's first");
  return {};
}

Status decode_name_chunk(std::string_view b, const Where& where, int field, const NameChunkEntry& entry,
                       const std::string* next_first, std::uint64_t blocks, std::vector<NameEntry>& out,
                       const ReaderDictionaries* dictionaries) {
  out.clear();
  std::string content;
  if (auto st = decode_name_chunk_content(b, where, field, dictionaries, content); !st) return st;
  return visit_name_entries(content, where, &entry, next_first, blocks, sorted_name_field(field),
                            [&](std::string_view v, const std::vector<std::uint32_t>& postings) {
                              out.push_back(NameEntry{std::string(v), postings});
                            });
}

}  // namespace pgnarc::container
