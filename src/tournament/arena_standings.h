#pragma once
// The arena's end rule and its standings. Games in play at the end finish but count only if
// they started before the end; no game is paired at or after it. Standings go by points, then
// performance rating, then rating, then player key (so equal inputs give an equal order).
#include <cstdint>
#include <vector>

#include "tournament/arena_pairing.h"
#include "tournament/arena_scoring.h"

namespace rainet::tournament {

// Whether a game that started at `startedMs` counts in an arena ending at `endsMs`.
[[nodiscard]] constexpr bool countsForArena(std::int64_t startedMs, std::int64_t endsMs) {
    return startedMs < endsMs;
}

// Whether the arena pairs anyone at `nowMs`: from its start up to (not including) its end.
[[nodiscard]] constexpr bool arenaPairs(std::int64_t nowMs, std::int64_t startsMs,
                                        std::int64_t endsMs) {
    return nowMs >= startsMs && nowMs < endsMs;
}

// Performance rating over counted games: the mean of the opponents' ratings plus 400 times
// (wins - losses) over games (the linear form, which lichess also uses for its tie-break).
// Zero games give 0, ranking a player without games below everyone who played.
struct PerformanceInput {
    int opponentRatingSum = 0;
    int wins = 0;
    int losses = 0;
    int games = 0;
};
[[nodiscard]] int performanceRating(const PerformanceInput& in);

struct ArenaEntry {
    PlayerKey player = 0;
    int rating = 0;
    ArenaSheet sheet;
    int opponentRatingSum = 0;  // over the sheet's games
};

struct ArenaRank {
    PlayerKey player = 0;
    int rank = 0;  // 1-based; players tied on points and performance share no rank (ordered)
    int points = 0;
    int performance = 0;
};

[[nodiscard]] std::vector<ArenaRank> rankArena(const std::vector<ArenaEntry>& entries);

}  // namespace rainet::tournament
