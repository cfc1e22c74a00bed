#pragma once
// Per-address limits counted across the nodes of a cluster (`serve --redis`, issue 12;
// docs/scaling.md): connections per client address (admission.h), new identities per address and
// failed logins (throttle.h) are counted in Redis, so that a client spreading its connections or
// its guesses over several nodes meets the same caps as on one node. Each check is one Lua script
// (EVAL), atomic in Redis, one round trip.
//
// Connections: a hash per address, one field per node *instance* (node id and a random token of
// this process) holding that instance's count, plus a liveness key per instance that the node's
// round refreshes (every ttl/3, expiring after the TTL). A script counting an address skips (and
// deletes) the fields of instances whose liveness key is gone, so the connections of a killed node
// stop counting within a lease TTL, and a node restarted under the same id starts from zero.
//
// Fail open: when Redis does not answer, every call says so (nullopt) and the caller falls back to
// its local counters (the node's own limits, as without --redis); the outage is logged once, and
// Redis is not asked again for a second, so that no connection waits on a dead Redis's timeout
// more than once a second. Thread-safe.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bus/redis_link.h"
#include "server/throttle.h"

namespace rainet::server {

class SharedCounters {
  public:
    // `node`: the node's id; `liveMs`: how long an instance's connections count without a
    // heartbeat (the lease TTL).
    SharedCounters(bus::RedisAddress redis, const std::string& node, std::int64_t liveMs);

    // One more connection of `address` if its cluster-wide count is under `cap`: true (counted),
    // false (at the cap, not counted), nullopt (Redis away: not counted).
    std::optional<bool> admitConnection(const std::string& address, std::size_t cap);
    // A connection admitted by admitConnection closed.
    void releaseConnection(const std::string& address);
    // This instance is alive (ClusterNode's round).
    void heartbeat();

    // Fixed-window counters for SharedThrottle: `mode` "wait" (ms until each key is under
    // `burst`; takes nothing), "take" (counts one on each key), "try" (counts one on each key if
    // all are under `burst` and answers 0, else takes nothing and answers the wait). A key's
    // window is `windowMs` from its first hit, doubled (up to 64 times) with `backoff` for each
    // window filled before the last one's double had passed. nullopt: Redis away.
    std::optional<std::int64_t> throttle(const char* mode, const std::vector<std::string>& keys,
                                         std::int64_t burst, std::int64_t windowMs, bool backoff);

    const std::string& instance() const { return instance_; }

  private:
    std::optional<bus::Reply> eval(const char* script, const std::vector<std::string>& keys,
                                   const std::vector<std::string>& args);

    bus::RedisLink redis_;
    const std::string instance_;
    const std::int64_t liveMs_;
    std::mutex mu_;
    bool down_ = false;
    std::chrono::steady_clock::time_point retryAt_{};
};

// A Throttle (throttle.h) that counts in Redis once shared() is given counters: the same bucket
// sizes as a fixed window of `burst` hits per `burst` refills, across every node. Without counters,
// or while Redis is away, it is the local Throttle.
class SharedThrottle {
  public:
    SharedThrottle(double burst, std::int64_t refillCs, bool backoff = false)
        : local_(burst, refillCs, backoff), burst_(burst), refillCs_(refillCs), backoff_(backoff) {}

    // `name` keeps this throttle's keys apart from the others' in Redis.
    void share(std::shared_ptr<SharedCounters> counters, std::string name);

    // As Throttle's, in centiseconds.
    std::int64_t wait(const std::vector<std::string>& keys, std::int64_t nowCs);
    void take(const std::vector<std::string>& keys, std::int64_t nowCs);
    std::int64_t tryTake(const std::vector<std::string>& keys, std::int64_t nowCs);

  private:
    std::optional<std::int64_t> shared(const char* mode, const std::vector<std::string>& keys);

    Throttle local_;
    double burst_;
    std::int64_t refillCs_;
    bool backoff_;
    std::shared_ptr<SharedCounters> counters_;
    std::string name_;
};

}  // namespace rainet::server
