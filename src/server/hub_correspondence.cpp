// Correspondence games (days per move): the player's list of them, their moves first
// (`my_games`; docs/protocol.md, "Correspondence games"). The clock itself is the room's.
#include <algorithm>

#include "protocol/server_messages.h"
#include "server/hub.h"

namespace rainet::server {

Result<std::string> Hub::myGames(const store::PlayerRow& p, const protocol::Json& id) {
    protocol::MyGamesMessage out;
    out.id = id.is_null() ? std::nullopt : std::optional<protocol::Json>(id);
    if (p.id) {
        auto list = store_.correspondenceGames(p.id, kMaxMyGames);
        if (!list) return list.error();
        for (const auto& s : *list) {
            const store::GameRow& g = s.game;
            const int mine = g.player[0] == p.id ? 0 : 1;
            protocol::CorrespondenceGame e;
            e.game = g.id;
            e.preset = protocol::enumFromName<protocol::Preset>(g.preset).value_or(
                protocol::Preset::Standard);
            e.days = g.clockInitial / protocol::kDayCs;
            e.side = mine ? Side::Two : Side::One;
            e.opponent.id = s.publicIds[1 - mine];
            e.opponent.name = s.names[1 - mine];
            e.yourTurn = g.toMove == mine + 1;
            e.deadline = g.deadline;
            out.games.push_back(std::move(e));
        }
        // The player's moves first; within each group the soonest deadline first (stable: the
        // store's order).
        std::stable_partition(out.games.begin(), out.games.end(),
                              [](const protocol::CorrespondenceGame& e) { return e.yourTurn; });
    }
    return protocol::render(out);
}

}  // namespace rainet::server
