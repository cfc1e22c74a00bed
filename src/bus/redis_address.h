#pragma once
// Where a Redis server listens, from the `--redis` flag: `redis://host[:port][/db]` or
// `unix:/path/to/socket` (also `unix:///path`). Passwords are not accepted in the URL (they would
// show in `ps` and in logs); a password-protected Redis is reached through a local socket whose
// permissions do the protecting.
#include <string>
#include <string_view>

#include "core/error.h"

namespace rainet::bus {

struct RedisAddress {
    std::string host;  // empty for a unix socket
    int port = 6379;
    std::string socketPath;  // empty for TCP
    int db = 0;

    bool isUnix() const { return !socketPath.empty(); }
    // The form a log line may show (it never held a secret).
    std::string toString() const;
};

[[nodiscard]] Result<RedisAddress> parseRedisAddress(std::string_view text);

}  // namespace rainet::bus
