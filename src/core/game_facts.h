#pragma once
// The facts of a game between two players beyond one position's rules, each with one string form
// (the one docs/protocol.md and the store use): where the game stands (status), how it ended, its
// result, and until when it may be aborted. The store, the server and the clients' messages all
// read and write them through here.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/position.h"

namespace rainet {

// open: waiting for an opponent; setup: both seated, arranging; playing; finished: a result;
// aborted: ended without one.
enum class GameStatus : std::uint8_t { Open, Setup, Playing, Finished, Aborted };
inline constexpr int kGameStatuses = 5;
// The one string form of each, in the enum's order (the protocol's tables use these too).
inline constexpr std::array<std::string_view, kGameStatuses> kGameStatusNames = {
    "open", "setup", "playing", "finished", "aborted"};
const char* toString(GameStatus s);
std::optional<GameStatus> parseGameStatus(std::string_view s);
// Finished or aborted: nothing more happens in the game itself.
constexpr bool isOver(GameStatus s) {
    return s == GameStatus::Finished || s == GameStatus::Aborted;
}
// Setup or playing: both seats are taken and the game is not over.
constexpr bool isUnderWay(GameStatus s) {
    return s == GameStatus::Setup || s == GameStatus::Playing;
}

// How a game ended: by the rules (the position) or by the players and the clock.
enum class GameEnd : std::uint8_t {
    FourLinks,
    FourViruses,
    NoProgress,
    Resign,
    Agreement,
    Time,
    Abandoned,
    Aborted,
};
inline constexpr std::array<std::string_view, 8> kGameEndNames = {
    "four_links", "four_viruses", "no_progress", "resign",
    "agreement",  "time",         "abandoned",   "aborted"};
const char* toString(GameEnd e);
std::optional<GameEnd> parseGameEnd(std::string_view s);
// The end a finished position gives (`r` not None).
GameEnd gameEnd(EndReason r);
// The record's Termination tag for an end ("four-links", "resignation", ...: record.h).
const char* terminationName(GameEnd e);

// The result string of an ended game: "1-0", "0-1", "1/2-1/2"; empty when aborted (no result).
std::string_view resultOf(std::optional<Side> winner, GameEnd e);
// The outcome of a stored result string (Ongoing for an empty or unknown one).
Outcome outcomeOf(std::string_view result);

// A seated player may abort the game until both sides have made an action (docs/protocol.md):
// while it is open or in setup, or in play before ply 2.
constexpr bool canAbort(GameStatus s, int ply) {
    return s == GameStatus::Open || s == GameStatus::Setup || (s == GameStatus::Playing && ply < 2);
}

}  // namespace rainet
