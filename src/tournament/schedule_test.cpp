// The operator's recurring arenas: the spec's grammar and bounds, the slots and their keys.
#include <gtest/gtest.h>

#include "tournament/schedule.h"

namespace rainet::tournament {
namespace {

TEST(RecurringArena, ParsesAnHourly3Plus2) {
    const auto r = parseRecurringArena("3+2@60/30");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->initialMs, 180'000);
    EXPECT_EQ(r->incrementMs, 2'000);
    EXPECT_EQ(r->everyMs, 3'600'000);
    EXPECT_EQ(r->lengthMs, 1'800'000);
    EXPECT_EQ(r->name, "Hourly 3+2 arena");
    EXPECT_EQ(parseRecurringArena("5+0@1440/60")->name, "Daily 5+0 arena");
    EXPECT_EQ(parseRecurringArena("1+1@30/20")->name, "Every 30 min 1+1 arena");
}

TEST(RecurringArena, RefusesMalformedSpecs) {
    for (const char* bad :
         {"", "3", "3+2", "3+2@60", "3+2@60/", "x+2@60/30", "3+2@60/30x", "3 +2@60/30",
          "-3+2@60/30", "3+2@60/30/5", "99999999999999999999+2@60/30"})
        EXPECT_FALSE(parseRecurringArena(bad)) << bad;
}

TEST(RecurringArena, RefusesValuesOutOfBounds) {
    EXPECT_FALSE(parseRecurringArena("0+2@60/30"));    // untimed
    EXPECT_FALSE(parseRecurringArena("61+0@120/60"));  // clock over an hour
    EXPECT_FALSE(parseRecurringArena("3+61@60/30"));   // increment over 60 s
    EXPECT_FALSE(parseRecurringArena("3+2@60/4"));     // shorter than an arena may be
    EXPECT_FALSE(parseRecurringArena("3+2@60/61"));    // longer than its period: overlaps
    EXPECT_FALSE(parseRecurringArena("3+2@9/5"));      // more often than every 10 minutes
    EXPECT_TRUE(parseRecurringArena("3+2@60/60"));
}

TEST(RecurringArena, SlotsAreAlignedToThePeriod) {
    const auto r = *parseRecurringArena("3+2@60/30");
    EXPECT_EQ(nextSlot(r, 0), 0);
    EXPECT_EQ(nextSlot(r, 1), 3'600'000);
    EXPECT_EQ(nextSlot(r, 3'600'000), 3'600'000);
    EXPECT_EQ(nextSlot(r, 3'600'001), 7'200'000);
}

TEST(RecurringArena, EachSlotHasItsOwnKey) {
    const auto r = *parseRecurringArena("3+2@60/30");
    EXPECT_EQ(slotKey(r, 3'600'000), "3+2@60/30#3600000");
    EXPECT_NE(slotKey(r, 3'600'000), slotKey(r, 7'200'000));
}

}  // namespace
}  // namespace rainet::tournament
