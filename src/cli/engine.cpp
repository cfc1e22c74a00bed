// `rainet engine`: a bot speaking the engine protocol (docs/engine-protocol.md) on stdin/stdout.
#include <iostream>
#include <string>

#include "ai/engine_protocol.h"
#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kEngine{"engine", "engine [--bot NAME] [--seed N]",
                      "plays as an engine over stdin/stdout (docs/engine-protocol.md)", run};
RAINET_COMMAND(engine, kEngine);

int run(const Args& args) {
    auto app = makeApp(kEngine);
    std::string bot = "strong";
    std::uint64_t seed = 1;
    app->add_option("--bot", bot, "the bot that plays (docs/ai.md)");
    app->add_option("--seed", seed, "its random seed");
    if (auto status = parseArgs(*app, kEngine, args)) return *status;
    if (!ai::makeBot(bot)) return usageError(kEngine, "unknown bot '" + bot + "'");
    std::ios::sync_with_stdio(false);
    ai::runEngine(std::cin, std::cout, bot, seed);
    return 0;
}

}  // namespace
}  // namespace rainet::cli
