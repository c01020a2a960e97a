#include "container/file_header.h"

#include <cstring>

#include "common/endian.h"
#include "common/hash.h"
#include "container/format.h"

namespace pgnarc::container {

using common::get_le;
using common::hash64;
using common::put_le;

std::string encode_file_header(std::uint8_t read_minor) {
  std::string h(kFileMagic, 8);
  // The write version, then the read version: what a reader must implement to read the file.
  // The write version is 1.1 unless the file holds what only 1.2 defines (a block of the fast
  // model), so that a file of 1.1's features has 1.1's bytes (9.2).
  h += static_cast<char>(kFormatVersionMajor);
  h += static_cast<char>(read_minor > kVariantsCodecMinor ? read_minor : kVariantsCodecMinor);
  h += static_cast<char>(kFormatVersionMajor);
  h += static_cast<char>(read_minor);
  put_le(h, 0, 4);         // flags: all reserved
  put_le(h, 0, 8);         // reserved
  put_le(h, 0, 4);         // reserved
  put_le(h, hash64(h) & 0xFFFFFFFFu, 4);
  return h;
}

Status decode_file_header(std::string_view b, FileVersions& versions) {
  if (b.size() < kHeaderSize) return corruption("file header: the file is shorter than 32 bytes (offset 0)");
  if (std::memcmp(b.data(), kFileMagic, 8) != 0) return corruption("file header: not a pgnarc archive (bad magic at offset 0)");
  if (get_le(b.data() + 28, 4) != (hash64(b.substr(0, 28)) & 0xFFFFFFFFu))
    return corruption("file header: checksum mismatch (offset 28)");
  versions.write = {static_cast<std::uint8_t>(b[8]), static_cast<std::uint8_t>(b[9])};
  versions.read = {static_cast<std::uint8_t>(b[10]), static_cast<std::uint8_t>(b[11])};
  // A reader of 1.x reads every file of read version 1.y: what 1.y adds beyond 1.x is skipped
  // where the format marks it optional and refused, by name, where it is met otherwise.
  if (versions.read.major != kFormatVersionMajor)
    return unsupported("the archive needs a reader of format " + versions.read.text() + "; this one reads format " +
                       std::to_string(kFormatVersionMajor) + ".x (file header, offset 10)");
  if (get_le(b.data() + 12, 4) != 0) return corruption("file header: reserved flag bits set (offset 12)");
  if (get_le(b.data() + 16, 8) != 0 || get_le(b.data() + 24, 4) != 0)
    return corruption("file header: reserved bytes not zero (offset 16)");
  return {};
}

std::string encode_footer(const Footer& footer) {
  std::string f;
  put_le(f, footer.index_offset, 8);
  put_le(f, footer.index_size, 8);
  put_le(f, footer.games, 8);
  put_le(f, footer.blocks, 8);
  put_le(f, footer.index_hash, 8);
  put_le(f, hash64(f) & 0xFFFFFFFFu, 4);
  f.append(kFooterMagic, 4);
  return f;
}

Status decode_footer(std::string_view f, std::uint64_t file_size, Footer& out) {
  const std::string at = " (footer at offset " + std::to_string(file_size - kFooterSize) + ")";
  if (std::memcmp(f.data() + 44, kFooterMagic, 4) != 0) return corruption("footer: bad magic; the file may be truncated" + at);
  if (get_le(f.data() + 40, 4) != (hash64(f.substr(0, 40)) & 0xFFFFFFFFu)) return corruption("footer: checksum mismatch" + at);
  out.index_offset = get_le(f.data(), 8);
  out.index_size = get_le(f.data() + 8, 8);
  out.games = get_le(f.data() + 16, 8);
  out.blocks = get_le(f.data() + 24, 8);
  out.index_hash = get_le(f.data() + 32, 8);
  if (out.index_offset < kHeaderSize || out.index_offset > file_size - kFooterSize ||
      out.index_size != file_size - kFooterSize - out.index_offset)
    return corruption("footer: index offset or size out of range" + at);
  return {};
}

}  // namespace pgnarc::container
