#pragma once
// This node's part in a cluster (`rainet serve --redis`; docs/scaling.md): its id, the
// leases of the games it owns (server/cluster_leases.h), and one background thread that every
// ttl/3 renews them (a lost one: the hub evicts the room), takes over orphaned games (a lease
// expired: its node died or stalled) by opening them, and checks the Redis and database links
// for /healthz. Without --redis there is no ClusterNode and the server is a single node.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "bus/redis_link.h"
#include "protocol/http_answers.h"
#include "server/cluster_leases.h"
#include "server/shared_limits.h"
#include "server/worker_thread.h"

namespace rainet::server {

class Hub;

class ClusterNode {
  public:
    // Orphaned games taken over per round at most (the rest in the next rounds).
    static constexpr int kTakeoverBatch = 64;

    ClusterNode(Hub& hub, bus::RedisAddress redis, std::string node, std::int64_t leaseMs);
    ~ClusterNode();  // stop()
    ClusterNode(const ClusterNode&) = delete;
    ClusterNode& operator=(const ClusterNode&) = delete;

    // A random node id (hex), when --node-id is not given.
    static std::string randomId();

    LeaseKeeper& leases() { return leases_; }
    // The cluster-wide per-address counters (shared_limits.h); this instance's liveness in them
    // is refreshed by each round.
    const std::shared_ptr<SharedCounters>& counters() const { return counters_; }
    const std::string& id() const { return leases_.node(); }
    // Starts the background thread; its first round runs at once (takes over orphans).
    void start();
    // Stops the thread, then releases every held lease (a clean shutdown hands games over at
    // once instead of after the TTL).
    void stop();
    // One round (the thread's; tests call it too).
    void round();

    // GET /healthz: {"node","role","redis","database","leases"}; healthy when both links are up.
    protocol::ClusterHealth health() const;
    bool healthy() const { return redisUp_ && dbUp_; }

  private:
    void run();

    Hub& hub_;
    LeaseKeeper leases_;
    bus::RedisLink redis_;
    std::shared_ptr<SharedCounters> counters_;
    std::atomic<bool> redisUp_{false}, dbUp_{false};
    WorkerThread worker_;  // runs run()
};

}  // namespace rainet::server
