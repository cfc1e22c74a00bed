#pragma once
// `rainet bot`'s connection to a server (docs/bot.md): connects a program that speaks the engine
// protocol (docs/engine-protocol.md) to a rainet server as a bot account. It logs in (or registers
// the bot account), seeks quick pairings and/or joins open games as configured, and plays one game
// at a time: the engine's arrangement as `setup`, and at each turn `position` + `go` with the
// game's clocks, its `bestaction` as `act`. Draw offers are declined (accepted with
// acceptDraws). An engine that fails (exits, times out, answers nonsense or an illegal action)
// makes the bot resign that game; a dropped connection is reopened with the bot's token and the
// game resumed from its version (docs/protocol.md §8), an unacknowledged action sent again with
// its id.
//
// One thread runs the io_context (network, timers, game logic); the engine is spoken to on a
// second one, each call blocking there and its result posted back. Network and the finding of
// games are in bot_client.cpp, the playing and the engine thread in bot_client_play.cpp.
#include <utility>  // before Boost.Asio under C++20

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include "ai/engine_client.h"
#include "client/play_follower.h"
#include "client/play_input.h"
#include "client/session.h"

namespace rainet::client::bot {

struct BotConfig {
    play::ServerUrl url;
    std::string urlText;
    std::string engine, user, password;
    bool registerFirst = false;
    bool acceptQuick = false, acceptChallenges = false, acceptDraws = false;
    int games = 0;           // games to play before exiting; 0: no end
    play::SeekSpec seek;     // what to seek; its preset also filters the open games joined
    ai::GoLimits untimed;    // the engine's budget in untimed games
    std::uint64_t seed = 1;  // the engine's Seed option
    // Tournaments: the one to join (its id), and/or any open one that admits bots. The bot plays
    // the games the tournament pairs it in; with `tournament` alone it exits when that one ends.
    std::string tournament;
    bool anyTournament = false;
};

// One line of the bot's log, on stdout ("bot: ...").
void log(const std::string& line);

class BotClient {
  public:
    // `engine`: started by the caller, so that a command that does not work fails before
    // connecting.
    BotClient(boost::asio::io_context& io, BotConfig c, std::unique_ptr<ai::EngineClient> engine);
    ~BotClient();

    void start() { session_.connect(); }
    int status() const { return status_; }
    void interrupted(int sig);

  private:
    using Json = play::Json;

    // ------------------------------------------------------------ network (bot_client.cpp)
    void onOpen();
    void sendLogin();
    bool onLost(const std::string& why);  // whether to connect again
    void send(const Json& m) { session_.send(m); }
    // Sends a message that changes state with a new id, and keeps it until it is answered: sent
    // again after a reconnection or a `rate_limited` (applied at most once, docs/protocol.md §8).
    std::string request(Json m) { return session_.request(std::move(m)); }
    // The request's answer came: no longer pending (what it was is not needed here).
    void answered(const std::string& id) { static_cast<void>(session_.answered(id)); }
    void onMessage(const Json& j);
    void onWelcome(const Json& j);
    void identified(const Json& player, const Json& games);
    void onAck(const Json& j);
    void onError(const Json& j);

    // ------------------------------------------------------------ finding games (bot_client.cpp)
    void lookForGame();
    void onLobby(const Json& j);
    void onMatched(const std::string& game);
    // A challenge received: accepted if the bot's flags admit it (--accept challenges, its
    // --seek kind, no game in play), else declined with the reason.
    void onChallenge(const Json& c);
    std::string refusal(const Json& c) const;
    void follow(const std::string& game, bool watch = true);
    // Tournaments (bot_client.cpp): joined from the list, followed again after a reconnection,
    // and their end.
    void joinTournament(const std::string& id);
    void onTournaments(const Json& j);
    void onTournament(const Json& j);

    // ------------------------------------------------------------ playing (bot_client_play.cpp)
    void onGame(const Json& j);
    const std::string& me() const { return game_->state().you; }
    Side mySide() const { return me() == "2" ? Side::Two : Side::One; }
    void step();
    void setUp();
    void think();
    void fail(const std::string& why);
    void gameOver();

    // ------------------------------------------------------------ the engine thread
    ai::EngineClient& engine();
    template <class Job, class Done>
    void onEngine(Job job, Done done);

    void quit();

    boost::asio::io_context& io_;
    BotConfig cfg_;
    Session session_;
    std::string token_;
    bool everWelcomed_ = false, registered_ = false, quitting_ = false;
    int status_ = 0;
    int gamesDone_ = 0, failures_ = 0;
    std::string joinId_;                                  // a join awaiting its answer
    std::map<std::string, std::string> tournamentJoins_;  // request id -> tournament
    std::set<std::string> tournaments_;                   // joined
    std::string nextGame_;         // a tournament's pairing that came before the last game's end
    bool tournamentDone_ = false;  // the one tournament played finished: exit after the game
    std::unique_ptr<play::GameFollower> game_;
    bool setupSent_ = false, drawAnswered_ = false;
    long thinkingV_ = -1;  // the version the engine was last asked about
    std::string actId_;    // the action sent and not yet answered
    // Engine thread only.
    std::unique_ptr<ai::EngineClient> engine_;
    std::string engineGame_;  // the game the engine was last given `newgame` for
    boost::asio::thread_pool engineThread_{1};
};

}  // namespace rainet::client::bot
