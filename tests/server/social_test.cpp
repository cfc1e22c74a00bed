// Chat (players among players, spectators among spectators, kept for snapshots), the spectator
// count, and matchmaking (seek / unseek pairing compatible players in a new game).
#include <gtest/gtest.h>

#include "players.h"

namespace rainet::test {
namespace {

// Whether `p` has received a chat line of that room of game `g` (synced with the room first).
bool heard(Player& p, const std::string& g, const std::string& channel) {
    p.sync(g);
    for (const auto& m : p.ws().log())
        if (Json j = Json::parse(m); j["type"] == "chat" && j["channel"] == channel) return true;
    return false;
}

TEST(Chat, PlayersAndSpectatorsHaveTheirOwnRooms) {
    ServerProcess server(dbPath("chat"));
    Player a(server.port()), b(server.port()), s(server.port());
    const std::string g = startGame(a, b);
    snapshotOf(s, g);
    // A player's line reaches both players (the sender too), with who said it.
    a.ws().send(Json{{"type", "chat"}, {"game", g}, {"text", "  good luck, have fun  "}});
    for (Player* p : {&a, &b}) {
        Json line = nextChat(*p);
        EXPECT_EQ(line["game"], g);
        EXPECT_EQ(line["channel"], "players");
        EXPECT_EQ(line["side"], "1");
        EXPECT_EQ(line["from"]["id"], a.id());
        EXPECT_EQ(line["text"], "good luck, have fun") << "trimmed";
        EXPECT_TRUE(line["at"].is_number_integer());
    }
    // A spectator's line reaches spectators only; with an id it is acknowledged.
    Json ack = s.request({{"type", "chat"}, {"game", g}, {"text", "d4 looks strong"}});
    EXPECT_EQ(ack["type"], "ack");
    EXPECT_EQ(nextChat(s)["channel"], "spectators");
    EXPECT_FALSE(heard(a, g, "spectators"));
    EXPECT_FALSE(heard(b, g, "spectators"));
    // Snapshots carry each role's room only.
    Player late(server.port());
    Json ss = snapshotOf(late, g);
    ASSERT_EQ(ss["chat"].size(), 1u);
    EXPECT_EQ(ss["chat"][0]["text"], "d4 looks strong");
    Json sa = snapshotOf(a, g);
    ASSERT_EQ(sa["chat"].size(), 1u);
    EXPECT_EQ(sa["chat"][0]["text"], "good luck, have fun");
}

TEST(Spectators, EveryoneIsToldHowManyWatch) {
    ServerProcess server(dbPath("watchers"));
    Player a(server.port()), b(server.port()), s1(server.port()), s2(server.port());
    const std::string g = startGame(a, b);
    EXPECT_EQ(snapshotOf(a, g)["spectators"], 0);
    auto count = [&](Player& p, int n) {
        return p.take([&](const Json& j) {
            return j["type"] == "spectators" && j["game"] == g && j["count"] == n;
        });
    };
    EXPECT_EQ(snapshotOf(s1, g)["spectators"], 1);
    count(a, 1);
    count(b, 1);
    snapshotOf(s2, g);
    count(a, 2);
    s1.disconnect();
    count(a, 1);
    count(s2, 1);
    s2.ws().send(Json{{"type", "leave"}, {"game", g}});
    count(b, 0);
}

TEST(Chat, BadLinesAreRefusedAndNothingIsSent) {
    ServerProcess server(dbPath("chatbad"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    auto code = [&](Json m) {
        m["type"] = "chat";
        m["id"] = 77;
        a.ws().send(m);
        return a.take([](const Json& j) { return j["type"] == "error" || j["type"] == "ack"; })
            .value("code", "ack");
    };
    EXPECT_EQ(code({{"game", g}}), "bad_message");
    EXPECT_EQ(code({{"game", g}, {"text", "   "}}), "bad_message");
    EXPECT_EQ(code({{"game", g}, {"text", "a\u0007b"}}), "bad_message");
    EXPECT_EQ(code({{"game", g}, {"text", std::string(301, 'x')}}), "bad_message");
    EXPECT_EQ(code({{"game", "gNOPE"}, {"text", "hi"}}), "unknown_game");
    EXPECT_EQ(code({{"text", "hi"}}), "bad_message");
    EXPECT_FALSE(heard(b, g, "players"));
    // 300 characters of two bytes each are fine: the limit counts characters.
    std::string accented;
    for (int i = 0; i < 300; ++i) accented += "\xc3\xa9";
    EXPECT_EQ(code({{"game", g}, {"text", accented}}), "ack");
    EXPECT_EQ(nextChat(b)["text"], accented);
}

TEST(Chat, AFloodIsCutShortThenAllowedAgain) {
    ServerProcess server(dbPath("chatflood"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    auto say = [&](const std::string& text) {
        return a.request({{"type", "chat"}, {"game", g}, {"text", text}}).value("code", "ack");
    };
    for (int i = 0; i < 5; ++i) EXPECT_EQ(say("line " + std::to_string(i)), "ack");
    EXPECT_EQ(say("one too many"), "rate_limited");
    server.advance(200);  // two seconds: one more line
    EXPECT_EQ(say("later"), "ack");
    EXPECT_EQ(say("again too soon"), "rate_limited");
    // The opponent saw exactly the lines that were accepted.
    b.sync(g);
    std::vector<std::string> seen;
    for (const auto& m : b.ws().log())
        if (Json j = Json::parse(m); j["type"] == "chat") seen.push_back(j["text"]);
    EXPECT_EQ(seen, (std::vector<std::string>{"line 0", "line 1", "line 2", "line 3", "line 4",
                                              "later"}));
}

TEST(Matchmaking, CompatibleSeeksArePairedInANewGame) {
    ServerProcess server(dbPath("seek"));
    Player a(server.port()), b(server.port()), c(server.port()), watcher(server.port());
    watcher.ws().send(Json{{"type", "lobby_subscribe"}});
    EXPECT_TRUE(watcher.take([](const Json& j) { return j["type"] == "lobby"; })["seeks"].empty());
    const Json blitz{{"initial", 30000}, {"increment", 200}};
    // A waits; the lobby shows one player seeking that kind of game.
    Json ack = a.request({{"type", "seek"}, {"preset", "official"}, {"clock", blitz}});
    EXPECT_EQ(ack["type"], "ack");
    EXPECT_FALSE(ack.contains("game"));
    Json lobby = watcher.take([](const Json& j) { return j["type"] == "lobby"; });
    ASSERT_EQ(lobby["seeks"].size(), 1u);
    EXPECT_EQ(lobby["seeks"][0],
              (Json{{"preset", "official"}, {"clock", blitz}, {"rated", true}, {"players", 1}}));
    // C wants another clock: no pairing. B matches A.
    EXPECT_FALSE(c.request({{"type", "seek"}, {"preset", "official"}}).contains("game"));
    Json bAck = b.request({{"type", "seek"}, {"preset", "official"}, {"clock", blitz}});
    const std::string g = bAck["game"];
    Json toA = a.take([](const Json& j) { return j["type"] == "matched"; });
    Json toB = b.take([](const Json& j) { return j["type"] == "matched"; });
    EXPECT_EQ(toA["game"], g);
    EXPECT_EQ(toB["game"], g);
    EXPECT_NE(toA["side"], toB["side"]);
    // The new game: both seated, setting up, with the settings sought.
    Json s = snapshotOf(a, g);
    EXPECT_EQ(s["you"], toA["side"]);
    EXPECT_EQ(s["status"], "setup");
    EXPECT_EQ(s["preset"], "official");
    EXPECT_EQ(s["clock"], blitz);
    EXPECT_TRUE(s["rated"].get<bool>());
    // Only C is still seeking.
    Json after = watcher.take([](const Json& j) {
        return j["type"] == "lobby" && j["seeks"].size() == 1 && j["seeks"][0]["clock"].is_null();
    });
    EXPECT_EQ(after["seeks"][0]["players"], 1);
}

TEST(Matchmaking, UnseekClosingAndSelfNeverPair) {
    ServerProcess server(dbPath("unseek"));
    Player a(server.port()), b(server.port()), watcher(server.port());
    watcher.ws().send(Json{{"type", "lobby_subscribe"}});
    watcher.take([](const Json& j) { return j["type"] == "lobby"; });
    auto seeking = [&](int n) {
        watcher.take([&](const Json& j) {
            int total = 0;
            if (j["type"] == "lobby")
                for (const auto& e : j["seeks"]) total += e["players"].get<int>();
            return j["type"] == "lobby" && total == n;
        });
    };
    EXPECT_EQ(a.request({{"type", "seek"}})["type"], "ack");
    seeking(1);
    // The same player seeking again (another tab) replaces its seek and is never paired with it.
    Player a2(server.port(), a.token());
    Json again = a2.request({{"type", "seek"}});
    EXPECT_FALSE(again.contains("game"));
    EXPECT_EQ(a.request({{"type", "unseek"}})["type"], "ack");
    seeking(0);
    // A seek ends with its connection.
    EXPECT_EQ(a.request({{"type", "seek"}, {"rated", false}})["type"], "ack");
    seeking(1);
    a.disconnect();
    seeking(0);
    // Rated and casual seekers are not paired together.
    EXPECT_EQ(b.request({{"type", "seek"}, {"rated", false}})["type"], "ack");
    Json casual = a2.request({{"type", "seek"}, {"rated", true}});
    EXPECT_FALSE(casual.contains("game"));
    seeking(2);
    EXPECT_EQ(a2.request({{"type", "seek"}, {"level", 3}, {"preset", "checkers"}})["code"],
              "bad_message");
    // Logging in or out withdraws the connection's seek: it must not pair the identity just left.
    Player c(server.port());
    ASSERT_EQ(
        c.request({{"type", "register"}, {"username", "daru"}, {"password", "superhacka"}})["type"],
        "ack");
    EXPECT_EQ(c.request({{"type", "seek"}, {"preset", "official"}})["type"], "ack");
    seeking(3);
    EXPECT_EQ(c.request({{"type", "logout"}})["type"], "ack");
    seeking(2);
}

}  // namespace
}  // namespace rainet::test
