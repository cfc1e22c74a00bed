// `rainet serve`: the multiplayer server (HTTP + WebSocket on one port).
#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "server/config.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kServe{
    "serve",
    "serve [--listen HOST:PORT] [--db FILE|postgresql://URI] [--web DIR] [--threads N] "
    "[--grace SECONDS] [--rate MSGS_PER_S] [--sync off|normal|full] [--expire-open SECONDS] "
    "[--expire-setup SECONDS] [--expire-abandoned SECONDS] [--expire-computer SECONDS] "
    "[--test-mode]",
    "run the multiplayer server (WebSocket protocol: docs/protocol.md)", run};

int run(const Args& args) {
    server::Config c;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* {
            return i + 1 < args.size() ? &args[++i] : nullptr;
        };
        const std::string* v = nullptr;
        if (a == "--test-mode") {
            c.testMode = true;
        } else if (a == "--listen" || a == "--db" || a == "--web" || a == "--threads" ||
                   a == "--grace" || a == "--rate" || a == "--sync" || a.starts_with("--expire-")) {
            if (!(v = value())) return usageError(kServe, a + " needs a value");
            try {
                if (a == "--listen") c.listen = *v;
                if (a == "--db") c.db = *v;
                if (a == "--web") c.web = *v;
                if (a == "--sync") c.sync = *v;
                if (a == "--threads") c.threads = std::clamp(std::stoi(*v), 1, 64);
                if (a == "--rate") c.ratePerSecond = std::clamp(std::stoi(*v), 1, 1000000);
                if (a == "--grace") c.graceCs = std::max(0, std::stoi(*v)) * 100LL;
                // Expiry delays (server/expiry.h), in seconds; 0 = never.
                std::int64_t* expiry = a == "--expire-open"        ? &c.expiry.openCs
                                       : a == "--expire-setup"     ? &c.expiry.setupCs
                                       : a == "--expire-abandoned" ? &c.expiry.abandonedCs
                                       : a == "--expire-computer"  ? &c.expiry.computerCs
                                                                   : nullptr;
                if (a.starts_with("--expire-") && !expiry)
                    return usageError(kServe, "unknown option " + a);
                if (expiry) *expiry = std::max(0, std::stoi(*v)) * 100LL;
            } catch (const std::exception&) {
                return usageError(kServe, a + " needs a number");
            }
        } else {
            return usageError(kServe, "unknown option " + a);
        }
    }
    return server::serve(c);
}

RAINET_COMMAND(serve, kServe);

}  // namespace
}  // namespace rainet::cli
