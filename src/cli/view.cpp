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
    auto app = makeApp(kCommand);
    PositionFlags flags;
    flags.addTo(*app);
    std::string as;
    app->add_option("--as", as, "the viewer: 1, 2 or spectator")->required();
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    auto viewer = parseViewer(as);
    if (!viewer) return usageError(kCommand, "--as must be 1, 2 or spectator");
    Position pos;
    if (auto status = loadPosition(kCommand, flags, pos)) return *status;
    std::cout << View::of(pos, *viewer).toString() << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(view, kCommand);
}  // namespace rainet::cli
