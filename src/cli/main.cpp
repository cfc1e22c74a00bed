// The `rainet` binary: dispatches to the subcommand named by the first argument.
#include <cstring>
#include <iostream>

#include "cli/command.h"

namespace rainet::cli {

std::vector<Command>& registry() {
    static std::vector<Command> commands;
    return commands;
}

int usageError(const Command& c, const std::string& why) {
    std::cerr << "rainet " << c.name << ": " << why << "\nusage: rainet " << c.usage << "\n";
    return 2;
}

}  // namespace rainet::cli

namespace {
void printHelp(std::ostream& out) {
    out << "usage: rainet COMMAND [ARGS...]\n\ncommands:\n";
    for (const auto& c : rainet::cli::registry())
        out << "  " << c.usage << "\n      " << c.summary << "\n";
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help")) {
        printHelp(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? 2 : 0;
    }
    for (const auto& c : rainet::cli::registry()) {
        if (c.name == std::string(argv[1])) return c.run(rainet::cli::Args(argv + 2, argv + argc));
    }
    std::cerr << "rainet: unknown command '" << argv[1] << "'\n";
    printHelp(std::cerr);
    return 2;
}
