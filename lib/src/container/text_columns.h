// The column form of a texts stream (spec 9.3.2): each entry's text with its numbers
// replaced by a marker byte, then the numbers, one column per position in the text. Engine
// comments ("d=27, mt=00:06:16, tl=01:54:13, ...") repeat their wording from move to move while
// their numbers change; apart, each compresses better (TCEC's comments 19% smaller with zstd).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pgnarc::container {

inline constexpr char kColumnTerminator = '\0';
inline constexpr char kNumberMarker = '\1';

// The column form of `stream` (texts entries: varint length, bytes) appended to `out`; false,
// with `out` unchanged, if an entry holds a terminator or marker byte (such a stream has no
// column form) or the stream is not a run of whole entries.
bool texts_to_columns(std::string_view stream, std::string& out);

// The stream back from its column form, appended to `out`, which must then have grown by
// exactly `size` bytes. Returns null, or why the column form is not one texts_to_columns makes.
const char* columns_to_texts(std::string_view columns, std::size_t size, std::string& out);

// The most bytes the column form of a stream of `size` bytes can take (a reader's bound on the
// size a frame declares): an entry of n bytes takes at least n + 1 in the stream and at most
// 2n + 2 in the columns (n + 1 in its text, and a terminator for each of at most (n + 1) / 2
// numbers), and the entry count at most 10.
inline constexpr std::size_t max_columns_size(std::size_t size) { return 2 * size + 10; }

}  // namespace pgnarc::container
