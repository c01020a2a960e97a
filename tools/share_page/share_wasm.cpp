// The share page's decoder (tools/share_page/build compiles it and the library's rules and move
// model to WebAssembly with emscripten): the game of a share token, chess or Xiangqi, decoded by
// the library itself, and its board as `pgnarc get --svg` draws it. The page (share_page.html) calls the two functions below.
#include <string>
#include <vector>

#include "api/json_text.h"
#include "pgnarc/board_svg.h"
#include "pgnarc/game.h"
#include "pgnarc/pgn.h"
#include "pgnarc/share.h"
#include "rules/xiangqi_board_svg.h"
#include "rules/xiangqi_game.h"

namespace {

using pgnarc::api::json_string;
namespace rx = pgnarc::rules::xiangqi;

// The game opened last: the position after each main-line ply and the move that reached it (a
// chess game's, or a Xiangqi game's).
std::vector<pgnarc::Position> positions;
std::vector<pgnarc::Move> moves;
std::vector<rx::Position> xiangqi_positions;
std::vector<rx::Move> xiangqi_moves;
std::string answer;

std::string error_json(const std::string& message) { return "{\"error\": " + json_string(message) + "}"; }

// One ply of the answer: the move's text (SAN, or a Xiangqi move's text in its notation), its UCI
// (ICCS for Xiangqi) and the FEN after it.
std::string ply_json(const std::string& san, const std::string& uci, const std::string& fen) {
  return "{\"san\": " + json_string(san) + ", \"uci\": " + json_string(uci) + ", \"fen\": " + json_string(fen) + "}";
}

std::string open(const char* token) {
  positions.clear();
  moves.clear();
  xiangqi_positions.clear();
  xiangqi_moves.clear();
  auto game = pgnarc::open_share_token(token);
  if (!game) return error_json(game.error().message());
  auto start_fen = pgnarc::fen_after(*game, 0);
  if (!start_fen) return error_json(start_fen.error().message());
  std::string pgn;
  if (auto st = pgnarc::write_pgn(*game, pgn); !st) return error_json(st.error().message());
  std::string out = "{\"tags\": [";
  for (std::size_t i = 0; i < game->tags.size(); ++i)
    out += (i ? ", [" : "[") + json_string(game->tags[i].key) + ", " + json_string(game->tags[i].value) + "]";
  out += "], \"result\": " + json_string(pgnarc::result_text(game->result)) + ", \"pgn\": " + json_string(pgn) +
         ", \"plies\": [" + ply_json("", "", *start_fen);
  // A token's main line holds moves only.
  if (game->rules == pgnarc::GameRules::kXiangqi) {
    auto texts = rx::move_texts(*game);
    if (!texts) return error_json(texts.error().message());
    std::vector<rx::Position> at{texts->start};
    std::vector<rx::Move> by{rx::Move{}};
    for (std::size_t k = 0; k < game->events.size(); ++k) {
      const rx::Move m = rx::move_of(game->events[k].move);
      at.push_back(at.back().after(m));
      by.push_back(m);
      out += ", " + ply_json(texts->texts[k], rx::to_iccs(m), at.back().fen());
    }
    xiangqi_positions = std::move(at);
    xiangqi_moves = std::move(by);
  } else {
    auto start = pgnarc::start_position(*game);
    if (!start) return error_json(start.error().message());
    std::vector<pgnarc::Position> at{*start};
    std::vector<pgnarc::Move> by{pgnarc::Move::none()};
    for (const pgnarc::GameEvent& e : game->events) {
      pgnarc::Position next = at.back();
      const std::string san = next.san(e.move), uci = next.uci(e.move);
      const pgnarc::Square ep = pgnarc::double_step_square(next, e.move);
      next.play(e.move);
      out += ", " + ply_json(san, uci, next.fen(ep));
      at.push_back(next);
      by.push_back(e.move);
    }
    positions = std::move(at);
    moves = std::move(by);
  }
  return out + "]}";
}

}  // namespace

extern "C" {

// The game of `token` as JSON: {"tags": [[key, value]], "result", "pgn", "plies": [{"san", "uci",
// "fen"}]} (plies[0] the start position; fen as `pgnarc get --fen` writes it; a Xiangqi game's
// san its move text, uci its ICCS), or {"error"}.
const char* pgnarc_open_token(const char* token) {
  answer = open(token);
  return answer.c_str();
}

// The board after `ply` plies of the game opened last, as `pgnarc get --svg` draws it ("" out of range).
const char* pgnarc_board_svg(int ply, int flip, int size) {
  pgnarc::BoardSvgOptions o;
  o.flip = flip != 0;
  o.size = size;
  const auto k = static_cast<std::size_t>(ply);
  if (ply >= 0 && k < xiangqi_positions.size()) {
    answer = rx::board_svg(xiangqi_positions[k], k > 0 ? &xiangqi_moves[k] : nullptr, o);
  } else if (ply >= 0 && k < positions.size()) {
    o.last_move = moves[k];
    answer = pgnarc::board_svg(positions[k], o);
  } else {
    answer.clear();
  }
  return answer.c_str();
}

}
