// The elements beside the blocks (tag dictionaries 9.9, name chunks 9.10, block table chunks
// 9.11) share one frame: a magic and the element's own fields, among them an encoding byte and
// reserved bytes, then the stored and raw sizes (4 bytes each), the content as stored, and
// XXH64 of every byte before. An element kind is where those fields sit and how large its
// content may be.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "container/format.h"
#include "container/where.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

class WriterDictionary;
class ReaderDictionaries;

struct ElementShape {
  const char* magic;
  const char* name;  // in errors: "dictionary", "name chunk"
  std::size_t header_size, encoding_at, reserved_at, reserved_bytes, stored_size_at;
  std::uint32_t max_raw;
  bool dictionary_encoding;  // encoding 3 (zstd with one of the archive's tag dictionaries) allowed
};
inline constexpr ElementShape kDictionaryShape{kDictionaryMagic, "dictionary", kDictionaryHeaderSize, 8, 9, 3, 12,
                                               kMaxDictionaryBytes, false};
inline constexpr ElementShape kNameChunkShape{kNameChunkMagic, "name chunk", kNameChunkHeaderSize, 5, 6, 2, 8,
                                              kMaxNameChunkBytes, true};
inline constexpr ElementShape kTableChunkShape{kTableChunkMagic, "block table chunk", kTableChunkHeaderSize, 4, 5, 3, 8,
                                               kMaxTableChunkBytes, false};

// The element of `shape` whose header starts with `head` (up to its encoding byte), holding
// `content`: stored as it is, or, with options.compress, compressed where that is smaller,
// with zstd (encoding 1) or, given `dict`, with the archive's tag dictionary (encoding 3), the
// smaller of the two.
std::string encode_element(const ElementShape& shape, std::string head, std::string_view content,
                         const StoreOptions& options, const WriterDictionary* dict = nullptr);

// The size of the element of `shape` at the start of `bytes`, from its header; 0 if `bytes` does
// not start with its magic or the sizes run past `bytes`. Nothing else is checked.
std::size_t element_size(std::string_view bytes, const ElementShape& shape);
// The size the element of `shape` at the start of `head` declares in its header, however many
// bytes follow; 0 if `head` does not start with its magic or is shorter than its header.
std::uint64_t element_declared_size(std::string_view head, const ElementShape& shape);

// Checks the element `bytes` of `shape` (checksum first, then magic, encoding, reserved bytes
// and sizes) and decodes its content; `dictionaries` (null if none) for encoding 3. The
// element's own fields are its caller's to check. Corruption, prefixed by `where`.
Status decode_element(std::string_view bytes, const Where& where, const ElementShape& shape,
                    const ReaderDictionaries* dictionaries, std::string& content);

}  // namespace pgnarc::container
