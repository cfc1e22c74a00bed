#pragma once
// Flags of the subcommands, read with CLI11 the same way by every one: `rainet NAME --help`
// prints the usage and the options on stdout (exit 0); an unknown flag, a missing value or a bad
// one prints the reason and the usage line on stderr (exit 2) and nothing is done.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "core/position.h"

namespace rainet::cli {

// An App named "rainet NAME" whose description is the command's summary.
std::unique_ptr<CLI::App> makeApp(const Command& c);
// Parses `args` into the options of `app`; nullopt when the command is to run, otherwise its exit
// status (0 after --help, 2 after a usage error).
std::optional<int> parseArgs(CLI::App& app, const Command& c, const Args& args);

// --preset (default standard) and --position (default the start of RULES.md §7), which most
// rules commands take.
struct PositionFlags {
    std::string preset = "standard";
    std::string position{Position::kStartString};
    void addTo(CLI::App& app);
};
// Reads the position the flags give into `out`; on failure reports it (exit 1) and returns the
// exit status, otherwise nullopt.
std::optional<int> loadPosition(const Command& c, const PositionFlags& f, Position& out);

}  // namespace rainet::cli
