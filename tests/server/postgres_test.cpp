// The server on PostgreSQL (`rainet serve --db postgresql://...`), when RAINET_TEST_PG holds the
// URI of a maintenance database: a full game and its archive, a SIGKILL that loses no acknowledged
// action, accounts and ratings across a restart. Each server gets a database of its own.
// (RAINET_TEST_SERVER_BACKEND=postgres runs every other server test on PostgreSQL as well.)
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>

#include "players.h"
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
