// Share tokens: a game in a short URL-safe text that opens without the archive (format
// specification, section 14).
#pragma once

#include <string>
#include <string_view>

#include "pgnarc/export.h"
#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc {

// The token of `game`: its main line (under the move model), its start position if set up, and
// its result, in base64url (A-Z a-z 0-9 - _). The same game gives the same token in any archive.
// Fails (InvalidInput) for a game of another variant, with a bad FEN or a null move in its main
// line.
PGNARC_EXPORT Result<std::string> share_token(const Game& game);
// The game a token holds: the Seven Tag Roster (unknown values as "?") with its result, SetUp
// and FEN where it was set up, Variant "Chess960" for Chess960, and its moves. A text that is
// not a token (other characters, a reserved header, a damaged codeword) is InvalidInput.
PGNARC_EXPORT Result<Game> open_share_token(std::string_view token);

}  // namespace pgnarc
