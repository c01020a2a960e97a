// The file header (9.2) and the footer (9.6): the fixed-size ends of an archive.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pgnarc/status.h"
#include "pgnarc/version.h"

namespace pgnarc::container {

// The 32-byte header this library writes, its read version 1.`read_minor` (2.1: the oldest
// version that defines everything the file uses) and write version 1.1, or 1.2 where the read
// version is 1.2 (9.2).
std::string encode_file_header(std::uint8_t read_minor);
// The header's two versions (9.2).
struct FileVersions {
  FormatVersion write, read;
};
// Checks the first 32 bytes of `file`: size, magic and checksum (Corruption), the read version
// (Unsupported unless its major version is this library's), the reserved fields (Corruption).
Status decode_file_header(std::string_view file, FileVersions& versions);

struct Footer {
  std::uint64_t index_offset = 0, index_size = 0, games = 0, blocks = 0, index_hash = 0;
};
std::string encode_footer(const Footer& footer);
// Reads and checks the 48 bytes `bytes` that end a file of `file_size` bytes (magic, checksum,
// the index where it can be); Corruption naming the footer's offset.
Status decode_footer(std::string_view bytes, std::uint64_t file_size, Footer& out);

}  // namespace pgnarc::container
