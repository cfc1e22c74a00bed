// The lobby (server/lobby.h): open games and the seeks waiting, sent to its subscribers.
#include "server/lobby.h"

#include <algorithm>

#include "protocol/server_messages.h"
#include "server/player_object.h"

namespace rainet::server {

protocol::LobbyEntry Lobby::entryOf(const store::GameRow& g, const store::PlayerRow& creator) {
    return {
        g.id,
        protocol::enumFromName<protocol::Preset>(g.preset).value_or(protocol::Preset{}),
        protocol::clockSetting(g.clockInitial, g.clockIncrement),
        playerObject(factsOf(creator), PlayerPlace::Public),
        protocol::enumFromName<protocol::SideWish>(g.sideWish).value_or(protocol::SideWish::Random),
        g.rated};
}

std::string Lobby::messageLocked() const {
    protocol::LobbyMessage m;
    m.games.assign(games_.begin(),
                   games_.begin() + static_cast<std::ptrdiff_t>(std::min(games_.size(), kListed)));
    m.seeks = seeks_;
    return protocol::render(m);
}

std::string Lobby::message() {
    std::lock_guard lock(mu_);
    return messageLocked();
}

void Lobby::broadcastLocked() {
    if (subs_.empty()) return;
    auto text = std::make_shared<const std::string>(messageLocked());
    std::erase_if(subs_, [](const std::weak_ptr<Client>& w) { return w.expired(); });
    for (auto& w : subs_)
        if (auto c = w.lock()) c->send(text);
}

void Lobby::setSeeks(std::vector<protocol::SeekEntry> summary) {
    std::lock_guard lock(mu_);
    if (summary == seeks_) return;
    seeks_ = std::move(summary);
    broadcastLocked();
}

void Lobby::set(const std::string& id, std::optional<protocol::LobbyEntry> entry) {
    std::lock_guard lock(mu_);
    bool changed = false;
    if (!entry) {
        for (auto it = games_.begin(); it != games_.end(); ++it)
            if (it->game == id) {
                games_.erase(it);
                changed = true;
                break;
            }
    } else {
        auto same = std::find_if(games_.begin(), games_.end(),
                                 [&](const protocol::LobbyEntry& e) { return e.game == id; });
        if (same != games_.end())
            *same = std::move(*entry);
        else
            games_.push_back(std::move(*entry));
        changed = true;
    }
    if (changed) broadcastLocked();
}

void Lobby::setGames(std::vector<protocol::LobbyEntry> games) {
    std::lock_guard lock(mu_);
    const std::string before = messageLocked();
    games_ = std::move(games);
    if (messageLocked() != before) broadcastLocked();
}

void Lobby::subscribe(const std::shared_ptr<Client>& c) {
    std::lock_guard lock(mu_);
    bool known = false;
    for (auto& w : subs_) known |= w.lock() == c;
    if (!known) subs_.push_back(c);
    c->send(messageLocked());
}

void Lobby::unsubscribe(const Client* c) {
    std::lock_guard lock(mu_);
    std::erase_if(subs_, [c](const std::weak_ptr<Client>& w) {
        auto p = w.lock();
        return !p || p.get() == c;
    });
}

}  // namespace rainet::server
