#pragma once
// Arena scoring (lichess's rules): a win is worth 2, a draw 1, a loss 0; after two wins in a row
// each further result counts double until a game is not won (the player is "on fire"); a
// berserked win in which the player made at least kBerserkMinActions actions earns one more point,
// never doubled. Pure values: the server feeds each counted game of a player in order.
#include <cstdint>
#include <vector>

namespace rainet::tournament {

enum class Outcome : std::uint8_t { Win, Draw, Loss };

// A berserk bonus needs this many of the player's own actions in the game (lichess: 7 moves), so
// that a berserk player cannot bank the point on an opponent who never played.
inline constexpr int kBerserkMinActions = 7;

// One finished game from one player's side.
struct ArenaGame {
    Outcome outcome = Outcome::Loss;
    bool berserk = false;  // this player halved their own clock
    int ownActions = 0;    // actions this player made in the game
};

// What one game earned, as shown in the standings' score sheet.
struct ArenaMark {
    int points = 0;
    bool doubled = false;       // counted while on fire
    bool berserkBonus = false;  // the +1 of a berserked win
};

// A player's running arena score.
struct ArenaSheet {
    int points = 0;
    int wins = 0;
    int draws = 0;
    int losses = 0;
    int winStreak = 0;  // consecutive wins up to now
    int berserks = 0;   // games this player berserked
    std::vector<ArenaMark> marks;

    // Two wins in a row: the next result counts double.
    [[nodiscard]] bool onFire() const { return winStreak >= 2; }
    [[nodiscard]] int games() const { return wins + draws + losses; }
};

// Scores the player's next counted game and returns what it earned.
ArenaMark addArenaGame(ArenaSheet& sheet, const ArenaGame& game);

}  // namespace rainet::tournament
