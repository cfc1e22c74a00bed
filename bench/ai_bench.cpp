// Micro-benchmarks of the AI's hot paths (Google Benchmark). The deterministic search benchmark
// with its committed node count is `rainet bench` (src/ai/bench.h).
#include <benchmark/benchmark.h>

#include "ai/analysis.h"
#include "ai/belief.h"
#include "ai/bench.h"
#include "ai/greedy_bot.h"
#include "ai/ismcts.h"

namespace {
using namespace rainet;

const std::vector<InfoSet>& positions() {
    static const std::vector<InfoSet> p = ai::benchPositions();
    return p;
}

void BM_IsmctsIterations(benchmark::State& state) {
    const auto& ps = positions();
    std::uint64_t iterations = 0, plies = 0;
    std::size_t i = 0;
    Rng rng(1);
    for (auto _ : state) {
        ai::Ismcts search(ai::SearchConfig{});
        ai::Budget budget;
        budget.nodes = static_cast<std::uint64_t>(state.range(0));
        const auto r = search.search(ps[i++ % ps.size()], budget, rng, nullptr);
        iterations += r.iterations;
        plies += r.plies;
    }
    state.counters["iterations/s"] =
        benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kIsRate);
    state.counters["plies/s"] =
        benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_IsmctsIterations)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_BeliefBuildAndSample(benchmark::State& state) {
    const auto& ps = positions();
    Rng rng(1);
    std::size_t i = 0;
    for (auto _ : state) {
        const ai::Belief b(ps[i++ % ps.size()]);
        benchmark::DoNotOptimize(b.sample(rng));
    }
}
BENCHMARK(BM_BeliefBuildAndSample);

void BM_GreedyAction(benchmark::State& state) {
    const auto& ps = positions();
    ai::GreedyBot bot;
    Rng rng(1);
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(bot.chooseAction(ps[i++ % ps.size()], {}, rng));
}
BENCHMARK(BM_GreedyAction)->Unit(benchmark::kMicrosecond);

}  // namespace

// The analysis of one whole game for one side (GET /api/games/{id}/analysis): a greedy self-play
// game from a fixed seed, every ply searched with the server's budget (the argument, iterations).
void BM_AnalyseGame(benchmark::State& state) {
    Rng rng(7);
    ai::GreedyBot one, two;
    Position p = *Position::fromSetups(one.chooseSetup(Side::One, Rules::standard(), rng),
                                       two.chooseSetup(Side::Two, Rules::standard(), rng));
    const Position start = p;
    InfoSet k1(View::of(p, Viewer::Side1)), k2(View::of(p, Viewer::Side2));
    std::vector<Action> actions;
    while (!p.isOver() && actions.size() < 400) {
        const Action a = (p.toMove() == Side::One ? one : two)
                             .chooseAction(p.toMove() == Side::One ? k1 : k2, {}, rng);
        (void)k1.observe(observe(p, a, Viewer::Side1));
        (void)k2.observe(observe(p, a, Viewer::Side2));
        p.doAction(a);
        actions.push_back(a);
    }
    ai::AnalysisConfig config;
    config.nodes = static_cast<std::uint64_t>(state.range(0));
    std::size_t plies = 0;
    for (auto _ : state) plies += ai::analyseGame(start, actions, Side::One, config)->size();
    state.counters["game plies"] = static_cast<double>(actions.size() + 1);
    state.counters["plies/s"] =
        benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AnalyseGame)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(2);

BENCHMARK_MAIN();
