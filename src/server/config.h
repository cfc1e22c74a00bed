#pragma once
// Settings of `rainet serve`.
#include <cstdint>
#include <string>

#include "server/expiry.h"

namespace rainet::server {

struct Config {
    std::string listen = "127.0.0.1:8080";
    std::string db = "rainet.db";  // a SQLite file, or a postgresql:// URI (store/store.h)
    std::string web = "web/dist";
    std::string sync = "normal";  // off, normal, full (store/store.h)
    int threads = 2;              // network threads
    int botThreads = 1;           // the computer thinks here, never on a network thread
    int ratePerSecond = 20;       // per connection; the burst is twice this
    std::int64_t graceCs = 6000;  // claim_win after the opponent has been gone this long
    ExpiryConfig expiry;          // games nobody attends end (server/expiry.h)
    bool testMode = false;        // manual time, sequential ids, POST /api/test/advance
};

// Runs the server until SIGTERM/SIGINT; returns the process exit status.
int serve(const Config& config);

}  // namespace rainet::server
