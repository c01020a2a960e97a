// The share page's decoder (tools/share_page/build compiles it and the library's rules and move
// model to WebAssembly with emscripten): the game of a share token, chess or Xiangqi, decoded by
// the library itself, and its board as board_svg_after draws it. The page (share_page.html) calls the two functions below.
#include <string>
#include <vector>

#include "api/json_text.h"
#include "pgnarc/board_svg.h"
#include "pgnarc/game.h"
#include "pgnarc/pgn.h"
#include "pgnarc/share.h"
#include "rules/xiangqi_game.h"

namespace {

using pgnarc::api::json_string;

// The game opened last, and how many plies its main line has.
pgnarc::Game opened;
std::size_t plies = 0;
std::string answer;

std::string error_json(const std::string& message) { return "{\"error\": " + json_string(message) + "}"; }

// One ply of the answer: the move's text (SAN, or a Xiangqi move's text in its notation), its UCI
// (ICCS for Xiangqi) and the FEN after it.
std::string ply_json(const std::string& san, const std::string& uci, const std::string& fen) {
  return "{\"san\": " + json_string(san) + ", \"uci\": " + json_string(uci) + ", \"fen\": " + json_string(fen) + "}";
}

std::string open(const char* token) {
  plies = 0;
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
    auto texts = pgnarc::rules::xiangqi::move_texts(*game);
    if (!texts) return error_json(texts.error().message());
    for (const pgnarc::GameEvent& e : game->events) {
      auto fen = pgnarc::fen_after(*game, static_cast<int>(plies + 1));
      if (!fen) return error_json(fen.error().message());
      const std::string iccs = pgnarc::rules::xiangqi::to_iccs(pgnarc::rules::xiangqi::move_of(e.move));
      out += ", " + ply_json(texts->texts[plies++], iccs, *fen);
    }
  } else {
    auto start = pgnarc::start_position(*game);
    if (!start) return error_json(start.error().message());
    pgnarc::Position at = *start;
    for (const pgnarc::GameEvent& e : game->events) {
      const std::string san = at.san(e.move), uci = at.uci(e.move);
      const pgnarc::Square ep = pgnarc::double_step_square(at, e.move);
      at.play(e.move);
      out += ", " + ply_json(san, uci, at.fen(ep));
      ++plies;
    }
  }
  opened = std::move(*game);
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
  if (ply < 0 || static_cast<std::size_t>(ply) > plies) return "";
  pgnarc::BoardSvgOptions o;
  o.flip = flip != 0;
  o.size = size;
  auto svg = pgnarc::board_svg_after(opened, ply, o);
  answer = svg ? *svg : "";
  return answer.c_str();
}

}
