// Accounts and ratings: register / login / logout over WebSocket, every bad input with its code
// and no change, the login throttle, Glicko-2 ratings after finished games (and none after aborted,
// computer or unrated ones), ratings across a restart, the profile and leaderboard endpoints.
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

constexpr const char* kPassword = "correct horse";

Json profile(ServerProcess& server, const std::string& id) {
    auto [status, body] = server.http("GET", "/api/players/" + id);
    EXPECT_EQ(status, 200) << body;
    return Json::parse(body, nullptr, false);
}

Json registerAs(Player& p, const std::string& username, const std::string& password = kPassword) {
    return p.request({{"type", "register"}, {"username", username}, {"password", password}});
}

// Ends a started game by a resignation of `loser`; returns the `end` event `winner` received.
Json resign(Player& loser, Player& winner, const std::string& g) {
    EXPECT_EQ(loser.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    return winner.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == g && j["kind"] == "end";
    });
}

TEST(Accounts, RegisterKeepsThePlayerAndLoginFindsItFromAnotherBrowser) {
    ServerProcess server(dbPath("register"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);  // a game under way, to be found after the login
    Json ack = registerAs(a, "Alice");
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    EXPECT_EQ(ack["player"],
              Json({{"id", a.id()}, {"name", "Alice"}, {"kind", "account"}, {"rating", 1500}}));
    EXPECT_EQ(profile(server, a.id())["kind"], "account");

    // Another browser: login as its first message, with the username in another case.
    WsClient other(server.port());
    Json w = loginFirst(other, "aLiCe", kPassword, "L1");
    ASSERT_EQ(w["type"], "welcome") << w.dump();
    EXPECT_EQ(w["id"], "L1");
    EXPECT_EQ(w["player"]["id"], a.id());
    EXPECT_EQ(w["player"]["name"], "Alice");
    EXPECT_NE(w["token"], a.token());  // a token of its own
    ASSERT_EQ(w["games"].size(), 1u);
    EXPECT_EQ(w["games"][0]["game"], g);
    EXPECT_EQ(w["games"][0]["side"], "1");
    // That token is the account's from now on; the first browser's token still is too.
    Player again(server.port(), w["token"].get<std::string>());
    EXPECT_EQ(again.id(), a.id());
    Player first(server.port(), a.token());
    EXPECT_EQ(first.id(), a.id());
    // hello's name does not rename an account.
    WsClient named(server.port());
    named.send(Json{{"type", "hello"}, {"token", a.token()}, {"name", "mallory"}});
    EXPECT_EQ(named.waitType("welcome")["player"]["name"], "Alice");
    // The new connection acts as the player: it can play side 1's move.
    again.ws().send(Json{{"type", "watch"}, {"game", g}});
    Json snap = again.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(snap["you"], "1");
}

TEST(Accounts, LoginAfterHelloSwitchesTheConnectionToTheAccount) {
    ServerProcess server(dbPath("switch"));
    Player a(server.port());
    ASSERT_EQ(registerAs(a, "bob_2")["type"], "ack");
    Player guest(server.port());
    Json ack = guest.request({{"type", "create"}, {"opponent", "invite"}, {"side", "1"}});
    const std::string g = ack["game"];
    guest.take([](const Json& j) { return j["type"] == "snapshot"; });
    guest.ws().send(
        Json{{"type", "login"}, {"id", "x"}, {"username", "BOB_2"}, {"password", kPassword}});
    Json w = guest.take([](const Json& j) { return j["type"] == "welcome"; });
    EXPECT_EQ(w["player"]["id"], a.id());
    EXPECT_EQ(w["id"], "x");
    // The connection is now the account: in the guest's game it is a spectator.
    guest.ws().send(Json{{"type", "watch"}, {"game", g}});
    EXPECT_EQ(guest.take([](const Json& j) { return j["type"] == "snapshot"; })["you"],
              "spectator");
}

TEST(Accounts, LogoutRevokesOnlyThatToken) {
    ServerProcess server(dbPath("logout"));
    Player a(server.port());
    ASSERT_EQ(registerAs(a, "carol")["type"], "ack");
    WsClient second(server.port());
    const std::string token2 = loginFirst(second, "carol", kPassword)["token"];
    EXPECT_EQ(a.request({{"type", "logout"}})["type"], "ack");
    // The connection has no identity any more.
    a.ws().send(Json{{"type", "ping"}, {"id", 1}});
    EXPECT_EQ(a.ws().waitType("error")["code"], "not_authenticated");
    // The revoked token gives a new guest; the other browser's token still is carol.
    Player back(server.port(), a.token());
    EXPECT_NE(back.id(), a.id());
    EXPECT_EQ(back.welcome()["player"]["kind"], "guest");
    Player still(server.port(), token2);
    EXPECT_EQ(still.id(), a.id());
    // And one can log in again.
    WsClient third(server.port());
    EXPECT_EQ(loginFirst(third, "carol", kPassword)["player"]["id"], a.id());
}

TEST(Accounts, BadInputGetsItsCodeAndChangesNothing) {
    ServerProcess server(dbPath("accountserrors"));
    Player a(server.port()), b(server.port());
    ASSERT_EQ(registerAs(a, "dave")["type"], "ack");
    // b, a guest that has done nothing yet, is not stored (docs/protocol.md section 2): no
    // profile, and none after the failed registrations either.
    const auto bBefore = server.http("GET", "/api/players/" + b.id());
    EXPECT_EQ(bBefore.first, 404);
    auto code = [](const Json& reply) { return reply.value("code", reply.dump()); };
    EXPECT_EQ(code(registerAs(b, "dave", "another pw")), "username_taken");
    EXPECT_EQ(code(registerAs(b, "DAVE", "another pw")), "username_taken");
    EXPECT_EQ(code(registerAs(b, "eve", "short")), "bad_message");
    EXPECT_EQ(code(registerAs(b, "eve", std::string(129, 'p'))), "bad_message");
    EXPECT_EQ(code(registerAs(b, "ev", kPassword)), "bad_message");
    EXPECT_EQ(code(registerAs(b, "e v e", kPassword)), "bad_message");
    EXPECT_EQ(code(registerAs(b, std::string(25, 'e'), kPassword)), "bad_message");
    EXPECT_EQ(code(registerAs(a, "dave2")), "already_registered");
    b.ws().send(Json{{"type", "register"}, {"username", "eve"}, {"password", kPassword}});
    EXPECT_EQ(b.ws().waitType("error")["code"], "bad_message");  // no id
    EXPECT_EQ(server.http("GET", "/api/players/" + b.id()), bBefore);
    EXPECT_EQ(profile(server, a.id())["name"], "dave");

    WsClient c(server.port());
    EXPECT_EQ(code(loginFirst(c, "dave", "wrong password")), "bad_credentials");
    EXPECT_EQ(code(loginFirst(c, "nobody", kPassword)), "bad_credentials");
    c.send(Json{{"type", "login"}, {"username", "dave"}});
    EXPECT_EQ(c.waitType("error")["code"], "bad_message");
    c.send(Json{{"type", "ping"}, {"id", 1}});  // still unauthenticated
    EXPECT_EQ(c.waitType("error")["code"], "not_authenticated");
    WsClient d(server.port());
    d.send(Json{{"type", "logout"}, {"id", 1}});
    EXPECT_EQ(d.waitType("error")["code"], "not_authenticated");
    // b can still register with a good name.
    EXPECT_EQ(registerAs(b, "eve")["player"]["name"], "eve");
}

TEST(Accounts, FailedLoginsAreThrottled) {
    ServerProcess server(dbPath("throttle"));
    Player a(server.port());
    ASSERT_EQ(registerAs(a, "frank")["type"], "ack");
    WsClient c(server.port());
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(loginFirst(c, "frank", "guess " + std::to_string(i), i)["code"],
                  "bad_credentials");
    // The bucket is empty: even the right password is refused, unchecked, from this address.
    Json e = loginFirst(c, "frank", kPassword, 9);
    EXPECT_EQ(e["code"], "rate_limited");
    EXPECT_EQ(e["id"], 9);
    WsClient other(server.port());  // another connection of the same address
    EXPECT_EQ(loginFirst(other, "frank", kPassword)["code"], "rate_limited");
    server.advance(2000);  // one failure forgiven
    EXPECT_EQ(loginFirst(other, "frank", kPassword)["type"], "welcome");
}

// A bot account (register with bot: true) is flagged in every player object: the ack, the
// welcome of a later login, the lobby's creator, the joined event, snapshots, the profile and the
// game record; a person's account is not. A `bot` that is not a boolean is refused.
TEST(Accounts, BotAccountsAreFlaggedEverywhere) {
    ServerProcess server(dbPath("botaccount"));
    Player bot(server.port()), person(server.port());
    Json bad = bot.request(
        {{"type", "register"}, {"username", "robo"}, {"password", kPassword}, {"bot", "yes"}});
    EXPECT_EQ(bad.value("code", bad.dump()), "bad_message");
    EXPECT_EQ(bad.value("message", ""), "'bot' must be a boolean");
    Json ack = bot.request(
        {{"type", "register"}, {"username", "robo"}, {"password", kPassword}, {"bot", true}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    EXPECT_EQ(ack["player"], Json({{"id", bot.id()},
                                   {"name", "robo"},
                                   {"kind", "account"},
                                   {"rating", 1500},
                                   {"bot", true}}));
    ASSERT_EQ(registerAs(person, "alice")["type"], "ack");
    WsClient other(server.port());
    Json w = loginFirst(other, "robo", kPassword);
    EXPECT_EQ(w["player"]["bot"], true) << w.dump();

    // The bot creates an open game: the lobby flags its creator; the person joins it.
    person.ws().send(Json{{"type", "lobby_subscribe"}});
    person.take([](const Json& j) { return j["type"] == "lobby"; });
    Json created = bot.request({{"type", "create"}, {"side", "1"}});
    ASSERT_EQ(created["type"], "ack") << created.dump();
    const std::string g = created["game"];
    Json lobby = person.take([&](const Json& j) {
        return j["type"] == "lobby" && !j["games"].empty() && j["games"][0]["game"] == g;
    });
    EXPECT_EQ(lobby["games"][0]["creator"]["bot"], true) << lobby.dump();
    EXPECT_EQ(person.request({{"type", "join"}, {"game", g}})["type"], "ack");
    Json snap = person.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(snap["players"]["1"]["bot"], true) << snap.dump();
    EXPECT_EQ(snap["players"]["2"]["bot"], false) << snap.dump();
    EXPECT_EQ(snap["players"]["1"]["rating"], 1500);  // an account, not the computer
    Json joined =
        bot.take([](const Json& j) { return j["type"] == "event" && j["kind"] == "joined"; });
    EXPECT_FALSE(joined["player"].contains("bot")) << joined.dump();
    // The other way round: the bot joins the person's game.
    Json mine = person.request({{"type", "create"}, {"side", "1"}, {"opponent", "invite"}});
    const std::string g2 = mine["game"];
    EXPECT_EQ(bot.request({{"type", "join"}, {"game", g2}})["type"], "ack");
    Json botJoined = person.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == g2 && j["kind"] == "joined";
    });
    EXPECT_EQ(botJoined["player"]["bot"], true) << botJoined.dump();

    EXPECT_EQ(profile(server, bot.id())["bot"], true);
    EXPECT_FALSE(profile(server, person.id()).contains("bot"));
    auto [status, body] = server.http("GET", "/api/games/" + g);
    ASSERT_EQ(status, 200) << body;
    const Json record = Json::parse(body);
    EXPECT_EQ(record["players"]["1"]["bot"], true) << body;
    EXPECT_FALSE(record["players"]["2"].contains("bot")) << body;
}

TEST(Ratings, AFinishedGameRatesBothPlayersAndSurvivesARestart) {
    ServerProcess server(dbPath("ratings"));
    Player a(server.port()), b(server.port());
    ASSERT_EQ(registerAs(a, "gina")["type"], "ack");
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal[0]);
    const Json end = resign(b, a, g);
    ASSERT_TRUE(end.contains("ratings")) << end.dump();
    const Json r = end["ratings"];
    EXPECT_EQ(r["1"]["before"], 1500);
    EXPECT_EQ(r["2"]["before"], 1500);
    const int after1 = r["1"]["after"], after2 = r["2"]["after"];
    EXPECT_GT(after1, 1500);
    EXPECT_LT(after2, 1500);
    EXPECT_EQ(after1 - 1500, 1500 - after2);  // two new players: symmetric
    Json pa = profile(server, a.id());
    EXPECT_EQ(pa["rating"], after1);
    EXPECT_EQ(pa["rated_games"], 1);
    EXPECT_EQ(pa["games"], 1);
    EXPECT_EQ(pa["wins"], 1);
    EXPECT_EQ(pa["losses"], 0);
    EXPECT_EQ(profile(server, b.id())["losses"], 1);
    // Nothing secret in the public answers.
    for (const std::string& body : {server.http("GET", "/api/players/" + a.id()).second,
                                    server.http("GET", "/api/leaderboard").second,
                                    server.http("GET", "/api/games/" + g).second}) {
        EXPECT_EQ(body.find("argon2"), std::string::npos);
        EXPECT_EQ(body.find(a.token()), std::string::npos);
        EXPECT_EQ(body.find("password"), std::string::npos);
    }

    server.kill(SIGKILL);
    server.start();
    EXPECT_EQ(profile(server, a.id())["rating"], after1);
    Player a2(server.port(), a.token());
    EXPECT_EQ(a2.welcome()["player"]["rating"], after1);
    // The finished game's snapshot carries the same result, ratings included.
    a2.ws().send(Json{{"type", "watch"}, {"game", g}});
    Json snap = a2.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(snap["result"]["ratings"], r);
    EXPECT_EQ(snap["players"]["1"]["rating"], after1);
    // A new game shows the new ratings in its snapshot and in the lobby.
    Player b2(server.port(), b.token());
    b2.ws().send(Json{{"type", "lobby_subscribe"}});
    b2.take([](const Json& j) { return j["type"] == "lobby"; });
    Json ack = a2.request({{"type", "create"}, {"opponent", "open"}, {"side", "1"}});
    Json lobby = b2.take([](const Json& j) { return j["type"] == "lobby" && !j["games"].empty(); });
    EXPECT_EQ(lobby["games"][0]["creator"]["rating"], after1);
    EXPECT_EQ(lobby["games"][0]["rated"], true);
    EXPECT_EQ(b2.request({{"type", "join"}, {"game", ack["game"]}})["type"], "ack");
    Json s2 = b2.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(s2["rated"], true);
    EXPECT_EQ(s2["players"]["1"]["rating"], after1);
    EXPECT_EQ(s2["players"]["2"]["rating"], after2);
}

TEST(Ratings, AbortedComputerAndUnratedGamesChangeNoRating) {
    ServerProcess server(dbPath("unrated"));
    Player a(server.port()), b(server.port());
    // Aborted.
    const std::string g1 = startGame(a, b);
    EXPECT_EQ(a.request({{"type", "abort"}, {"game", g1}})["type"], "ack");
    Json end1 = b.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "end"; });
    EXPECT_FALSE(end1.contains("ratings"));
    // Unrated by choice.
    const std::string g2 = startGame(a, b, {{"rated", false}});
    EXPECT_EQ(a.game(g2).v, 4);
    Json end2 = resign(b, a, g2);
    EXPECT_EQ(end2["result"], "1-0");
    EXPECT_FALSE(end2.contains("ratings"));
    // Against the computer, even when asked to be rated.
    Json ack = a.request({{"type", "create"}, {"opponent", "computer"}, {"rated", true}});
    const std::string g3 = ack["game"];
    Json snap = a.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(snap["rated"], false);
    EXPECT_EQ(a.request({{"type", "resign"}, {"game", g3}})["type"], "ack");
    Json end3 = a.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == g3 && j["kind"] == "end";
    });
    EXPECT_FALSE(end3.contains("ratings"));
    for (Player* p : {&a, &b}) {
        Json pr = profile(server, p->id());
        EXPECT_EQ(pr["rating"], 1500);
        EXPECT_EQ(pr["rated_games"], 0);
    }
    EXPECT_EQ(profile(server, a.id())["games"], 2);  // finished games: g2 and g3
    EXPECT_EQ(server.http("GET", "/api/leaderboard").second,
              R"({"players":[],"per_page":20,"total":0,"next":null})");
}

TEST(Ratings, LeaderboardAndProfileEndpoints) {
    ServerProcess server(dbPath("leaderboard"));
    Player a(server.port()), b(server.port()), c(server.port());
    // a beats b, then a beats c: a first, then c and b below 1500.
    resign(b, a, startGame(a, b));
    resign(c, a, startGame(a, c));
    Json top = Json::parse(server.http("GET", "/api/leaderboard").second);
    EXPECT_EQ(top["total"], 3);
    ASSERT_EQ(top["players"].size(), 3u);
    EXPECT_EQ(top["players"][0]["id"], a.id());
    EXPECT_EQ(top["players"][0]["rank"], 1);
    EXPECT_EQ(top["players"][0]["rated_games"], 2);
    EXPECT_EQ(top["players"][0]["kind"], "guest");
    EXPECT_GT(top["players"][0]["rating"].get<int>(), top["players"][1]["rating"].get<int>());
    EXPECT_TRUE(top["next"].is_null());
    // Paged by cursor: each answer's `next` asks for the page after it; ranks carry on.
    Json page1 = Json::parse(server.http("GET", "/api/leaderboard?per_page=1").second);
    ASSERT_TRUE(page1["next"].is_string());
    Json page2 = Json::parse(
        server.http("GET", "/api/leaderboard?per_page=1&after=" + page1["next"].get<std::string>())
            .second);
    ASSERT_EQ(page2["players"].size(), 1u);
    EXPECT_EQ(page2["players"][0], top["players"][1]);
    EXPECT_EQ(page2["players"][0]["rank"], 2);
    EXPECT_EQ(page2["total"], 3);
    Json page3 = Json::parse(
        server.http("GET", "/api/leaderboard?per_page=1&after=" + page2["next"].get<std::string>())
            .second);
    EXPECT_EQ(page3["players"][0], top["players"][2]);
    EXPECT_TRUE(page3["next"].is_null());
    // page=1 is the first page still; later pages are asked for by cursor, and a bad cursor is
    // refused.
    EXPECT_EQ(server.http("GET", "/api/leaderboard?page=1").second,
              server.http("GET", "/api/leaderboard").second);
    EXPECT_EQ(server.http("GET", "/api/leaderboard?page=2").first, 400);
    EXPECT_EQ(server.http("GET", "/api/leaderboard?after=x").first, 400);
    EXPECT_EQ(server.http("GET", "/api/games?after=1_g1%27").first, 400);
    Json pa = profile(server, a.id());
    EXPECT_EQ(pa["id"], a.id());
    EXPECT_EQ(pa["name"], a.welcome()["player"]["name"]);
    EXPECT_EQ(pa["wins"], 2);
    EXPECT_EQ(pa["draws"], 0);
    EXPECT_TRUE(pa.contains("rd"));
    EXPECT_EQ(server.http("GET", "/api/players/pNOPE"),
              (std::pair<int, std::string>{404, R"({"error":"unknown_player"})"}));
    EXPECT_EQ(server.http("GET", "/api/players/computer").first, 404);
    // Game lists and records say whether a game was rated.
    Json list = Json::parse(server.http("GET", "/api/games?player=" + b.id()).second);
    EXPECT_EQ(list["games"][0]["rated"], true);
}

}  // namespace
}  // namespace rainet::test
