// Nothing the users wrote is lost: chat lines and pending draw and rematch offers are stored with
// the game, so they survive a kill and restart; chat said while a client was away comes again
// when it resumes (docs/protocol.md §8).
#include <gtest/gtest.h>

#include <csignal>

#include "players.h"

namespace rainet::test {
namespace {

std::vector<std::string> texts(const Json& lines) {
    std::vector<std::string> out;
    for (const auto& l : lines) out.push_back(l["text"]);
    return out;
}

TEST(Persistence, ChatAndADrawOfferSurviveAKill) {
    ServerProcess server(dbPath("persist_chat"));
    std::string g, tokenA, tokenB;
    {
        Player a(server.port()), b(server.port()), s(server.port());
        g = startGame(a, b);
        playOne(a, b, g, a.game(g).legal[0]);
        snapshotOf(s, g);
        EXPECT_EQ(a.request({{"type", "chat"}, {"game", g}, {"text", "hello"}})["type"], "ack");
        EXPECT_EQ(b.request({{"type", "chat"}, {"game", g}, {"text", "hi there"}})["type"], "ack");
        EXPECT_EQ(s.request({{"type", "chat"}, {"game", g}, {"text", "go!"}})["type"], "ack");
        // Lines are numbered in the game, both rooms together.
        Json line = nextChat(s);
        EXPECT_EQ(line["n"], 3);
        EXPECT_EQ(b.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
        tokenA = a.token();
        tokenB = b.token();
        server.kill(SIGKILL);
    }
    server.start();
    Player a(server.port(), tokenA), b(server.port(), tokenB), s(server.port());
    Json snap = snapshotOf(a, g);
    EXPECT_EQ(texts(snap["chat"]), (std::vector<std::string>{"hello", "hi there"}));
    EXPECT_EQ(snap["chat"][1]["n"], 2);
    EXPECT_EQ(snap["chat"][1]["from"]["id"], b.id());
    EXPECT_EQ(snap["draw_offer"], "2");
    EXPECT_EQ(texts(snapshotOf(s, g)["chat"]), (std::vector<std::string>{"go!"}));
    // The numbering goes on after the restart.
    EXPECT_EQ(a.request({{"type", "chat"}, {"game", g}, {"text", "again"}})["type"], "ack");
    EXPECT_EQ(nextChat(a)["n"], 4);
    // The offer stands: the other side accepts it.
    snapshotOf(b, g);
    EXPECT_EQ(a.request({{"type", "draw_accept"}, {"game", g}})["type"], "ack");
    Json end = takeEvent(b, g, "end");
    EXPECT_EQ(end["reason"], "agreement");
}

TEST(Persistence, ADrawOfferLapsesWithTheNextActionAcrossARestart) {
    ServerProcess server(dbPath("persist_lapse"));
    std::string g, tokenA, tokenB;
    {
        Player a(server.port()), b(server.port());
        g = startGame(a, b);
        EXPECT_EQ(a.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
        takeEvent(a, g, "draw_offer");
        takeEvent(b, g, "draw_offer");
        playOne(a, b, g, a.game(g).legal[0]);
        tokenA = a.token();
        tokenB = b.token();
        server.kill(SIGKILL);
    }
    server.start();
    Player a(server.port(), tokenA);
    EXPECT_TRUE(snapshotOf(a, g)["draw_offer"].is_null());
}

TEST(Persistence, ARematchOfferSurvivesAKillAndIsAcceptedAfter) {
    ServerProcess server(dbPath("persist_rematch"));
    std::string g, tokenA, tokenB;
    {
        Player a(server.port()), b(server.port());
        g = startGame(a, b);
        EXPECT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
        takeEvent(b, g, "end");
        EXPECT_EQ(a.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
        takeEvent(b, g, "rematch_offer");
        tokenA = a.token();
        tokenB = b.token();
        server.kill(SIGKILL);
    }
    server.start();
    Player a(server.port(), tokenA), b(server.port(), tokenB);
    EXPECT_EQ(snapshotOf(b, g)["rematch"]["offer"], "1");
    snapshotOf(a, g);
    EXPECT_EQ(b.request({{"type", "rematch"}, {"game", g}})["type"], "ack");
    const std::string next = takeEvent(a, g, "rematch")["next_game"];
    EXPECT_FALSE(next.empty());
    server.kill(SIGKILL);
    server.start();
    // The link to the rematch is kept too.
    Player c(server.port(), tokenA);
    Json rematch = snapshotOf(c, g)["rematch"];
    EXPECT_EQ(rematch["next_game"], next);
    EXPECT_TRUE(rematch["offer"].is_null());
}

TEST(Persistence, ChatSaidWhileAwayComesAgainOnResume) {
    ServerProcess server(dbPath("persist_resume"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    EXPECT_EQ(b.request({{"type", "chat"}, {"game", g}, {"text", "one"}})["type"], "ack");
    const long seen = nextChat(a)["n"];
    const long v = a.game(g).v;
    const std::string tokenA = a.token();
    a.disconnect();
    EXPECT_EQ(b.request({{"type", "chat"}, {"game", g}, {"text", "two"}})["type"], "ack");
    EXPECT_EQ(b.request({{"type", "chat"}, {"game", g}, {"text", "three"}})["type"], "ack");
    // Back at the same version: no event to replay, but the two lines said meanwhile, in order.
    Player back(server.port(), tokenA);
    back.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", v}, {"chat", seen}});
    EXPECT_EQ(nextChat(back)["text"], "two");
    EXPECT_EQ(nextChat(back)["text"], "three");
    // After a restart the lines come from the database.
    server.kill(SIGKILL);
    server.start();
    Player again(server.port(), tokenA);
    again.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", v}, {"chat", seen}});
    Json l = nextChat(again);
    EXPECT_EQ(l["text"], "two");
    EXPECT_EQ(l["n"], seen + 1);
    EXPECT_EQ(nextChat(again)["text"], "three");
}

}  // namespace
}  // namespace rainet::test
