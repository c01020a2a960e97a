// Fuzz target: the column form of a texts stream (spec 9.3.2). The first byte picks a mode.
// Mode 0: two bytes give a stream size, the rest is a column form read back to a stream of that
// size: a form that reads must be the one form of its stream (texts_to_columns gives it back byte
// for byte). Mode 1: the rest is cut into texts
// entries, which must come back unchanged through their column form (or have none only if an
// entry holds a marker or terminator byte).
#include <cstdint>
#include <string>

#include "common/bytes.h"
#include "container/text_columns.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgnarc;
  using namespace pgnarc::container;
  if (size < 1) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    // Entries: each input byte below 32 ends an entry (the byte itself is kept in it when it is
    // not 31), so the texts hold terminator and marker bytes only where the input asks.
    std::string stream, entry;
    bool has_special = false;
    const auto flush = [&] {
      common::put_varint(stream, entry.size());
      stream += entry;
      entry.clear();
    };
    for (const char c : rest) {
      if (static_cast<unsigned char>(c) < 32) {
        if (c != 31) entry += c;
        has_special |= c == kColumnTerminator || c == kNumberMarker;
        flush();
      } else {
        entry += c;
      }
    }
    if (!entry.empty()) flush();
    std::string form, back;
    if (!texts_to_columns(stream, form)) {
      if (!has_special) __builtin_trap();
      return 0;
    }
    if (has_special || form.size() > max_columns_size(stream.size())) __builtin_trap();
    if (columns_to_texts(form, stream.size(), back) != nullptr || back != stream) __builtin_trap();
    return 0;
  }
  if (rest.size() < 2) return 0;
  const std::size_t want = static_cast<std::uint8_t>(rest[0]) | static_cast<std::size_t>(static_cast<std::uint8_t>(rest[1])) << 8;
  const std::string_view columns = rest.substr(2);
  std::string stream, form;
  if (columns_to_texts(columns, want, stream) != nullptr) return 0;
  if (stream.size() != want || !texts_to_columns(stream, form) || form != columns) __builtin_trap();
  return 0;
}
