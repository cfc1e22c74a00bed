// Complete games between two clients over a real server, to every ending, with a spectator.
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

TEST(Http, HealthMetricsArchiveAndClientRoutes) {
    ServerProcess server(dbPath("http"));
    EXPECT_EQ(server.http("GET", "/healthz"), (std::pair<int, std::string>{200, "ok\n"}));
    auto [status, metrics] = server.http("GET", "/metrics");
    EXPECT_EQ(status, 200);
    EXPECT_NE(metrics.find("rainet_games{state=\"playing\"} 0"), std::string::npos);
    EXPECT_EQ(server.http("GET", "/api/games/nope").first, 404);
    EXPECT_EQ(server.http("GET", "/api/games?status=bogus").first, 400);
    EXPECT_EQ(server.http("GET", "/../etc/passwd").first, 404);  // as any missing file
    // No web client in the test tree: client routes fall back to index.html, which is missing.
    EXPECT_EQ(server.http("GET", "/game/g1").first, 404);
    EXPECT_EQ(server.http("GET", "/api/games?status=active").second,
              R"({"games":[],"per_page":20,"next":null})");
}

TEST(Lifecycle, RandomGamesEndByTheRulesWithSpectatorFollowing) {
    ServerProcess server(dbPath("rules"));
    Player a(server.port()), b(server.port()), spectator(server.port());
    std::mt19937 rng(7);
    std::map<std::string, int> reasons;
    for (int game = 0; game < 3; ++game) {
        const std::string g = startGame(a, b, {{"preset", game == 2 ? "official" : "standard"}});
        spectator.ws().send(Json{{"type", "watch"}, {"game", g}});
        spectator.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
        EXPECT_EQ(spectator.game(g).you, "spectator");
        const int plies = playRandom(a, b, g, rng);
        EXPECT_GT(plies, 0);
        spectator.waitVersion(g, a.game(g).v);
        const Json& end = a.game(g).end;
        ASSERT_TRUE(end.is_object());
        const std::string reason = end["reason"];
        EXPECT_TRUE(reason == "four_links" || reason == "four_viruses" || reason == "no_progress")
            << reason;
        ++reasons[reason];
        EXPECT_EQ(spectator.game(g).end, end);
        EXPECT_EQ(b.game(g).end, end);
        // Spectator views never identify a face-down card: only X/x (and revealed cards, marked !
        // or absent from the board) — checked by comparing with the archive's spectator view.
        auto [status, record] = server.http("GET", "/api/games/" + g);
        EXPECT_EQ(status, 200);
        Json r = Json::parse(record);
        EXPECT_EQ(r["status"], "finished");
        EXPECT_EQ(r["actions"].size(), static_cast<std::size_t>(plies));
        EXPECT_EQ(r["position"], end["position"]);
        // One position per ply, from the setups to the end, as the engine computed them.
        ASSERT_EQ(r["positions"].size(), static_cast<std::size_t>(plies) + 1);
        EXPECT_EQ(r["positions"].back(), end["position"]);
        const std::string first = r["positions"][0];
        EXPECT_EQ(first.substr(first.size() - 15), " 1 CNcn -/- 0 0");
        EXPECT_NE(r["record"].get<std::string>().find("[Setup1 \""), std::string::npos);
        // The record on its own, as a file to download.
        EXPECT_EQ(server.http("GET", "/api/games/" + g + "/record"),
                  (std::pair<int, std::string>{200, r["record"].get<std::string>()}));
    }
    EXPECT_EQ(server.http("GET", "/api/games/gNOPE/record").first, 404);
    auto [status, list] = server.http("GET", "/api/games?player=" + a.id() + "&status=finished");
    EXPECT_EQ(Json::parse(list)["games"].size(), 3u);
    // Two at a time: the cursor of the first page gives the third game, then no more.
    Json first = Json::parse(
        server.http("GET", "/api/games?player=" + a.id() + "&status=finished&per_page=2").second);
    ASSERT_EQ(first["games"].size(), 2u);
    Json rest = Json::parse(server
                                .http("GET", "/api/games?player=" + a.id() +
                                                 "&status=finished&per_page=2&after=" +
                                                 first["next"].get<std::string>())
                                .second);
    ASSERT_EQ(rest["games"].size(), 1u);
    EXPECT_EQ(rest["games"][0], Json::parse(list)["games"][2]);
    EXPECT_TRUE(rest["next"].is_null());
}

TEST(Lifecycle, ResignDrawAbortAndClaim) {
    ServerProcess server(dbPath("endings"));
    Player a(server.port()), b(server.port());
    // Resignation during play.
    {
        const std::string g = startGame(a, b);
        playOne(a, b, g, a.game(g).legal[0]);
        EXPECT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
        a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
        EXPECT_EQ(a.game(g).end["result"], "1-0");
        EXPECT_EQ(a.game(g).end["reason"], "resign");
    }
    // Draw: offer, decline, offer again, accept.
    {
        const std::string g = startGame(a, b);
        EXPECT_EQ(a.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
        EXPECT_EQ(a.request({{"type", "draw_offer"}, {"game", g}})["code"], "no_draw_offer");
        EXPECT_EQ(a.request({{"type", "draw_accept"}, {"game", g}})["code"], "no_draw_offer");
        EXPECT_EQ(b.request({{"type", "draw_decline"}, {"game", g}})["type"], "ack");
        EXPECT_EQ(b.request({{"type", "draw_accept"}, {"game", g}})["code"], "no_draw_offer");
        EXPECT_EQ(b.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
        EXPECT_EQ(a.request({{"type", "draw_accept"}, {"game", g}})["type"], "ack");
        b.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
        EXPECT_EQ(b.game(g).end["result"], "1/2-1/2");
        EXPECT_EQ(b.game(g).end["reason"], "agreement");
    }
    // Abort before both sides moved; not after.
    {
        const std::string g = startGame(a, b);
        playOne(a, b, g, a.game(g).legal[0]);
        EXPECT_EQ(b.request({{"type", "abort"}, {"game", g}})["type"], "ack");
        a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
        EXPECT_EQ(a.game(g).end["reason"], "aborted");
        EXPECT_TRUE(a.game(g).end["result"].is_null());
        EXPECT_EQ(a.game(g).status, "aborted");
        const std::string g2 = startGame(a, b);
        playOne(a, b, g2, a.game(g2).legal[0]);
        playOne(a, b, g2, b.game(g2).legal[0]);
        EXPECT_EQ(a.request({{"type", "abort"}, {"game", g2}})["code"], "cannot_abort");
        EXPECT_EQ(a.request({{"type", "resign"}, {"game", g2}})["type"], "ack");
    }
    // Claim after the opponent has been gone longer than the grace period (60 s by default).
    {
        const std::string g = startGame(a, b);
        EXPECT_EQ(a.request({{"type", "claim_win"}, {"game", g}})["code"], "cannot_claim");
        b.disconnect();
        a.take([&](const Json& j) { return j["type"] == "presence" && j["connected"] == false; });
        server.advance(5000);
        EXPECT_EQ(a.request({{"type", "claim_win"}, {"game", g}})["code"], "cannot_claim");
        // Snapshots say how long the seat has been empty, for the claimant's countdown.
        a.ws().send(Json{{"type", "watch"}, {"game", g}});
        Json snap = a.take([&](const Json& j) { return j["type"] == "snapshot"; });
        EXPECT_EQ(snap["players"]["2"]["away"], 5000);
        EXPECT_FALSE(snap["players"]["1"].contains("away"));
        server.advance(1000);
        EXPECT_EQ(a.request({{"type", "claim_win"}, {"game", g}})["type"], "ack");
        a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
        EXPECT_EQ(a.game(g).end["reason"], "abandoned");
        EXPECT_EQ(a.game(g).end["winner"], "1");
    }
    // Regression: the creator's connection follows its game from `create` on, so its closing
    // counts as leaving (it did not, and the creator could never be claimed against).
    {
        Player c(server.port()), d(server.port());
        const std::string g = startGame(c, d);
        c.disconnect();
        d.take([&](const Json& j) { return j["type"] == "presence" && j["connected"] == false; });
        server.advance(6000);
        EXPECT_EQ(d.request({{"type", "claim_win"}, {"game", g}})["type"], "ack");
    }
}

TEST(Lifecycle, OpenGameFromTheLobby) {
    ServerProcess server(dbPath("lobby"));
    Player a(server.port()), b(server.port());
    b.ws().send(Json{{"type", "lobby_subscribe"}});
    Json empty = b.take([](const Json& j) { return j["type"] == "lobby"; });
    EXPECT_TRUE(empty["games"].empty());
    Json ack = a.request({{"type", "create"}, {"opponent", "open"}, {"side", "random"}});
    const std::string g = ack["game"];
    Json listed = b.take([](const Json& j) { return j["type"] == "lobby"; });
    ASSERT_EQ(listed["games"].size(), 1u);
    EXPECT_EQ(listed["games"][0]["game"], g);
    EXPECT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    // The joined game left the lobby (that message came before the join's ack).
    Json last;
    for (const auto& m : b.ws().log())
        if (Json j = Json::parse(m); j["type"] == "lobby") last = j;
    EXPECT_TRUE(last["games"].empty()) << last.dump();
    Player c(server.port());
    EXPECT_EQ(c.request({{"type", "join"}, {"game", g}})["code"], "wrong_status");
}

TEST(Lifecycle, OpenGamesAreListedAgainAfterARestart) {
    ServerProcess server(dbPath("lobbyrestart"));
    std::string g, token;
    {
        Player a(server.port());
        g = a.request({{"type", "create"}, {"opponent", "open"}, {"side", "2"}})["game"];
        token = a.token();
        server.kill(SIGKILL);
    }
    server.start();
    Player b(server.port());
    b.ws().send(Json{{"type", "lobby_subscribe"}});
    Json listed = b.take([](const Json& j) { return j["type"] == "lobby"; });
    ASSERT_EQ(listed["games"].size(), 1u);
    EXPECT_EQ(listed["games"][0]["game"], g);
    EXPECT_EQ(listed["games"][0]["side"], "2");
    EXPECT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    b.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(b.game(g).you, "1");
}

TEST(Lifecycle, GamesAgainstTheComputer) {
    ServerProcess server(dbPath("computer"));
    Player a(server.port());
    std::mt19937 rng(3);
    for (const char* side : {"1", "2"}) {
        Json ack = a.request({{"type", "create"},
                              {"opponent", "computer"},
                              {"level", 2},
                              {"side", side},
                              {"clock", {{"initial", 30000}, {"increment", 100}}}});
        ASSERT_EQ(ack["type"], "ack");
        const std::string g = ack["game"];
        EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
        a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
        int plies = 0;
        while (a.game(g).status == "playing" && plies < 3000) {
            if (!a.game(g).legal.empty()) {
                auto& legal = a.game(g).legal;
                const std::string act = legal[rng() % legal.size()];
                EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", act}})["type"],
                          "ack");
            }
            const long v = a.game(g).v;
            a.waitVersion(g, v + 1);
            ++plies;
        }
        EXPECT_TRUE(a.game(g).end.is_object());
        EXPECT_NE(a.game(g).end["reason"], "time");
    }
}

}  // namespace
}  // namespace rainet::test
