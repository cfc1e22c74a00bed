// `rainet bot`: connects a program that speaks the engine protocol (docs/engine-protocol.md) to a
// rainet server as a bot account (docs/bot.md). It logs in (or registers the bot account), seeks
// quick pairings and/or joins open games as configured, and plays one game at a time: the
// engine's arrangement as `setup`, and at each turn `position` + `go` with the game's clocks, its
// `bestaction` as `act`. Draw offers are declined (accepted with --accept-draws). An engine that
// fails (exits, times out, answers nonsense or an illegal action) makes the bot resign that game;
// a dropped connection is reopened with the bot's token and the game resumed from its version
// (docs/protocol.md §8), an unacknowledged action sent again with its id.
//
// One thread runs the io_context (network, timers, game logic); the engine is spoken to on a
// second one, each call blocking there and its result posted back.
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <csignal>
#include <fstream>
#include <iostream>
#include <random>

#include "cli/command.h"
#include "cli/options.h"
#include "client/bot_game.h"
#include "client/play_follower.h"
#include "client/play_input.h"
#include "client/session.h"
#include "protocol/messages.h"

namespace rainet::cli {
namespace {

namespace play = ::rainet::client::play;
namespace bot = ::rainet::client::bot;
using client::idOf;

namespace asio = boost::asio;
using play::GameFollower;
using play::GameState;
using play::Json;

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
};

void log(const std::string& line) {
    std::cout << "bot: " << line << "\n" << std::flush;
}

class BotClient {
  public:
    BotClient(asio::io_context& io, BotConfig c, std::unique_ptr<ai::EngineClient> engine)
        : io_(io),
          cfg_(std::move(c)),
          session_(io, cfg_.url, 'b',
                   {[this] { onOpen(); }, [this](const std::string& m) { onMessage(m); },
                    [this](const std::string& why) { return onLost(why); }}),
          engine_(std::move(engine)) {}
    ~BotClient() {
        // The engine thread may be in a call: let it end before the engine goes.
        engineThread_.join();
    }

    void start() { session_.connect(); }
    int status() const { return status_; }
    void interrupted(int sig) {
        log("interrupted");
        status_ = 128 + sig;
        quit();
    }

  private:
    // ------------------------------------------------------------ network

    void onOpen() {
        if (!token_.empty()) {
            session_.sendNow({{"type", "hello"}, {"token", token_}});
        } else if (cfg_.registerFirst && !registered_) {
            session_.sendNow({{"type", "hello"}});
        } else {
            sendLogin();
        }
    }

    void sendLogin() {
        session_.sendNow({{"type", "login"},
                          {"id", "login"},
                          {"username", cfg_.user},
                          {"password", cfg_.password}});
    }

    // Whether to connect again.
    bool onLost(const std::string& why) {
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

    void send(const Json& m) { session_.send(m); }
    // Sends a message that changes state with a new id, and keeps it until it is answered: sent
    // again after a reconnection or a `rate_limited` (applied at most once, docs/protocol.md §8).
    std::string request(Json m) { return session_.request(std::move(m)); }
    Json answered(const std::string& id) { return session_.answered(id); }

    void onMessage(const std::string& text) {
        const Json j = Json::parse(text, nullptr, false);
        if (!j.is_object()) return;
        const std::string type = j.value("type", "");
        if (type == "welcome") return onWelcome(j);
        if (type == "ack") return onAck(j);
        if (type == "error") return onError(j);
        if (type == "lobby") return onLobby(j);
        if (type == "matched") return onMatched(j.value("game", ""));
        if (type == "snapshot" || type == "event" || type == "presence") return onGame(j);
    }

    void onWelcome(const Json& j) {
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
    void identified(const Json& player, const Json& games) {
        if (!player.value("bot", false)) {
            std::cerr << "rainet bot: '" << cfg_.user
                      << "' is not a bot account (a bot account is registered as one: "
                         "rainet bot --register)\n";
            status_ = 1;
            return quit();
        }
        if (!everWelcomed_) {
            everWelcomed_ = true;
            log("logged in as " + player.value("name", "?") + " (" + player.value("id", "?") +
                ") on " + cfg_.urlText);
            // Unfinished games first (the bot was restarted): resume the first one.
            for (const Json& g : games)
                if (g.value("status", "") != "open") return follow(g.value("game", ""));
            return lookForGame();
        }
        log("reconnected");
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

    void onAck(const Json& j) {
        const std::string id = idOf(j);
        if (id == "register") {
            registered_ = true;
            log("registered the bot account " + cfg_.user);
            return identified(j.value("player", Json::object()), Json::array());
        }
        answered(id);
        if (id == actId_) actId_.clear();
        if (id == joinId_ && !game_) {
            joinId_.clear();
            follow(j.value("game", ""), false);  // the snapshot follows the ack
        }
    }

    void onError(const Json& j) {
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
        log("server refused: " + what);
        answered(id);
        if (!id.empty() && id == actId_) {
            actId_.clear();
            if (code == "illegal_action") return fail("the server refused the engine's action");
            step();  // stale or not our turn: think again on what the server says now
        }
    }

    // ------------------------------------------------------------ finding games

    void lookForGame() {
        if (game_ || !session_.isWelcomed()) return;
        if (cfg_.acceptQuick) {
            Json m{{"type", "seek"}, {"preset", cfg_.seek.preset}};
            Json clock;
            if (cfg_.seek.initialCs)
                clock = {{"initial", *cfg_.seek.initialCs}, {"increment", *cfg_.seek.incrementCs}};
            m["clock"] = clock;
            if (cfg_.seek.rated) m["rated"] = *cfg_.seek.rated;
            request(m);
            log("seeking a game");
        }
        if (cfg_.acceptChallenges) {
            send({{"type", "lobby_subscribe"}});
            log("waiting for open games in the lobby");
        }
    }

    // Joins the oldest open game of the preset the bot plays that it did not create.
    void onLobby(const Json& j) {
        if (game_ || !joinId_.empty() || !cfg_.acceptChallenges) return;
        for (const Json& g : j.value("games", Json::array())) {
            if (g.value("preset", "") != cfg_.seek.preset) continue;
            if (g.value("creator", Json::object()).value("name", "") == cfg_.user) continue;
            log("joining game " + g.value("game", ""));
            joinId_ = request({{"type", "join"}, {"game", g.value("game", "")}});
            return;
        }
    }

    void onMatched(const std::string& game) {
        if (game.empty() || game_) return;
        follow(game);
    }

    void follow(const std::string& game, bool watch = true) {
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

    // ------------------------------------------------------------ playing

    void onGame(const Json& j) {
        if (!game_) return;
        const auto outcome = game_->take(j);
        if (outcome == GameFollower::Outcome::Gap) {
            send({{"type", "resume"}, {"game", game_->game()}, {"v", game_->state().v}});
            game_->resumeSent();
            return;
        }
        if (outcome == GameFollower::Outcome::Applied) step();
    }

    const std::string& me() const { return game_->state().you; }
    Side mySide() const { return me() == "2" ? Side::Two : Side::One; }

    // Does what the game now asks of the bot (at most one thing each time something changed).
    void step() {
        if (!game_) return;
        const GameState& s = game_->state();
        if (s.v < 0 || !s.isPlayer()) return;
        if (s.isOver()) return gameOver();
        const std::string opp = s.you == "1" ? "2" : "1";
        if (s.drawOffer == opp && !drawAnswered_) {
            drawAnswered_ = true;
            log(cfg_.acceptDraws ? "accepting the draw offer" : "declining the draw offer");
            request(
                {{"type", cfg_.acceptDraws ? "draw_accept" : "draw_decline"}, {"game", s.game}});
        }
        if (s.drawOffer.empty()) drawAnswered_ = false;
        const int mine = s.you == "2" ? 1 : 0;
        if (s.status == "setup" && !s.setupDone[mine] && !setupSent_) return setUp();
        if (s.myTurn() && thinkingV_ != s.v && actId_.empty()) return think();
    }

    void setUp() {
        setupSent_ = true;
        const std::string game = game_->game();
        const Side side = mySide();
        const Rules rules = Rules::byName(game_->state().preset).value_or(Rules::standard());
        onEngine(
            [this, side, rules, game]() -> Result<std::uint8_t> {
                engineGame_ = game;
                return engine().newGame(side, rules);
            },
            [this, side, game](Result<std::uint8_t> links) {
                if (!game_ || game_->game() != game) return;
                if (!links.ok())
                    return fail("the engine gave no arrangement: " + links.error().message);
                request({{"type", "setup"},
                         {"game", game},
                         {"links", protocol::setupJson(side, *links)}});
            });
    }

    void think() {
        const GameState& s = game_->state();
        auto k = bot::knowledgeOf(s);
        if (!k.ok()) return fail("cannot rebuild the position: " + k.error().message);
        const ai::GoLimits limits = bot::limitsOf(s, cfg_.untimed);
        thinkingV_ = s.v;
        const std::string game = s.game;
        const long v = s.v;
        onEngine(
            [this, k = std::move(*k), limits, game]() -> Result<Action> {
                if (engineGame_ != game) {  // resumed after a restart: tell the engine first
                    auto setup = engine().newGame(k.side, k.rules);
                    if (!setup.ok()) return setup.error();
                    engineGame_ = game;
                }
                engine().started(k.start);
                return engine().act(k.now, limits);
            },
            [this, game, v](Result<Action> a) {
                if (!game_ || game_->game() != game || game_->state().isOver()) return;
                if (!a.ok()) return fail("the engine failed: " + a.error().message);
                const std::string text = toString(*a, Notation::Full);
                const auto& legal = game_->state().legal;
                if (game_->state().v == v &&
                    std::find(legal.begin(), legal.end(), text) == legal.end())
                    return fail("the engine played an illegal action '" + text + "'");
                actId_ = request({{"type", "act"}, {"game", game}, {"action", text}, {"v", v}});
            });
    }

    // The engine cannot play this game on: resign it (the engine is started again for the next).
    void fail(const std::string& why) {
        if (!game_) return;
        ++failures_;
        log("game " + game_->game() + ": " + why + "; resigning");
        request({{"type", "resign"}, {"game", game_->game()}});
        onEngine(
            [this]() -> Result<bool> {
                engine_.reset();
                engineGame_.clear();
                return true;
            },
            [](Result<bool>) {});
    }

    void gameOver() {
        const GameState& s = game_->state();
        std::string line = "game " + s.game + " over: ";
        if (s.ending) {
            line += s.ending->result.empty() ? "aborted" : s.ending->result;
            line += " (" + s.ending->reason + ")";
            const std::string mine = s.you;
            line += s.ending->winner.empty() ? "" : s.ending->winner == mine ? ", won" : ", lost";
        } else {
            line += s.status;
        }
        log(line);
        send({{"type", "leave"}, {"game", s.game}});
        session_.forget([&](const Json& m) { return m.value("game", "") == s.game; });
        game_.reset();
        actId_.clear();
        ++gamesDone_;
        if (cfg_.games && gamesDone_ >= cfg_.games) {
            log("played " + std::to_string(gamesDone_) + " game(s); exiting");
            if (failures_) status_ = 1;
            return quit();
        }
        lookForGame();
    }

    // ------------------------------------------------------------ the engine thread

    // The engine, started again after a failure. Engine thread only.
    ai::EngineClient& engine() {
        if (!engine_) {
            auto e = ai::EngineClient::start(cfg_.engine, cfg_.seed);
            if (!e.ok()) throw std::runtime_error(e.error().message);
            engine_ = std::move(*e);
        }
        return *engine_;
    }

    // Runs `job` on the engine thread, then `done` with its result on the io thread.
    template <class Job, class Done>
    void onEngine(Job job, Done done) {
        asio::post(engineThread_, [this, job = std::move(job), done = std::move(done)]() mutable {
            using R = decltype(job());
            std::optional<R> r;
            try {
                r.emplace(job());
            } catch (const std::exception& e) {  // the engine could not be started again
                r.emplace(Error{e.what()});
            }
            asio::post(io_, [done = std::move(done), r = std::move(*r)]() mutable { done(r); });
        });
    }

    void quit() {
        if (quitting_) return;
        quitting_ = true;
        session_.stop();
        io_.stop();
    }

    asio::io_context& io_;
    BotConfig cfg_;
    client::Session session_;
    std::string token_;
    bool everWelcomed_ = false, registered_ = false, quitting_ = false;
    int status_ = 0;
    int gamesDone_ = 0, failures_ = 0;
    std::string joinId_;  // a join awaiting its answer
    std::unique_ptr<GameFollower> game_;
    bool setupSent_ = false, drawAnswered_ = false;
    long thinkingV_ = -1;  // the version the engine was last asked about
    std::string actId_;    // the action sent and not yet answered
    // Engine thread only.
    std::unique_ptr<ai::EngineClient> engine_;
    std::string engineGame_;  // the game the engine was last given `newgame` for
    asio::thread_pool engineThread_{1};
};

std::string readPassword(const std::string& path, std::string& error) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) {
        error = "cannot read the password from " + path;
        return "";
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

int run(const Args& args);
const Command kBot{
    "bot",
    "bot --engine CMD --user NAME --password-file FILE [--server ws://HOST:PORT/ws] [--register] "
    "[--accept quick,challenges] [--seek \"[standard|official] [clock MIN+INC|none] "
    "[rated|casual]\"] [--games N] [--movetime MS] [--nodes N] [--accept-draws] [--seed N]",
    "play on a server as a bot account with an engine-protocol program (docs/bot.md)", run};

int run(const Args& args) {
    auto app = makeApp(kBot);
    BotConfig c;
    std::string passwordFile, accept = "quick", seekText;
    long long games = 0, movetime = 0, nodes = 0, seed = 0;
    c.urlText = "ws://127.0.0.1:8080/ws";
    app->add_option("--engine", c.engine, "the engine-protocol program (a shell command)")
        ->required();
    app->add_option("--user", c.user, "the bot account")->required();
    app->add_option("--password-file", passwordFile, "a file whose first line is the password")
        ->required();
    app->add_option("--server", c.urlText, "the server's WebSocket URL");
    app->add_flag("--register", c.registerFirst, "register the bot account first");
    app->add_option("--accept", accept, "what to accept: quick and/or challenges, comma separated");
    app->add_option("--seek", seekText,
                    "seek games: \"[standard|official] [clock MIN+INC|none] [rated|casual]\"");
    app->add_option("--games", games, "games to play before exiting (0: no end)")
        ->check(CLI::Range(0LL, 1000000LL));
    app->add_option("--movetime", movetime, "the engine's milliseconds per action, untimed games")
        ->check(CLI::Range(0LL, 3600000LL));
    app->add_option("--nodes", nodes, "the engine's nodes per action, untimed games")
        ->check(CLI::Range(0LL, 1LL << 40));
    app->add_flag("--accept-draws", c.acceptDraws, "accept draw offers");
    app->add_option("--seed", seed, "the engine's Seed option (default: random)")
        ->check(CLI::Range(0LL, 1LL << 62));
    if (auto status = parseArgs(*app, kBot, args)) return *status;
    auto url = play::parseServerUrl(c.urlText);
    if (!url) return usageError(kBot, url.error().message);
    c.url = *url;
    if (!protocol::validUsername(c.user))
        return usageError(kBot, "--user: 3 to 24 letters, digits, '_' or '-'");
    std::string err;
    c.password = readPassword(passwordFile, err);
    if (!err.empty()) return usageError(kBot, err);
    accept += ",";
    for (std::size_t at = 0, comma; (comma = accept.find(',', at)) != std::string::npos;
         at = comma + 1) {
        const std::string what = accept.substr(at, comma - at);
        if (what == "quick")
            c.acceptQuick = true;
        else if (what == "challenges")
            c.acceptChallenges = true;
        else
            return usageError(kBot, "--accept: 'quick' and/or 'challenges', not '" + what + "'");
    }
    auto seek = play::parseInput("seek " + seekText);
    if (!seek) return usageError(kBot, "--seek: " + seek.error().message);
    c.seek = seek->seek;
    c.games = static_cast<int>(games);
    c.untimed.nodes = static_cast<std::uint64_t>(nodes);
    c.untimed.movetime = std::chrono::milliseconds(movetime);
    if (!c.untimed.nodes && !c.untimed.movetime.count())
        c.untimed.movetime = std::chrono::milliseconds(1000);
    c.seed = app->count("--seed") ? static_cast<std::uint64_t>(seed) : std::random_device{}();
    // The engine is started before connecting: a command that does not work fails at once.
    auto engine = ai::EngineClient::start(c.engine, c.seed);
    if (!engine.ok()) {
        std::cerr << "rainet bot: " << engine.error().message << "\n";
        return 1;
    }
    log("engine '" + (*engine)->name() + "' ready");
    asio::io_context io(1);
    BotClient bot(io, c, std::move(*engine));
    bot.start();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int sig) {
        if (!ec) bot.interrupted(sig);
    });
    io.run();
    return bot.status();
}

RAINET_COMMAND(bot, kBot);

}  // namespace
}  // namespace rainet::cli
