// Game records: write, read, replay; the public rendering never carries a hidden identity.
#include <gtest/gtest.h>

#include "core/record.h"
#include "support/core_helpers.h"

namespace rainet {
namespace {

Record sampleGame() {
    Record r;
    r.setTag("Event", "test");
    r.setTag("Side1", "alice");
    r.setTag("Side2", "bob \"the\" builder");
    r.setup1 = 0b01000111;  // links a1 b1 c1 d2
    r.setup2 = 0b01000111;
    for (const char* a :
         {"d2-d3", "e7-e6", "LB+d3", "VC+d3", "d3-d5", "e6-e5", "d5-e5", "NF+d7h8:swap"})
        r.actions.push_back(*parseAction(a));
    return r;
}

TEST(Record, FullRecordRoundTripsAndReplays) {
    Record r = sampleGame();
    const std::string text = writeFullRecord(r);
    EXPECT_NE(text.find("[Setup1 \"LLLVVVLV\"]"), std::string::npos);
    EXPECT_NE(text.find("NF+d7h8:swap"), std::string::npos);
    EXPECT_NE(text.find("4. d5-e5 {v}"), std::string::npos) << text;
    EXPECT_NE(text.find("VC+d3 {L}"), std::string::npos) << text;
    auto back = parseRecord(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(back->isPublic);
    EXPECT_EQ(back->actions, r.actions);
    EXPECT_EQ(back->tag("Side2"), "bob \"the\" builder");
    EXPECT_EQ(writeFullRecord(*back), text);
    auto final = replay(*back);
    ASSERT_TRUE(final.ok()) << final.error().message;
    EXPECT_EQ(final->ply(), 8);
}

TEST(Record, PublicRecordHidesSetupsAndSwapBits) {
    Record r = sampleGame();
    const std::string pub = writePublicRecord(r);
    EXPECT_EQ(pub.find("Setup"), std::string::npos);
    EXPECT_EQ(pub.find(":swap"), std::string::npos);
    EXPECT_NE(pub.find("NF+d7h8"), std::string::npos);
    // The same public actions with other hidden facts give the same public record.
    Record other = r;
    other.setup2 = 0b00111100;  // e7 (captured on e5 later) is a virus in both
    other.actions.back() = *parseAction("NF+d7h8:keep");
    EXPECT_NE(writeFullRecord(other), writeFullRecord(r));
    EXPECT_EQ(writePublicRecord(other), pub);
    auto parsed = parseRecord(pub);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_TRUE(parsed->isPublic);
    EXPECT_FALSE(replay(*parsed).ok());
}

TEST(Record, ReplayRejectsAnIllegalActionWithItsPly) {
    Record r = sampleGame();
    r.actions[4] = *parseAction("d3-d7");
    auto text = writeFullRecord(r);
    auto back = parseRecord(text);
    ASSERT_TRUE(back.ok());
    auto final = replay(*back);
    ASSERT_FALSE(final.ok());
    EXPECT_NE(final.error().message.find("ply 5"), std::string::npos) << final.error().message;
}

TEST(Record, RulesEndingMustMatchTheFinalPosition) {
    Record r;
    r.startPosition = "v5vv/4l3/4L3/8/8/8/3LVv2/LL3VVV 1 CNcn lll/- 0 40";
    r.actions = {*parseAction("e6-e7")};
    r.result = Outcome::Side1Wins;
    r.termination = "four-links";
    auto ok = parseRecord(writeFullRecord(r));
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_TRUE(replay(*ok).ok());
    r.result = Outcome::Side2Wins;
    auto bad = parseRecord(writeFullRecord(r));
    ASSERT_TRUE(bad.ok());
    EXPECT_FALSE(replay(*bad).ok());
}

TEST(Record, ANoProgressLimitOtherThanThePresetsRoundTrips) {
    Record r = sampleGame();
    r.rules = Rules::official();
    r.rules.noProgressLimit = 20;
    const std::string text = writeFullRecord(r);
    EXPECT_NE(text.find("[Preset \"official\"]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("[NoProgressLimit \"20\"]\n"), std::string::npos) << text;
    auto back = parseRecord(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->rules, r.rules);
    EXPECT_TRUE(replay(*back).ok());
    EXPECT_EQ(writeFullRecord(Record(sampleGame())).find("NoProgressLimit"), std::string::npos);
}

TEST(Record, MalformedRecordsAreErrors) {
    EXPECT_FALSE(parseRecord("").ok());
    EXPECT_FALSE(parseRecord("[Result \"1-0\"]\n\n1. d2-d3").ok());             // no result token
    EXPECT_FALSE(parseRecord("[Result \"1-0\"]\n\n1. d2-d3 0-1").ok());         // differs from tag
    EXPECT_FALSE(parseRecord("[Result \"*\"]\n[Preset \"fancy\"]\n\n*").ok());  // unknown preset
    EXPECT_FALSE(
        parseRecord("[Result \"*\"]\n[Setup1 \"LLLLLVVV\"]\n[Setup2 \"LLLVVVLV\"]\n\n*").ok());
    EXPECT_FALSE(parseRecord("[Result \"*\"]\n[Setup1 \"LLLVVVLV\"]\n\n*").ok());  // one setup only
    EXPECT_FALSE(parseRecord("[Result \"*\"]\n\n1. d2-q3 *").ok());
    EXPECT_FALSE(parseRecord("[Result \"*\"]\n[NoProgressLimit \"-5\"]\n\n*").ok());
}

}  // namespace
}  // namespace rainet
