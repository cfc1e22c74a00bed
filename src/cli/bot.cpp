// `rainet bot`: plays on a server as a bot account with an engine-protocol program (docs/bot.md).
// Its flags, the engine started (so that a command that does not work fails at once), then the
// connection (client/bot_client.h) run until it is done or interrupted.
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <fstream>
#include <iostream>
#include <random>

#include "ai/engine_client.h"
#include "cli/command.h"
#include "cli/options.h"
#include "client/bot_client.h"
#include "client/play_input.h"
#include "protocol/messages.h"

namespace rainet::cli {
namespace {

namespace play = ::rainet::client::play;
namespace bot = ::rainet::client::bot;
namespace asio = boost::asio;

// The first line of `path`.
Result<std::string> readPassword(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) return Error{"cannot read the password from " + path};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

int run(const Args& args);
const Command kBot{
    "bot",
    "bot --engine CMD --user NAME --password-file FILE [--server ws://HOST:PORT/ws] [--register] "
    "[--accept quick,challenges] [--seek \"[standard|official] [clock MIN+INC|none] "
    "[rated|casual]\"] [--tournament ID] [--tournaments] [--games N] [--movetime MS] [--nodes N] "
    "[--accept-draws] [--seed N]",
    "play on a server as a bot account with an engine-protocol program (docs/bot.md)", run};

int run(const Args& args) {
    auto app = makeApp(kBot);
    bot::BotConfig c;
    std::string passwordFile, accept = "quick", seekText;
    long long games = 0, movetime = 0, nodes = 0, seed = 0;
    c.urlText = "ws://127.0.0.1:8080/ws";
    app->add_option("--engine", c.engine, "the engine-protocol program (a shell command)")
        ->required();
    app->add_option("--user", c.user, "the bot account")->required();
    app->add_option("--password-file", passwordFile, "a file whose first line is the password")
        ->required();
    app->add_option("--server", c.urlText, "the server's WebSocket URL");
    app->add_flag("--register", c.registerFirst, "register the bot account first");
    app->add_option("--accept", accept, "what to accept: quick and/or challenges, comma separated");
    app->add_option("--seek", seekText,
                    "seek games: \"[standard|official] [clock MIN+INC|none] [rated|casual]\"");
    app->add_option("--games", games, "games to play before exiting (0: no end)")
        ->check(CLI::Range(0LL, 1000000LL));
    app->add_option("--movetime", movetime, "the engine's milliseconds per action, untimed games")
        ->check(CLI::Range(0LL, 3600000LL));
    app->add_option("--nodes", nodes, "the engine's nodes per action, untimed games")
        ->check(CLI::Range(0LL, 1LL << 40));
    app->add_option("--tournament", c.tournament,
                    "join this tournament and play its pairings (exits when it ends)");
    app->add_flag("--tournaments", c.anyTournament,
                  "join every open tournament that admits bots and play its pairings");
    app->add_flag("--accept-draws", c.acceptDraws, "accept draw offers");
    app->add_option("--seed", seed, "the engine's Seed option (default: random)")
        ->check(CLI::Range(0LL, 1LL << 62));
    if (auto status = parseArgs(*app, kBot, args)) return *status;
    auto url = play::parseServerUrl(c.urlText);
    if (!url) return usageError(kBot, url.error().message);
    c.url = *url;
    if (!protocol::validUsername(c.user))
        return usageError(kBot, "--user: 3 to 24 letters, digits, '_' or '-'");
    auto password = readPassword(passwordFile);
    if (!password) return usageError(kBot, password.error().message);
    c.password = std::move(*password);
    // In tournaments the bot seeks nothing else unless --accept says so.
    if ((!c.tournament.empty() || c.anyTournament) && !app->count("--accept")) accept.clear();
    if (!c.tournament.empty() && c.tournament[0] != 't')
        return usageError(kBot, "--tournament: a tournament's id (t...)");
    if (!accept.empty()) accept += ",";
    for (std::size_t at = 0, comma; (comma = accept.find(',', at)) != std::string::npos;
         at = comma + 1) {
        const std::string what = accept.substr(at, comma - at);
        if (what == "quick")
            c.acceptQuick = true;
        else if (what == "challenges")
            c.acceptChallenges = true;
        else
            return usageError(kBot, "--accept: 'quick' and/or 'challenges', not '" + what + "'");
    }
    auto seek = play::parseInput("seek " + seekText);
    if (!seek) return usageError(kBot, "--seek: " + seek.error().message);
    c.seek = seek->seek;
    c.games = static_cast<int>(games);
    c.untimed.nodes = static_cast<std::uint64_t>(nodes);
    c.untimed.movetime = std::chrono::milliseconds(movetime);
    if (!c.untimed.nodes && !c.untimed.movetime.count())
        c.untimed.movetime = std::chrono::milliseconds(1000);
    c.seed = app->count("--seed") ? static_cast<std::uint64_t>(seed) : std::random_device{}();
    // The engine is started before connecting: a command that does not work fails at once.
    auto engine = ai::EngineClient::start(c.engine, c.seed);
    if (!engine.ok()) {
        std::cerr << "rainet bot: " << engine.error().message << "\n";
        return 1;
    }
    bot::log("engine '" + (*engine)->name() + "' ready");
    asio::io_context io(1);
    bot::BotClient client(io, c, std::move(*engine));
    client.start();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int sig) {
        if (!ec) client.interrupted(sig);
    });
    io.run();
    return client.status();
}

RAINET_COMMAND(bot, kBot);

}  // namespace
}  // namespace rainet::cli
