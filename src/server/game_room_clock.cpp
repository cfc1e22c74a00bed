// Time in a game room: the flag, expiry, the timer, and stopping it at shutdown.
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

void GameRoom::checkClock() {
    if (!isTimed() || row_.status != GameStatus::Playing || !pos_) return;
    const Side s = pos_->toMove();
    if (remaining(s) > 0) return;
    end(opponent(s), GameEnd::Time);
}

void GameRoom::checkExpiry() {
    if (isCorrespondence()) {
        // Days, not the attendance rules: nobody need be connected for weeks. An open game
        // nobody joined within a move's time, or a setup not done by its deadline, is aborted;
        // in play the clock decides (checkClock).
        // (A game made in setup by a seek or a challenge counts from its creation.)
        const std::int64_t deadline = row_.deadline ? row_.deadline : row_.created + perMoveMs();
        if (row_.status == GameStatus::Playing || !deadline || hub_.time().unixMs() < deadline)
            return;
        if (row_.status != GameStatus::Open && row_.status != GameStatus::Setup) return;
        logEvent("game_expired", {{"game", id_}, {"status", toString(row_.status)}});
        ++metrics_.gamesExpired;
        return end(std::nullopt, GameEnd::Aborted);
    }
    ExpiryInput in;
    in.state = row_.status;
    in.computer = botSide_.has_value();
    in.stateSince = stateSince_;
    in.ply = pos_ ? pos_->ply() : 0;
    in.toMove = pos_ ? pos_->toMove() : Side::One;
    for (int i = 0; i < 2; ++i)
        in.seats[i] = {seats_[i].player != 0 && !seats_[i].bot, seats_[i].connections > 0,
                       seats_[i].goneSince};
    const auto e = expiryOf(in, hub_.config().expiry);
    if (!e || hub_.time().nowCs() < e->at) return;
    logEvent("game_expired", {{"game", id_}, {"status", toString(row_.status)}});
    ++metrics_.gamesExpired;
    end(e->winner, e->winner ? GameEnd::Abandoned : GameEnd::Aborted);
}

void GameRoom::armTimer(std::int64_t atLeastMs) {
    if (!isTimed() || row_.status != GameStatus::Playing || hub_.time().isManual() || stopped_)
        return;
    const std::uint64_t gen = ++timerGeneration_;
    timer_.expires_after(
        std::chrono::milliseconds(std::max(remaining(pos_->toMove()) * 10 + 1, atLeastMs)));
    timer_.async_wait(asio::bind_executor(
        strand_, [self = shared_from_this(), gen](const boost::system::error_code& ec) {
            if (ec) return;
            self->enter([gen](GameRoom& r) {  // after a commit in flight, if any
                if (gen != r.timerGeneration_) return;
                r.checkClock();
                if (r.row_.status == GameStatus::Playing) r.armTimer();
            });
        }));
}

void GameRoom::stop() {
    stopped_ = true;
    ++timerGeneration_;
    timer_.cancel();
    botRetry_.cancel();
}

}  // namespace rainet::server
