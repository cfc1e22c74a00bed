// A game message from a client: checked against the status and the seat, then handed to the
// change it asks for.
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

void GameRoom::dispatch(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                        const protocol::ClientMessage& m) {
    const Viewer role = roleOf(who.id);
    switch (m.type) {
        case MsgType::Watch:
            subscribe(c, role, who.id);
            c->send(snapshot(role));
            return;
        case MsgType::Resume: {
            subscribe(c, role, who.id);
            const std::int64_t v = *m.v;
            if (v != row_.version &&
                !(v < row_.version && !events_.empty() && events_.front().v <= v + 1))
                return c->send(snapshot(role));  // it carries the chat too
            if (v != row_.version) replay(c, role, v);
            if (m.chatSeen) replayChat(c, role, *m.chatSeen);
            return;
        }
        case MsgType::Leave:
            unsubscribe(c.get());
            return;
        case MsgType::Join:
            join(c, who, m);
            return;
        case MsgType::Chat:
            chat(c, who, m);
            return;
        default:
            break;
    }
    const auto side = sideOf(who.id);
    if (!side) return error(c, ErrorCode::NotAPlayer, "you have no seat in this game", m);
    const Side s = *side;
    if (auto it = done_[index(s)].find(m.id.dump()); it != done_[index(s)].end()) {
        c->send(it->second);  // a repeated request: acknowledged again, not applied again
        return;
    }
    const GameStatus st = row_.status;
    switch (m.type) {
        case MsgType::Setup: {
            if (st != GameStatus::Setup)
                return error(c, ErrorCode::WrongStatus, "the game is not in setup", m);
            if (setups_[index(s)] >= 0)
                return error(c, ErrorCode::AlreadySetUp, "your arrangement is already set", m);
            std::optional<std::uint8_t> mask =
                m.random ? std::optional<std::uint8_t>(ai::randomSetup(rng_))
                         : protocol::setupMask(s, m.links);
            if (!mask)
                return error(c, ErrorCode::BadSetup,
                             "'links' must be 4 distinct setup squares of your side", m);
            return setup(c, s, *mask, m);
        }
        case MsgType::Act: {
            if (st != GameStatus::Playing)
                return error(c, ErrorCode::WrongStatus, "the game is not in play", m);
            if (pos_->toMove() != s)
                return error(c, ErrorCode::NotYourTurn, "it is not your turn", m);
            if (m.v && *m.v != row_.version)
                return error(c, ErrorCode::StaleVersion,
                             "the game is at version " + std::to_string(row_.version), m);
            auto a = parseAction(m.action);
            if (!a) return error(c, ErrorCode::IllegalAction, a.error().message, m);
            if (!pos_->isLegal(*a))
                return error(c, ErrorCode::IllegalAction, m.action + " is not legal here", m);
            return act(c, s, *a, m);
        }
        case MsgType::Resign:
            if (!isUnderWay(st))
                return error(c, ErrorCode::WrongStatus, "the game is not under way", m);
            return end(opponent(s), GameEnd::Resign, [c, s, m](GameRoom& r) { r.ack(c, s, m); });
        case MsgType::DrawOffer:
            if (st != GameStatus::Playing)
                return error(c, ErrorCode::WrongStatus, "the game is not in play", m);
            if (drawOffer_) return error(c, ErrorCode::NoDrawOffer, "a draw offer is pending", m);
            drawOffer_ = s;
            return sideEvent<protocol::DrawOfferEvent>(c, s, m, [s, m](GameRoom& r, bool stored) {
                if (!stored) return r.drawOffer_.reset();
                // The computer never agrees to a draw: it declines at once instead of leaving
                // the offer pending until the next action.
                if (r.seats_[index(opponent(s))].bot)
                    r.sideEvent<protocol::DrawDeclineEvent>(nullptr, opponent(s), m,
                                                            [](GameRoom& r2, bool declined) {
                                                                if (declined) r2.drawOffer_.reset();
                                                            });
            });
        case MsgType::DrawAccept:
        case MsgType::DrawDecline:
            if (st != GameStatus::Playing)
                return error(c, ErrorCode::WrongStatus, "the game is not in play", m);
            if (drawOffer_ != opponent(s))
                return error(c, ErrorCode::NoDrawOffer, "your opponent has not offered a draw", m);
            if (m.type == MsgType::DrawAccept)
                return end(std::nullopt, GameEnd::Agreement,
                           [c, s, m](GameRoom& r) { r.ack(c, s, m); });
            drawOffer_.reset();
            return sideEvent<protocol::DrawDeclineEvent>(c, s, m, [s](GameRoom& r, bool stored) {
                if (!stored) r.drawOffer_ = opponent(s);
            });
        case MsgType::ClaimWin: {
            if (!isUnderWay(st))
                return error(c, ErrorCode::WrongStatus, "the game is not under way", m);
            const Seat& other = seats_[index(opponent(s))];
            if (other.bot || other.connections > 0 ||
                hub_.time().nowCs() - other.goneSince < hub_.config().graceCs)
                return error(c, ErrorCode::CannotClaim,
                             "your opponent is connected or within the grace period", m);
            return end(s, GameEnd::Abandoned, [c, s, m](GameRoom& r) { r.ack(c, s, m); });
        }
        case MsgType::Berserk:
            return berserk(c, s, m);
        case MsgType::Rematch:
            return rematch(c, s, m);
        case MsgType::RematchDecline:
            return declineRematch(c, s, m);
        case MsgType::Abort:
            if (isOver(st)) return error(c, ErrorCode::WrongStatus, "the game is over", m);
            if (!canAbort(st, pos_ ? pos_->ply() : 0))
                return error(c, ErrorCode::CannotAbort, "both sides have made an action", m);
            return end(std::nullopt, GameEnd::Aborted, [c, s, m](GameRoom& r) { r.ack(c, s, m); });
        default:
            return error(c, ErrorCode::BadMessage, "not a game message", m);
    }
}

}  // namespace rainet::server
