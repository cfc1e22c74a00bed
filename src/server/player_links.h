#pragma once
// The open connections of each stored player on this node, so that what concerns a player (a
// notification, a challenge) reaches every one of its connections wherever it came from. A
// connection is added when its identity is known and removed when it leaves or changes identity;
// the connection caps (server/admission.h) bound what this holds. Thread-safe.
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "server/client.h"

namespace rainet::server {

class PlayerLinks {
  public:
    void add(std::int64_t player, const std::shared_ptr<Client>& c) {
        if (!player) return;
        std::lock_guard lock(mu_);
        auto& list = links_[player];
        for (const auto& w : list)
            if (w.lock() == c) return;
        list.push_back(c);
    }
    void remove(std::int64_t player, const Client* c) {
        std::lock_guard lock(mu_);
        auto it = links_.find(player);
        if (it == links_.end()) return;
        auto& list = it->second;
        std::erase_if(list, [c](const std::weak_ptr<Client>& w) {
            auto s = w.lock();
            return !s || s.get() == c;
        });
        if (list.empty()) links_.erase(it);
    }
    // Sends `text` to each connection of `player` on this node; how many.
    int send(std::int64_t player, const std::shared_ptr<const std::string>& text) {
        std::vector<std::shared_ptr<Client>> to;
        {
            std::lock_guard lock(mu_);
            auto it = links_.find(player);
            if (it == links_.end()) return 0;
            for (const auto& w : it->second)
                if (auto s = w.lock()) to.push_back(std::move(s));
        }
        for (const auto& c : to) c->send(text);  // outside the lock: send() takes the session's
        return static_cast<int>(to.size());
    }
    // Whether the player has a connection on this node.
    bool online(std::int64_t player) {
        std::lock_guard lock(mu_);
        return links_.count(player) > 0;
    }

  private:
    std::mutex mu_;
    std::unordered_map<std::int64_t, std::vector<std::weak_ptr<Client>>> links_;
};

}  // namespace rainet::server
