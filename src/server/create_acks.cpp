// The acks of recent `create` requests (server/create_acks.h).
#include "server/create_acks.h"

#include <iterator>

namespace rainet::server {

std::optional<std::string> CreateAcks::find(std::int64_t player, const std::string& key) {
    std::lock_guard lock(mu_);
    if (auto mine = acks_.find(player); mine != acks_.end())
        for (const Ack& e : mine->second)
            if (e.key == key) return e.ack;
    return std::nullopt;
}

void CreateAcks::remember(std::int64_t player, const std::string& key, const std::string& ack,
                          std::int64_t now) {
    std::lock_guard lock(mu_);
    auto& mine = acks_[player];
    mine.push_back({key, ack, now});
    ++held_;
    if (mine.size() > kPerPlayer) {
        mine.pop_front();
        --held_;
    }
    if (now - sweptAt_ < kSweepEveryCs) return;
    sweptAt_ = now;
    for (auto it = acks_.begin(); it != acks_.end();) {
        auto& kept = it->second;
        while (!kept.empty() && now - kept.front().at > kKeptCs) {
            kept.pop_front();
            --held_;
        }
        it = kept.empty() ? acks_.erase(it) : std::next(it);
    }
}

}  // namespace rainet::server
