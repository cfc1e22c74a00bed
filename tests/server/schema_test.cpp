// Every message the real server sends in a session that reaches every kind of server message is
// valid against the message tables of src/protocol (server_messages.h): the golden transcripts
// hold only part of them (protocol_tests validates those).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "players.h"
#include "protocol/server_messages.h"
#include "support/protocol_validate.h"
#include "support/run_command.h"

namespace rainet::test {
namespace {

bool isType(const Json& j, const char* type) {
    return j["type"] == type;
}

TEST(Schema, EveryMessageOfASessionReachingEveryKindIsValid) {
    ServerProcess server(dbPath("schema"));
    Player a(server.port()), b(server.port()), w(server.port());
    std::vector<Player*> all = {&a, &b, &w};

    // Accounts: an ack with the player; a login's welcome with its id.
    EXPECT_EQ(a.request({{"type", "register"},
                         {"username", "schema_alice"},
                         {"password", "correct horse"}})["type"],
              "ack");
    EXPECT_EQ(b.request({{"type", "rename"}, {"name", "Bob"}})["type"], "ack");
    Player l(server.port());
    all.push_back(&l);
    l.ws().send(Json{{"type", "login"},
                     {"id", "L1"},
                     {"username", "schema_alice"},
                     {"password", "correct horse"}});
    EXPECT_EQ(l.take([](const Json& j) { return isType(j, "welcome"); })["id"], "L1");

    // The lobby with an open game and a seek; two seeks paired.
    w.ws().send(Json{{"type", "lobby_subscribe"}});
    w.take([](const Json& j) { return isType(j, "lobby"); });
    EXPECT_EQ(a.request({{"type", "create"}, {"opponent", "open"}})["type"], "ack");
    w.take([](const Json& j) { return isType(j, "lobby") && !j["games"].empty(); });
    EXPECT_EQ(b.request({{"type", "seek"}})["type"], "ack");
    w.take([](const Json& j) { return isType(j, "lobby") && !j["seeks"].empty(); });
    EXPECT_EQ(l.request({{"type", "seek"}})["type"], "ack");
    b.take([](const Json& j) { return isType(j, "matched"); });
    l.take([](const Json& j) { return isType(j, "matched"); });

    // Pings with and without an id; an error.
    a.ws().send(Json{{"type", "ping"}, {"id", 5}});
    a.take([](const Json& j) { return isType(j, "pong"); });
    a.ws().send(Json{{"type", "ping"}});
    a.take([](const Json& j) { return isType(j, "pong"); });
    EXPECT_EQ(a.request({{"type", "join"}, {"game", "gNOPE"}})["code"], "unknown_game");

    // A game between people, watched: chat in both rooms, actions, a draw offer declined, a
    // resignation (rated: ratings in the end), rematch offered, declined, agreed.
    const std::string g = startGame(a, b, {{"clock", {{"initial", 6000}, {"increment", 100}}}});
    snapshotOf(w, g);
    EXPECT_EQ(a.request({{"type", "chat"}, {"game", g}, {"text", "hi"}})["type"], "ack");
    b.take([](const Json& j) { return isType(j, "chat"); });
    EXPECT_EQ(w.request({{"type", "chat"}, {"game", g}, {"text", "go"}})["type"], "ack");
    std::mt19937 rng(11);
    for (int i = 0; i < 4; ++i) playOne(a, b, g, moverAction(a, b, g, rng));
    EXPECT_EQ(a.request({{"type", "act"}, {"game", g}, {"action", "z9-z8"}})["type"], "error");
    EXPECT_EQ(a.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
    takeEvent(b, g, "draw_offer");
    EXPECT_EQ(b.request({{"type", "draw_decline"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "draw_decline");
    EXPECT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    EXPECT_TRUE(takeEvent(a, g, "end").contains("ratings"));
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    takeEvent(b, g, "rematch_offer");
    EXPECT_EQ(b.request({{"type", "rematch_decline"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "rematch_decline");
    EXPECT_EQ(b.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "rematch_offer");
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    takeEvent(b, g, "rematch");
    std::set<std::pair<std::string, std::string>> seen;
    int messages = 0;
    auto validate = [&](Player& p) {
        for (const std::string& text : p.ws().log()) {
            const Json m = Json::parse(text);
            EXPECT_EQ(protocol::validateServerMessage(m), std::nullopt) << text;
            seen.insert({m.value("type", ""), m.value("kind", "")});
            ++messages;
        }
    };
    Json ended = snapshotOf(w, g);
    EXPECT_TRUE(ended.contains("chat") && ended.contains("rematch") && !ended["result"].is_null());
    validate(b);
    b.disconnect();  // a's view of the seat: not connected, away
    all.erase(std::find(all.begin(), all.end(), &b));
    a.take([](const Json& j) { return isType(j, "presence") && j["connected"] == false; });
    EXPECT_TRUE(snapshotOf(a, g)["players"]["2"].contains("away"));

    // Notifications: a game that ended while its player was away, pushed to the player's other
    // connection, listed and marked read (which tells the count).
    Player away(server.port());
    const std::string ng = startGame(a, away);
    Player away2(server.port(), away.token(), 2000);
    all.push_back(&away2);
    away.disconnect();
    a.take([&](const Json& j) {
        return isType(j, "presence") && j["game"] == ng && j["connected"] == false;
    });
    EXPECT_EQ(a.request({{"type", "resign"}, {"game", ng}})["type"], "ack");
    const Json note = away2.take([](const Json& j) { return isType(j, "notification"); });
    away2.ws().send(Json{{"type", "notifications"}, {"id", "N"}});
    away2.take([](const Json& j) { return isType(j, "notifications"); });
    // The new count reaches every connection of the player, this one too, before the ack.
    away2.ws().send(Json{{"type", "notifications_read"}, {"id", "R"}, {"upTo", note["n"]["id"]}});
    away2.take([](const Json& j) { return isType(j, "unread"); });
    away2.take([](const Json& j) { return isType(j, "ack") && j["id"] == "R"; });
    // Challenges and follows: a challenge made and received, declined, listed; the follows.
    away2.ws().send(Json{{"type", "challenge"}, {"id", "C"}, {"player", a.id()}});
    const Json made = away2.take([](const Json& j) { return isType(j, "challenge"); });
    a.take([](const Json& j) { return isType(j, "challenge"); });
    away2.ws().send(Json{{"type", "challenges"}, {"id", "CL"}});
    away2.take([](const Json& j) { return isType(j, "challenges"); });
    EXPECT_EQ(a.request({{"type", "challenge_decline"},
                         {"challenge", made["challenge"]["id"]},
                         {"reason", "later"}})["type"],
              "ack");
    away2.take([](const Json& j) { return isType(j, "challenge_update"); });
    EXPECT_EQ(away2.request({{"type", "follow"}, {"player", a.id()}})["type"], "ack");
    away2.ws().send(Json{{"type", "following"}, {"id", "F"}});
    away2.take([](const Json& j) { return isType(j, "following"); });
    away2.ws().send(Json{{"type", "my_games"}, {"id", "M"}});
    away2.take([](const Json& j) { return isType(j, "my_games"); });

    // Against the computer: its seat has no rating.
    Json c = a.request({{"type", "create"}, {"opponent", "computer"}, {"level", 1}, {"side", "1"}});
    const std::string cg = c["game"];
    EXPECT_EQ(a.take([&](const Json& j) {
        return isType(j, "snapshot") && j["game"] == cg;
    })["players"]["2"]["rating"],
              nullptr);

    // Tournaments: an arena created (the ack with its id), listed and watched.
    Json arena = a.request({{"type", "tournament_create"},
                            {"name", "Schema arena"},
                            {"clock", {{"initial", 18000}, {"increment", 200}}},
                            {"startsIn", 60},
                            {"minutes", 10}});
    ASSERT_EQ(arena["type"], "ack") << arena.dump();
    a.ws().send(Json{{"type", "tournaments"}, {"id", "T1"}});
    EXPECT_EQ(a.take([](const Json& j) { return isType(j, "tournaments"); })["tournaments"].size(),
              1u);
    a.ws().send(Json{{"type", "tournament_watch"}, {"tournament", arena["tournament"]}});
    a.take([](const Json& j) { return isType(j, "tournament"); });
    // Its game: two newcomers paired at the start; one berserks, which it is told.
    Player x(server.port()), y(server.port());
    all.push_back(&x);
    all.push_back(&y);
    for (Player* p : {&x, &y})
        EXPECT_EQ(
            p->request({{"type", "tournament_join"}, {"tournament", arena["tournament"]}})["type"],
            "ack");
    server.advance(6100);
    const Json matched = x.take([](const Json& j) { return isType(j, "matched"); });
    ASSERT_TRUE(matched.contains("game")) << matched.dump();
    const std::string tg = matched["game"];
    x.ws().send(Json{{"type", "watch"}, {"game", tg}});
    x.take([&](const Json& j) { return isType(j, "snapshot") && j["game"] == tg; });
    EXPECT_EQ(x.request({{"type", "berserk"}, {"game", tg}})["type"], "ack");
    x.take([](const Json& j) { return isType(j, "berserk"); });

    // Moderation: a block listed; the reports, read by a moderator the operator named.
    EXPECT_EQ(a.request({{"type", "block"}, {"player", b.id()}})["type"], "ack");
    a.ws().send(Json{{"type", "blocked"}, {"id", "B"}});
    a.take([](const Json& j) { return isType(j, "blocked"); });
    EXPECT_EQ(a.request({{"type", "report"}, {"player", b.id()}, {"reason", "spam"}})["type"],
              "ack");
    EXPECT_EQ(
        runRainet("admin --db '" + server.dbTarget() + "' grant schema_alice moderator").status, 0);
    a.ws().send(Json{{"type", "reports"}, {"id", "RP"}});
    a.take([](const Json& j) { return isType(j, "reports"); });

    for (Player* p : all) validate(*p);
    EXPECT_GT(messages, 50);
    // Every message of the catalogue was sent, but the event without a kind: the server has no
    // event today that shows nothing to some role.
    for (const protocol::MessageDef& d : protocol::serverMessages()) {
        if (d.type == "event" && d.kind.empty()) continue;
        EXPECT_TRUE(seen.count({std::string(d.type), std::string(d.kind)}))
            << d.type << " " << d.kind << " was never sent";
    }
}

}  // namespace
}  // namespace rainet::test
