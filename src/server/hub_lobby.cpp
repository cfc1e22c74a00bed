// The lobby: open games anyone may join and the seeks waiting, sent to its subscribers.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "server/player_object.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

protocol::LobbyEntry Hub::lobbyEntry(const store::GameRow& g, const store::PlayerRow& creator) {
    return {
        g.id,
        protocol::enumFromName<protocol::Preset>(g.preset).value_or(protocol::Preset{}),
        protocol::clockSetting(g.clockInitial, g.clockIncrement),
        playerObject(factsOf(creator), PlayerPlace::Public),
        protocol::enumFromName<protocol::SideWish>(g.sideWish).value_or(protocol::SideWish::Random),
        g.rated};
}

std::string Hub::lobbyMessage() {
    constexpr std::size_t kListed = 100;
    protocol::LobbyMessage m;
    m.games.assign(lobby_.begin(),
                   lobby_.begin() + static_cast<std::ptrdiff_t>(std::min(lobby_.size(), kListed)));
    m.seeks = seekSummary_;
    return protocol::render(m);
}

void Hub::broadcastLobby() {
    if (lobbySubs_.empty()) return;
    auto text = std::make_shared<const std::string>(lobbyMessage());
    std::erase_if(lobbySubs_, [](const std::weak_ptr<Client>& w) { return w.expired(); });
    for (auto& w : lobbySubs_)
        if (auto c = w.lock()) c->send(text);
}

void Hub::setSeekSummary(std::vector<protocol::SeekEntry> summary) {
    std::lock_guard lock(lobbyMu_);
    if (summary == seekSummary_) return;
    seekSummary_ = std::move(summary);
    broadcastLobby();
}

void Hub::setLobbyEntry(const std::string& id, std::optional<protocol::LobbyEntry> entry) {
    std::lock_guard lock(lobbyMu_);
    bool changed = false;
    if (!entry) {
        for (auto it = lobby_.begin(); it != lobby_.end(); ++it)
            if (it->game == id) {
                lobby_.erase(it);
                changed = true;
                break;
            }
    } else {
        lobby_.push_back(std::move(*entry));
        changed = true;
    }
    if (changed) broadcastLobby();
}

void Hub::subscribeLobby(const std::shared_ptr<Client>& c) {
    std::lock_guard lock(lobbyMu_);
    bool known = false;
    for (auto& w : lobbySubs_) known |= w.lock() == c;
    if (!known) lobbySubs_.push_back(c);
    c->send(lobbyMessage());
}

void Hub::unsubscribeLobby(const Client* c) {
    std::lock_guard lock(lobbyMu_);
    std::erase_if(lobbySubs_, [c](const std::weak_ptr<Client>& w) {
        auto p = w.lock();
        return !p || p.get() == c;
    });
}

}  // namespace rainet::server
