#include "server/expiry.h"

#include <algorithm>

namespace rainet::server {

namespace {

// The earlier of two expiries (either may be absent).
std::optional<Expiry> earlier(std::optional<Expiry> a, std::optional<Expiry> b) {
    if (!a) return b;
    if (!b) return a;
    return b->at < a->at ? b : a;
}

// After `delay` from `since`; nothing when the delay is 0 (never).
std::optional<Expiry> after(std::int64_t since, std::int64_t delay, std::optional<Side> winner) {
    if (delay <= 0) return std::nullopt;
    return Expiry{since + delay, winner};
}

}  // namespace

std::optional<Expiry> expiryOf(const ExpiryInput& in, const ExpiryConfig& config) {
    const SeatPresence* human = nullptr;  // against the computer: the person's seat
    int humanSide = 0;
    for (int i = 0; i < 2; ++i)
        if (in.seats[i].taken) {
            human = &in.seats[i];
            humanSide = i;
        }
    switch (in.state) {
        case GameStatus::Open:
            // Only the creator is seated: the game waits for an opponent while the creator is
            // around to play it.
            if (!human || human->connected) return std::nullopt;
            return after(human->goneSince, config.openCs, std::nullopt);
        case GameStatus::Setup: {
            auto e = after(in.stateSince, config.setupCs, std::nullopt);
            if (in.computer && human && !human->connected)
                e = earlier(e, after(human->goneSince, config.computerCs, std::nullopt));
            return e;
        }
        case GameStatus::Playing: {
            // Before both sides have acted the game may still be aborted (docs/protocol.md
            // `abort`), and so it is; later the side that keeps it waiting loses.
            const bool early = in.ply < 2;
            if (in.computer) {
                if (!human || human->connected) return std::nullopt;
                const Side bot = humanSide == 0 ? Side::Two : Side::One;
                return after(human->goneSince, config.computerCs,
                             early ? std::nullopt : std::optional<Side>(bot));
            }
            if (in.seats[0].connected || in.seats[1].connected) return std::nullopt;
            const std::int64_t lastLeft = std::max(in.seats[0].goneSince, in.seats[1].goneSince);
            return after(lastLeft, config.abandonedCs,
                         early ? std::nullopt : std::optional<Side>(opponent(in.toMove)));
        }
        case GameStatus::Finished:
        case GameStatus::Aborted:
            break;
    }
    return std::nullopt;
}

}  // namespace rainet::server
