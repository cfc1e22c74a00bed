#pragma once
// What a game room knows of a connection: it can be sent messages. Implemented by the WebSocket
// session; sending is thread-safe and never blocks (the session queues, bounded).
#include <memory>
#include <string>

namespace rainet::server {

class Client {
  public:
    virtual ~Client() = default;
    virtual void send(std::shared_ptr<const std::string> message) = 0;
    void send(std::string message) {
        send(std::make_shared<const std::string>(std::move(message)));
    }
};

}  // namespace rainet::server
