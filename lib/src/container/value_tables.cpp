#include "container/value_tables.h"

#include <algorithm>
#include <set>

#include "common/bytes.h"
#include "common/endian.h"
#include "common/hash.h"
#include "common/zstd_frame.h"
#include "container/format.h"

namespace pgnarc::container {

using common::ByteCursor;
using common::put_varint;

int ValueTables::key_index(std::size_t t, std::string_view key) const {
  const auto& keys = tables_[t].keys;
  const auto it = std::find(keys.begin(), keys.end(), key);
  return it == keys.end() ? -1 : static_cast<int>(it - keys.begin());
}

std::uint64_t ValueTables::declared_size(std::string_view head) {
  if (head.size() < kValueTablesHeaderSize || head.substr(0, 4) != std::string_view(kValueTablesMagic, 4)) return 0;
  const std::uint64_t stored = common::get_le(head.data() + 5, 4);
  return stored > kMaxValueTablesBytes ? 0 : kValueTablesHeaderSize + stored + 8;
}

std::optional<std::string_view> ValueTables::value(std::size_t t, std::uint32_t e, std::size_t i) const {
  const Table& tb = tables_[t];
  ByteCursor r(std::string_view(bytes_).substr(tb.at[std::size_t{e} * tb.keys.size() + i]));
  std::uint64_t len;
  std::string_view v;
  r.varint(len);  // (read and checked by decode)
  if (len == 0) return std::nullopt;
  r.bytes(len - 1, v);
  return v;
}

Result<ValueTables> ValueTables::decode(std::string_view extension, const std::string& where) {
  auto bad = [&](const char* what) { return corruption(where + ": value tables: " + what); };
  if (extension.size() < kValueTablesHeaderSize + 8 || declared_size(extension) != extension.size())
    return bad("bad magic or stored size");
  if (common::get_le(extension.data() + extension.size() - 8, 8) != common::hash64(extension.substr(0, extension.size() - 8)))
    return bad("checksum mismatch");
  const auto encoding = static_cast<std::uint8_t>(extension[4]);
  const std::uint64_t stored = common::get_le(extension.data() + 5, 4), raw = common::get_le(extension.data() + 9, 4);
  const std::string_view body = extension.substr(kValueTablesHeaderSize, stored);
  if (encoding > kZstd || raw > kMaxValueTablesBytes || (encoding == kStored && raw != stored)) return bad("bad encoding or size");
  ValueTables out;
  if (encoding == kStored) out.bytes_.assign(body);
  else if (!common::decompress_exact(body, static_cast<std::uint32_t>(raw), out.bytes_))
    return bad("does not decompress to its size");
  ByteCursor r(out.bytes_);
  std::uint64_t n, values = 0;
  if (!r.varint(n) || n == 0 || n > kMaxTables) return bad("bad table count");
  std::set<std::string_view> seen;
  for (std::uint64_t table = 0; table < n; ++table) {
    Table& t = out.tables_.emplace_back();
    std::uint64_t keys, entries;
    if (!r.varint(keys) || keys == 0 || keys > kMaxTableKeys) return bad("bad key count");
    for (std::uint64_t i = 0; i < keys; ++i) {
      std::string_view k;
      if (!r.prefixed(k)) return bad("key runs past the end");
      if (k.empty()) return bad("an empty key");
      if (!seen.insert(k).second) return bad("a key of two tables, or twice in one");
      t.keys.emplace_back(k);
    }
    if (!r.varint(entries) || entries == 0 || entries > kMaxTableEntries) return bad("bad entry count");
    values += entries * keys;
    if (values > kMaxTableValues) return bad("more values than the limit");
    // Each value takes a byte at least.
    if (entries * keys > r.remaining()) return bad("values run past the end");
    t.entries = static_cast<std::uint32_t>(entries);
    t.at.resize(entries * keys);
    for (std::uint32_t& at : t.at) {
      at = static_cast<std::uint32_t>(r.rest().data() - out.bytes_.data());
      std::uint64_t len;
      std::string_view value;
      if (!r.varint(len) || (len > 0 && !r.bytes(len - 1, value))) return bad("values run past the end");
    }
  }
  if (r.remaining() != 0) return bad("bytes left over");
  return out;
}

TableBuilder TableBuilder::from(const ValueTables& tables) {
  if (tables.empty()) return {};
  const ValueTables::Table& t = tables.tables()[0];
  TableBuilder b(t.keys);
  for (std::uint32_t e = 0; e < t.entries; ++e) {
    std::string entry;
    for (std::size_t i = 0; i < t.keys.size(); ++i) {
      const auto v = tables.value(0, e, i);
      put_varint(entry, v ? v->size() + 1 : 0);
      if (v) entry += *v;
    }
    b.index_.try_emplace(entry, e);  // (a table read may repeat an entry: the first is found)
    b.bytes_ += entry;
    ++b.entries_;
  }
  return b;
}

std::vector<std::int64_t> TableBuilder::number(const std::vector<std::vector<Tag>>& games) {
  std::vector<std::int64_t> out(games.size(), -1);
  if (!active()) return out;
  std::vector<const std::string*> first(keys_.size());
  for (std::size_t g = 0; g < games.size(); ++g) {
    std::fill(first.begin(), first.end(), nullptr);
    bool any = false;
    for (const Tag& t : games[g])
      for (std::size_t i = 0; i < keys_.size(); ++i)
        if (!first[i] && t.key == keys_[i]) {
          first[i] = &t.value;
          any = true;
        }
    if (!any) continue;
    std::string entry;
    for (const std::string* v : first) {
      put_varint(entry, v ? v->size() + 1 : 0);
      if (v) entry += *v;
    }
    if (const auto it = index_.find(entry); it != index_.end()) {
      out[g] = it->second;
    } else if (entries_ < kWriterTableEntries && bytes_.size() + entry.size() <= kWriterTableBytes) {
      index_.emplace(entry, entries_);
      bytes_ += entry;
      out[g] = entries_++;
    }
  }
  return out;
}

std::string TableBuilder::extension(int level) const {
  if (entries_ == 0) return {};
  std::string tables;
  put_varint(tables, 1);
  put_varint(tables, keys_.size());
  for (const std::string& k : keys_) common::put_prefixed(tables, k);
  put_varint(tables, entries_);
  tables += bytes_;
  std::string packed = level > 0 ? common::compress_frame(tables, level) : std::string();
  const bool zstd = !packed.empty() && packed.size() < tables.size();
  std::string out(kValueTablesMagic, 4);
  out += static_cast<char>(zstd ? kZstd : kStored);
  common::put_le(out, zstd ? packed.size() : tables.size(), 4);
  common::put_le(out, tables.size(), 4);
  out += zstd ? packed : tables;
  common::put_le(out, common::hash64(out), 8);
  return out;
}

std::vector<std::string> opening_keys(const std::vector<std::vector<Tag>>& games) {
  std::vector<bool> used(std::size(kOpeningKeys), false);
  for (const auto& g : games)
    for (const Tag& t : g)
      for (std::size_t i = 0; i < used.size(); ++i) used[i] = used[i] || t.key == kOpeningKeys[i];
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < used.size(); ++i)
    if (used[i]) keys.emplace_back(kOpeningKeys[i]);
  return keys;
}

}  // namespace pgnarc::container
