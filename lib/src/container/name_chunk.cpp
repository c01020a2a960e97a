#include "container/name_chunk.h"

#include "common/bytes.h"
#include "container/element.h"

namespace pgnarc::container {

using detail::ByteReader;
using detail::put_prefixed;
using detail::put_varint;

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

void put_chunk_entry(std::string& out, std::string_view previous, std::string_view value,
                     const std::vector<std::uint32_t>& blocks) {
  std::size_t shared = 0;
  while (shared < previous.size() && shared < value.size() && previous[shared] == value[shared]) ++shared;
  put_varint(out, shared);
  put_name_entry(out, value.substr(shared), blocks);
}

std::string encode_name_chunk(int field, std::uint64_t count, std::string_view entries, const StoreOptions& options,
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

Status visit_name_entries(std::string_view content, const std::string& where, const NameChunkEntry* entry,
                          const std::string* next_first, std::uint64_t blocks, bool ascending, const NameVisitor& visit) {
  auto bad = [&](const std::string& what) { return corruption(where + ": " + what + " (name chunk entries)"); };
  ByteReader r(content);
  std::uint64_t count;
  if (!r.varint(count) || (entry ? count != entry->values : count > kMaxNameChunkValues))
    return bad("holds another number of values than the index says");
  std::vector<std::uint32_t> postings;
  std::string last, value;
  for (std::size_t i = 0; i < count; ++i) {
    // The value is the first `shared` bytes of the one before, then its own rest, which must not
    // begin with the byte that follows them there (`shared` is the longest prefix in common).
    std::uint64_t shared;
    std::string_view rest;
    if (!r.varint(shared)) return bad("name entry runs past the end");
    if (const char* why = read_name_entry(content, rest, postings, blocks)) return bad(why);
    if (shared > last.size() || (shared < last.size() && !rest.empty() && rest.front() == last[shared]))
      return bad("name entry " + std::to_string(i) + " shares a prefix other than the longest with the one before");
    if (postings.empty()) return bad("name entry " + std::to_string(i) + " has no blocks");
    value.assign(last, 0, shared);
    value += rest;
    if (i == 0 ? entry && value != entry->first : ascending && !(last < value))
      return bad(i == 0 ? "first value differs from the index" : "values not in ascending order");
    last.swap(value);
    visit(last, postings);
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
  const bool ascending = field != kPlayerField;  // the players' table is in entry order (9.10)
  return visit_name_entries(content, where, &entry, ascending ? next_first : nullptr, blocks, ascending,
                            [&](std::string_view v, const std::vector<std::uint32_t>& postings) {
                              out.push_back(NameEntry{std::string(v), postings});
                            });
}

}  // namespace pgnarc::container
