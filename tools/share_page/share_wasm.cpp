// The share page's decoder (tools/share_page/build compiles it and the library's rules and move
// model to WebAssembly with emscripten): the game of a share token, decoded by the library itself,
// and its board as board_svg draws it. The page (share_page.html) calls the two functions below.
#include <string>
#include <vector>

#include "api/json_text.h"
#include "pgnarc/board_svg.h"
#include "pgnarc/game.h"
#include "pgnarc/pgn.h"
#include "pgnarc/share.h"

namespace {

using pgnarc::api::json_string;

// The game opened last: the position after each main-line ply and the move that reached it.
std::vector<pgnarc::Position> positions;
std::vector<pgnarc::Move> moves;
std::string answer;

std::string error_json(const std::string& message) { return "{\"error\": " + json_string(message) + "}"; }

std::string open(const char* token) {
  positions.clear();
  moves.clear();
  auto game = pgnarc::open_share_token(token);
  if (!game) return error_json(game.error().message());
  auto start = pgnarc::start_position(*game);
  if (!start) return error_json(start.error().message());
  auto start_fen = pgnarc::fen_after(*game, 0);
  if (!start_fen) return error_json(start_fen.error().message());
  std::string pgn;
  if (auto st = pgnarc::write_pgn(*game, pgn); !st) return error_json(st.error().message());
  std::string out = "{\"tags\": [";
  for (std::size_t i = 0; i < game->tags.size(); ++i)
    out += (i ? ", [" : "[") + json_string(game->tags[i].key) + ", " + json_string(game->tags[i].value) + "]";
  out += "], \"result\": " + json_string(pgnarc::result_text(game->result)) + ", \"pgn\": " + json_string(pgn) +
         ", \"plies\": [{\"san\": \"\", \"uci\": \"\", \"fen\": " + json_string(*start_fen) +
         "}";
  positions.push_back(*start);
  moves.push_back(pgnarc::Move::none());
  for (const pgnarc::GameEvent& e : game->events) {
    if (e.type != pgnarc::GameEvent::kMove) continue;  // a token's main line holds moves only
    pgnarc::Position at = positions.back();
    const std::string san = at.san(e.move), uci = at.uci(e.move);
    const pgnarc::Square ep = pgnarc::double_step_square(at, e.move);
    at.play(e.move);
    out += ", {\"san\": " + json_string(san) + ", \"uci\": " + json_string(uci) + ", \"fen\": " + json_string(at.fen(ep)) +
           "}";
    positions.push_back(at);
    moves.push_back(e.move);
  }
  return out + "]}";
}

}  // namespace

extern "C" {

// The game of `token` as JSON: {"tags": [[key, value]], "result", "pgn", "plies": [{"san", "uci",
// "fen"}]} (plies[0] the start position; fen as `pgnarc get --fen` writes it), or {"error"}.
const char* pgnarc_open_token(const char* token) {
  answer = open(token);
  return answer.c_str();
}

// The board after `ply` plies of the game opened last, as `pgnarc get --svg` draws it ("" out of range).
const char* pgnarc_board_svg(int ply, int flip, int size) {
  if (ply < 0 || static_cast<std::size_t>(ply) >= positions.size()) return "";
  pgnarc::BoardSvgOptions o;
  o.flip = flip != 0;
  o.size = size;
  o.last_move = moves[static_cast<std::size_t>(ply)];
  answer = pgnarc::board_svg(positions[static_cast<std::size_t>(ply)], o);
  return answer.c_str();
}

}
