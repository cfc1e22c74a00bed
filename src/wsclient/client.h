#pragma once
// The one WebSocket client of the project (the terminal client, `rainet bot`, `rainet loadtest`
// and the server tests all use it): connect (resolve, TCP, handshake with extra headers), one read
// loop handing each text frame to a callback, and a bounded write queue (Beast allows one write in
// flight per stream). Single-threaded: every callback runs on the io_context's thread. It does not
// reconnect by itself: the owner makes a new one when onClose fires. Beast stays in client.cpp.
#include <utility>  // before Boost.Asio under C++20

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

namespace rainet::wsclient {

struct Target {
    std::string host;  // a name or a numeric address (then no resolver is involved)
    int port = 0;
    std::string path = "/ws";
    std::vector<std::pair<std::string, std::string>> headers;  // added to the upgrade request
    // Pings while idle (20 s idle timeout), so that a server gone without closing is noticed.
    // Off where the traffic itself is measured or the server's idle handling is under test.
    bool keepAlive = true;
    std::size_t maxQueue = 256;  // frames waiting to be written
    // How long the TCP connect may take, and then the WebSocket handshake, each.
    std::chrono::milliseconds connectTimeout{5000};
};

// Why a connection ended.
struct Closed {
    std::string why;       // for people: "cannot connect: ...", "closed by the server (...)"
    int code = 0;          // the close frame's code, when the server sent one
    bool wasOpen = false;  // false: it never got through the handshake
};

class Client {
  public:
    struct Handlers {
        std::function<void()> onOpen;
        std::function<void(const std::string&)> onMessage;
        std::function<void(const Closed&)> onClose;  // once, unless close() was called
    };
    Client(boost::asio::io_context& io, Target target, Handlers handlers);
    ~Client();  // closes
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    void connect();
    // Queues a text frame; false (and nothing queued) when not open or maxQueue are waiting.
    [[nodiscard]] bool send(std::string text);
    // Closes without calling onClose.
    void close();

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace rainet::wsclient
