// Who follows a game room: subscriptions by role, presence, spectators, and the versioned
// events held for replay.
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

void GameRoom::subscribe(const std::shared_ptr<Client>& c, Viewer role, std::int64_t player) {
    for (Sub& s : subs_) {
        if (s.key != c.get()) continue;
        s.player = player;
        if (s.role == role) return;
        if (isSide(s.role)) setConnections(sideOfViewer(s.role), -1);
        if (!isSide(s.role)) setSpectators(spectators_ - 1);
        s.role = role;
        if (isSide(role)) setConnections(sideOfViewer(role), +1);
        if (!isSide(role)) setSpectators(spectators_ + 1);
        return;
    }
    subs_.push_back(Sub{c, c.get(), role, player});
    if (isSide(role)) setConnections(sideOfViewer(role), +1);
    if (!isSide(role)) setSpectators(spectators_ + 1);
}

void GameRoom::setSpectators(int n) {
    spectators_ = n;
    sendAll(protocol::SpectatorsMessage{id_, n});
}

void GameRoom::unsubscribe(const Client* c) {
    for (std::size_t i = 0; i < subs_.size(); ++i) {
        if (subs_[i].key != c) continue;
        const Viewer role = subs_[i].role;
        subs_.erase(subs_.begin() + static_cast<std::ptrdiff_t>(i));
        if (isSide(role)) setConnections(sideOfViewer(role), -1);
        if (!isSide(role)) setSpectators(spectators_ - 1);
        return;
    }
}

void GameRoom::setConnections(Side s, int delta) {
    Seat& seat = seats_[index(s)];
    const bool was = seat.connections > 0;
    seat.connections += delta;
    const bool is = seat.connections > 0;
    if (!is) seat.goneSince = hub_.time().nowCs();
    if (was != is) broadcastPresence(s);
}

void GameRoom::broadcastPresence(Side s) {
    sendAll(protocol::PresenceMessage{id_, s, seats_[index(s)].connections > 0});
}

void GameRoom::sendAll(const std::shared_ptr<const std::string>& text) {
    Broadcast out(text);
    for (const Sub& sub : subs_)
        if (auto c = sub.client.lock()) out.add(c);
}

void GameRoom::publish(const Texts& live, const Texts& held, const std::shared_ptr<Client>& acker,
                       std::shared_ptr<const std::string> ack) {
    // One broadcast per distinct text (a viewer class's, or one shared by several): within it
    // the connections of another node of the cluster cost one Redis message together
    // (Broadcast). The acker's pair goes alone: its ack is its own.
    auto same = [&](int i) {  // the first class with the text of class i
        int j = 0;
        while (live[j] != live[i]) ++j;
        return j;
    };
    Broadcast out[3] = {Broadcast(live[0]), Broadcast(live[1]), Broadcast(live[2])};
    for (const Sub& sub : subs_)
        if (auto c = sub.client.lock()) {
            const int i = static_cast<int>(sub.role);
            if (ack && c == acker)
                c->send(std::move(ack), live[i]);
            else
                out[same(i)].add(c);
        }
    for (auto& o : out) o.flush();
    if (ack && acker) acker->send(std::move(ack));
    Event ev;
    ev.v = row_.version;
    for (int i = 0; i < 3; ++i) ev.text[i] = held[i];
    events_.push_back(std::move(ev));
    if (events_.size() > kEventsHeld) events_.pop_front();
}

void GameRoom::replay(const std::shared_ptr<Client>& c, Viewer role, std::int64_t after) {
    for (const Event& ev : events_) {
        if (ev.v <= after) continue;
        const auto& text = ev.text[static_cast<int>(role)];
        if (ev.v == row_.version && row_.status == GameStatus::Playing && pos_ &&
            viewerOf(pos_->toMove()) == role) {
            c->send(protocol::withLegal(*text, legal(role)));
        } else {
            c->send(text);
        }
    }
}

void GameRoom::replayChat(const std::shared_ptr<Client>& c, Viewer role, std::int64_t after) {
    for (const protocol::ChatLine& line : chat_[isSide(role) ? 0 : 1])
        if (line.n > after) c->send(protocol::render(protocol::ChatMessage{id_, line}));
}

}  // namespace rainet::server
