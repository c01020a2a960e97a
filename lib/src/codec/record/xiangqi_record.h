// Xiangqi game records (internal): a Xiangqi game (Game::rules) in a block of codec 9 to 12, as
// format 5.7.2 gives it: the records of section 8 with the variant byte 8 and the game's notation
// bytes after the header, lines without null moves, clock tracks, clock items or records, and
// each ply a symbol among Xiangqi's legal moves (5.7), with the Xiangqi model's frequencies in a
// block of codec 11 or 12 under the model or the fast coder (7.9), else every move with the
// same frequency (the uniform coder's).
#pragma once

#include <vector>

#include "codec/codec.h"
#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::codec {

// encode_game for a Xiangqi game.
Status encode_xiangqi_game(const Game& game, CodecStreams& out, CodecStats* stats);

// Whether the next record of `in` is a Xiangqi game's: its block's codec holds them and its
// header has the variant bit and the variant byte 8.
bool is_xiangqi_record(const CodecCursor& in);

// decode_game for a record for which is_xiangqi_record holds.
Result<ArchiveGame> decode_xiangqi_game(CodecCursor& in, std::vector<Tag> tags);

}  // namespace pgnarc::codec
