// `rainet bench`: searches the fixed bench positions and prints the node count and speed.
#include <cstdio>
#include <string>

#include "ai/arena.h"
#include "ai/bench.h"
#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kBench{"bench", "bench [ITERATIONS [PLAYER]]",
                     "searches fixed positions with a fixed seed (strong's search, or PLAYER's, "
                     "e.g. strong:eval=learned:rollout=4); prints 'Nodes searched: N' and speed",
                     run};
RAINET_COMMAND(bench, kBench);

int run(const Args& args) {
    auto app = makeApp(kBench);
    std::uint64_t iterations = ai::kBenchIterations;
    std::string player;
    app->add_option("ITERATIONS", iterations, "search iterations per position");
    app->add_option("PLAYER", player, "a searching player's spec (default: strong)");
    if (auto status = parseArgs(*app, kBench, args)) return *status;
    ai::SearchConfig config = ai::strongConfig();
    if (!player.empty()) {
        auto spec = ai::parsePlayerSpec(player);
        const auto searched = spec.ok() ? ai::searchConfigOf(*spec) : std::nullopt;
        if (!searched)
            return usageError(
                kBench, spec.ok() ? "'" + player + "' does not search" : spec.error().message);
        config = *searched;
    }
    const ai::BenchResult r = ai::runBench(iterations, 1, config);
    std::printf(
        "Positions: %zu\nIterations: %llu\nTime (ms): %.0f\nNodes searched: %llu\n"
        "Nodes/second: %.0f\nIterations/second: %.0f\n",
        ai::benchPositions().size(), static_cast<unsigned long long>(r.iterations),
        r.seconds * 1000, static_cast<unsigned long long>(r.nodes),
        static_cast<double>(r.nodes) / r.seconds, static_cast<double>(r.iterations) / r.seconds);
    return 0;
}

}  // namespace
}  // namespace rainet::cli
