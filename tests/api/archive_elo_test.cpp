// Archive::find by rating: Query::min_elo and max_elo bound the WhiteElo and BlackElo tags of the
// players EloOf names; a rating that is missing, empty, "?" or not a decimal integer matches no
// bound; query_error refuses negative bounds, crossed bounds and an unknown EloOf.
#include "pgnarc/pgnarc.h"
#include "support/archive_fixtures.h"
#include "scan_oracle.h"

namespace pgnarc {
namespace {

using test::pack;

// Game i has WhiteElo and BlackElo as kRatings[i] gives them (nullptr: no tag).
const char* const kRatings[][2] = {
    {"2700", "2600"},         // 0
    {"2500", "2800"},         // 1
    {"2400", nullptr},        // 2: Black unrated
    {"?", "2650"},            // 3
    {"", "2650"},             // 4
    {"+2700", "-100"},        // 5: neither is digits only
    {"1000", "1000"},         // 6
    {"0", "99999999999"},     // 7: Black's beyond any int
    {"02700", "2700"},        // 8: leading zero
    {"2650 ", "2650x"},       // 9: trailing characters
};

std::string rated_pgn() {
  std::string pgn;
  for (std::size_t i = 0; i < std::size(kRatings); ++i) {
    pgn += "[Event \"Rated\"]\n[White \"W" + std::to_string(i) + "\"]\n[Black \"B" + std::to_string(i) + "\"]\n";
    if (kRatings[i][0]) pgn += std::string("[WhiteElo \"") + kRatings[i][0] + "\"]\n";
    if (kRatings[i][1]) pgn += std::string("[BlackElo \"") + kRatings[i][1] + "\"]\n";
    pgn += "[Result \"*\"]\n\n1. e4 *\n\n";
  }
  return pgn;
}

Query rated(std::optional<int> min, std::optional<int> max, EloOf of) {
  Query q;
  q.min_elo = min;
  q.max_elo = max;
  q.elo_of = of;
  return q;
}

class FindByRating : public ::testing::Test {
 protected:
  void SetUp() override {
    WriterOptions o = test::small_blocks();
    o.block_games = 3;  // several blocks, each read for its games' ratings
    auto a = Archive::open(pack(rated_pgn(), "ratings.pga", o));
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    archive_ = std::move(*a);
  }
  // The games q finds, which the scan of every game's tags finds too.
  std::vector<std::uint64_t> find(const Query& q, const std::string& label) {
    return test::expect_find_equals_scan(*archive_, q, label);
  }
  std::unique_ptr<Archive> archive_;
};

using Games = std::vector<std::uint64_t>;

TEST_F(FindByRating, EachSideMode) {
  EXPECT_EQ(find(rated(2600, {}, EloOf::kBoth), "both"), (Games{0, 8}));
  EXPECT_EQ(find(rated(2600, {}, EloOf::kEither), "either"), (Games{0, 1, 3, 4, 8}));
  EXPECT_EQ(find(rated(2600, {}, EloOf::kWhite), "white"), (Games{0, 8}));
  EXPECT_EQ(find(rated(2600, {}, EloOf::kBlack), "black"), (Games{0, 1, 3, 4, 8}));
  EXPECT_EQ(find(rated({}, 2500, EloOf::kBoth), "both, max"), (Games{6}));
  EXPECT_EQ(find(rated({}, 2500, EloOf::kEither), "either, max"), (Games{1, 2, 6, 7}));
  EXPECT_EQ(find(rated({}, 2500, EloOf::kWhite), "white, max"), (Games{1, 2, 6, 7}));
  EXPECT_EQ(find(rated({}, 2500, EloOf::kBlack), "black, max"), (Games{6}));
  EXPECT_EQ(Query().elo_of, EloOf::kBoth) << "the default";
}

TEST_F(FindByRating, BoundsAreInclusive) {
  EXPECT_EQ(find(rated(2600, 2700, EloOf::kBoth), "2600-2700"), (Games{0, 8}));
  EXPECT_EQ(find(rated(2601, 2700, EloOf::kBoth), "2601-2700"), (Games{8}));
  EXPECT_EQ(find(rated(2600, 2699, EloOf::kBoth), "2600-2699"), Games{});
  EXPECT_EQ(find(rated(2650, 2650, EloOf::kBlack), "2650 exactly"), (Games{3, 4}));
  EXPECT_EQ(find(rated(0, 0, EloOf::kWhite), "0"), (Games{7})) << "0 is a rating";
}

// Missing, empty, "?", signed, oversized and trailing-character ratings match no bound, even
// the widest; a game is found by the other player's rating under kEither.
TEST_F(FindByRating, OddRatingsMatchNoBound) {
  EXPECT_EQ(find(rated(0, {}, EloOf::kBoth), "both rated"), (Games{0, 1, 6, 8}));
  EXPECT_EQ(find(rated(0, {}, EloOf::kEither), "either rated"), (Games{0, 1, 2, 3, 4, 6, 7, 8}));
  EXPECT_EQ(find(rated(0, {}, EloOf::kWhite), "white rated"), (Games{0, 1, 2, 6, 7, 8}));
  EXPECT_EQ(find(rated({}, 2147483647, EloOf::kBlack), "black rated"), (Games{0, 1, 3, 4, 6, 8}));
}

TEST_F(FindByRating, WithOtherFilters) {
  Query q = rated(2600, {}, EloOf::kEither);
  q.black = "B1";
  q.exact_names = true;
  EXPECT_EQ(find(q, "Black B1"), (Games{1}));
  q.result = "1-0";
  EXPECT_EQ(find(q, "and 1-0"), Games{});
}

// elo_of alone restricts nothing: the query is empty and finds every game.
TEST_F(FindByRating, EloOfAloneRestrictsNothing) {
  Query q;
  q.elo_of = EloOf::kWhite;
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(find(q, "elo_of alone").size(), std::size(kRatings));
  EXPECT_FALSE(rated(1, {}, EloOf::kBoth).empty());
  EXPECT_FALSE(rated({}, 1, EloOf::kBoth).empty());
}

TEST_F(FindByRating, BadBoundsAreRefused) {
  struct Case {
    Query q;
    std::string message;
  };
  const Case cases[] = {
      {rated(-1, {}, EloOf::kBoth), "min-elo -1 is negative: a rating is 0 or more"},
      {rated({}, -5, EloOf::kWhite), "max-elo -5 is negative: a rating is 0 or more"},
      {rated(2800, 2700, EloOf::kEither), "min-elo 2800 is above max-elo 2700: no rating lies between them"},
      {rated(1, {}, static_cast<EloOf>(4)), "elo-of 4 is not both, either, white or black"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(query_error(c.q), c.message);
    auto r = archive_->find(c.q);
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidInput) << c.message;
    EXPECT_NE(r.error().message().find(c.message), std::string::npos) << r.error().message();
    EXPECT_FALSE(test::find_by_scan(*archive_, c.q).ok()) << c.message;
  }
  EXPECT_EQ(query_error(rated(2700, 2700, EloOf::kBoth)), "") << "equal bounds are a range";
  EXPECT_EQ(query_error(rated(0, {}, EloOf::kBoth)), "");
}

// On the sample games (real ratings, many blocks), every mode finds what the scan finds.
TEST(FindByRatingSample, EqualsScan) {
  auto a = Archive::open(pack(test::sample_pgn(), "ratings_sample.pga", test::small_blocks()));
  ASSERT_TRUE(a.ok());
  for (const EloOf of : {EloOf::kBoth, EloOf::kEither, EloOf::kWhite, EloOf::kBlack})
    for (const auto& [min, max] : {std::pair<std::optional<int>, std::optional<int>>{2700, {}},
                                   {{}, 2000},
                                   {2500, 2600}}) {
      const std::string label = std::to_string(static_cast<int>(of)) + " " + std::to_string(min.value_or(-1)) +
                                "-" + std::to_string(max.value_or(-1));
      const auto games = test::expect_find_equals_scan(**a, rated(min, max, of), label);
      if (!max) EXPECT_FALSE(games.empty()) << label;
    }
}

}  // namespace
}  // namespace pgnarc
