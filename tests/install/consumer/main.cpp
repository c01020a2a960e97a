// Reads an archive through the installed public API: prints the game count, then the PGN of the
// game given by number (1-based), or an error and exit 1. On the way it reads that PGN back
// (PgnReader, GameBuilder), writes it again (write_pgn) and replays its main line on a Position
// (legal_moves, san, the inline play) to the FEN fen_after gives: each must agree, or exit 1.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <pgnarc/pgnarc.h>

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  return 1;
}

// The same game read from its PGN, written and replayed through the library's other classes.
int check_round_trip(const std::string& pgn) {
  pgnarc::PgnReader reader(pgnarc::memory_input(pgn), "<game>");
  pgnarc::GameBuilder builder;
  auto read = reader.next(builder);
  if (!read || !*read || !builder.ok()) return fail("the game's PGN does not read back");
  const pgnarc::Game& game = builder.game();
  std::string again;
  if (auto st = pgnarc::write_pgn(game, again); !st) return fail(st.error().to_string());
  if (again != pgn) return fail("write_pgn gives other PGN");

  auto position = pgnarc::start_position(game);
  if (!position) return fail(position.error().to_string());
  int plies = 0;
  for (const pgnarc::GameEvent& e : game.events) {
    if (e.type != pgnarc::GameEvent::kMove) break;  // the main line up to its first variation
    bool legal = false;
    for (pgnarc::Move m : position->legal_moves()) legal |= m == e.move;
    if (!legal || position->san(e.move).empty()) return fail("a move of the game is not legal");
    position->play(e.move);
    ++plies;
  }
  auto fen = pgnarc::fen_after(game, plies, pgnarc::FenEnPassant::kWhenLegal);
  if (!fen) return fail(fen.error().to_string());
  const std::string replayed = position->fen(position->legal_ep_square());
  if (*fen != replayed) return fail("the replayed position differs: " + replayed + " / " + *fen);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer ARCHIVE GAME\n");
    return 2;
  }
  auto archive = pgnarc::Archive::open(argv[1]);
  if (!archive) return fail(archive.error().to_string());
  auto pgn = (*archive)->read_pgn(std::strtoull(argv[2], nullptr, 10) - 1);
  if (!pgn) return fail(pgn.error().to_string());
  if (int failed = check_round_trip(*pgn)) return failed;
  std::printf("games %llu library %s format %s\n%s", static_cast<unsigned long long>((*archive)->game_count()),
              pgnarc::library_version(), PGNARC_FORMAT_VERSION_STRING, pgn->c_str());
  return 0;
}
