// Reads an archive through the installed public API: prints the game count, then the PGN of the
// game given by number (1-based), or an error and exit 1.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <pgnarc/pgnarc.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer ARCHIVE GAME\n");
    return 2;
  }
  auto archive = pgnarc::Archive::open(argv[1]);
  if (!archive) {
    std::fprintf(stderr, "%s\n", archive.error().to_string().c_str());
    return 1;
  }
  auto pgn = (*archive)->read_pgn(std::strtoull(argv[2], nullptr, 10) - 1);
  if (!pgn) {
    std::fprintf(stderr, "%s\n", pgn.error().to_string().c_str());
    return 1;
  }
  std::printf("games %llu library %s format %s\n%s", static_cast<unsigned long long>((*archive)->game_count()),
              pgnarc::library_version(), PGNARC_FORMAT_VERSION_STRING, pgn->c_str());
  return 0;
}
