#pragma once
// When a game nobody attends ends by itself, so that no game stays loaded (and listed as under
// way) forever: an open game its creator left, a game stuck in setup, a game in play both players
// left, a game against the computer its player left. The game then ends by the rules the protocol
// already has: aborted (no result) before both sides have made an action, otherwise the side that
// keeps the game waiting loses (reason `abandoned`). docs/protocol.md §9 documents the rules and
// `rainet serve --expire-*` sets the delays. Pure: GameRoom::checkExpiry applies it.
#include <cstdint>
#include <optional>

#include "core/types.h"
#include "server/metrics.h"

namespace rainet::server {

// Delays in centiseconds; 0 = never. Time while the server was down is not counted: a restarted
// server counts from the moment it loaded the game.
struct ExpiryConfig {
    std::int64_t openCs = 360000;        // 1 h: an open game whose creator has no connection
    std::int64_t setupCs = 360000;       // 1 h: a game in setup, from when the setup began
    std::int64_t abandonedCs = 8640000;  // 24 h: a game in play no player has a connection to
    std::int64_t computerCs = 180000;    // 30 min: against the computer, its player has none
};

// A seat as the room sees it; `goneSince` (cs) matters while it has no connection.
struct SeatPresence {
    bool taken = false;  // a person sits there (not the computer, not free)
    bool connected = false;
    std::int64_t goneSince = 0;
};

struct ExpiryInput {
    GameStatus state = GameStatus::Open;
    bool computer = false;        // a game against the computer
    std::int64_t stateSince = 0;  // cs: when the game entered its state (or was loaded)
    int ply = 0;                  // actions made
    Side toMove = Side::One;      // in play
    SeatPresence seats[2];
};

struct Expiry {
    std::int64_t at = 0;         // cs
    std::optional<Side> winner;  // nullopt: aborted
};

// When and how the game expires as things stand; nullopt while nothing makes it expire (someone
// attends it, or it is over).
std::optional<Expiry> expiryOf(const ExpiryInput& in, const ExpiryConfig& config);

}  // namespace rainet::server
