// Bad input: each gets its documented error code, the game's state is unchanged, and the
// connection stays usable unless abusive (then it is closed with a reason).
#include <gtest/gtest.h>

#include <unistd.h>

#include "players.h"

namespace rainet::test {
namespace {

std::string errorCode(Player& p, const std::string& raw) {
    p.ws().send(raw);
    return p.take([](const Json& j) { return j["type"] == "error"; })["code"];
}

TEST(BadInput, EachGetsItsCodeAndChangesNothing) {
    ServerProcess server(dbPath("errors"));
    Player a(server.port()), b(server.port()), spectator(server.port());
    Player watcher(server.port());
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal[0]);  // side 2 to move
    const std::string before = snapshotOf(watcher, g).dump();

    EXPECT_EQ(errorCode(a, "{not json"), "bad_json");
    EXPECT_EQ(errorCode(a, "[1,2,3]"), "bad_json");
    EXPECT_EQ(errorCode(a, R"({"type":"teleport","id":1})"), "unknown_type");
    EXPECT_EQ(errorCode(a, R"({"type":"act","game":")" + g + R"(","action":"d2-d3"})"),
              "bad_message");  // no id
    EXPECT_EQ(errorCode(a, R"({"type":"act","id":1,"game":")" + g + R"(","action":7})"),
              "bad_message");
    EXPECT_EQ(a.request({{"type", "act"}, {"game", "gNOPE"}, {"action", "d2-d3"}})["code"],
              "unknown_game");
    EXPECT_EQ(spectator.request({{"type", "act"}, {"game", g}, {"action", "d7-d6"}})["code"],
              "not_a_player");
    EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", "d2-d3"}})["code"],
              "not_your_turn");  // acting out of turn
    const std::string legal2 = b.game(g).legal[0];
    EXPECT_EQ(b.request({{"type", "act"}, {"game", g}, {"action", "d7-d4"}})["code"],
              "illegal_action");
    EXPECT_EQ(b.request({{"type", "act"}, {"game", g}, {"action", "zz-top"}})["code"],
              "illegal_action");
    EXPECT_EQ(b.request({{"type", "act"}, {"game", g}, {"action", "d2-d3"}})["code"],
              "illegal_action");  // acting with the other side's card
    EXPECT_EQ(b.request({{"type", "act"}, {"game", g}, {"action", legal2}, {"v", 1}})["code"],
              "stale_version");
    EXPECT_EQ(b.request({{"type", "setup"}, {"game", g}, {"random", true}})["code"],
              "wrong_status");
    EXPECT_EQ(a.request({{"type", "draw_accept"}, {"game", g}})["code"], "no_draw_offer");
    EXPECT_EQ(errorCode(a, std::string(5000, ' ')), "too_large");
    // A frame of 4 KiB + 1 of valid JSON is refused too.
    EXPECT_EQ(errorCode(a, R"({"type":"ping","pad":")" + std::string(4100, 'x') + "\"}"),
              "too_large");

    EXPECT_EQ(snapshotOf(watcher, g).dump(), before);
    // Still usable: the right action from the right side goes through.
    playOne(a, b, g, legal2);
    a.ws().send(Json{{"type", "ping"}, {"id", 5}});
    EXPECT_EQ(a.take([](const Json& j) { return j["type"] == "pong"; })["id"], 5);
}

TEST(BadInput, SetupErrors) {
    ServerProcess server(dbPath("setuperrors"));
    Player a(server.port()), b(server.port());
    Json ack = a.request({{"type", "create"}, {"opponent", "invite"}, {"side", "1"}});
    const std::string g = ack["game"];
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["code"],
              "wrong_status");  // nobody joined yet
    EXPECT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(
        a.request({{"type", "setup"}, {"game", g}, {"links", {"a8", "b8", "c8", "d7"}}})["code"],
        "bad_setup");  // the other side's squares
    EXPECT_EQ(
        a.request({{"type", "setup"}, {"game", g}, {"links", {"a1", "a1", "c1", "d2"}}})["code"],
        "bad_setup");
    EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", "d2-d3"}})["code"],
              "wrong_status");
    EXPECT_EQ(
        a.request({{"type", "setup"}, {"game", g}, {"links", {"a1", "b1", "c1", "d2"}}})["type"],
        "ack");
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["code"],
              "already_set_up");
}

TEST(BadInput, BeforeHello) {
    ServerProcess server(dbPath("nohello"));
    Player p(server.port());
    p.connect(server.port(), false);
    p.ws().send(Json{{"type", "ping"}});
    Json e = p.ws().waitFor([](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(e["code"], "not_authenticated");
}

TEST(BadInput, FloodIsLimitedThenClosed) {
    ServerProcess server(dbPath("flood"), {"--rate", "5"});  // burst 10, 5 per second
    Player p(server.port());
    for (int i = 0; i < 20; ++i) p.ws().send(Json{{"type", "ping"}, {"id", i}});
    Json limited = p.ws().waitFor([](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(limited["code"], "rate_limited");
    EXPECT_FALSE(p.ws().isClosed());
    for (int i = 0; i < 150; ++i) p.ws().send(Json{{"type", "ping"}});
    EXPECT_EQ(p.ws().closeCode(), 1008);
}

TEST(BadInput, HugeFrameClosesTheConnection) {
    ServerProcess server(dbPath("huge"));
    Player p(server.port());
    p.ws().send(std::string(70000, 'x'));
    EXPECT_EQ(p.ws().closeCode(), 1009);
    // The server is fine.
    Player q(server.port());
    EXPECT_FALSE(q.id().empty());
}

}  // namespace
}  // namespace rainet::test
