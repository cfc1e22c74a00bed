#pragma once
// A small client WebSocket connection for `rainet play`: connect (resolve, TCP, handshake), one
// read loop handing each text frame to a callback, and a bounded write queue (Beast allows one
// write in flight per stream). Single-threaded: every callback runs on the io_context's thread. It
// does not reconnect by itself: the owner makes a new one when onClose fires.
#include <utility>  // before Boost.Asio under C++20

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

namespace rainet::cli {

class WsClient {
  public:
    struct Handlers {
        std::function<void()> onOpen;
        std::function<void(const std::string&)> onMessage;
        std::function<void(const std::string& why)> onClose;  // once, unless close() was called
    };
    static constexpr std::size_t kMaxQueue = 256;  // frames waiting to be written

    WsClient(boost::asio::io_context& io, std::string host, int port, std::string path,
             Handlers handlers);
    ~WsClient();  // closes
    WsClient(const WsClient&) = delete;
    WsClient& operator=(const WsClient&) = delete;

    void connect();
    // Queues a text frame; false (and nothing queued) when not open or the queue is full.
    bool send(std::string text);
    // Closes without calling onClose.
    void close();
    bool isOpen() const;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace rainet::cli
