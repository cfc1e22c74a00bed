#pragma once
// The referee of a game between two players: it alone holds the full Position, asks each player
// for its arrangement and, in turn, for an action given only that player's InfoSet, and feeds each
// player observe(before, action, viewerOf(side)) — so no player ever sees the other side's hidden
// identities. Used by the arena, the tests and the bench.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ai/bot.h"
#include "core/position.h"
#include "core/record.h"

namespace rainet::ai {

// A participant as the referee sees it: a setup, then actions for its own information set.
// Bots adapt to it directly; an external engine (engine_client.h) implements it too.
class Player {
  public:
    virtual ~Player() = default;
    virtual std::string name() const = 0;
    // A new game is starting for `side`; returns the arrangement (bit i = setup square i is a
    // link).
    virtual Result<std::uint8_t> newGame(Side side, const Rules& rules) = 0;
    // The game starts from this view of the player's own side (its actions follow from here).
    virtual void started(const View&) {}
    // The chosen action for the side to move in `knowledge`.
    virtual Result<Action> act(const InfoSet& knowledge, const Budget& budget) = 0;
};

// A built-in bot as a player, with its own random stream.
class BotPlayer : public Player {
  public:
    BotPlayer(std::unique_ptr<Bot> bot, std::uint64_t seed) : bot_(std::move(bot)), rng_(seed) {}
    std::string name() const override { return bot_->name(); }
    Result<std::uint8_t> newGame(Side side, const Rules& rules) override {
        return bot_->chooseSetup(side, rules, rng_);
    }
    Result<Action> act(const InfoSet& knowledge, const Budget& budget) override {
        return bot_->chooseAction(knowledge, budget, rng_);
    }
    Bot& bot() { return *bot_; }

  private:
    std::unique_ptr<Bot> bot_;
    Rng rng_;
};

struct GameRecord {
    Rules rules;
    std::uint8_t setups[2] = {0, 0};
    std::vector<Action> actions;  // full notation (NF with its swap bit)
    Outcome outcome = Outcome::Ongoing;
    EndReason reason = EndReason::None;
    std::string error;  // a player failed (illegal action, crashed engine): it loses
    int maxPlies = 0;
    // Longest and total time each side took to answer `act`, in milliseconds, and every one.
    double maxThinkMs[2] = {0, 0}, totalThinkMs[2] = {0, 0};
    int moves[2] = {0, 0};
    std::vector<double> thinkMs[2] = {};
};

struct GameOptions {
    Rules rules = Rules::standard();
    Budget budget;     // for both players
    int maxPlies = 0;  // safety cap (0 = none); a capped game is a draw
    // Fixed arrangements (bit i = link), or -1 to ask the player.
    int setup[2] = {-1, -1};
};

// Plays one game between `one` (side 1) and `two` (side 2).
GameRecord playGame(Player& one, Player& two, const GameOptions& options);

// The game as a core Record (docs/record-format.md): tags Event, Side1, Side2, GameId, both
// setups, the actions, the result; Termination is the rules ending, "max-plies" for a capped
// game, or "forfeit" when a player failed (the reason then in a Forfeit tag).
Record toRecord(const GameRecord& r, const std::string& name1, const std::string& name2,
                const std::string& gameId = "");
// The full record text of toRecord.
std::string formatRecord(const GameRecord& r, const std::string& name1, const std::string& name2,
                         const std::string& gameId = "");

}  // namespace rainet::ai
