#pragma once
// Berserk: at the start of an arena game a player may halve their own clock; the increment is
// dropped for them. Allowed once per game, only before the player's first action, and only
// while the game is in play.
#include <cstdint>
#include <optional>
#include <string_view>

namespace rainet::tournament {

struct BerserkClock {
    std::int64_t initialMs = 0;
    std::int64_t incrementMs = 0;
};

// The berserked player's clock: half the initial time (rounded down to a whole second so that
// the clock a player sees stays round) and no increment.
BerserkClock berserkClock(std::int64_t initialMs);

// Why berserk is refused, or nothing when it is allowed. The codes are the protocol's.
std::optional<std::string_view> berserkRefusal(bool gameInPlay, bool alreadyBerserked,
                                               int ownActions);

}  // namespace rainet::tournament
