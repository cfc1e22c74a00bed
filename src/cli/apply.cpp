// rainet apply [--position POS] [--preset P] ACTION...
#include <iostream>

#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"apply", "apply [--position POS] [--preset standard|official] ACTION...",
                       "play actions and print the resulting position string", run};

int run(const Args& args) {
    Options o = parseOptions(args, {"position", "preset"}, {});
    if (!o.error.empty()) return usageError(kCommand, o.error);
    if (o.positional.empty()) return usageError(kCommand, "expected at least one ACTION");
    Position pos;
    if (auto status = loadPosition(kCommand, o, pos)) return *status;
    Position p = pos;
    for (std::size_t i = 0; i < o.positional.size(); ++i) {
        const std::string& text = o.positional[i];
        auto a = parseAction(text);
        std::string why;
        if (!a)
            why = a.error().message;
        else if (p.isOver())
            why = "the game is over (" + std::string(resultString(p.outcome())) + ")";
        else if (!p.isLegal(*a))
            why = "not a legal action for side " + std::to_string(sideNumber(p.toMove()));
        if (!why.empty()) {
            std::cerr << "rainet apply: action " << i + 1 << " '" << text << "': " << why
                      << "\n  in " << p.toString() << "\n";
            return 1;
        }
        p.doAction(*a);
    }
    std::cout << p.toString() << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(apply, kCommand);
}  // namespace rainet::cli
