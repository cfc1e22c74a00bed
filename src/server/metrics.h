#pragma once
// Counters and gauges exported at GET /metrics in the Prometheus text format.
#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "core/game_facts.h"
#include "protocol/messages.h"
#include "server/latency_histogram.h"

namespace rainet::server {

struct Metrics {
    std::atomic<std::int64_t> connections{0};       // open WebSocket connections
    std::atomic<std::int64_t> connectionsTotal{0};  // accepted since start
    std::atomic<std::int64_t> messagesIn{0};        // client frames received
    std::atomic<std::int64_t> messagesOut{0};       // server frames queued
    std::atomic<std::int64_t> actions{0};           // actions applied
    std::atomic<std::int64_t> httpRequests{0};
    std::array<std::atomic<std::int64_t>, kGameStatuses> gamesLoaded{};  // rooms in memory by state
    std::array<std::atomic<std::int64_t>, protocol::kErrorCodeCount> errors{};
    std::atomic<std::int64_t> slowConsumersClosed{0};
    std::atomic<std::int64_t> connectionsRefused{0};  // upgrades over a connection cap (503)
    std::atomic<std::int64_t> acceptBackoffs{0};      // accept failures waited out
    // Exceptions caught: each failed one game or one connection (or one HTTP request).
    std::atomic<std::int64_t> gamesFailed{0}, connectionsFailed{0}, requestsFailed{0};
    std::atomic<std::int64_t> botsHeld{0};       // the computer's players (server/bot_workers.h)
    std::atomic<std::int64_t> gamesExpired{0};   // games ended by expiry (server/expiry.h)
    std::atomic<std::int64_t> createIdsHeld{0};  // create request ids remembered (Hub::create)
    std::atomic<std::int64_t> notifications{0};  // notifications stored (Hub::notify)
    // A cluster's node (server/cluster_node.h): games taken over from another node (a lease
    // whose epoch rose), leases lost (their rooms evicted).
    std::atomic<std::int64_t> leaseTakeovers{0}, leasesLost{0};
    // Forwarding (server/forwarding.h): client messages forwarded to the owner of their game
    // (out) and received from other nodes as the owner (in); messages for remote connections
    // published (deliveredOut) and received for this node's connections (deliveredIn); messages
    // refused by the full publishing queue (each closed its connection to reconnect); the Redis
    // messages that carried the deliveredOut (one per node and text of a broadcast).
    std::atomic<std::int64_t> forwardedOut{0}, forwardedIn{0}, deliveredOut{0}, deliveredIn{0},
        forwardDropped{0}, deliveryPublishes{0};
    // From a message handed to the publisher (an event for a remote connection, a forwarded
    // client message) to Redis's answer to its PUBLISH.
    LatencyHistogram publishLatency;

    void error(protocol::ErrorCode c) { ++errors[static_cast<int>(c)]; }
    std::string render() const;
};

}  // namespace rainet::server
