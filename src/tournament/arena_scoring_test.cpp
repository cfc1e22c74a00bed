// Arena scoring: one test per rule (win/draw/loss values, the streak, berserk) and its edges.
#include <gtest/gtest.h>

#include "tournament/arena_scoring.h"

namespace rainet::tournament {
namespace {

ArenaGame win(bool berserk = false, int actions = 20) {
    return {Outcome::Win, berserk, actions};
}
ArenaGame draw(bool berserk = false) {
    return {Outcome::Draw, berserk, 20};
}
ArenaGame loss(bool berserk = false) {
    return {Outcome::Loss, berserk, 20};
}

TEST(ArenaScoring, WinTwoDrawOneLossZero) {
    ArenaSheet s;
    EXPECT_EQ(addArenaGame(s, win()).points, 2);
    EXPECT_EQ(addArenaGame(s, loss()).points, 0);
    EXPECT_EQ(addArenaGame(s, draw()).points, 1);
    EXPECT_EQ(s.points, 3);
    EXPECT_EQ(s.wins, 1);
    EXPECT_EQ(s.draws, 1);
    EXPECT_EQ(s.losses, 1);
    EXPECT_EQ(s.games(), 3);
}

TEST(ArenaScoring, TwoWinsInARowMakeTheNextResultsDouble) {
    ArenaSheet s;
    EXPECT_FALSE(addArenaGame(s, win()).doubled);
    EXPECT_FALSE(s.onFire());
    EXPECT_FALSE(addArenaGame(s, win()).doubled);
    EXPECT_TRUE(s.onFire());
    const ArenaMark third = addArenaGame(s, win());
    EXPECT_TRUE(third.doubled);
    EXPECT_EQ(third.points, 4);
    EXPECT_EQ(addArenaGame(s, win()).points, 4);
    EXPECT_EQ(s.points, 2 + 2 + 4 + 4);
}

TEST(ArenaScoring, ADrawOnFireCountsDoubleAndEndsTheStreak) {
    ArenaSheet s;
    addArenaGame(s, win());
    addArenaGame(s, win());
    const ArenaMark d = addArenaGame(s, draw());
    EXPECT_TRUE(d.doubled);
    EXPECT_EQ(d.points, 2);
    EXPECT_FALSE(s.onFire());
    EXPECT_EQ(addArenaGame(s, win()).points, 2);  // the streak starts again from nothing
}

TEST(ArenaScoring, ALossOnFireScoresNothingAndEndsTheStreak) {
    ArenaSheet s;
    addArenaGame(s, win());
    addArenaGame(s, win());
    const ArenaMark l = addArenaGame(s, loss());
    EXPECT_EQ(l.points, 0);
    EXPECT_FALSE(l.doubled);
    EXPECT_FALSE(s.onFire());
    EXPECT_EQ(s.winStreak, 0);
}

TEST(ArenaScoring, WinsSeparatedByADrawAreNoStreak) {
    ArenaSheet s;
    addArenaGame(s, win());
    addArenaGame(s, draw());
    addArenaGame(s, win());
    EXPECT_FALSE(s.onFire());
    EXPECT_EQ(addArenaGame(s, win()).points, 2);
    EXPECT_TRUE(s.onFire());
}

TEST(ArenaScoring, BerserkedWinWithSevenActionsEarnsOneMorePoint) {
    ArenaSheet s;
    const ArenaMark m = addArenaGame(s, win(true, kBerserkMinActions));
    EXPECT_TRUE(m.berserkBonus);
    EXPECT_EQ(m.points, 3);
    EXPECT_EQ(s.berserks, 1);
}

TEST(ArenaScoring, BerserkedWinWithSixActionsEarnsNoBonus) {
    ArenaSheet s;
    const ArenaMark m = addArenaGame(s, win(true, kBerserkMinActions - 1));
    EXPECT_FALSE(m.berserkBonus);
    EXPECT_EQ(m.points, 2);
    EXPECT_EQ(s.berserks, 1);  // the berserk is still shown
}

TEST(ArenaScoring, BerserkedDrawOrLossEarnsNoBonus) {
    ArenaSheet s;
    EXPECT_EQ(addArenaGame(s, draw(true)).points, 1);
    EXPECT_EQ(addArenaGame(s, loss(true)).points, 0);
    EXPECT_EQ(s.berserks, 2);
}

TEST(ArenaScoring, TheBerserkPointIsNotDoubledOnFire) {
    ArenaSheet s;
    addArenaGame(s, win());
    addArenaGame(s, win());
    const ArenaMark m = addArenaGame(s, win(true, 30));
    EXPECT_TRUE(m.doubled);
    EXPECT_TRUE(m.berserkBonus);
    EXPECT_EQ(m.points, 5);  // 2 x 2 + 1
}

TEST(ArenaScoring, UnberserkedWinWithManyActionsEarnsNoBonus) {
    ArenaSheet s;
    EXPECT_FALSE(addArenaGame(s, win(false, 50)).berserkBonus);
}

TEST(ArenaScoring, MarksRecordEveryGameInOrder) {
    ArenaSheet s;
    addArenaGame(s, win());
    addArenaGame(s, win());
    addArenaGame(s, win(true, 9));
    addArenaGame(s, loss());
    ASSERT_EQ(s.marks.size(), 4u);
    EXPECT_EQ(s.marks[0].points, 2);
    EXPECT_EQ(s.marks[1].points, 2);
    EXPECT_EQ(s.marks[2].points, 5);
    EXPECT_EQ(s.marks[3].points, 0);
    EXPECT_EQ(s.points, 9);
}

}  // namespace
}  // namespace rainet::tournament
