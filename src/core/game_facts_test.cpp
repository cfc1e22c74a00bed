#include "core/game_facts.h"

#include <gtest/gtest.h>

#include <string>

namespace rainet {
namespace {

TEST(GameFacts, EveryStatusHasOneStringFormThatParsesBack) {
    const char* names[kGameStatuses] = {"open", "setup", "playing", "finished", "aborted"};
    for (int i = 0; i < kGameStatuses; ++i) {
        const auto s = static_cast<GameStatus>(i);
        EXPECT_STREQ(toString(s), names[i]);
        EXPECT_EQ(parseGameStatus(names[i]), s);
    }
    EXPECT_EQ(parseGameStatus("active"), std::nullopt);
    EXPECT_EQ(parseGameStatus("Playing"), std::nullopt);
    EXPECT_EQ(parseGameStatus(""), std::nullopt);
}

TEST(GameFacts, OverAndUnderWay) {
    EXPECT_FALSE(isOver(GameStatus::Open));
    EXPECT_FALSE(isOver(GameStatus::Playing));
    EXPECT_TRUE(isOver(GameStatus::Finished));
    EXPECT_TRUE(isOver(GameStatus::Aborted));
    EXPECT_FALSE(isUnderWay(GameStatus::Open));
    EXPECT_TRUE(isUnderWay(GameStatus::Setup));
    EXPECT_TRUE(isUnderWay(GameStatus::Playing));
    EXPECT_FALSE(isUnderWay(GameStatus::Finished));
}

TEST(GameFacts, EveryEndHasOneStringFormAndATermination) {
    const std::pair<GameEnd, const char*> ends[] = {
        {GameEnd::FourLinks, "four_links"},   {GameEnd::FourViruses, "four_viruses"},
        {GameEnd::NoProgress, "no_progress"}, {GameEnd::Resign, "resign"},
        {GameEnd::Agreement, "agreement"},    {GameEnd::Time, "time"},
        {GameEnd::Abandoned, "abandoned"},    {GameEnd::Aborted, "aborted"}};
    for (auto [e, name] : ends) {
        EXPECT_STREQ(toString(e), name);
        EXPECT_EQ(parseGameEnd(name), e);
    }
    EXPECT_EQ(parseGameEnd("four-links"), std::nullopt);
    // The record's terminations (docs/record-format.md).
    EXPECT_STREQ(terminationName(GameEnd::FourLinks), "four-links");
    EXPECT_STREQ(terminationName(GameEnd::NoProgress), "no-progress");
    EXPECT_STREQ(terminationName(GameEnd::Resign), "resignation");
    EXPECT_STREQ(terminationName(GameEnd::Abandoned), "abandonment");
    EXPECT_STREQ(terminationName(GameEnd::Time), "time");
    EXPECT_EQ(gameEnd(EndReason::FourViruses), GameEnd::FourViruses);
}

TEST(GameFacts, ResultsAndOutcomes) {
    EXPECT_EQ(resultOf(Side::One, GameEnd::Resign), "1-0");
    EXPECT_EQ(resultOf(Side::Two, GameEnd::Time), "0-1");
    EXPECT_EQ(resultOf(std::nullopt, GameEnd::Agreement), "1/2-1/2");
    EXPECT_EQ(resultOf(std::nullopt, GameEnd::Aborted), "");
    EXPECT_EQ(outcomeOf("1-0"), Outcome::Side1Wins);
    EXPECT_EQ(outcomeOf("0-1"), Outcome::Side2Wins);
    EXPECT_EQ(outcomeOf("1/2-1/2"), Outcome::Draw);
    EXPECT_EQ(outcomeOf(""), Outcome::Ongoing);
}

TEST(GameFacts, AGameMayBeAbortedUntilBothSidesHaveActed) {
    EXPECT_TRUE(canAbort(GameStatus::Open, 0));
    EXPECT_TRUE(canAbort(GameStatus::Setup, 0));
    EXPECT_TRUE(canAbort(GameStatus::Playing, 0));
    EXPECT_TRUE(canAbort(GameStatus::Playing, 1));
    EXPECT_FALSE(canAbort(GameStatus::Playing, 2));
    EXPECT_FALSE(canAbort(GameStatus::Finished, 0));
    EXPECT_FALSE(canAbort(GameStatus::Aborted, 0));
}

}  // namespace
}  // namespace rainet
