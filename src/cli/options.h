#pragma once
// A tiny flag reader shared by the subcommands: `--name value` pairs, bare `--switch`es and
// positional words, with the position and preset options most commands take.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/position.h"

namespace rainet::cli {

struct Options {
    std::map<std::string, std::string> values;
    std::set<std::string> switches;
    std::vector<std::string> positional;
    std::string error;  // non-empty when the arguments could not be read

    bool has(const std::string& k) const { return values.count(k) || switches.count(k); }
    std::string get(const std::string& k, const std::string& fallback = "") const {
        auto it = values.find(k);
        return it == values.end() ? fallback : it->second;
    }
};

// valueFlags take a value; switchFlags do not; anything else starting with "--" is an error.
Options parseOptions(const Args& args, const std::set<std::string>& valueFlags,
                     const std::set<std::string>& switchFlags);

// --preset (default standard) and --position (default the start of RULES.md §7).
Result<Rules> presetOption(const Options& o);
// Reads --preset and --position into `out`; on failure reports it (a bad preset is a usage error,
// exit 2; a bad position exits 1) and returns the exit status, otherwise nullopt.
std::optional<int> loadPosition(const Command& c, const Options& o, Position& out);

}  // namespace rainet::cli
