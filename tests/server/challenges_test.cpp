// Challenges between named players and follows (docs/protocol.md, "Challenges", "Follows"):
// delivered live and as notifications, answered, lapsing, refused by the challenged's setting,
// bounded; follows with presence and games in play.
#include <gtest/gtest.h>

#include "players.h"

namespace rainet::test {
namespace {

void signUp(Player& p, const std::string& username, bool bot = false) {
    Json m{{"type", "register"}, {"username", username}, {"password", "correct horse"}};
    if (bot) m["bot"] = true;
    ASSERT_EQ(p.request(m)["type"], "ack") << username;
}

// A challenge request; the answer (a `challenge` echoing the id, or an error).
Json challengeOf(Player& from, Json m) {
    static int n = 0;
    const std::string id = "ch" + std::to_string(++n);
    m["type"] = "challenge";
    m["id"] = id;
    from.ws().send(m);
    return from.take([&](const Json& j) {
        return (j["type"] == "challenge" || j["type"] == "error") && j.contains("id") &&
               j["id"] == id;
    });
}

Json listOf(Player& p, const std::string& type) {
    p.ws().send(Json{{"type", type}, {"id", "L"}});
    return p.take([&](const Json& j) { return j["type"] == type && j["id"] == "L"; });
}

TEST(Challenges, ByUsernameAcceptedMakesTheGameBothAreToldOf) {
    ServerProcess server(dbPath("challenge_accept"));
    Player a(server.port()), b(server.port());
    signUp(a, "chal_ann");
    signUp(b, "chal_bob");
    Json sent = challengeOf(a, {{"username", "CHAL_BOB"},
                                {"preset", "official"},
                                {"clock", {{"initial", 30000}, {"increment", 200}}},
                                {"rated", false},
                                {"side", "1"}});
    ASSERT_EQ(sent["type"], "challenge") << sent;
    const Json ch = sent["challenge"];
    EXPECT_EQ(ch["from"]["id"], a.id());
    EXPECT_EQ(ch["to"]["id"], b.id());
    EXPECT_EQ(ch["preset"], "official");
    EXPECT_EQ(ch["clock"]["initial"], 30000);
    EXPECT_EQ(ch["rated"], false);
    EXPECT_EQ(ch["side"], "1");
    // b sees it live and in its inbox.
    Json live = b.take([](const Json& j) { return j["type"] == "challenge"; });
    EXPECT_EQ(live["challenge"], ch);
    EXPECT_FALSE(live.contains("id"));
    Json n = b.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(n["n"]["kind"], "challenge");
    EXPECT_EQ(n["n"]["data"]["challenge"], ch["id"]);
    EXPECT_EQ(n["n"]["data"]["from"]["name"], "chal_ann");
    // Both list it.
    EXPECT_EQ(listOf(b, "challenges")["received"][0]["id"], ch["id"]);
    EXPECT_EQ(listOf(a, "challenges")["sent"][0]["id"], ch["id"]);
    // Accepted: a game in setup, the challenger on the side it asked for.
    Json ack = b.request({{"type", "challenge_accept"}, {"challenge", ch["id"]}});
    ASSERT_EQ(ack["type"], "ack") << ack;
    const std::string g = ack["game"];
    EXPECT_EQ(b.take([](const Json& j) { return j["type"] == "matched"; })["side"], "2");
    // The update comes first, then the game.
    Json upd = a.take([](const Json& j) { return j["type"] == "challenge_update"; });
    EXPECT_EQ(upd["status"], "accepted");
    EXPECT_EQ(upd["game"], g);
    Json m = a.take([](const Json& j) { return j["type"] == "matched"; });
    EXPECT_EQ(m["game"], g);
    EXPECT_EQ(m["side"], "1");
    Json an = a.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(an["n"]["kind"], "challenge_accepted");
    EXPECT_EQ(an["n"]["data"]["game"], g);
    Json s = snapshotOf(a, g);
    EXPECT_EQ(s["status"], "setup");
    EXPECT_EQ(s["preset"], "official");
    EXPECT_EQ(s["rated"], false);
    EXPECT_EQ(s["players"]["1"]["id"], a.id());
    EXPECT_EQ(s["players"]["2"]["id"], b.id());
    // Answered once: a second answer finds it no longer waiting.
    EXPECT_EQ(b.request({{"type", "challenge_accept"}, {"challenge", ch["id"]}})["code"],
              "unknown_challenge");
    EXPECT_TRUE(listOf(b, "challenges")["received"].empty());
}

TEST(Challenges, DeclinedWithAReasonOrCanceledOrLapsed) {
    ServerProcess server(dbPath("challenge_decline"));
    Player a(server.port()), b(server.port());
    signUp(a, "dec_ann");  // challenges and follows are between stored players
    signUp(b, "dec_bob");
    Json ch = challengeOf(a, {{"player", b.id()}})["challenge"];
    EXPECT_EQ(
        b.request(
            {{"type", "challenge_decline"}, {"challenge", ch["id"]}, {"reason", "soon"}})["code"],
        "bad_message")
        << "a reason from the list only";
    EXPECT_EQ(b.request({{"type", "challenge_decline"},
                         {"challenge", ch["id"]},
                         {"reason", "too_fast"}})["type"],
              "ack");
    Json upd = a.take([](const Json& j) { return j["type"] == "challenge_update"; });
    EXPECT_EQ(upd["status"], "declined");
    EXPECT_EQ(upd["reason"], "too_fast");
    Json n = a.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(n["n"]["kind"], "challenge_declined");
    EXPECT_EQ(n["n"]["data"]["reason"], "too_fast");
    // Canceled by the challenger (only by it).
    Json ch2 = challengeOf(a, {{"player", b.id()}})["challenge"];
    EXPECT_EQ(b.request({{"type", "challenge_cancel"}, {"challenge", ch2["id"]}})["code"],
              "unknown_challenge");
    EXPECT_EQ(a.request({{"type", "challenge_cancel"}, {"challenge", ch2["id"]}})["type"], "ack");
    EXPECT_EQ(b.take([](const Json& j) {
        return j["type"] == "challenge_update" && j["status"] == "canceled";
    })["challenge"],
              ch2["id"]);
    // Lapsed after ten minutes unanswered: both are told, and it can no longer be accepted.
    Json ch3 = challengeOf(a, {{"player", b.id()}})["challenge"];
    server.advance(10 * 60 * 100 + 100);
    for (Player* p : {&a, &b})
        EXPECT_EQ(p->take([&](const Json& j) {
            return j["type"] == "challenge_update" && j["challenge"] == ch3["id"];
        })["status"],
                  "expired");
    EXPECT_EQ(b.request({{"type", "challenge_accept"}, {"challenge", ch3["id"]}})["code"],
              "unknown_challenge");
}

TEST(Challenges, HostileRequestsGetClearErrors) {
    ServerProcess server(dbPath("challenge_hostile"));
    Player a(server.port()), b(server.port()), c(server.port());
    signUp(a, "host_ann");  // challenges and follows are between stored players
    signUp(b, "host_bob");
    signUp(c, "host_cy");
    EXPECT_EQ(challengeOf(a, {{"player", a.id()}})["code"], "bad_message");
    EXPECT_EQ(challengeOf(a, {{"player", a.id()}})["message"], "you cannot challenge yourself");
    EXPECT_EQ(challengeOf(a, {{"player", "pNOBODY"}})["code"], "unknown_player");
    EXPECT_EQ(challengeOf(a, {{"username", "nobody_here"}})["code"], "unknown_player");
    EXPECT_EQ(challengeOf(a, {{"username", "x"}})["code"], "bad_message");
    EXPECT_EQ(challengeOf(a, Json::object())["code"], "bad_message");
    EXPECT_EQ(challengeOf(a, {{"player", b.id()}, {"username", "bob"}})["code"], "bad_message");
    EXPECT_EQ(challengeOf(a, {{"player", b.id()}, {"preset", "blitz"}})["code"], "bad_message");
    // Another's challenge cannot be answered by a third player.
    Json ch = challengeOf(a, {{"player", b.id()}})["challenge"];
    EXPECT_EQ(c.request({{"type", "challenge_accept"}, {"challenge", ch["id"]}})["code"],
              "unknown_challenge");
    EXPECT_EQ(c.request({{"type", "challenge_accept"}, {"challenge", "cNOPE"}})["code"],
              "unknown_challenge");
    // A flood: at most 10 waiting per challenger...
    for (int i = 1; i < 10; ++i)
        ASSERT_EQ(challengeOf(a, {{"player", b.id()}})["type"], "challenge") << i;
    Json over = challengeOf(a, {{"player", c.id()}});
    EXPECT_EQ(over["code"], "rate_limited");
    EXPECT_NE(over["message"].get<std::string>().find("10 challenges waiting"), std::string::npos);
    EXPECT_EQ(listOf(a, "challenges")["sent"].size(), 10u);
    // ...and 20 per address: every one the server examined counted (4 refused above, 11 by a
    // since), so c, from the same address, has 5 left.
    int more = 0;
    Json addr;
    while ((addr = challengeOf(c, {{"player", b.id()}}))["type"] == "challenge" && more < 30)
        ++more;
    EXPECT_EQ(more, 5);
    EXPECT_EQ(addr["code"], "rate_limited");
    EXPECT_NE(addr["message"].get<std::string>().find("your address"), std::string::npos);
    EXPECT_EQ(listOf(b, "challenges")["received"].size(), 15u);
}

TEST(Challenges, TheChallengedChoosesWhoMay) {
    ServerProcess server(dbPath("challenge_settings"));
    Player a(server.port()), b(server.port()), bot(server.port());
    signUp(bot, "chal_robot", true);
    EXPECT_EQ(
        b.request({{"type", "challenge_settings"}, {"from", "nobody"}, {"bots", true}})["type"],
        "ack");
    EXPECT_EQ(challengeOf(a, {{"player", b.id()}})["code"], "challenge_refused");
    EXPECT_EQ(
        b.request({{"type", "challenge_settings"}, {"from", "followed"}, {"bots", false}})["type"],
        "ack");
    EXPECT_EQ(challengeOf(a, {{"player", b.id()}})["code"], "challenge_refused");
    EXPECT_EQ(b.request({{"type", "follow"}, {"player", a.id()}})["type"], "ack");
    EXPECT_EQ(b.request({{"type", "follow"}, {"player", bot.id()}})["type"], "ack");
    EXPECT_EQ(challengeOf(a, {{"player", b.id()}})["type"], "challenge");
    Json fromBot = challengeOf(bot, {{"player", b.id()}});
    EXPECT_EQ(fromBot["code"], "challenge_refused");
    EXPECT_NE(fromBot["message"].get<std::string>().find("bots"), std::string::npos);
    EXPECT_EQ(b.request({{"type", "challenge_settings"}, {"from", "all"}, {"bots", true}})["code"],
              "bad_message");
}

TEST(Follows, PresenceGamesAndTheFollowedNotification) {
    ServerProcess server(dbPath("follows"));
    Player a(server.port()), b(server.port()), c(server.port());
    signUp(a, "fol_ann");  // challenges and follows are between stored players
    signUp(b, "fol_bob");
    signUp(c, "fol_cy");
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", a.id()}})["code"], "bad_message");
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", "pNOBODY"}})["code"], "unknown_player");
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", b.id()}})["type"], "ack");
    Json n = b.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(n["n"]["kind"], "followed");
    EXPECT_EQ(n["n"]["data"]["by"]["id"], a.id());
    // Following again adds nothing and notifies nobody.
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", b.id()}})["type"], "ack");
    EXPECT_EQ(listOf(b, "notifications")["items"].size(), 1u);
    const std::string g = startGame(b, c);
    Json list = listOf(a, "following");
    ASSERT_EQ(list["players"].size(), 1u);
    EXPECT_EQ(list["players"][0]["player"]["id"], b.id());
    EXPECT_EQ(list["players"][0]["online"], true);
    EXPECT_EQ(list["players"][0]["games"], Json::array({g}));
    b.disconnect();
    bool offline = false;
    for (int i = 0; i < 100 && !offline; ++i) {
        offline = listOf(a, "following")["players"][0]["online"] == false;
        if (!offline) std::this_thread::sleep_for(20ms);
    }
    EXPECT_TRUE(offline);
    EXPECT_EQ(a.request({{"type", "unfollow"}, {"player", b.id()}})["type"], "ack");
    EXPECT_TRUE(listOf(a, "following")["players"].empty());
}

TEST(Follows, AStartedGameIsNotifiedOnlyToFollowersWhoAskedForIt) {
    ServerProcess server(dbPath("follow_starts"));
    Player a(server.port()), b(server.port()), c(server.port()), d(server.port());
    signUp(a, "fst_ann");
    signUp(b, "fst_bob");
    signUp(c, "fst_cy");
    signUp(d, "fst_dee");
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", b.id()}, {"starts", "yes"}})["code"],
              "bad_message");
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", b.id()}, {"starts", true}})["type"], "ack");
    EXPECT_EQ(c.request({{"type", "follow"}, {"player", b.id()}})["type"], "ack");  // off
    const std::string g = startGame(b, d);
    Json n = a.take([](const Json& j) {
        return j["type"] == "notification" && j["n"]["kind"] == "follow_started_game";
    });
    EXPECT_EQ(n["n"]["data"]["player"]["id"], b.id());
    EXPECT_EQ(n["n"]["data"]["player"]["name"], "fst_bob");
    EXPECT_EQ(n["n"]["data"]["game"], g);
    // c (not asked) has nothing; a following again without `starts` turns it off.
    EXPECT_TRUE(listOf(c, "notifications")["items"].empty());
    EXPECT_EQ(a.request({{"type", "follow"}, {"player", b.id()}})["type"], "ack");
    Player e(server.port());  // stored after a: told after a would be (by follower)
    signUp(e, "fst_eve");
    EXPECT_EQ(e.request({{"type", "follow"}, {"player", b.id()}, {"starts", true}})["type"], "ack");
    const std::string g2 = startGame(d, b);
    n = e.take([](const Json& j) {
        return j["type"] == "notification" && j["n"]["kind"] == "follow_started_game";
    });
    EXPECT_EQ(n["n"]["data"]["game"], g2);
    const Json items = listOf(a, "notifications")["items"];
    EXPECT_EQ(items.size(), 1u) << items.dump();
}

}  // namespace
}  // namespace rainet::test
