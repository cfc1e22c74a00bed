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
    auto app = makeApp(kCommand);
    int depth = 0;
    app->add_option("DEPTH", depth, "plies to count")->required()->check(CLI::Range(0, 99));
    PositionFlags flags;
    flags.addTo(*app);
    bool divide = false;
    app->add_flag("--divide", divide, "one count per root action, sorted");
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    Position pos;
    if (auto status = loadPosition(kCommand, flags, pos)) return *status;
    Position p = pos;
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t nodes = 0;
    if (divide) {
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
                  secs > 0 ? static_cast<double>(nodes) / secs : 0.0);
    std::cout << buf;
    return 0;
}

}  // namespace
RAINET_COMMAND(perft, kCommand);
}  // namespace rainet::cli
