// Rules-engine benchmarks: action generation, do/undo, bulk-counted perft and uniformly random
// playouts (generation + choice + do, whole games). Figures go to docs/performance.md.
#include <benchmark/benchmark.h>

#include "core/perft.h"
#include "core/random.h"

namespace rainet {
namespace {

const char* kMidgame = "lll2vvv/3l4/8/3L!4/4v+!3/8/1L2V3/L1L2VVV 1 Nn -/- 10 10";

// Lists the legal actions of one position over and over.
void generate(benchmark::State& state, const Position& p) {
    ActionList l;
    for (auto _ : state) {
        p.legalActions(l);
        benchmark::DoNotOptimize(l.size());
    }
    state.SetItemsProcessed(state.iterations() * l.size());
}

void BM_GenerateStart(benchmark::State& state) {
    generate(state, Position::start());
}
BENCHMARK(BM_GenerateStart);

void BM_GenerateMidgame(benchmark::State& state) {
    generate(state, *Position::parse(kMidgame));
}
BENCHMARK(BM_GenerateMidgame);

void BM_DoUndo(benchmark::State& state) {
    Position p = *Position::parse(kMidgame);
    const ActionList l = p.legalActions();
    int i = 0;
    for (auto _ : state) {
        const PositionState saved = p.state();
        p.doAction(l[i]);
        benchmark::DoNotOptimize(p.hash());
        p.undoAction(saved);
        if (++i == l.size()) i = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DoUndo);

void BM_PerftStartDepth4(benchmark::State& state) {
    Position p = Position::start();
    std::uint64_t leaves = 0;
    for (auto _ : state) leaves += perft(p, 4);
    state.counters["leaves/s"] =
        benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PerftStartDepth4)->Unit(benchmark::kMillisecond);

// Whole random games from the start; `pick` chooses and plays one action, false at the end.
template <class Pick>
void playouts(benchmark::State& state, Pick pick) {
    Rng rng(1);
    std::uint64_t plies = 0;
    for (auto _ : state) {
        Position p = Position::start();
        while (pick(p, rng)) ++plies;
        benchmark::DoNotOptimize(p.hash());
    }
    state.counters["plies/s"] =
        benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
    state.counters["plies/game"] =
        static_cast<double>(plies) / static_cast<double>(state.iterations());
}

void BM_RandomPlayout(benchmark::State& state) {
    ActionList l;
    playouts(state, [&](Position& p, Rng& rng) {
        p.legalActions(l);
        if (l.empty()) return false;
        p.doAction(l[static_cast<int>(rng.below(static_cast<std::uint32_t>(l.size())))]);
        return true;
    });
}
BENCHMARK(BM_RandomPlayout)->Unit(benchmark::kMicrosecond);

// The same playouts picking with countLegalActions + legalActionAt instead of listing.
void BM_RandomPlayoutByIndex(benchmark::State& state) {
    playouts(state, [](Position& p, Rng& rng) {
        const int n = p.countLegalActions();
        if (!n) return false;
        p.doAction(p.legalActionAt(static_cast<int>(rng.below(static_cast<std::uint32_t>(n)))));
        return true;
    });
}
BENCHMARK(BM_RandomPlayoutByIndex)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rainet

BENCHMARK_MAIN();
