// `rainet serve`: the multiplayer server (HTTP + WebSocket on one port).
#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "cli/options.h"
#include "server/chat_filter.h"
#include "server/config.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kServe{
    "serve",
    "serve [--listen HOST:PORT] [--db FILE|postgresql://URI] [--web DIR] [--threads N] "
    "[--grace SECONDS] [--rate MSGS_PER_S] [--sync off|normal|full] [--max-connections N] "
    "[--max-per-address N] [--hello-timeout SECONDS] [--identities-per-minute N] "
    "[--trust-proxy CIDR...] [--metrics-listen HOST:PORT] [--password-cost interactive|min] "
    "[--arena-schedule SPEC...] "
    "[--expire-open SECONDS] "
    "[--expire-setup SECONDS] [--expire-abandoned SECONDS] [--expire-computer SECONDS] "
    "[--notification-days N] [--spectator-chat on|off] [--chat-filter FILE] "
    "[--redis redis://HOST[:PORT][/DB]|unix:PATH [--node-id ID] [--lease-ms N]] [--test-mode]",
    "run the multiplayer server (WebSocket protocol: docs/protocol.md)", run};

int run(const Args& args) {
    server::Config c;
    auto app = makeApp(kServe);
    app->add_option("--listen", c.listen, "address and port to listen on (port 0: any free one)");
    app->add_option("--db", c.db, "the SQLite file, or a postgresql:// URI");
    app->add_option("--web", c.web, "the browser client's files (web/dist)");
    app->add_option("--sync", c.sync, "SQLite's synchronous setting")
        ->check(CLI::IsMember({"off", "normal", "full"}));
    app->add_option("--password-cost", c.passwordCost, "password hashing cost")
        ->check(CLI::IsMember({"interactive", "min"}));
    app->add_option("--trust-proxy", c.trustProxy,
                    "proxies (CIDR ranges) whose X-Forwarded-For is believed")
        ->expected(1, CLI::detail::expected_max_vector_size)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app->add_option("--metrics-listen", c.metricsListen,
                    "serve /metrics here, for Prometheus (e.g. 127.0.0.1:9100; default: nowhere)");
    app->add_option(
           "--arena-schedule", c.arenaSchedule,
           "recurring arenas: INITIAL_MIN+INCREMENT_S@EVERY_MIN/LENGTH_MIN, e.g. 3+2@60/30 "
           "(docs/protocol.md)")
        ->expected(1, CLI::detail::expected_max_vector_size)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    auto* redis = app->add_option("--redis", c.redis,
                                  "join a cluster through this Redis (needs a postgresql:// --db; "
                                  "docs/scaling.md)");
    app->add_option("--node-id", c.nodeId, "this node's id in the cluster (default: a random one)")
        ->needs(redis)
        ->check([](const std::string& v) {
            if (v.empty() || v.size() > 64) return std::string("1 to 64 characters");
            for (char ch : v)
                if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_')
                    return std::string("letters, digits, - and _ only");
            return std::string();
        });
    app->add_option("--lease-ms", c.leaseMs,
                    "milliseconds a game lease lasts unrenewed: a dead node's games are taken "
                    "over after this (300-600000)")
        ->needs(redis)
        ->check(CLI::Range(300, 600000));
    std::string spectatorChat = "on", chatFilter;
    app->add_option("--spectator-chat", spectatorChat, "whether spectators may chat")
        ->check(CLI::IsMember({"on", "off"}));
    app->add_option("--chat-filter", chatFilter,
                    "a file of words (one a line) that chat lines may not hold (docs/deploy.md)")
        ->check(CLI::ExistingFile);
    app->add_flag("--test-mode", c.testMode,
                  "manual time and sequential ids for the tests (never in production)");
    // Numbers bounded after reading: each applies only when given.
    struct Number {
        const char* flag;
        const char* help;
        int value;
        std::function<void(int)> apply;
    };
    std::vector<Number> numbers{
        {"--threads", "I/O threads (1-64)", c.threads,
         [&](int v) { c.threads = std::clamp(v, 1, 64); }},
        {"--grace", "seconds before claim_win after the opponent is gone",
         static_cast<int>(c.graceCs / 100), [&](int v) { c.graceCs = std::max(0, v) * 100LL; }},
        {"--rate", "messages per second per connection", c.ratePerSecond,
         [&](int v) { c.ratePerSecond = std::clamp(v, 1, 1000000); }},
        {"--max-connections", "open connections (0: no limit)", c.maxConnections,
         [&](int v) { c.maxConnections = std::max(0, v); }},
        {"--max-per-address", "connections per client address (0: no limit)", c.maxPerAddress,
         [&](int v) { c.maxPerAddress = std::max(0, v); }},
        {"--hello-timeout", "seconds a new connection has to say hello", c.helloTimeoutS,
         [&](int v) { c.helloTimeoutS = std::clamp(v, 1, 3600); }},
        {"--identities-per-minute", "new identities per address and minute (0: no limit)",
         c.identitiesPerMinute, [&](int v) { c.identitiesPerMinute = std::clamp(v, 0, 6000); }},
        {"--notification-days", "days a notification is kept (1-3650)", c.notificationDays,
         [&](int v) { c.notificationDays = std::clamp(v, 1, 3650); }},
        // Expiry delays (server/expiry.h), in seconds; 0 = never.
        {"--expire-open", "seconds an open game whose creator has no connection lasts",
         static_cast<int>(c.expiry.openCs / 100),
         [&](int v) { c.expiry.openCs = std::max(0, v) * 100LL; }},
        {"--expire-setup", "seconds a game in setup lasts",
         static_cast<int>(c.expiry.setupCs / 100),
         [&](int v) { c.expiry.setupCs = std::max(0, v) * 100LL; }},
        {"--expire-abandoned", "seconds a game in play nobody is connected to lasts",
         static_cast<int>(c.expiry.abandonedCs / 100),
         [&](int v) { c.expiry.abandonedCs = std::max(0, v) * 100LL; }},
        {"--expire-computer", "seconds a game against the computer lasts without its player",
         static_cast<int>(c.expiry.computerCs / 100),
         [&](int v) { c.expiry.computerCs = std::max(0, v) * 100LL; }},
    };
    for (auto& n : numbers) app->add_option(n.flag, n.value, n.help);
    if (auto status = parseArgs(*app, kServe, args)) return *status;
    for (auto& n : numbers)
        if (app->count(n.flag)) n.apply(n.value);
    c.spectatorChat = spectatorChat == "on";
    if (!chatFilter.empty()) {
        std::ifstream in(chatFilter, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) {
            std::cerr << "rainet serve: cannot read " << chatFilter << "\n";
            return 1;
        }
        c.chatFilter = server::parseChatFilter(text.str());
    }
    const bool perAddressSet = app->count("--max-per-address") > 0;
    const bool identitiesSet = app->count("--identities-per-minute") > 0;
    // Test clients all come from loopback: in test mode the per-address limits are off unless
    // given.
    if (c.testMode && !perAddressSet) c.maxPerAddress = 0;
    if (c.testMode && !identitiesSet) c.identitiesPerMinute = 0;
    return server::serve(c);
}

RAINET_COMMAND(serve, kServe);

}  // namespace
}  // namespace rainet::cli
