#include "store/glicko2.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rainet::store::glicko2 {
namespace {

// The worked example of Glickman's "Example of the Glicko-2 system" (tau = 0.5): a 1500/200/0.06
// player beats a 1400/30 player and loses to 1550/100 and 1700/300 players.
TEST(Glicko2, GlickmansWorkedExample) {
    const std::vector<Game> games = {
        {{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
    const Rating r = update({1500, 200, 0.06}, games, 0.5);
    EXPECT_NEAR(r.rating, 1464.06, 0.01);
    EXPECT_NEAR(r.rd, 151.52, 0.01);
    EXPECT_NEAR(r.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, NoGamesOnlyWidensTheDeviation) {
    const Rating r = update({1600, 100, 0.06}, {});
    EXPECT_EQ(r.rating, 1600);
    EXPECT_NEAR(r.rd, std::sqrt(100.0 * 100.0 + (0.06 * 173.7178) * (0.06 * 173.7178)), 1e-9);
    EXPECT_EQ(r.volatility, 0.06);
}

TEST(Glicko2, NewPlayersGameIsSymmetric) {
    const Rating a{}, b{};
    const Game aWins[] = {{b, 1}};
    const Game bLoses[] = {{a, 0}};
    const Rating a2 = update(a, aWins), b2 = update(b, bLoses);
    EXPECT_GT(a2.rating, 1500);
    EXPECT_NEAR(a2.rating - 1500, 1500 - b2.rating, 1e-9);
    EXPECT_LT(a2.rd, 350);
    EXPECT_NEAR(a2.rd, b2.rd, 1e-9);
    const Game draw[] = {{b, 0.5}};
    EXPECT_NEAR(update(a, draw).rating, 1500, 1e-9);
}

// A period without games, Glicko-2 step 6 on the Glicko-2 scale: phi' = sqrt(phi^2 + sigma^2),
// n times for n idle periods.
TEST(Glicko2, IdlePeriodsWidenTheDeviationPerPeriod) {
    const Rating r{1700, 60, 0.09};
    EXPECT_EQ(idle(r, 0).rd, 60);
    double phi = 60 / 173.7178;
    for (int n = 1; n <= 20; ++n) {
        phi = std::sqrt(phi * phi + 0.09 * 0.09);  // one more period
        const Rating after = idle(r, n);
        EXPECT_NEAR(after.rd, phi * 173.7178, 1e-9) << n << " periods";
        EXPECT_EQ(after.rating, 1700);
        EXPECT_EQ(after.volatility, 0.09);
        // n idle periods are n single ones in a row, and the same as update() without games.
        EXPECT_NEAR(idle(idle(r, n - 1), 1).rd, after.rd, 1e-9);
    }
    EXPECT_NEAR(idle(r, 1).rd, update(r, {}).rd, 1e-9);
    // Never beyond a new player's deviation.
    EXPECT_EQ(idle(r, 100000).rd, kMaxRd);
}

TEST(Glicko2, RatingPeriodsAreWholeWeeksSinceTheLastRatedGame) {
    const std::int64_t t = 1'700'000'000'000;
    EXPECT_EQ(kRatingPeriodMs, 7LL * 24 * 3600 * 1000);
    EXPECT_EQ(periodsBetween(t, t + kRatingPeriodMs - 1), 0);
    EXPECT_EQ(periodsBetween(t, t + kRatingPeriodMs), 1);
    EXPECT_EQ(periodsBetween(t, t + 5 * kRatingPeriodMs + 3), 5);
    EXPECT_EQ(periodsBetween(0, t), 0);      // never rated: nothing to widen
    EXPECT_EQ(periodsBetween(t, t - 1), 0);  // a clock that went back
}

}  // namespace
}  // namespace rainet::store::glicko2
