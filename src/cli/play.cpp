// `rainet play`: the terminal client. Reads commands line by line (a prompt on a terminal, or a
// script through stdin), speaks docs/protocol.md to a server over one WebSocket, and prints the
// followed game after every event. Reconnects by itself: hello with the kept token, resume with
// the last version, and every unacknowledged request sent again with its id (protocol §8).
//
// Accounts (register, login, logout) read the password from the line after the command: typed
// without echo on a terminal, or the next line of a script. It is sent once (again only when the
// connection dropped before the answer) and never printed.
//
// One thread runs the io_context (network, timers, commands); a second one only reads stdin and
// posts each line to it. A command that asks the server something holds back the next line until
// it is answered, so that a script runs in order (`new computer 1` then `setup random`).
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include "cli/command.h"
#include "cli/options.h"
#include "client/play_follower.h"
#include "client/play_input.h"
#include "client/play_local.h"
#include "client/play_render.h"
#include "client/session.h"

namespace rainet::cli {
namespace {

namespace play = ::rainet::client::play;
using client::idOf;

namespace asio = boost::asio;
using play::ChatLine;
using play::GameFollower;
using play::GameState;
using play::Input;
using play::Json;

struct Config {
    play::ServerUrl url;
    std::string urlText;
    std::string tokenFile;
    std::string name;
    bool color = false;
    bool interactive = false;  // stdin is a terminal: show a prompt
    std::string startLine;     // a command run once connected ("watch g1", "new computer 3")
    bool autoJoin = false;     // `rainet play GAME`: take the free seat of an open game
};

std::string defaultTokenFile() {
    const char* home = std::getenv("HOME");
    return std::string(home ? home : ".") + "/.config/rainet/token";
}

std::string readToken(const std::string& path) {
    std::ifstream in(path);
    std::string t;
    in >> t;
    return t;
}

// Writes the token readable by its owner only; returns an error message or "".
std::string writeToken(const std::string& path, const std::string& token) {
    std::error_code ec;
    const auto dir = std::filesystem::path(path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return "cannot write the token to " + path + ": " + std::strerror(errno);
    ::fchmod(fd, 0600);
    const std::string text = token + "\n";
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok ? "" : "cannot write the token to " + path;
}

// Reads stdin on its own thread and posts each line (then the end of input) to the io_context.
class StdinReader {
  public:
    StdinReader(asio::io_context& io, std::function<void(std::string)> onLine,
                std::function<void()> onEof)
        : thread_([this, &io, onLine = std::move(onLine), onEof = std::move(onEof)] {
              std::string pending;
              char buf[4096];
              while (!stop_) {
                  pollfd p{0, POLLIN, 0};
                  const int r = ::poll(&p, 1, 100);
                  if (r < 0 && errno == EINTR) continue;
                  if (r <= 0) {
                      if (r < 0) break;
                      continue;
                  }
                  const ssize_t n = ::read(0, buf, sizeof buf);
                  if (n < 0 && errno == EINTR) continue;
                  if (n <= 0) break;
                  pending.append(buf, static_cast<std::size_t>(n));
                  for (auto nl = pending.find('\n'); nl != std::string::npos;
                       nl = pending.find('\n')) {
                      std::string line = pending.substr(0, nl);
                      if (!line.empty() && line.back() == '\r') line.pop_back();
                      pending.erase(0, nl + 1);
                      asio::post(io, [onLine, line] { onLine(line); });
                  }
              }
              if (!stop_) {
                  if (!pending.empty()) asio::post(io, [onLine, pending] { onLine(pending); });
                  asio::post(io, onEof);
              }
          }) {}
    ~StdinReader() {
        stop_ = true;
        thread_.join();
    }

  private:
    std::atomic<bool> stop_{false};
    std::thread thread_;  // last: started once stop_ exists
};

class PlayClient {
  public:
    PlayClient(asio::io_context& io, Config c)
        : io_(io),
          cfg_(std::move(c)),
          session_(io, cfg_.url, 't',
                   {[this] { onOpen(); }, [this](const std::string& m) { onMessage(m); },
                    [this](const std::string& why) { return onLost(why); }}) {
        token_ = readToken(cfg_.tokenFile);
    }

    void start() {
        if (!cfg_.startLine.empty()) lines_.push_back(cfg_.startLine);
        session_.connect();
    }
    ~PlayClient() { echoOn(); }

    void onLine(std::string line) {
        promptShown_ = false;  // the line typed ended with a newline
        // `quit` is obeyed at once, even while an answer is awaited (but a password is a password).
        auto in = play::parseInput(line);
        if (in && in->kind == Input::Kind::Quit && !passwordNext()) return quit();
        lines_.push_back(std::move(line));
        pump();
    }
    void onEof() {
        eof_ = true;
        pump();
    }
    int status() const { return status_; }
    // SIGINT or SIGTERM: leave as `quit` does (the terminal's echo back on), with status 128+sig.
    void interrupted(int sig) {
        status_ = 128 + sig;
        quit();
    }

  private:
    // What the next line waits for.
    // Version: an acknowledged change until its event arrives (so that `wait` or `legal` right
    // after an action see the game after it).
    // Welcome: a new identity after logout.
    enum class Gate { None, Ack, Snapshot, Version, Lobby, Turn, Welcome };

    // ------------------------------------------------------------ network

    void onOpen() {
        Json hello{{"type", "hello"}};
        if (!token_.empty()) hello["token"] = token_;
        if (!cfg_.name.empty()) hello["name"] = cfg_.name;
        session_.sendNow(hello);
    }

    // Whether to connect again.
    bool onLost(const std::string& why) {
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

    void send(const Json& m) { session_.send(m); }

    void onMessage(const std::string& text) {
        const Json j = Json::parse(text, nullptr, false);
        if (!j.is_object()) return;
        const std::string type = j.value("type", "");
        if (type == "welcome") return onWelcome(j);
        if (type == "ack") return onAck(j);
        if (type == "error") return onError(j);
        if (type == "lobby") return onLobby(j);
        if (type == "snapshot" || type == "event" || type == "presence") return onGame(j);
        if (type == "chat") return onChat(j);
        if (type == "matched") return onMatched(j.value("game", ""), j.value("side", ""));
    }

    // Removes the request `id` from those awaiting an answer; returns its type ("" if none).
    std::string takePending(const std::string& id) {
        const Json m = session_.answered(id);
        return m.is_object() ? m.value("type", "") : "";
    }
    void setPlayer(const Json& p) {
        if (!p.is_object()) return;
        player_.id = p.value("id", player_.id);
        player_.name = p.value("name", player_.name);
        player_.kind = p.value("kind", player_.kind);
        if (p.contains("rating") && p["rating"].is_number())
            player_.rating = static_cast<int>(p["rating"].get<double>());
    }
    std::string whoText() const {
        std::string t = player_.name + " (" + player_.id + "), " +
                        (player_.kind.empty() ? std::string("guest") : player_.kind);
        if (player_.rating) t.append(", rating ").append(std::to_string(*player_.rating));
        return t;
    }

    void onWelcome(const Json& j) {
        session_.setWelcomed(true);
        const std::string token = j.value("token", "");
        if (!token.empty() && token != token_) {
            token_ = token;
            if (auto e = writeToken(cfg_.tokenFile, token_); !e.empty()) say("warning: " + e);
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
                    say("your game " + g.value("game", "") + ": side " + g.value("side", "") +
                        ", " + g.value("status", "") + " (watch " + g.value("game", "") +
                        " to go on)");
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
    void onLoggedIn(const std::string& id) {
        say("logged in as " + whoText());
        const bool awaited = gate_ == Gate::Ack && gateId_ == id;
        if (game_) {
            send({{"type", "watch"}, {"game", game_->game()}});
            if (awaited) return setGate(Gate::Snapshot, game_->game());
        }
        if (awaited) open();
    }

    void onAck(const Json& j) {
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
        if (gate_ != Gate::Ack || gateId_ != id) return;
        if (kind == "join") return setGate(Gate::Snapshot, j.value("game", ""));
        const long v = j.contains("v") && j["v"].is_number_integer() ? j["v"].get<long>() : -1;
        if (game_ && j.value("game", "") == game_->game() && game_->state().v < v) {
            gateVersion_ = v;
            return setGate(Gate::Version);
        }
        open();
    }

    void onError(const Json& j) {
        const std::string id = idOf(j);
        const std::string game = j.value("game", "");
        if (!id.empty()) session_.answered(id);
        say("error: " + j.value("message", j.value("code", "?")) + " (" + j.value("code", "?") +
            ")");
        // A game that could not be watched or joined is not followed: back to the one before.
        if (game_ && game_->game() == game && game_->state().v < 0) game_ = std::move(previous_);
        if ((gate_ == Gate::Ack && !id.empty() && gateId_ == id) ||
            (gate_ == Gate::Snapshot && (game == gateId_ || id.empty())))
            open();
    }

    void onLobby(const Json& j) {
        clearPrompt();
        std::cout << play::renderLobby(j) << std::flush;
        send({{"type", "lobby_unsubscribe"}});
        if (gate_ == Gate::Lobby) open();
    }

    // A chat line of the game shown (other games' lines are not followed).
    void onChat(const Json& j) {
        if (!game_ || j.value("game", "") != game_->game()) return;
        const ChatLine c = play::chatLineOf(j);
        say(play::renderChat(c));
        lastChat_ = c;
    }

    // A seek was paired: follow the new game (its snapshot comes after `watch`).
    void onMatched(const std::string& game, const std::string& side) {
        if (game.empty()) return;
        seeking_ = false;
        say("matched: game " + game + ", you are side " + side + " (following it)");
        follow(game);
        send({{"type", "watch"}, {"game", game}});
        if (gate_ == Gate::None || (gate_ == Gate::Ack && gateId_ == seekId_))
            setGate(Gate::Snapshot, game);
    }

    void onGame(const Json& j) {
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
            for (const ChatLine& c : play::unseenChat(s.chat, lastChat_, kChatShown))
                say(play::renderChat(c));
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
            if (auto line = play::describeEvent(j, s); !line.empty()) say(line);
            if (kind == "start" || kind == "action" || kind == "end") show();
            if (kind == "end" && s.isPlayer() && s.ending)
                if (const auto& r = s.ending->ratings[s.you == "2" ? 1 : 0])
                    player_.rating = r->after;
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

    // ------------------------------------------------------------ commands

    // Runs queued lines until one must wait for the server.
    void pump() {
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
            auto in = play::parseInput(line);
            if (!in)
                say(in.error().message);
            else
                execute(*in);
        }
    }

    void execute(const Input& in) {
        using K = Input::Kind;
        const GameState* s = game_ ? &game_->state() : nullptr;
        switch (in.kind) {
            case K::Empty:
                return;
            case K::Help:
                std::cout << play::helpText() << std::flush;
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
                std::cout << play::renderHistory(*s) << std::flush;
                return;
            case K::Legal:
                if (!s || !s->myTurn()) return say("no legal actions: it is not your turn to act");
                std::cout << play::renderLegal(*s) << std::flush;
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
                Json m{{"type", "seek"}, {"preset", in.seek.preset}};
                Json clock;
                if (in.seek.initialCs)
                    clock = {{"initial", *in.seek.initialCs}, {"increment", *in.seek.incrementCs}};
                m["clock"] = clock;
                if (in.seek.rated) m["rated"] = *in.seek.rated;
                seekText_ =
                    play::describeKind(in.seek.preset, clock, Json(in.seek.rated.value_or(true)));
                request(m);
                seekId_ = gateId_;
                return;
            }
            case K::Unseek:
                return request({{"type", "unseek"}});
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
            default:
                return;
        }
    }

    void create(const play::NewGame& n) {
        Json m{
            {"type", "create"}, {"preset", n.preset}, {"side", n.side}, {"opponent", n.opponent}};
        if (n.opponent == "computer") m["level"] = n.level;
        if (n.rated) m["rated"] = *n.rated;
        if (n.initialCs) m["clock"] = {{"initial", *n.initialCs}, {"increment", *n.incrementCs}};
        request(m);
    }

    // Sends a message with a fresh id (now, or on the next welcome) and waits for its answer.
    void request(Json m) { setGate(Gate::Ack, session_.request(std::move(m))); }

    void sendAuth(const Input& in, std::string password) {
        const bool reg = in.kind == Input::Kind::Register;
        if (!reg) withdrawSeek();
        request({{"type", reg ? "register" : "login"},
                 {"username", in.username},
                 {"password", std::move(password)}});
    }

    // The server keeps a seek with the connection through login and logout (it would pair the
    // identity that is left): withdrawn first. The next request holds the gate; the ack of this
    // one only says so.
    void withdrawSeek() {
        if (seeking_) request({{"type", "unseek"}});
    }

    // Whether the next line typed is a password: one is asked for now, or the line before it
    // (not run yet) is register/login.
    bool passwordNext() const {
        if (pendingAuth_ && lines_.empty()) return true;
        if (lines_.empty()) return false;
        auto last = play::parseInput(lines_.back());
        return last && (last->kind == Input::Kind::Register || last->kind == Input::Kind::Login);
    }

    // No echo while a password is typed at a terminal.
    void echoOff() {
        if (!cfg_.interactive || echoOff_ || ::tcgetattr(0, &savedTermios_) != 0) return;
        termios t = savedTermios_;
        t.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        if (::tcsetattr(0, TCSANOW, &t) == 0) echoOff_ = true;
    }
    void echoOn() {
        if (!echoOff_) return;
        ::tcsetattr(0, TCSANOW, &savedTermios_);
        echoOff_ = false;
        std::cout << "\n" << std::flush;  // the Enter typed was not echoed either
        promptShown_ = false;
    }

    // Shows `game` from now on (leaving the one shown before).
    void follow(const std::string& game) {
        if (game_ && game_->game() == game) return;
        lastChat_.reset();
        previous_ = std::move(game_);
        game_ = std::make_unique<GameFollower>(game);
        if (cfg_.autoJoin && autoJoinGame_.empty() && !autoJoinUsed_) {
            autoJoinGame_ = game;
            autoJoinUsed_ = true;
        }
    }

    void setGate(Gate g, std::string id = {}) {
        gate_ = g;
        gateId_ = std::move(id);
    }
    void open() {
        setGate(Gate::None);
        pump();
    }
    void checkTurnGate() {
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

    // ------------------------------------------------------------ output

    void say(const std::string& line) {
        clearPrompt();
        std::cout << line << "\n" << std::flush;
    }
    void show() {
        clearPrompt();
        play::RenderOptions o;
        o.color = cfg_.color;
        std::cout << "\n" << play::renderGame(game_->state(), o) << std::flush;
    }
    void prompt() {
        if (!cfg_.interactive || promptShown_ || pendingAuth_) return;
        std::cout << "> " << std::flush;
        promptShown_ = true;
    }
    // Output that arrives while the prompt waits is written over it (it is shown again after).
    void clearPrompt() {
        if (promptShown_) std::cout << "\r";
        promptShown_ = false;
    }

    void quit() {
        if (quitting_) return;
        quitting_ = true;
        echoOn();
        session_.stop();
        io_.stop();
    }

    asio::io_context& io_;
    Config cfg_;
    client::Session session_;
    std::string token_;
    bool everWelcomed_ = false, lost_ = false, quitting_ = false, eof_ = false;
    bool promptShown_ = false;
    int status_ = 0;
    std::deque<std::string> lines_;
    std::unique_ptr<GameFollower> game_;
    std::unique_ptr<GameFollower> previous_;  // shown before game_, until game_'s snapshot
    Gate gate_ = Gate::None;
    std::string gateId_;    // the request id (Ack) or game (Snapshot) awaited
    long gateVersion_ = 0;  // the version awaited (Version)
    std::string autoJoinGame_;
    bool autoJoinUsed_ = false;
    // Who this connection is, from the last welcome (or register/rename ack).
    struct Player {
        std::string id, name, kind;
        std::optional<int> rating;
    } player_;
    std::optional<Input> pendingAuth_;  // register/login awaiting its password line
    bool relogging_ = false;            // logged out: the next welcome is a new guest's
    bool echoOff_ = false;
    termios savedTermios_{};
    bool seeking_ = false;                        // a seek waits for an opponent
    std::string seekId_;                          // the request id of the last seek
    std::string seekText_;                        // what it seeks ("standard, no clock, rated")
    std::optional<ChatLine> lastChat_;            // the last chat line shown of the game shown
    static constexpr std::size_t kChatShown = 5;  // chat history lines shown with a game
};

int run(const Args& args);
const Command kPlay{"play",
                    "play [GAME] [--server ws://HOST:PORT/ws] [--name NAME] [--token-file FILE] "
                    "[--computer LEVEL] [--no-color] | play --local [--names NAME1,NAME2] "
                    "[--preset standard|official] [--seed N] [--no-color]",
                    "play or watch a game in the terminal: commands at a prompt or from stdin; "
                    "--local: two players at this terminal, no server (docs/terminal-client.md)",
                    run};

// The flags of `rainet play`; a flag given is counted by `app`.
struct PlayFlags {
    std::unique_ptr<CLI::App> app = makeApp(kPlay);
    std::string game, server = "ws://127.0.0.1:8080/ws", name, tokenFile = defaultTokenFile();
    std::string computer, names, preset = "standard", seed;
    bool local = false, noColor = false;

    PlayFlags() {
        app->add_option("GAME", game, "a game to watch (and play in, when it is yours)");
        app->add_option("--server", server, "the server's WebSocket URL");
        app->add_option("--name", name, "the guest name to play under");
        app->add_option("--token-file", tokenFile, "where the identity token is kept");
        app->add_option("--computer", computer, "start a game against the computer at LEVEL");
        app->add_flag("--no-color", noColor, "no colours even on a terminal");
        app->add_flag("--local", local, "two players at this terminal, no server");
        app->add_option("--names", names, "--local: the players' names, NAME1,NAME2");
        app->add_option("--preset", preset, "--local: the rules (standard or official)");
        app->add_option("--seed", seed, "--local: the seed of the random setups");
    }
    bool has(const std::string& flag) const { return app->count("--" + flag) > 0; }
};

// `rainet play --local`: pass and play in-process (play_local.h).
int runLocalGame(const PlayFlags& f) {
    for (const char* remote : {"server", "name", "token-file", "computer"})
        if (f.has(remote))
            return usageError(kPlay, std::string("--local plays without a server: no --") + remote);
    if (f.app->count("GAME")) return usageError(kPlay, "--local plays a new game: no GAME");
    play::LocalOptions lo;
    const auto rules = Rules::byName(f.preset);
    if (!rules) return usageError(kPlay, "--preset: standard or official");
    lo.rules = *rules;
    if (f.has("names")) {
        const std::string& names = f.names;
        const auto comma = names.find(',');
        const std::string a = names.substr(0, comma);
        const std::string b = comma == std::string::npos ? "" : names.substr(comma + 1);
        const auto fits = [](const std::string& n) {
            return !n.empty() && n.size() <= 24 && n.find(',') == std::string::npos &&
                   std::none_of(n.begin(), n.end(),
                                [](unsigned char c) { return c < 0x20 || c == 0x7f; });
        };
        if (!fits(a) || !fits(b))
            return usageError(kPlay, "--names: two names separated by a comma, 1-24 bytes each");
        lo.names = {a, b};
    }
    if (f.has("seed")) {
        const std::string& seed = f.seed;
        const bool digits =
            !seed.empty() && seed.size() <= 19 &&
            std::all_of(seed.begin(), seed.end(), [](unsigned char c) { return std::isdigit(c); });
        lo.seed = digits ? std::stoull(seed) : 0;
        if (lo.seed == 0) return usageError(kPlay, "--seed: a positive number");
    }
    lo.color = ::isatty(1) && !f.noColor;
    lo.interactive = ::isatty(0);
    return play::runLocal(std::cin, std::cout, lo);
}

int run(const Args& args) {
    PlayFlags f;
    if (auto status = parseArgs(*f.app, kPlay, args)) return *status;
    if (f.local) return runLocalGame(f);
    for (const char* local : {"names", "preset", "seed"})
        if (f.has(local))
            return usageError(kPlay, std::string("--") + local + " goes with --local");
    Config c;
    c.urlText = f.server;
    auto url = play::parseServerUrl(c.urlText);
    if (!url) return usageError(kPlay, url.error().message);
    c.url = *url;
    c.tokenFile = f.tokenFile;
    c.name = f.name;
    c.interactive = ::isatty(0);
    c.color = ::isatty(1) && !f.noColor;
    if (f.app->count("GAME")) {
        auto g = play::parseGameId(f.game);
        if (!g) return usageError(kPlay, g.error().message);
        if (f.has("computer")) return usageError(kPlay, "either GAME or --computer, not both");
        c.startLine = "watch " + *g;
        c.autoJoin = true;
    } else if (f.has("computer")) {
        c.startLine = "new computer " + f.computer;
        auto in = play::parseInput(c.startLine);
        if (!in) return usageError(kPlay, "--computer: " + in.error().message);
    }
    asio::io_context io(1);
    PlayClient client(io, c);
    client.start();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int sig) {
        if (!ec) client.interrupted(sig);
    });
    StdinReader reader(
        io, [&](std::string line) { client.onLine(std::move(line)); }, [&] { client.onEof(); });
    io.run();
    return client.status();
}

RAINET_COMMAND(play, kPlay);

}  // namespace
}  // namespace rainet::cli
