// Berserk: the halved clock and when it is refused.
#include <gtest/gtest.h>

#include "tournament/berserk.h"

namespace rainet::tournament {
namespace {

TEST(Berserk, HalvesTheInitialTimeAndDropsTheIncrement) {
    const BerserkClock c = berserkClock(180'000);
    EXPECT_EQ(c.initialMs, 90'000);
    EXPECT_EQ(c.incrementMs, 0);
}

TEST(Berserk, AnOddHalfRoundsDownToAWholeSecond) {
    EXPECT_EQ(berserkClock(45'000).initialMs, 22'000);
    EXPECT_EQ(berserkClock(30'000).initialMs, 15'000);
}

TEST(Berserk, AllowedBeforeTheFirstAction) {
    EXPECT_EQ(berserkRefusal(true, false, 0), std::nullopt);
}

TEST(Berserk, RefusedAfterTheFirstAction) {
    EXPECT_EQ(berserkRefusal(true, false, 1), "berserk_too_late");
}

TEST(Berserk, RefusedTwice) {
    EXPECT_EQ(berserkRefusal(true, true, 0), "already_berserk");
}

TEST(Berserk, RefusedOnceTheGameIsOver) {
    EXPECT_EQ(berserkRefusal(false, false, 0), "game_over");
}

}  // namespace
}  // namespace rainet::tournament
