#include "core/game_facts.h"

#include <array>

#include "core/record.h"

namespace rainet {

// The tables' views point at string literals, so their data() are NUL-terminated.
const char* toString(GameStatus s) {
    return kGameStatusNames[static_cast<std::size_t>(s)].data();
}

std::optional<GameStatus> parseGameStatus(std::string_view s) {
    for (std::size_t i = 0; i < kGameStatusNames.size(); ++i)
        if (s == kGameStatusNames[i]) return static_cast<GameStatus>(i);
    return std::nullopt;
}

const char* toString(GameEnd e) {
    return kGameEndNames[static_cast<std::size_t>(e)].data();
}

std::optional<GameEnd> parseGameEnd(std::string_view s) {
    for (std::size_t i = 0; i < kGameEndNames.size(); ++i)
        if (s == kGameEndNames[i]) return static_cast<GameEnd>(i);
    return std::nullopt;
}

GameEnd gameEnd(EndReason r) {
    return r == EndReason::FourLinks     ? GameEnd::FourLinks
           : r == EndReason::FourViruses ? GameEnd::FourViruses
                                         : GameEnd::NoProgress;
}

const char* terminationName(GameEnd e) {
    switch (e) {
        case GameEnd::FourLinks:
            return endReasonName(EndReason::FourLinks);  // the rules' endings: record.h's names
        case GameEnd::FourViruses:
            return endReasonName(EndReason::FourViruses);
        case GameEnd::NoProgress:
            return endReasonName(EndReason::NoProgress);
        case GameEnd::Resign:
            return "resignation";
        case GameEnd::Abandoned:
            return "abandonment";
        default:
            return toString(e);  // time, agreement, aborted
    }
}

std::string_view resultOf(std::optional<Side> winner, GameEnd e) {
    if (e == GameEnd::Aborted) return "";
    return resultString(!winner                ? Outcome::Draw
                        : *winner == Side::One ? Outcome::Side1Wins
                                               : Outcome::Side2Wins);
}

Outcome outcomeOf(std::string_view result) {
    if (result == "1-0") return Outcome::Side1Wins;
    if (result == "0-1") return Outcome::Side2Wins;
    if (result == "1/2-1/2") return Outcome::Draw;
    return Outcome::Ongoing;
}

}  // namespace rainet
