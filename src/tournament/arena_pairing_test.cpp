// Arena pairing: by score then rating, no rematch of the last opponent while anyone else is
// free, sides to the player who had side One less often, deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tournament/arena_pairing.h"

namespace rainet::tournament {
namespace {

Waiting w(PlayerKey p, int points, int rating, PlayerKey last = 0) {
    return {p, points, rating, last, 0, 0};
}

bool together(const Pairing& pr, PlayerKey a, PlayerKey b) {
    return (pr.first == a && pr.second == b) || (pr.first == b && pr.second == a);
}

TEST(ArenaPairing, NobodyOrOnePlayerGivesNoPairing) {
    EXPECT_TRUE(pairArena({}).empty());
    EXPECT_TRUE(pairArena({w(1, 0, 1500)}).empty());
}

TEST(ArenaPairing, PairsNeighboursByScore) {
    const auto p = pairArena({w(1, 0, 1500), w(2, 10, 1500), w(3, 1, 1500), w(4, 9, 1500)});
    ASSERT_EQ(p.size(), 2u);
    EXPECT_TRUE(together(p[0], 2, 4));
    EXPECT_TRUE(together(p[1], 3, 1));
}

TEST(ArenaPairing, EqualScoresGoByRating) {
    const auto p = pairArena({w(1, 4, 1400), w(2, 4, 1900), w(3, 4, 1500), w(4, 4, 1800)});
    ASSERT_EQ(p.size(), 2u);
    EXPECT_TRUE(together(p[0], 2, 4));
    EXPECT_TRUE(together(p[1], 3, 1));
}

TEST(ArenaPairing, AnOddPlayerWaits) {
    const auto p = pairArena({w(1, 3, 1500), w(2, 2, 1500), w(3, 1, 1500)});
    ASSERT_EQ(p.size(), 1u);
    EXPECT_TRUE(together(p[0], 1, 2));
}

TEST(ArenaPairing, NeverTheLastOpponentWhenAnotherIsFree) {
    // 1 and 2 are neighbours in the ranking but just played each other.
    const auto p = pairArena({w(1, 5, 1500, 2), w(2, 4, 1500, 1), w(3, 0, 1500)});
    ASSERT_EQ(p.size(), 1u);
    EXPECT_TRUE(together(p[0], 1, 3));
}

TEST(ArenaPairing, TheLastOpponentRuleHoldsEitherWay) {
    // 3's last opponent was 2, though 2 has played 1 since: still no 2-3 game.
    const auto p = pairArena({w(2, 5, 1500, 1), w(3, 4, 1500, 2), w(4, 0, 1500)});
    ASSERT_EQ(p.size(), 1u);
    EXPECT_TRUE(together(p[0], 2, 4));
}

TEST(ArenaPairing, LastOpponentsMeetAgainWhenNobodyElseIsFree) {
    const auto p = pairArena({w(1, 5, 1500, 2), w(2, 4, 1500, 1)});
    ASSERT_EQ(p.size(), 1u);
    EXPECT_TRUE(together(p[0], 1, 2));
}

TEST(ArenaPairing, LastOpponentsAtTheBottomTradePartnersWithAPairAbove) {
    // Greedy down the ranking would pair 1-2 and leave 3-4, who just played: the pairing
    // trades partners instead of repeating a game.
    const auto p = pairArena({w(1, 9, 1500), w(2, 8, 1500), w(3, 7, 1500, 4), w(4, 6, 1500, 3)});
    ASSERT_EQ(p.size(), 2u);
    for (const Pairing& pr : p) EXPECT_FALSE(together(pr, 3, 4));
    std::set<PlayerKey> seen;
    for (const Pairing& pr : p) {
        seen.insert(pr.first);
        seen.insert(pr.second);
    }
    EXPECT_EQ(seen.size(), 4u);
}

TEST(ArenaPairing, APlayerWhoseFreeOpponentsAreAllLastOpponentsWaits) {
    // 1 just played 2, and 3's last game was against 1 too: 2 and 3 play, 1 waits.
    const auto p = pairArena({w(1, 5, 1500, 2), w(2, 4, 1500, 1), w(3, 3, 1500, 1)});
    ASSERT_EQ(p.size(), 1u);
    EXPECT_TRUE(together(p[0], 2, 3));
}

TEST(ArenaPairing, SideOneGoesToWhoHadItLessOften) {
    Waiting a = w(1, 5, 1500);
    a.firstSides = 3;
    a.secondSides = 1;
    Waiting b = w(2, 4, 1500);
    b.firstSides = 1;
    b.secondSides = 2;
    const auto p = pairArena({a, b});
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].first, 2);
    EXPECT_EQ(p[0].second, 1);
}

TEST(ArenaPairing, IsDeterministicWhateverTheInputOrder) {
    std::vector<Waiting> in;
    for (PlayerKey k = 1; k <= 9; ++k) in.push_back(w(k, static_cast<int>(k % 3), 1500));
    const auto first = pairArena(in);
    std::reverse(in.begin(), in.end());
    const auto second = pairArena(in);
    ASSERT_EQ(first.size(), second.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        EXPECT_EQ(first[i].first, second[i].first);
        EXPECT_EQ(first[i].second, second[i].second);
    }
}

TEST(ArenaPairing, EveryPlayerAppearsAtMostOnceInALargeRound) {
    std::vector<Waiting> in;
    for (PlayerKey k = 1; k <= 1000; ++k) {
        in.push_back(w(k, static_cast<int>(k % 17), 1000 + static_cast<int>(k % 400),
                       k % 2 == 0 ? k - 1 : k + 1));  // everyone just played a neighbour
    }
    const auto p = pairArena(in);
    std::set<PlayerKey> seen;
    for (const Pairing& pr : p) {
        EXPECT_TRUE(seen.insert(pr.first).second);
        EXPECT_TRUE(seen.insert(pr.second).second);
        const bool neighbours =
            std::max(pr.first, pr.second) - std::min(pr.first, pr.second) == 1 &&
            std::min(pr.first, pr.second) % 2 == 1;
        EXPECT_FALSE(neighbours) << pr.first << " " << pr.second;
    }
    EXPECT_GE(p.size(), 498u);
}

}  // namespace
}  // namespace rainet::tournament
