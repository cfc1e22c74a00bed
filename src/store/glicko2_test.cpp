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

}  // namespace
}  // namespace rainet::store::glicko2
