// After the end: rematch offers, acceptance and refusal between two people, a rematch against the
// computer, and renaming a player without reconnecting.
#include <gtest/gtest.h>

#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

TEST(Rematch, OfferDeclineOfferAcceptSwapsTheSides) {
    ServerProcess server(dbPath("rematch"));
    Player a(server.port()), b(server.port()), watcher(server.port());
    const std::string g = startGame(
        a, b, {{"preset", "official"}, {"clock", {{"initial", 6000}, {"increment", 50}}}});
    snapshotOf(watcher, g);
    // Not before the end, not by a spectator.
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["code"], "wrong_status");
    EXPECT_EQ(b.request({{"type", "rematch_decline"}, {"game", g}})["code"], "no_rematch_offer");
    EXPECT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "end");
    EXPECT_EQ(watcher.request({{"type", "rematch"}, {"game", g}})["code"], "not_a_player");

    // A offers; a second offer by A changes nothing; B declines; A cannot decline its own.
    const long v0 = a.game(g).v;
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    Json offer = takeEvent(b, g, "rematch_offer");
    EXPECT_EQ(offer["side"], "1");
    EXPECT_EQ(offer["v"], v0 + 1);
    EXPECT_EQ(takeEvent(watcher, g, "rematch_offer")["side"], "1");
    EXPECT_EQ(snapshotOf(b, g)["rematch"], (Json{{"offer", "1"}, {"next_game", nullptr}}));
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(a.request({{"type", "rematch_decline"}, {"game", g}})["code"], "no_rematch_offer");
    EXPECT_EQ(b.request({{"type", "rematch_decline"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(takeEvent(a, g, "rematch_decline")["side"], "2");
    EXPECT_EQ(snapshotOf(a, g)["rematch"]["offer"], nullptr);

    // B offers this time, A accepts by asking too: one new game, both told its id.
    EXPECT_EQ(b.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "rematch_offer");
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    Json toA = takeEvent(a, g, "rematch");
    Json toB = takeEvent(b, g, "rematch");
    Json toW = takeEvent(watcher, g, "rematch");
    const std::string next = toA["next_game"];
    EXPECT_NE(next, g);
    EXPECT_EQ(toB["next_game"], next);
    EXPECT_EQ(toW["next_game"], next);
    EXPECT_EQ(snapshotOf(b, g)["rematch"], (Json{{"offer", nullptr}, {"next_game", next}}));
    // Asking again after the agreement creates nothing more.
    EXPECT_EQ(b.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(b.request({{"type", "rematch_decline"}, {"game", g}})["code"], "no_rematch_offer");

    // The new game: same settings, sides swapped, both seated and setting up, not in the lobby.
    Json sa = snapshotOf(a, next);
    Json sb = snapshotOf(b, next);
    EXPECT_EQ(sa["you"], "2");
    EXPECT_EQ(sb["you"], "1");
    EXPECT_EQ(sa["status"], "setup");
    EXPECT_EQ(sa["preset"], "official");
    EXPECT_EQ(sa["clock"], (Json{{"initial", 6000}, {"increment", 50}}));
    EXPECT_EQ(sa["players"]["1"]["id"], b.id());
    EXPECT_EQ(sa["players"]["2"]["id"], a.id());
    EXPECT_FALSE(sa.contains("rematch"));
    watcher.ws().send(Json{{"type", "lobby_subscribe"}});
    EXPECT_TRUE(watcher.take([](const Json& j) { return j["type"] == "lobby"; })["games"].empty());
    // It is played like any other game.
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", next}, {"random", true}})["type"], "ack");
    EXPECT_EQ(b.request({{"type", "setup"}, {"game", next}, {"random", true}})["type"], "ack");
    takeEvent(a, next, "start");
    takeEvent(b, next, "start");
    EXPECT_FALSE(b.game(next).legal.empty());  // B is side 1 now
    // A player reconnecting finds the new game among its games.
    Player back(server.port(), a.token());
    bool listed = false;
    for (const auto& e : back.welcome()["games"]) listed |= e["game"] == next;
    EXPECT_TRUE(listed) << back.welcome().dump();
}

TEST(Rematch, EveryConnectionOfAnEndedGameSharesItsOffers) {
    // A player who opens the ended game afterwards (a reload) sees the offer made before and can
    // accept it: everyone following an ended game follows the same room.
    ServerProcess server(dbPath("rematchshared"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    EXPECT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(b, g, "end");
    b.disconnect();
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    Player b2(server.port(), b.token());
    EXPECT_EQ(snapshotOf(b2, g)["rematch"]["offer"], "1");
    EXPECT_EQ(b2.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(takeEvent(a, g, "rematch")["next_game"], takeEvent(b2, g, "rematch")["next_game"]);
}

TEST(Rematch, AgainstTheComputerStartsAtOnceWithTheSidesSwapped) {
    ServerProcess server(dbPath("rematchbot"));
    Player a(server.port());
    Json ack =
        a.request({{"type", "create"}, {"opponent", "computer"}, {"level", 2}, {"side", "1"}});
    const std::string g = ack["game"];
    EXPECT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "end");
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    const std::string next = takeEvent(a, g, "rematch")["next_game"];
    Json s = snapshotOf(a, next);
    EXPECT_EQ(s["you"], "2");
    EXPECT_EQ(s["opponent"], "computer");
    EXPECT_EQ(s["level"], 2);
    EXPECT_TRUE(s["players"]["1"]["bot"].get<bool>());
    // The computer sets up by itself; after ours, play starts and it moves first.
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", next}, {"random", true}})["type"], "ack");
    takeEvent(a, next, "start");
    a.take([&](const Json& j) { return j["type"] == "event" && j.value("kind", "") == "action"; });
    EXPECT_FALSE(a.game(next).legal.empty());
    // The rematch survives a restart, with the computer still seated on side 1.
    server.kill(SIGKILL);
    server.start();
    Player back(server.port(), a.token());
    Json again = snapshotOf(back, next);
    EXPECT_EQ(again["you"], "2");
    EXPECT_TRUE(again["players"]["1"]["bot"].get<bool>());
    EXPECT_EQ(again["status"], "playing");
}

TEST(Rematch, AGameThatNeverHadAnOpponentHasNone) {
    ServerProcess server(dbPath("rematchalone"));
    Player a(server.port());
    const std::string g = a.request({{"type", "create"}, {"opponent", "open"}})["game"];
    EXPECT_EQ(a.request({{"type", "abort"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["code"], "wrong_status");
}

TEST(Rename, ChangesTheNameWithoutReconnecting) {
    ServerProcess server(dbPath("rename"));
    Player a(server.port()), b(server.port());
    Json ack = a.request({{"type", "rename"}, {"name", "Okabe"}});
    EXPECT_EQ(ack["type"], "ack");
    EXPECT_EQ(ack["player"]["id"], a.id());
    EXPECT_EQ(ack["player"]["name"], "Okabe");
    EXPECT_EQ(ack["player"]["kind"], "guest");
    // Bad names are refused and change nothing.
    EXPECT_EQ(a.request({{"type", "rename"}, {"name", ""}})["code"], "bad_message");
    EXPECT_EQ(a.request({{"type", "rename"}, {"name", "   "}})["code"], "bad_message");
    EXPECT_EQ(a.request({{"type", "rename"}, {"name", std::string(25, 'x')}})["code"],
              "bad_message");
    EXPECT_EQ(a.request({{"type", "rename"}, {"name", "a\tb"}})["code"], "bad_message");
    EXPECT_EQ(a.request({{"type", "rename"}})["code"], "bad_message");
    // An account is named after its username.
    Player acct(server.port());
    ASSERT_EQ(
        acct.request(
            {{"type", "register"}, {"username", "hououin"}, {"password", "elpsykongroo"}})["type"],
        "ack");
    EXPECT_EQ(acct.request({{"type", "rename"}, {"name", "Kyouma"}})["code"], "bad_message");
    // New games carry the new name, and it is stored.
    const std::string g = startGame(a, b);
    EXPECT_EQ(snapshotOf(b, g)["players"]["1"]["name"], "Okabe");
    Player back(server.port(), a.token());
    EXPECT_EQ(back.welcome()["player"]["name"], "Okabe");
}

}  // namespace
}  // namespace rainet::test
