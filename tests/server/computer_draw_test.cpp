// A draw offer to the computer is answered at once: the computer declines it, so the offer never
// hangs and the player may offer again later.
#include <gtest/gtest.h>

#include "players.h"

namespace rainet::test {
namespace {

TEST(ComputerDraw, TheComputerDeclinesADrawOfferAtOnce) {
    ServerProcess server(dbPath("computer-draw"));
    Player a(server.port());
    Json ack =
        a.request({{"type", "create"}, {"opponent", "computer"}, {"level", 1}, {"side", "1"}});
    ASSERT_EQ(ack["type"], "ack");
    const std::string g = ack["game"];
    ASSERT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });

    for (int round = 0; round < 2; ++round) {
        // Side 1 to move: offer, and the computer's answer comes without any action being played.
        ASSERT_FALSE(a.game(g).legal.empty());
        const long v = a.game(g).v;
        ASSERT_EQ(a.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
        Json decline = a.take([&](const Json& j) {
            return j["type"] == "event" && j["game"] == g && j.value("kind", "") != "draw_offer";
        });
        EXPECT_EQ(decline["kind"], "draw_decline") << decline.dump();
        EXPECT_EQ(decline["side"], "2");
        EXPECT_EQ(decline["v"], v + 2);
        // Nothing is pending any more: accepting is refused, the game goes on, and a snapshot
        // (a reconnecting page) shows no offer.
        EXPECT_EQ(a.request({{"type", "draw_accept"}, {"game", g}})["code"], "no_draw_offer");
        a.ws().send(Json{{"type", "watch"}, {"game", g}});
        Json s = a.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
        EXPECT_TRUE(s["draw_offer"].is_null());
        EXPECT_EQ(s["status"], "playing");
        // Play one action and wait for the computer's reply before the next round.
        const std::string act = a.game(g).legal.front();
        ASSERT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", act}})["type"], "ack");
        a.take([&](const Json& j) {
            return j["type"] == "event" && j["game"] == g && j.value("kind", "") == "action" &&
                   j["side"] == "2";
        });
    }
}

}  // namespace
}  // namespace rainet::test
