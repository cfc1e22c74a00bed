// Nothing lives forever (docs/protocol.md §9): games nobody attends expire by the manual clock,
// ended by the rules the protocol has (aborted, or `abandoned` with the waiting side losing), and
// leave the lobby, the players' lists and memory; bots and create ids are bounded.
#include <gtest/gtest.h>

#include <csignal>
#include <set>

#include "players.h"

namespace rainet::test {
namespace {

// Waits until a series of GET /metrics has `value` (a room leaves memory on its strand, after the
// reply that caused it); false after 10 s.
bool awaitMetric(ServerProcess& server, const std::string& series, long value) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (metric(server, series) != value)
        if (std::chrono::steady_clock::now() > deadline) return false;
    return true;
}

// Until `p` hears that side `side` of each game has no connection left (the server saw it go).
void awaitGone(Player& p, std::set<std::string> games, const std::string& side) {
    p.take([&](const Json& j) {
        if (j["type"] == "presence" && j["side"] == side && j["connected"] == false)
            games.erase(j["game"].get<std::string>());
        return games.empty();
    });
}

TEST(Expiry, AnOpenGameItsCreatorLeftIsAbortedAndLeavesTheLobby) {
    ServerProcess server(dbPath("expire_open"), {"--expire-open", "600"});
    Player a(server.port()), watcher(server.port());
    watcher.ws().send(Json{{"type", "lobby_subscribe"}});
    watcher.take([](const Json& j) { return j["type"] == "lobby"; });
    Json ack = a.request({{"type", "create"}, {"opponent", "open"}, {"side", "1"}});
    ASSERT_EQ(ack["type"], "ack");
    const std::string g = ack["game"];
    watcher.take([&](const Json& j) { return j["type"] == "lobby" && j["games"].size() == 1; });
    // While the creator is connected the game waits however long it takes.
    server.advance(100000);
    EXPECT_EQ(snapshotOf(watcher, g)["status"], "open");
    a.disconnect();
    awaitGone(watcher, {g}, "1");
    server.advance(59900);  // 599 s away: not yet (the watch below is handled after the check)
    EXPECT_EQ(snapshotOf(watcher, g)["status"], "open");
    server.advance(200);
    Json end = takeEvent(watcher, g, "end");
    EXPECT_EQ(end["reason"], "aborted");
    EXPECT_TRUE(end["result"].is_null());
    watcher.take([&](const Json& j) { return j["type"] == "lobby" && j["games"].empty(); });
    // Gone from the creator's games and from the active list; stored as aborted.
    Player back(server.port(), a.token());
    EXPECT_TRUE(back.welcome()["games"].empty());
    EXPECT_TRUE(
        Json::parse(server.http("GET", "/api/games?status=active").second)["games"].empty());
    EXPECT_EQ(Json::parse(server.http("GET", "/api/games/" + g).second)["status"], "aborted");
    EXPECT_EQ(metric(server, "rainet_games_expired_total"), 1);
    // Nobody follows it any more: no longer in memory.
    watcher.ws().send(Json{{"type", "leave"}, {"game", g}});
    EXPECT_TRUE(awaitMetric(server, "rainet_games{state=\"aborted\"}", 0));
    EXPECT_EQ(metric(server, "rainet_games{state=\"open\"}"), 0);
}

TEST(Expiry, AGameStuckInSetupIsAbortedEvenWithThePlayersConnected) {
    ServerProcess server(dbPath("expire_setup"), {"--expire-setup", "600"});
    Player a(server.port()), b(server.port());
    const std::string g = createAndJoin(a, b);
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    server.advance(59900);
    EXPECT_EQ(snapshotOf(a, g)["status"], "setup");
    server.advance(200);
    EXPECT_EQ(takeEvent(a, g, "end")["reason"], "aborted");
    EXPECT_EQ(takeEvent(b, g, "end")["reason"], "aborted");
    // A finished or aborted game never expires again: a later check changes nothing.
    server.advance(100000);
    EXPECT_EQ(snapshotOf(a, g)["status"], "aborted");
}

TEST(Expiry, AGameInPlayBothPlayersLeftIsLostByTheSideToMove) {
    ServerProcess server(dbPath("expire_play"), {"--expire-abandoned", "3600"});
    Player a(server.port()), b(server.port()), spectator(server.port());
    // One action only: aborted (abort is still allowed then).
    const std::string early = startGame(a, b);
    playOne(a, b, early, a.game(early).legal[0]);
    // Two actions: side 1 is to move again, and loses.
    const std::string late = startGame(a, b);
    playOne(a, b, late, a.game(late).legal[0]);
    playOne(a, b, late, b.game(late).legal[0]);
    for (const auto& g : {early, late}) snapshotOf(spectator, g);
    a.disconnect();
    awaitGone(spectator, {early, late}, "1");
    server.advance(100000);
    // One player is still there (and may claim the win): nothing expires.
    EXPECT_EQ(snapshotOf(spectator, late)["status"], "playing");
    b.disconnect();
    awaitGone(spectator, {early, late}, "2");
    server.advance(359900);
    EXPECT_EQ(snapshotOf(spectator, late)["status"], "playing");
    server.advance(200);
    std::map<std::string, Json> ends;  // the two rooms end in either order
    spectator.take([&](const Json& j) {
        if (j["type"] == "event" && j.value("kind", "") == "end") ends[j["game"]] = j;
        return ends.size() == 2;
    });
    EXPECT_EQ(ends[early]["reason"], "aborted");
    EXPECT_EQ(ends[late]["reason"], "abandoned");
    EXPECT_EQ(ends[late]["winner"], "2");
    EXPECT_EQ(ends[late]["result"], "0-1");
}

TEST(Expiry, AGameAgainstTheComputerItsPlayerLeftIsLostByThePlayer) {
    ServerProcess server(dbPath("expire_computer"), {"--expire-computer", "600"});
    Player a(server.port()), spectator(server.port());
    Json ack =
        a.request({{"type", "create"}, {"opponent", "computer"}, {"level", 1}, {"side", "2"}});
    ASSERT_EQ(ack["type"], "ack");
    const std::string g = ack["game"];
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    // The computer (side 1) moves first; then the player, then the computer again.
    a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "action"; });
    ASSERT_FALSE(a.game(g).legal.empty());
    EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", a.game(g).legal[0]}})["type"],
              "ack");
    a.take([&](const Json& j) {
        return j["type"] == "event" && j["kind"] == "action" && j["ply"] == 2;
    });
    snapshotOf(spectator, g);
    a.disconnect();
    awaitGone(spectator, {g}, "2");
    server.advance(59900);
    EXPECT_EQ(snapshotOf(spectator, g)["status"], "playing");
    server.advance(200);
    Json end = takeEvent(spectator, g, "end");
    EXPECT_EQ(end["reason"], "abandoned");
    EXPECT_EQ(end["winner"], "1");
}

TEST(Expiry, CountsFromTheRestartForGamesLoadedAgain) {
    const std::string db = dbPath("expire_restart");
    ServerProcess server(db, {"--expire-open", "600"});
    std::string g;
    {
        Player a(server.port());
        g = a.request({{"type", "create"}, {"opponent", "open"}})["game"];
    }
    server.advance(50000);
    server.kill(SIGKILL);
    server.start();
    Player watcher(server.port());
    EXPECT_EQ(snapshotOf(watcher, g)["status"], "open");  // the downtime and before: not counted
    server.advance(59900);
    EXPECT_EQ(snapshotOf(watcher, g)["status"], "open");
    server.advance(200);
    EXPECT_EQ(takeEvent(watcher, g, "end")["reason"], "aborted");
}

TEST(Created, TheGameTimesComeFromTheServerClock) {
    ServerProcess server(dbPath("created_clock"));
    Player a(server.port()), b(server.port());
    const std::string first = a.request({{"type", "create"}, {"opponent", "invite"}})["game"];
    server.advance(8640000);  // one day
    const std::string second = startGame(a, b);
    auto record = [&](const std::string& g) {
        return Json::parse(server.http("GET", "/api/games/" + g).second);
    };
    // ISO times to the second: exactly a day apart (the manual clock moves only when told).
    const std::string c1 = record(first)["created"], c2 = record(second)["created"];
    EXPECT_EQ(c1.substr(0, 10) == c2.substr(0, 10), false) << c1 << " " << c2;
    EXPECT_EQ(c1.substr(10), c2.substr(10)) << c1 << " " << c2;
}

TEST(Created, RepeatedCreateIdsAreRememberedForTheLastSixteen) {
    ServerProcess server(dbPath("created_bound"), {"--rate", "1000"});
    Player a(server.port());
    std::vector<std::string> games;
    for (int id = 1; id <= 20; ++id) {
        Json ack = a.requestWithId({{"type", "create"}, {"id", id}, {"opponent", "invite"}});
        ASSERT_EQ(ack["type"], "ack");
        games.push_back(ack["game"]);
    }
    EXPECT_EQ(metric(server, "rainet_create_ids"), 16);
    // The last sixteen are answered with their game; older ones are forgotten.
    EXPECT_EQ(a.requestWithId({{"type", "create"}, {"id", 20}, {"opponent", "invite"}})["game"],
              games.back());
    EXPECT_EQ(a.requestWithId({{"type", "create"}, {"id", 5}, {"opponent", "invite"}})["game"],
              games[4]);
    Json again = a.requestWithId({{"type", "create"}, {"id", 1}, {"opponent", "invite"}});
    EXPECT_NE(again["game"], games[0]);
    // After an hour they all go (swept when someone next creates a game).
    server.advance(360100);
    Player b(server.port());
    EXPECT_EQ(b.request({{"type", "create"}, {"opponent", "invite"}})["type"], "ack");
    EXPECT_EQ(metric(server, "rainet_create_ids"), 1);
}

TEST(Bots, SearchMemoryIsHeldPerWorkerThreadNotPerGame) {
    ServerProcess server(dbPath("bots_shared"));
    Player a(server.port());
    for (int game = 0; game < 4; ++game) {
        Json ack =
            a.request({{"type", "create"}, {"opponent", "computer"}, {"level", 3}, {"side", "2"}});
        ASSERT_EQ(ack["type"], "ack");
        const std::string g = ack["game"];
        EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
        a.take([&](const Json& j) {
            return j["type"] == "event" && j["game"] == g && j["kind"] == "action";
        });
    }
    // Four games against level 3 wait for the player: one searching bot (one bot thread).
    EXPECT_EQ(metric(server, "rainet_bots"), 1);
    EXPECT_EQ(metric(server, "rainet_games{state=\"playing\"}"), 4);
}

}  // namespace
}  // namespace rainet::test
