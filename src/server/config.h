#pragma once
// Settings of `rainet serve`.
#include <cstdint>
#include <string>
#include <vector>

#include "server/expiry.h"

namespace rainet::server {

struct Config {
    std::string listen = "127.0.0.1:8080";
    std::string db = "rainet.db";  // a SQLite file, or a postgresql:// URI (store/store.h)
    std::string web = "web/dist";
    std::string sync = "normal";  // off, normal, full (store/store.h)
    int threads = 2;              // network threads
    int botThreads = 1;           // the computer thinks here, never on a network thread
    // Search iterations per ply of a finished game's analysis (server/analysis.h): fixed, not a
    // time, so that an analysis is the same on every run.
    std::uint64_t analysisNodes = 1000;
    int ratePerSecond = 20;       // per connection; the burst is twice this
    std::int64_t graceCs = 6000;  // claim_win after the opponent has been gone this long
    ExpiryConfig expiry;          // games nobody attends end (server/expiry.h)
    bool testMode = false;        // manual time, sequential ids, POST /api/test/advance
    int notificationDays = 30;    // notifications older than this are deleted (1-3650)
    // Chat (docs/deploy.md, "Moderation"): whether spectators may chat, and the operator's
    // word filter (lower case; a line holding one as a whole word is refused,
    // server/chat_filter.h).
    bool spectatorChat = true;
    std::vector<std::string> chatFilter;

    // Bounds on what clients can make the server hold (docs/deployment.md; 0: no cap). In test
    // mode the per-address ones are 0 unless given (every test client comes from loopback).
    int maxConnections = 10000;  // WebSocket connections in total
    int maxPerAddress = 64;      // WebSocket connections per client address
    int helloTimeoutS = 20;      // a connection that has not said hello (or login) is closed
    // New guests stored and registrations, per client address: a burst of this many, then one
    // more every 60 / N seconds (0: no limit).
    int identitiesPerMinute = 10;
    // Reverse proxies whose X-Forwarded-For names the client (CIDR ranges); others are clients.
    std::vector<std::string> trustProxy;
    // Where /metrics is served (HOST:PORT; empty: nowhere), never on `listen`: the counters are
    // for the operator's Prometheus, not the internet. Test mode serves them on `listen` too.
    std::string metricsListen;
    // Password hashing: Argon2id at libsodium's interactive cost, or its minimum (the default
    // in test mode only: tests register many accounts).
    std::string passwordCost;  // "interactive", "min"; empty: min in test mode, else interactive

    // A cluster (docs/scaling.md): Redis's address (empty: a single node, as without a cluster),
    // this node's id (empty: a random one, logged at start) and the TTL of its game leases (a
    // dead node's games are taken over this long after its last renewal).
    std::string redis;
    std::string nodeId;
    std::int64_t leaseMs = 5000;
    // The operator's recurring arenas (tournament/schedule.h), e.g. "3+2@60/30".
    std::vector<std::string> arenaSchedule;
};

// Runs the server until SIGTERM/SIGINT; returns the process exit status.
int serve(const Config& config);

}  // namespace rainet::server
