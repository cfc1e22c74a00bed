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
    "[--grace SECONDS] [--rate MSGS_PER_S] [--sync off|normal|full] [--max-connections N] "
    "[--max-per-address N] [--hello-timeout SECONDS] [--identities-per-minute N] "
    "[--trust-proxy CIDR...] [--password-cost interactive|min] [--expire-open SECONDS] "
    "[--expire-setup SECONDS] [--expire-abandoned SECONDS] [--expire-computer SECONDS] "
    "[--test-mode]",
    "run the multiplayer server (WebSocket protocol: docs/protocol.md)", run};

int run(const Args& args) {
    server::Config c;
    bool perAddressSet = false, identitiesSet = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* {
            return i + 1 < args.size() ? &args[++i] : nullptr;
        };
        const std::string* v = nullptr;
        if (a == "--test-mode") {
            c.testMode = true;
        } else if (a == "--trust-proxy") {
            // One or more ranges, up to the next option.
            while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0)
                c.trustProxy.push_back(args[++i]);
            if (c.trustProxy.empty()) return usageError(kServe, a + " needs a CIDR range");
        } else if (a == "--password-cost") {
            if (!(v = value()) || (*v != "interactive" && *v != "min"))
                return usageError(kServe, a + " needs interactive or min");
            c.passwordCost = *v;
        } else if (a == "--listen" || a == "--db" || a == "--web" || a == "--threads" ||
                   a == "--grace" || a == "--rate" || a == "--sync" || a == "--max-connections" ||
                   a == "--max-per-address" || a == "--hello-timeout" ||
                   a == "--identities-per-minute" || a.starts_with("--expire-")) {
            if (!(v = value())) return usageError(kServe, a + " needs a value");
            try {
                if (a == "--listen") c.listen = *v;
                if (a == "--db") c.db = *v;
                if (a == "--web") c.web = *v;
                if (a == "--sync") c.sync = *v;
                if (a == "--threads") c.threads = std::clamp(std::stoi(*v), 1, 64);
                if (a == "--rate") c.ratePerSecond = std::clamp(std::stoi(*v), 1, 1000000);
                if (a == "--grace") c.graceCs = std::max(0, std::stoi(*v)) * 100LL;
                if (a == "--max-connections") c.maxConnections = std::max(0, std::stoi(*v));
                if (a == "--max-per-address") c.maxPerAddress = std::max(0, std::stoi(*v));
                perAddressSet |= a == "--max-per-address";
                identitiesSet |= a == "--identities-per-minute";
                if (a == "--hello-timeout") c.helloTimeoutS = std::clamp(std::stoi(*v), 1, 3600);
                if (a == "--identities-per-minute")
                    c.identitiesPerMinute = std::clamp(std::stoi(*v), 0, 6000);
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
    // Test clients all come from loopback: in test mode the per-address limits are off unless
    // given.
    if (c.testMode && !perAddressSet) c.maxPerAddress = 0;
    if (c.testMode && !identitiesSet) c.identitiesPerMinute = 0;
    return server::serve(c);
}

RAINET_COMMAND(serve, kServe);

}  // namespace
}  // namespace rainet::cli
