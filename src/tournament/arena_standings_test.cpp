// The arena's end rule, performance rating and ranking.
#include <gtest/gtest.h>

#include "tournament/arena_standings.h"

namespace rainet::tournament {
namespace {

TEST(ArenaEnd, AGameStartedBeforeTheEndCounts) {
    EXPECT_TRUE(countsForArena(999, 1000));
}

TEST(ArenaEnd, AGameStartedAtOrAfterTheEndDoesNotCount) {
    EXPECT_FALSE(countsForArena(1000, 1000));
    EXPECT_FALSE(countsForArena(1001, 1000));
}

TEST(ArenaEnd, PairsOnlyBetweenStartAndEnd) {
    EXPECT_FALSE(arenaPairs(99, 100, 200));
    EXPECT_TRUE(arenaPairs(100, 100, 200));
    EXPECT_TRUE(arenaPairs(199, 100, 200));
    EXPECT_FALSE(arenaPairs(200, 100, 200));
}

TEST(Performance, MeanOpponentRatingPlus400PerNetWin) {
    EXPECT_EQ(performanceRating({1500 + 1700, 1, 1, 2}), 1600);
    EXPECT_EQ(performanceRating({1500 * 2, 2, 0, 2}), 1900);
    EXPECT_EQ(performanceRating({1500 * 2, 0, 2, 2}), 1100);
    EXPECT_EQ(performanceRating({1500 * 3, 1, 0, 3}), 1633);     // 4900 / 3 = 1633.3
    EXPECT_EQ(performanceRating({1501 + 1500, 0, 0, 2}), 1501);  // 1500.5 rounds up
}

TEST(Performance, NoGamesGivesZero) {
    EXPECT_EQ(performanceRating({0, 0, 0, 0}), 0);
}

ArenaEntry entry(PlayerKey p, int rating, int points, int oppSum, int wins, int losses, int draws) {
    ArenaEntry e;
    e.player = p;
    e.rating = rating;
    e.sheet.points = points;
    e.sheet.wins = wins;
    e.sheet.losses = losses;
    e.sheet.draws = draws;
    e.opponentRatingSum = oppSum;
    return e;
}

TEST(ArenaRanking, ByPointsFirst) {
    const auto r = rankArena({entry(1, 1500, 2, 1500, 1, 0, 0), entry(2, 1500, 6, 3000, 2, 0, 0)});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].player, 2);
    EXPECT_EQ(r[0].rank, 1);
    EXPECT_EQ(r[1].player, 1);
    EXPECT_EQ(r[1].rank, 2);
}

TEST(ArenaRanking, EqualPointsGoByPerformance) {
    // Both have 4 points; player 1 beat stronger opponents.
    const auto r =
        rankArena({entry(2, 1500, 4, 1400 * 2, 2, 0, 0), entry(1, 1500, 4, 1800 * 2, 2, 0, 0)});
    EXPECT_EQ(r[0].player, 1);
    EXPECT_EQ(r[0].performance, 2200);
    EXPECT_EQ(r[1].performance, 1800);
}

TEST(ArenaRanking, EqualPointsAndPerformanceGoByRatingThenKey) {
    const auto r = rankArena({entry(3, 1500, 0, 0, 0, 0, 0), entry(2, 1600, 0, 0, 0, 0, 0),
                              entry(1, 1500, 0, 0, 0, 0, 0)});
    EXPECT_EQ(r[0].player, 2);
    EXPECT_EQ(r[1].player, 1);
    EXPECT_EQ(r[2].player, 3);
}

}  // namespace
}  // namespace rainet::tournament
