// `rainet engine`: a bot speaking the engine protocol (docs/engine-protocol.md) on stdin/stdout.
#include <iostream>
#include <string>

#include "ai/engine_protocol.h"
#include "cli/command.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
RAINET_COMMAND(engine, "engine", "engine [--bot NAME] [--seed N]",
               "plays as an engine over stdin/stdout (docs/engine-protocol.md)", run);

int run(const Args& args) {
    std::string bot = "strong";
    std::uint64_t seed = 1;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i + 1 >= args.size()) {
            std::cerr << "usage: rainet engine [--bot NAME] [--seed N]\n";
            return 2;
        }
        if (args[i] == "--bot") {
            bot = args[++i];
            if (!ai::makeBot(bot)) {
                std::cerr << "rainet engine: unknown bot '" << bot << "'\n";
                return 2;
            }
        } else if (args[i] == "--seed") {
            try {
                seed = std::stoull(args[++i]);
            } catch (const std::exception&) {
                std::cerr << "rainet engine: bad seed\n";
                return 2;
            }
        } else {
            std::cerr << "usage: rainet engine [--bot NAME] [--seed N]\n";
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    ai::runEngine(std::cin, std::cout, bot, seed);
    return 0;
}

}  // namespace
}  // namespace rainet::cli
