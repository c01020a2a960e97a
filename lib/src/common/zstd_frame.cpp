#include "common/zstd_frame.h"

#include <algorithm>

namespace pgnarc::common {

namespace {

// One compression context per thread, reused (the same bytes as ZSTD_compress and
// ZSTD_compress_usingCDict).
ZSTD_CCtx* thread_cctx() {
  struct Context {
    ZSTD_CCtx* p = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(p); }
  };
  static thread_local Context context;
  return context.p;
}

std::string finish(std::string packed, std::size_t n) {
  if (ZSTD_isError(n)) return {};
  packed.resize(n);
  return packed;
}

}  // namespace

std::string compress_frame(std::string_view plain, int level) {
  std::string packed(ZSTD_compressBound(plain.size()), '\0');
  const std::size_t n = ZSTD_compressCCtx(thread_cctx(), packed.data(), packed.size(), plain.data(), plain.size(), level);
  return finish(std::move(packed), n);
}

std::string compress_frame(std::string_view plain, const ZSTD_CDict* cdict) {
  std::string packed(ZSTD_compressBound(plain.size()), '\0');
  const std::size_t n =
      ZSTD_compress_usingCDict(thread_cctx(), packed.data(), packed.size(), plain.data(), plain.size(), cdict);
  return finish(std::move(packed), n);
}

ZSTD_DCtx* thread_dctx(const ZSTD_DDict* ddict) {
  struct Context {
    ZSTD_DCtx* p = ZSTD_createDCtx();
    ~Context() { ZSTD_freeDCtx(p); }
  };
  static thread_local Context context;
  ZSTD_DCtx_reset(context.p, ZSTD_reset_session_only);
  ZSTD_DCtx_refDDict(context.p, ddict);
  return context.p;
}

bool decompress_exact(std::string_view in, std::uint32_t size, std::string& out, const ZSTD_DDict* ddict) {
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

}  // namespace pgnarc::common
