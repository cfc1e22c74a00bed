#pragma once
// What the game_room_*.cpp files share: limits, small helpers, and the room's member templates
// (events, commits, versioned offers) that several of them instantiate.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <cstddef>
#include <string>

#include "server/game_room.h"
#include "server/hub.h"
#include "tournament/berserk.h"

namespace rainet::server {
namespace room_detail {

inline constexpr std::size_t kEventsHeld = 128;
inline constexpr std::size_t kChatHeld = store::Store::kChatLoaded;  // chat lines per channel held
inline constexpr double kChatBurst = 5;          // chat lines a player may send at once
inline constexpr double kChatEveryCs = 200;      // then one more every 2 s
inline constexpr std::size_t kChatIdsHeld = 64;  // chat ids remembered per player and game
inline constexpr Viewer kViewers[3] = {Viewer::Side1, Viewer::Side2, Viewer::Spectator};

inline const char* sideName(Side s) {
    return viewerName(viewerOf(s));  // "1" / "2"
}
// A berserked clock in cs: half the initial time, whole seconds (tournament/berserk.h).
inline std::int64_t berserkCs(std::int64_t initialCs) {
    return tournament::berserkClock(initialCs * 10).initialMs / 10;
}

inline Side sideAt(int i) {
    return i == 0 ? Side::One : Side::Two;
}
[[nodiscard]] inline bool isSide(Viewer v) {
    return v != Viewer::Spectator;
}
inline Side sideOfViewer(Viewer v) {
    return v == Viewer::Side1 ? Side::One : Side::Two;
}

}  // namespace room_detail

template <class Make>
void GameRoom::emit(Make make) {
    // Sent with `legal` to the side to move; held (for replay) without it, which keeps the held
    // events small: replay() adds the current legal actions to the last one it sends.
    Texts live, held;
    for (Viewer v : room_detail::kViewers) {
        auto e = make(v);
        const int i = static_cast<int>(v);
        live[i] = std::make_shared<const std::string>(protocol::render(e));
        held[i] = live[i];
        if constexpr (requires { e.legal.reset(); }) {
            if (e.legal) {
                e.legal.reset();
                held[i] = std::make_shared<const std::string>(protocol::render(e));
            }
        }
    }
    publish(live, held);
}

template <class Then>
void GameRoom::afterCommit(Then then) {
    afterCommit(shared_from_this(), std::move(then));
}

template <class Then>
void GameRoom::afterCommit(std::shared_ptr<GameRoom> self, Then then) {
    asio::post(strand_, [self = std::move(self), then = std::move(then)]() mutable {
        self->committing_ = false;
        if (!self->broken()) self->guarded([&](GameRoom& r) { then(r); });
        self->resumeHeld();
    });
}

template <class Write, class Then>
void GameRoom::commit(Write write, Then then) {
    committing_ = true;
    // In a cluster the write is fenced by the game's lease (taken now, on the strand): it fails,
    // changing nothing, once another node owns the game.
    hub_.store().write([self = shared_from_this(), write = std::move(write), then = std::move(then),
                        fence = hub_.writeFence(id_, isOver(row_.status))]() mutable {
        auto result = write(self->hub_.store(), fence);
        // `result` passed as an lvalue: g++ 12 warns wrongly about moving a variant here.
        self->afterCommit([then = std::move(then),
                           result = std::move(result)](GameRoom& r) mutable { then(r, result); });
    });
}

template <class Make, class Then>
void GameRoom::bump(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m,
                    Make make, Then then) {
    const store::GameRow saved = row_;
    ++row_.version;
    // The offers as they stand are stored with the version that announces them.
    row_.drawOffer = drawOffer_ ? sideNumber(*drawOffer_) : 0;
    row_.rematchOffer = rematchOffer_ ? sideNumber(*rematchOffer_) : 0;
    row_.nextGame = nextGame_;
    commit([row = row_](store::Store& st, const Fence& f) { return st.updateGame(row, f); },
           [c, s, m, saved, make = std::move(make), then = std::move(then)](
               GameRoom& r, std::optional<Error> e) mutable {
               if (!r.store(e, c, m)) {
                   r.row_ = saved;
                   return then(r, false);
               }
               r.ack(c, s, m);
               r.emit(make);
               then(r, true);
           });
}

template <class Event, class Then>
void GameRoom::sideEvent(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m,
                         Then then) {
    bump(
        c, s, m,
        [this, s](Viewer) {
            return Event{id_, row_.version, s};
        },
        std::move(then));
}

}  // namespace rainet::server
