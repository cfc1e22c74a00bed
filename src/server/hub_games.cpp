// New games: create (a repeated create answered again), a rematch, and storing a new game.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

std::shared_ptr<GameRoom> Hub::create(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                                      const protocol::ClientMessage& m) {
    const std::string key = m.id.dump();
    if (auto ack = created_.find(p.id, key)) {
        c->send(std::move(*ack));  // repeated create: acknowledged again, no second game
        return nullptr;
    }
    store::GameRow row;
    row.preset = m.preset;
    if (m.clock) {
        row.clockInitial = m.clock->initial;
        row.clockIncrement = m.clock->increment;
    }
    row.clock[0] = row.clock[1] = row.clockInitial;
    row.opponent = m.opponent;
    const bool computer = m.opponent == "computer";
    row.level = computer ? m.level : 0;
    row.sideWish = m.side;
    row.rated = !computer && m.rated.value_or(true);
    row.creator = p.id;
    const int mine = m.side == "1" ? 0 : m.side == "2" ? 1 : static_cast<int>(ids_.seed() >> 63);
    row.player[mine] = p.id;
    row.status = computer ? GameStatus::Setup : GameStatus::Open;
    auto room =
        launch(row, computer ? std::optional<Side>(mine ? Side::One : Side::Two) : std::nullopt);
    if (!room) {
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return nullptr;
    }
    const std::string ack = protocol::renderAck(m.id, row.id);
    created_.remember(p.id, key, ack, time_.nowCs());
    if (m.opponent == "open") {
        // The creator's rating as stored (the connection's copy may be older; else that one).
        auto fresh = store_.playerById(p.id);
        setLobbyEntry(row.id, Lobby::entryOf(row, fresh && *fresh ? **fresh : p), row.created);
    }
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    (*room)->run([c, p, ack](GameRoom& r) {
        r.welcomeCreator(c, p, ack);
        r.activate();
    });
    return *room;
}

Result<std::shared_ptr<GameRoom>> Hub::launch(store::GameRow& row, std::optional<Side> botSide) {
    row.created = time_.unixMs();
    std::optional<Error> e;
    for (int attempt = 0; attempt < 100; ++attempt) {  // a new id may collide: draw again
        row.id = ids_.gameId();
        if (!(e = store_.insertGame(row))) break;
    }
    if (e) {
        logEvent("store_error", {{"message", e->message}});
        return *e;
    }
    if (auto held = acquireLease(row.id)) return *held;  // a cluster's node owns what it creates
    auto room = GameRoom::create(*this, row, botSide);
    if (!room) {
        logEvent("store_error", {{"game", row.id}, {"message", room.error().message}});
        return room.error();
    }
    rooms_.hold(row.id, *room);
    return *room;
}

Result<std::shared_ptr<GameRoom>> Hub::launchTournamentGame(store::GameRow& row,
                                                            protocol::TournamentRef t) {
    auto room = launch(row, std::nullopt);
    if (!room) return room.error();
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}, {"tournament", t.id}});
    (*room)->run([t = std::move(t)](GameRoom& r) {
        r.setTournament(t);
        r.activate();
    });
    return *room;
}

Result<std::string> Hub::rematch(const store::GameRow& old) {
    store::GameRow row;
    row.preset = old.preset;
    row.clockInitial = old.clockInitial;
    row.clockIncrement = old.clockIncrement;
    row.clock[0] = row.clock[1] = row.clockInitial;
    const bool computer = old.opponent == "computer";
    row.opponent = computer ? "computer" : "invite";  // never listed: both seats are taken
    row.level = old.level;
    row.rated = old.rated;  // false against the computer, as create made it
    row.creator = old.creator;
    row.player[0] = old.player[1];
    row.player[1] = old.player[0];
    // One char assigned, not a literal: g++ 12 warns wrongly (-Wrestrict) about the literal here.
    row.sideWish.assign(1, row.player[0] == row.creator ? '1' : '2');
    row.status = GameStatus::Setup;
    std::optional<Side> botSide;
    if (computer) botSide = row.player[0] == row.creator ? Side::Two : Side::One;
    auto room = launch(row, botSide);
    if (!room) return room.error();
    logEvent("game_created",
             {{"game", row.id}, {"opponent", row.opponent}, {"rematch_of", old.id}});
    (*room)->run([](GameRoom& r) { r.activate(); });
    return row.id;
}

}  // namespace rainet::server
