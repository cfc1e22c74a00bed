#pragma once
// The leases a cluster node holds (docs/scaling.md): which live games this node owns,
// by a lease in the database with an epoch. The keeper acquires a game's lease before the node
// accepts an action for it, renews every held lease (renewAll, run every ttl/3 by ClusterNode),
// hands out the fence each action write carries, and tells whether a lease is still live by the
// node's own clock, so that a node paused past its lease stops before writing anything at all.
// Thread-safe; the store calls are synchronous (callers run it off the network threads).
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/store.h"

namespace rainet::server {

class LeaseKeeper {
  public:
    using Clock = std::function<std::int64_t()>;  // unix ms (the nodes' clocks agree, docs)
    LeaseKeeper(store::Store& store, std::string node, std::int64_t ttlMs, Clock clock);

    enum class Outcome { Held, HeldElsewhere, Failed };
    struct Acquired {
        Outcome outcome = Outcome::Failed;
        bool takeover = false;  // the epoch rose: taken from another (dead or released) holder
        std::string error;      // Failed: the store's error
    };
    // Takes (or keeps) the lease of `game`: Held once this node owns it.
    Acquired acquire(const std::string& game);
    // The lease to fence an action write with, if held and live by the local clock.
    std::optional<store::GameLease> fence(const std::string& game) const;
    // Whether this node holds the lease of `game` (live or not).
    bool holds(const std::string& game) const;
    // Held and live: not within a tenth of the TTL of its expiry by the local clock. A node
    // paused past its lease sees it dead the moment it wakes, before any renewal is tried.
    bool live(const std::string& game) const;
    // One renewal round: one statement for every held lease (Store::renewLeases). Returns the games
    // whose lease was lost (taken over, or expired locally before it could be renewed); they are no
    // longer held. When the store fails, a lease that would be dead locally (live() false) before
    // the next round (ttl/3 later) is lost too; the others stay held and the next round retries.
    struct Renewed {
        std::vector<std::string> lost;
        bool storeOk = true;
    };
    Renewed renewAll();
    // Lets a lease go now (the game is over, or its room was dropped): the next owner takes it
    // at once. Not held afterwards.
    void release(const std::string& game);
    // Shutdown: every lease released.
    void releaseAll();

    std::size_t held() const;
    std::int64_t ttl() const { return ttl_; }
    const std::string& node() const { return node_; }

  private:
    bool liveLocked(const store::GameLease& l) const;

    store::Store& store_;
    const std::string node_;
    const std::int64_t ttl_;
    Clock clock_;
    mutable std::mutex mu_;
    std::unordered_map<std::string, store::GameLease> held_;
};

}  // namespace rainet::server
