// `rainet policy train`: plays seeded self-play games, fits the learned policy prior on the
// actions chosen in them (every 5th game held out) and writes the weights file (docs/ai.md,
// "Learned policy prior").
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "ai/policy_training.h"
#include "ai/value_training.h"
#include "cli/options.h"
#include "cli/training.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kPolicy{"policy",
                      "policy train --out FILE [--games N] [--nodes K] [--seed S] [--player SPEC] "
                      "[--l2 X]",
                      "plays self-play games and fits the learned policy prior on the actions "
                      "chosen (every 5th game held out)",
                      run};
RAINET_COMMAND(policy, kPolicy);

void printScore(const char* name, const ai::PolicyScore& s) {
    std::printf("  %-10s %9d %9.4f %7.4f\n", name, s.decisions, s.logLoss, s.top1);
}

int run(const Args& args) {
    auto app = makeApp(kPolicy);
    app->require_subcommand(1);
    CLI::App* train = app->add_subcommand("train", "self-play, fit and write the weights");
    TrainFlags flags;
    flags.selfPlay.games = 200;
    flags.selfPlay.nodes = 1000;
    addTrainFlags(*train, flags);
    if (auto status = parseArgs(*app, kPolicy, args)) return *status;
    const auto start = std::chrono::steady_clock::now();
    auto games = playTrainingGames(flags, "policy");
    if (!games) return 1;
    const double playSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ai::PolicyDataset fit, heldOut;
    for (std::size_t i = 0; i < games->size(); ++i)
        ai::addPolicySamples((*games)[i], i % 5 == 4 ? heldOut : fit);
    const ai::PolicyModel model = ai::fitPolicyModel(fit, flags.l2);
    const double temperature = ai::fitHeuristicTemperature(fit);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string origin = trainOrigin(flags, "policy");
    if (!writeWeights(flags, ai::formatPolicyModel(model, origin), "policy")) return 1;
    std::printf("%s\n", origin.c_str());
    std::printf(
        "%zu games: %zu decisions fitted (%zu actions), %zu held out (every 5th game); self-play "
        "%.0f s, total %.0f s\n",
        games->size(), fit.decisions(), fit.features.size(), heldOut.decisions(), playSeconds,
        seconds);
    for (int j = 0; j < ai::kPolicyFeatureCount; ++j)
        std::printf("  %-16s %+.4f\n", ai::policyFeatureName(j), model.weights[j]);
    std::printf("held-out decisions:\n  %-10s %9s %9s %7s\n", "prior", "decisions", "log-loss",
                "top-1");
    printScore("uniform", ai::scoreUniformPolicy(heldOut));
    printScore("heuristic", ai::scoreHeuristicPolicy(temperature, heldOut));
    std::printf("  (heuristic: softmax of actionPrior times %.4f, fitted on the same decisions)\n",
                temperature);
    printScore("learned", ai::scorePolicy(model, heldOut));
    printScore("learn-fit", ai::scorePolicy(model, fit));
    return 0;
}

}  // namespace
}  // namespace rainet::cli
