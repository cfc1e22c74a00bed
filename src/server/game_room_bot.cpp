// The computer's seat in a game room: its arrangement and its moves, searched on the bot pool.
#include "server/game_room_detail.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>

#include "server/bot_workers.h"
#include "server/hub.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::MsgType;
using namespace room_detail;

void GameRoom::activate() {
    if (!botSide_) return;
    if (row_.status == GameStatus::Setup && setups_[index(*botSide_)] < 0) return botSetup();
    armTimer();
    botThink();
}

void GameRoom::botSetup() {
    const Rules rules = Rules::byName(row_.preset).value_or(Rules::standard());
    setup(nullptr, *botSide_, setupBot(row_.level)->chooseSetup(*botSide_, rules, rng_),
          protocol::ClientMessage{});
}

void GameRoom::botRetryLater() {
    botRetry_.expires_after(std::chrono::milliseconds(kBotRetryMs));
    botRetry_.async_wait(asio::bind_executor(
        strand_, [self = shared_from_this()](const boost::system::error_code& ec) {
            if (ec) return;
            self->enter([](GameRoom& r) { r.botThink(); });  // it checks the game still waits
        }));
}

void GameRoom::botThink() {
    if (!botSide_ || row_.status != GameStatus::Playing || pos_->toMove() != *botSide_ ||
        botBusy_ || stopped_)
        return;
    botBusy_ = true;
    const int ply = pos_->ply();
    const std::uint64_t seed = rng_.next();
    ai::Budget budget;
    budget.movetime = std::chrono::milliseconds(100 * row_.level);
    asio::post(hub_.bots(), [self = shared_from_this(), knows = *botKnows_, ply, seed, budget,
                             level = row_.level] {
        Rng rng(seed);
        Action a;
        try {
            if (self->hub_.takeTestThrow(Hub::TestThrow::Bot))
                throw std::runtime_error("test: thrown on demand in a bot search");
            a = workerBot(level, self->metrics_).chooseAction(knows, budget, rng);
        } catch (const std::exception& e) {  // fails this game only, on its strand
            return self->run([what = std::string(e.what())](GameRoom& r) {
                r.botBusy_ = false;
                r.fail("bot: " + what);
            });
        }
        self->run([a, ply](GameRoom& r) {
            r.botBusy_ = false;
            if (r.row_.status != GameStatus::Playing || r.pos_->ply() != ply) return;
            Action chosen = a;
            if (!r.pos_->isLegal(chosen)) {
                logEvent("bot_illegal_action", {{"game", r.id_}, {"action", toString(a)}});
                chosen = r.pos_->legalActions()[0];
            }
            r.act(nullptr, *r.botSide_, chosen, protocol::ClientMessage{});
        });
    });
}

}  // namespace rainet::server
