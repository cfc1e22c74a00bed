#pragma once
// The network side of `rainet serve`, modelled on Beast's advanced server example: the listener
// (listener.h) accepts, an HTTP session (http_session.cpp: static files, archive API, health,
// metrics) reads requests and upgrades /ws to a WebSocket session (ws_session.cpp: the protocol
// of docs/protocol.md). Every session lives on its own strand and keeps itself alive with
// shared_from_this(); each WebSocket session has one bounded write queue. This is what they share.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/admission.h"
#include "server/analysis.h"
#include "server/config.h"
#include "server/hub.h"

namespace rainet::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

class WsSession;
class Forwarder;

// What the network side shares: the sessions alive (for shutdown), the connection caps and the
// trusted proxies.
struct Registry {
    explicit Registry(const Config& c) : admission(c.maxConnections, c.maxPerAddress) {
        for (const auto& t : c.trustProxy) trusted.push_back(*Cidr::parse(t));  // checked by serve
    }
    std::mutex mu;
    std::unordered_map<WsSession*, std::weak_ptr<WsSession>> sessions;
    Admission admission;
    std::vector<Cidr> trusted;
    Analyses* analyses = nullptr;  // set by serve() for the life of the io_context's handlers
    // A cluster's node: its forwarding (server/forwarding.h), set by serve() likewise.
    Forwarder* forwarder = nullptr;
};

// What a listener serves: the site (files, API, WebSocket), or /metrics alone (--metrics-listen).
enum class HttpRole { Public, Metrics };
// Starts an HTTP session on an accepted socket.
void startHttpSession(tcp::socket&& socket, Hub& hub, Registry& registry,
                      HttpRole role = HttpRole::Public);
// Starts a WebSocket session on the socket of an admitted upgrade request `req`.
void startWsSession(tcp::socket&& socket, Hub& hub, Registry& registry, std::string address,
                    std::unique_ptr<Admission::Ticket> ticket,
                    http::request<http::string_body> req);
// Shutdown: every WebSocket session is closed (going away) after the message being written.
void closeWsSessions(Registry& registry);

}  // namespace rainet::server
