#pragma once
// What `rainet value train` and `rainet policy train` share: their flags, the seeded self-play
// (a progress line on a terminal), the command line that reproduces the weights, and writing
// them.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ai/value_training.h"
#include "core/record.h"

namespace rainet::cli {

struct TrainFlags {
    ai::SelfPlayOptions selfPlay;
    std::string out;
    double l2 = 1.0;
};

// --out, --games, --nodes, --seed, --player and --l2 on the `train` subcommand.
void addTrainFlags(CLI::App& train, TrainFlags& flags);

// The self-play games; on an error prints "rainet COMMAND: ..." and returns nothing.
std::optional<std::vector<Record>> playTrainingGames(const TrainFlags& flags, const char* command);

// "rainet COMMAND train --out ... --l2 ...": the line written into the weights file.
std::string trainOrigin(const TrainFlags& flags, const char* command);

// Writes the weights file; false (with "rainet COMMAND: cannot write ...") when it fails.
bool writeWeights(const TrainFlags& flags, const std::string& text, const char* command);

}  // namespace rainet::cli
