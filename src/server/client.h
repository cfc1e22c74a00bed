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
    // Two messages in this order, handed over at once (an action's ack and its event to the
    // player who acted: one hop to the connection's thread instead of two).
    virtual void send(std::shared_ptr<const std::string> first,
                      std::shared_ptr<const std::string> second) {
        send(std::move(first));
        send(std::move(second));
    }
    void send(std::string message) {
        send(std::make_shared<const std::string>(std::move(message)));
    }
    // The game it follows moved to another node of the cluster (docs/protocol.md, close 1012):
    // the connection is closed so that the client reconnects and resumes.
    virtual void closeToReconnect() = 0;
};

}  // namespace rainet::server
