// Quick pairing: a seek is paired with the oldest compatible one in a new game, or waits.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

void Hub::seek(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
               const protocol::ClientMessage& m) {
    SeekQueue::Seek mine{p, c, c.get(), m.preset};
    if (m.clock) {
        mine.clockInitial = m.clock->initial;
        mine.clockIncrement = m.clock->increment;
    }
    mine.rated = m.rated.value_or(true);
    auto [other, summary] = seeks_.place(mine);
    if (!other) {
        lobby_.setSeeks(std::move(summary));
        c->send(protocol::renderAck(m.id));
        return;
    }
    store::GameRow row;
    row.preset = mine.preset;
    row.clockInitial = mine.clockInitial;
    row.clockIncrement = mine.clockIncrement;
    row.clock[0] = row.clock[1] = row.clockInitial;
    row.opponent = "match";  // paired by the server; never listed
    row.rated = mine.rated;
    row.creator = other->player.id;
    row.sideWish = "random";
    const int waiting = static_cast<int>(ids_.seed() >> 63);  // the side of the one who waited
    row.player[waiting] = other->player.id;
    row.player[1 - waiting] = p.id;
    row.status = GameStatus::Setup;
    auto room = launch(row, std::nullopt);
    if (!room) {
        lobby_.setSeeks(seeks_.putBack(*other));  // it keeps its place
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return;
    }
    lobby_.setSeeks(std::move(summary));
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    auto matched = [&](int side) {
        return protocol::render(
            protocol::MatchedMessage{row.id, side == 0 ? Side::One : Side::Two});
    };
    c->send(protocol::renderAck(m.id, row.id));
    c->send(matched(1 - waiting));
    if (auto w = other->client.lock()) w->send(matched(waiting));
}

void Hub::unseek(const Client* c, std::int64_t player) {
    if (auto summary = seeks_.withdraw(c, player)) lobby_.setSeeks(std::move(*summary));
}

}  // namespace rainet::server
