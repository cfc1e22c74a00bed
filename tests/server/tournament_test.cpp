// Arenas over the protocol: create, join, watch, the start and pairings at the stored time, a
// result scored and the players paired again, pause and withdrawal, berserk, the end and the
// podium, a restart in mid-arena; and each bad input of docs/protocol.md with its code.
#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <set>

#include "players.h"

namespace rainet::test {
namespace {

bool isTournament(const Json& j) {
    return j["type"] == "tournament";
}

// A new account (arenas are created by accounts).
void becomeAccount(Player& p, const std::string& username) {
    Json ack =
        p.request({{"type", "register"}, {"username", username}, {"password", "correct horse"}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
}

Json arenaCreate(int startsIn = 60, int minutes = 10) {
    return {{"type", "tournament_create"},
            {"name", "Test arena"},
            {"clock", {{"initial", 18000}, {"increment", 200}}},
            {"startsIn", startsIn},
            {"minutes", minutes}};
}

std::string createArena(Player& creator, Json m = arenaCreate()) {
    Json ack = creator.request(m);
    EXPECT_EQ(ack["type"], "ack") << ack.dump();
    return ack.value("tournament", "");
}

Json joinArena(Player& p, const std::string& t) {
    return p.request({{"type", "tournament_join"}, {"tournament", t}});
}

// The next `matched` a player receives, and the game watched.
std::string takeMatched(Player& p) {
    Json m = p.take([](const Json& j) { return j["type"] == "matched"; });
    const std::string g = m["game"];
    p.ws().send(Json{{"type", "watch"}, {"game", g}});
    p.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
    return g;
}

// The standings entry of player `id` in a tournament message.
Json standingOf(const Json& t, const std::string& id) {
    for (const Json& e : t["standings"])
        if (e["player"]["id"] == id) return e;
    return nullptr;
}

TEST(Tournament, AnArenaRunsFromKickoffToPodium) {
    ServerProcess server(dbPath("arena"));
    Player a(server.port()), b(server.port()), c(server.port()), d(server.port());
    Player watcher(server.port());
    becomeAccount(a, "arena_host");
    const std::string t = createArena(a);
    ASSERT_FALSE(t.empty());
    EXPECT_EQ(t[0], 't');
    watcher.ws().send(Json{{"type", "tournament_watch"}, {"tournament", t}});
    Json state = watcher.take(isTournament);
    EXPECT_EQ(state["tournament"]["status"], "created");
    EXPECT_EQ(state["tournament"]["clock"], (Json{{"initial", 18000}, {"increment", 200}}));
    EXPECT_EQ(state["tournament"]["endsAt"].get<std::int64_t>() -
                  state["tournament"]["startsAt"].get<std::int64_t>(),
              600'000);
    std::map<std::string, Player*> byId;
    for (Player* p : {&a, &b, &c, &d}) {
        ASSERT_EQ(joinArena(*p, t)["type"], "ack");
        byId[p->id()] = p;
    }
    state =
        watcher.take([](const Json& j) { return isTournament(j) && j["standings"].size() == 4; });
    EXPECT_EQ(state["tournament"]["players"], 4);

    // Nobody is paired before the start; at the start everyone is.
    server.advance(6000);
    std::map<std::string, std::string> gameOf;
    for (Player* p : {&a, &b, &c, &d}) gameOf[p->id()] = takeMatched(*p);
    state = watcher.take(
        [](const Json& j) { return isTournament(j) && j["tournament"]["status"] == "running"; });
    std::set<std::string> games;
    for (const auto& [id, g] : gameOf) games.insert(g);
    ASSERT_EQ(games.size(), 2u);

    // a's game: a's opponent resigns; a scores 2 and both are paired again (nobody else is
    // free, so with each other).
    const std::string g1 = gameOf[a.id()];
    Player* opp = nullptr;
    for (const auto& [id, g] : gameOf)
        if (g == g1 && id != a.id()) opp = byId[id];
    ASSERT_NE(opp, nullptr);
    ASSERT_EQ(opp->request({{"type", "resign"}, {"game", g1}})["type"], "ack");
    const std::string again = takeMatched(a);
    EXPECT_NE(again, g1);
    EXPECT_EQ(takeMatched(*opp), again);
    state = watcher.take(
        [&](const Json& j) { return isTournament(j) && standingOf(j, a.id())["points"] == 2; });
    EXPECT_EQ(state["standings"][0]["player"]["id"], a.id());
    EXPECT_EQ(standingOf(state, a.id())["sheet"], Json::array({2}));
    EXPECT_EQ(standingOf(state, opp->id())["points"], 0);

    // The game names its tournament to a spectator; nobody has berserked yet.
    watcher.ws().send(Json{{"type", "watch"}, {"game", again}});
    Json seen = watcher.take([&](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(seen["tournament"], (Json{{"id", t}, {"name", "Test arena"}})) << seen.dump();
    EXPECT_EQ(seen["berserk"], Json::array());
    // Berserk in the new game: once, then refused. The opponent and the spectator are told.
    EXPECT_EQ(a.request({{"type", "berserk"}, {"game", again}})["type"], "ack");
    const std::string aSide = seen["players"]["1"]["id"] == a.id() ? "1" : "2";
    for (Player* p : {opp, &watcher}) {
        Json told = p->take([&](const Json& j) { return j["type"] == "berserk"; });
        EXPECT_EQ(told["game"], again);
        EXPECT_EQ(told["side"], aSide);
    }
    Json twice = a.request({{"type", "berserk"}, {"game", again}});
    EXPECT_EQ(twice["code"], "berserk_refused") << twice.dump();
    // Joining twice is refused.
    EXPECT_EQ(joinArena(b, t)["code"], "already_joined");

    // A withdrawn player is never paired again and cannot come back; the game in play counts.
    Player* other1 = nullptr;
    Player* other2 = nullptr;
    for (const auto& [id, g] : gameOf)
        if (g != g1) (other1 ? other2 : other1) = byId[id];
    ASSERT_EQ(other1->request({{"type", "tournament_withdraw"}, {"tournament", t}})["type"], "ack");
    Json back = joinArena(*other1, t);
    EXPECT_EQ(back["code"], "withdrawn") << back.dump();
    // other1's game goes on and counts: other1 resigns it.
    ASSERT_EQ(other1->request({{"type", "resign"}, {"game", gameOf[other1->id()]}})["type"], "ack");
    state = watcher.take([&](const Json& j) {
        return isTournament(j) && standingOf(j, other2->id())["points"] == 2;
    });
    EXPECT_EQ(standingOf(state, other1->id())["state"], "withdrawn");
    EXPECT_TRUE(standingOf(state, other2->id())["game"].is_null());  // nobody free to play

    // The end: no pairing after it; the game in play finishes and counts; then the podium.
    server.advance(60000);
    EXPECT_EQ(joinArena(watcher, t)["code"], "tournament_over");
    ASSERT_EQ(opp->request({{"type", "resign"}, {"game", again}})["type"], "ack");
    state = watcher.take(
        [](const Json& j) { return isTournament(j) && j["tournament"]["status"] == "finished"; });
    // a: two wins (the second berserked, but with no action: no bonus), started before the end.
    EXPECT_EQ(state["standings"][0]["player"]["id"], a.id());
    EXPECT_EQ(state["standings"][0]["points"], 4);
    EXPECT_EQ(state["standings"][0]["sheet"], Json::array({2, 2}));
    EXPECT_EQ(state["standings"][0]["berserks"], 1);
    EXPECT_EQ(state["standings"][0]["rank"], 1);
    EXPECT_EQ(state["standings"][1]["points"], 2);  // other2
    // The list shows it finished.
    a.ws().send(Json{{"type", "tournaments"}, {"id", "L"}});
    Json list = a.take([](const Json& j) { return j["type"] == "tournaments"; });
    ASSERT_EQ(list["tournaments"].size(), 1u);
    EXPECT_EQ(list["tournaments"][0]["status"], "finished");
    EXPECT_EQ(list["tournaments"][0]["players"], 4);
}

TEST(Tournament, ARestartInMidArenaKeepsThePointsAndGoesOn) {
    ServerProcess server(dbPath("arena_restart"));
    std::string t, tokenA, tokenB, game;
    {
        Player a(server.port()), b(server.port());
        becomeAccount(a, "arena_restart");
        t = createArena(a, arenaCreate(0, 30));
        ASSERT_EQ(joinArena(a, t)["type"], "ack");
        ASSERT_EQ(joinArena(b, t)["type"], "ack");
        server.advance(1);
        const std::string g = takeMatched(a);
        EXPECT_EQ(takeMatched(b), g);
        ASSERT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
        game = takeMatched(a);  // paired again at once
        EXPECT_EQ(takeMatched(b), game);
        ASSERT_EQ(a.request({{"type", "berserk"}, {"game", game}})["type"], "ack");
        tokenA = a.token();
        tokenB = b.token();
        server.kill(SIGKILL);
    }
    server.start();
    Player a(server.port(), tokenA), b(server.port(), tokenB), w(server.port());
    w.ws().send(Json{{"type", "tournament_watch"}, {"tournament", t}});
    Json state = w.take(isTournament);
    EXPECT_EQ(state["tournament"]["status"], "running");
    EXPECT_EQ(standingOf(state, a.id())["points"], 2);
    EXPECT_EQ(standingOf(state, a.id())["game"], game);
    // The game in play resumes, a's berserk kept: half a clock when play starts.
    a.ws().send(Json{{"type", "watch"}, {"game", game}});
    const Json snap =
        a.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == game; });
    const std::string aSide = snap["players"]["1"]["id"] == a.id() ? "1" : "2";
    const std::string bSide = aSide == "1" ? "2" : "1";
    // Reloaded, the game still names its tournament and a's berserk.
    EXPECT_EQ(snap["tournament"]["id"], t);
    EXPECT_EQ(snap["berserk"], Json::array({aSide}));
    for (Player* p : {&a, &b})
        ASSERT_EQ(p->request({{"type", "setup"}, {"game", game}, {"random", true}})["type"], "ack");
    const Json start = a.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == game && j["kind"] == "start";
    });
    EXPECT_EQ(start["clocks"][aSide], 9000) << start.dump();
    EXPECT_EQ(start["clocks"][bSide], 18000) << start.dump();
    // Its result counts: a on a streak of two.
    ASSERT_EQ(b.request({{"type", "resign"}, {"game", game}})["type"], "ack");
    state = w.take(
        [&](const Json& j) { return isTournament(j) && standingOf(j, a.id())["points"] == 4; });
    EXPECT_TRUE(standingOf(state, a.id())["fire"].get<bool>());
}

bool isNotification(const Json& j, const std::string& kind) {
    return j["type"] == "notification" && j["n"]["kind"] == kind;
}

// A notification of `kind` received already (perhaps passed over while waiting for another
// message: it comes through the store's writer, in no set order with the rest), or the next.
Json notification(Player& p, const std::string& kind) {
    for (const std::string& text : p.ws().log()) {
        Json j = Json::parse(text, nullptr, false);
        if (!j.is_discarded() && isNotification(j, kind)) return j;
    }
    return p.take([&](const Json& j) { return isNotification(j, kind); });
}

TEST(Tournament, ItsPlayersAreNotifiedOfTheStartAndOfTheirRankAtTheEnd) {
    ServerProcess server(dbPath("arena_notify"));
    Player a(server.port()), b(server.port()), c(server.port());
    becomeAccount(a, "arena_notify");
    const std::string t = createArena(a);
    for (Player* p : {&a, &b, &c}) ASSERT_EQ(joinArena(*p, t)["type"], "ack");
    // c withdraws before the start: told of nothing.
    ASSERT_EQ(c.request({{"type", "tournament_withdraw"}, {"tournament", t}})["type"], "ack");
    server.advance(6000);
    const std::string g = takeMatched(a);
    EXPECT_EQ(takeMatched(b), g);
    for (Player* p : {&a, &b}) {
        Json n = notification(*p, "tournament_starting");
        EXPECT_EQ(n["n"]["data"]["tournament"], t);
        EXPECT_EQ(n["n"]["data"]["name"], "Test arena");
        EXPECT_GT(n["n"]["data"]["startsAt"].get<std::int64_t>(), 0);
    }
    ASSERT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    // Paired again; that game goes on past the end and is resigned by a.
    const std::string g2 = takeMatched(a);
    EXPECT_EQ(takeMatched(b), g2);
    server.advance(60000);
    ASSERT_EQ(a.request({{"type", "resign"}, {"game", g2}})["type"], "ack");
    Json na = notification(a, "tournament_ended");
    Json nb = notification(b, "tournament_ended");
    EXPECT_EQ(na["n"]["data"]["tournament"], t);
    EXPECT_EQ(na["n"]["data"]["name"], "Test arena");
    // One win each: 2 points each, the tie broken by performance; ranks 1 and 2.
    std::set<int> ranks{na["n"]["data"]["rank"].get<int>(), nb["n"]["data"]["rank"].get<int>()};
    EXPECT_EQ(ranks, (std::set<int>{1, 2}));
    // Stored: c's inbox holds nothing of it; a's holds both.
    c.ws().send(Json{{"type", "notifications"}, {"id", "I"}});
    Json none = c.take([](const Json& j) { return j["type"] == "notifications"; });
    EXPECT_TRUE(none["items"].empty()) << none.dump();
    a.ws().send(Json{{"type", "notifications"}, {"id", "I"}});
    Json both = a.take([](const Json& j) { return j["type"] == "notifications"; });
    ASSERT_EQ(both["items"].size(), 2u) << both.dump();
    EXPECT_EQ(both["items"][0]["kind"], "tournament_ended");
    EXPECT_EQ(both["items"][1]["kind"], "tournament_starting");
}

TEST(Tournament, TheOperatorsScheduleMakesTheNextArenaOnce) {
    ServerProcess server(dbPath("arena_schedule"), {"--arena-schedule", "3+2@60/30"});
    Player a(server.port());
    server.advance(1);  // the scheduler runs
    server.advance(1);  // and again: still one arena for the slot
    a.ws().send(Json{{"type", "tournaments"}});
    Json list = a.take([](const Json& j) { return j["type"] == "tournaments"; });
    ASSERT_EQ(list["tournaments"].size(), 1u) << list.dump();
    const Json& t = list["tournaments"][0];
    EXPECT_EQ(t["name"], "Hourly 3+2 arena");
    EXPECT_EQ(t["status"], "created");
    EXPECT_EQ(t["clock"], (Json{{"initial", 18000}, {"increment", 200}}));
    EXPECT_EQ(t["startsAt"].get<std::int64_t>() % 3'600'000, 0);
    EXPECT_EQ(t["endsAt"].get<std::int64_t>() - t["startsAt"].get<std::int64_t>(), 1'800'000);
    // Anyone joins it.
    EXPECT_EQ(joinArena(a, t["id"])["type"], "ack");
}

TEST(Tournament, BadInputIsRefusedAndChangesNothing) {
    ServerProcess server(dbPath("arena_bad"));
    Player a(server.port()), g(server.port());
    // Guests create no tournament.
    Json guest = g.request(arenaCreate());
    EXPECT_EQ(guest["code"], "not_authenticated") << guest.dump();
    becomeAccount(a, "arena_bad");
    // Clocks and lengths out of range, untimed, a bad name.
    for (Json clock :
         {Json{{"initial", 2999}, {"increment", 0}}, Json{{"initial", 360001}, {"increment", 0}},
          Json{{"initial", 18000}, {"increment", 6001}}, Json(nullptr)}) {
        Json m = arenaCreate();
        m["clock"] = clock;
        EXPECT_EQ(a.request(m)["code"], "bad_message") << clock.dump();
    }
    Json shortArena = arenaCreate(60, 4);
    EXPECT_EQ(a.request(shortArena)["code"], "bad_message");
    Json noName = arenaCreate();
    noName["name"] = "";
    EXPECT_EQ(a.request(noName)["code"], "bad_message");
    Json late = arenaCreate(8 * 24 * 3600);
    EXPECT_EQ(a.request(late)["code"], "bad_message");
    // Nothing was created.
    a.ws().send(Json{{"type", "tournaments"}, {"id", "L"}});
    Json list = a.take([](const Json& j) { return j["type"] == "tournaments"; });
    EXPECT_TRUE(list["tournaments"].empty());
    // Unknown tournaments; leaving one never joined.
    EXPECT_EQ(joinArena(g, "tNOPE")["code"], "unknown_tournament");
    const std::string t = createArena(a);
    EXPECT_EQ(g.request({{"type", "tournament_pause"}, {"tournament", t}})["code"], "not_joined");
    EXPECT_EQ(g.request({{"type", "tournament_withdraw"}, {"tournament", t}})["code"],
              "not_joined");
    EXPECT_EQ(g.request({{"type", "tournament_join"}})["code"], "bad_message");
    // Berserk in a game of no tournament.
    Player h(server.port());
    const std::string plain = startGame(g, h);
    EXPECT_EQ(g.request({{"type", "berserk"}, {"game", plain}})["code"], "bad_message");
    // A per-account limit: three tournaments not yet finished.
    EXPECT_EQ(a.request(arenaCreate())["type"], "ack");
    EXPECT_EQ(a.request(arenaCreate())["type"], "ack");
    EXPECT_EQ(a.request(arenaCreate())["code"], "too_many_tournaments");
}

}  // namespace
}  // namespace rainet::test
