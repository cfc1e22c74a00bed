// `rainet value train`: plays seeded self-play games, fits the learned value on them (every 5th
// game held out) and writes the weights file (docs/ai.md, "Learned value").
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "ai/value_training.h"
#include "cli/command.h"

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
    if (args.empty() || args[0] != "train") return usageError(kValue, "train?");
    ai::SelfPlayOptions options;
    std::string out;
    double l2 = 1.0;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (i + 1 >= args.size()) return usageError(kValue, a + " needs a value");
        const std::string v = args[++i];
        try {
            if (a == "--out") {
                out = v;
            } else if (a == "--games") {
                options.games = std::stoi(v);
            } else if (a == "--nodes") {
                options.nodes = std::stoull(v);
            } else if (a == "--seed") {
                options.seed = std::stoull(v);
            } else if (a == "--player") {
                options.player = v;
            } else if (a == "--l2") {
                l2 = std::stod(v);
            } else {
                return usageError(kValue, "unknown option " + a);
            }
        } catch (const std::exception&) {
            return usageError(kValue, "bad value for " + a);
        }
    }
    if (out.empty()) return usageError(kValue, "train needs --out FILE");
    if (options.games < 5 || options.nodes < 1 || l2 < 0)
        return usageError(kValue, "needs --games >= 5, --nodes >= 1, --l2 >= 0");
    const auto start = std::chrono::steady_clock::now();
    const bool tty = isatty(STDERR_FILENO);
    auto games = ai::playSelfPlay(options, [&](int done) {
        if (tty) std::fprintf(stderr, "\r%d / %d games", done, options.games);
    });
    if (tty) std::fprintf(stderr, "\n");
    if (!games.ok()) {
        std::fprintf(stderr, "rainet value: %s\n", games.error().message.c_str());
        return 1;
    }
    const double playSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ai::ValueDataset fit, heldOut;
    for (std::size_t i = 0; i < games->size(); ++i)
        ai::addValueSamples((*games)[i], i % 5 == 4 ? heldOut : fit);
    const ai::ValueModel model = ai::fitValueModel(fit, l2);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string origin =
        "rainet value train --out " + out + " --games " + std::to_string(options.games) +
        " --nodes " + std::to_string(options.nodes) + " --seed " + std::to_string(options.seed) +
        " --player " + options.player + " --l2 " + std::to_string(l2);
    std::ofstream file(out);
    file << ai::formatValueModel(model, origin);
    if (!file) {
        std::fprintf(stderr, "rainet value: cannot write %s\n", out.c_str());
        return 1;
    }
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
