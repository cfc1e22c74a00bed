#include "tournament/berserk.h"

namespace rainet::tournament {

BerserkClock berserkClock(std::int64_t initialMs) {
    const std::int64_t half = initialMs / 2;
    return {half - half % 1000, 0};
}

std::optional<std::string_view> berserkRefusal(bool gameInPlay, bool alreadyBerserked,
                                               int ownActions) {
    if (!gameInPlay) return "game_over";
    if (alreadyBerserked) return "already_berserk";
    if (ownActions > 0) return "berserk_too_late";
    return std::nullopt;
}

}  // namespace rainet::tournament
