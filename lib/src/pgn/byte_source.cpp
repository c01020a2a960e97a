// Byte sources: files, standard input, memory, and zstd / gzip decompression.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
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
  Result<std::size_t> read(char* buf, std::size_t n) override {
    for (;;) {
      const ssize_t r = ::read(fd_, buf, n);
      if (r >= 0) return static_cast<std::size_t>(r);
      if (errno != EINTR) return io_error("cannot read " + name_ + ": " + std::strerror(errno));
    }
  }

 private:
  int fd_;
  std::string name_;
  bool owned_;
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

Result<std::unique_ptr<ByteSource>> decompressing_input(std::unique_ptr<ByteSource> raw, std::string name) {
  // Sniff up to four bytes (a source may deliver fewer per read).
  std::string head;
  while (head.size() < 4) {
    char buf[4];
    auto r = raw->read(buf, 4 - head.size());
    if (!r) return r.error();
    if (*r == 0) break;
    head.append(buf, *r);
  }
  const bool zstd = head.size() >= 4 && static_cast<unsigned char>(head[0]) == 0x28 &&
                    static_cast<unsigned char>(head[1]) == 0xB5 && static_cast<unsigned char>(head[2]) == 0x2F &&
                    static_cast<unsigned char>(head[3]) == 0xFD;
  const bool gzip = head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1F &&
                    static_cast<unsigned char>(head[1]) == 0x8B;
  std::unique_ptr<ByteSource> src = std::make_unique<PrefixedSource>(std::move(head), std::move(raw));
  if (zstd) return std::unique_ptr<ByteSource>(std::make_unique<ZstdSource>(std::move(src), std::move(name)));
  if (gzip) return std::unique_ptr<ByteSource>(std::make_unique<GzipSource>(std::move(src), std::move(name)));
  return src;
}

Result<std::unique_ptr<ByteSource>> open_input(const std::string& path) {
  if (path == "-") return decompressing_input(std::make_unique<FdSource>(0, "<stdin>", false), "<stdin>");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open " + path + ": " + std::strerror(errno));
  return decompressing_input(std::make_unique<FdSource>(fd, path, true), path);
}

std::unique_ptr<ByteSource> memory_input(std::string data) {
  auto r = decompressing_input(std::make_unique<MemorySource>(std::move(data)), "<memory>");
  return std::move(r).value();  // memory reads cannot fail
}

}  // namespace pgnarc
