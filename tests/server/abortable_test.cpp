// `abortable` (docs/protocol.md §5-6): each seat is told whether it may abort now, and the value
// changes exactly where core's canAbort says: open, setup and play before both sides have made an
// action, yes; from the second action on, no. Spectators, who cannot abort, are never told.
#include <gtest/gtest.h>

#include "players.h"

namespace rainet::test {
namespace {

TEST(Abortable, SeatsAreToldWhenTheyMayAbortAndTheServerAgrees) {
    ServerProcess server(dbPath("abortable"));
    Player a(server.port()), b(server.port()), watcher(server.port());
    auto snapshotFor = [](Player& p, const std::string& g) {
        return p.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
    };
    const Json ack = a.request({{"type", "create"}, {"side", "1"}, {"opponent", "invite"}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    const std::string g = ack["game"];
    EXPECT_EQ(snapshotFor(a, g)["abortable"], true);  // open
    ASSERT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(snapshotFor(b, g)["abortable"], true);  // setup
    EXPECT_FALSE(snapshotOf(watcher, g).contains("abortable"));
    for (Player* p : {&a, &b})
        ASSERT_EQ(p->request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    for (Player* p : {&a, &b, &watcher}) takeEvent(*p, g, "start");
    Json s = snapshotOf(a, g);
    EXPECT_EQ(s["you"], "1");
    EXPECT_EQ(s["status"], "playing");
    EXPECT_EQ(s["abortable"], true);  // playing, no action yet

    // The first action leaves it as it is: its event says nothing about it.
    auto act = [&](Player& mover) {
        const Json r = mover.request({{"type", "act"},
                                      {"game", g},
                                      {"action", mover.game(g).legal.at(0)},
                                      {"v", mover.game(g).v}});
        ASSERT_EQ(r["type"], "ack") << r.dump();
    };
    act(a);
    for (Player* p : {&a, &b, &watcher})
        EXPECT_FALSE(takeEvent(*p, g, "action").contains("abortable"));
    EXPECT_EQ(snapshotOf(b, g)["abortable"], true);  // one action: both may still abort

    // The second ends it: both seats are told, the spectator is not.
    act(b);
    for (Player* p : {&a, &b}) EXPECT_EQ(takeEvent(*p, g, "action")["abortable"], false);
    EXPECT_FALSE(takeEvent(watcher, g, "action").contains("abortable"));
    EXPECT_EQ(snapshotOf(a, g)["abortable"], false);
    EXPECT_EQ(snapshotOf(b, g)["abortable"], false);
    EXPECT_FALSE(snapshotOf(watcher, g).contains("abortable"));
    EXPECT_EQ(a.request({{"type", "abort"}, {"game", g}})["code"], "cannot_abort");

    // Over: no seat may abort.
    EXPECT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(b, g, "end");
    EXPECT_EQ(snapshotOf(b, g)["abortable"], false);
}

}  // namespace
}  // namespace rainet::test
