// Byte sources: files, standard input, memory, zstd / gzip decompression, and the check that an
// input is PGN text before it is parsed.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "pgnarc/pgn.h"

namespace pgnarc {
namespace {

class FdSource : public ByteSource {
 public:
  FdSource(int fd, std::string name, bool owned) : fd_(fd), name_(std::move(name)), owned_(owned) {}
  ~FdSource() override {
    if (owned_) ::close(fd_);
  }
  // The end is kept: a terminal gives end of input (Ctrl-D) once, and a read after it would wait
  // for more typing.
  Result<std::size_t> read(char* buf, std::size_t n) override {
    if (eof_) return std::size_t{0};
    for (;;) {
      const ssize_t r = ::read(fd_, buf, n);
      if (r == 0 && n > 0) eof_ = true;
      if (r >= 0) return static_cast<std::size_t>(r);
      if (errno != EINTR) return io_error("cannot read " + name_ + ": " + std::strerror(errno));
    }
  }

 private:
  int fd_;
  std::string name_;
  bool owned_;
  bool eof_ = false;
};

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string data) : data_(std::move(data)) {}
  Result<std::size_t> read(char* buf, std::size_t n) override {
    const std::size_t k = std::min(n, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string data_;
  std::size_t pos_ = 0;
};

// Gives back bytes already taken from `inner` (to sniff the magic number) before the rest.
class PrefixedSource : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
  Result<std::size_t> read(char* buf, std::size_t n) override {
    if (pos_ < prefix_.size()) {
      const std::size_t k = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return inner_->read(buf, n);
  }

 private:
  std::string prefix_;
  std::size_t pos_ = 0;
  std::unique_ptr<ByteSource> inner_;
};

class ZstdSource : public ByteSource {
 public:
  ZstdSource(std::unique_ptr<ByteSource> inner, std::string name)
      : inner_(std::move(inner)), name_(std::move(name)), in_buf_(ZSTD_DStreamInSize()) {
    ds_ = ZSTD_createDStream();
    ZSTD_initDStream(ds_);
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }
  Result<std::size_t> read(char* buf, std::size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (in_.pos == in_.size) {
        if (eof_) {
          if (!frame_done_) return corruption(name_ + ": zstd stream ends in the middle of a frame");
          return std::size_t{0};
        }
        auto r = inner_->read(in_buf_.data(), in_buf_.size());
        if (!r) return r.error();
        if (*r == 0) {
          eof_ = true;
          continue;
        }
        in_ = ZSTD_inBuffer{in_buf_.data(), *r, 0};
      }
      const std::size_t ret = ZSTD_decompressStream(ds_, &out, &in_);
      if (ZSTD_isError(ret))
        return corruption(name_ + ": zstd: " + ZSTD_getErrorName(ret));
      frame_done_ = ret == 0;
    }
    return out.pos;
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::string name_;
  std::vector<char> in_buf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  ZSTD_DStream* ds_;
  bool eof_ = false;
  bool frame_done_ = true;
};

class GzipSource : public ByteSource {
 public:
  GzipSource(std::unique_ptr<ByteSource> inner, std::string name)
      : inner_(std::move(inner)), name_(std::move(name)), in_buf_(1 << 16) {
    std::memset(&zs_, 0, sizeof zs_);
    inflateInit2(&zs_, 16 + MAX_WBITS);
  }
  ~GzipSource() override { inflateEnd(&zs_); }
  Result<std::size_t> read(char* buf, std::size_t n) override {
    zs_.next_out = reinterpret_cast<Bytef*>(buf);
    zs_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    const uInt want = zs_.avail_out;
    while (zs_.avail_out == want) {
      if (zs_.avail_in == 0) {
        if (eof_) {
          if (!member_done_) return corruption(name_ + ": gzip stream ends in the middle of a member");
          break;
        }
        auto r = inner_->read(in_buf_.data(), in_buf_.size());
        if (!r) return r.error();
        if (*r == 0) {
          eof_ = true;
          continue;
        }
        zs_.next_in = reinterpret_cast<Bytef*>(in_buf_.data());
        zs_.avail_in = static_cast<uInt>(*r);
      }
      if (member_done_) {  // a new member (concatenated gzip files)
        inflateReset(&zs_);
        member_done_ = false;
      }
      const int ret = inflate(&zs_, Z_NO_FLUSH);
      if (ret == Z_STREAM_END) {
        member_done_ = true;
      } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
        return corruption(name_ + ": gzip: " + (zs_.msg ? zs_.msg : "inflate failed"));
      }
    }
    return static_cast<std::size_t>(want - zs_.avail_out);
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::string name_;
  std::vector<char> in_buf_;
  z_stream zs_;
  bool eof_ = false;
  bool member_done_ = true;
};

}  // namespace

namespace {

bool starts_with(std::string_view h, std::initializer_list<unsigned char> magic) {
  if (h.size() < magic.size()) return false;
  std::size_t i = 0;
  for (unsigned char c : magic)
    if (static_cast<unsigned char>(h[i++]) != c) return false;
  return true;
}

// A zstd frame, or a skippable frame (magic 0x184D2A5?, little-endian), which pzstd writes first.
bool is_zstd(std::string_view h) {
  return starts_with(h, {0x28, 0xB5, 0x2F, 0xFD}) ||
         (h.size() >= 4 && (static_cast<unsigned char>(h[0]) & 0xF0) == 0x50 && starts_with(h.substr(1), {0x2A, 0x4D, 0x18}));
}
bool is_gzip(std::string_view h) { return starts_with(h, {0x1F, 0x8B}); }

// Reads from `src` until `want` bytes or the end.
Result<std::string> read_head(ByteSource& src, std::size_t want) {
  std::string head(want, '\0');
  std::size_t got = 0;
  while (got < want) {
    auto r = src.read(head.data() + got, want - got);
    if (!r) return r.error();
    if (*r == 0) break;
    got += *r;
  }
  head.resize(got);
  return head;
}

// `s` as one shell word.
std::string shell_word(std::string_view s) {
  if (!s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-,:=@%") ==
                        std::string_view::npos)
    return std::string(s);
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The shell command that makes `path` PGN with `filter` ("bzip2 -dc") and packs it.
std::string pipe_command(const std::string& path, const std::string& filter, const std::vector<const char*>& exts) {
  if (path == "-") return filter + " | pgnarc pack - -o OUT.pga";
  // The archive's name: the input's, without its directory and its extensions.
  std::string_view out = path;
  if (const std::size_t slash = out.rfind('/'); slash != std::string_view::npos) out.remove_prefix(slash + 1);
  for (const char* ext : exts)
    if (out.size() > std::strlen(ext) && out.ends_with(ext)) {
      out.remove_suffix(std::strlen(ext));
      break;
    }
  if (out.size() > 4 && out.ends_with(".pgn")) out.remove_suffix(4);
  return filter + " " + shell_word(path) + " | pgnarc pack - -o " + shell_word(std::string(out) + ".pga");
}

}  // namespace

namespace {

// What a head of bytes that is not PGN text is ("bzip2-compressed"), and the filter that would
// make it PGN ("bzip2 -dc"; empty if none would) with the extensions it removes from a name.
struct Kind {
  std::string what;
  std::string filter;
  std::vector<const char*> exts = {};
};

std::optional<Kind> classify(std::string_view h) {
  if (starts_with(h, {0x89, 'P', 'G', 'A', '\r', '\n', 0x1A, '\n'})) return Kind{"a pgnarc archive", ""};
  if (is_zstd(h)) return Kind{"zstd-compressed", "zstd -dc"};
  if (is_gzip(h)) return Kind{"gzip-compressed", "gzip -dc"};
  if (starts_with(h, {'B', 'Z', 'h'}) && h.size() >= 10 && h[3] >= '1' && h[3] <= '9' &&
      (starts_with(h.substr(4), {0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) ||   // a block
       starts_with(h.substr(4), {0x17, 0x72, 0x45, 0x38, 0x50, 0x90})))    // the end of the stream
    return Kind{"bzip2-compressed", "bzip2 -dc", {".bz2", ".bz"}};
  if (starts_with(h, {0xFD, '7', 'z', 'X', 'Z', 0x00})) return Kind{"xz-compressed", "xz -dc", {".xz", ".txz"}};
  if (starts_with(h, {0x5D, 0x00, 0x00})) return Kind{"lzma-compressed", "xz -dc", {".lzma"}};
  if (starts_with(h, {0x04, 0x22, 0x4D, 0x18})) return Kind{"lz4-compressed", "lz4 -dc", {".lz4"}};
  if (starts_with(h, {'7', 'z', 0xBC, 0xAF, 0x27, 0x1C})) return Kind{"a 7z archive", "7z x -so", {".7z"}};
  if (starts_with(h, {'P', 'K', 0x03, 0x04}) || starts_with(h, {'P', 'K', 0x05, 0x06}))
    return Kind{"a zip archive", "unzip -p", {".zip"}};
  // UTF-32 and UTF-16 by their byte-order marks (UTF-32 first: its little-endian mark begins
  // with UTF-16's) or, without one, by where the NUL bytes of ASCII text stand.
  if (starts_with(h, {0x00, 0x00, 0xFE, 0xFF}) || starts_with(h, {0xFF, 0xFE, 0x00, 0x00}))
    return Kind{"UTF-32 text", "iconv -f UTF-32 -t UTF-8"};
  if (starts_with(h, {0xFE, 0xFF}) || starts_with(h, {0xFF, 0xFE})) return Kind{"UTF-16 text", "iconv -f UTF-16 -t UTF-8"};
  std::size_t nul[4] = {0, 0, 0, 0}, control = 0, first_nul = h.size();
  for (std::size_t i = 0; i < h.size(); ++i) {
    const auto c = static_cast<unsigned char>(h[i]);
    if (c == 0) {
      ++nul[i % 4];
      first_nul = std::min(first_nul, i);
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') || c == 0x7F) ++control;
  }
  if (const std::size_t q = h.size() / 4; q >= 4) {
    // Nine in ten of the bytes where the high bytes of ASCII characters stand are NUL, and at
    // most one in ten of the others.
    const auto mostly = [](std::size_t n, std::size_t of) { return n * 10 >= of * 9; };
    const auto few = [](std::size_t n, std::size_t of) { return n * 10 <= of; };
    if (mostly(nul[1] + nul[2] + nul[3], 3 * q) && few(nul[0], q)) return Kind{"UTF-32LE text", "iconv -f UTF-32LE -t UTF-8"};
    if (mostly(nul[0] + nul[1] + nul[2], 3 * q) && few(nul[3], q)) return Kind{"UTF-32BE text", "iconv -f UTF-32BE -t UTF-8"};
    if (mostly(nul[1] + nul[3], 2 * q) && few(nul[0] + nul[2], 2 * q)) return Kind{"UTF-16LE text", "iconv -f UTF-16LE -t UTF-8"};
    if (mostly(nul[0] + nul[2], 2 * q) && few(nul[1] + nul[3], 2 * q)) return Kind{"UTF-16BE text", "iconv -f UTF-16BE -t UTF-8"};
  }
  if (first_nul < h.size()) return Kind{"binary data (a NUL byte at offset " + std::to_string(first_nul) + ")", ""};
  // PGN has no control characters but tab, LF, VT, FF and CR; a stray one is let through (the
  // game that holds it is kept verbatim), more than 1 in 32 bytes is not text.
  if (control * 32 > h.size())
    return Kind{"binary data (" + std::to_string(control) + " of its first " + std::to_string(h.size()) +
                    " bytes are control characters)",
                ""};
  return std::nullopt;
}

}  // namespace

std::optional<std::string> not_pgn_text(std::string_view head, const std::string& path) {
  auto kind = classify(head);
  if (!kind) return std::nullopt;
  const std::string name = path == "-" ? "standard input" : path;
  std::string msg = name + " is " + kind->what + ", not PGN";
  if (kind->what == "a pgnarc archive")
    return msg + ": archives are joined with pgnarc merge -o OUT.pga " + (path == "-" ? std::string("ARCHIVE") : shell_word(path)) +
           " ... (append and pack take PGN), and read with pgnarc unpack";
  if (!kind->filter.empty()) return msg + "; make it PGN through a pipe: " + pipe_command(path, kind->filter, kind->exts);
  return msg + " text";
}

Result<std::unique_ptr<ByteSource>> decompressing_input(std::unique_ptr<ByteSource> raw, std::string name) {
  // Sniff up to four bytes (a source may deliver fewer per read).
  auto head = read_head(*raw, 4);
  if (!head) return head.error();
  const bool zstd = is_zstd(*head), gzip = is_gzip(*head);
  std::unique_ptr<ByteSource> src = std::make_unique<PrefixedSource>(std::move(*head), std::move(raw));
  if (zstd) return std::unique_ptr<ByteSource>(std::make_unique<ZstdSource>(std::move(src), std::move(name)));
  if (gzip) return std::unique_ptr<ByteSource>(std::make_unique<GzipSource>(std::move(src), std::move(name)));
  return src;
}

Result<std::unique_ptr<ByteSource>> pgn_input(std::unique_ptr<ByteSource> raw, const std::string& path) {
  const std::string name = path == "-" ? "<stdin>" : path;
  auto head = read_head(*raw, kSniffBytes);
  if (!head) return head.error();
  const bool compressed = is_zstd(*head) || is_gzip(*head);
  if (!compressed)
    if (auto why = not_pgn_text(*head, path)) return invalid_input(*why);
  auto src = decompressing_input(std::make_unique<PrefixedSource>(std::move(*head), std::move(raw)), name);
  if (!src || !compressed) return src;
  // What the compressed stream holds must be PGN text too.
  auto inner = read_head(**src, kSniffBytes);
  if (!inner) return inner.error();
  if (auto kind = classify(*inner))
    return invalid_input((path == "-" ? std::string("standard input") : path) + " decompresses to " + kind->what +
                         ", not PGN text");
  return std::unique_ptr<ByteSource>(std::make_unique<PrefixedSource>(std::move(*inner), std::move(*src)));
}

Result<std::unique_ptr<ByteSource>> open_input(const std::string& path) {
  if (path == "-") return pgn_input(std::make_unique<FdSource>(0, "<stdin>", false), path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open " + path + ": " + std::strerror(errno));
  return pgn_input(std::make_unique<FdSource>(fd, path, true), path);
}

std::unique_ptr<ByteSource> memory_input(std::string data) {
  auto r = decompressing_input(std::make_unique<MemorySource>(std::move(data)), "<memory>");
  return std::move(r).value();  // memory reads cannot fail
}

}  // namespace pgnarc
