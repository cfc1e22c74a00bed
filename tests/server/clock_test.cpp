// Server-side clocks with the injected (manual) time source: Fischer increment, flag by the
// server's timer, a reconnect does not stop the clock, a restart does not charge the downtime.
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

const Json kClock = {{"clock", {{"initial", 1000}, {"increment", 100}}}};

TEST(Clock, IncrementAndFlag) {
    ServerProcess server(dbPath("flag"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, kClock);
    EXPECT_EQ(a.game(g).clocks, (Json{{"1", 1000}, {"2", 1000}, {"running", "1"}}));
    server.advance(300);
    playOne(a, b, g, a.game(g).legal[0]);
    EXPECT_EQ(b.game(g).clocks, (Json{{"1", 800}, {"2", 1000}, {"running", "2"}}));
    server.advance(999);
    b.sync(g);
    EXPECT_EQ(b.game(g).status, "playing");
    server.advance(1);  // side 2's clock reaches zero: the server flags it without any message
    b.take([](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
    EXPECT_EQ(b.game(g).end["reason"], "time");
    EXPECT_EQ(b.game(g).end["winner"], "1");
    EXPECT_EQ(b.game(g).clocks, (Json{{"1", 800}, {"2", 0}, {"running", nullptr}}));
}

TEST(Clock, ReconnectDoesNotStopTheClock) {
    ServerProcess server(dbPath("clockreconnect"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, kClock);
    playOne(a, b, g, a.game(g).legal[0]);  // side 2 to move, 1100 left
    b.disconnect();
    server.advance(400);
    Player back(server.port(), b.token());
    back.ws().send(Json{{"type", "watch"}, {"game", g}});
    back.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(back.game(g).clocks, (Json{{"1", 1100}, {"2", 600}, {"running", "2"}}));
}

// Side 1 plays after 2.5 s (stored clocks: side 1 850, side 2 1000), side 2 thinks `thinkCs`,
// then the server is killed and started again. Returns the game and side 2's token.
std::pair<std::string, std::string> crashWhileSide2Thinks(ServerProcess& server, int thinkCs) {
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, kClock);
    server.advance(250);
    playOne(a, b, g, a.game(g).legal[0]);
    if (thinkCs) server.advance(thinkCs);
    server.kill(SIGKILL);
    server.start();
    return {g, b.token()};
}

// Side 2 as it finds the game after coming back.
Player comeBack(ServerProcess& server, const std::string& token, const std::string& g) {
    Player b(server.port(), token);
    snapshotOf(b, g);
    return b;
}

TEST(Clock, TheClockRunsAgainAfterARestart) {
    ServerProcess server(dbPath("clockrestart"));
    auto [g, tokenB] = crashWhileSide2Thinks(server, 0);
    server.advance(1000);  // side 2's whole stored clock, after the restart: it flags
    Player b = comeBack(server, tokenB, g);
    EXPECT_EQ(b.game(g).status, "finished");
    EXPECT_EQ(b.game(g).end["reason"], "time");
}

// The side to move's turn restarts from the clocks stored with the last action: neither the
// downtime nor the part of the turn before the crash is charged.
TEST(Clock, RestartDoesNotChargeTheDowntime) {
    ServerProcess server(dbPath("clockrestart2"));
    auto [g, tokenB] = crashWhileSide2Thinks(server, 300);
    server.advance(50);
    Player b = comeBack(server, tokenB, g);
    EXPECT_EQ(b.game(g).clocks, (Json{{"1", 850}, {"2", 950}, {"running", "2"}}));
}

}  // namespace
}  // namespace rainet::test
