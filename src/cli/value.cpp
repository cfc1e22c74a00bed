// `rainet value train`: plays seeded self-play games, fits the learned value on them (every 5th
// game held out) and writes the weights file (docs/ai.md, "Learned value").
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "ai/value_training.h"
#include "cli/options.h"
#include "cli/training.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kValue{"value",
                     "value train --out FILE [--games N] [--nodes K] [--seed S] [--player SPEC] "
                     "[--l2 X]",
                     "plays self-play games and fits the learned value on them (every 5th game "
                     "held out)",
                     run};
RAINET_COMMAND(value, kValue);

void printScore(const char* name, const ai::PredictionScore& s) {
    std::printf("  %-10s %8d %9.4f %7.4f\n", name, s.positions, s.logLoss, s.brier);
}

int run(const Args& args) {
    auto app = makeApp(kValue);
    app->require_subcommand(1);
    CLI::App* train = app->add_subcommand("train", "self-play, fit and write the weights");
    TrainFlags flags;
    addTrainFlags(*train, flags);
    if (auto status = parseArgs(*app, kValue, args)) return *status;
    const auto start = std::chrono::steady_clock::now();
    auto games = playTrainingGames(flags, "value");
    if (!games) return 1;
    const double playSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ai::ValueDataset fit, heldOut;
    for (std::size_t i = 0; i < games->size(); ++i)
        ai::addValueSamples((*games)[i], i % 5 == 4 ? heldOut : fit);
    const ai::ValueModel model = ai::fitValueModel(fit, flags.l2);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string origin = trainOrigin(flags, "value");
    if (!writeWeights(flags, ai::formatValueModel(model, origin), "value")) return 1;
    std::printf("%s\n", origin.c_str());
    std::printf(
        "%zu games: %zu positions fitted, %zu held out (every 5th game); self-play %.0f s, "
        "total %.0f s\n",
        games->size(), fit.features.size(), heldOut.features.size(), playSeconds, seconds);
    for (int j = 0; j < ai::kValueFeatureCount; ++j)
        std::printf("  %-14s %+.4f\n", ai::valueFeatureName(j), model.weights[j]);
    std::printf("held-out positions:\n  %-10s %8s %9s %7s\n", "value", "positions", "log-loss",
                "brier");
    printScore("constant",
               ai::scorePredictions(std::vector<double>(heldOut.won.size(), 0.5), heldOut.won));
    printScore("heuristic", ai::scorePredictions(heldOut.heuristic, heldOut.won));
    const double scale = ai::fitHeuristicScale(fit);
    printScore("heur-refit",
               ai::scorePredictions(ai::predictHeuristic(scale, heldOut), heldOut.won));
    std::printf("  (heur-refit: the heuristic's logit times %.4f, fitted on the same positions)\n",
                scale);
    printScore("learned", ai::scorePredictions(ai::predict(model, heldOut), heldOut.won));
    return 0;
}

}  // namespace
}  // namespace rainet::cli
