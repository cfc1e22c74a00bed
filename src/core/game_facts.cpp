#include "core/game_facts.h"

#include <array>

#include "core/record.h"

namespace rainet {

namespace {

constexpr std::array<const char*, kGameStatuses> kStatusNames = {"open", "setup", "playing",
                                                                 "finished", "aborted"};
constexpr std::array<const char*, 8> kEndNames = {"four_links", "four_viruses", "no_progress",
                                                  "resign",     "agreement",    "time",
                                                  "abandoned",  "aborted"};

}  // namespace

const char* toString(GameStatus s) {
    return kStatusNames[static_cast<std::size_t>(s)];
}

std::optional<GameStatus> parseGameStatus(std::string_view s) {
    for (std::size_t i = 0; i < kStatusNames.size(); ++i)
        if (s == kStatusNames[i]) return static_cast<GameStatus>(i);
    return std::nullopt;
}

const char* toString(GameEnd e) {
    return kEndNames[static_cast<std::size_t>(e)];
}

std::optional<GameEnd> parseGameEnd(std::string_view s) {
    for (std::size_t i = 0; i < kEndNames.size(); ++i)
        if (s == kEndNames[i]) return static_cast<GameEnd>(i);
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
