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
    Options o = parseOptions(args, {"position", "preset"}, {});
    if (!o.error.empty()) return usageError(kCommand, o.error);
    if (!o.positional.empty())
        return usageError(kCommand, "unexpected argument '" + o.positional[0] + "'");
    Position pos;
    if (auto status = loadPosition(kCommand, o, pos)) return *status;
    std::vector<std::string> lines;
    for (Action a : pos.legalActions()) lines.push_back(toString(a));
    std::sort(lines.begin(), lines.end());
    for (const auto& l : lines) std::cout << l << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(legal, kCommand);
}  // namespace rainet::cli
