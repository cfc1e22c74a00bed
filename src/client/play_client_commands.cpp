// PlayClient's commands (play_client.h): the queued lines run in order, each held back while the
// one before waits for the server.
#include "client/play_client.h"

#include <unistd.h>
#include <algorithm>
#include <iostream>

#include "client/play_render.h"

namespace rainet::client::play {

// Runs queued lines until one must wait for the server.
void PlayClient::pump() {
    while (gate_ == Gate::None && !quitting_) {
        if (!everWelcomed_) return;
        if (pendingAuth_) {  // the line after register/login is the password
            if (lines_.empty()) {
                if (!eof_) return;
                pendingAuth_.reset();
                echoOn();
                say("no password given: nothing sent");
                continue;
            }
            std::string password = std::move(lines_.front());
            lines_.pop_front();
            echoOn();
            if (password.empty())
                say("no password given: nothing sent");
            else
                sendAuth(*pendingAuth_, std::move(password));
            pendingAuth_.reset();
            continue;
        }
        if (lines_.empty()) {
            if (eof_)
                quit();
            else
                prompt();
            return;
        }
        std::string line = std::move(lines_.front());
        lines_.pop_front();
        auto in = parseInput(line);
        if (!in)
            say(in.error().message);
        else
            execute(*in);
    }
}

void PlayClient::execute(const Input& in) {
    using K = Input::Kind;
    const GameState* s = game_ ? &game_->state() : nullptr;
    switch (in.kind) {
        case K::Empty:
            return;
        case K::Help:
            std::cout << helpText() << std::flush;
            return;
        case K::Quit:
            return quit();
        case K::Lobby:
            if (!session_.isWelcomed()) return say("not connected: try again in a moment");
            send({{"type", "lobby_subscribe"}});
            return setGate(Gate::Lobby);
        case K::New:
            return create(in.game);
        case K::Join: {
            std::string g = in.gameId.empty() && s ? s->game : in.gameId;
            if (g.empty()) return say("join which game? join GAME");
            if (!s || s->game != g) follow(g);
            request({{"type", "join"}, {"game", g}});
            return;
        }
        case K::Watch:
            follow(in.gameId);
            if (session_.isWelcomed()) send({{"type", "watch"}, {"game", in.gameId}});
            return setGate(Gate::Snapshot, in.gameId);
        case K::Board:
            if (!s || s->v < 0) return say("no game shown: new, join GAME or watch GAME");
            return show();
        case K::History:
            if (!s || s->v < 0) return say("no game shown");
            std::cout << renderHistory(*s) << std::flush;
            return;
        case K::Legal:
            if (!s || !s->myTurn()) return say("no legal actions: it is not your turn to act");
            std::cout << renderLegal(*s) << std::flush;
            return;
        case K::Wait:
            setGate(Gate::Turn);
            return checkTurnGate();
        case K::Whoami:
            return say("you are " + whoText());
        case K::Register:
        case K::Login:
            if (in.kind == K::Register && player_.kind == "account")
                return say("you already are the account " + player_.name +
                           " (logout, then register another)");
            pendingAuth_ = in;
            if (cfg_.interactive) {
                echoOff();
                clearPrompt();
                std::cout << "password for " << in.username << ": " << std::flush;
                promptShown_ = true;
            }
            return;
        case K::Logout:
            withdrawSeek();
            return request({{"type", "logout"}});
        case K::Rename:
            return request({{"type", "rename"}, {"name", in.text}});
        case K::Seek: {
            Json m = seekMessage(in.seek);
            seekText_ =
                describeKind(in.seek.preset, m["clock"], Json(in.seek.rated.value_or(true)));
            request(std::move(m));
            seekId_ = gateId_;
            return;
        }
        case K::Unseek:
            return request({{"type", "unseek"}});
        case K::Challenge: {
            Json m = seekMessage(in.seek);
            m["type"] = "challenge";
            m["username"] = in.username;
            m["side"] = in.game.side;
            return request(std::move(m));
        }
        case K::ChallengeAccept:
            return request({{"type", "challenge_accept"}, {"challenge", in.gameId}});
        case K::ChallengeDecline:
            return request(
                {{"type", "challenge_decline"}, {"challenge", in.gameId}, {"reason", in.reason}});
        case K::Challenges:
            return request({{"type", "challenges"}});
        case K::Notifications:
            return request({{"type", "notifications"}});
        case K::Tournaments:
            return request({{"type", "tournaments"}});
        case K::TournamentJoin:
            return request({{"type", "tournament_join"}, {"tournament", in.tournament}});
        case K::TournamentWithdraw:
            return request({{"type", "tournament_withdraw"}, {"tournament", in.tournament}});
        case K::MyGames:
            return request({{"type", "my_games"}});
        case K::Say:
            if (!s || s->v < 0) return say("no game shown: chat goes to a game (watch GAME)");
            return request({{"type", "chat"}, {"game", s->game}, {"text", in.text}});
        default:
            break;
    }
    // The rest act on the game shown, as one of its players.
    if (!s || s->v < 0) return say("no game shown: new, join GAME or watch GAME");
    if (!s->isPlayer()) return say("you are watching this game, not playing it");
    auto req = [&](const char* type, Json extra = Json::object()) {
        Json m = extra;
        m["type"] = type;
        m["game"] = s->game;
        request(m);
    };
    switch (in.kind) {
        case K::SetupRandom:
            return req("setup", {{"random", true}});
        case K::SetupLinks:
            return req("setup", {{"links", in.links}});
        case K::Act:
            if (s->status != "playing") return say("the game is " + s->status + ": no actions");
            if (!s->myTurn()) return say("it is not your turn");
            if (std::find(s->legal.begin(), s->legal.end(), in.action) == s->legal.end())
                return say(in.action + " is not legal here (legal lists your actions)");
            return req("act", {{"action", in.action}});
        case K::Resign:
            return req("resign");
        case K::Draw:
            return req("draw_offer");
        case K::Accept:
            if (!s->drawOffer.empty() && s->drawOffer != s->you) return req("draw_accept");
            if (!s->rematchOffer.empty() && s->rematchOffer != s->you) return req("rematch");
            return say("there is no offer to accept");
        case K::Decline:
            if (!s->drawOffer.empty() && s->drawOffer != s->you) return req("draw_decline");
            if (!s->rematchOffer.empty() && s->rematchOffer != s->you)
                return req("rematch_decline");
            return say("there is no offer to decline");
        case K::Rematch:
            return req("rematch");
        case K::Claim:
            return req("claim_win");
        case K::Abort:
            return req("abort");
        case K::Berserk:
            return req("berserk");
        default:
            return;
    }
}

void PlayClient::create(const NewGame& n) {
    Json m{{"type", "create"}, {"preset", n.preset}, {"side", n.side}, {"opponent", n.opponent}};
    if (n.opponent == "computer") m["level"] = n.level;
    if (n.rated) m["rated"] = *n.rated;
    if (n.initialCs) m["clock"] = clockRequest(*n.initialCs, *n.incrementCs);
    request(m);
}

void PlayClient::sendAuth(const Input& in, std::string password) {
    const bool reg = in.kind == Input::Kind::Register;
    if (!reg) withdrawSeek();
    request({{"type", reg ? "register" : "login"},
             {"username", in.username},
             {"password", std::move(password)}});
}

// The server keeps a seek with the connection through login and logout (it would pair the
// identity that is left): withdrawn first. The next request holds the gate; the ack of this
// one only says so.
void PlayClient::withdrawSeek() {
    if (seeking_) request({{"type", "unseek"}});
}

// Whether the next line typed is a password: one is asked for now, or the line before it
// (not run yet) is register/login.
bool PlayClient::passwordNext() const {
    if (pendingAuth_ && lines_.empty()) return true;
    if (lines_.empty()) return false;
    auto last = parseInput(lines_.back());
    return last && (last->kind == Input::Kind::Register || last->kind == Input::Kind::Login);
}

// No echo while a password is typed at a terminal.
void PlayClient::echoOff() {
    if (!cfg_.interactive || echoOff_ || ::tcgetattr(0, &savedTermios_) != 0) return;
    termios t = savedTermios_;
    t.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    if (::tcsetattr(0, TCSANOW, &t) == 0) echoOff_ = true;
}

void PlayClient::echoOn() {
    if (!echoOff_) return;
    ::tcsetattr(0, TCSANOW, &savedTermios_);
    echoOff_ = false;
    std::cout << "\n" << std::flush;  // the Enter typed was not echoed either
    promptShown_ = false;
}

// Shows `game` from now on (leaving the one shown before).
void PlayClient::follow(const std::string& game) {
    if (game_ && game_->game() == game) return;
    lastChat_.reset();
    previous_ = std::move(game_);
    game_ = std::make_unique<GameFollower>(game);
    if (cfg_.autoJoin && autoJoinGame_.empty() && !autoJoinUsed_) {
        autoJoinGame_ = game;
        autoJoinUsed_ = true;
    }
}

void PlayClient::checkTurnGate() {
    if (gate_ != Gate::Turn) return;
    const GameState* s = game_ ? &game_->state() : nullptr;
    const bool mustSetUp =
        s && s->status == "setup" && s->isPlayer() && !s->setupDone[s->you == "2" ? 1 : 0];
    const bool offered = s && s->isPlayer() &&
                         ((!s->drawOffer.empty() && s->drawOffer != s->you) ||
                          (!s->rematchOffer.empty() && s->rematchOffer != s->you));
    if (s && s->v < 0) return;                    // its snapshot is on the way
    if (seeking_ && (!s || s->isOver())) return;  // a game will come with `matched`
    if (!s || s->myTurn() || s->isOver() || mustSetUp || offered) open();
}

}  // namespace rainet::client::play
