// Tournament settings: every bound refused with its code, and the edges accepted.
#include <gtest/gtest.h>

#include "tournament/settings.h"

namespace rainet::tournament {
namespace {

constexpr std::int64_t kNow = 1'000'000;

Settings arena() {
    Settings s;
    s.format = Format::Arena;
    s.name = "Hourly 3+2";
    s.initialMs = 180'000;
    s.incrementMs = 2'000;
    s.startsMs = kNow + 60'000;
    s.durationMs = 30 * 60'000;
    return s;
}

Settings roundRobin() {
    Settings s = arena();
    s.format = Format::RoundRobin;
    s.durationMs = 0;
    s.maxPlayers = 6;
    s.legs = 2;
    return s;
}

TEST(TournamentSettings, AcceptsAnOrdinaryArenaAndRoundRobin) {
    EXPECT_EQ(settingsRefusal(arena(), kNow), std::nullopt);
    EXPECT_EQ(settingsRefusal(roundRobin(), kNow), std::nullopt);
}

TEST(TournamentSettings, RefusesAnEmptyLongOrControlName) {
    Settings s = arena();
    s.name = "";
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_name");
    s.name = std::string(kMaxNameBytes + 1, 'x');
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_name");
    s.name = std::string(kMaxNameBytes, 'x');
    EXPECT_EQ(settingsRefusal(s, kNow), std::nullopt);
    s.name = "a\nb";
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_name");
}

TEST(TournamentSettings, RefusesClocksOutOfRange) {
    Settings s = arena();
    s.initialMs = kMinInitialMs - 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_clock");
    s.initialMs = kMinInitialMs;
    EXPECT_EQ(settingsRefusal(s, kNow), std::nullopt);
    s.initialMs = kMaxInitialMs + 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_clock");
    s.initialMs = 0;  // untimed: tournaments are timed only
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_clock");
    s = arena();
    s.incrementMs = -1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_clock");
    s.incrementMs = kMaxIncrementMs + 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_clock");
    s.incrementMs = kMaxIncrementMs;
    EXPECT_EQ(settingsRefusal(s, kNow), std::nullopt);
}

TEST(TournamentSettings, RefusesAStartInThePastOrTooFarAhead) {
    Settings s = arena();
    s.startsMs = kNow - 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_start");
    s.startsMs = kNow + kMaxStartDelayMs + 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_start");
    s.startsMs = kNow;
    EXPECT_EQ(settingsRefusal(s, kNow), std::nullopt);
}

TEST(TournamentSettings, RefusesAnArenaDurationOutOfRange) {
    Settings s = arena();
    s.durationMs = kMinArenaMs - 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_duration");
    s.durationMs = kMaxArenaMs + 1;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_duration");
}

TEST(TournamentSettings, RefusesARoundRobinOfTheWrongSize) {
    Settings s = roundRobin();
    s.maxPlayers = 2;
    EXPECT_EQ(settingsRefusal(s, kNow), "too_few_players");
    s.maxPlayers = 13;
    EXPECT_EQ(settingsRefusal(s, kNow), "too_many_players");
    s.maxPlayers = 12;
    s.legs = 3;
    EXPECT_EQ(settingsRefusal(s, kNow), "bad_legs");
}

}  // namespace
}  // namespace rainet::tournament
