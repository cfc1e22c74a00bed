// `rainet bench`: searches the fixed bench positions and prints the node count and speed.
#include <cstdio>
#include <string>

#include "ai/arena.h"
#include "ai/bench.h"
#include "cli/command.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
RAINET_COMMAND(bench, "bench", "bench [ITERATIONS [PLAYER]]",
               "searches fixed positions with a fixed seed (strong's search, or PLAYER's, e.g. "
               "strong:eval=learned:rollout=4); prints 'Nodes searched: N' and speed",
               run);

int run(const Args& args) {
    std::uint64_t iterations = ai::kBenchIterations;
    if (args.size() > 2) {
        std::fprintf(stderr, "usage: rainet bench [ITERATIONS [PLAYER]]\n");
        return 2;
    }
    ai::SearchConfig config = ai::strongConfig();
    if (args.size() == 2) {
        auto spec = ai::parsePlayerSpec(args[1]);
        const auto searched = spec.ok() ? ai::searchConfigOf(*spec) : std::nullopt;
        if (!searched) {
            std::fprintf(stderr, "rainet bench: %s\n",
                         spec.ok() ? ("'" + args[1] + "' does not search").c_str()
                                   : spec.error().message.c_str());
            return 2;
        }
        config = *searched;
    }
    if (!args.empty()) {
        try {
            iterations = std::stoull(args[0]);
        } catch (const std::exception&) {
            std::fprintf(stderr, "rainet bench: bad iteration count '%s'\n", args[0].c_str());
            return 2;
        }
    }
    const ai::BenchResult r = ai::runBench(iterations, 1, config);
    std::printf(
        "Positions: %zu\nIterations: %llu\nTime (ms): %.0f\nNodes searched: %llu\n"
        "Nodes/second: %.0f\nIterations/second: %.0f\n",
        ai::benchPositions().size(), static_cast<unsigned long long>(r.iterations),
        r.seconds * 1000, static_cast<unsigned long long>(r.nodes), r.nodes / r.seconds,
        r.iterations / r.seconds);
    return 0;
}

}  // namespace
}  // namespace rainet::cli
