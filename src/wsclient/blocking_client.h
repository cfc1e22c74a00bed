#pragma once
// The WebSocket client (client.h) for code that waits instead of reacting: it runs on a thread of
// its own, records every text frame received, and lets the caller take them in order with a
// timeout. The server tests talk to the server through it.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wsclient/client.h"

namespace rainet::wsclient {

class BlockingClient {
  public:
    // Connects and waits for the handshake; isOpen() tells whether it succeeded (the reason is
    // closed().why). Tests flood on purpose, so the write queue has no bound here.
    explicit BlockingClient(Target target);
    ~BlockingClient();  // closes
    BlockingClient(const BlockingClient&) = delete;
    BlockingClient& operator=(const BlockingClient&) = delete;

    void send(std::string text);  // dropped once closed
    // The next message not yet taken, or nullopt after the timeout or once closed with nothing
    // left to take.
    std::optional<std::string> next(std::chrono::milliseconds timeout);
    std::vector<std::string> received() const;  // every message so far, in order
    bool isOpen() const;
    // Waits up to `timeout` for the connection to end; what ended it (or nullopt).
    std::optional<Closed> waitClosed(std::chrono::milliseconds timeout);
    void close();  // and waits for the thread

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace rainet::wsclient
