#pragma once
// What a game room knows of a connection: it can be sent messages. Implemented by the WebSocket
// session; sending is thread-safe and never blocks (the session queues, bounded).
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rainet::server {

class Client;

// Connections that one message can reach together: on a game's owner, the connections of one
// other node of the cluster (server/forwarding.cpp), for which one Redis message carrying the
// list of their serials replaces one message each (docs/scaling.md, "Forwarding").
class ClientGroup {
  public:
    virtual ~ClientGroup() = default;
    // `text` to each of `members` (each of whose group() is this), once.
    virtual void send(const std::vector<Client*>& members,
                      const std::shared_ptr<const std::string>& text) = 0;
};

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
    // The group a broadcast may reach it through (Broadcast); null: sent to alone.
    virtual ClientGroup* group() { return nullptr; }
};

// A broadcast: the one `text` to each client added (distinct), once each. A client without a
// group is sent to at once; those of one group are handed to it together by flush() (or the
// destructor). Nothing is allocated unless a client has a group (a cluster), so a single node's
// broadcast costs no more than its sends.
class Broadcast {
  public:
    explicit Broadcast(std::shared_ptr<const std::string> text) : text_(std::move(text)) {}
    Broadcast(const Broadcast&) = delete;
    Broadcast& operator=(const Broadcast&) = delete;
    ~Broadcast() { flush(); }
    void add(const std::shared_ptr<Client>& c);
    void flush();

  private:
    std::shared_ptr<const std::string> text_;
    // Few groups per broadcast (one per other node of the cluster): a flat list beats a map.
    std::vector<std::pair<ClientGroup*, std::vector<Client*>>> groups_;
};

}  // namespace rainet::server
