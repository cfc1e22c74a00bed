#pragma once
// Quick pairing across the nodes of a cluster (docs/scaling.md, "Quick pairing"): with
// --redis the seeks waiting live in Redis instead of each node's SeekQueue, so that a seek on
// node A pairs with a compatible one on node B, and every node's lobby shows the cluster's seek
// summary.
//  - place: one Lua script (atomic) replaces the player's earlier seek, then takes the oldest
//    compatible seek of a live node (another player: the player's own was just replaced) or
//    queues the new one. The node whose seek completes the pair launches the game (it owns it
//    by the lease) and tells the waiting seek's node on its channel `rainet:sn:<node>`, which
//    hands the `matched` message to the connection by its token; that client then plays
//    through forwarding (server/forwarding.h).
//  - Every change bumps a version and publishes the summary on `rainet:seeks`; each node applies
//    the newest it has seen to its lobby. Its round reads the version and sweeps (and applies
//    the summary again: a lost message heals) only when it moved, a node with a seek died
//    (`rainet:seeknodes`), or every FullReadSchedule::kFullEvery rounds.
//  - A seek names its node and node instance: seeks of a node whose liveness key
//    (`rainet:alive:<node>`, the forwarder's) expired are never paired and are dropped by the
//    next round of any node; a node restarted under the same id drops its predecessor's at start.
// Bounds: one seek per player in Redis (a hash, a member of its kind's sorted set), one local
// entry per connection with a seek; kinds are listed only while a seek of that kind waits.
// place, putBack, withdraw and purge run on the store's writer thread (they are ordered with the
// seek's game creation and with each other: a connection's withdraw runs after its seek); the
// sweep runs on this unit's own thread; the channels are read on the subscriber's thread.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bus/redis_link.h"
#include "bus/subscriber.h"
#include "core/error.h"
#include "protocol/objects.h"
#include "server/client.h"
#include "server/full_read_schedule.h"
#include "server/seek_queue.h"
#include "server/worker_thread.h"

namespace rainet::server {

class ClusterSeeks {
  public:
    using Summary = std::function<void(std::vector<protocol::SeekEntry>)>;
    using Post = std::function<void(std::function<void()>)>;  // to the store's writer thread

    // `onSummary`: the cluster's seek summary, whenever a newer one is known (any thread).
    // `toWriter`: runs a job on the store's writer thread (the purge after an outage).
    ClusterSeeks(bus::RedisAddress redis, std::string node, std::int64_t ttlMs, Summary onSummary,
                 Post toWriter);
    ~ClusterSeeks();  // stop()
    ClusterSeeks(const ClusterSeeks&) = delete;
    ClusterSeeks& operator=(const ClusterSeeks&) = delete;

    static constexpr const char* kSummaryChannel = "rainet:seeks";
    static std::string channel(const std::string& node) { return "rainet:sn:" + node; }
    // The kind of a seek in Redis: what two seeks must share to be paired.
    static std::string kindOf(const SeekQueue::Seek& s);

    // Subscribes (waits up to a second) and starts the round (sweep; purge after an outage).
    void start();
    void stop();

    // A seek waiting in Redis that a new seek was paired with.
    struct Waiting {
        std::int64_t player = 0;
        std::string node, instance, kind;
        std::uint64_t token = 0;  // its connection, on its node
        std::string seq;          // its place in the queue (putBack keeps it)
    };
    // --- the store's writer thread ---
    // The partner taken off the queue, nullopt if `s` (of connection `c`) now waits; an error
    // when Redis does not answer (the seek is then not placed).
    [[nodiscard]] Result<std::optional<Waiting>> place(const std::shared_ptr<Client>& c,
                                                       const SeekQueue::Seek& s);
    // The pairing could not start its game: the partner's seek goes back with its place.
    void putBack(const Waiting& w);
    // Sends `text` (its `matched`) to the waiting seek's connection, through its node.
    void notify(const Waiting& w, const std::string& text);
    // The seek of `player` wherever it waits (unseek) or, with player 0, the seek of connection
    // `c` if it still waits (the connection closed or changed identity).
    void withdraw(const Client* c, std::int64_t player);

    // A round (the thread's; tests may call it): the purge if one is due, then the sweep, which
    // runs only if the version moved since the summary this node applied last, a node with a
    // seek died, or FullReadSchedule::kFullEvery rounds passed (else the round reads the version
    // and the liveness of the nodes with seeks: O(nodes), not O(seeks)).
    void round();
    // Rounds whose sweep ran (for tests).
    std::uint64_t fullSweeps() const { return fullSweeps_; }

  private:
    struct Local {
        std::weak_ptr<Client> client;
        const Client* key = nullptr;
        std::int64_t player = 0;
    };
    // `head`: Lua run between the shared prelude and `script` (the sweep's arguments).
    std::optional<bus::Reply> eval(const char* script, std::vector<std::string> args,
                                   const char* head = "");
    void applySummary(const std::string& text);
    void onMessage(const std::string& channel, const std::string& payload);
    void onLink(bool up);
    void deliver(std::uint64_t token, const std::string& text);
    void purge();  // writer thread: this node's entries no connection here waits on
    void run();

    const std::string node_, instance_;
    const std::int64_t ttl_;
    Summary onSummary_;
    Post toWriter_;
    bus::RedisLink link_;
    std::unique_ptr<bus::Subscriber> sub_;
    WorkerThread worker_;

    std::mutex mu_;
    std::uint64_t nextToken_ = 0;
    std::unordered_map<std::uint64_t, Local> byToken_;  // the seeks of this node's clients
    std::unordered_map<const Client*, std::uint64_t> byClient_;
    long long version_ = 0;      // of the last summary applied, if known_: not after a lost link
    bool known_ = false;         // (Redis may have restarted and counted again from 0)
    FullReadSchedule schedule_;  // of the sweep
    std::atomic<std::uint64_t> fullSweeps_{0};
    std::atomic<bool> purgeDue_{true};  // at start and after an outage
};

}  // namespace rainet::server
