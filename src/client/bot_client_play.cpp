// BotClient's playing (bot_client.h): the engine spoken to on its own thread, and what each state
// of the game asks of the bot.
#include "client/bot_client.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <boost/asio/post.hpp>

#include "client/bot_game.h"
#include "protocol/messages.h"

namespace rainet::client::bot {

namespace asio = boost::asio;
using play::GameFollower;
using play::GameState;

// The engine, started again after a failure. Engine thread only.
ai::EngineClient& BotClient::engine() {
    if (!engine_) {
        auto e = ai::EngineClient::start(cfg_.engine, cfg_.seed);
        if (!e.ok()) throw std::runtime_error(e.error().message);
        engine_ = std::move(*e);
    }
    return *engine_;
}

// Runs `job` on the engine thread, then `done` with its result on the io thread.
template <class Job, class Done>
void BotClient::onEngine(Job job, Done done) {
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

void BotClient::onGame(const Json& j) {
    if (!game_) return;
    const auto outcome = game_->take(j);
    if (outcome == GameFollower::Outcome::Gap) {
        send({{"type", "resume"}, {"game", game_->game()}, {"v", game_->state().v}});
        game_->resumeSent();
        return;
    }
    if (outcome == GameFollower::Outcome::Applied) step();
}

// Does what the game now asks of the bot (at most one thing each time something changed).
void BotClient::step() {
    if (!game_) return;
    const GameState& s = game_->state();
    if (s.v < 0 || !s.isPlayer()) return;
    if (s.isOver()) return gameOver();
    const std::string opp = s.you == "1" ? "2" : "1";
    if (s.drawOffer == opp && !drawAnswered_) {
        drawAnswered_ = true;
        log(cfg_.acceptDraws ? "accepting the draw offer" : "declining the draw offer");
        request({{"type", cfg_.acceptDraws ? "draw_accept" : "draw_decline"}, {"game", s.game}});
    }
    if (s.drawOffer.empty()) drawAnswered_ = false;
    const int mine = s.you == "2" ? 1 : 0;
    if (s.status == "setup" && !s.setupDone[mine] && !setupSent_) return setUp();
    if (s.myTurn() && thinkingV_ != s.v && actId_.empty()) return think();
}

void BotClient::setUp() {
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
            request(
                {{"type", "setup"}, {"game", game}, {"links", protocol::setupJson(side, *links)}});
        });
}

void BotClient::think() {
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
            if (game_->state().v == v && std::find(legal.begin(), legal.end(), text) == legal.end())
                return fail("the engine played an illegal action '" + text + "'");
            actId_ = request({{"type", "act"}, {"game", game}, {"action", text}, {"v", v}});
        });
}

// The engine cannot play this game on: resign it (the engine is started again for the next).
void BotClient::fail(const std::string& why) {
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

void BotClient::gameOver() {
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
    if (tournamentDone_) return quit();
    lookForGame();
}

}  // namespace rainet::client::bot
