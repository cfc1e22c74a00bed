#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

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
      bots_(static_cast<std::size_t>(std::max(1, config.botThreads))),
      identities_(config.identitiesPerMinute,
                  config.identitiesPerMinute ? 6000 / config.identitiesPerMinute : 1),
      expirySweep_(io) {
    if (!time_.isManual()) sweepExpired();
}

void Hub::sweepExpired() {
    for (auto& r : rooms()) r->run([](GameRoom& room) { room.checkExpiry(); });
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

bool Hub::cheapHashes() const {
    return config_.passwordCost == "min" || (config_.passwordCost.empty() && config_.testMode);
}

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
        case MsgType::Register:  // stores the guest itself, unless the username is taken
            return false;
        default:
            return true;
    }
}

std::optional<Hub::Refusal> Hub::storeGuest(store::PlayerRow& p, const std::string& tokenHash,
                                            const std::string& address) {
    if (config_.identitiesPerMinute)
        if (const std::int64_t wait = identities_.tryTake({address}, time_.nowCs()))
            return Refusal{ErrorCode::RateLimited,
                           "too many new players from your address; try again in " +
                               std::to_string((wait + 99) / 100) + " s"};
    auto stored = store_.createPlayer(p.publicId, tokenHash, p.name);
    if (!stored) {
        logEvent("store_error", {{"message", stored.error().message}});
        return Refusal{ErrorCode::Internal, "the identity could not be stored"};
    }
    p = *stored;
    return std::nullopt;
}

Result<Json> Hub::activeGames(const store::PlayerRow& p) {
    Json games = Json::array();
    if (!p.id) return games;  // a guest not stored yet has none
    auto list = store_.listGames(p.publicId, "active", std::nullopt, 100);
    if (!list) return list.error();
    for (const auto& g : *list)
        games.push_back({{"game", g.game.id},
                         {"side", g.game.player[0] == p.id ? "1" : "2"},
                         {"status", g.game.status}});
    return games;
}

Json Hub::playerJson(const store::PlayerRow& p) {
    Json j{
        {"id", p.publicId}, {"name", p.name}, {"kind", p.kind}, {"rating", std::lround(p.rating)}};
    if (p.bot) j["bot"] = true;
    return j;
}

Result<std::string> Hub::welcome(const Identity& who, const Json& id) {
    auto games = activeGames(who.player);
    if (!games) return games.error();
    Json j{{"type", "welcome"},
           {"token", who.token},
           {"player", playerJson(who.player)},
           {"games", std::move(*games)}};
    if (!id.is_null()) j["id"] = id;
    return j.dump();
}

namespace {

// The password thread's top: an exception fails only the request concerned (answered
// `internal`), logged once.
template <class F>
void guarded(const char* what, const Hub::AuthDone& done, F f) {
    try {
        f();
    } catch (const std::exception& e) {
        logEvent("password_exception", {{"request", what}, {"message", e.what()}});
        done(Hub::AuthReply{std::nullopt, ErrorCode::Internal, "the request failed on the server",
                            std::nullopt});
    }
}

}  // namespace

void Hub::registerAccount(const store::PlayerRow& p, const std::string& tokenHash,
                          const std::string& address, std::string username, std::string password,
                          bool bot, AuthDone done) {
    if (config_.identitiesPerMinute)
        if (const std::int64_t wait = identities_.tryTake({address}, time_.nowCs()))
            return done(AuthReply{std::nullopt, ErrorCode::RateLimited,
                                  "too many registrations from your address; try again in " +
                                      std::to_string((wait + 99) / 100) + " s",
                                  std::nullopt});
    auto job = [this, p, tokenHash, username = std::move(username), password = std::move(password),
                bot, done] {
        guarded("register", done, [&] {
            AuthReply r;
            auto hash = hashPassword(password, cheapHashes());
            if (!hash) {
                r.message = "the password could not be hashed";
                return done(std::move(r));
            }
            store::PlayerRow who = p;
            if (!who.id) {
                auto taken = store_.accountByUsername(username);
                if (!taken) {
                    logEvent("store_error", {{"message", taken.error().message}});
                    r.message = "the account could not be stored";
                    return done(std::move(r));
                }
                if (*taken) {
                    r.code = ErrorCode::UsernameTaken;
                    r.message = "this username is taken";
                    return done(std::move(r));
                }
                auto stored = store_.createPlayer(who.publicId, tokenHash, who.name);
                if (!stored) {
                    logEvent("store_error", {{"message", stored.error().message}});
                    r.message = "the identity could not be stored";
                    return done(std::move(r));
                }
                who = *stored;
                r.guest = who;
            }
            auto outcome = store_.registerAccount(who.id, username, *hash, bot);
            if (!outcome) {
                logEvent("store_error", {{"message", outcome.error().message}});
                r.message = "the account could not be stored";
            } else if (*outcome == store::Registration::UsernameTaken) {
                r.code = ErrorCode::UsernameTaken;
                r.message = "this username is taken";
            } else if (*outcome == store::Registration::AlreadyRegistered) {
                r.code = ErrorCode::AlreadyRegistered;
                r.message = "you already have an account; log out to register another";
            } else if (auto fresh = store_.playerById(who.id); fresh && *fresh) {
                r.identity = Identity{**fresh, {}};
                logEvent("account_registered", {{"player", (*fresh)->publicId}});
            } else {
                if (!fresh) logEvent("store_error", {{"message", fresh.error().message}});
                r.message = "the account could not be read back";
            }
            done(std::move(r));
        });
    };
    if (!passwords_.post(std::move(job))) done(busy());
}

void Hub::login(const std::string& ip, std::string username, std::string password, AuthDone done) {
    std::string key = username;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::string> address = {ip}, pair = {ip + "\n" + key};
    const std::int64_t now = time_.nowCs();
    if (const std::int64_t wait =
            std::max(loginsByAddress_.wait(address, now), loginsByUser_.wait(pair, now))) {
        return done(AuthReply{
            std::nullopt, ErrorCode::RateLimited,
            "too many failed logins; try again in " + std::to_string((wait + 99) / 100) + " s",
            std::nullopt});
    }
    auto job = [this, address = std::move(address), pair = std::move(pair),
                username = std::move(username), password = std::move(password), done] {
        guarded("login", done, [&] {
            std::call_once(dummyOnce_, [&] {
                dummyHash_ = hashPassword("not a password of anyone", cheapHashes()).value_or("");
            });
            AuthReply r;
            auto found = store_.accountByUsername(username);
            if (!found) {  // not a wrong password: nothing is counted against anyone
                logEvent("store_error", {{"message", found.error().message}});
                r.message = "the login could not be checked";
                return done(std::move(r));
            }
            const auto& account = *found;
            const bool ok = verifyPassword(account ? account->passwordHash : dummyHash_, password);
            if (!account || !ok) {
                loginsByAddress_.take(address, time_.nowCs());
                loginsByUser_.take(pair, time_.nowCs());
                r.code = ErrorCode::BadCredentials;
                r.message = "wrong username or password";
                return done(std::move(r));
            }
            auto read = store_.playerById(account->player);
            std::optional<Error> e = read ? Error{"store: no player"} : read.error();
            const std::optional<store::PlayerRow> p = read ? *read : std::nullopt;
            std::string token;
            for (int attempt = 0; p && e && attempt < 100; ++attempt) {  // a token may collide
                token = ids_.token();
                e = store_.addToken(p->id, hashToken(token));
            }
            if (e) {
                logEvent("store_error", {{"message", e->message}});
                r.message = "the login could not be stored";
                return done(std::move(r));
            }
            logEvent("login", {{"player", p->publicId}});
            r.identity = Identity{*p, token};
            done(std::move(r));
        });
    };
    if (!passwords_.post(std::move(job))) done(busy());
}

Hub::AuthReply Hub::busy() {
    return AuthReply{std::nullopt, ErrorCode::Busy,
                     "the server is busy with other logins; try again in a few seconds",
                     std::nullopt};
}

std::optional<Error> Hub::logout(const std::string& token) {
    return store_.revokeToken(hashToken(token));
}

std::shared_ptr<GameRoom> Hub::create(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                                      const protocol::ClientMessage& m) {
    const std::string key = m.id.dump();
    {
        std::lock_guard lock(createdMu_);
        if (auto mine = created_.find(p.id); mine != created_.end())
            for (const CreateAck& e : mine->second)
                if (e.key == key) {
                    c->send(e.ack);  // repeated create: acknowledged again, no second game
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
    row.rated = !computer && m.rated.value_or(true);
    row.creator = p.id;
    const int mine = m.side == "1" ? 0 : m.side == "2" ? 1 : static_cast<int>(ids_.seed() >> 63);
    row.player[mine] = p.id;
    row.status = computer ? "setup" : "open";
    auto room =
        launch(row, computer ? std::optional<Side>(mine ? Side::One : Side::Two) : std::nullopt);
    if (!room) {
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return nullptr;
    }
    const std::string ack = protocol::renderAck(m.id, row.id);
    rememberCreate(p.id, key, ack);
    if (m.opponent == "open") {
        // The creator's rating as stored (the connection's copy may be older; else that one).
        auto fresh = store_.playerById(p.id);
        setLobbyEntry(row.id, lobbyEntry(row, fresh && *fresh ? **fresh : p));
    }
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    (*room)->run([c, p, ack](GameRoom& r) {
        r.welcomeCreator(c, p, ack);
        r.activate();
    });
    return *room;
}

void Hub::rememberCreate(std::int64_t player, const std::string& key, const std::string& ack) {
    const std::int64_t now = time_.nowCs();
    std::lock_guard lock(createdMu_);
    auto& mine = created_[player];
    mine.push_back({key, ack, now});
    ++metrics_.createIdsHeld;
    if (mine.size() > kCreateIdsPerPlayer) {
        mine.pop_front();
        --metrics_.createIdsHeld;
    }
    // Now and then (at most once a minute) everyone's old entries go.
    if (now - createdSweptAt_ < 6000) return;
    createdSweptAt_ = now;
    for (auto it = created_.begin(); it != created_.end();) {
        auto& acks = it->second;
        while (!acks.empty() && now - acks.front().at > kCreateIdsKeptCs) {
            acks.pop_front();
            --metrics_.createIdsHeld;
        }
        it = acks.empty() ? created_.erase(it) : std::next(it);
    }
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
    auto room = GameRoom::create(*this, row, botSide);
    if (!room) {
        logEvent("store_error", {{"game", row.id}, {"message", room.error().message}});
        return room.error();
    }
    std::lock_guard lock(roomsMu_);
    rooms_[row.id] = *room;
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
    row.sideWish = row.player[0] == row.creator ? "1" : "2";
    row.status = "setup";
    std::optional<Side> botSide;
    if (computer) botSide = row.player[0] == row.creator ? Side::Two : Side::One;
    auto room = launch(row, botSide);
    if (!room) return room.error();
    logEvent("game_created",
             {{"game", row.id}, {"opponent", row.opponent}, {"rematch_of", old.id}});
    (*room)->run([](GameRoom& r) { r.activate(); });
    return row.id;
}

std::shared_ptr<GameRoom> Hub::findLocked(const std::string& id) {
    if (auto it = rooms_.find(id); it != rooms_.end()) return it->second;
    if (auto it = finished_.find(id); it != finished_.end()) return it->second.lock();
    return nullptr;
}

std::shared_ptr<GameRoom> Hub::loaded(const std::string& id) {
    std::lock_guard lock(roomsMu_);
    return findLocked(id);
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
    const store::GameData& d = **data;
    const bool over = d.game.status == "finished" || d.game.status == "aborted";
    // An unfinished game is not in memory after its room failed: rebuilt like a finished one.
    auto room = GameRoom::restore(*this, d);
    if (!room) {
        logEvent("restore_error", {{"game", id}, {"message", room.error().message}});
        return room.error();
    }
    {
        std::lock_guard lock(roomsMu_);
        // Another connection may have rebuilt this game meanwhile: use the room there.
        if (auto r = findLocked(id)) return r;
        if (over)
            keepFinished(id, *room);
        else
            rooms_[id] = *room;
    }
    if (!over) (*room)->run([](GameRoom& r) { r.activate(); });
    return *room;
}

void Hub::retire(const std::string& id) {
    std::lock_guard lock(roomsMu_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    keepFinished(id, it->second);
    rooms_.erase(it);
}

void Hub::drop(const std::string& id, const GameRoom* room) {
    std::lock_guard lock(roomsMu_);
    if (auto it = rooms_.find(id); it != rooms_.end() && it->second.get() == room) rooms_.erase(it);
    if (auto it = finished_.find(id); it != finished_.end()) {
        auto held = it->second.lock();
        if (!held || held.get() == room) finished_.erase(it);
    }
}

void Hub::keepFinished(const std::string& id, const std::shared_ptr<GameRoom>& room) {
    finished_[id] = room;
    if (finished_.size() < sweepAt_) return;
    std::erase_if(finished_, [](const auto& e) { return e.second.expired(); });
    sweepAt_ = std::max<std::size_t>(64, 2 * finished_.size());
}

std::vector<std::shared_ptr<GameRoom>> Hub::rooms() {
    std::lock_guard lock(roomsMu_);
    std::vector<std::shared_ptr<GameRoom>> out;
    out.reserve(rooms_.size());
    for (auto& [id, r] : rooms_) out.push_back(r);
    return out;
}

std::optional<Error> Hub::loadUnfinished() {
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
        {
            std::lock_guard lock(roomsMu_);
            rooms_[d.game.id] = *room;
        }
        if (d.game.status == "open" && d.game.opponent == "open") {
            auto p = store_.playerById(d.game.player[0] ? d.game.player[0] : d.game.player[1]);
            if (p && *p) setLobbyEntry(d.game.id, lobbyEntry(d.game, **p));
        }
        (*room)->run([](GameRoom& r) { r.activate(); });
        ++loaded;
    }
    logEvent("games_restored", {{"loaded", loaded}, {"failed", failed}});
    return std::nullopt;
}

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

// ---------------------------------------------------------------- matchmaking

Json Hub::seekSummary() const {
    Json out = Json::array();
    for (const Seek& s : seeks_) {
        const Json clock = protocol::clockJson(s.clockInitial, s.clockIncrement);
        bool counted = false;
        for (auto& e : out)
            if (e["preset"] == s.preset && e["clock"] == clock && e["rated"] == s.rated) {
                e["players"] = e["players"].get<int>() + 1;
                counted = true;
            }
        if (!counted)
            out.push_back(
                {{"preset", s.preset}, {"clock", clock}, {"rated", s.rated}, {"players", 1}});
    }
    return out;
}

void Hub::setSeekSummary(Json summary) {
    std::lock_guard lock(lobbyMu_);
    if (summary == seekSummary_) return;
    seekSummary_ = std::move(summary);
    broadcastLobby();
}

void Hub::seek(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
               const protocol::ClientMessage& m) {
    Seek mine{p, c, c.get(), m.preset};
    if (m.clock) {
        mine.clockInitial = m.clock->initial;
        mine.clockIncrement = m.clock->increment;
    }
    mine.rated = m.rated.value_or(true);
    std::optional<Seek> other;
    Json summary;
    {
        std::lock_guard lock(seeksMu_);
        std::erase_if(seeks_, [&](const Seek& s) {  // a new seek replaces the player's last one
            return s.player.id == p.id || s.client.expired();
        });
        for (auto it = seeks_.begin(); it != seeks_.end(); ++it)
            if (it->preset == mine.preset && it->clockInitial == mine.clockInitial &&
                it->clockIncrement == mine.clockIncrement && it->rated == mine.rated) {
                other = std::move(*it);
                seeks_.erase(it);
                break;
            }
        if (!other) seeks_.push_back(mine);
        summary = seekSummary();
    }
    if (!other) {
        setSeekSummary(std::move(summary));
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
    row.status = "setup";
    auto room = launch(row, std::nullopt);
    if (!room) {
        {
            std::lock_guard lock(seeksMu_);
            seeks_.insert(seeks_.begin(), *other);  // it keeps its place
            summary = seekSummary();
        }
        setSeekSummary(std::move(summary));
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return;
    }
    setSeekSummary(std::move(summary));
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    auto matched = [&](int side) {
        return Json{{"type", "matched"}, {"game", row.id}, {"side", side == 0 ? "1" : "2"}}.dump();
    };
    c->send(protocol::renderAck(m.id, row.id));
    c->send(matched(1 - waiting));
    if (auto w = other->client.lock()) w->send(matched(waiting));
}

void Hub::unseek(const Client* c, std::int64_t player) {
    Json summary;
    {
        std::lock_guard lock(seeksMu_);
        const auto before = seeks_.size();
        std::erase_if(seeks_, [&](const Seek& s) {
            return (player ? s.player.id == player : s.key == c) || s.client.expired();
        });
        if (seeks_.size() == before) return;
        summary = seekSummary();
    }
    setSeekSummary(std::move(summary));
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

void Hub::advanceTime(std::int64_t cs) {
    if (auto* manual = dynamic_cast<ManualTime*>(&time_)) manual->advance(cs);
    for (auto& r : rooms())
        r->run([](GameRoom& room) {
            room.checkClock();
            room.checkExpiry();
        });
}

}  // namespace rainet::server
