#pragma once
// Per-address limits counted across the nodes of a cluster (`serve --redis`;
// docs/scaling.md): connections per client address (admission.h), new identities per address and
// failed logins (throttle.h) are counted in Redis, so that a client spreading its connections or
// its guesses over several nodes meets the same caps as on one node.
//
// Connections: a hash per address, one field per node *instance* (node id and a random token of
// this process) holding that instance's count, plus a liveness key per instance. An admission
// never waits for Redis: it is decided on this instance's cached view, its own exact count plus
// the other instances' as of the last sync round. A sync thread runs a round every kSyncEvery,
// and sooner (kSyncGap after the last) when a connection came or went: one Lua script (one round
// trip) sets the liveness key, writes this instance's count of every address it tracks (the
// count itself, not an increment: a release lost while Redis was away is corrected by the next
// round), and reads back the other live instances' counts (deleting dead instances' fields). So
// a killed node's connections stop counting within a lease TTL, and a burst spread over N nodes
// can pass the cap by what the other nodes admitted since a node's last round (docs/scaling.md).
//
// Fail open: while Redis does not answer, the other instances' counts are forgotten and each
// node applies the cap to its own connections (as without --redis); the outage is logged once.
// The throttles' checks (logins, identities) are one round trip each, made on the password thread
// (logins, registrations) or a store reader thread (new guests), never on a network thread; the
// network thread first checks the node's own count (localWait). After a failure Redis is not
// asked again by them for a second. Thread-safe.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bus/redis_link.h"
#include "server/throttle.h"
#include "server/worker_thread.h"

namespace rainet::server {

class SharedCounters {
  public:
    // A sync round at least this often...
    static constexpr std::chrono::milliseconds kSyncEvery{100};
    // ...and this long after the last one when a connection came or went meanwhile.
    static constexpr std::chrono::milliseconds kSyncGap{5};

    // `node`: the node's id; `liveMs`: how long an instance's connections count without a
    // round (the lease TTL). `background`: run the sync thread (tests drive sync() themselves).
    SharedCounters(bus::RedisAddress redis, const std::string& node, std::int64_t liveMs,
                   bool background = true);
    ~SharedCounters();  // stops the sync thread
    SharedCounters(const SharedCounters&) = delete;
    SharedCounters& operator=(const SharedCounters&) = delete;

    // One more connection of `address` if its count in this instance's view (its own exact
    // count plus the other instances' as of the last round) is under `cap`: counted, true.
    // Never waits for Redis.
    bool admitConnection(const std::string& address, std::size_t cap);
    // A connection admitted by admitConnection closed.
    void releaseConnection(const std::string& address);
    // Brings the next round forward (ClusterNode's round; the rounds keep the instance alive).
    void heartbeat();
    // One sync round now (the thread's; tests call it): true if Redis answered.
    bool sync();
    // This instance's view of `address`: its own count and the others' (tests, /metrics).
    std::pair<std::int64_t, std::int64_t> view(const std::string& address);

    // Fixed-window counters for SharedThrottle: `mode` "wait" (ms until each key is under
    // `burst`; takes nothing), "take" (counts one on each key), "try" (counts one on each key if
    // all are under `burst` and answers 0, else takes nothing and answers the wait). A key's
    // window is `windowMs` from its first hit, doubled (up to 64 times) with `backoff` for each
    // window filled before the last one's double had passed. nullopt: Redis away.
    std::optional<std::int64_t> throttle(const char* mode, const std::vector<std::string>& keys,
                                         std::int64_t burst, std::int64_t windowMs, bool backoff);

    const std::string& instance() const { return instance_; }

  private:
    struct Count {
        std::int64_t mine = 0;    // this instance's connections (exact)
        std::int64_t others = 0;  // the other live instances', as of the last round
    };

    std::optional<bus::Reply> eval(const char* script, const std::vector<std::string>& keys,
                                   const std::vector<std::string>& args, bool gated);
    void run();

    bus::RedisLink redis_;
    const std::string instance_;
    const std::int64_t liveMs_;
    WorkerThread worker_;  // runs run(); its mutex guards everything below
    bool down_ = false;
    std::chrono::steady_clock::time_point retryAt_{};
    std::unordered_map<std::string, Count> counts_;  // the addresses tracked
    bool changed_ = false;                           // since the last round began
    std::mutex syncMu_;                              // one round at a time
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

    // As Throttle's, in centiseconds. With counters they may wait for one Redis round trip: call
    // them off the network threads. Every hit is also counted on this node's own Throttle.
    std::int64_t wait(const std::vector<std::string>& keys, std::int64_t nowCs);
    void take(const std::vector<std::string>& keys, std::int64_t nowCs);
    std::int64_t tryTake(const std::vector<std::string>& keys, std::int64_t nowCs);
    // The wait by this node's own hits alone, never asking Redis: a lower bound of wait(), the
    // network thread's check before a request is queued for the thread that asks Redis.
    std::int64_t localWait(const std::vector<std::string>& keys, std::int64_t nowCs) {
        return local_.wait(keys, nowCs);
    }

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
