// rainet perft DEPTH [--position POS] [--preset P] [--divide]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/options.h"
#include "core/perft.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"perft",
                       "perft DEPTH [--position POS] [--preset standard|official] [--divide]",
                       "count the leaves of the action tree (with --divide: per root action)", run};

int run(const Args& args) {
    Options o = parseOptions(args, {"position", "preset"}, {"divide"});
    if (!o.error.empty()) return usageError(kCommand, o.error);
    if (o.positional.size() != 1) return usageError(kCommand, "expected DEPTH");
    const std::string& d = o.positional[0];
    if (d.empty() || d.size() > 2 || d.find_first_not_of("0123456789") != std::string::npos)
        return usageError(kCommand, "DEPTH must be a number from 0 to 99");
    const int depth = std::stoi(d);
    Position pos;
    if (auto status = loadPosition(kCommand, o, pos)) return *status;
    Position p = pos;
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t nodes = 0;
    if (o.has("divide")) {
        auto rows = perftDivide(p, depth);
        std::vector<std::pair<std::string, std::uint64_t>> lines;
        for (auto& [a, n] : rows) lines.emplace_back(toString(a), n), nodes += n;
        std::sort(lines.begin(), lines.end());
        for (auto& [a, n] : lines) std::cout << a << ": " << n << "\n";
    } else {
        nodes = perft(p, depth);
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "Nodes: " << nodes << "\n";
    char buf[96];
    std::snprintf(buf, sizeof buf, "Time: %.3f s\nSpeed: %.0f leaves/s\n", secs,
                  secs > 0 ? nodes / secs : 0.0);
    std::cout << buf;
    return 0;
}

}  // namespace
RAINET_COMMAND(perft, kCommand);
}  // namespace rainet::cli
