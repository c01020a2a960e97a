// The position filter (spec 9.3.3): every key put in is found, few others pass, and filters that
// are not one are refused.
#include <random>

#include "common/bytes.h"
#include "container/position_filter.h"
#include "support/test_util.h"

namespace pgnarc::container {
namespace {

TEST(PositionFilter, HoldsEveryKeyAndFewOthers) {
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(rng());
  keys.push_back(keys[7]);  // repeats are allowed
  const std::string f = make_filter(keys);
  bool bad = true;
  EXPECT_TRUE(filter_holds(f, keys, bad));
  EXPECT_FALSE(bad);
  int passed = 0;
  for (int i = 0; i < 20000; ++i) passed += filter_holds(f, {rng()}, bad);
  EXPECT_LT(passed, 20000 / 20) << "about 1 in 32 should pass";
  EXPECT_GT(passed, 20000 / 64);
  EXPECT_LT(f.size(), 5000u) << "about 7 bits a key";
  EXPECT_TRUE(make_filter({}).empty());
}

TEST(PositionFilter, KeysFollowPawnsAndMaterial) {
  const auto pos = [](const char* fen) { return Position::from_fen(fen).value(); };
  EXPECT_EQ(progress(Position()), 0);
  EXPECT_EQ(progress(pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")), 2);
  EXPECT_EQ(progress(pos("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")), 2 + 1)
      << "a Black pawn on its fifth rank, a White pawn gone";
  EXPECT_EQ(progress(pos("4k3/8/8/8/8/8/1p6/4K3 w - - 0 1")), 29 + 4) << "a Black pawn on its seventh rank";
  // Four White pawns on the fifth rank and two Black pawns at home: 8 pawn moves, 24 pieces gone.
  const Position start = pos("4k3/pp6/8/PPPP4/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(progress(start), 8 + 24);
  Game g;
  g.tags = {Tag{"FEN", start.fen()}};
  Position after = start;
  const Move kd2 = after.parse_san("Kd2").value();
  after.play(kd2);
  EXPECT_EQ(filter_key(start), filter_key(after)) << "a king move keeps the key";
  const Move a6 = after.parse_san("a6").value();
  Position last = after;
  last.play(a6);
  EXPECT_NE(filter_key(after), filter_key(last));
  g.events = {GameEvent::make_move(kd2), GameEvent::make_move(a6)};
  std::vector<std::uint64_t> keys;
  add_filter_keys(g, keys);
  EXPECT_EQ(keys, (std::vector<std::uint64_t>{filter_key(start), filter_key(after), filter_key(last)}));
  g.events.push_back(GameEvent::make_move(kd2));  // not legal: the king has left e1
  keys.clear();
  add_filter_keys(g, keys);
  EXPECT_TRUE(keys.empty());
  // The standard start and the opening: no keys.
  Game opening;
  opening.events = {GameEvent::make_move(Position().parse_san("e4").value())};
  add_filter_keys(opening, keys);
  EXPECT_TRUE(keys.empty());
}

TEST(PositionFilter, RefusesWhatIsNotAFilter) {
  const std::vector<std::uint64_t> five = {0, 1ull << 61, 1ull << 62, 1ull << 63, ~0ull};  // values 0, 20, 40, 80, 159
  const std::string good = make_filter(five);
  bool bad = true;
  EXPECT_TRUE(filter_holds(good, five, bad));
  EXPECT_FALSE(bad);
  EXPECT_FALSE(filter_holds(good, {1ull << 60}, bad)) << "value 10, between the first two";
  EXPECT_FALSE(bad);
  const auto refused = [&](const std::string& f) {
    filter_holds(f, {}, bad);
    return bad;
  };
  const auto head = [](std::uint64_t n, std::uint64_t range, int k) {
    std::string s;
    common::put_varint(s, n);
    common::put_varint(s, range);
    s += static_cast<char>(k);
    return s;
  };
  EXPECT_TRUE(refused(head(0, 64, 6))) << "no values";
  EXPECT_TRUE(refused(head(2, 1, 0) + "\x40")) << "a range below the count";
  EXPECT_TRUE(refused(head(1, 64, 33) + std::string(5, '\0'))) << "k above 32";
  EXPECT_FALSE(refused(head(1, 64, 6) + "\x02")) << "one value, 1 (0 then 000001, then a 0)";
  EXPECT_TRUE(refused(head(1, 64, 6) + "\x03")) << "a padding bit of 1";
  EXPECT_TRUE(refused(head(1, 64, 6) + std::string("\x02\x00", 2))) << "a byte after the last code";
  EXPECT_TRUE(refused(head(1, 64, 6) + "\xfe")) << "a value past the range";
  EXPECT_TRUE(refused(head(2, 64, 6))) << "codes past the end";
  EXPECT_TRUE(refused(good.substr(0, good.size() - 1)));
}

}  // namespace
}  // namespace pgnarc::container
