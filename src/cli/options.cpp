#include "cli/options.h"

#include <algorithm>
#include <iostream>

namespace rainet::cli {

std::unique_ptr<CLI::App> makeApp(const Command& c) {
    auto app = std::make_unique<CLI::App>(c.summary, std::string("rainet ") + c.name);
    // A flag given twice: the last one counts, as scripts that append to a command line expect.
    app->option_defaults()->always_capture_default()->multi_option_policy(
        CLI::MultiOptionPolicy::TakeLast);
    return app;
}

std::optional<int> parseArgs(CLI::App& app, const Command& c, const Args& args) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        return usageError(c, e.what());
    }
    return std::nullopt;
}

void PositionFlags::addTo(CLI::App& app) {
    app.add_option("--position", position, "the position string (docs/notation.md)");
    app.add_option("--preset", preset, "the rules")->check(CLI::IsMember({"standard", "official"}));
}

std::optional<int> loadPosition(const Command& c, const PositionFlags& f, Position& out) {
    auto rules = Rules::byName(f.preset);
    if (!rules) return usageError(c, "unknown preset '" + f.preset + "' (standard or official)");
    auto pos = Position::parse(f.position, *rules);
    if (!pos) {
        std::cerr << "rainet " << c.name << ": " << pos.error().message << "\n";
        return 1;
    }
    out = *pos;
    return std::nullopt;
}

}  // namespace rainet::cli
