// `rainet play`: the terminal client (docs/terminal-client.md). Its flags, then either a pass
// and play game at this terminal (client/play_local.h) or a connection to a server
// (client/play_client.h) fed with stdin's lines (client/stdin_reader.h).
//
// One thread runs the io_context (network, timers, commands); a second one only reads stdin and
// posts each line to it.
#include <utility>

#include <unistd.h>
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cctype>
#include <csignal>
#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "client/play_client.h"
#include "client/play_input.h"
#include "client/play_local.h"
#include "client/stdin_reader.h"
#include "client/token_file.h"

namespace rainet::cli {
namespace {

namespace play = ::rainet::client::play;
namespace asio = boost::asio;

int run(const Args& args);
const Command kPlay{"play",
                    "play [GAME] [--server ws://HOST:PORT/ws] [--name NAME] [--token-file FILE] "
                    "[--computer LEVEL] [--challenge USERNAME] [--tournament ID] [--notifications] "
                    "[--games] [--no-color] | "
                    "play --local [--names NAME1,NAME2] "
                    "[--preset standard|official] [--seed N] [--no-color]",
                    "play or watch a game in the terminal: commands at a prompt or from stdin; "
                    "--local: two players at this terminal, no server (docs/terminal-client.md)",
                    run};

// The flags of `rainet play`; a flag given is counted by `app`.
struct PlayFlags {
    std::unique_ptr<CLI::App> app = makeApp(kPlay);
    std::string game, server = "ws://127.0.0.1:8080/ws", name, tokenFile = play::defaultTokenFile();
    std::string computer, names, preset = "standard", seed, challenge, tournament;
    bool notifications = false, games = false;
    bool local = false, noColor = false;

    PlayFlags() {
        app->add_option("GAME", game, "a game to watch (and play in, when it is yours)");
        app->add_option("--server", server, "the server's WebSocket URL");
        app->add_option("--name", name, "the guest name to play under");
        app->add_option("--token-file", tokenFile, "where the identity token is kept");
        app->add_option("--computer", computer, "start a game against the computer at LEVEL");
        app->add_option("--challenge", challenge,
                        "challenge the account USERNAME (its game is followed once accepted)");
        app->add_option("--tournament", tournament,
                        "join the tournament ID (each game it pairs you in is followed)");
        app->add_flag("--notifications", notifications, "list your notifications first");
        app->add_flag("--games", games, "list your correspondence games first (your moves first)");
        app->add_flag("--no-color", noColor, "no colours even on a terminal");
        app->add_flag("--local", local, "two players at this terminal, no server");
        app->add_option("--names", names, "--local: the players' names, NAME1,NAME2");
        app->add_option("--preset", preset, "--local: the rules (standard or official)");
        app->add_option("--seed", seed, "--local: the seed of the random setups");
    }
    bool has(const std::string& flag) const { return app->count("--" + flag) > 0; }
};

// `rainet play --local`: pass and play in-process (play_local.h).
int runLocalGame(const PlayFlags& f) {
    for (const char* remote : {"server", "name", "token-file", "computer", "tournament"})
        if (f.has(remote))
            return usageError(kPlay, std::string("--local plays without a server: no --") + remote);
    if (f.app->count("GAME")) return usageError(kPlay, "--local plays a new game: no GAME");
    play::LocalOptions lo;
    const auto rules = Rules::byName(f.preset);
    if (!rules) return usageError(kPlay, "--preset: standard or official");
    lo.rules = *rules;
    if (f.has("names")) {
        const std::string& names = f.names;
        const auto comma = names.find(',');
        const std::string a = names.substr(0, comma);
        const std::string b = comma == std::string::npos ? "" : names.substr(comma + 1);
        const auto fits = [](const std::string& n) {
            return !n.empty() && n.size() <= 24 && n.find(',') == std::string::npos &&
                   std::none_of(n.begin(), n.end(),
                                [](unsigned char c) { return c < 0x20 || c == 0x7f; });
        };
        if (!fits(a) || !fits(b))
            return usageError(kPlay, "--names: two names separated by a comma, 1-24 bytes each");
        lo.names = {a, b};
    }
    if (f.has("seed")) {
        const std::string& seed = f.seed;
        const bool digits =
            !seed.empty() && seed.size() <= 19 &&
            std::all_of(seed.begin(), seed.end(), [](unsigned char c) { return std::isdigit(c); });
        lo.seed = digits ? std::stoull(seed) : 0;
        if (lo.seed == 0) return usageError(kPlay, "--seed: a positive number");
    }
    lo.color = ::isatty(1) && !f.noColor;
    lo.interactive = ::isatty(0);
    return play::runLocal(std::cin, std::cout, lo);
}

int run(const Args& args) {
    PlayFlags f;
    if (auto status = parseArgs(*f.app, kPlay, args)) return *status;
    if (f.local) return runLocalGame(f);
    for (const char* local : {"names", "preset", "seed"})
        if (f.has(local))
            return usageError(kPlay, std::string("--") + local + " goes with --local");
    play::ClientConfig c;
    c.urlText = f.server;
    auto url = play::parseServerUrl(c.urlText);
    if (!url) return usageError(kPlay, url.error().message);
    c.url = *url;
    c.tokenFile = f.tokenFile;
    c.name = f.name;
    c.interactive = ::isatty(0);
    c.color = ::isatty(1) && !f.noColor;
    if (f.app->count("GAME")) {
        auto g = play::parseGameId(f.game);
        if (!g) return usageError(kPlay, g.error().message);
        if (f.has("computer")) return usageError(kPlay, "either GAME or --computer, not both");
        c.startLine = "watch " + *g;
        c.autoJoin = true;
    } else if (f.has("computer")) {
        if (f.has("challenge")) return usageError(kPlay, "either --computer or --challenge");
        c.startLine = "new computer " + f.computer;
        auto in = play::parseInput(c.startLine);
        if (!in) return usageError(kPlay, "--computer: " + in.error().message);
    } else if (f.has("challenge")) {
        if (f.has("tournament")) return usageError(kPlay, "either --challenge or --tournament");
        c.startLine = "challenge " + f.challenge;
        auto in = play::parseInput(c.startLine);
        if (!in) return usageError(kPlay, "--challenge: " + in.error().message);
    }
    if (f.has("tournament")) {
        if (!c.startLine.empty())
            return usageError(kPlay, "--tournament goes with no GAME, --computer or --challenge");
        c.startLine = "tournament-join " + f.tournament;
        auto in = play::parseInput(c.startLine);
        if (!in) return usageError(kPlay, "--tournament: " + in.error().message);
    }
    if (f.notifications) c.firstLine = "notifications";
    if (f.games) c.firstLine = "games";
    asio::io_context io(1);
    play::PlayClient client(io, c);
    client.start();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int sig) {
        if (!ec) client.interrupted(sig);
    });
    play::StdinReader reader(
        io, [&](std::string line) { client.onLine(std::move(line)); }, [&] { client.onEof(); });
    io.run();
    return client.status();
}

RAINET_COMMAND(play, kPlay);

}  // namespace
}  // namespace rainet::cli
