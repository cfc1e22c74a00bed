// The hub's services and its game rooms: opened (read and replayed outside the registry's lock),
// retired, dropped, restored at start, swept for expiry.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "server/tournaments.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

Hub::Hub(asio::io_context& io, store::Store& store, TimeSource& time, IdSource& ids,
         Metrics& metrics, const Config& config)
    : io_(io),
      store_(store),
      time_(time),
      ids_(ids),
      config_(config),
      metrics_(metrics),
      bots_(static_cast<std::size_t>(std::max(1, config.botThreads))),
      identities_(config.identitiesPerMinute,
                  config.identitiesPerMinute ? 6000 / config.identitiesPerMinute : 1),
      expirySweep_(io),
      tournamentTick_(io),
      tournaments_(std::make_unique<Tournaments>(*this, config.arenaSchedule)),
      seekTimer_(io) {
    if (!time_.isManual()) {
        sweepExpired();
        tickTournaments();
    }
}

void Hub::tickTournaments() {
    // On the store's writer thread: the scheduler stores what it starts and ends.
    store_.write([this] { tournaments_->tick(); });
    tournamentTick_.expires_after(kTournamentTickEvery);
    tournamentTick_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) tickTournaments();
    });
}

void Hub::sweepExpired() {
    for (auto& r : rooms()) r->run([](GameRoom& room) { room.checkExpiry(); });
    pruneNotifications();
    expireChallenges();
    expirySweep_.expires_after(kExpirySweepEvery);
    expirySweep_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) sweepExpired();
    });
}

Hub::~Hub() {
    stop();
    passwords_.join();
    if (const int n = passwords_.dropped()) logEvent("password_jobs_dropped", {{"count", n}});
    bots_.join();
}

void Hub::stop() {
    passwords_.stop();
}

Result<std::shared_ptr<GameRoom>> Hub::open(const std::string& id) {
    if (auto r = loaded(id)) return r;
    // Read and replayed without the registry's lock: other games are opened meanwhile.
    auto data = store_.loadGame(id);
    if (!data) {
        logEvent("store_error", {{"game", id}, {"message", data.error().message}});
        return data.error();
    }
    if (!*data) return std::shared_ptr<GameRoom>();
    const bool over = isOver((**data).game.status);
    // In a cluster an unfinished game is served only under its lease, and read again once held:
    // a takeover waited for the last owner's write in flight, which the first read may lack.
    if (!over && cluster_) {
        if (auto e = acquireLease(id)) return *e;
        data = store_.loadGame(id);
        if (!data || !*data) {
            releaseLease(id);
            if (!data) return data.error();
            return std::shared_ptr<GameRoom>();
        }
    }
    const store::GameData& d = **data;
    // An unfinished game is not in memory after its room failed: rebuilt like a finished one.
    auto room = GameRoom::restore(*this, d);
    if (!room) {
        logEvent("restore_error", {{"game", id}, {"message", room.error().message}});
        return room.error();
    }
    // Another connection may have rebuilt this game meanwhile: then the room there is used.
    auto kept = rooms_.adopt(id, *room, over);
    if (kept != *room) return kept;
    if (!over) (*room)->run([](GameRoom& r) { r.activate(); });
    return *room;
}

void Hub::retire(const std::string& id) {
    if (rooms_.retire(id)) releaseLease(id);  // over: nobody needs to own it any more
}

void Hub::drop(const std::string& id, const GameRoom* room) {
    if (rooms_.drop(id, room)) releaseLease(id);  // any node may rebuild it from the store now
}

std::optional<Error> Hub::loadUnfinished() {
    // The arenas first, so that a game that ends as soon as it is back is scored.
    if (auto e = tournaments_->load()) return e;
    auto all = store_.loadUnfinished();
    if (!all) return all.error();
    int loaded = 0, failed = 0;
    for (const auto& d : *all) {
        auto room = GameRoom::restore(*this, d);
        if (!room) {
            ++failed;
            logEvent("restore_error", {{"game", d.game.id}, {"message", room.error().message}});
            continue;
        }
        rooms_.hold(d.game.id, *room);
        if (d.game.status == GameStatus::Open && d.game.opponent == "open") {
            auto p = store_.playerById(d.game.player[0] ? d.game.player[0] : d.game.player[1]);
            if (p && *p) lobby_.set(d.game.id, Lobby::entryOf(d.game, **p));
        }
        (*room)->run([](GameRoom& r) { r.activate(); });
        ++loaded;
    }
    logEvent("games_restored", {{"loaded", loaded}, {"failed", failed}});
    return std::nullopt;
}

void Hub::advanceTime(std::int64_t cs) {
    if (auto* manual = dynamic_cast<ManualTime*>(&time_)) manual->advance(cs);
    tournaments_->tick();
    for (auto& r : rooms())
        r->run([](GameRoom& room) {
            room.checkClock();
            room.checkExpiry();
        });
    pruneNotifications();
    expireChallenges();
    seatComputerForDueSeeks();
}

}  // namespace rainet::server
