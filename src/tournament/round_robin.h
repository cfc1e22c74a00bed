#pragma once
// Round robin for kMinRoundRobin..kMaxRoundRobin players: every pair meets once, or twice with
// the sides swapped. The rounds are fixed in advance by the circle method (Berger tables): player
// 0 stays put, the others turn one place a round; with an odd count a bye fills the circle.
// Standings go by points, then Sonneborn-Berger, then the seed (the index in the schedule).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace rainet::tournament {

inline constexpr int kMinRoundRobin = 3;
inline constexpr int kMaxRoundRobin = 12;

struct RoundGame {
    int first = 0;  // seed index of the player with side One
    int second = 0;
};

using Round = std::vector<RoundGame>;

// The schedule for `players` seeds (0-based), `legs` 1 or 2 (the second leg repeats the first
// with sides swapped). Nothing when the counts are out of range.
std::optional<std::vector<Round>> roundRobinSchedule(int players, int legs);

// Why a round robin of this size cannot be made, or nothing.
std::optional<std::string_view> roundRobinRefusal(int players, int legs);

enum class RoundResult : std::uint8_t { FirstWins, SecondWins, Draw, Unplayed };

struct PlayedGame {
    RoundGame game;
    RoundResult result = RoundResult::Unplayed;
};

struct RoundRobinRank {
    int seed = 0;
    int rank = 0;        // 1-based
    int halfPoints = 0;  // a win 2, a draw 1, a loss 0 (points x 2, to stay exact)
    // Sonneborn-Berger x 4: for each opponent beaten their half-points x 2, for each opponent
    // drawn their half-points (so the figure stays an exact integer).
    int sbQuarters = 0;
};

// Standings after the given games (unplayed ones count for nobody).
std::vector<RoundRobinRank> rankRoundRobin(int players, const std::vector<PlayedGame>& games);

// A withdrawn player's remaining games: each is lost by forfeit (RoundResult of a win for the
// opponent), so that every other player's count of games stays equal.
RoundResult forfeitAgainst(const RoundGame& game, int withdrawnSeed);

}  // namespace rainet::tournament
