#pragma once
// Arena pairing: the players waiting for a game (not playing, not paused, not withdrawn) are
// ranked by tournament score, then rating, and paired down the ranking, each with the nearest
// player below who was not their last opponent. Two last opponents meet again only when neither
// has anyone else to play. The side of each game goes to the player who had it less often.
#include <cstdint>
#include <vector>

namespace rainet::tournament {

using PlayerKey = std::int64_t;  // the server's player id; 0 never names a player

struct Waiting {
    PlayerKey player = 0;
    int points = 0;
    int rating = 0;
    PlayerKey lastOpponent = 0;  // 0: none yet
    int firstSides = 0;          // games this player had the first side
    int secondSides = 0;
};

struct Pairing {
    PlayerKey first = 0;  // takes side One
    PlayerKey second = 0;
};

// Pairs as many of `waiting` as the rule allows; an odd or unpairable player keeps waiting.
// Deterministic: equal inputs give equal pairings (ties in score and rating go by player key).
std::vector<Pairing> pairArena(std::vector<Waiting> waiting);

}  // namespace rainet::tournament
