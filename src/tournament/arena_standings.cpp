#include "tournament/arena_standings.h"

#include <algorithm>
#include <cstddef>

namespace rainet::tournament {

int performanceRating(const PerformanceInput& in) {
    if (in.games <= 0) return 0;
    const int total = in.opponentRatingSum + 400 * (in.wins - in.losses);
    // Round half away from zero so that equal figures compare equal on every platform.
    const int q = total / in.games;
    const int r = total % in.games;
    if (2 * (r < 0 ? -r : r) >= in.games) return total < 0 ? q - 1 : q + 1;
    return q;
}

std::vector<ArenaRank> rankArena(const std::vector<ArenaEntry>& entries) {
    struct Row {
        ArenaRank rank;
        int rating;
    };
    std::vector<Row> rows;
    rows.reserve(entries.size());
    for (const ArenaEntry& e : entries) {
        const int perf =
            performanceRating({e.opponentRatingSum, e.sheet.wins, e.sheet.losses, e.sheet.games()});
        rows.push_back({{e.player, 0, e.sheet.points, perf}, e.rating});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.rank.points != b.rank.points) return a.rank.points > b.rank.points;
        if (a.rank.performance != b.rank.performance) {
            return a.rank.performance > b.rank.performance;
        }
        if (a.rating != b.rating) return a.rating > b.rating;
        return a.rank.player < b.rank.player;
    });
    std::vector<ArenaRank> out;
    out.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        rows[i].rank.rank = static_cast<int>(i) + 1;
        out.push_back(rows[i].rank);
    }
    return out;
}

}  // namespace rainet::tournament
