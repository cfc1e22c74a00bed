// After the end: a rematch offered, accepted (the next game) or declined.
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

void GameRoom::rematch(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m) {
    if (!isOver(row_.status)) return error(c, ErrorCode::WrongStatus, "the game is not over", m);
    const Seat& other = seats_[index(opponent(s))];
    if (!other.player && !other.bot)
        return error(c, ErrorCode::WrongStatus, "the game never had an opponent", m);
    // Already agreed, or already offered: acknowledged, nothing new happens.
    if (!nextGame_.empty() || rematchOffer_ == s) {
        if (c) c->send(protocol::renderAck(m.id, id_));
        return;
    }
    if (!other.bot && rematchOffer_ != opponent(s)) {
        rematchOffer_ = s;
        return sideEvent<protocol::RematchOfferEvent>(c, s, m, [](GameRoom& r, bool stored) {
            if (!stored) r.rematchOffer_.reset();
        });
    }
    auto next = hub_.rematch(row_);
    if (!next) return error(c, ErrorCode::Internal, "the rematch could not be stored", m);
    nextGame_ = *next;
    bump(
        c, s, m,
        [this, next = *next](Viewer) {
            return protocol::RematchEvent{id_, row_.version, next};
        },
        [c, m](GameRoom& r, bool stored) {
            if (stored) return r.rematchOffer_.reset();
            // The new game exists (both players find it among their games) even if this one's
            // version could not move on; say so without an event.
            if (c) c->send(protocol::renderAck(m.id, r.id_));
        });
}

void GameRoom::declineRematch(const std::shared_ptr<Client>& c, Side s,
                              const protocol::ClientMessage& m) {
    if (!nextGame_.empty() || rematchOffer_ != opponent(s))
        return error(c, ErrorCode::NoRematchOffer, "your opponent has not offered a rematch", m);
    rematchOffer_.reset();
    sideEvent<protocol::RematchDeclineEvent>(c, s, m, [s](GameRoom& r, bool stored) {
        if (!stored) r.rematchOffer_ = opponent(s);
    });
}

}  // namespace rainet::server
