#include "server/metrics.h"

namespace rainet::server {

std::string Metrics::render() const {
    std::string out;
    auto metric = [&](const char* name, const char* type, const char* help) {
        out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    };
    auto value = [&](const std::string& series, std::int64_t v) {
        out += series + " " + std::to_string(v) + "\n";
    };
    // The single-valued series, in the order they are listed.
    struct Single {
        const char* name;
        const char* type;
        const char* help;
        std::int64_t value;
    };
    const Single singles[] = {
        {"rainet_connections", "gauge", "Open WebSocket connections.", connections},
        {"rainet_connections_total", "counter", "WebSocket connections accepted.",
         connectionsTotal},
        {"rainet_messages_in_total", "counter", "Client messages received.", messagesIn},
        {"rainet_messages_out_total", "counter", "Server messages sent.", messagesOut},
        {"rainet_actions_total", "counter", "Game actions applied (rate() gives actions/s).",
         actions},
        {"rainet_http_requests_total", "counter", "HTTP requests served.", httpRequests},
        {"rainet_connections_refused_total", "counter",
         "WebSocket upgrades refused (503) over a connection cap.", connectionsRefused},
        {"rainet_accept_backoffs_total", "counter",
         "Failures to accept a connection (e.g. out of descriptors), each waited out.",
         acceptBackoffs},
        {"rainet_games_failed_total", "counter",
         "Games dropped from memory after an exception (reloaded from the store when opened).",
         gamesFailed},
        {"rainet_connections_failed_total", "counter",
         "WebSocket connections closed after an exception.", connectionsFailed},
        {"rainet_http_requests_failed_total", "counter",
         "HTTP requests answered 500 after an exception.", requestsFailed},
        {"rainet_bots", "gauge",
         "The computer's players held, one per level per bot thread (each with its search "
         "memory).",
         botsHeld},
        {"rainet_games_expired_total", "counter",
         "Games ended because nobody attended them (docs/protocol.md, expiry).", gamesExpired},
        {"rainet_create_ids", "gauge", "Request ids of `create` remembered to answer repeats.",
         createIdsHeld},
        {"rainet_notifications_total", "counter",
         "Notifications stored and pushed to their recipients (docs/protocol.md).", notifications},
        {"rainet_lease_takeovers_total", "counter",
         "Games this cluster node took over from another (docs/scaling.md).", leaseTakeovers},
        {"rainet_leases_lost_total", "counter",
         "Game leases this cluster node lost (its rooms evicted, clients closed 1012).",
         leasesLost},
        {"rainet_forwarded_out_total", "counter",
         "Client messages this node forwarded to the node owning their game.", forwardedOut},
        {"rainet_forwarded_in_total", "counter",
         "Client messages of other nodes' connections received by this node as the owner.",
         forwardedIn},
        {"rainet_delivered_out_total", "counter",
         "Messages this node published for connections of other nodes (one per connection).",
         deliveredOut},
        {"rainet_delivery_publishes_total", "counter",
         "Redis messages this node published to carry them (one per node for a text broadcast "
         "to several of its connections).",
         deliveryPublishes},
        {"rainet_delivered_in_total", "counter",
         "Messages received from owner nodes for this node's connections.", deliveredIn},
        {"rainet_forward_dropped_total", "counter",
         "Forwarded messages refused by the full publishing queue (the connection was closed "
         "to reconnect).",
         forwardDropped},
    };
    for (const Single& m : singles) {
        metric(m.name, m.type, m.help);
        value(m.name, m.value);
    }
    metric("rainet_games", "gauge", "Games held in memory, by state.");
    for (int i = 0; i < kGameStatuses; ++i)
        value(std::string("rainet_games{state=\"") + toString(static_cast<GameStatus>(i)) + "\"}",
              gamesLoaded[i]);
    metric("rainet_errors_total", "counter", "Error messages sent to clients, by code.");
    for (int i = 0; i < protocol::kErrorCodeCount; ++i)
        value(std::string("rainet_errors_total{code=\"") +
                  protocol::codeName(static_cast<protocol::ErrorCode>(i)) + "\"}",
              errors[i]);
    metric("rainet_slow_consumers_closed_total", "counter",
           "Connections closed because their write queue was over its bound (1 MiB).");
    value("rainet_slow_consumers_closed_total", slowConsumersClosed);
    publishLatency.render("rainet_publish_seconds",
                          "Cluster messages from their hand-over to the publisher to Redis's "
                          "answer (queue wait plus round trip).",
                          out);
    return out;
}

}  // namespace rainet::server
