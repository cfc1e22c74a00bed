#include "server/metrics.h"

namespace rainet::server {

const char* stateName(GameState s) {
    static constexpr const char* kNames[kGameStates] = {"open", "setup", "playing", "finished",
                                                        "aborted"};
    return kNames[static_cast<int>(s)];
}

std::string Metrics::render() const {
    std::string out;
    auto metric = [&](const char* name, const char* type, const char* help) {
        out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    };
    auto value = [&](const std::string& series, std::int64_t v) {
        out += series + " " + std::to_string(v) + "\n";
    };
    metric("rainet_connections", "gauge", "Open WebSocket connections.");
    value("rainet_connections", connections);
    metric("rainet_connections_total", "counter", "WebSocket connections accepted.");
    value("rainet_connections_total", connectionsTotal);
    metric("rainet_messages_in_total", "counter", "Client messages received.");
    value("rainet_messages_in_total", messagesIn);
    metric("rainet_messages_out_total", "counter", "Server messages sent.");
    value("rainet_messages_out_total", messagesOut);
    metric("rainet_actions_total", "counter", "Game actions applied (rate() gives actions/s).");
    value("rainet_actions_total", actions);
    metric("rainet_http_requests_total", "counter", "HTTP requests served.");
    value("rainet_http_requests_total", httpRequests);
    metric("rainet_games", "gauge", "Games held in memory, by state.");
    for (int i = 0; i < kGameStates; ++i)
        value(std::string("rainet_games{state=\"") + stateName(static_cast<GameState>(i)) + "\"}",
              gamesLoaded[i]);
    metric("rainet_errors_total", "counter", "Error messages sent to clients, by code.");
    for (int i = 0; i < protocol::kErrorCodeCount; ++i)
        value(std::string("rainet_errors_total{code=\"") +
                  protocol::codeName(static_cast<protocol::ErrorCode>(i)) + "\"}",
              errors[i]);
    metric("rainet_slow_consumers_closed_total", "counter",
           "Connections closed because their write queue was full.");
    value("rainet_slow_consumers_closed_total", slowConsumersClosed);
    return out;
}

}  // namespace rainet::server
