// "Nobody waits alone" (docs/protocol.md, seek): a seek nobody answered within its computer_after
// (20 s by default for a guest) gets a game against the computer at a level matched to the
// seeker's rating, unrated, marked as against the computer.
#include <gtest/gtest.h>

#include "players.h"

namespace rainet::test {
namespace {

TEST(SeekComputer, AGuestsSeekIsAnsweredByTheComputerAfterTwentySeconds) {
    ServerProcess server(dbPath("seek_computer"));
    Player guest(server.port());
    ASSERT_EQ(guest.request({{"type", "seek"}})["type"], "ack");
    server.advance(1900);  // 19 s: still waiting
    guest.ws().send(Json{{"type", "ping"}, {"id", "P"}});
    guest.take([](const Json& j) { return j["type"] == "pong"; });
    for (const auto& m : guest.ws().log()) EXPECT_EQ(Json::parse(m)["type"] == "matched", false);
    server.advance(100);
    Json matched = guest.take([](const Json& j) { return j["type"] == "matched"; });
    const std::string g = matched["game"];
    Json s = snapshotOf(guest, g);
    EXPECT_EQ(s["opponent"], "computer");
    EXPECT_EQ(s["rated"], false);
    EXPECT_EQ(s["level"], 2) << "a new player's 1500";
    const std::string other = matched["side"] == "1" ? "2" : "1";
    EXPECT_EQ(s["players"][other]["bot"], true);
    EXPECT_EQ(s["players"][other]["rating"], nullptr);
    // The seek is gone: a second player seeking waits instead of pairing with it.
    Player late(server.port());
    EXPECT_FALSE(late.request({{"type", "seek"}, {"computer_after", 0}}).contains("game"));
}

TEST(SeekComputer, AnAccountWaitsUnlessItAsksAndPeoplePairFirst) {
    ServerProcess server(dbPath("seek_computer_account"));
    Player a(server.port()), b(server.port()), c(server.port());
    ASSERT_EQ(a.request({{"type", "register"},
                         {"username", "waits_ann"},
                         {"password", "correct horse"}})["type"],
              "ack");
    ASSERT_EQ(a.request({{"type", "seek"}})["type"], "ack");
    server.advance(6000);  // a minute: an account's seek has no computer unless asked
    ASSERT_EQ(a.request({{"type", "unseek"}})["type"], "ack");
    for (const auto& m : a.ws().log()) EXPECT_NE(Json::parse(m)["type"], "matched");
    // Asked for after 5 s; a person who comes first is paired instead.
    ASSERT_EQ(a.request({{"type", "seek"}, {"computer_after", 5}})["type"], "ack");
    Json paired = b.request({{"type", "seek"}, {"computer_after", 5}});
    ASSERT_TRUE(paired.contains("game"));
    server.advance(1000);
    EXPECT_EQ(a.take([](const Json& j) { return j["type"] == "matched"; })["game"], paired["game"]);
    // Bad values are refused.
    EXPECT_EQ(c.request({{"type", "seek"}, {"computer_after", -1}})["code"], "bad_message");
    EXPECT_EQ(c.request({{"type", "seek"}, {"computer_after", 601}})["code"], "bad_message");
    EXPECT_EQ(c.request({{"type", "seek"}, {"computer_after", "soon"}})["code"], "bad_message");
}

}  // namespace
}  // namespace rainet::test
