#pragma once
// A tournament as stored (schema step 7): the tournament, its players and its games. The
// standings are not stored: the server rebuilds them from the games (src/tournament), so that
// one fact has one place and a restart loses no point.
#include <cstdint>
#include <string>
#include <vector>

namespace rainet::store {

struct TournamentRow {
    std::string id;                // "t..."
    std::string format = "arena";  // arena, round_robin
    std::string name;
    std::int64_t creator = 0;  // players.id; 0 for the operator's recurring schedule
    std::string schedule;      // the schedule's slot that made it ("" if created by a player)
    std::string preset = "standard";
    std::int64_t clockInitial = 0;  // ms
    std::int64_t clockIncrement = 0;
    bool rated = true;
    bool bots = false;          // bot accounts may join
    std::int64_t starts = 0;    // unix ms
    std::int64_t duration = 0;  // ms (arenas)
    int legs = 1;               // round robins
    int maxPlayers = 0;
    std::string status = "created";  // created, running, finished
    std::int64_t created = 0, ended = 0;
};

// A player's state in a tournament.
enum class Entrant : int { Active = 0, Paused = 1, Withdrawn = 2 };

struct TournamentPlayerRow {
    std::int64_t player = 0;
    std::int64_t joined = 0;
    Entrant state = Entrant::Active;
    int seed = 0;  // round robins: the index in the schedule
    // From players, for the standings.
    std::string publicId, name, kind;
    double rating = 1500;
    bool bot = false;
};

struct TournamentGameRow {
    std::string game;
    int round = 0;  // round robins: the round; arenas 0
    std::int64_t player[2] = {0, 0};
    int rating[2] = {0, 0};  // at the pairing
    std::int64_t started = 0;
    bool berserk[2] = {false, false};
    int actions[2] = {0, 0};
    std::string result;  // "1-0", "0-1", "1/2-1/2"; "" while in play
    std::int64_t ended = 0;
};

// What a tournament game's room shows of its tournament (Store::gameTournament).
struct GameTournamentRow {
    std::string tournament, name;
    bool berserk[2] = {false, false};
};

struct TournamentData {
    TournamentRow tournament;
    std::vector<TournamentPlayerRow> players;  // in order of joining
    std::vector<TournamentGameRow> games;      // in order of start
};

}  // namespace rainet::store
