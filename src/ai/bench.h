#pragma once
// The search benchmark: a fixed list of positions, each searched by the strong bot with a fixed
// seed and iteration budget. The total of plies simulated ("nodes") is deterministic: any change
// of it is a change of search behaviour and must be deliberate (bench/bench_nodes.txt holds the
// committed value; ai_tests compares).
#include <cstdint>
#include <string>
#include <vector>

#include "ai/ismcts.h"
#include "core/infoset.h"

namespace rainet::ai {

struct BenchResult {
    std::uint64_t nodes = 0;       // plies simulated in tree and rollouts
    std::uint64_t iterations = 0;  // playouts
    double seconds = 0.0;
};

// The bench positions, as each side to move knows them (reached by fixed-seed greedy play).
std::vector<InfoSet> benchPositions();
constexpr std::uint64_t kBenchIterations = 400;
// With strong's search unless another configuration is given (to compare speeds side by side).
BenchResult runBench(std::uint64_t iterations = kBenchIterations, std::uint64_t seed = 1,
                     const SearchConfig& config = strongConfig());

}  // namespace rainet::ai
