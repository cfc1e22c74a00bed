#pragma once
// Forwarding between the nodes of a cluster (docs/scaling.md): a client
// connected to node N whose game is owned by node O plays it through Redis. Every node
// subscribes to its own inbox channel (`rainet:n:<id>`) and plays both parts:
//  - N (the client's node): a session whose game is held elsewhere forwards that game's messages
//    (the client's text, validated by N's parser) with its player to O's inbox; what O sends the
//    connection comes back to N's inbox and is handed to the session by its serial.
//  - O (the owner): a RemoteClient stands for each such connection: the room talks to it as to a
//    local one (server/client.h), so O renders exactly what it renders for a local connection of
//    that player, and nothing hidden reaches a viewer not entitled to it.
// Envelopes (one Redis message each; the last part is the text, which may hold newlines):
//   N -> O   forward <N> <serial>\n<player json>\n<client text>
//   N -> O   gone <N> <serial>              the connection closed (or dropped its identity)
//   O -> N   deliver <serial>,...\n<text>   a message for the connections listed (one, or all
//                                          those of N a room broadcast the same text to)
//   O -> N   close <serial>                 the room moved or failed: close 1012, reconnect
// Publishing runs on one thread (bus::Publisher, bounded in bytes), never on a network thread or
// a room's strand; the forwards and gones a node receives are handled in order on one worker
// thread (opening a game reads the store), which also runs the liveness round every ttl/3:
// `rainet:alive:<id>` set with the lease's TTL; the RemoteClients of nodes whose key is gone are
// dropped; the sessions forwarding to an owner that is gone or no longer holds the game's lease
// are closed (1012: the client reconnects and resumes by version, as after a restart).
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "bus/publisher.h"
#include "bus/redis_link.h"
#include "bus/subscriber.h"
#include "server/client.h"
#include "server/worker_thread.h"
#include "store/store.h"

namespace rainet::server {

class Hub;
class RemoteClient;
class RemoteNode;

class Forwarder {
  public:
    // Bytes queued for publishing at most: past it a remote connection's message is refused and
    // that connection closed to reconnect (a forwarding session likewise).
    static constexpr std::size_t kMaxQueuedBytes = 8 << 20;

    Forwarder(Hub& hub, bus::RedisAddress redis, std::string node, std::int64_t ttlMs);
    ~Forwarder();  // stop()
    Forwarder(const Forwarder&) = delete;
    Forwarder& operator=(const Forwarder&) = delete;

    static std::string inbox(const std::string& node) { return "rainet:n:" + node; }
    static std::string aliveKey(const std::string& node) { return "rainet:alive:" + node; }

    // Subscribes to the inbox (waits up to a second for Redis to confirm) and starts the worker,
    // whose first round runs at once.
    void start();
    void stop();
    const std::string& node() const { return node_; }

    // --- N: the sessions of this node (called on their strands) ---
    std::uint64_t newSerial() { return ++serials_; }
    // Forwards `text` (a message for `game`) to `owner` for the session `serial` of `player`;
    // deliveries for the serial go to `session` from now on. `leaving`: the session stops
    // following the game. False if the publisher's queue is full or the inbox is not
    // subscribed (Redis away): the session closes.
    bool forward(std::uint64_t serial, const std::weak_ptr<Client>& session,
                 const std::string& game, const std::string& owner, const store::PlayerRow& player,
                 const std::string& text, bool leaving);
    // The session closed or dropped its identity: every owner it forwarded to is told.
    void gone(std::uint64_t serial);

    // A round (the worker's; tests may call it).
    void round();

  private:
    void onMessage(const std::string& payload);  // the subscriber's thread
    void onLink(bool up);                        // the subscriber's thread
    void post(std::function<void()> job);        // to the worker
    void work();
    // --- O: on the worker thread ---
    void onForward(const std::string& node, std::uint64_t serial, const std::string& body);
    void onGone(const std::string& node, std::uint64_t serial);
    // `notify`: each is told to close to reconnect (its node may be alive after all), else it
    // is forgotten silently (its session is gone, or Redis is).
    void dropRemotes(const std::function<bool(const RemoteClient&)>& which, bool notify = false);
    std::shared_ptr<RemoteNode> remoteNode(const std::string& node);  // its group, made if needed
    // --- N ---
    void closeSessions(
        const std::function<bool(const std::string& game, const std::string& owner)>& which);
    // The session of this node with that serial; null if it closed meanwhile.
    std::shared_ptr<Client> sessionOf(std::uint64_t serial);

    Hub& hub_;
    const std::string node_;
    const std::int64_t ttl_;
    bus::Publisher publisher_;
    bus::RedisLink link_;  // the worker's commands (the liveness keys)
    std::unique_ptr<bus::Subscriber> inbox_;
    std::atomic<bool> linkUp_{false};  // the inbox is subscribed (onLink)

    WorkerThread worker_;                     // runs work()
    std::deque<std::function<void()>> jobs_;  // under worker_.mutex()

    // N: the sessions forwarding, by serial: the session and the games forwarded (to whom).
    struct Forwarding {
        std::weak_ptr<Client> session;
        std::unordered_map<std::string, std::string> games;  // game -> owner node
    };
    std::mutex sessionsMu_;
    std::unordered_map<std::uint64_t, Forwarding> sessions_;
    // From a random start: a node restarted under the same id must not reuse the serials its
    // previous process had, which the owner may still hold RemoteClients (and subscriptions) for
    // until the node's liveness key expires: a new connection would get another's messages.
    std::atomic<std::uint64_t> serials_;

    // Nodes whose liveness key was missing, since when (ms of the steady clock; the worker's
    // only). A node is judged dead once its key has been missing for half a TTL: a Redis restart
    // loses every key at once, and each live node sets its own again within its next round
    // (ttl/3), so a single miss is not a death.
    std::unordered_map<std::string, std::int64_t> missingSince_;

    // O: the remote connections, by "<node> <serial>" (the worker's only).
    std::unordered_map<std::string, std::shared_ptr<RemoteClient>> remotes_;
    // Their groups, by node (the worker's only): one per node while it has connections here.
    std::unordered_map<std::string, std::weak_ptr<RemoteNode>> remoteNodes_;
};

}  // namespace rainet::server
