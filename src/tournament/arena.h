#pragma once
// One arena's state, without I/O: who joined and in what state, the games paired and their
// results, the score sheets, and what to pair now. The server owns one Arena per running arena
// (on the node holding its lease), feeds it joins, game starts and ends, and asks it for
// pairings; after a restart it rebuilds the Arena from the stored rows (Arena::rebuild), so that
// no point is lost. Every refusal is an error code of docs/protocol.md and changes nothing.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tournament/arena_pairing.h"
#include "tournament/arena_scoring.h"
#include "tournament/arena_standings.h"

namespace rainet::tournament {

enum class EntrantState : std::uint8_t { Active, Paused, Withdrawn };

struct ArenaPlayer {
    PlayerKey player = 0;
    int rating = 0;
    EntrantState state = EntrantState::Active;
    ArenaSheet sheet;
    int opponentRatingSum = 0;  // over the sheet's games
    std::string game;           // the game in play, "" when free
    PlayerKey lastOpponent = 0;
    int firstSides = 0, secondSides = 0;
};

// A game's result from side One's point of view.
enum class GameOutcome : std::uint8_t { FirstWins, SecondWins, Draw };

struct ArenaGameRecord {
    std::string game;
    PlayerKey player[2] = {0, 0};
    int rating[2] = {0, 0};
    std::int64_t started = 0;
    bool berserk[2] = {false, false};
    int actions[2] = {0, 0};
    bool over = false;                   // ended (or aborted)
    std::optional<GameOutcome> outcome;  // none while in play, and for an aborted game
    std::int64_t ended = 0;
    bool counted = false;  // scored (it started before the end)
};

class Arena {
  public:
    Arena(std::int64_t startsMs, std::int64_t endsMs) : starts_(startsMs), ends_(endsMs) {}

    [[nodiscard]] std::int64_t starts() const { return starts_; }
    [[nodiscard]] std::int64_t ends() const { return ends_; }
    // Over: the end has passed (games in play may still finish).
    [[nodiscard]] bool over(std::int64_t nowMs) const { return nowMs >= ends_; }
    // Finished: over and no game in play any more; the standings are final.
    [[nodiscard]] bool finished(std::int64_t nowMs) const;

    // Joins (or comes back after a pause). Refusals: "already_joined" (active already),
    // "tournament_over", "withdrawn" (withdrew for good), "tournament_full".
    std::optional<std::string_view> join(PlayerKey p, int rating, std::int64_t nowMs,
                                         int maxPlayers);
    // What join would answer, changing nothing (to check before storing the join).
    [[nodiscard]] std::optional<std::string_view> joinRefusal(PlayerKey p, std::int64_t nowMs,
                                                              int maxPlayers) const;
    // Stops being paired; a game in play goes on and counts. Join again to come back.
    // Refusals: "not_joined", "tournament_over".
    std::optional<std::string_view> pause(PlayerKey p, std::int64_t nowMs);
    // Leaves for good: never paired again, never back; the points stay in the standings.
    // Refusal: "not_joined".
    std::optional<std::string_view> withdraw(PlayerKey p);

    // The pairings to make now: every active player without a game, by pairArena. Nothing
    // before the start or from the end on. The caller starts a game for each (gameStarted).
    [[nodiscard]] std::vector<Pairing> pairings(std::int64_t nowMs) const;
    // A game of a pairing began (its players are busy until gameEnded).
    void gameStarted(const std::string& game, const Pairing& p, std::int64_t nowMs);
    // Berserk by `p` in `game`, before their first action (`ownActions` 0). Refusals:
    // "unknown_game", "not_a_player", and berserkRefusal's codes.
    std::optional<std::string_view> berserk(const std::string& game, PlayerKey p, int ownActions);
    // A game ended: scored if it started before the end; `outcome` none for an aborted game,
    // which frees its players and scores nothing. False if the game is unknown or already
    // ended (a repeated end changes nothing).
    bool gameEnded(const std::string& game, std::optional<GameOutcome> outcome,
                   const int actions[2], std::int64_t endedMs);

    [[nodiscard]] const std::map<PlayerKey, ArenaPlayer>& players() const { return players_; }
    [[nodiscard]] const ArenaPlayer* player(PlayerKey p) const;
    [[nodiscard]] const ArenaGameRecord* game(const std::string& id) const;
    [[nodiscard]] const std::vector<ArenaGameRecord>& games() const { return games_; }
    // The standings: everyone who joined (withdrawn players too, with their points).
    [[nodiscard]] std::vector<ArenaRank> standings() const;

    // The Arena as it was: players (with their states) and games as stored, the games in order
    // of start; finished ones are scored in order of their end, as they were live.
    struct StoredPlayer {
        PlayerKey player = 0;
        int rating = 0;
        EntrantState state = EntrantState::Active;
    };
    static Arena rebuild(std::int64_t startsMs, std::int64_t endsMs,
                         const std::vector<StoredPlayer>& players,
                         const std::vector<ArenaGameRecord>& games);

  private:
    void score(ArenaGameRecord& g);
    std::int64_t starts_, ends_;
    std::map<PlayerKey, ArenaPlayer> players_;
    std::vector<ArenaGameRecord> games_;
    std::map<std::string, std::size_t> gameIndex_;
};

}  // namespace rainet::tournament
