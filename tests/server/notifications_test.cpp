// Notifications (docs/protocol.md, "Notifications"): stored per player, pushed live to every
// connection of the recipient, counted unread in welcome, paged, marked read, pruned by age.
#include <gtest/gtest.h>
#include <optional>

#include "players.h"

namespace rainet::test {
namespace {

// `b` leaves game `g` (its only connection following it) and `a` sees the seat empty.
void leaveSeat(Player& a, Player& b, const std::string& g) {
    b.disconnect();
    a.take([&](const Json& j) {
        return j["type"] == "presence" && j["game"] == g && j["side"] == "2" &&
               j["connected"] == false;
    });
}

Json inbox(Player& p, Json extra = Json::object()) {
    Json m{{"type", "notifications"}, {"id", "inbox"}};
    m.update(extra);
    p.ws().send(m);
    return p.take([](const Json& j) {
        return (j["type"] == "notifications" || j["type"] == "error") && j["id"] == "inbox";
    });
}

TEST(Notifications, AGameThatEndedWhileAwayIsPushedStoredAndMarkedRead) {
    ServerProcess server(dbPath("notify_ended"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    // b's second connection (another tab) does not follow the game.
    Player b2(server.port(), b.token(), 2000);
    EXPECT_EQ(b2.welcome()["unread"], 0) << "a stored player's welcome counts its unread";
    leaveSeat(a, b, g);
    ASSERT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    Json n = b2.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(n["unread"], 1);
    EXPECT_EQ(n["n"]["kind"], "game_ended");
    EXPECT_EQ(n["n"]["read"], false);
    EXPECT_EQ(n["n"]["data"]["game"], g);
    EXPECT_EQ(n["n"]["data"]["result"], "0-1");
    EXPECT_EQ(n["n"]["data"]["reason"], "resign");
    EXPECT_EQ(n["n"]["data"]["opponent"]["id"], a.id());
    const std::int64_t id = n["n"]["id"];
    // a saw the end: nothing for a.
    Json mine = inbox(a);
    EXPECT_TRUE(mine["items"].empty());
    EXPECT_EQ(mine["unread"], 0);
    // b comes back: the welcome counts it, the inbox lists it.
    Player back(server.port(), b.token(), 3000);
    EXPECT_EQ(back.welcome()["unread"], 1);
    Json page = inbox(back);
    ASSERT_EQ(page["items"].size(), 1u);
    EXPECT_EQ(page["items"][0], n["n"]);
    EXPECT_EQ(page["unread"], 1);
    // Read on one connection: the others are told the new count.
    EXPECT_EQ(back.request({{"type", "notifications_read"}, {"upTo", id}})["type"], "ack");
    EXPECT_EQ(b2.take([](const Json& j) { return j["type"] == "unread"; })["unread"], 0);
    page = inbox(back);
    EXPECT_EQ(page["items"][0]["read"], true);
    EXPECT_EQ(page["unread"], 0);
    // Kept across a restart.
    server.kill(SIGTERM);
    server.start();
    Player again(server.port(), b.token(), 4000);
    EXPECT_EQ(again.welcome()["unread"], 0);
    EXPECT_EQ(inbox(again)["items"].size(), 1u);
}

TEST(Notifications, PagesGoBackwardsAndBadRequestsChangeNothing) {
    ServerProcess server(dbPath("notify_pages"));
    Player a(server.port()), b(server.port());
    std::optional<Player> b2;  // b's other connection, once b is stored (seated in a game)
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 3; ++i) {
        const std::string g = startGame(a, b);
        if (!b2) b2.emplace(server.port(), b.token(), 2000);
        leaveSeat(a, b, g);  // gone before the end, so the end is a notification
        ASSERT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
        ids.push_back(
            b2->take([](const Json& j) { return j["type"] == "notification"; })["n"]["id"]);
        b.connect(server.port());
    }
    EXPECT_LT(ids[0], ids[1]);
    Json page = inbox(*b2, {{"limit", 2}});
    ASSERT_EQ(page["items"].size(), 2u);
    EXPECT_EQ(page["items"][0]["id"], ids[2]);
    EXPECT_EQ(page["items"][1]["id"], ids[1]);
    Json older = inbox(*b2, {{"before", ids[1]}});
    ASSERT_EQ(older["items"].size(), 1u);
    EXPECT_EQ(older["items"][0]["id"], ids[0]);
    // Bad input: a clear error, nothing marked.
    EXPECT_EQ(inbox(*b2, {{"limit", 0}})["code"], "bad_message");
    EXPECT_EQ(inbox(*b2, {{"limit", 51}})["code"], "bad_message");
    EXPECT_EQ(inbox(*b2, {{"before", -1}})["code"], "bad_message");
    EXPECT_EQ(b2->request({{"type", "notifications_read"}})["code"], "bad_message");
    EXPECT_EQ(b2->request({{"type", "notifications_read"}, {"upTo", "all"}})["code"],
              "bad_message");
    b2->ws().send(Json{{"type", "notifications_read"}, {"upTo", ids[2]}});
    EXPECT_EQ(b2->take([](const Json& j) { return j["type"] == "error"; })["code"], "bad_message")
        << "it changes state: it needs an id";
    EXPECT_EQ(inbox(*b2)["unread"], 3);
    // Marking another player's ids changes nothing of theirs: a marks up to b's newest.
    EXPECT_EQ(a.request({{"type", "notifications_read"}, {"upTo", ids[2]}})["type"], "ack");
    EXPECT_EQ(inbox(*b2)["unread"], 3);
    // A new guest has an empty inbox and is not stored by asking.
    Player guest(server.port());
    EXPECT_FALSE(guest.welcome().contains("unread"));
    Json empty = inbox(guest);
    EXPECT_TRUE(empty["items"].empty());
    EXPECT_EQ(empty["unread"], 0);
}

TEST(Notifications, AreDeletedAfterTheRetention) {
    ServerProcess server(dbPath("notify_prune"), {"--notification-days", "2"});
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    Player b2(server.port(), b.token(), 2000);  // b is stored once seated
    leaveSeat(a, b, g);
    ASSERT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    b2.take([](const Json& j) { return j["type"] == "notification"; });
    server.advance(24 * 3600 * 100);  // one day: kept
    EXPECT_EQ(inbox(b2)["items"].size(), 1u);
    server.advance(2 * 24 * 3600 * 100);  // three days: gone (the prune is a queued write)
    std::size_t left = 1;
    for (int i = 0; i < 100 && left; ++i) {
        left = inbox(b2)["items"].size();
        if (left) std::this_thread::sleep_for(50ms);
    }
    EXPECT_EQ(left, 0u);
}

}  // namespace
}  // namespace rainet::test
