// End-to-end: games of lichess's variants (format 1.1) packed, by their Variant tag or by
// pack --variant, unpacked as they came in, found by their variant and positions, and a game
// illegal under its variant kept verbatim.
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"

namespace pgnarc {
namespace {

using test::run_cli;

// FICS writes no Variant tag; the second game is illegal as crazyhouse (no knight to drop).
constexpr const char* kUntagged =
    "[Event \"rated crazyhouse\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Bxf7+ Kxf7 5. Ng5+ Ke8 6. P@f7+ Ke7 7. Qh5 1-0\n\n"
    "[Event \"rated crazyhouse\"]\n[White \"b\"]\n[Black \"a\"]\n[Result \"*\"]\n\n1. e4 e5 2. N@f3 *\n";
constexpr const char* kTagged =
    "[Event \"Atomic\"]\n[Result \"0-1\"]\n[Variant \"Atomic\"]\n\n"
    "1. Nf3 f6 2. Nd4 Nh6 3. e3 Ng4 4. Nb5 a6 5. Nxc7 Nxf2# 0-1\n\n"
    "[Event \"Hill\"]\n[Result \"1-0\"]\n[Variant \"kingOfTheHill\"]\n\n1. e4 e5 2. Ke2 d5 3. Kd3 dxe4+ 4. Kxe4# 1-0\n";

class CliVariant : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.path();
    std::ofstream(dir_ + "/fics.pgn", std::ios::binary) << kUntagged;
    std::ofstream(dir_ + "/lichess.pgn", std::ios::binary) << kTagged;
  }
  std::string p(const std::string& name) const { return "'" + dir_ + "/" + name + "'"; }
  test::ScratchDir scratch_{"cli_variant"};
  std::string dir_;
};

TEST_F(CliVariant, UntaggedGamesPackedUnderTheVariantGiven) {
  // As standard chess the drops are illegal: both games verbatim.
  auto r = run_cli("pack --moves max --tags tables " + p("fics.pgn") + " -o " + p("standard.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("2 games (2 kept verbatim)"), std::string::npos) << r.out << r.err;
  r = run_cli("pack --moves max --tags tables --variant=crazyhouse " + p("fics.pgn") + " -o " + p("zh.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("2 games (1 kept verbatim)"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("game 2"), std::string::npos) << "the illegal game is listed: " << r.err;
  // Unpacked as it came in: no Variant tag added; canonical SAN of the drops.
  r = run_cli("unpack " + p("zh.pga"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kUntagged) + "\n");
  // With the strongest model (coder 1), only the block of crazyhouse games needs a reader of 1.1
  // (with --tags tables: by default, the games' own events make it 1.14).
  auto info = nlohmann::json::parse(run_cli("info --json " + p("zh.pga")).out);
  EXPECT_EQ(info["read_version"], "1.1");
  EXPECT_EQ(info["verbatim_games"], 1);
  info = nlohmann::json::parse(run_cli("info --json " + p("standard.pga")).out);
  EXPECT_EQ(info["read_version"], "1.0");
  EXPECT_EQ(run_cli("find --count --variant crazyhouse " + p("zh.pga")).out, "1\n");
  EXPECT_EQ(run_cli("find --count --variant standard " + p("zh.pga")).out, "1\n") << "the verbatim game";
  EXPECT_EQ(run_cli("verify -q " + p("zh.pga")).exit_code, 0);
  // A name pack does not know is bad usage.
  r = run_cli("pack --variant=seirawan " + p("fics.pgn") + " -o " + p("x.pga"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown variant 'seirawan'"), std::string::npos) << r.err;
}

TEST_F(CliVariant, TaggedGamesFoundByVariantAndPosition) {
  ASSERT_EQ(run_cli("pack -q " + p("lichess.pgn") + " -o " + p("l.pga")).exit_code, 0);
  EXPECT_EQ(run_cli("unpack " + p("l.pga")).out, std::string(kTagged) + "\n");
  EXPECT_EQ(run_cli("find --variant atomic " + p("l.pga")).out, "1\n");
  EXPECT_EQ(run_cli("find --variant king-of-the-hill " + p("l.pga")).out, "2\n");
  EXPECT_EQ(run_cli("find --count --variant standard " + p("l.pga")).out, "0\n");
  // The position after 1. e4 e5 2. Ke2 is the hill game's, and no standard game's.
  const std::string fen = "'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2'";
  EXPECT_EQ(run_cli("find -q --variant king-of-the-hill --position " + fen + " " + p("l.pga")).out, "2\n");
  EXPECT_EQ(run_cli("find -q --position " + fen + " " + p("l.pga")).out, "");
  // After 5. Nxc7 (b8, c8, d8 exploded) and 5... Nxf2 (e1, f1, g1 too).
  EXPECT_EQ(run_cli("get " + p("l.pga") + " 1 --fen 10").out, "r3kb1r/1p1pp1pp/p4p2/8/8/4P3/PPPP2PP/RNBQ3R w kq - 0 6\n");
}

// tree --variant: the position (the variant's start by default) and its moves read under the
// variant, and only its games counted.
TEST_F(CliVariant, TreeOfAVariantsGames) {
  ASSERT_EQ(run_cli("pack -q " + p("lichess.pgn") + " -o " + p("l.pga")).exit_code, 0);
  auto tree = [&](const std::string& args) { return nlohmann::json::parse(run_cli("tree -q --json " + args).out); };
  auto j = tree("--variant koth " + p("l.pga"));
  EXPECT_EQ(j["games"], 1);
  ASSERT_EQ(j["moves"].size(), 1u);
  EXPECT_EQ(j["moves"][0]["san"], "e4");
  j = tree("--variant=king-of-the-hill --moves 'e4 e5 Ke2' " + p("l.pga"));
  EXPECT_EQ(j["position"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2");
  ASSERT_EQ(j["moves"].size(), 1u);
  EXPECT_EQ(j["moves"][0]["uci"], "d7d5");
  EXPECT_EQ(tree(p("l.pga"))["games"], 0) << "no standard game";
  EXPECT_EQ(tree("--variant atomic " + p("l.pga"))["moves"][0]["san"], "Nf3");
  ASSERT_EQ(run_cli("pack -q --variant crazyhouse " + p("fics.pgn") + " -o " + p("zh.pga")).exit_code, 0);
  j = tree("--variant crazyhouse --moves 'e4 e5 Nf3 Nc6 Bc4 Bc5 Bxf7+ Kxf7 Ng5+ Ke8' " + p("zh.pga"));
  EXPECT_EQ(j["position"], "r1bqk1nr/pppp2pp/2n5/2b1p1N1/4P3/8/PPPP1PPP/RNBQK2R[Pb] w KQ - 2 6");
  ASSERT_EQ(j["moves"].size(), 1u);
  EXPECT_EQ(j["moves"][0]["san"], "P@f7+");
  const auto bad = run_cli("tree --variant seirawan " + p("l.pga"));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("unknown variant 'seirawan'"), std::string::npos) << bad.err;
}

TEST(CliVariantPerft, CountsUnderTheVariant) {
  EXPECT_EQ(run_cli("perft --variant racingkings startpos 3").out, "11264\n");
  EXPECT_EQ(run_cli("perft --variant=crazyhouse '2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1' 2").out, "3083\n");
  const auto r = run_cli("perft --variant atomic '8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1' 1 --divide");
  EXPECT_NE(r.out.find("g1h1: 1"), std::string::npos) << r.out;  // king takes own rook: castling
}

}  // namespace
}  // namespace pgnarc
