#pragma once
// Fitting and judging the learned policy prior (policy.h) on self-play (value_training.h's
// playSelfPlay): every decision of every game with at least two actions the search considers
// (searchActions) is a sample, the features of each of those actions on the true position of the
// record, and the action the player chose. The fit is a softmax over the sample's actions
// (conditional logit) by Newton's method with an L2 penalty; deterministic. The heuristic
// actionPrior is judged as the same softmax of its score times a fitted temperature.
// `rainet policy train` drives it.
#include <cstdint>
#include <vector>

#include "ai/policy.h"
#include "core/record.h"

namespace rainet::ai {

struct PolicyDataset {
    // The rows of decision i are [begin[i], begin[i + 1]); chosen[i] indexes among them.
    std::vector<std::array<float, kPolicyFeatureCount>> features;
    std::vector<float> heuristic;  // eval.h's actionPrior of the same actions
    std::vector<std::uint32_t> begin{0};
    std::vector<std::uint32_t> chosen;
    std::size_t decisions() const { return chosen.size(); }
};

// Adds the decisions of one game (those with a single considered action add nothing; a chosen
// action outside searchActions, which the search never plays, is skipped).
void addPolicySamples(const Record& game, PolicyDataset& data);

// The softmax model of the chosen action; `l2` penalizes every weight.
PolicyModel fitPolicyModel(const PolicyDataset& data, double l2);
// The temperature t of softmax(t * actionPrior) that fits the data best.
double fitHeuristicTemperature(const PolicyDataset& data);

// Mean log loss (ln) of the chosen actions and top-1 accuracy (the highest score chosen; ties go
// to the first listed, as the search's stable ordering does).
struct PolicyScore {
    int decisions = 0;
    double logLoss = 0.0, top1 = 0.0;
};
// Scores rows by the model, by the heuristic times a temperature, or uniformly.
PolicyScore scorePolicy(const PolicyModel& m, const PolicyDataset& data);
PolicyScore scoreHeuristicPolicy(double temperature, const PolicyDataset& data);
PolicyScore scoreUniformPolicy(const PolicyDataset& data);

}  // namespace rainet::ai
