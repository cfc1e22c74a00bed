#pragma once
// What concerns a player, across the nodes of a cluster (docs/scaling.md, "Notifications across
// nodes"): a message for a player's connections (a notification, the unread count) is sent to
// those on this node and published on `rainet:notify`; every other node hands it to the player's
// connections it holds (server/player_links.h). Envelope: `<origin node> <player id>\n<text>`.
// Publishing is bus::Publisher's (its own thread, bounded in bytes; a message refused or lost
// while Redis is away is not retried: the notification is stored, and the client reads its inbox
// when it reconnects). The handler runs on the subscriber's thread and only queues sends.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "bus/publisher.h"
#include "bus/subscriber.h"

namespace rainet::server {

class ClusterNotices {
  public:
    static constexpr const char* kChannel = "rainet:notify";
    static constexpr std::size_t kMaxQueuedBytes = 4 << 20;
    // `deliver(player, text)`: to the player's connections on this node.
    using Deliver = std::function<void(std::int64_t, std::string)>;

    ClusterNotices(bus::RedisAddress redis, std::string node, Deliver deliver);
    ~ClusterNotices();
    ClusterNotices(const ClusterNotices&) = delete;
    ClusterNotices& operator=(const ClusterNotices&) = delete;

    void start();  // subscribes (waits up to a second for Redis to confirm)
    void stop();
    // `text` for `player`'s connections on the other nodes (this node's are sent by the caller).
    void publish(std::int64_t player, const std::string& text);

  private:
    void onMessage(const std::string& payload);
    const std::string node_;
    const Deliver deliver_;
    bus::Publisher publisher_;
    std::unique_ptr<bus::Subscriber> sub_;
};

}  // namespace rainet::server
