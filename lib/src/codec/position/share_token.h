// Share tokens (internal; format specification section 14): a game's main line, its start
// position if set up and its result in a few bytes that need no archive to read.
#pragma once

#include <string>
#include <string_view>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::codec {

// The token's first byte: 1 for a game of chess, 3 for a game of Xiangqi (2 and the others are
// reserved).
inline constexpr std::uint8_t kTokenVersion = 1, kXiangqiTokenVersion = 3;

// The token's bytes (before base64url): its header (with the game's termination marker as its
// result) and one codeword of the start position (if set up) and the main line's moves under
// the move model (a Xiangqi game's: its position code, 5.7.3, and the Xiangqi model). Fails
// (InvalidInput) for a game whose tags give no start position (another variant, a bad FEN) or
// whose main line holds a null move, and on an illegal move.
Result<std::string> encode_token(const Game& game);
// The game of a token's bytes: the Seven Tag Roster with unknown values and the result, SetUp
// and FEN for a set-up start, Variant for Chess960; the moves (a Xiangqi game's tags: Game,
// the roster with Red for White, FEN, Format "ICCS"). Damage (a header of another
// version or with reserved bits, a codeword that is not one, bytes after it) is InvalidInput.
Result<Game> decode_token(std::string_view bytes);

// Base64url (RFC 4648 section 5, A-Z a-z 0-9 - _) without padding.
std::string base64url(std::string_view bytes);
// False if `text` is not base64url without padding (other characters, a length of 4k + 1, or
// bits left over that are not 0).
bool from_base64url(std::string_view text, std::string& bytes);

}  // namespace pgnarc::codec
