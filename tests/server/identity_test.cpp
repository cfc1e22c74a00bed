// Identities: a hello stores nothing until the guest does something that needs a
// row; new guests and registrations are limited per client address; password hashing runs on a
// bounded queue (overload: `busy`) that shutdown drops; failed logins are throttled per address
// and per (address, username) with backoff, so that nobody can lock another player out.
#include <gtest/gtest.h>

#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

constexpr const char* kPassword = "correct horse";

// A player whose connection comes through a trusted proxy from `address`.
std::unique_ptr<WsClient> from(ServerProcess& server, const std::string& address) {
    return std::make_unique<WsClient>(server.port(), address);
}

Json answer(WsClient& ws, const Json& m) {
    ws.send(m);
    return ws.waitFor([&](const Json& j) {
        return j["type"] == "welcome" ||
               ((j["type"] == "ack" || j["type"] == "error") && j.value("id", Json()) == m["id"]);
    });
}

Json hello(WsClient& ws) {
    ws.send(Json{{"type", "hello"}});
    return ws.waitFor([](const Json& j) { return j["type"] == "welcome"; });
}

TEST(Identity, HelloStoresNothingUntilTheGuestActs) {
    ServerProcess server(dbPath("lazyguest"));
    Player idle(server.port());
    Player p(server.port());
    EXPECT_EQ(server.http("GET", "/api/players/" + idle.id()).first, 404);
    EXPECT_EQ(server.http("GET", "/api/players/" + p.id()).first, 404);
    // Watching and pinging store nothing either.
    p.ws().send(Json{{"type", "ping"}, {"id", 1}});
    p.take([](const Json& j) { return j["type"] == "pong"; });
    EXPECT_EQ(server.http("GET", "/api/players/" + p.id()).first, 404);
    // Nor do the lists the home page asks for (a guest not stored has none of them).
    for (const char* list : {"my_games", "notifications", "challenges", "blocked"}) {
        p.ws().send(Json{{"type", list}, {"id", list}});
        p.take([&](const Json& j) { return j["type"] == list && j["id"] == list; });
    }
    EXPECT_EQ(server.http("GET", "/api/players/" + p.id()).first, 404);
    // Creating a game needs the player: stored then, with the id and token it was welcomed with.
    const std::string g = p.request({{"type", "create"}, {"opponent", "invite"}})["game"];
    EXPECT_EQ(server.http("GET", "/api/players/" + p.id()).first, 200);
    Player again(server.port(), p.token());
    EXPECT_EQ(again.id(), p.id());
    EXPECT_EQ(again.welcome()["games"][0]["game"], g);
    // The guest that only said hello is forgotten: its token gives a new guest.
    Player back(server.port(), idle.token());
    EXPECT_NE(back.id(), idle.id());
}

TEST(Identity, NewGuestsArePerAddressLimited) {
    ServerProcess server(dbPath("guestrate"),
                         {"--identities-per-minute", "3", "--trust-proxy", "127.0.0.1/32"});
    auto create = [&](WsClient& ws, int id) {
        return answer(ws, {{"type", "create"}, {"id", id}, {"opponent", "invite"}});
    };
    std::vector<std::unique_ptr<WsClient>> guests;
    for (int i = 0; i < 4; ++i) {
        guests.push_back(from(server, "10.0.0.1"));
        EXPECT_EQ(hello(*guests.back())["type"], "welcome");  // hello itself is never limited
    }
    for (int i = 0; i < 3; ++i) EXPECT_EQ(create(*guests[i], 1)["type"], "ack");
    Json e = create(*guests[3], 1);
    EXPECT_EQ(e["code"], "rate_limited");
    EXPECT_EQ(e["message"], "too many new players from your address; try again in 20 s");
    // Another address is not concerned; this one gets one more every 20 s.
    auto other = from(server, "10.0.0.2");
    hello(*other);
    EXPECT_EQ(create(*other, 1)["type"], "ack");
    server.advance(2000);
    EXPECT_EQ(create(*guests[3], 2)["type"], "ack");
    // A stored player acting again costs nothing more.
    EXPECT_EQ(create(*guests[0], 2)["type"], "ack");
}

TEST(Identity, RegistrationsArePerAddressLimited) {
    ServerProcess server(dbPath("regrate"),
                         {"--identities-per-minute", "2", "--trust-proxy", "127.0.0.1/32"});
    // A new guest registering at once counts once.
    auto reg = [&](const std::string& address, const std::string& name) {
        auto ws = from(server, address);
        hello(*ws);
        return answer(
            *ws, {{"type", "register"}, {"id", 1}, {"username", name}, {"password", kPassword}});
    };
    EXPECT_EQ(reg("10.0.0.1", "alice")["type"], "ack");
    EXPECT_EQ(reg("10.0.0.1", "bob")["type"], "ack");
    EXPECT_EQ(reg("10.0.0.1", "carol")["code"], "rate_limited");
    EXPECT_EQ(reg("10.0.0.2", "carol")["type"], "ack");
}

TEST(Identity, AThirdPartyFailingAlicesLoginDoesNotLockHerOut) {
    ServerProcess server(dbPath("nolockout"), {"--trust-proxy", "127.0.0.1/32"});
    {
        Player alice(server.port());
        ASSERT_EQ(
            alice.request(
                {{"type", "register"}, {"username", "alice"}, {"password", kPassword}})["type"],
            "ack");
    }
    auto attacker = from(server, "203.0.113.9");
    auto login = [&](WsClient& ws, const std::string& password, int id) {
        return answer(
            ws, {{"type", "login"}, {"id", id}, {"username", "alice"}, {"password", password}});
    };
    int refused = 0;
    for (int i = 0; i < 30; ++i) refused += login(*attacker, "guess", i)["code"] == "rate_limited";
    EXPECT_EQ(refused, 25);  // 5 tries, then throttled
    // Alice, from her own address, is not concerned.
    auto alice = from(server, "198.51.100.7");
    EXPECT_EQ(login(*alice, kPassword, 100)["type"], "welcome");
    // The attacker backs off: 20 s for the next try, then 40 s after failing it.
    EXPECT_EQ(login(*attacker, "guess", 101)["message"],
              "too many failed logins; try again in 20 s");
    server.advance(2000);
    EXPECT_EQ(login(*attacker, "guess", 102)["code"], "bad_credentials");
    EXPECT_EQ(login(*attacker, "guess", 103)["message"],
              "too many failed logins; try again in 40 s");
}

TEST(Identity, AnAddressTryingManyUsernamesIsThrottledToo) {
    ServerProcess server(dbPath("manyusers"), {"--trust-proxy", "127.0.0.1/32"});
    auto attacker = from(server, "203.0.113.9");
    int refused = 0;
    for (int i = 0; i < 25; ++i)
        refused += answer(*attacker, {{"type", "login"},
                                      {"id", i},
                                      {"username", "user" + std::to_string(i)},
                                      {"password", "guess"}})["code"] == "rate_limited";
    EXPECT_EQ(refused, 5);  // 20 failures per address, whatever the usernames
}

TEST(Identity, PasswordWorkIsBoundedAndShutdownDropsIt) {
    ServerProcess server(dbPath("pwqueue"), {"--password-cost", "interactive"});
    std::vector<std::unique_ptr<Player>> players;
    for (int i = 0; i < 40; ++i) players.push_back(std::make_unique<Player>(server.port()));
    for (int i = 0; i < 40; ++i)
        players[i]->ws().send(Json{{"type", "register"},
                                   {"id", 1},
                                   {"username", "user" + std::to_string(i)},
                                   {"password", kPassword}});
    // At most 16 wait or run: the others are told `busy` at once.
    int busy = 0;
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (busy < 20 && std::chrono::steady_clock::now() < deadline) {
        for (auto& p : players)
            if (auto m = p->ws().next(0ms)) busy += Json::parse(*m)["code"] == "busy";
        std::this_thread::sleep_for(10ms);
    }
    EXPECT_GE(busy, 20);
    // Shutdown does not hash what waits: the server exits after one hash at most.
    const auto start = std::chrono::steady_clock::now();
    server.kill(SIGTERM);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);
    EXPECT_NE(server.logText().find("\"event\":\"password_jobs_dropped\""), std::string::npos)
        << server.logText();
}

}  // namespace
}  // namespace rainet::test
