// The seeks waiting for quick pairing (server/seek_queue.h).
#include "server/seek_queue.h"

#include <algorithm>

#include "protocol/schema.h"

namespace rainet::server {

bool SeekQueue::compatible(const Seek& a, const Seek& b) {
    auto avoids = [](const Seek& x, const Seek& y) {
        return std::find(x.avoid.begin(), x.avoid.end(), y.player.id) != x.avoid.end();
    };
    return a.preset == b.preset && a.clockInitial == b.clockInitial &&
           a.clockIncrement == b.clockIncrement && a.rated == b.rated && !avoids(a, b) &&
           !avoids(b, a);
}

std::vector<protocol::SeekEntry> SeekQueue::summaryLocked() const {
    std::vector<protocol::SeekEntry> out;
    for (const Seek& s : seeks_) {
        const protocol::SeekEntry kind{
            protocol::enumFromName<protocol::Preset>(s.preset).value_or(protocol::Preset{}),
            protocol::clockSetting(s.clockInitial, s.clockIncrement), s.rated, 0};
        auto same = std::find_if(out.begin(), out.end(), [&](const protocol::SeekEntry& e) {
            return e.preset == kind.preset && e.clock == kind.clock && e.rated == kind.rated;
        });
        if (same == out.end()) same = out.insert(out.end(), kind);
        ++same->players;
    }
    return out;
}

std::vector<protocol::SeekEntry> SeekQueue::summary() {
    std::lock_guard lock(mu_);
    return summaryLocked();
}

SeekQueue::Placed SeekQueue::place(Seek s) {
    Placed out;
    std::lock_guard lock(mu_);
    std::erase_if(seeks_, [&](const Seek& w) {  // a new seek replaces the player's last one
        return w.player.id == s.player.id || w.client.expired();
    });
    for (auto it = seeks_.begin(); it != seeks_.end(); ++it)
        if (compatible(*it, s)) {
            out.partner = std::move(*it);
            seeks_.erase(it);
            break;
        }
    if (!out.partner) seeks_.push_back(std::move(s));
    out.summary = summaryLocked();
    return out;
}

SeekQueue::Due SeekQueue::takeDue(std::int64_t nowCs) {
    Due out;
    std::lock_guard lock(mu_);
    const auto before = seeks_.size();
    std::erase_if(seeks_, [&](Seek& s) {
        if (s.client.expired()) return true;
        if (!s.computerAtCs || s.computerAtCs > nowCs) return false;
        out.seeks.push_back(std::move(s));
        return true;
    });
    for (const Seek& s : seeks_)
        if (s.computerAtCs && (!out.nextCs || s.computerAtCs < out.nextCs))
            out.nextCs = s.computerAtCs;
    if (seeks_.size() != before) out.summary = summaryLocked();
    return out;
}

std::vector<protocol::SeekEntry> SeekQueue::putBack(Seek partner) {
    std::lock_guard lock(mu_);
    seeks_.insert(seeks_.begin(), std::move(partner));
    return summaryLocked();
}

std::optional<std::vector<protocol::SeekEntry>> SeekQueue::withdraw(const Client* c,
                                                                    std::int64_t player) {
    std::lock_guard lock(mu_);
    const auto before = seeks_.size();
    std::erase_if(seeks_, [&](const Seek& s) {
        return (player ? s.player.id == player : s.key == c) || s.client.expired();
    });
    if (seeks_.size() == before) return std::nullopt;
    return summaryLocked();
}

}  // namespace rainet::server
