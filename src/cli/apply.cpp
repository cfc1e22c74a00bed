// rainet apply [--position POS] [--preset P] ACTION...
#include <iostream>

#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"apply", "apply [--position POS] [--preset standard|official] ACTION...",
                       "play actions and print the resulting position string", run};

int run(const Args& args) {
    auto app = makeApp(kCommand);
    std::vector<std::string> actions;
    app->add_option("ACTION", actions, "actions to play in order (docs/notation.md)")
        ->required()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    PositionFlags flags;
    flags.addTo(*app);
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    Position pos;
    if (auto status = loadPosition(kCommand, flags, pos)) return *status;
    Position p = pos;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const std::string& text = actions[i];
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
