// PlayClient's life and its handling of the server's messages (play_client.h); the commands typed
// are in play_client_commands.cpp.
#include "client/play_client.h"

#include <ctime>
#include <iostream>

#include "client/play_render.h"
#include "client/token_file.h"

namespace rainet::client::play {

namespace {

// A deadline (unix ms) as "2026-12-10 14:03 UTC".
std::string utcTime(std::int64_t ms) {
    const std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

}  // namespace

PlayClient::PlayClient(boost::asio::io_context& io, ClientConfig c)
    : io_(io),
      cfg_(std::move(c)),
      session_(io, cfg_.url, 't',
               {[this] { onOpen(); }, [this](const Json& m) { onMessage(m); },
                [this](const std::string& why) { return onLost(why); }}) {
    token_ = readToken(cfg_.tokenFile);
}

PlayClient::~PlayClient() {
    echoOn();
}

void PlayClient::start() {
    if (!cfg_.firstLine.empty()) lines_.push_back(cfg_.firstLine);
    if (!cfg_.startLine.empty()) lines_.push_back(cfg_.startLine);
    session_.connect();
}

void PlayClient::onLine(std::string line) {
    promptShown_ = false;  // the line typed ended with a newline
    // `quit` is obeyed at once, even while an answer is awaited (but a password is a password).
    auto in = parseInput(line);
    if (in && in->kind == Input::Kind::Quit && !passwordNext()) return quit();
    lines_.push_back(std::move(line));
    pump();
}

void PlayClient::onEof() {
    eof_ = true;
    pump();
}

void PlayClient::interrupted(int sig) {
    status_ = 128 + sig;
    quit();
}

void PlayClient::onOpen() {
    Json hello{{"type", "hello"}};
    if (!token_.empty()) hello["token"] = token_;
    if (!cfg_.name.empty()) hello["name"] = cfg_.name;
    session_.sendNow(hello);
}

// Whether to connect again.
bool PlayClient::onLost(const std::string& why) {
    if (quitting_) return false;
    if (!everWelcomed_) {
        std::cerr << "rainet play: cannot reach " << cfg_.urlText << ": " << why << "\n";
        status_ = 1;
        quit();
        return false;
    }
    if (!lost_) say("connection lost (" + why + "); reconnecting...");
    lost_ = true;
    return true;
}

void PlayClient::onMessage(const Json& j) {
    const std::string type = j.value("type", "");
    if (type == "welcome") return onWelcome(j);
    if (type == "ack") return onAck(j);
    if (type == "error") return onError(j);
    if (type == "lobby") return onLobby(j);
    if (type == "snapshot" || type == "event" || type == "presence") return onGame(j);
    if (type == "chat") return onChat(j);
    if (type == "matched") return onMatched(j.value("game", ""), j.value("side", ""));
    if (type == "challenge" || type == "challenge_update" || type == "challenges" ||
        type == "notification" || type == "notifications" || type == "my_games")
        return onSocial(j);
    if (type == "tournaments" || type == "tournament" || type == "berserk") return onTournament(j);
}

void PlayClient::onSocial(const Json& j) {
    const std::string type = j.value("type", "");
    const std::string id = idOf(j);
    if (!id.empty()) takePending(id);
    const bool awaited = !id.empty() && gate_ == Gate::Ack && gateId_ == id;
    auto challengeText = [](const Json& c) {
        const Json clock = c.value("clock", Json());
        return c.value("id", "") + " (" +
               describeKind(c.value("preset", ""), clock, Json(c.value("rated", false))) + ")";
    };
    if (type == "challenge") {
        const Json c = j.value("challenge", Json::object());
        if (!id.empty())
            say("challenged " + c["to"].value("name", "?") + ": " + challengeText(c) +
                "; waiting for an answer");
        else
            say("challenge " + challengeText(c) + " from " + c["from"].value("name", "?") +
                ": challenge-accept " + c.value("id", "") + " or challenge-decline " +
                c.value("id", "") + " [REASON]");
    } else if (type == "challenge_update") {
        std::string line = "challenge " + j.value("challenge", "") + " " + j.value("status", "");
        if (j.contains("reason")) line += " (" + j.value("reason", "") + ")";
        say(line);
    } else if (type == "challenges") {
        std::string text = "challenges received:";
        for (const auto& c : j.value("received", Json::array()))
            text += "\n  " + challengeText(c) + " from " + c["from"].value("name", "?");
        text += "\nchallenges sent:";
        for (const auto& c : j.value("sent", Json::array()))
            text += "\n  " + challengeText(c) + " to " + c["to"].value("name", "?");
        say(text);
    } else if (type == "notification") {
        const Json n = j.value("n", Json::object());
        say("notification: " + n.value("kind", "") + " " + n.value("data", Json::object()).dump());
    } else if (type == "my_games") {
        std::string text = "correspondence games:";
        const Json games = j.value("games", Json::array());
        if (games.empty()) text += " none";
        for (const auto& g : games)
            text += "\n  " + g.value("game", "") + " vs " +
                    g.value("opponent", Json::object()).value("name", "?") + " (" +
                    std::to_string(g.value("days", 0)) + " days per move): " +
                    (g.value("yourTurn", false) ? "your move" : "their move") + ", due " +
                    utcTime(g.value("deadline", std::int64_t{0}));
        say(text);
    } else if (type == "notifications") {
        std::string text = "notifications (" + std::to_string(j.value("unread", 0)) + " unread):";
        for (const auto& n : j.value("items", Json::array()))
            text += std::string("\n  ") + (n.value("read", true) ? "  " : "* ") +
                    n.value("kind", "") + " " + n.value("data", Json::object()).dump();
        say(text);
    }
    if (awaited) open();
}

// Tournaments: the list, a followed tournament's start and end (its standings then), a
// berserk in the game shown.
void PlayClient::onTournament(const Json& j) {
    const std::string type = j.value("type", "");
    const std::string id = idOf(j);
    if (!id.empty()) takePending(id);
    const bool awaited = !id.empty() && gate_ == Gate::Ack && gateId_ == id;
    auto line = [](const Json& t) {
        return t.value("id", "") + "  " + t.value("name", "") + "  " + t.value("format", "") + " " +
               describeKind(t.value("preset", ""), t.value("clock", Json()),
                            Json(t.value("rated", false))) +
               "  " + t.value("status", "") + ", " + std::to_string(t.value("players", 0)) +
               " players" + (t.value("bots", false) ? ", bots admitted" : "");
    };
    if (type == "tournaments") {
        std::string text = "tournaments:";
        for (const auto& t : j.value("tournaments", Json::array())) text += "\n  " + line(t);
        if (j.value("tournaments", Json::array()).empty()) text += " none";
        say(text);
    } else if (type == "tournament") {
        // Pushed on every change: only its status changes are written.
        const Json t = j.value("tournament", Json::object());
        const std::string status = t.value("status", "");
        std::string& last = tournamentStatus_[t.value("id", "")];
        if (status == last) return;
        last = status;
        std::string text = "tournament " + line(t);
        if (status == "finished")
            for (const auto& e : j.value("standings", Json::array()))
                text += "\n  " + std::to_string(e.value("rank", 0)) + ". " +
                        e.value("player", Json::object()).value("name", "?") + "  " +
                        std::to_string(e.value("points", 0)) + " points";
        say(text);
    } else if (type == "berserk") {
        if (game_ && j.value("game", "") == game_->game())
            say("side " + j.value("side", "") + " berserked: half the clock, no increment");
    }
    if (awaited) open();
}

// Removes the request `id` from those awaiting an answer; returns its type ("" if none).
std::string PlayClient::takePending(const std::string& id) {
    const Json m = session_.answered(id);
    return m.is_object() ? m.value("type", "") : "";
}

void PlayClient::setPlayer(const Json& p) {
    if (!p.is_object()) return;
    player_.id = p.value("id", player_.id);
    player_.name = p.value("name", player_.name);
    player_.kind = p.value("kind", player_.kind);
    if (p.contains("rating") && p["rating"].is_number())
        player_.rating = static_cast<int>(p["rating"].get<double>());
}

std::string PlayClient::whoText() const {
    std::string t = player_.name + " (" + player_.id + "), " +
                    (player_.kind.empty() ? std::string("guest") : player_.kind);
    if (player_.rating) t.append(", rating ").append(std::to_string(*player_.rating));
    return t;
}

void PlayClient::onWelcome(const Json& j) {
    session_.setWelcomed(true);
    const std::string token = j.value("token", "");
    if (!token.empty() && token != token_) {
        token_ = token;
        if (auto e = writeToken(cfg_.tokenFile, token_)) say("warning: " + e->message);
    }
    const Json& p = j.value("player", Json::object());
    setPlayer(p);
    if (const std::string id = idOf(j); !id.empty() && takePending(id) == "login")
        return onLoggedIn(id);
    if (relogging_) {  // the hello after a logout
        relogging_ = false;
        say("you are now a new guest: " + whoText());
        if (gate_ == Gate::Welcome) open();
        return;
    }
    if (!everWelcomed_) {
        everWelcomed_ = true;
        say("connected to " + cfg_.urlText + " as " + p.value("name", "?") + " (" +
            p.value("id", "?") + ")");
        if (cfg_.startLine.empty())
            for (const Json& g : j.value("games", Json::array()))
                say("your game " + g.value("game", "") + ": side " + g.value("side", "") + ", " +
                    g.value("status", "") + " (watch " + g.value("game", "") + " to go on)");
        return pump();
    }
    say("reconnected");
    lost_ = false;
    if (game_) send(game_->rejoin());
    session_.resendPending();
    if (gate_ == Gate::Lobby) open();
}

// A login replaced the connection's identity: it follows nothing now (protocol §4, login), so
// the game shown is watched again, in the role the account has in it.
void PlayClient::onLoggedIn(const std::string& id) {
    say("logged in as " + whoText());
    const bool awaited = gate_ == Gate::Ack && gateId_ == id;
    if (game_) {
        send({{"type", "watch"}, {"game", game_->game()}});
        if (awaited) return setGate(Gate::Snapshot, game_->game());
    }
    if (awaited) open();
}

void PlayClient::onAck(const Json& j) {
    const std::string id = idOf(j);
    const std::string kind = takePending(id);
    const bool awaited = gate_ == Gate::Ack && gateId_ == id;
    if (kind == "register") {
        setPlayer(j.value("player", Json::object()));
        say("registered: you are now the account " + whoText());
    } else if (kind == "rename") {
        setPlayer(j.value("player", Json::object()));
        say("your name is now " + player_.name + " (in the games you create or join from now)");
    } else if (kind == "unseek") {
        seeking_ = false;
        say("no longer seeking");
    } else if (kind == "logout") {
        // The token is revoked: forget it and say hello again as a new guest.
        say("logged out (the token here is forgotten)");
        token_.clear();
        session_.setWelcomed(false);
        relogging_ = true;
        seeking_ = false;
        game_.reset();
        previous_.reset();
        lastChat_.reset();
        Json hello{{"type", "hello"}};
        if (!cfg_.name.empty()) hello["name"] = cfg_.name;
        session_.sendNow(hello);
        if (awaited) setGate(Gate::Welcome);
        return;
    } else if (kind == "seek") {
        if (j.contains("game")) return;  // paired at once: `matched` follows
        seeking_ = true;
        say("seeking " + seekText_ + ": waiting for an opponent (unseek to stop)");
    }
    if (kind == "create") {
        const std::string g = j.value("game", "");
        follow(g);
        say("created game " + g);
        if (gate_ == Gate::Ack && gateId_ == id) setGate(Gate::Snapshot, g);
        return;
    }
    if (kind == "join") say("joined game " + j.value("game", ""));
    if (kind == "tournament_join")
        say("joined tournament " + j.value("tournament", "") +
            ": each game it pairs you in is followed at once");
    if (kind == "tournament_withdraw") say("withdrew from tournament " + j.value("tournament", ""));
    if (gate_ != Gate::Ack || gateId_ != id) return;
    if (kind == "join") return setGate(Gate::Snapshot, j.value("game", ""));
    const long v = j.contains("v") && j["v"].is_number_integer() ? j["v"].get<long>() : -1;
    if (game_ && j.value("game", "") == game_->game() && game_->state().v < v) {
        gateVersion_ = v;
        return setGate(Gate::Version);
    }
    open();
}

void PlayClient::onError(const Json& j) {
    const std::string id = idOf(j);
    const std::string game = j.value("game", "");
    if (!id.empty()) session_.answered(id);
    say("error: " + j.value("message", j.value("code", "?")) + " (" + j.value("code", "?") + ")");
    // A game that could not be watched or joined is not followed: back to the one before.
    if (game_ && game_->game() == game && game_->state().v < 0) game_ = std::move(previous_);
    if ((gate_ == Gate::Ack && !id.empty() && gateId_ == id) ||
        (gate_ == Gate::Snapshot && (game == gateId_ || id.empty())))
        open();
}

void PlayClient::onLobby(const Json& j) {
    clearPrompt();
    std::cout << renderLobby(j) << std::flush;
    send({{"type", "lobby_unsubscribe"}});
    if (gate_ == Gate::Lobby) open();
}

// A chat line of the game shown (other games' lines are not followed).
void PlayClient::onChat(const Json& j) {
    if (!game_ || j.value("game", "") != game_->game()) return;
    const ChatLine c = chatLineOf(j);
    say(renderChat(c));
    lastChat_ = c;
}

// A seek was paired: follow the new game (its snapshot comes after `watch`).
void PlayClient::onMatched(const std::string& game, const std::string& side) {
    if (game.empty()) return;
    seeking_ = false;
    say("matched: game " + game + ", you are side " + side + " (following it)");
    follow(game);
    send({{"type", "watch"}, {"game", game}});
    if (gate_ == Gate::None || (gate_ == Gate::Ack && gateId_ == seekId_))
        setGate(Gate::Snapshot, game);
}

void PlayClient::onGame(const Json& j) {
    if (!game_) return;
    const auto outcome = game_->take(j);
    if (outcome == GameFollower::Outcome::Gap) {
        send({{"type", "resume"}, {"game", game_->game()}, {"v", game_->state().v}});
        return;
    }
    if (outcome != GameFollower::Outcome::Applied) return;
    const GameState& s = game_->state();
    const std::string type = j.value("type", "");
    std::string rematch;  // a new game to follow
    if (type == "presence") {
        const std::string side = j.value("side", "");
        if (side != s.you)
            say("side " + side + (j.value("connected", false) ? " is back" : " went away"));
    } else if (type == "snapshot") {
        show();
        // The chat of this room not shown yet: the last lines at first, then what was missed.
        for (const ChatLine& c : unseenChat(s.chat, lastChat_, kChatShown)) say(renderChat(c));
        if (!s.chat.empty()) lastChat_ = s.chat.back();
        if (previous_) {  // the game shown before is left once the new one is there
            send({{"type", "leave"}, {"game", previous_->game()}});
            previous_.reset();
        }
        if (gate_ == Gate::Snapshot && gateId_ == s.game) setGate(Gate::None);
        if (cfg_.autoJoin && s.game == autoJoinGame_ && s.you == "spectator" &&
            s.status == "open") {
            autoJoinGame_.clear();
            request({{"type", "join"}, {"game", s.game}});
        }
    } else {
        const std::string kind = j.value("kind", "");
        if (auto line = describeEvent(j, s); !line.empty()) say(line);
        if (kind == "start" || kind == "action" || kind == "end") show();
        if (kind == "end" && s.isPlayer() && s.ending)
            if (const auto& r = s.ending->ratings[s.you == "2" ? 1 : 0]) player_.rating = r->after;
        if (kind == "rematch" && s.isPlayer() && !s.nextGame.empty()) rematch = s.nextGame;
    }
    if (gate_ == Gate::Version && s.v >= gateVersion_) setGate(Gate::None);
    if (!rematch.empty()) {
        say("following the rematch " + rematch);
        follow(rematch);
        send({{"type", "watch"}, {"game", rematch}});
        if (gate_ == Gate::None) setGate(Gate::Snapshot, rematch);
    }
    if (gate_ == Gate::None)
        pump();
    else
        checkTurnGate();
}

void PlayClient::say(const std::string& line) {
    clearPrompt();
    std::cout << line << "\n" << std::flush;
}

void PlayClient::show() {
    clearPrompt();
    RenderOptions o;
    o.color = cfg_.color;
    std::cout << "\n" << renderGame(game_->state(), o) << std::flush;
}

void PlayClient::prompt() {
    if (!cfg_.interactive || promptShown_ || pendingAuth_) return;
    std::cout << "> " << std::flush;
    promptShown_ = true;
}
// Output that arrives while the prompt waits is written over it (it is shown again after).
void PlayClient::clearPrompt() {
    if (promptShown_) std::cout << "\r";
    promptShown_ = false;
}

void PlayClient::quit() {
    if (quitting_) return;
    quitting_ = true;
    echoOn();
    session_.stop();
    io_.stop();
}

}  // namespace rainet::client::play
