// End-to-end: pgnarc perft, --help, --version and usage errors.
#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::run_cli;

TEST(CliPerft, PrintsTheNodeCount) {
  auto r = run_cli("perft startpos 4");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "197281\n");
  r = run_cli("perft 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3");
  EXPECT_EQ(r.out, "97862\n");
}

TEST(CliPerft, DivideListsMovesInCanonicalOrder) {
  auto r = run_cli("perft startpos 2 --divide");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.substr(0, 35), "b1a3: 20\nb1c3: 20\ng1f3: 20\ng1h3: 20");
  EXPECT_TRUE(r.out.ends_with("h2h4: 20\n\n400\n")) << r.out;
}

TEST(CliPerft, Chess960CastlingIsKingTakesRook) {
  auto r = run_cli("perft '4k3/8/8/8/8/8/8/R3K2R w HA - 0 1' 1 --divide");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("e1a1: 1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("e1h1: 1\n"), std::string::npos) << r.out;
  r = run_cli("perft '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1' 1 --divide");
  EXPECT_NE(r.out.find("e1g1: 1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("e1c1: 1\n"), std::string::npos) << r.out;
}

TEST(CliPerft, BadFenIsBadInput) {
  auto r = run_cli("perft '8/8/8 w - - 0 1' 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field 1 (piece placement)"), std::string::npos) << r.err;
}

TEST(CliPerft, BadUsageIsExitOne) {
  EXPECT_EQ(run_cli("perft startpos").exit_code, 1);
  EXPECT_EQ(run_cli("perft startpos -3").exit_code, 1);
  EXPECT_EQ(run_cli("perft startpos 3 --bogus").exit_code, 1);
  EXPECT_EQ(run_cli("frobnicate").exit_code, 1);
  EXPECT_EQ(run_cli("").exit_code, 1);
}

TEST(Cli, HelpAndVersion) {
  auto r = run_cli("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("exit codes: 0 success, 1 bad usage, 2 bad input, 3 damaged archive, 4 I/O error"),
            std::string::npos);
  r = run_cli("perft --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: pgnarc perft"), std::string::npos);
  r = run_cli("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.substr(0, 7), "pgnarc ");
}

}  // namespace
}  // namespace pgnarc
