#pragma once
// `rainet play`'s connection to a server: reads commands line by line (a prompt on a terminal, or
// a script through stdin), speaks docs/protocol.md over one WebSocket (session.h), and prints the
// followed game after every event. Reconnects by itself: hello with the kept token, resume with
// the last version, and every unacknowledged request sent again with its id (protocol §8).
//
// Accounts (register, login, logout) read the password from the line after the command: typed
// without echo on a terminal, or the next line of a script. It is sent once (again only when the
// connection dropped before the answer) and never printed.
//
// Runs on one io_context thread (network, timers, commands); the lines come from elsewhere
// (stdin_reader.h) through onLine(). A command that asks the server something holds back the next
// line until it is answered, so that a script runs in order (`new computer 1` then `setup random`).
// Network handlers are in play_client.cpp, commands in play_client_commands.cpp.
#include <utility>  // before Boost.Asio under C++20

#include <termios.h>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>

#include "client/play_follower.h"
#include "client/play_input.h"
#include "client/session.h"

namespace rainet::client::play {

struct ClientConfig {
    ServerUrl url;
    std::string urlText;
    std::string tokenFile;
    std::string name;
    bool color = false;
    bool interactive = false;  // stdin is a terminal: show a prompt
    std::string startLine;     // a command run once connected ("watch g1", "new computer 3")
    bool autoJoin = false;     // `rainet play GAME`: take the free seat of an open game
    std::string firstLine;     // a command run before startLine (--notifications)
};

class PlayClient {
  public:
    PlayClient(boost::asio::io_context& io, ClientConfig c);
    ~PlayClient();

    void start();
    void onLine(std::string line);
    void onEof();
    int status() const { return status_; }
    // SIGINT or SIGTERM: leave as `quit` does (the terminal's echo back on), with status 128+sig.
    void interrupted(int sig);

  private:
    // What the next line waits for.
    // Version: an acknowledged change until its event arrives (so that `wait` or `legal` right
    // after an action see the game after it).
    // Welcome: a new identity after logout.
    enum class Gate { None, Ack, Snapshot, Version, Lobby, Turn, Welcome };

    // ------------------------------------------------------------ network (play_client.cpp)
    void onOpen();
    bool onLost(const std::string& why);  // whether to connect again
    void send(const Json& m) { session_.send(m); }
    void onMessage(const Json& j);
    // Removes the request `id` from those awaiting an answer; returns its type ("" if none).
    std::string takePending(const std::string& id);
    void setPlayer(const Json& p);
    std::string whoText() const;
    void onWelcome(const Json& j);
    void onLoggedIn(const std::string& id);
    void onAck(const Json& j);
    void onError(const Json& j);
    void onLobby(const Json& j);
    void onChat(const Json& j);
    void onMatched(const std::string& game, const std::string& side);
    // Challenges and notifications: told, and a request's answer opens its gate.
    void onSocial(const Json& j);
    void onTournament(const Json& j);
    void onGame(const Json& j);

    // ------------------------------------------------------------ commands
    // (play_client_commands.cpp)
    void pump();  // runs queued lines until one must wait for the server
    void execute(const Input& in);
    void create(const NewGame& n);
    // Sends a message with a fresh id (now, or on the next welcome) and waits for its answer.
    void request(Json m) { setGate(Gate::Ack, session_.request(std::move(m))); }
    void sendAuth(const Input& in, std::string password);
    void withdrawSeek();
    bool passwordNext() const;
    void echoOff();
    void echoOn();
    void follow(const std::string& game);
    void setGate(Gate g, std::string id = {}) {
        gate_ = g;
        gateId_ = std::move(id);
    }
    void open() {
        setGate(Gate::None);
        pump();
    }
    void checkTurnGate();

    // ------------------------------------------------------------ output
    void say(const std::string& line);
    void show();
    void prompt();
    void clearPrompt();
    void quit();

    boost::asio::io_context& io_;
    ClientConfig cfg_;
    Session session_;
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
    bool seeking_ = false;  // a seek waits for an opponent
    std::string seekId_;    // the request id of the last seek
    std::string seekText_;  // what it seeks ("standard, no clock, rated")
    std::map<std::string, std::string> tournamentStatus_;  // followed tournaments: last status
    std::optional<ChatLine> lastChat_;            // the last chat line shown of the game shown
    static constexpr std::size_t kChatShown = 5;  // chat history lines shown with a game
};

}  // namespace rainet::client::play
