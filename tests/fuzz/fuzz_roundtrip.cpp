// Fuzz target: PGN -> archive -> PGN. Every game comes back as it was read (or as its bytes),
// and packing twice gives the same bytes; input that is not PGN text (binary data) is refused,
// both times.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "pgnarc/pgnarc.h"

namespace {

// The archive's bytes; none where the reader refuses the input as not PGN text.
std::optional<std::string> pack(const std::string& pgn, const std::string& path) {
  pgnarc::WriterOptions o;
  o.threads = 1;
  o.block_games = 3;
  auto w = pgnarc::ArchiveWriter::create(path, o);
  if (!w) __builtin_trap();
  pgnarc::PgnReader reader(pgnarc::memory_input(pgn), "fuzz.pgn");
  if (auto st = (*w)->add_pgn(reader); !st) {
    if (st.error().code() != pgnarc::ErrorCode::InvalidInput) __builtin_trap();
    return std::nullopt;
  }
  if (!(*w)->finish()) __builtin_trap();
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string pgn(reinterpret_cast<const char*>(data), size);
  const std::string path = "/tmp/pgnarc_fuzz_roundtrip_" + std::to_string(::getpid()) + ".pga";
  const std::optional<std::string> first = pack(pgn, path);
  if (pack(pgn, path) != first) __builtin_trap();
  if (!first) return 0;
  std::vector<std::string> expected;
  {
    pgnarc::PgnReader reader(pgnarc::memory_input(pgn), "fuzz.pgn");
    pgnarc::GameBuilder b;
    for (;;) {
      auto got = reader.next(b);
      if (!got || !*got) break;
      std::string out;
      if (b.ok()) (void)pgnarc::write_pgn(b.game(), out);
      else pgnarc::write_raw_game(b.raw_text(), out);
      expected.push_back(out);
    }
  }
  auto a = pgnarc::Archive::open(path);
  if (!a || (*a)->game_count() != expected.size()) __builtin_trap();
  for (std::uint64_t i = 0; i < expected.size(); ++i) {
    auto g = (*a)->read_pgn(i);
    if (!g || *g != expected[i]) __builtin_trap();
  }
  ::unlink(path.c_str());
  return 0;
}
