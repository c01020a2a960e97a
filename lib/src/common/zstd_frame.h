// Zstandard frames: compression with a per-thread context, and decompression that allocates
// only as output is produced (a size field that lies costs no memory).
#pragma once

#include <zstd.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnarc::common {

// `plain` as one zstd frame at `level`, its header giving the content size; empty if zstd fails.
std::string compress_frame(std::string_view plain, int level);
// `plain` as one zstd frame made with the digested dictionary `cdict` (which carries its level);
// empty if zstd fails.
std::string compress_frame(std::string_view plain, const ZSTD_CDict* cdict);

// The ID of the dictionary the frame `frame` was made with, from its header (0: none, or not a
// frame).
inline std::uint32_t frame_dictionary_id(std::string_view frame) {
  return static_cast<std::uint32_t>(ZSTD_getDictID_fromFrame(frame.data(), frame.size()));
}

// The calling thread's decompression context (freed when the thread ends), reset for a new
// frame and bound to `ddict` or to none: a context keeps the last dictionary it was given, so
// every use says which.
ZSTD_DCtx* thread_dctx(const ZSTD_DDict* ddict = nullptr);

// Decompresses the one frame `in` into `out`, which must come to exactly `size` bytes (false
// otherwise, or if bytes follow the frame), with `ddict` or no dictionary. `out` grows only as
// output is produced.
bool decompress_exact(std::string_view in, std::uint32_t size, std::string& out, const ZSTD_DDict* ddict = nullptr);

}  // namespace pgnarc::common
