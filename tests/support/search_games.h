#pragma once
// A short game of strong's search, configured as a test needs, against greedy: fixed setups,
// seeds and budget, so that two configurations can be compared move for move (an option that
// reaches the search changes the game; the same one plays it again).
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "ai/greedy_bot.h"
#include "ai/ismcts.h"
#include "ai/referee.h"

namespace rainet::ai::test {

inline std::vector<Action> strongAgainstGreedy(const SearchConfig& c,
                                               Rules rules = Rules::standard()) {
    BotPlayer one(std::make_unique<StrongBot>("strong", c), 5);
    BotPlayer two(std::make_unique<GreedyBot>(), 6);
    GameOptions go;
    go.rules = rules;
    go.setup[0] = 0x0F;
    go.setup[1] = 0x33;
    go.maxPlies = 40;
    go.budget.nodes = 150;
    const GameRecord r = playGame(one, two, go);
    EXPECT_TRUE(r.error.empty()) << r.error;
    return r.actions;
}

}  // namespace rainet::ai::test
