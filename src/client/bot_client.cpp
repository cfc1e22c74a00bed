// BotClient's life, its handling of the server's messages and the finding of games
// (bot_client.h); the playing is in bot_client_play.cpp.
#include "client/bot_client.h"

#include <iostream>
#include <utility>

namespace rainet::client::bot {

using play::GameFollower;

void log(const std::string& line) {
    std::cout << "bot: " << line << "\n" << std::flush;
}

BotClient::BotClient(boost::asio::io_context& io, BotConfig c,
                     std::unique_ptr<ai::EngineClient> engine)
    : io_(io),
      cfg_(std::move(c)),
      session_(io, cfg_.url, 'b',
               {[this] { onOpen(); }, [this](const Json& m) { onMessage(m); },
                [this](const std::string& why) { return onLost(why); }}),
      engine_(std::move(engine)) {}

BotClient::~BotClient() {
    // The engine thread may be in a call: let it end before the engine goes.
    engineThread_.join();
}

void BotClient::interrupted(int sig) {
    log("interrupted");
    status_ = 128 + sig;
    quit();
}

void BotClient::onOpen() {
    if (!token_.empty()) {
        session_.sendNow({{"type", "hello"}, {"token", token_}});
    } else if (cfg_.registerFirst && !registered_) {
        session_.sendNow({{"type", "hello"}});
    } else {
        sendLogin();
    }
}

void BotClient::sendLogin() {
    session_.sendNow(
        {{"type", "login"}, {"id", "login"}, {"username", cfg_.user}, {"password", cfg_.password}});
}

// Whether to connect again.
bool BotClient::onLost(const std::string& why) {
    joinId_.clear();  // sent again on reconnection if unanswered (pending); found in `games`
    if (quitting_) return false;
    if (!everWelcomed_) {
        std::cerr << "rainet bot: cannot reach " << cfg_.urlText << ": " << why << "\n";
        status_ = 1;
        quit();
        return false;
    }
    log("connection lost (" + why + "); reconnecting");
    return true;
}

void BotClient::onMessage(const Json& j) {
    const std::string type = j.value("type", "");
    if (type == "welcome") return onWelcome(j);
    if (type == "ack") return onAck(j);
    if (type == "error") return onError(j);
    if (type == "lobby") return onLobby(j);
    if (type == "matched") return onMatched(j.value("game", ""));
    if (type == "challenge" && !j.contains("id")) return onChallenge(j.value("challenge", Json()));
    if (type == "snapshot" || type == "event" || type == "presence") return onGame(j);
    if (type == "tournaments") return onTournaments(j);
    if (type == "tournament") return onTournament(j);
}

void BotClient::onWelcome(const Json& j) {
    session_.setWelcomed(true);
    if (const std::string t = j.value("token", ""); !t.empty()) token_ = t;
    const Json& p = j.value("player", Json::object());
    if (cfg_.registerFirst && !registered_ && p.value("kind", "") != "account") {
        session_.sendNow(Json{{"type", "register"},
                              {"id", "register"},
                              {"username", cfg_.user},
                              {"password", cfg_.password},
                              {"bot", true}});
        return;
    }
    identified(p, j.value("games", Json::array()));
}

// The connection speaks for the bot account: go on with the game followed, or find one.
void BotClient::identified(const Json& player, const Json& games) {
    if (!player.value("bot", false)) {
        std::cerr << "rainet bot: '" << cfg_.user
                  << "' is not a bot account (a bot account is registered as one: "
                     "rainet bot --register)\n";
        status_ = 1;
        return quit();
    }
    if (!everWelcomed_) {
        everWelcomed_ = true;
        log("logged in as " + player.value("name", "?") + " (" + player.value("id", "?") + ") on " +
            cfg_.urlText);
        // Unfinished games first (the bot was restarted): resume the first one.
        for (const Json& g : games)
            if (g.value("status", "") != "open") return follow(g.value("game", ""));
        return lookForGame();
    }
    log("reconnected");
    // Pairings go to the connections following a tournament: follow the joined ones again.
    for (const std::string& t : tournaments_)
        send({{"type", "tournament_watch"}, {"tournament", t}});
    if (!game_) {  // a game begun while the connection was down (a join or a pairing)
        for (const Json& g : games) {
            if (g.value("status", "") == "open") continue;
            follow(g.value("game", ""), false);  // watched below
            break;
        }
    }
    if (game_) send(game_->rejoin());
    // Sent again with their ids: applied at most once (docs/protocol.md §8).
    session_.resendPending();
    if (!game_) lookForGame();
}

void BotClient::onAck(const Json& j) {
    const std::string id = idOf(j);
    if (id == "register") {
        registered_ = true;
        log("registered the bot account " + cfg_.user);
        return identified(j.value("player", Json::object()), Json::array());
    }
    answered(id);
    if (id == actId_) actId_.clear();
    if (auto t = tournamentJoins_.find(id); t != tournamentJoins_.end()) {
        log("joined tournament " + t->second);
        tournaments_.insert(t->second);
        tournamentJoins_.erase(t);
        return;
    }
    if (id == joinId_ && !game_) {
        joinId_.clear();
        follow(j.value("game", ""), false);  // the snapshot follows the ack
    }
}

void BotClient::onError(const Json& j) {
    const std::string id = idOf(j), code = j.value("code", "?");
    const std::string what = j.value("message", code) + " (" + code + ")";
    if (id == "register" && code == "username_taken") {
        // Registered before (by an earlier run): log in instead.
        registered_ = true;
        return sendLogin();
    }
    if (id == "login" || id == "register") {
        std::cerr << "rainet bot: " << (id == "login" ? "login" : "registration")
                  << " refused: " << what << "\n";
        status_ = 1;
        return quit();
    }
    if (!id.empty() && id == joinId_) {
        answered(id);
        joinId_.clear();  // taken by someone else meanwhile: wait for the next lobby
        log("could not join: " + what);
        return;
    }
    if (code == "rate_limited" && !id.empty()) return session_.resendLater(id);
    if (auto t = tournamentJoins_.find(id); t != tournamentJoins_.end()) {
        answered(id);
        const std::string tid = t->second;
        tournamentJoins_.erase(t);
        if (code == "already_joined") {  // joined before (an earlier run): its pairings come
            log("joined tournament " + tid);
            tournaments_.insert(tid);
            return;
        }
        log("could not join tournament " + tid + ": " + what);
        // The one tournament asked for cannot be played: nothing else to do.
        if (tid == cfg_.tournament && !cfg_.anyTournament && !cfg_.acceptQuick &&
            !cfg_.acceptChallenges) {
            status_ = 1;
            return quit();
        }
        return;
    }
    log("server refused: " + what);
    answered(id);
    if (!id.empty() && id == actId_) {
        actId_.clear();
        if (code == "illegal_action") return fail("the server refused the engine's action");
        step();  // stale or not our turn: think again on what the server says now
    }
}

// ------------------------------------------------------------ finding games

void BotClient::lookForGame() {
    if (game_ || !session_.isWelcomed()) return;
    if (!nextGame_.empty()) return follow(std::exchange(nextGame_, ""));
    if (!cfg_.tournament.empty() && !tournaments_.count(cfg_.tournament)) {
        bool asked = false;
        for (const auto& [id, t] : tournamentJoins_) asked |= t == cfg_.tournament;
        if (!asked) joinTournament(cfg_.tournament);
    }
    // Any open tournament that admits bots: the list is read again after each game.
    if (cfg_.anyTournament) send({{"type", "tournaments"}, {"id", "tournaments"}});
    if (cfg_.acceptQuick) {
        request(seekMessage(cfg_.seek));
        log("seeking a game");
    }
    if (cfg_.acceptChallenges) {
        send({{"type", "lobby_subscribe"}});
        log("waiting for open games in the lobby");
    }
}

// Joins the oldest open game of the preset the bot plays that it did not create.
void BotClient::onLobby(const Json& j) {
    if (game_ || !joinId_.empty() || !cfg_.acceptChallenges) return;
    for (const Json& g : j.value("games", Json::array())) {
        if (g.value("preset", "") != cfg_.seek.preset) continue;
        if (g.value("creator", Json::object()).value("name", "") == cfg_.user) continue;
        log("joining game " + g.value("game", ""));
        joinId_ = request({{"type", "join"}, {"game", g.value("game", "")}});
        return;
    }
}

// Why the bot's flags refuse a challenge (a decline reason of docs/protocol.md), "" to accept.
std::string BotClient::refusal(const Json& c) const {
    if (game_ || !joinId_.empty()) return "later";  // one game at a time
    if (c.value("preset", "") != cfg_.seek.preset) return "preset";
    if (cfg_.seek.rated && c.value("rated", true) != *cfg_.seek.rated)
        return *cfg_.seek.rated ? "rated" : "casual";
    if (cfg_.seek.initialCs) {
        const Json clock = c.value("clock", Json());
        if (!clock.is_object()) return "timed";
        const int initial = clock.value("initial", 0);
        if (initial < *cfg_.seek.initialCs) return "too_fast";
        if (initial > *cfg_.seek.initialCs) return "too_slow";
    }
    return "";
}

void BotClient::onChallenge(const Json& c) {
    if (!c.is_object() || !cfg_.acceptChallenges) return;
    const std::string id = c.value("id", "");
    const std::string no = refusal(c);
    if (no.empty()) {
        log("accepting challenge " + id + " from " +
            c.value("from", Json::object()).value("name", ""));
        request({{"type", "challenge_accept"}, {"challenge", id}});
        return;
    }
    log("declining challenge " + id + " (" + no + ")");
    request({{"type", "challenge_decline"}, {"challenge", id}, {"reason", no}});
}

void BotClient::onMatched(const std::string& game) {
    if (game.empty()) return;
    // A tournament pairs the bot again as soon as a game ends, perhaps before the bot has seen
    // that end: the new game is followed after it.
    if (game_) {
        if (game != game_->game()) nextGame_ = game;
        return;
    }
    follow(game);
}

void BotClient::joinTournament(const std::string& id) {
    log("joining tournament " + id);
    tournamentJoins_[request({{"type", "tournament_join"}, {"tournament", id}})] = id;
}

void BotClient::onTournaments(const Json& j) {
    if (!cfg_.anyTournament) return;
    for (const Json& t : j.value("tournaments", Json::array())) {
        const std::string id = t.value("id", ""), status = t.value("status", "");
        if (id.empty() || !t.value("bots", false) || tournaments_.count(id)) continue;
        if (status != "created" && status != "running") continue;
        bool asked = false;
        for (const auto& [rid, tid] : tournamentJoins_) asked |= tid == id;
        if (!asked) joinTournament(id);
    }
}

void BotClient::onTournament(const Json& j) {
    const Json info = j.value("tournament", Json::object());
    const std::string id = info.value("id", "");
    if (!tournaments_.count(id) || info.value("status", "") != "finished") return;
    tournaments_.erase(id);
    std::string rank = "unranked";
    for (const Json& e : j.value("standings", Json::array()))
        if (e.value("player", Json::object()).value("name", "") == cfg_.user)
            rank = "rank " + std::to_string(e.value("rank", 0)) + ", " +
                   std::to_string(e.value("points", 0)) + " points";
    log("tournament " + id + " finished: " + rank);
    // Only that tournament was asked for: done.
    if (id == cfg_.tournament && !cfg_.anyTournament && !cfg_.acceptQuick &&
        !cfg_.acceptChallenges) {
        if (!game_) return quit();
        tournamentDone_ = true;  // its last game's end is still to come
    }
}

void BotClient::follow(const std::string& game, bool watch) {
    game_ = std::make_unique<GameFollower>(game);
    setupSent_ = false;
    thinkingV_ = -1;
    drawAnswered_ = false;
    actId_.clear();
    if (cfg_.acceptChallenges) send({{"type", "lobby_unsubscribe"}});
    if (cfg_.acceptQuick) request({{"type", "unseek"}});
    log("playing game " + game);
    if (watch) send({{"type", "watch"}, {"game", game}});
}

void BotClient::quit() {
    if (quitting_) return;
    quitting_ = true;
    session_.stop();
    io_.stop();
}

}  // namespace rainet::client::bot
