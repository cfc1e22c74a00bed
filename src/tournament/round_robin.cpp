#include "tournament/round_robin.h"

#include <algorithm>
#include <cstddef>

namespace rainet::tournament {

std::optional<std::string_view> roundRobinRefusal(int players, int legs) {
    if (players < kMinRoundRobin) return "too_few_players";
    if (players > kMaxRoundRobin) return "too_many_players";
    if (legs != 1 && legs != 2) return "bad_legs";
    return std::nullopt;
}

std::optional<std::vector<Round>> roundRobinSchedule(int players, int legs) {
    if (roundRobinRefusal(players, legs)) return std::nullopt;
    // With an odd count the bye takes the fixed seat, so that everyone turns around the circle
    // and the alternation of sides by table evens out for all.
    const int m = players % 2 == 0 ? players : players + 1;
    const int bye = players % 2 == 0 ? -1 : players;
    std::vector<int> circle(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
        circle[static_cast<std::size_t>(i)] = bye < 0 ? i : (i == 0 ? bye : i - 1);
    }
    std::vector<Round> rounds;
    for (int r = 0; r < m - 1; ++r) {
        Round round;
        for (int i = 0; i < m / 2; ++i) {
            int a = circle[static_cast<std::size_t>(i)];
            int b = circle[static_cast<std::size_t>(m - 1 - i)];
            if (a == bye || b == bye) continue;
            // The fixed seat changes sides each round; the other tables alternate by table
            // number, which keeps every player's sides within one of even.
            const bool swap = i == 0 ? r % 2 == 1 : i % 2 == 1;
            if (swap) std::swap(a, b);
            round.push_back({a, b});
        }
        rounds.push_back(std::move(round));
        // Turn everyone but seat 0 one place.
        std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());
    }
    if (legs == 2) {
        const std::size_t firstLeg = rounds.size();
        for (std::size_t r = 0; r < firstLeg; ++r) {
            Round swapped;
            for (const RoundGame& g : rounds[r]) swapped.push_back({g.second, g.first});
            rounds.push_back(std::move(swapped));
        }
    }
    return rounds;
}

std::vector<RoundRobinRank> rankRoundRobin(int players, const std::vector<PlayedGame>& games) {
    const auto n = static_cast<std::size_t>(players > 0 ? players : 0);
    std::vector<RoundRobinRank> rows(n);
    for (std::size_t i = 0; i < n; ++i) rows[i].seed = static_cast<int>(i);
    auto valid = [&](int s) { return s >= 0 && static_cast<std::size_t>(s) < n; };
    for (const PlayedGame& g : games) {
        if (!valid(g.game.first) || !valid(g.game.second)) continue;
        auto& a = rows[static_cast<std::size_t>(g.game.first)];
        auto& b = rows[static_cast<std::size_t>(g.game.second)];
        if (g.result == RoundResult::FirstWins) a.halfPoints += 2;
        if (g.result == RoundResult::SecondWins) b.halfPoints += 2;
        if (g.result == RoundResult::Draw) {
            a.halfPoints += 1;
            b.halfPoints += 1;
        }
    }
    // Sonneborn-Berger needs everyone's final points first.
    std::vector<int> points(n);
    for (std::size_t i = 0; i < n; ++i) points[i] = rows[i].halfPoints;
    for (const PlayedGame& g : games) {
        if (!valid(g.game.first) || !valid(g.game.second)) continue;
        const auto fa = static_cast<std::size_t>(g.game.first);
        const auto fb = static_cast<std::size_t>(g.game.second);
        if (g.result == RoundResult::FirstWins) rows[fa].sbQuarters += 2 * points[fb];
        if (g.result == RoundResult::SecondWins) rows[fb].sbQuarters += 2 * points[fa];
        if (g.result == RoundResult::Draw) {
            rows[fa].sbQuarters += points[fb];
            rows[fb].sbQuarters += points[fa];
        }
    }
    std::sort(rows.begin(), rows.end(), [](const RoundRobinRank& a, const RoundRobinRank& b) {
        if (a.halfPoints != b.halfPoints) return a.halfPoints > b.halfPoints;
        if (a.sbQuarters != b.sbQuarters) return a.sbQuarters > b.sbQuarters;
        return a.seed < b.seed;
    });
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].rank = static_cast<int>(i) + 1;
    return rows;
}

RoundResult forfeitAgainst(const RoundGame& game, int withdrawnSeed) {
    return game.first == withdrawnSeed ? RoundResult::SecondWins : RoundResult::FirstWins;
}

}  // namespace rainet::tournament
