// Hostile input to the PGN reader: what is not PGN text is refused before it is parsed, a game
// cannot grow without bound, many tags cost linear time, and messages quote input escaped.
#include <zstd.h>

#include "support/pgn_util.h"

namespace pgnarc {
namespace {

using test::ChunkedSource;
using test::read_all;

TEST(PgnErrors, MessagesQuoteInputWithControlBytesEscaped) {
  EXPECT_EQ(printable(std::string("a\x1B[2Jb\r\n\t\0\x7F\xFF\xC3\xBC\xC2\x9B\xE2\x82\xAC\xED\xA0\x80", 22)),
            "a\\x1b[2Jb\\r\\n\\t\\0\\x7f\\xff\xC3\xBC\\xc2\\x9b\xE2\x82\xAC\\xed\\xa0\\x80");
  const std::string once = printable("\x1B\\x1b\xC0\xAF");
  EXPECT_EQ(once, "\\x1b\\x1b\\xc0\\xaf");
  EXPECT_EQ(printable(once), once);
  const auto games = read_all(std::string("[Event \"e\"]\n\n1. e4 \x1BZ\x07\r e5 *\n"), 1 << 20, "t\x1B.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].error, "t\\x1b.pgn:3:7: game 1: unreadable move \"\\x1bZ\\x07\" in position "
                            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

}  // namespace
}  // namespace pgnarc
