// Identities: hello (a token's player, or a new guest), storing a guest, the welcome.
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

Result<Hub::Identity> Hub::hello(const std::string& token, const std::string& name) {
    if (!token.empty()) {
        auto found = store_.playerByTokenHash(hashToken(token));
        // A store failure is not an unknown token: a new guest would take the player's place.
        if (!found) return found.error();
        if (auto& p = *found) {
            // An account is named after its username: `name` renames guests only.
            if (!name.empty() && name != p->name && p->kind != "account" &&
                !store_.renamePlayer(p->id, name))
                p->name = name;
            return Identity{*p, token};
        }
    }
    // A new id or token can collide with a stored one (numbered ids in test mode after a
    // restart; random ones practically never): draw again.
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string fresh = ids_.token();
        const std::string publicId = ids_.playerId();
        auto byId = store_.playerByPublicId(publicId);
        if (!byId) return byId.error();
        auto byToken = store_.playerByTokenHash(hashToken(fresh));
        if (!byToken) return byToken.error();
        if (*byId || *byToken) continue;
        store::PlayerRow p;
        p.publicId = publicId;
        p.name = name.empty() ? "guest-" + publicId.substr(1) : name;
        return Identity{p, fresh};
    }
    return Error{"store: no free identity"};
}

bool Hub::needsStoredPlayer(protocol::MsgType t) {
    using protocol::MsgType;
    switch (t) {
        case MsgType::Hello:
        case MsgType::Login:
        case MsgType::Logout:
        case MsgType::Watch:
        case MsgType::Resume:
        case MsgType::Leave:
        case MsgType::LobbySubscribe:
        case MsgType::LobbyUnsubscribe:
        case MsgType::Ping:
        case MsgType::Unseek:
        case MsgType::TournamentWatch:
        case MsgType::TournamentUnwatch:
        case MsgType::Tournaments:
        case MsgType::Notifications:  // a guest not stored yet has none
        case MsgType::NotificationsRead:
        case MsgType::ChallengeDecline:  // a guest not stored yet has no challenge
        case MsgType::ChallengeCancel:
        case MsgType::Challenges:
        case MsgType::Blocked:  // a guest not stored yet blocked nobody, and moderates nothing
        case MsgType::Reports:
        case MsgType::Moderate:
        case MsgType::MyGames:  // a guest not stored yet has no games (the home page asks)
        case MsgType::Unfollow:
        case MsgType::Following:
        case MsgType::Register:  // stores the guest itself, unless the username is taken
            return false;
        default:
            return true;
    }
}

std::optional<Hub::Refusal> Hub::admitGuest(const std::string& address) {
    if (config_.identitiesPerMinute)
        if (const std::int64_t wait = identities_.tryTake({address}, time_.nowCs()))
            return Refusal{ErrorCode::RateLimited,
                           "too many new players from your address; try again in " +
                               std::to_string((wait + 99) / 100) + " s"};
    return std::nullopt;
}

std::optional<Hub::Refusal> Hub::storeGuest(store::PlayerRow& p, const std::string& tokenHash) {
    auto stored = store_.createPlayer(p.publicId, tokenHash, p.name);
    if (!stored) {
        logEvent("store_error", {{"message", stored.error().message}});
        return Refusal{ErrorCode::Internal, "the identity could not be stored"};
    }
    p = *stored;
    return std::nullopt;
}

Result<std::vector<protocol::PlayerGame>> Hub::activeGames(const store::PlayerRow& p) {
    std::vector<protocol::PlayerGame> games;
    if (!p.id) return games;  // a guest not stored yet has none
    auto list = store_.listGames(p.publicId, "active", std::nullopt, 100);
    if (!list) return list.error();
    for (const auto& g : *list)
        games.push_back(
            {g.game.id, g.game.player[0] == p.id ? Side::One : Side::Two, g.game.status});
    return games;
}

protocol::Player Hub::ownPlayer(const store::PlayerRow& p) {
    return playerObject(factsOf(p), PlayerPlace::Own);
}

Result<std::string> Hub::welcome(const Identity& who, const Json& id) {
    auto games = activeGames(who.player);
    if (!games) return games.error();
    std::optional<std::int64_t> unread;
    if (who.player.id) {
        auto n = store_.unreadNotifications(who.player.id);
        if (!n) return n.error();
        unread = *n;
    }
    return protocol::render(
        protocol::WelcomeMessage{who.token, ownPlayer(who.player), std::move(*games),
                                 id.is_null() ? std::nullopt : std::optional<Json>(id), unread});
}

}  // namespace rainet::server
