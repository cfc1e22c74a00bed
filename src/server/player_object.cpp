#include "server/player_object.h"

#include <cmath>

namespace rainet::server {

PlayerFacts factsOf(const store::PlayerRow& p) {
    PlayerFacts f;
    f.publicId = p.publicId;
    f.name = p.name;
    f.kind = p.kind;
    f.rating = p.rating;
    f.botAccount = p.bot;
    return f;
}

protocol::Player playerObject(const PlayerFacts& p, PlayerPlace place) {
    protocol::Player out{std::string(p.publicId), std::string(p.name), {}, {}, {}, {}, {}};
    if (place == PlayerPlace::Chat) return out;
    const bool bot = p.computer || p.botAccount;
    if (place == PlayerPlace::Own)
        out.kind = protocol::enumFromName<protocol::PlayerKind>(p.kind).value_or(
            protocol::PlayerKind::Guest);
    out.rating = p.computer ? std::optional<std::int64_t>() : std::lround(p.rating);
    if (place == PlayerPlace::Seat) {
        out.connected = p.computer || p.connections > 0;
        out.bot = bot;
        // How long the seat has been without a connection, so that clients can count down to
        // the moment the opponent may claim the win.
        if (!p.computer && p.connections == 0) out.away = p.awayCs;
    } else if (bot) {
        out.bot = true;
    }
    return out;
}

}  // namespace rainet::server
