// Round robin: the circle-method schedule for every size 3-12, one and two legs, and the
// standings by points then Sonneborn-Berger.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "tournament/round_robin.h"

namespace rainet::tournament {
namespace {

TEST(RoundRobinSchedule, RefusesSizesOutOfRange) {
    EXPECT_EQ(roundRobinSchedule(2, 1), std::nullopt);
    EXPECT_EQ(roundRobinSchedule(13, 1), std::nullopt);
    EXPECT_EQ(roundRobinSchedule(4, 3), std::nullopt);
    EXPECT_EQ(roundRobinRefusal(2, 1), "too_few_players");
    EXPECT_EQ(roundRobinRefusal(13, 1), "too_many_players");
    EXPECT_EQ(roundRobinRefusal(4, 0), "bad_legs");
}

TEST(RoundRobinSchedule, EveryPairMeetsOnceAndNobodyTwiceInARound) {
    for (int n = kMinRoundRobin; n <= kMaxRoundRobin; ++n) {
        const auto rounds = roundRobinSchedule(n, 1);
        ASSERT_TRUE(rounds) << n;
        EXPECT_EQ(static_cast<int>(rounds->size()), n % 2 == 0 ? n - 1 : n) << n;
        std::set<std::pair<int, int>> pairs;
        for (const Round& r : *rounds) {
            std::set<int> inRound;
            for (const RoundGame& g : r) {
                EXPECT_NE(g.first, g.second);
                EXPECT_TRUE(g.first >= 0 && g.first < n && g.second >= 0 && g.second < n);
                EXPECT_TRUE(inRound.insert(g.first).second) << n;
                EXPECT_TRUE(inRound.insert(g.second).second) << n;
                EXPECT_TRUE(pairs.insert(std::minmax(g.first, g.second)).second) << n;
            }
            // Everyone plays each round but the one with the bye when the count is odd.
            EXPECT_EQ(static_cast<int>(inRound.size()), n % 2 == 0 ? n : n - 1) << n;
        }
        EXPECT_EQ(static_cast<int>(pairs.size()), n * (n - 1) / 2) << n;
    }
}

TEST(RoundRobinSchedule, SidesAreAsEvenAsTheCountAllows) {
    for (int n = kMinRoundRobin; n <= kMaxRoundRobin; ++n) {
        std::map<int, int> balance;
        const auto rounds = roundRobinSchedule(n, 1);
        ASSERT_TRUE(rounds);
        for (const Round& r : *rounds) {
            for (const RoundGame& g : r) {
                ++balance[g.first];
                --balance[g.second];
            }
        }
        // An even count plays an odd number of games each: one side once more. An odd count
        // plays an even number: exactly even.
        ASSERT_EQ(static_cast<int>(balance.size()), n);
        for (const auto& [seed, b] : balance) EXPECT_LE(std::abs(b), n % 2 == 0 ? 1 : 0) << n;
    }
}

TEST(RoundRobinSchedule, TheSecondLegSwapsTheSidesOfTheFirst) {
    const auto one = roundRobinSchedule(6, 1);
    const auto two = roundRobinSchedule(6, 2);
    ASSERT_EQ(two->size(), 2 * one->size());
    std::set<std::pair<int, int>> ordered;
    for (const Round& r : *two) {
        for (const RoundGame& g : r) EXPECT_TRUE(ordered.insert({g.first, g.second}).second);
    }
    EXPECT_EQ(ordered.size(), 30u);  // every ordered pair once: each pair once with each side
    for (std::size_t r = 0; r < one->size(); ++r) {
        const Round& a = (*two)[r];
        const Round& b = (*two)[r + one->size()];
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].first, b[i].second);
            EXPECT_EQ(a[i].second, b[i].first);
        }
    }
}

TEST(RoundRobinStandings, ByPointsThenSonnebornBerger) {
    // Four players: 0 beats 1 and 3, 1 beats 2 and 3, 2 beats 0 and draws 3. 0 and 1 tie on
    // points; 0 beat the stronger opponents.
    std::vector<PlayedGame> games = {
        {{0, 1}, RoundResult::FirstWins},  {{1, 2}, RoundResult::FirstWins},
        {{2, 0}, RoundResult::FirstWins},  {{0, 3}, RoundResult::FirstWins},
        {{3, 1}, RoundResult::SecondWins}, {{2, 3}, RoundResult::Draw},
    };
    const auto r = rankRoundRobin(4, games);
    // Points x2: 0 -> 4, 1 -> 4, 2 -> 3, 3 -> 1.
    // SB x4: 0 beat 1 (4) and 3 (1): 2*4 + 2*1 = 10; 1 beat 2 (3) and 3 (1): 2*3 + 2*1 = 8.
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].seed, 0);
    EXPECT_EQ(r[0].halfPoints, 4);
    EXPECT_EQ(r[0].sbQuarters, 10);
    EXPECT_EQ(r[1].seed, 1);
    EXPECT_EQ(r[1].sbQuarters, 8);
    EXPECT_EQ(r[2].seed, 2);
    EXPECT_EQ(r[2].halfPoints, 3);
    // 2 beat 0 (4) and drew 3 (1): 2*4 + 1 = 9.
    EXPECT_EQ(r[2].sbQuarters, 9);
    EXPECT_EQ(r[3].seed, 3);
    EXPECT_EQ(r[3].halfPoints, 1);
    EXPECT_EQ(r[3].sbQuarters, 3);  // drew 2 (3)
    EXPECT_EQ(r[3].rank, 4);
}

TEST(RoundRobinStandings, FullTiesGoBySeed) {
    const auto r = rankRoundRobin(3, {{{2, 1}, RoundResult::Draw}});
    EXPECT_EQ(r[0].seed, 1);
    EXPECT_EQ(r[1].seed, 2);
    EXPECT_EQ(r[2].seed, 0);
}

TEST(RoundRobinStandings, UnplayedAndOutOfRangeGamesCountForNobody) {
    const auto r =
        rankRoundRobin(3, {{{0, 1}, RoundResult::Unplayed}, {{0, 7}, RoundResult::FirstWins}});
    for (const RoundRobinRank& row : r) {
        EXPECT_EQ(row.halfPoints, 0);
        EXPECT_EQ(row.sbQuarters, 0);
    }
}

TEST(RoundRobinStandings, AWithdrawnPlayersGamesAreForfeitWinsForTheOpponent) {
    EXPECT_EQ(forfeitAgainst({2, 5}, 2), RoundResult::SecondWins);
    EXPECT_EQ(forfeitAgainst({2, 5}, 5), RoundResult::FirstWins);
}

}  // namespace
}  // namespace rainet::tournament
