#include "server/hub.h"

#include <chrono>

#include "server/game_room.h"
#include "server/log.h"

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
      bots_(static_cast<std::size_t>(std::max(1, config.botThreads))) {}

Hub::~Hub() {
    bots_.join();
}

Result<Hub::Identity> Hub::hello(const std::string& token, const std::string& name) {
    if (!token.empty()) {
        if (auto p = store_.playerByTokenHash(hashToken(token))) {
            if (!name.empty() && name != p->name && !store_.renamePlayer(p->id, name))
                p->name = name;
            return Identity{*p, token};
        }
    }
    // A new id or token can collide with a stored one (numbered ids in test mode after a
    // restart; random ones practically never): draw again.
    Error last{"store: no identity"};
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string fresh = ids_.token();
        const std::string publicId = ids_.playerId();
        auto p = store_.createPlayer(publicId, hashToken(fresh),
                                     name.empty() ? "guest-" + publicId.substr(1) : name);
        if (p) return Identity{*p, fresh};
        last = p.error();
    }
    return last;
}

Json Hub::activeGames(const store::PlayerRow& p) {
    std::int64_t total = 0;
    Json games = Json::array();
    for (const auto& g : store_.listGames(p.publicId, "active", 1, 100, &total))
        games.push_back({{"game", g.game.id},
                         {"side", g.game.player[0] == p.id ? "1" : "2"},
                         {"status", g.game.status}});
    return games;
}

std::shared_ptr<GameRoom> Hub::create(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                                      const protocol::ClientMessage& m) {
    const std::string key = m.id.dump();
    {
        std::lock_guard lock(createdMu_);
        auto& mine = created_[p.id];
        if (auto it = mine.find(key); it != mine.end()) {
            c->send(it->second);  // repeated create: acknowledged again, no second game
            return nullptr;
        }
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
    row.creator = p.id;
    const int mine = m.side == "1" ? 0 : m.side == "2" ? 1 : static_cast<int>(ids_.seed() >> 63);
    row.player[mine] = p.id;
    row.status = computer ? "setup" : "open";
    auto room = launch(
        row, computer ? std::optional<Side>(mine ? Side::One : Side::Two) : std::nullopt);
    if (!room) {
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return nullptr;
    }
    const std::string ack = protocol::renderAck(m.id, row.id);
    {
        std::lock_guard lock(createdMu_);
        created_[p.id][key] = ack;
    }
    if (m.opponent == "open") setLobbyEntry(row.id, lobbyEntry(row, p));
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    (*room)->run([c, p, ack](GameRoom& r) {
        r.welcomeCreator(c, p, ack);
        r.activate();
    });
    return *room;
}

Result<std::shared_ptr<GameRoom>> Hub::launch(store::GameRow& row, std::optional<Side> botSide) {
    row.created = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
    std::optional<Error> e;
    for (int attempt = 0; attempt < 100; ++attempt) {  // a new id may collide: draw again
        row.id = ids_.gameId();
        if (!(e = store_.insertGame(row))) break;
    }
    if (e) {
        logEvent("store_error", {{"message", e->message}});
        return *e;
    }
    auto room = GameRoom::create(*this, row, botSide);
    std::lock_guard lock(roomsMu_);
    rooms_[row.id] = room;
    return room;
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
    row.creator = old.creator;
    row.player[0] = old.player[1];
    row.player[1] = old.player[0];
    row.sideWish = row.player[0] == row.creator ? "1" : "2";
    row.status = "setup";
    std::optional<Side> botSide;
    if (computer) botSide = row.player[0] == row.creator ? Side::Two : Side::One;
    auto room = launch(row, botSide);
    if (!room) return room.error();
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}, {"rematch_of", old.id}});
    (*room)->run([](GameRoom& r) { r.activate(); });
    return row.id;
}

std::shared_ptr<GameRoom> Hub::open(const std::string& id) {
    auto loaded = [&]() -> std::shared_ptr<GameRoom> {  // caller holds roomsMu_
        if (auto it = rooms_.find(id); it != rooms_.end()) return it->second;
        if (auto it = finished_.find(id); it != finished_.end()) return it->second.lock();
        return nullptr;
    };
    {
        std::lock_guard lock(roomsMu_);
        if (auto r = loaded()) return r;
    }
    auto data = store_.loadGame(id);
    if (!data) return nullptr;
    std::lock_guard lock(roomsMu_);
    // Unfinished games are loaded at start, so one missing here just ended; another connection
    // may also have rebuilt this finished game meanwhile: use the room already there.
    if (auto r = loaded()) return r;
    if (data->game.status != "finished" && data->game.status != "aborted") return nullptr;
    auto room = GameRoom::restore(*this, *data);
    if (room) keepFinished(id, room);
    return room;
}

void Hub::retire(const std::string& id) {
    std::lock_guard lock(roomsMu_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    keepFinished(id, it->second);
    rooms_.erase(it);
}

void Hub::keepFinished(const std::string& id, const std::shared_ptr<GameRoom>& room) {
    finished_[id] = room;
    if (finished_.size() < sweepAt_) return;
    std::erase_if(finished_, [](const auto& e) { return e.second.expired(); });
    sweepAt_ = std::max<std::size_t>(64, 2 * finished_.size());
}

std::size_t Hub::roomCount() {
    std::lock_guard lock(roomsMu_);
    return rooms_.size();
}

std::vector<std::shared_ptr<GameRoom>> Hub::rooms() {
    std::lock_guard lock(roomsMu_);
    std::vector<std::shared_ptr<GameRoom>> out;
    out.reserve(rooms_.size());
    for (auto& [id, r] : rooms_) out.push_back(r);
    return out;
}

void Hub::loadUnfinished() {
    int loaded = 0, failed = 0;
    for (const auto& d : store_.loadUnfinished()) {
        auto room = GameRoom::restore(*this, d);
        if (!room) {
            ++failed;
            logEvent("restore_error", {{"game", d.game.id}});
            continue;
        }
        {
            std::lock_guard lock(roomsMu_);
            rooms_[d.game.id] = room;
        }
        if (d.game.status == "open" && d.game.opponent == "open") {
            auto p = store_.playerById(d.game.player[0] ? d.game.player[0] : d.game.player[1]);
            if (p) setLobbyEntry(d.game.id, lobbyEntry(d.game, *p));
        }
        room->run([](GameRoom& r) { r.activate(); });
        ++loaded;
    }
    logEvent("games_restored", {{"loaded", loaded}, {"failed", failed}});
}

Json Hub::lobbyEntry(const store::GameRow& g, const store::PlayerRow& creator) {
    Json clock = g.clockInitial ? Json{{"initial", g.clockInitial}, {"increment", g.clockIncrement}}
                                : Json(nullptr);
    return {{"game", g.id},
            {"preset", g.preset},
            {"clock", clock},
            {"creator", {{"id", creator.publicId}, {"name", creator.name}}},
            {"side", g.sideWish}};
}

std::string Hub::lobbyMessage() {
    Json games = Json::array();
    for (const auto& [id, entry] : lobby_) {
        if (games.size() >= 100) break;
        games.push_back(entry);
    }
    return Json{{"type", "lobby"}, {"games", std::move(games)}}.dump();
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
    if (!changed || lobbySubs_.empty()) return;
    auto text = std::make_shared<const std::string>(lobbyMessage());
    std::erase_if(lobbySubs_, [](const std::weak_ptr<Client>& w) { return w.expired(); });
    for (auto& w : lobbySubs_)
        if (auto c = w.lock()) c->send(text);
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

void Hub::advanceTime(std::int64_t cs) {
    if (auto* manual = dynamic_cast<ManualTime*>(&time_)) manual->advance(cs);
    for (auto& r : rooms()) r->run([](GameRoom& room) { room.checkClock(); });
}

}  // namespace rainet::server
