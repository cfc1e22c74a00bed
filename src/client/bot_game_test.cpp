// What `rainet bot` tells its engine: observation tokens from the server's history entries (a
// revealed identity in its owner's case), the side's knowledge rebuilt from a followed game (and
// refused when the server's account does not add up), and `go` limits from the clocks.
#include "client/bot_game.h"

#include <gtest/gtest.h>

#include "ai/engine_protocol.h"

namespace rainet::client::bot {
namespace {

using namespace std::chrono_literals;

play::HistoryEntry entry(int ply, const std::string& side, const std::string& action,
                         const std::string& revealed = "") {
    return {ply, side, action, revealed};
}

TEST(BotGame, ARevealedIdentityIsTheOpponentsCardInItsOwnersCase) {
    using V = std::vector<std::string>;
    EXPECT_EQ(observationTokens(entry(0, "1", "d2-d3")), V{"d2-d3"});
    // Side 1 captured a side-2 card: lower case; side 2 checked a side-1 card: upper case.
    EXPECT_EQ(observationTokens(entry(6, "1", "d4-d5", "link")), (V{"d4-d5", "{l}"}));
    EXPECT_EQ(observationTokens(entry(7, "2", "VC+c1", "virus")), (V{"VC+c1", "{V}"}));
}

play::GameState side2Playing() {
    play::GameState s;
    s.game = "g1";
    s.v = 6;
    s.you = "2";
    s.status = "playing";
    s.links = {"a8", "b8", "c8", "d7"};
    s.history = {entry(0, "1", "d2-d3"), entry(1, "2", "e7-e6"), entry(2, "1", "d3-d4")};
    return s;
}

TEST(BotGame, KnowledgeIsTheStartingViewAndTheActionsObserved) {
    auto k = knowledgeOf(side2Playing());
    ASSERT_TRUE(k.ok()) << k.error().message;
    EXPECT_EQ(k->side, Side::Two);
    EXPECT_EQ(k->rules, Rules::standard());
    // The side's own cards are identified, the opponent's are not.
    EXPECT_EQ(k->start.toString(), "lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0");
    EXPECT_EQ(k->now.view().ply(), 3);
    EXPECT_EQ(k->now.view().toMove(), Side::Two);
    EXPECT_EQ(ai::formatPositionCommand(k->start, k->now.history()),
              "position view lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0 moves d2-d3 e7-e6 "
              "d3-d4");
}

TEST(BotGame, AnAccountThatDoesNotAddUpIsAnError) {
    play::GameState s = side2Playing();
    s.history.push_back(entry(3, "2", "a8-a5"));  // not a legal move
    auto k = knowledgeOf(s);
    ASSERT_FALSE(k.ok());
    EXPECT_NE(k.error().message.find("action 3 'a8-a5' does not follow"), std::string::npos)
        << k.error().message;
    s = side2Playing();
    s.links = {"a8", "b8", "c8"};  // three links
    EXPECT_FALSE(knowledgeOf(s).ok());
    s = side2Playing();
    s.preset = "blitz";
    EXPECT_FALSE(knowledgeOf(s).ok());
    s = side2Playing();
    s.you = "spectator";
    EXPECT_FALSE(knowledgeOf(s).ok());
}

TEST(BotGame, LimitsFromTheClocksOrTheBotsOwnBudget) {
    play::GameState s = side2Playing();
    ai::GoLimits untimed;
    untimed.movetime = 1000ms;
    ai::GoLimits l = limitsOf(s, untimed);
    EXPECT_EQ(ai::formatGo(l), "go movetime 1000");
    EXPECT_EQ(l.timeout, 6000ms);
    // Timed: ms for both sides, the running one counted down since the clocks arrived.
    const auto now = std::chrono::steady_clock::now();
    s.initialCs = 30000;
    s.incrementCs = 200;
    s.clocks = play::Clocks{{2500, 2000}, "2", now - 1500ms};
    l = limitsOf(s, untimed, now);
    EXPECT_EQ(ai::formatGo(l), "go time1 25000 time2 18500 inc1 2000 inc2 2000");
    EXPECT_EQ(l.timeout, 23500ms);
    // Out of time (the server's flag is on its way): zero, never negative.
    s.clocks->received = now - 60s;
    EXPECT_EQ(ai::formatGo(limitsOf(s, untimed, now)),
              "go time1 25000 time2 0 inc1 2000 inc2 2000");
}

}  // namespace
}  // namespace rainet::client::bot
