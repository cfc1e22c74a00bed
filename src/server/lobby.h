#pragma once
// The lobby: the open games anyone may join (oldest first) and a summary of the seeks waiting,
// rendered as one `lobby` message and sent to every subscribed connection whenever it changes.
// Thread-safe. In a cluster each node's Lobby mirrors the cluster's: open games through
// server/cluster_lobby.h, the seek summary through server/cluster_seeks.h.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "protocol/objects.h"
#include "server/client.h"
#include "store/store.h"

namespace rainet::server {

class Lobby {
  public:
    // At most this many open games are listed (the oldest).
    static constexpr std::size_t kListed = 100;

    // The entry of open game `g` created by `creator`.
    [[nodiscard]] static protocol::LobbyEntry entryOf(const store::GameRow& g,
                                                      const store::PlayerRow& creator);
    // Lists game `id` (appended: the newest; in place if already listed) or, with nullopt,
    // removes it.
    void set(const std::string& id, std::optional<protocol::LobbyEntry> entry);
    // Replaces every open game (oldest first): a cluster's node mirroring the cluster's list
    // (server/cluster_lobby.h). Subscribers are told only if the lobby changed.
    void setGames(std::vector<protocol::LobbyEntry> games);
    // Replaces the summary of the seeks waiting (subscribers are told only if it changed).
    void setSeeks(std::vector<protocol::SeekEntry> summary);
    // `c` is sent the lobby now and on every change, until unsubscribed or gone.
    void subscribe(const std::shared_ptr<Client>& c);
    void unsubscribe(const Client* c);
    // The `lobby` message as it stands.
    [[nodiscard]] std::string message();

  private:
    std::string messageLocked() const;  // caller holds mu_
    void broadcastLocked();             // caller holds mu_

    std::mutex mu_;
    std::vector<protocol::LobbyEntry> games_;  // oldest first
    std::vector<std::weak_ptr<Client>> subs_;
    std::vector<protocol::SeekEntry> seeks_;
};

}  // namespace rainet::server
