#include "tournament/arena_pairing.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace rainet::tournament {
namespace {

bool metLast(const Waiting& a, const Waiting& b) {
    return a.lastOpponent == b.player || b.lastOpponent == a.player;
}

// The side balance: the player who had side One less often (net of side Two) takes it.
Pairing sides(const Waiting& a, const Waiting& b) {
    const int balanceA = a.firstSides - a.secondSides;
    const int balanceB = b.firstSides - b.secondSides;
    if (balanceB < balanceA) return {b.player, a.player};
    return {a.player, b.player};
}

}  // namespace

std::vector<Pairing> pairArena(std::vector<Waiting> waiting) {
    std::sort(waiting.begin(), waiting.end(), [](const Waiting& a, const Waiting& b) {
        if (a.points != b.points) return a.points > b.points;
        if (a.rating != b.rating) return a.rating > b.rating;
        return a.player < b.player;
    });
    const std::size_t n = waiting.size();
    // Down the ranking, each with the nearest free player below who was not the last opponent.
    std::vector<bool> taken(n, false);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < n; ++i) {
        if (taken[i]) continue;
        for (std::size_t j = i + 1; j < n; ++j) {
            if (!taken[j] && !metLast(waiting[i], waiting[j])) {
                taken[i] = taken[j] = true;
                pairs.emplace_back(i, j);
                break;
            }
        }
    }
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < n; ++i) {
        if (!taken[i]) left.push_back(i);
    }
    // Players left over are each other's last opponents. Two of them can still be paired by
    // trading partners with a pair already made, from the bottom of the ranking up.
    for (std::size_t a = 0; a + 1 < left.size(); ++a) {
        for (std::size_t b = a + 1; b < left.size(); ++b) {
            const std::size_t c = left[a];
            const std::size_t d = left[b];
            if (taken[c] || taken[d]) continue;
            for (std::size_t k = pairs.size(); k-- > 0;) {
                const auto [x, y] = pairs[k];
                const Waiting& wx = waiting[x];
                const Waiting& wy = waiting[y];
                if (!metLast(wx, waiting[c]) && !metLast(wy, waiting[d])) {
                    pairs[k] = {x, c};
                    pairs.emplace_back(y, d);
                } else if (!metLast(wx, waiting[d]) && !metLast(wy, waiting[c])) {
                    pairs[k] = {x, d};
                    pairs.emplace_back(y, c);
                } else {
                    continue;
                }
                taken[c] = taken[d] = true;
                break;
            }
        }
    }
    // Last opponents meet again only when nobody else is waiting at all.
    if (n == 2 && pairs.empty()) pairs.emplace_back(0, 1);
    std::vector<Pairing> out;
    out.reserve(pairs.size());
    for (const auto& [i, j] : pairs)
        out.push_back(sides(waiting[std::min(i, j)], waiting[std::max(i, j)]));
    return out;
}

}  // namespace rainet::tournament
