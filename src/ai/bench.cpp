#include "ai/bench.h"

#include <chrono>
#include <cstdlib>

#include "ai/greedy_bot.h"
#include "ai/ismcts.h"
#include "ai/random_bot.h"

namespace rainet::ai {

std::vector<InfoSet> benchPositions() {
    // Four games from fixed arrangements, sampled every 12 plies up to ply 48.
    constexpr std::uint8_t kSetups[4][2] = {{0x0F, 0xF0}, {0x33, 0x55}, {0xC3, 0x3C}, {0x96, 0x69}};
    std::vector<InfoSet> out;
    for (int g = 0; g < 4; ++g) {
        Position pos = *Position::fromSetups(kSetups[g][0], kSetups[g][1]);
        InfoSet k[2] = {InfoSet(View::of(pos, Viewer::Side1)),
                        InfoSet(View::of(pos, Viewer::Side2))};
        GreedyBot bot;
        Rng rng(1000 + static_cast<std::uint64_t>(g));
        for (int ply = 0; ply <= 48 && !pos.isOver(); ++ply) {
            if (ply % 12 == 0) out.push_back(k[index(pos.toMove())]);
            const Action a = bot.chooseAction(k[index(pos.toMove())], Budget{}, rng);
            for (Side s : {Side::One, Side::Two})
                if (k[index(s)].observe(observe(pos, a, viewerOf(s))))
                    std::abort();  // a legal action always fits its players' knowledge
            pos.doAction(a);
        }
    }
    return out;
}

BenchResult runBench(std::uint64_t iterations, std::uint64_t seed, const SearchConfig& config) {
    const auto positions = benchPositions();
    BenchResult r;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        Ismcts search(config);
        Rng rng(seed + i);
        Budget budget;
        budget.nodes = iterations;
        const SearchResult s = search.search(positions[i], budget, rng, nullptr);
        r.nodes += s.plies;
        r.iterations += s.iterations;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace rainet::ai
