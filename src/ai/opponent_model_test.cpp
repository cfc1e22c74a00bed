// The in-game opponent model reads a random player as random and purposeful players as
// purposeful, from the legal actions each one had.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ai/bot.h"
#include "ai/opponent_model.h"

namespace rainet::ai {
namespace {

TEST(OpponentModel, ActionKindsFollowTheStepsToTheOpponentsExits) {
    Position pos = Position::start();
    for (const char* m : {"a1-a2", "d7-d6"}) pos.doAction(*parseAction(m));
    // Side 1 to move; its target exits are d8 e8.
    EXPECT_EQ(actionKind(pos, *parseAction("a2-a3")), kForward);
    EXPECT_EQ(actionKind(pos, *parseAction("a2-a1")), kBackward);
    EXPECT_EQ(actionKind(pos, *parseAction("e2-f2")), kBackward);  // e2 is 6 from e8, f2 7
    EXPECT_EQ(actionKind(pos, *parseAction("e2-d2")), kAcross);
    EXPECT_EQ(actionKind(pos, *parseAction("LB+a2")), kTerminal);
    pos.doAction(*parseAction("LB+a2"));
    pos.doAction(*parseAction("d6-d5"));
    EXPECT_EQ(actionKind(pos, *parseAction("LB-a2")), kTakeBack);
    // Side 1's moves are a minority of its legal actions at the start: a step forward is evidence
    // of purpose, a firewall placed at random evidence against it.
    const Position start = Position::start();
    EXPECT_GT(purposefulLogRatio(start, *parseAction("a1-a2")), 1.0);
    EXPECT_LT(purposefulLogRatio(start, *parseAction("FW+c4")), -1.0);
}

// Plays `plies` of `observer` (side 1, reading side 2 with `model`, as StrongBot does) against
// `other` (side 2).
OpponentModel readOpponent(Bot& observer, Bot& other, std::uint64_t seed, int plies,
                           int otherNodes = 0) {
    Rng rng(seed);
    Position pos = *Position::fromSetups(randomSetup(rng), randomSetup(rng));
    InfoSet k1(View::of(pos, Viewer::Side1)), k2(View::of(pos, Viewer::Side2));
    OpponentModel model;
    while (!pos.isOver() && pos.ply() < plies) {
        Action a;
        if (pos.toMove() == Side::One) {
            model.update(k1);
            a = observer.chooseAction(k1, Budget{}, rng);
            model.answered(k1, a);
        } else {
            Budget b;
            b.nodes = static_cast<std::uint64_t>(otherNodes);
            a = other.chooseAction(k2, b, rng);
        }
        EXPECT_FALSE(k1.observe(observe(pos, a, Viewer::Side1)).has_value());
        EXPECT_FALSE(k2.observe(observe(pos, a, Viewer::Side2)).has_value());
        pos.doAction(a);
    }
    return model;
}

TEST(OpponentModel, ARandomPlayerIsReadAsRandom) {
    // Over 20 games of up to 80 plies, random is read as random (below 0.1) in at least 80% and
    // its mean reading is below 0.2: its moves look much like a purposeful player's once its
    // terminal cards are spent, so a lucky game can look purposeful.
    auto observer = makeBot("random"), random = makeBot("random");
    int games = 0, readAsRandom = 0;
    double sum = 0.0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const OpponentModel m = readOpponent(*observer, *random, seed, 80);
        if (m.actionsRead() < 15) continue;  // over early
        ++games;
        sum += m.purposeful();
        if (m.purposeful() < 0.1) ++readAsRandom;
    }
    ASSERT_GE(games, 10);
    EXPECT_GE(readAsRandom, 0.8 * games);
    EXPECT_LT(sum / games, 0.2);
}

TEST(OpponentModel, PurposefulPlayersAreReadAsPurposeful) {
    auto observer = makeBot("random");
    for (const std::string name : {"greedy", "bait", "ismcts-v1", "strong"}) {
        auto other = makeBot(name);
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const OpponentModel m = readOpponent(*observer, *other, seed, 40, 50);
            EXPECT_GE(m.actionsRead(), 10) << name << " " << seed;
            EXPECT_GT(m.purposeful(), 0.9) << name << " " << seed;
        }
    }
}

TEST(OpponentModel, ANewGameStartsAfresh) {
    auto observer = makeBot("greedy"), random = makeBot("random");
    OpponentModel m = readOpponent(*observer, *random, 1, 40);
    ASSERT_NE(m.actionsRead(), 0);
    ASSERT_NE(m.purposeful(), 0.9);
    const Position pos = Position::start();
    const InfoSet fresh(View::of(pos, Viewer::Side1));
    m.update(fresh);
    EXPECT_EQ(m.actionsRead(), 0);
    EXPECT_NEAR(m.purposeful(), 0.9, 1e-12);
}

}  // namespace
}  // namespace rainet::ai
