#include "cli/training.h"

#include <cstdint>
#include <cstdio>
#include <fstream>

#include <unistd.h>

namespace rainet::cli {

void addTrainFlags(CLI::App& train, TrainFlags& flags) {
    ai::SelfPlayOptions& o = flags.selfPlay;
    train.add_option("--out", flags.out, "the weights file to write")->required();
    train.add_option("--games", o.games, "self-play games (>= 5)")->check(CLI::Range(5, 1000000));
    train.add_option("--nodes", o.nodes, "search iterations per action (>= 1)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
    train.add_option("--seed", o.seed, "the self-play's seed");
    train.add_option("--player", o.player, "the self-play's player spec");
    train.add_option("--l2", flags.l2, "the fit's L2 penalty (>= 0)")
        ->check(CLI::NonNegativeNumber);
}

std::optional<std::vector<Record>> playTrainingGames(const TrainFlags& flags, const char* command) {
    const bool tty = isatty(STDERR_FILENO);
    auto games = ai::playSelfPlay(flags.selfPlay, [&](int done) {
        if (tty) std::fprintf(stderr, "\r%d / %d games", done, flags.selfPlay.games);
    });
    if (tty) std::fprintf(stderr, "\n");
    if (!games.ok()) {
        std::fprintf(stderr, "rainet %s: %s\n", command, games.error().message.c_str());
        return std::nullopt;
    }
    return std::move(*games);
}

std::string trainOrigin(const TrainFlags& flags, const char* command) {
    const ai::SelfPlayOptions& o = flags.selfPlay;
    return "rainet " + std::string(command) + " train --out " + flags.out + " --games " +
           std::to_string(o.games) + " --nodes " + std::to_string(o.nodes) + " --seed " +
           std::to_string(o.seed) + " --player " + o.player + " --l2 " + std::to_string(flags.l2);
}

bool writeWeights(const TrainFlags& flags, const std::string& text, const char* command) {
    std::ofstream file(flags.out);
    file << text;
    if (file) return true;
    std::fprintf(stderr, "rainet %s: cannot write %s\n", command, flags.out.c_str());
    return false;
}

}  // namespace rainet::cli
