#pragma once
// Subcommands of the `rainet` binary. Each lives in its own file and registers itself with
// RAINET_COMMAND, so main.cpp never changes when one is added.
#include <string>
#include <vector>

namespace rainet::cli {

using Args = std::vector<std::string>;
struct Command {
    const char* name;
    const char* usage;             // one line: "perft DEPTH [--position POS] ..."
    const char* summary;           // one line for `rainet help`
    int (*run)(const Args& args);  // exit status; 2 = usage error
};

std::vector<Command>& registry();
struct Registrar {
    explicit Registrar(Command c) { registry().push_back(c); }
};
#define RAINET_COMMAND(id, ...) static ::rainet::cli::Registrar registrar_##id({__VA_ARGS__})

// Prints "usage: rainet <usage>" and a reason to stderr; returns 2.
int usageError(const Command& c, const std::string& why);

}  // namespace rainet::cli
