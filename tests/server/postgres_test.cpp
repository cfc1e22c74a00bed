// The server on PostgreSQL (`rainet serve --db postgresql://...`), when RAINET_TEST_PG holds the
// URI of a maintenance database: a full game and its archive, a SIGKILL that loses no acknowledged
// action, accounts and ratings across a restart, a PostgreSQL restart mid-game. Each server gets a
// database of its own (the restart: a cluster of its own, support/postgres_test_cluster.h).
// (RAINET_TEST_SERVER_BACKEND=postgres runs every other server test on PostgreSQL as well.)
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>

#include "players.h"
#include "store/store.h"
#include "support/postgres_test_cluster.h"
#include "support/postgres_test_db.h"

namespace rainet::test {
namespace {

class OnPostgres : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!postgresTestUri()) GTEST_SKIP() << "RAINET_TEST_PG is not set";
    }
};

TEST_F(OnPostgres, AFullGameIsPlayedAndArchived) {
    ServerProcess server(dbPath("pg_game"), {}, Backend::Postgres);
    ASSERT_NE(server.port(), 0);
    std::mt19937 rng(5);
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    const int plies = playRandom(a, b, g, rng);
    EXPECT_GT(plies, 0);
    EXPECT_EQ(a.game(g).status, "finished");
    auto [status, body] = server.http("GET", "/api/games/" + g);
    ASSERT_EQ(status, 200) << body;
    const Json record = Json::parse(body);
    EXPECT_EQ(record["status"], "finished");
    auto [ls, list] = server.http("GET", "/api/games?player=" + a.id());
    ASSERT_EQ(ls, 200);
    EXPECT_EQ(Json::parse(list)["games"].size(), 1u) << list;
    EXPECT_EQ(server.logText().find("store_error"), std::string::npos) << server.logText();
}

TEST_F(OnPostgres, SigkillMidGameLosesNoAcknowledgedAction) {
    ServerProcess server(dbPath("pg_sigkill"), {}, Backend::Postgres);
    ASSERT_NE(server.port(), 0);
    std::mt19937 rng(11);
    std::string g, tokenA, tokenB, viewA, viewB;
    long v = 0;
    std::size_t acked = 0;
    {
        Player a(server.port()), b(server.port());
        g = startGame(a, b, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
        for (int i = 0; i < 12 && a.game(g).status == "playing"; ++i, ++acked)
            playOne(a, b, g, moverAction(a, b, g, rng));
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
        EXPECT_EQ(snap["history"].size(), acked);
    }
    EXPECT_EQ(a.game(g).view, viewA);
    EXPECT_EQ(b.game(g).view, viewB);
    playRandom(a, b, g, rng);
    EXPECT_EQ(a.game(g).status, "finished");
}

// "Restart PostgreSQL mid-game: games resume, nothing lost". While the database is
// away an action is answered with an `internal` error (never an ack) and changes nothing, for the
// actor or the opponent; once it is back the server reconnects by itself (each connection of its
// pool at its next statement), the same action is acknowledged and the game is played to its end.
// The stored actions are exactly the acknowledged ones, in order, each once.
TEST_F(OnPostgres, ARestartOfPostgresMidGameLosesNothingAndTheGameGoesOn) {
    PostgresTestCluster pg(sourceDir());
    ASSERT_TRUE(pg.error().empty()) << pg.error();
    ServerProcess server(dbPath("pg_restart"), ServerProcess::SharedDb{pg.uri()}, {});
    ASSERT_NE(server.port(), 0);
    std::mt19937 rng(17);
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
    std::vector<std::string> acked;
    playAcked(a, b, g, rng, acked, 6);
    ASSERT_EQ(a.game(g).status, "playing");
    const long v = a.game(g).v;

    ASSERT_EQ(pg.down(), "");
    Player& mover = a.game(g).legal.empty() ? b : a;
    Player& other = &mover == &a ? b : a;
    const std::string action = moverAction(a, b, g, rng);
    const Json refused =
        mover.request({{"type", "act"}, {"game", g}, {"action", action}, {"v", v}});
    EXPECT_EQ(refused["type"], "error") << refused.dump();
    EXPECT_EQ(refused["code"], "internal") << refused.dump();
    // Nothing was applied: the room answers a watch with the version of the last ack.
    EXPECT_EQ(snapshotOf(other, g)["v"], v);
    EXPECT_EQ(other.game(g).v, v);
    // Every request meanwhile is refused the same way; the outage is logged once per connection
    // of the store's pool, not once per statement.
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(
            mover.request({{"type", "act"}, {"game", g}, {"action", action}, {"v", v}})["code"],
            "internal");
    EXPECT_LE(server.logCount("store_reconnect_failed"),
              static_cast<int>(store::Store::kPostgresConnections));
    EXPECT_GE(server.logCount("store_reconnect_failed"), 1);

    ASSERT_EQ(pg.up(), "");
    const Json ack = mover.request({{"type", "act"}, {"game", g}, {"action", action}, {"v", v}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    acked.push_back(action);
    a.waitVersion(g, v + 1);
    b.waitVersion(g, v + 1);
    EXPECT_GE(server.logCount("store_reconnected"), 1) << server.logText();
    playToEnd(a, b, g, rng, acked);
    EXPECT_EQ(a.game(g).status, "finished");
    EXPECT_EQ(pg.query("SELECT coalesce(string_agg(action, ' ' ORDER BY ply), '') FROM actions "
                       "WHERE game = '" +
                       g + "'"),
              joined(acked));
    EXPECT_EQ(pg.query("SELECT count(*) FROM actions WHERE game = '" + g + "'"),
              std::to_string(acked.size()));
    EXPECT_EQ(pg.query("SELECT status FROM games WHERE id = '" + g + "'"), "finished");
}

TEST_F(OnPostgres, AccountsAndRatingsSurviveARestart) {
    ServerProcess server(dbPath("pg_ratings"), {}, Backend::Postgres);
    ASSERT_NE(server.port(), 0);
    Player a(server.port()), b(server.port());
    Json reg = a.request({{"type", "register"}, {"username", "Hanna"}, {"password", "pw-12345"}});
    ASSERT_EQ(reg["type"], "ack") << reg.dump();
    // Usernames are unique whatever their case.
    Json taken = b.request({{"type", "register"}, {"username", "hANNA"}, {"password", "pw-12345"}});
    EXPECT_EQ(taken["type"], "error");
    const std::string g = startGame(a, b);
    EXPECT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    Json end = a.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == g && j["kind"] == "end";
    });
    ASSERT_TRUE(end.contains("ratings")) << end.dump();
    const int after1 = end["ratings"]["1"]["after"];
    EXPECT_GT(after1, 1500);

    server.kill(SIGKILL);
    server.start();
    auto [status, body] = server.http("GET", "/api/players/" + a.id());
    ASSERT_EQ(status, 200) << body;
    const Json profile = Json::parse(body);
    EXPECT_EQ(profile["rating"], after1);
    EXPECT_EQ(profile["wins"], 1);
    // A login from another browser finds the account, whatever the case typed.
    WsClient other(server.port());
    other.send(Json{{"type", "login"}, {"id", 1}, {"username", "hanna"}, {"password", "pw-12345"}});
    Json w =
        other.waitFor([](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; });
    ASSERT_EQ(w["type"], "welcome") << w.dump();
    EXPECT_EQ(w["player"]["id"], a.id());
    EXPECT_EQ(w["player"]["rating"], after1);
    auto [ls, board] = server.http("GET", "/api/leaderboard");
    EXPECT_EQ(Json::parse(board)["total"], 2) << board;
}

}  // namespace
}  // namespace rainet::test
