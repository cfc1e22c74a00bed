// The WebSocket client's own timeouts (wsclient/client.h), against listeners that never answer: a
// connect whose SYN is never taken, and a TCP connection whose upgrade request is never answered.
// Both must end in onClose within the configured timeout, not hang.
#include <gtest/gtest.h>

#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "wsclient/client.h"

namespace rainet::wsclient {
namespace {

using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Connects a client with `timeout` to `port` and runs until it closes (at most 10 s): how it ended,
// and after how long.
std::pair<std::optional<Closed>, Clock::duration> connectUntilClosed(
    boost::asio::io_context& io, int port, std::chrono::milliseconds timeout) {
    Target t;
    t.host = "127.0.0.1";
    t.port = port;
    t.connectTimeout = timeout;
    std::optional<Closed> closed;
    bool opened = false;
    const auto start = Clock::now();
    Clock::time_point end{};
    Client client(io, t,
                  {.onOpen = [&] { opened = true; },
                   .onMessage = {},
                   .onClose =
                       [&](const Closed& c) {
                           closed = c;
                           end = Clock::now();
                           io.stop();  // the listener's own sockets may still have work queued
                       }});
    client.connect();
    io.run_for(std::chrono::seconds(10));
    EXPECT_FALSE(opened);
    return {closed, end - start};
}

TEST(WsClient, AConnectThatIsNeverTakenTimesOut) {
    boost::asio::io_context io;
    // A listener whose accept queue is full: Linux drops further SYNs, so a connect stays pending.
    tcp::acceptor listener(io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0), true);
    listener.listen(0);
    const int port = listener.local_endpoint().port();
    std::vector<std::unique_ptr<tcp::socket>> fillers;
    for (int i = 0; i < 4; ++i) {
        auto s = std::make_unique<tcp::socket>(io);
        s->async_connect(listener.local_endpoint(), [](boost::system::error_code) {});
        fillers.push_back(std::move(s));
    }
    io.run_for(std::chrono::milliseconds(200));  // the queue fills; later connects hang
    io.restart();
    const auto [closed, took] = connectUntilClosed(io, port, std::chrono::milliseconds(300));
    ASSERT_TRUE(closed.has_value()) << "the connect never ended";
    EXPECT_EQ(closed->why.rfind("cannot connect:", 0), 0u) << closed->why;
    EXPECT_FALSE(closed->wasOpen);
    EXPECT_EQ(closed->code, 0);
    EXPECT_GE(took, std::chrono::milliseconds(300));
    EXPECT_LT(took, std::chrono::seconds(5));  // the timeout given, not the default's 5 s
}

TEST(WsClient, AnUpgradeThatIsNeverAnsweredTimesOut) {
    boost::asio::io_context io;
    // The kernel completes the TCP handshake for a listener that never accepts: the client
    // connects, sends its upgrade request, and waits for an answer that never comes.
    tcp::acceptor listener(io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0), true);
    listener.listen(16);
    const auto [closed, took] =
        connectUntilClosed(io, listener.local_endpoint().port(), std::chrono::milliseconds(300));
    ASSERT_TRUE(closed.has_value()) << "the handshake never ended";
    EXPECT_EQ(closed->why.rfind("handshake failed:", 0), 0u) << closed->why;
    EXPECT_FALSE(closed->wasOpen);
    EXPECT_GE(took, std::chrono::milliseconds(300));
    EXPECT_LT(took, std::chrono::seconds(5));
}

}  // namespace
}  // namespace rainet::wsclient
