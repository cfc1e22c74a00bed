// Correspondence games (days per move) with the injected (manual) time source: the clock values
// admitted, a full move's time after each action, a deadline that survives a restart, the
// attendance expiry not applied, the "your turn" list (my_games) and the your_turn notification.
#include <gtest/gtest.h>

#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

constexpr int kDayCs = 24 * 3600 * 100;

Json daysClock(int days) {
    return {{"clock", {{"days", days}}}};
}

Json myGames(Player& p) {
    p.ws().send(Json{{"type", "my_games"}, {"id", "mine"}});
    return p.take([](const Json& j) {
        return (j["type"] == "my_games" || j["type"] == "error") && j["id"] == "mine";
    });
}

TEST(Correspondence, OnlyTheListedDaysAreAdmittedAndNothingIsCreatedOtherwise) {
    ServerProcess server(dbPath("corr_values"));
    Player a(server.port());
    for (const Json& clock : {Json{{"days", 4}}, Json{{"days", 0}}, Json{{"days", "3"}},
                              Json{{"days", 3}, {"initial", 100}}}) {
        Json r = a.request({{"type", "create"}, {"clock", clock}});
        EXPECT_EQ(r["type"], "error") << clock.dump();
        EXPECT_EQ(r["code"], "bad_message");
        EXPECT_NE(r["message"].get<std::string>().find("days"), std::string::npos) << r.dump();
    }
    Json r = a.request({{"type", "create"}, {"clock", {{"days", 3}}}, {"opponent", "computer"}});
    EXPECT_EQ(r["type"], "error");
    EXPECT_NE(r["message"].get<std::string>().find("computer"), std::string::npos);
    r = a.request({{"type", "seek"}, {"clock", {{"days", 15}}}});
    EXPECT_EQ(r["type"], "error");
    EXPECT_TRUE(myGames(a)["games"].empty());
    for (int days : {1, 2, 3, 5, 7, 14}) {
        r = a.request({{"type", "create"}, {"clock", {{"days", days}}}});
        ASSERT_EQ(r["type"], "ack") << days;
        Json s = a.take([](const Json& j) { return j["type"] == "snapshot"; });
        EXPECT_EQ(s["clock"], (Json{{"initial", days * kDayCs}, {"increment", 0}, {"days", days}}));
    }
}

TEST(Correspondence, EachMoveHasItsDaysAndTheLateSideLosesOnTime) {
    ServerProcess server(dbPath("corr_play"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, daysClock(3));
    const Json start = a.game(g).clocks;
    EXPECT_EQ(start["1"], 3 * kDayCs);
    EXPECT_EQ(start["2"], 3 * kDayCs);
    EXPECT_EQ(start["running"], "1");
    ASSERT_TRUE(start["deadline"].is_number_integer()) << start.dump();
    server.advance(2 * kDayCs);  // side 1 plays on its third day: its next move has 3 days again
    playOne(a, b, g, a.game(g).legal[0]);
    const Json after = b.game(g).clocks;
    EXPECT_EQ(after["1"], 3 * kDayCs);
    EXPECT_EQ(after["2"], 3 * kDayCs);
    EXPECT_EQ(after["running"], "2");
    EXPECT_EQ(after["deadline"].get<std::int64_t>() - start["deadline"].get<std::int64_t>(),
              2LL * kDayCs * 10);
    // Nobody connected for two days (beyond the attendance expiry of a day): the game goes on.
    a.disconnect();
    b.disconnect();
    server.advance(2 * kDayCs);
    Player watcher(server.port());
    Json s = snapshotOf(watcher, g);
    EXPECT_EQ(s["status"], "playing");
    EXPECT_EQ(s["clocks"]["2"], kDayCs);
    server.advance(kDayCs);  // side 2's deadline
    Json end =
        watcher.take([](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
    EXPECT_EQ(end["reason"], "time");
    EXPECT_EQ(end["winner"], "1");
}

TEST(Correspondence, TheDeadlineSurvivesARestartAndPassesAfterIt) {
    ServerProcess server(dbPath("corr_restart"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, daysClock(2));
    playOne(a, b, g, a.game(g).legal[0]);
    const std::int64_t deadline = b.game(g).clocks["deadline"].get<std::int64_t>();
    server.kill(SIGKILL);
    server.start();  // its manual clock starts again from the wall clock
    Player back(server.port(), b.token());
    Json s = snapshotOf(back, g);
    EXPECT_EQ(s["status"], "playing");
    EXPECT_EQ(s["clocks"]["deadline"], deadline) << "the stored deadline, not a new one";
    EXPECT_EQ(s["clocks"]["running"], "2");
    // The real seconds of the restart count (days pass for the players), nothing more.
    EXPECT_LE(s["clocks"]["2"].get<std::int64_t>(), 2 * kDayCs);
    EXPECT_GT(s["clocks"]["2"].get<std::int64_t>(), 2 * kDayCs - 60 * 100);
    const Json list = myGames(back)["games"];
    ASSERT_EQ(list.size(), 1u) << list.dump();
    EXPECT_EQ(list[0]["deadline"], deadline);
    EXPECT_EQ(list[0]["yourTurn"], true);
    server.advance(kDayCs);
    EXPECT_EQ(snapshotOf(back, g)["status"], "playing");
    server.advance(kDayCs);  // the deadline passed (by the restart's seconds)
    Json end = back.take([](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
    EXPECT_EQ(end["reason"], "time");
    EXPECT_EQ(end["winner"], "1");
    EXPECT_TRUE(myGames(back)["games"].empty()) << "a finished game leaves the list";
}

TEST(Correspondence, MyGamesListsThePlayersGamesTheirMovesFirst) {
    ServerProcess server(dbPath("corr_list"));
    Player a(server.port()), b(server.port()), c(server.port());
    const std::string g1 = startGame(a, b, daysClock(7));
    const std::string g2 = startGame(c, a, daysClock(1));
    startGame(b, c, daysClock(5));                                        // not a's
    startGame(a, b, {{"clock", {{"initial", 6000}, {"increment", 0}}}});  // not correspondence
    Json list = myGames(a)["games"];
    ASSERT_EQ(list.size(), 2u) << list.dump();
    // a moves first in g1 (side 1); in g2 a is side 2, c (side 1) to move.
    EXPECT_EQ(list[0]["game"], g1);
    EXPECT_EQ(list[0]["yourTurn"], true);
    EXPECT_EQ(list[0]["side"], "1");
    EXPECT_EQ(list[0]["days"], 7);
    EXPECT_EQ(list[0]["opponent"]["id"], b.id());
    EXPECT_EQ(list[0]["deadline"], a.game(g1).clocks["deadline"]);
    EXPECT_EQ(list[1]["game"], g2);
    EXPECT_EQ(list[1]["yourTurn"], false);
    EXPECT_EQ(list[1]["side"], "2");
    EXPECT_EQ(list[1]["opponent"]["id"], c.id());
    playOne(c, a, g2, c.game(g2).legal[0]);
    list = myGames(a)["games"];
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0]["game"], g2) << "both a's moves now: the sooner deadline (1 day) first";
    EXPECT_EQ(list[0]["yourTurn"], true);
    EXPECT_EQ(list[1]["yourTurn"], true);
}

TEST(Correspondence, YourTurnIsNotifiedOnlyWhenNoConnectionFollowsTheGame) {
    ServerProcess server(dbPath("corr_notify"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, daysClock(2));
    Player b2(server.port(), b.token(), 2000);  // another tab, not following the game
    playOne(a, b, g, a.game(g).legal[0]);       // b follows the game: no notification
    playOne(a, b, g, b.game(g).legal[0]);
    b.disconnect();
    a.take([&](const Json& j) {
        return j["type"] == "presence" && j["game"] == g && j["connected"] == false;
    });
    const long v = a.game(g).v;
    ASSERT_EQ(
        a.request({{"type", "act"}, {"game", g}, {"action", a.game(g).legal[0]}, {"v", v}})["type"],
        "ack");
    Json n = b2.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(n["n"]["kind"], "your_turn");
    EXPECT_EQ(n["n"]["data"]["game"], g);
    EXPECT_EQ(n["n"]["data"]["opponent"]["id"], a.id());
    EXPECT_EQ(n["n"]["data"]["deadline"], a.game(g).clocks["deadline"]);
    EXPECT_EQ(n["unread"], 1) << "the first move b saw live was not notified";
}

TEST(Correspondence, AnOpenGameWaitsItsDaysNotTheCreatorsPresence) {
    ServerProcess server(dbPath("corr_open"));
    std::string g;
    {
        Player a(server.port());
        ASSERT_EQ(a.request({{"type", "create"}, {"clock", {{"days", 1}}}})["type"], "ack");
        g = a.take([](const Json& j) { return j["type"] == "snapshot"; })["game"];
    }
    server.advance(2 * 3600 * 100);  // beyond the hour of an open game its creator left
    Player w(server.port());
    EXPECT_EQ(snapshotOf(w, g)["status"], "open");
    server.advance(kDayCs);
    w.take([](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
    EXPECT_EQ(snapshotOf(w, g)["status"], "aborted");
}

TEST(Correspondence, AGuestsSeekWaitsForAPersonAndPairsWithTheSameDays) {
    ServerProcess server(dbPath("corr_seek"));
    Player guest(server.port()), other(server.port()), same(server.port());
    ASSERT_EQ(guest.request({{"type", "seek"}, {"clock", {{"days", 2}}}})["type"], "ack");
    server.advance(6000);  // a minute: beyond a guest's 20 s, yet no computer
    ASSERT_EQ(other.request({{"type", "seek"}, {"clock", {{"days", 3}}}})["type"], "ack");
    guest.ws().send(Json{{"type", "ping"}, {"id", "P"}});  // after anything the advance sent
    guest.take([](const Json& j) { return j["type"] == "pong"; });
    for (const auto& m : guest.ws().log()) EXPECT_NE(Json::parse(m)["type"], "matched");
    // The same days pair (sent as the server shows a clock: it may be sent back).
    Json ack = same.request(
        {{"type", "seek"}, {"clock", {{"initial", 2 * kDayCs}, {"increment", 0}, {"days", 2}}}});
    ASSERT_TRUE(ack.contains("game")) << ack.dump();
    Json matched = guest.take([](const Json& j) { return j["type"] == "matched"; });
    EXPECT_EQ(matched["game"], ack["game"]);
    EXPECT_EQ(snapshotOf(guest, ack["game"])["clock"]["days"], 2);
}

}  // namespace
}  // namespace rainet::test
