#pragma once
// `rainet play --local`: pass and play at one terminal, no server. The core rules
// engine referees the game in-process; each side sees only its own view (the same GameState and
// rendering as `rainet play`), and before each setup and each turn a hand-over prompt on a cleared
// screen waits for Enter, then the screen is cleared again before the board of the side due is
// drawn, so that the other player never sees it.
#include <array>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "client/play_follower.h"
#include "core/error.h"
#include "core/position.h"
#include "core/view.h"

namespace rainet::client::play {

// The referee of a local game: setups, actions, resignation, and each side's GameState.
class LocalGame {
  public:
    LocalGame(Rules rules, std::array<std::string, 2> names);

    // Arranges `s`'s cards (bit i: setup square i holds a link); play starts after both.
    [[nodiscard]] std::optional<Error> setUp(Side s, std::uint8_t links);
    // Plays an action of the side to move, in notation; an illegal one changes nothing.
    [[nodiscard]] std::optional<Error> act(const std::string& text);
    void resign(Side s);

    // The side whose player must hold the terminal: the first not set up, then the side to move;
    // nullopt once the game is over.
    std::optional<Side> due() const;
    bool over() const { return ending_.has_value(); }
    // What `viewer` may see, as `rainet play` follows a game from the server: its own view, its
    // legal actions on its turn, the history as observed by it; everything once the game is over.
    GameState stateFor(Viewer viewer) const;
    // "player 1 (side 1): won, player 2 (side 2): lost", once over.
    std::string resultLine() const;

  private:
    void finish(std::string result, std::string winner, std::string reason);
    Rules rules_;
    std::array<std::string, 2> names_;
    std::optional<std::uint8_t> setups_[2];
    std::optional<Position> start_, pos_;
    std::vector<Action> actions_;
    std::optional<Ending> ending_;
};

struct LocalOptions {
    Rules rules = Rules::standard();
    std::array<std::string, 2> names = {"player 1", "player 2"};
    bool color = false;
    bool interactive = false;  // stdin is a terminal: a prompt with the name of the player due
    std::uint64_t seed = 0;    // for `setup random`; 0: from std::random_device
};

// The screen-clearing sequence written at each hand-over (ANSI: erase, cursor home, scrollback).
inline constexpr const char* kClearScreen = "\x1b[H\x1b[2J\x1b[3J";

// Runs a local game reading commands from `in` and writing to `out`; returns the exit status
// (0 when the game ended or the players quit).
int runLocal(std::istream& in, std::ostream& out, const LocalOptions& o);

}  // namespace rainet::client::play
