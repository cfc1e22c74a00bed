// `rainet bench`: searches the fixed bench positions and prints the node count and speed.
#include <cstdio>
#include <string>

#include "ai/bench.h"
#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kBench{
    "bench", "bench [ITERATIONS]",
    "searches fixed positions with a fixed seed; prints 'Nodes searched: N' and speed", run};
RAINET_COMMAND(bench, kBench);

int run(const Args& args) {
    auto app = makeApp(kBench);
    std::uint64_t iterations = ai::kBenchIterations;
    app->add_option("ITERATIONS", iterations, "search iterations per position");
    if (auto status = parseArgs(*app, kBench, args)) return *status;
    const ai::BenchResult r = ai::runBench(iterations);
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
