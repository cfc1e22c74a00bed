// The lobby: open games anyone may join and the seeks waiting, sent to its subscribers.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

Json Hub::lobbyEntry(const store::GameRow& g, const store::PlayerRow& creator) {
    const Json clock = protocol::clockJson(g.clockInitial, g.clockIncrement);
    Json who{
        {"id", creator.publicId}, {"name", creator.name}, {"rating", std::lround(creator.rating)}};
    if (creator.bot) who["bot"] = true;
    return {{"game", g.id},       {"preset", g.preset},
            {"clock", clock},     {"creator", std::move(who)},
            {"side", g.sideWish}, {"rated", g.rated}};
}

std::string Hub::lobbyMessage() {
    Json games = Json::array();
    for (const auto& [id, entry] : lobby_) {
        if (games.size() >= 100) break;
        games.push_back(entry);
    }
    return Json{{"type", "lobby"}, {"games", std::move(games)}, {"seeks", seekSummary_}}.dump();
}

void Hub::broadcastLobby() {
    if (lobbySubs_.empty()) return;
    auto text = std::make_shared<const std::string>(lobbyMessage());
    std::erase_if(lobbySubs_, [](const std::weak_ptr<Client>& w) { return w.expired(); });
    for (auto& w : lobbySubs_)
        if (auto c = w.lock()) c->send(text);
}

void Hub::setSeekSummary(Json summary) {
    std::lock_guard lock(lobbyMu_);
    if (summary == seekSummary_) return;
    seekSummary_ = std::move(summary);
    broadcastLobby();
}

void Hub::setLobbyEntry(const std::string& id, Json entry) {
    std::lock_guard lock(lobbyMu_);
    bool changed = false;
    if (entry.is_null()) {
        for (auto it = lobby_.begin(); it != lobby_.end(); ++it)
            if (it->first == id) {
                lobby_.erase(it);
                changed = true;
                break;
            }
    } else {
        lobby_.emplace_back(id, std::move(entry));
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
