// Reconnection (event replay and snapshots), repeated request ids, and a server killed with
// SIGKILL mid-game and restarted: no acknowledged action is lost.
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

TEST(Reconnect, ReplaysExactlyTheMissedEvents) {
    ServerProcess server(dbPath("replay"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal[0]);
    playOne(a, b, g, b.game(g).legal[0]);
    const long seen = b.game(g).v;
    b.disconnect();
    a.take([](const Json& j) { return j["type"] == "presence" && j["connected"] == false; });
    // a plays while b is away (a's request waits only for its own ack).
    const long before = a.game(g).v;
    EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", a.game(g).legal[0]}})["type"],
              "ack");
    a.waitVersion(g, before + 1);

    Player back(server.port(), b.token());
    EXPECT_EQ(back.id(), b.id());
    ASSERT_EQ(back.welcome()["games"].size(), 1u);
    EXPECT_EQ(back.welcome()["games"][0]["game"], g);
    back.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", seen}});
    // Besides presence (not versioned), exactly the missed event arrives, nothing more.
    auto received = [&] {
        std::vector<Json> got;
        for (Json& j : back.sync(g))
            if (j["type"] != "presence") got.push_back(std::move(j));
        return got;
    };
    std::vector<Json> got = received();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0]["type"], "event");
    EXPECT_EQ(got[0]["v"], seen + 1);
    EXPECT_EQ(got[0]["kind"], "action");
    // Resuming when current sends nothing; a version from the future gets a snapshot.
    back.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", seen + 1}});
    EXPECT_TRUE(received().empty());
    back.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", seen + 50}});
    EXPECT_EQ(Json::parse(*back.ws().next())["type"], "snapshot");
}

TEST(Reconnect, SnapshotWhenTheEventsAreNoLongerHeld) {
    ServerProcess server(dbPath("snapshot"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    const long seen = b.game(g).v;
    b.disconnect();
    // b's seat declines through a second connection that never subscribes to the game.
    Player side2(server.port(), b.token());
    for (int i = 0; i < 140; ++i) {  // 280 events: more than the 128 held
        Json r = a.request({{"type", "draw_offer"}, {"game", g}});
        ASSERT_EQ(r["type"], "ack") << r.dump();
        ASSERT_EQ(side2.request({{"type", "draw_decline"}, {"game", g}})["type"], "ack");
    }
    Player back(server.port(), b.token());
    back.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", seen}});
    Json snap = back.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(snap["v"], seen + 280);
    EXPECT_EQ(snap["you"], "2");
    EXPECT_EQ(snap["status"], "playing");
    EXPECT_TRUE(snap["draw_offer"].is_null());
}

TEST(Reconnect, RepeatedRequestIdIsAcknowledgedAgainNotAppliedTwice) {
    ServerProcess server(dbPath("dedup"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    const long v = a.game(g).v;
    Json act{{"type", "act"}, {"game", g}, {"action", a.game(g).legal[0]}, {"id", "move-1"}};
    Json ack1 = a.requestWithId(act);
    EXPECT_EQ(ack1["type"], "ack");
    EXPECT_EQ(ack1["v"], v + 1);
    Json ack2 = a.requestWithId(act);
    EXPECT_EQ(ack2, ack1);
    b.waitVersion(g, v + 1);
    for (const Json& j : b.sync(g)) EXPECT_NE(j["type"], "event") << "a second event: " << j.dump();
    // Also from a new connection of the same player.
    Player again(server.port(), a.token());
    EXPECT_EQ(again.requestWithId(act), ack1);
    // A repeated create makes no second game.
    Json create{{"type", "create"}, {"id", "c-1"}, {"opponent", "invite"}};
    Json c1 = a.requestWithId(create);
    Json c2 = a.requestWithId(create);
    EXPECT_EQ(c1, c2);
}

TEST(Restart, SigkillMidGameLosesNoAcknowledgedAction) {
    ServerProcess server(dbPath("sigkill"));
    std::mt19937 rng(11);
    std::string g, tokenA, tokenB, viewA, viewB;
    long v = 0;
    std::vector<std::string> acked;
    Json lastAct;
    {
        Player a(server.port()), b(server.port());
        g = startGame(a, b, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
        for (int i = 0; i < 12; ++i) {
            const std::string act = moverAction(a, b, g, rng);
            Player& mover = a.game(g).legal.empty() ? b : a;
            // std::string("k").append(...), not "k" + std::to_string(i): GCC 12's -Wrestrict
            // reports a false overlap in the inlined operator+ (a known GCC 12 bug).
            lastAct = {{"type", "act"},
                       {"game", g},
                       {"action", act},
                       {"id", std::string("k").append(std::to_string(i))}};
            const long before = a.game(g).v;
            ASSERT_EQ(mover.requestWithId(lastAct)["type"], "ack");
            acked.push_back(act);
            a.waitVersion(g, before + 1);
            b.waitVersion(g, before + 1);
        }
        tokenA = a.token();
        tokenB = b.token();
        viewA = a.game(g).view;
        viewB = b.game(g).view;
        v = a.game(g).v;
        server.kill(SIGKILL);
    }
    server.start();
    Player a(server.port(), tokenA), b(server.port(), tokenB);
    for (Player* p : {&a, &b}) {
        p->ws().send(Json{{"type", "resume"}, {"game", g}, {"v", v - 1}});
        Json snap = p->take([](const Json& j) { return j["type"] == "snapshot"; });
        EXPECT_EQ(snap["v"], v);
        EXPECT_EQ(snap["history"].size(), acked.size());
        EXPECT_EQ(snap["status"], "playing");
    }
    EXPECT_EQ(a.game(g).view, viewA);
    EXPECT_EQ(b.game(g).view, viewB);
    // The last acknowledged act, sent again after the restart, is acknowledged, not replayed.
    Player& lastMover = acked.size() % 2 ? a : b;
    EXPECT_EQ(lastMover.requestWithId(lastAct)["type"], "ack");
    EXPECT_EQ(lastMover.game(g).v, v);
    playRandom(a, b, g, rng);
    EXPECT_TRUE(a.game(g).end.is_object());
    auto [status, record] = server.http("GET", "/api/games/" + g);
    Json r = Json::parse(record);
    for (std::size_t i = 0; i < acked.size(); ++i) EXPECT_EQ(r["actions"][i], acked[i]);
    EXPECT_NE(r["record"].get<std::string>().find("[Termination"), std::string::npos);
}

}  // namespace
}  // namespace rainet::test
