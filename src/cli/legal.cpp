// rainet legal --position POS [--preset P]
#include <algorithm>
#include <iostream>

#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"legal", "legal [--position POS] [--preset standard|official]",
                       "list the legal actions, one per line, sorted", run};

int run(const Args& args) {
    auto app = makeApp(kCommand);
    PositionFlags flags;
    flags.addTo(*app);
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    Position pos;
    if (auto status = loadPosition(kCommand, flags, pos)) return *status;
    std::vector<std::string> lines;
    for (Action a : pos.legalActions()) lines.push_back(toString(a));
    std::sort(lines.begin(), lines.end());
    for (const auto& l : lines) std::cout << l << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(legal, kCommand);
}  // namespace rainet::cli
