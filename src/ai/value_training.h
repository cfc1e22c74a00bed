#pragma once
// Fitting and judging the learned value (value.h) on self-play: games between two copies of a
// player (by default strong's search at a fixed node budget), every position of every game a
// sample (its features from the side to move, and whether that side went on to win). The fit is
// logistic regression by Newton's method with an L2 penalty. Everything is seeded: the same
// options give the same games and the same weights. `rainet value train` drives it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ai/value.h"
#include "core/record.h"

namespace rainet::ai {

struct ValueDataset {
    std::vector<ValueFeatures> features;
    std::vector<bool> won;
    std::vector<double> heuristic;  // eval.h's squashed score of the same positions
};

struct SelfPlayOptions {
    int games = 400;
    std::uint64_t nodes = 300;  // iterations per action
    std::uint64_t seed = 1;
    std::string player = "strong";  // a player description (arena.h) without budget
    int maxPlies = 1000;
};
// Plays the games (arrangements drawn from the seed, game g seeded as in the arena) and returns
// their full records; `progress` is told of every finished game.
Result<std::vector<Record>> playSelfPlay(const SelfPlayOptions& options,
                                         const std::function<void(int done)>& progress = nullptr);

// Adds the samples of one game: every position after each ply, before the end, from the side to
// move's view, labelled by the result (drawn games add nothing).
void addValueSamples(const Record& game, ValueDataset& data);

// The logistic model of P(win | features); `l2` penalizes every weight.
ValueModel fitValueModel(const ValueDataset& data, double l2);

// The heuristic's squashed score recalibrated: P(win) = sigmoid(a * logit(heuristic)), with the
// scale a fitted on the data (so that a comparison with the learned value is one of ranking, not
// only of calibration).
double fitHeuristicScale(const ValueDataset& data);
std::vector<double> predictHeuristic(double scale, const ValueDataset& data);

// Mean log loss (ln) and Brier score of predicted win probabilities against the outcomes.
struct PredictionScore {
    int positions = 0;
    double logLoss = 0.0, brier = 0.0;
};
PredictionScore scorePredictions(const std::vector<double>& p, const std::vector<bool>& won);
// The model's predictions of the data's positions.
std::vector<double> predict(const ValueModel& m, const ValueDataset& data);

}  // namespace rainet::ai
