#pragma once
// The lobby's open games across the nodes of a cluster (docs/scaling.md, "The lobby
// across nodes"): with --redis each open game's entry is also kept in Redis (the hash
// `rainet:lobby:games`, game id -> entry, written by the game's owner when it lists or unlists
// it), every change is published on `rainet:lobby`, and every node mirrors the hash into its own
// Lobby (server/lobby.h), so that a game created on node A is listed in node B's lobby. Joining
// it from B goes to its owner through forwarding (server/forwarding.h), like any message for a
// game held elsewhere. Each change also bumps a version (`rainet:lobby:v`, INCR in the same
// script as the change). Each round (every ttl/3) a node reads the version and, only if it moved
// since its last full read (or every FullReadSchedule::kFullEvery rounds all the same, against a
// change whose version was lost with a restarted Redis), the whole hash, replacing its copy: a
// change published while its link was down heals there, and a round with no change is one GET.
// Writes are queued to this unit's thread (never a Redis round trip on a network thread or a
// room's strand), at most kMaxQueued; past it a change is dropped and the next round's resync
// corrects the node's own view (the owner's next change of that game rewrites Redis).
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bus/redis_link.h"
#include "bus/subscriber.h"
#include "protocol/objects.h"
#include "server/full_read_schedule.h"
#include "server/lobby.h"
#include "server/worker_thread.h"

namespace rainet::server {

class ClusterLobby {
  public:
    static constexpr std::size_t kMaxQueued = 4096;
    static constexpr const char* kChannel = "rainet:lobby";
    static constexpr const char* kGames = "rainet:lobby:games";
    static constexpr const char* kVersion = "rainet:lobby:v";

    ClusterLobby(bus::RedisAddress redis, std::int64_t ttlMs, Lobby& lobby);
    ~ClusterLobby();  // stop()
    ClusterLobby(const ClusterLobby&) = delete;
    ClusterLobby& operator=(const ClusterLobby&) = delete;

    void start();  // subscribes (waits up to a second), then the rounds; the first at once
    void stop();

    // Game `id` listed (entry) or unlisted (nullopt) by this node, its owner: queued for Redis.
    void set(const std::string& id, const std::optional<protocol::LobbyEntry>& entry,
             std::int64_t created);
    // A round (the thread's; tests may call it): the version read, and the hash read whole and
    // mirrored into the lobby if it moved or a full read is due.
    void round();
    // Rounds that read the hash whole (for tests).
    std::uint64_t fullReads() const { return fullReads_; }

    // An entry as stored in Redis, and back (nullopt if garbled).
    static std::string encode(const protocol::LobbyEntry& e, std::int64_t created);
    static std::optional<std::pair<protocol::LobbyEntry, std::int64_t>> decode(
        const std::string& text);

  private:
    void onMessage(const std::string& payload);
    void run();

    const std::int64_t ttl_;
    Lobby& lobby_;
    bus::RedisLink link_;
    std::unique_ptr<bus::Subscriber> sub_;
    WorkerThread worker_;
    std::deque<std::function<void()>> jobs_;  // under worker_.mutex()
    // The round's thread only (fullReads_ read by tests): the version of the last full read
    // (none before it), and the rounds since.
    std::optional<std::string> seen_;
    FullReadSchedule schedule_;
    std::atomic<std::uint64_t> fullReads_{0};
};

}  // namespace rainet::server
