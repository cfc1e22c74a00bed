#include "server/tournaments.h"

#include <algorithm>
#include <cmath>

#include "server/game_room.h"
#include "server/hub.h"
#include "server/player_object.h"
#include "store/log.h"
#include "tournament/settings.h"

namespace rainet::server {

using protocol::ErrorCode;
using tournament::EntrantState;
using tournament::GameOutcome;

namespace {

EntrantState stateOf(store::Entrant e) {
    return e == store::Entrant::Paused      ? EntrantState::Paused
           : e == store::Entrant::Withdrawn ? EntrantState::Withdrawn
                                            : EntrantState::Active;
}

const char* stateName(EntrantState s) {
    return s == EntrantState::Paused      ? "paused"
           : s == EntrantState::Withdrawn ? "withdrawn"
                                          : "active";
}

std::optional<GameOutcome> outcomeOf(const std::string& result) {
    if (result == "1-0") return GameOutcome::FirstWins;
    if (result == "0-1") return GameOutcome::SecondWins;
    if (result == "1/2-1/2") return GameOutcome::Draw;
    return std::nullopt;
}

std::string resultOf(std::optional<GameOutcome> o) {
    if (!o) return "aborted";
    return *o == GameOutcome::FirstWins ? "1-0" : *o == GameOutcome::SecondWins ? "0-1" : "1/2-1/2";
}

// The tournament layer's refusal codes and the protocol's error codes.
ErrorCode codeOf(std::string_view why) {
    if (why == "already_joined") return ErrorCode::AlreadyJoined;
    if (why == "not_joined") return ErrorCode::NotJoined;
    if (why == "tournament_over") return ErrorCode::TournamentOver;
    if (why == "tournament_full") return ErrorCode::TournamentFull;
    if (why == "withdrawn") return ErrorCode::Withdrawn;
    return ErrorCode::BadMessage;
}

std::string messageOf(std::string_view why) {
    if (why == "already_joined") return "you have already joined this tournament";
    if (why == "not_joined") return "you are not in this tournament";
    if (why == "tournament_over") return "the tournament is over";
    if (why == "tournament_full") return "the tournament is full";
    if (why == "withdrawn") return "you withdrew from this tournament; you cannot join again";
    if (why == "bad_name") return "'name' must be 1 to 60 characters";
    if (why == "bad_clock") return "the clock is out of range";
    if (why == "bad_start") return "the start is out of range";
    if (why == "bad_duration") return "the length is out of range";
    return std::string(why);
}

// A tournament's id: "t" and the letters and digits of a fresh game id.
std::string tournamentId(IdSource& ids) {
    std::string id = ids.gameId();
    id[0] = 't';
    return id;
}

}  // namespace

Tournaments::Tournaments(Hub& hub, const std::vector<std::string>& schedule) : hub_(hub) {
    for (const auto& spec : schedule)
        if (auto r = tournament::parseRecurringArena(spec)) recurring_.push_back(*r);
}

void Tournaments::schedule(std::int64_t nowMs) {
    for (const tournament::RecurringArena& r : recurring_) {
        const std::int64_t slot = tournament::nextSlot(r, nowMs);
        std::string key = tournament::slotKey(r, slot);
        if (scheduled_.count(key)) continue;
        store::TournamentRow row;
        row.format = "arena";
        row.name = r.name;
        row.schedule = key;
        row.clockInitial = r.initialMs;
        row.clockIncrement = r.incrementMs;
        row.starts = slot;
        row.duration = r.lengthMs;
        row.maxPlayers = tournament::kMaxArenaPlayers;
        row.created = nowMs;
        row.id = tournamentId(hub_.ids());
        if (auto e = hub_.store().insertTournament(row)) {
            // Another node (or this one before a restart) made this slot: the unique key refused
            // it. Read back to tell that from a failing store.
            auto made = hub_.store().listTournaments("created", 10'000);
            bool exists = false;
            if (made)
                for (const auto& m : *made) exists |= m.tournament.schedule == key;
            if (!exists) {
                logEvent("store_error", {{"message", e->message}});
                continue;  // tried again at the next tick
            }
            scheduled_.insert(std::move(key));
            continue;
        }
        scheduled_.insert(std::move(key));
        auto t = std::make_unique<Live>();
        t->row = row;
        t->arena = tournament::Arena(row.starts, row.starts + row.duration);
        live_[row.id] = std::move(t);
        logEvent("tournament_scheduled", {{"tournament", row.id}, {"starts", slot}});
    }
}

Tournaments::Live* Tournaments::find(const std::string& id) {
    if (auto it = live_.find(id); it != live_.end()) return it->second.get();
    // Not in memory: a finished tournament (or one of another node) is read from the store.
    auto d = hub_.store().loadTournament(id);
    if (!d || !*d) return nullptr;
    auto t = std::make_unique<Live>();
    t->row = (*d)->tournament;
    std::vector<tournament::Arena::StoredPlayer> players;
    for (const auto& p : (*d)->players) {
        players.push_back({p.player, static_cast<int>(std::lround(p.rating)), stateOf(p.state)});
        t->people[p.player] = p;
    }
    std::vector<tournament::ArenaGameRecord> games;
    for (const auto& g : (*d)->games) {
        tournament::ArenaGameRecord r;
        r.game = g.game;
        for (int i = 0; i < 2; ++i) {
            r.player[i] = g.player[i];
            r.rating[i] = g.rating[i];
            r.berserk[i] = g.berserk[i];
            r.actions[i] = g.actions[i];
        }
        r.started = g.started;
        r.over = !g.result.empty();
        r.outcome = outcomeOf(g.result);
        r.ended = g.ended;
        games.push_back(std::move(r));
        if (g.result.empty()) games_[g.game] = id;
    }
    t->arena =
        tournament::Arena::rebuild(t->row.starts, t->row.starts + t->row.duration, players, games);
    Live* out = t.get();
    live_[id] = std::move(t);
    return out;
}

std::optional<Error> Tournaments::load() {
    std::lock_guard lock(mu_);
    if (hub_.cluster()) return std::nullopt;  // single nodes only (see create)
    for (const char* status : {"created", "running"}) {
        auto rows = hub_.store().listTournaments(status, 10'000);
        if (!rows) return rows.error();
        for (const auto& r : *rows) {
            find(r.tournament.id);
            if (!r.tournament.schedule.empty()) scheduled_.insert(r.tournament.schedule);
        }
    }
    logEvent("tournaments_loaded", {{"count", live_.size()}});
    return std::nullopt;
}

protocol::TournamentInfo Tournaments::info(const Live& t) const {
    protocol::TournamentInfo i;
    i.id = t.row.id;
    i.name = t.row.name;
    i.format = t.row.format;
    i.status = t.row.status;
    i.preset = t.row.preset == "official" ? protocol::Preset::Official : protocol::Preset::Standard;
    i.clock = {static_cast<int>(t.row.clockInitial / 10),
               static_cast<int>(t.row.clockIncrement / 10), std::nullopt};
    i.rated = t.row.rated;
    i.bots = t.row.bots;
    i.startsAt = t.row.starts;
    i.endsAt = t.row.starts + t.row.duration;
    i.players = static_cast<int>(t.people.size());
    return i;
}

std::string Tournaments::render(const Live& t) const {
    protocol::TournamentMessage m;
    m.tournament = info(t);
    m.now = hub_.time().unixMs();
    for (const tournament::ArenaRank& r : t.arena.standings()) {
        const tournament::ArenaPlayer* a = t.arena.player(r.player);
        auto who = t.people.find(r.player);
        if (!a || who == t.people.end()) continue;
        protocol::StandingEntry e;
        e.rank = r.rank;
        PlayerFacts f;
        f.publicId = who->second.publicId;
        f.name = who->second.name;
        f.kind = who->second.kind;
        f.rating = who->second.rating;
        f.botAccount = who->second.bot;
        e.player = playerObject(f, PlayerPlace::Public);
        e.points = r.points;
        e.performance = r.performance;
        e.games = a->sheet.games();
        e.fire = a->sheet.onFire();
        e.berserks = a->sheet.berserks;
        e.state = stateName(a->state);
        for (const auto& mark : a->sheet.marks) e.sheet.push_back(mark.points);
        if (!a->game.empty()) e.game = a->game;
        m.standings.push_back(std::move(e));
    }
    return protocol::render(m);
}

void Tournaments::push(Live& t) {
    auto text = std::make_shared<const std::string>(render(t));
    for (auto it = t.followers.begin(); it != t.followers.end();) {
        if (auto c = it->second.client.lock()) {
            c->send(text);
            ++it;
        } else {
            if (auto f = followed_.find(it->first); f != followed_.end() && --f->second <= 0)
                followed_.erase(f);
            it = t.followers.erase(it);
        }
    }
}

void Tournaments::refuse(const std::shared_ptr<Client>& c, ErrorCode code, std::string_view message,
                         const protocol::ClientMessage& m) {
    hub_.metrics().error(code);
    c->send(protocol::renderError(code, message, m.id));
}

void Tournaments::create(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                         const protocol::ClientMessage& m) {
    std::lock_guard lock(mu_);
    // One node runs an arena: across nodes it needs a lease, as games have (not yet done), or
    // two nodes would pair the same players.
    if (hub_.cluster())
        return refuse(c, ErrorCode::Busy, "tournaments are not available on a cluster yet", m);
    if (p.kind != "account")
        return refuse(c, ErrorCode::NotAuthenticated, "log in to an account to create a tournament",
                      m);
    auto open = hub_.store().openTournamentsBy(p.id);
    if (!open) return refuse(c, ErrorCode::Internal, "the store could not be read", m);
    if (*open >= tournament::kMaxOpenPerAccount)
        return refuse(c, ErrorCode::TooManyTournaments,
                      "you have 3 tournaments not yet finished; wait for one to end", m);
    const std::int64_t now = hub_.time().unixMs();
    tournament::Settings s;
    s.name = m.name;
    s.initialMs = m.clock ? std::int64_t{m.clock->initial} * 10 : 0;
    s.incrementMs = m.clock ? std::int64_t{m.clock->increment} * 10 : 0;
    s.startsMs = now + m.startsIn * 1000;
    s.durationMs = std::int64_t{m.minutes} * 60'000;
    s.maxPlayers = tournament::kMaxArenaPlayers;
    if (auto why = tournament::settingsRefusal(s, now))
        return refuse(c, ErrorCode::BadMessage, messageOf(*why), m);
    store::TournamentRow row;
    row.format = "arena";
    row.name = s.name;
    row.creator = p.id;
    row.preset = m.preset;
    row.clockInitial = s.initialMs;
    row.clockIncrement = s.incrementMs;
    row.rated = m.rated.value_or(true);
    row.bots = m.bots;
    row.starts = s.startsMs;
    row.duration = s.durationMs;
    row.maxPlayers = s.maxPlayers;
    row.created = now;
    std::optional<Error> e;
    for (int attempt = 0; attempt < 100; ++attempt) {  // a new id may collide: draw again
        row.id = tournamentId(hub_.ids());
        if (!(e = hub_.store().insertTournament(row))) break;
    }
    if (e) {
        logEvent("store_error", {{"message", e->message}});
        return refuse(c, ErrorCode::Internal, "the tournament could not be stored", m);
    }
    auto t = std::make_unique<Live>();
    t->row = row;
    t->arena = tournament::Arena(row.starts, row.starts + row.duration);
    live_[row.id] = std::move(t);
    logEvent("tournament_created", {{"tournament", row.id}, {"creator", p.publicId}});
    c->send(protocol::render(protocol::Ack{m.id, {}, std::nullopt, std::nullopt, row.id}));
}

void Tournaments::join(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                       const protocol::ClientMessage& m) {
    std::lock_guard lock(mu_);
    if (hub_.cluster())
        return refuse(c, ErrorCode::Busy, "tournaments are not available on a cluster yet", m);
    Live* t = find(m.tournament);
    if (!t) return refuse(c, ErrorCode::UnknownTournament, "no tournament has this id", m);
    if (p.bot && !t->row.bots)
        return refuse(c, ErrorCode::BadMessage, "this tournament admits no bot accounts", m);
    const std::int64_t now = hub_.time().unixMs();
    if (t->row.status == "finished")
        return refuse(c, ErrorCode::TournamentOver, messageOf("tournament_over"), m);
    if (auto why = t->arena.joinRefusal(p.id, now, t->row.maxPlayers))
        return refuse(c, codeOf(*why), messageOf(*why), m);
    const bool known = t->people.count(p.id) > 0;
    auto stored =
        hub_.store().joinTournament(t->row.id, p.id, now, static_cast<int>(t->people.size()));
    if (!stored) return refuse(c, ErrorCode::Internal, "the join could not be stored", m);
    if (!*stored) return refuse(c, ErrorCode::Withdrawn, messageOf("withdrawn"), m);
    const int rating = static_cast<int>(std::lround(p.rating));
    (void)t->arena.join(p.id, rating, now, t->row.maxPlayers);
    if (!known) {
        store::TournamentPlayerRow row;
        row.player = p.id;
        row.joined = now;
        row.publicId = p.publicId;
        row.name = p.name;
        row.kind = p.kind;
        row.rating = p.rating;
        row.bot = p.bot;
        t->people[p.id] = row;
    }
    // The joiner follows the tournament: told of its pairings.
    if (t->followers.size() < kMaxFollowers && !t->followers.count(c.get())) {
        t->followers[c.get()] = {c, p.id};
        ++followed_[c.get()];
    } else if (auto f = t->followers.find(c.get()); f != t->followers.end()) {
        f->second.player = p.id;
    }
    c->send(protocol::render(protocol::Ack{m.id, {}, std::nullopt, std::nullopt, t->row.id}));
    if (t->row.status == "running") pairNow(*t);
    push(*t);
}

void Tournaments::pause(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                        const protocol::ClientMessage& m) {
    std::lock_guard lock(mu_);
    Live* t = find(m.tournament);
    if (!t) return refuse(c, ErrorCode::UnknownTournament, "no tournament has this id", m);
    const std::int64_t now = hub_.time().unixMs();
    const tournament::ArenaPlayer* a = t->arena.player(p.id);
    if (!a || a->state == EntrantState::Withdrawn)
        return refuse(c, ErrorCode::NotJoined, messageOf("not_joined"), m);
    if (t->arena.over(now))
        return refuse(c, ErrorCode::TournamentOver, messageOf("tournament_over"), m);
    if (auto e = hub_.store().setEntrant(t->row.id, p.id, store::Entrant::Paused))
        return refuse(c, ErrorCode::Internal, "the pause could not be stored", m);
    (void)t->arena.pause(p.id, now);
    c->send(protocol::render(protocol::Ack{m.id, {}, std::nullopt, std::nullopt, t->row.id}));
    push(*t);
}

void Tournaments::withdraw(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                           const protocol::ClientMessage& m) {
    std::lock_guard lock(mu_);
    Live* t = find(m.tournament);
    if (!t) return refuse(c, ErrorCode::UnknownTournament, "no tournament has this id", m);
    const tournament::ArenaPlayer* a = t->arena.player(p.id);
    if (!a || a->state == EntrantState::Withdrawn)
        return refuse(c, ErrorCode::NotJoined, messageOf("not_joined"), m);
    if (auto e = hub_.store().setEntrant(t->row.id, p.id, store::Entrant::Withdrawn))
        return refuse(c, ErrorCode::Internal, "the withdrawal could not be stored", m);
    (void)t->arena.withdraw(p.id);
    if (auto pp = t->people.find(p.id); pp != t->people.end())
        pp->second.state = store::Entrant::Withdrawn;
    c->send(protocol::render(protocol::Ack{m.id, {}, std::nullopt, std::nullopt, t->row.id}));
    push(*t);
}

void Tournaments::watch(const std::shared_ptr<Client>& c, std::int64_t player,
                        const protocol::ClientMessage& m) {
    std::lock_guard lock(mu_);
    Live* t = find(m.tournament);
    if (!t) return refuse(c, ErrorCode::UnknownTournament, "no tournament has this id", m);
    if (!t->followers.count(c.get())) {
        if (t->followers.size() >= kMaxFollowers)
            return refuse(c, ErrorCode::Busy, "this tournament has too many followers", m);
        if (followed_[c.get()] >= static_cast<int>(kMaxFollowedPerConnection))
            return refuse(c, ErrorCode::BadMessage,
                          "too many tournaments followed on one connection; unwatch some", m);
        ++followed_[c.get()];
    }
    t->followers[c.get()] = {c, player};
    c->send(render(*t));
}

void Tournaments::unwatch(const Client* c, const std::string& id) {
    std::lock_guard lock(mu_);
    for (auto& [tid, t] : live_) {
        if (!id.empty() && tid != id) continue;
        if (t->followers.erase(c)) {
            if (auto f = followed_.find(c); f != followed_.end() && --f->second <= 0)
                followed_.erase(f);
        }
    }
}

void Tournaments::list(const std::shared_ptr<Client>& c, const protocol::ClientMessage& m) {
    protocol::TournamentsMessage out;
    out.id = m.id.is_null() ? std::nullopt : std::optional(m.id);
    for (const char* status : {"running", "created", "finished"}) {
        auto rows = hub_.store().listTournaments(status, kListed);
        if (!rows) return refuse(c, ErrorCode::Internal, "the store could not be read", m);
        for (const auto& r : *rows) {
            Live l;
            l.row = r.tournament;
            protocol::TournamentInfo i = info(l);
            i.players = r.players;
            out.tournaments.push_back(std::move(i));
        }
    }
    c->send(protocol::render(out));
}

std::optional<std::string> Tournaments::berserk(const std::string& game, std::int64_t player,
                                                int ownActions) {
    std::lock_guard lock(mu_);
    auto g = games_.find(game);
    if (g == games_.end()) return std::string("not_tournament");
    Live* t = find(g->second);
    if (!t) return std::string("not_tournament");
    if (auto why = t->arena.berserk(game, player, ownActions)) return std::string(*why);
    // Stored at once, so that a restart keeps it.
    const tournament::ArenaGameRecord* r = t->arena.game(game);
    store::TournamentGameRow row;
    row.game = game;
    for (int i = 0; i < 2; ++i) {
        row.berserk[i] = r->berserk[i];
        row.actions[i] = r->actions[i];
    }
    if (auto e = hub_.store().finishTournamentGame(row))
        logEvent("store_error", {{"game", game}, {"message", e->message}});
    push(*t);
    return std::nullopt;
}

bool Tournaments::isTournamentGame(const std::string& game) {
    std::lock_guard lock(mu_);
    return games_.count(game) > 0;
}

void Tournaments::gameEnded(const store::GameRow& row, const int actions[2]) {
    std::lock_guard lock(mu_);
    auto g = games_.find(row.id);
    if (g == games_.end()) return;
    Live* t = find(g->second);
    games_.erase(g);
    if (!t) return;
    const auto outcome = outcomeOf(row.result);
    const std::int64_t now = hub_.time().unixMs();
    if (!t->arena.gameEnded(row.id, outcome, actions, now)) return;
    const tournament::ArenaGameRecord* r = t->arena.game(row.id);
    store::TournamentGameRow stored;
    stored.game = row.id;
    for (int i = 0; i < 2; ++i) {
        stored.berserk[i] = r->berserk[i];
        stored.actions[i] = actions[i];
    }
    stored.result = resultOf(outcome);
    stored.ended = now;
    if (auto e = hub_.store().finishTournamentGame(stored))
        logEvent("store_error", {{"game", row.id}, {"message", e->message}});
    if (t->row.status == "running") pairNow(*t);
    if (t->arena.finished(now) && t->row.status == "running") return finishArena(*t);
    push(*t);
}

void Tournaments::startArena(Live& t) {
    if (auto e = hub_.store().updateTournamentStatus(t.row.id, "running", 0)) {
        logEvent("store_error", {{"tournament", t.row.id}, {"message", e->message}});
        return;  // tried again at the next tick
    }
    t.row.status = "running";
    logEvent("tournament_started", {{"tournament", t.row.id}, {"players", t.people.size()}});
    // Everyone joined and not withdrawn is told, in their inbox and on every connection.
    for (const auto& [player, who] : t.people) {
        const tournament::ArenaPlayer* a = t.arena.player(player);
        if (!a || a->state == EntrantState::Withdrawn) continue;
        hub_.notify(player, "tournament_starting",
                    {{"tournament", t.row.id}, {"name", t.row.name}, {"startsAt", t.row.starts}});
    }
    pairNow(t);
    push(t);
}

void Tournaments::pairNow(Live& t) {
    const std::int64_t now = hub_.time().unixMs();
    for (const tournament::Pairing& p : t.arena.pairings(now)) {
        store::GameRow row;
        row.preset = t.row.preset;
        row.clockInitial = static_cast<int>(t.row.clockInitial / 10);
        row.clockIncrement = static_cast<int>(t.row.clockIncrement / 10);
        row.clock[0] = row.clock[1] = row.clockInitial;
        row.opponent = "match";  // paired by the server; never listed
        row.rated = t.row.rated;
        row.creator = p.first;
        row.sideWish = "1";
        row.player[0] = p.first;
        row.player[1] = p.second;
        row.status = GameStatus::Setup;
        auto room = hub_.launchTournamentGame(row, {t.row.id, t.row.name});
        if (!room) continue;  // logged; the two stay free and are paired at the next tick
        store::TournamentGameRow tg;
        tg.game = row.id;
        tg.player[0] = p.first;
        tg.player[1] = p.second;
        tg.rating[0] = t.arena.player(p.first)->rating;
        tg.rating[1] = t.arena.player(p.second)->rating;
        tg.started = now;
        if (auto e = hub_.store().addTournamentGame(t.row.id, tg))
            logEvent("store_error", {{"game", row.id}, {"message", e->message}});
        t.arena.gameStarted(row.id, p, now);
        games_[row.id] = t.row.id;
        for (auto& [key, f] : t.followers) {
            const int side = f.player == p.first ? 0 : f.player == p.second ? 1 : -1;
            if (side < 0) continue;
            if (auto c = f.client.lock())
                c->send(protocol::render(
                    protocol::MatchedMessage{row.id, side == 0 ? Side::One : Side::Two}));
        }
    }
}

void Tournaments::finishArena(Live& t) {
    const std::int64_t now = hub_.time().unixMs();
    if (auto e = hub_.store().updateTournamentStatus(t.row.id, "finished", now)) {
        logEvent("store_error", {{"tournament", t.row.id}, {"message", e->message}});
        return;  // tried again at the next tick
    }
    t.row.status = "finished";
    t.row.ended = now;
    logEvent("tournament_finished", {{"tournament", t.row.id}});
    // Everyone in the standings is told their rank, except who withdrew before playing a game.
    for (const tournament::ArenaRank& r : t.arena.standings()) {
        const tournament::ArenaPlayer* a = t.arena.player(r.player);
        if (!a || (a->state == EntrantState::Withdrawn && a->sheet.games() == 0)) continue;
        hub_.notify(r.player, "tournament_ended",
                    {{"tournament", t.row.id}, {"name", t.row.name}, {"rank", r.rank}});
    }
    push(t);
}

void Tournaments::tick() {
    std::lock_guard lock(mu_);
    if (hub_.cluster()) return;  // single nodes only (see create)
    const std::int64_t now = hub_.time().unixMs();
    schedule(now);
    for (auto it = live_.begin(); it != live_.end();) {
        Live& t = *it->second;
        if (t.row.status == "created" && now >= t.row.starts) startArena(t);
        if (t.row.status == "running") {
            if (t.arena.finished(now))
                finishArena(t);
            else if (!t.arena.over(now))
                pairNow(t);
        }
        // A finished tournament stays in memory only while someone follows it.
        if (t.row.status == "finished" && t.followers.empty())
            it = live_.erase(it);
        else
            ++it;
    }
}

}  // namespace rainet::server
