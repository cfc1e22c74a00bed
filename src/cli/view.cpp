// rainet view [--position POS] [--preset P] --as 1|2|spectator
#include <iostream>

#include "cli/options.h"
#include "core/view.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"view",
                       "view [--position POS] [--preset standard|official] --as 1|2|spectator",
                       "print what one viewer may see of a position (its view string)", run};

int run(const Args& args) {
    Options o = parseOptions(args, {"position", "preset", "as"}, {});
    if (!o.error.empty()) return usageError(kCommand, o.error);
    if (!o.positional.empty())
        return usageError(kCommand, "unexpected argument '" + o.positional[0] + "'");
    auto viewer = parseViewer(o.get("as"));
    if (!viewer) return usageError(kCommand, "--as must be 1, 2 or spectator");
    Position pos;
    if (auto status = loadPosition(kCommand, o, pos)) return *status;
    std::cout << View::of(pos, *viewer).toString() << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(view, kCommand);
}  // namespace rainet::cli
