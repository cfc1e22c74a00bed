// Faults inside the server: a store that fails on demand (test mode: POST /api/test/store?fail=1)
// is answered with `internal` errors that change nothing, never taken for "no such thing"; an
// exception thrown on demand (POST /api/test/throw?in=...) fails only the connection, game or
// request concerned while the server keeps serving everyone else.
#include <gtest/gtest.h>

#include <future>

#include "players.h"

namespace rainet::test {
namespace {

Json helloAnswer(WsClient& c, const std::string& token, int id) {
    Json hello{{"type", "hello"}, {"id", id}};
    if (!token.empty()) hello["token"] = token;
    c.send(hello);
    return c.waitFor([](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; });
}

TEST(StoreFailure, IsAnInternalErrorThatChangesNothing) {
    ServerProcess server(dbPath("storefail"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal[0]);
    const std::string before = snapshotOf(b, g).dump();

    ASSERT_EQ(server.http("POST", "/api/test/store?fail=1").first, 200);
    // hello with a valid token: an error, not a new guest (the browser would overwrite its token).
    WsClient c(server.port());
    Json answer = helloAnswer(c, a.token(), 1);
    EXPECT_EQ(answer["type"], "error");
    EXPECT_EQ(answer["code"], "internal");
    EXPECT_EQ(answer["id"], 1);
    // Without a token no guest can be made either; the connection stays usable.
    answer = helloAnswer(c, "", 2);
    EXPECT_EQ(answer["code"], "internal");
    // A game action is not acknowledged; a game not in memory is not "unknown".
    const std::string legal = b.game(g).legal[0];
    EXPECT_EQ(b.request({{"type", "act"}, {"game", g}, {"action", legal}})["code"], "internal");
    EXPECT_EQ(b.request({{"type", "watch"}, {"game", "gNOPE"}})["code"], "internal");
    // HTTP: 500, not 404 or an empty list.
    EXPECT_EQ(server.http("GET", "/api/games/" + g),
              (std::pair<int, std::string>{500, R"({"error":"internal"})"}));
    EXPECT_EQ(server.http("GET", "/api/games/" + g + "/record").first, 500);
    EXPECT_EQ(server.http("GET", "/api/games?status=playing").first, 500);
    EXPECT_EQ(server.http("GET", "/api/leaderboard").first, 500);
    EXPECT_EQ(server.http("GET", "/api/players/" + a.id()).first, 500);

    ASSERT_EQ(server.http("POST", "/api/test/store?fail=0").first, 200);
    // The same player, the same token, the same game, as it was.
    answer = helloAnswer(c, a.token(), 3);
    ASSERT_EQ(answer["type"], "welcome") << answer.dump();
    EXPECT_EQ(answer["token"], a.token());
    EXPECT_EQ(answer["player"]["id"], a.id());
    ASSERT_EQ(answer["games"].size(), 1u);
    EXPECT_EQ(answer["games"][0]["game"], g);
    EXPECT_EQ(snapshotOf(b, g).dump(), before);
    playOne(a, b, g, legal);
    EXPECT_EQ(server.http("GET", "/api/games/" + g).first, 200);
}

// A commit whose outcome is unknown (the connection lost before its reply: a PostgreSQL restart
// at the wrong moment) may have stored the change, so the room can no longer trust its memory:
// it answers nothing, evicts the game (its clients closed with 1012: reconnect) and the clients
// resume from the store, which here holds the action. Nobody is told it failed or acknowledged
// without it, and the game goes on from the stored state.
TEST(StoreFailure, ACommitWhoseOutcomeIsUnknownEvictsTheGameAndItsClientsResumeTheStoredTruth) {
    ServerProcess server(dbPath("commitunknown"));
    std::mt19937 rng(29);
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    playOne(a, b, g, moverAction(a, b, g, rng));
    const long v = a.game(g).v;
    ASSERT_EQ(server.http("POST", "/api/test/store?fail=commit").first, 200);
    Player& mover = a.game(g).legal.empty() ? b : a;
    mover.ws().send(Json{
        {"type", "act"}, {"id", 77}, {"game", g}, {"action", moverAction(a, b, g, rng)}, {"v", v}});
    EXPECT_EQ(a.ws().closeCode(), 1012);
    EXPECT_EQ(b.ws().closeCode(), 1012);
    for (Player* p : {&a, &b})
        for (const auto& text : p->ws().log()) {
            const Json j = Json::parse(text);
            if (j.value("id", Json()) == 77 || (j["type"] == "event" && j["v"] > v))
                ADD_FAILURE() << "sent after the unknown commit: " << text;
        }
    ASSERT_EQ(server.http("POST", "/api/test/store?fail=0").first, 200);
    Player qa(server.port(), a.token()), qb(server.port(), b.token());
    for (Player* p : {&qa, &qb}) {
        const Json snap = snapshotOf(*p, g);
        EXPECT_EQ(snap["v"], v + 1) << "the action was stored";
        EXPECT_EQ(snap["history"].size(), 2u);
    }
    playOne(qa, qb, g, moverAction(qa, qb, g, rng));
    EXPECT_EQ(snapshotOf(qa, g)["history"].size(), 3u);
}

// The computer's action that could not be stored (the database away) is chosen again a second
// later (GameRoom::kBotRetryMs) rather than never: once the store works again the computer
// moves, and the game does not wait for it forever. The computer thinks 500 ms at level 5, so
// the store fails before its action is written.
TEST(StoreFailure, TheComputersActionThatCouldNotBeStoredIsPlayedOnceTheStoreIsBack) {
    ServerProcess server(dbPath("botretry"));
    Player a(server.port());
    const Json ack =
        a.request({{"type", "create"}, {"opponent", "computer"}, {"level", 5}, {"side", "1"}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    const std::string g = ack["game"];
    ASSERT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    const long v = a.game(g).v;
    ASSERT_EQ(
        a.request({{"type", "act"}, {"game", g}, {"action", a.game(g).legal.front()}})["type"],
        "ack");
    ASSERT_EQ(server.http("POST", "/api/test/store?fail=1").first, 200);
    // The computer's action fails to store: logged, nothing sent.
    for (int i = 0; i < 400 && server.logCount("store_error") == 0; ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_GE(server.logCount("store_error"), 1) << server.logText();
    EXPECT_EQ(snapshotOf(a, g)["v"], v + 1);
    ASSERT_EQ(server.http("POST", "/api/test/store?fail=0").first, 200);
    const Json reply = a.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == g && j.value("kind", "") == "action" &&
               j["side"] == "2";
    });
    EXPECT_EQ(reply["v"], v + 2);
}

TEST(Exceptions, AConnectionThatThrowsIsClosedAndNobodyElseNotices) {
    ServerProcess server(dbPath("throwconn"));
    Player a(server.port()), b(server.port()), c(server.port());
    const std::string g = startGame(a, b);
    ASSERT_EQ(server.http("POST", "/api/test/throw?in=connection").first, 200);
    c.ws().send(Json{{"type", "ping"}, {"id", 1}});
    EXPECT_EQ(c.ws().closeCode(), 1011);  // waits for the close
    EXPECT_TRUE(c.ws().isClosed());
    playOne(a, b, g, a.game(g).legal[0]);
    playOne(a, b, g, b.game(g).legal[0]);
    Player d(server.port());  // new connections are served
    EXPECT_EQ(d.request({{"type", "create"}, {"opponent", "open"}})["type"], "ack");
    EXPECT_NE(server.http("GET", "/metrics").second.find("rainet_connections_failed_total 1"),
              std::string::npos);
}

TEST(Exceptions, AGameThatThrowsFailsAloneAndIsReloadedFromTheStore) {
    ServerProcess server(dbPath("throwgame"));
    Player a(server.port()), b(server.port()), c(server.port()), d(server.port());
    const std::string g1 = startGame(a, b), g2 = startGame(c, d);
    playOne(a, b, g1, a.game(g1).legal[0]);
    // The game as b sees it, presence aside (who follows it changes when it fails).
    auto state = [&] {
        Json j = snapshotOf(b, g1);
        j.erase("players");
        return j;
    };
    const Json before = state();

    ASSERT_EQ(server.http("POST", "/api/test/throw?in=game").first, 200);
    const std::string legal = b.game(g1).legal[0];
    Json r = b.request({{"type", "act"}, {"game", g1}, {"action", legal}});
    EXPECT_EQ(r["code"], "internal");
    // The other player of that game is told which game failed.
    Json told = a.take([&](const Json& j) { return j["type"] == "error" && j["game"] == g1; });
    EXPECT_EQ(told["code"], "internal");
    // The other game goes on.
    playOne(c, d, g2, c.game(g2).legal[0]);
    // Followed again, the game is rebuilt from the store as it was, and plays on.
    EXPECT_EQ(state(), before);
    snapshotOf(a, g1);
    playOne(a, b, g1, legal);
    EXPECT_NE(server.http("GET", "/metrics").second.find("rainet_games_failed_total 1"),
              std::string::npos);
}

TEST(Exceptions, ABotSearchThatThrowsFailsOnlyItsGame) {
    ServerProcess server(dbPath("throwbot"));
    Player a(server.port()), b(server.port()), c(server.port());
    const std::string other = startGame(b, c);
    Json ack = a.request({{"type", "create"}, {"opponent", "computer"}, {"side", "1"}});
    const std::string g = ack["game"];
    a.take([&](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    ASSERT_EQ(server.http("POST", "/api/test/throw?in=bot").first, 200);
    const long v = a.game(g).v;
    EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", a.game(g).legal[0]}})["type"],
              "ack");
    Json told = a.take([&](const Json& j) { return j["type"] == "error" && j["game"] == g; });
    EXPECT_EQ(told["code"], "internal");
    playOne(b, c, other, b.game(other).legal[0]);
    // Followed again: rebuilt from the store, the computer thinks again and moves.
    snapshotOf(a, g);
    a.waitVersion(g, v + 2);
    EXPECT_EQ(a.game(g).v, v + 2);
}

TEST(Exceptions, AnHttpRequestThatThrowsIsAnswered500) {
    ServerProcess server(dbPath("throwhttp"));
    ASSERT_EQ(server.http("POST", "/api/test/throw?in=http").first, 200);
    EXPECT_EQ(server.http("GET", "/api/leaderboard"),
              (std::pair<int, std::string>{500, R"({"error":"internal"})"}));
    EXPECT_EQ(server.http("GET", "/healthz").first, 200);
}

// The store's reads run on its reader threads, never on a network thread: listings made slow on
// demand (test mode: POST /api/test/store?delay_reads=MS), more of them than there are network
// threads, hold no game up, nor does a hello waiting for its read. Synced on events: the reads are
// seen held in the delay, a game's action is acknowledged and broadcast, and only then are the
// listings released and answered.
TEST(StoreDelay, ASlowArchiveListingStallsNoGame) {
    ServerProcess server(dbPath("slowread"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    ASSERT_EQ(server.http("POST", "/api/test/store?delay_reads=600000").first, 200);
    std::vector<std::future<std::pair<int, std::string>>> listings;
    for (int i = 0; i < 3; ++i)  // the server under test has 2 network threads
        listings.push_back(std::async(
            std::launch::async, [&] { return server.http("GET", "/api/games?status=playing"); }));
    // Held: as many as there are reader threads (the others wait for one).
    while (Json::parse(server.http("GET", "/api/test/store").second)["reads_delayed"] < 2)
        std::this_thread::yield();
    // A hello (its player is read from the store) waits for the reads too, on no network thread.
    WsClient c(server.port());
    c.send(Json{{"type", "hello"}, {"id", 1}, {"token", a.token()}});
    playOne(a, b, g, a.game(g).legal[0]);
    playOne(a, b, g, b.game(g).legal[0]);
    for (auto& f : listings)
        EXPECT_EQ(f.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
    EXPECT_TRUE(c.log().empty());  // not answered while the reads are held
    ASSERT_EQ(server.http("POST", "/api/test/store?delay_reads=0").first, 200);
    EXPECT_EQ(c.waitType("welcome")["player"]["id"], a.id());
    for (auto& f : listings) {
        auto [status, body] = f.get();
        EXPECT_EQ(status, 200);
        EXPECT_NE(body.find(g), std::string::npos);
    }
}

}  // namespace
}  // namespace rainet::test
