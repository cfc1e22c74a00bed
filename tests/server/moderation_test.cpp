// Moderation as players and moderators see it over the protocol (docs/protocol.md,
// "Moderation"), and the operator's `rainet admin` taking effect on a running server: blocks hide
// chat lines and refuse challenges, reports are bounded, mutes refuse chat, bans refuse login,
// moderators act and others are refused; the word filter and spectator chat switched off.
#include <gtest/gtest.h>

#include <fstream>

#include "players.h"
#include "support/run_command.h"

namespace rainet::test {
namespace {

// `rainet admin --db <server's db> ARGS`: its output, and a failed test if it failed.
std::string modAdmin(ServerProcess& server, const std::string& args) {
    CliRun r = runRainet("admin --db '" + server.dbTarget() + "' " + args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.out;
    return r.out;
}

// The code of the error answering `m`, or "ack".
std::string modCode(Player& p, Json m) {
    Json r = p.request(std::move(m));
    return r["type"] == "ack" ? "ack" : r.value("code", "?");
}

// The chat lines `p` has received in game `g` (synced with the room first).
std::vector<std::string> modLinesHeard(Player& p, const std::string& g) {
    p.sync(g);
    std::vector<std::string> out;
    for (const auto& m : p.ws().log())
        if (Json j = Json::parse(m); j["type"] == "chat" && j["game"] == g)
            out.push_back(j["text"]);
    return out;
}

TEST(Moderation, ABlockedPlayersChatIsNotSentToTheBlockerNorItsChallenges) {
    ServerProcess server(dbPath("block"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    EXPECT_EQ(modCode(a, {{"type", "block"}, {"player", b.id()}}), "ack");
    EXPECT_EQ(modCode(b, {{"type", "chat"}, {"game", g}, {"text", "you are bad"}}), "ack");
    EXPECT_EQ(modCode(a, {{"type", "chat"}, {"game", g}, {"text", "gg"}}), "ack");
    EXPECT_EQ(modLinesHeard(a, g), std::vector<std::string>{"gg"});
    EXPECT_EQ(modLinesHeard(b, g), (std::vector<std::string>{"you are bad", "gg"}));
    // Nor can b challenge a.
    Json ch = b.request({{"type", "challenge"}, {"player", a.id()}});
    EXPECT_EQ(ch.value("code", ""), "challenge_refused") << ch;
    // The list, then unblocked: b's lines reach a again.
    a.ws().send(Json{{"type", "blocked"}, {"id", "list"}});
    Json list = a.take([](const Json& j) { return j["type"] == "blocked"; });
    ASSERT_EQ(list["players"].size(), 1u) << list;
    EXPECT_EQ(list["players"][0]["id"], b.id());
    EXPECT_EQ(modCode(a, {{"type", "unblock"}, {"player", b.id()}}), "ack");
    EXPECT_EQ(modCode(b, {{"type", "chat"}, {"game", g}, {"text", "sorry"}}), "ack");
    EXPECT_EQ(modLinesHeard(a, g), (std::vector<std::string>{"gg", "sorry"}));
}

TEST(Moderation, QuickPairingNeverPairsABlockedPlayer) {
    ServerProcess server(dbPath("blockseek"));
    Player a(server.port()), b(server.port()), c(server.port());
    startGame(a, b);  // both stored
    EXPECT_EQ(modCode(b, {{"type", "block"}, {"player", a.id()}}), "ack");
    EXPECT_FALSE(a.request({{"type", "seek"}, {"computer_after", 0}}).contains("game"));
    Json second = b.request({{"type", "seek"}, {"computer_after", 0}});
    EXPECT_EQ(second["type"], "ack");
    EXPECT_FALSE(second.contains("game")) << "paired with the player it blocked";
    Json third = c.request({{"type", "seek"}, {"computer_after", 0}});
    ASSERT_TRUE(third.contains("game")) << third;
    EXPECT_EQ(snapshotOf(c, third["game"])["players"]["1"]["id"] == a.id() ||
                  snapshotOf(c, third["game"])["players"]["2"]["id"] == a.id(),
              true)
        << "the oldest seek it may be paired with: a's";
}

TEST(Moderation, BadBlocksAndReportsAreRefusedClearlyAndReportsAreBounded) {
    ServerProcess server(dbPath("report"));
    Player a(server.port()), b(server.port());
    startGame(a, b);
    EXPECT_EQ(modCode(a, {{"type", "block"}, {"player", a.id()}}), "bad_message");
    EXPECT_EQ(modCode(a, {{"type", "block"}, {"player", "pNOBODY"}}), "unknown_player");
    EXPECT_EQ(modCode(a, {{"type", "report"}, {"player", a.id()}, {"reason", "spam"}}),
              "bad_message");
    EXPECT_EQ(modCode(a, {{"type", "report"}, {"player", "pNOBODY"}, {"reason", "spam"}}),
              "unknown_player");
    Json r = a.request({{"type", "report"}, {"player", b.id()}, {"reason", "rude"}});
    EXPECT_EQ(r["message"],
              "'reason' must be one of insult, spam, cheating, stalling, name, other");
    r = a.request({{"type", "report"},
                   {"player", b.id()},
                   {"reason", "insult"},
                   {"text", std::string(501, 'x')}});
    EXPECT_EQ(r["message"], "'text' is longer than 500 bytes");
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(modCode(a, {{"type", "report"},
                              {"player", b.id()},
                              {"reason", "insult"},
                              {"text", std::string(500, 'x')}}),
                  "ack")
            << i;
    r = a.request({{"type", "report"}, {"player", b.id()}, {"reason", "spam"}});
    EXPECT_EQ(r["code"], "rate_limited");
    EXPECT_EQ(r["message"], "you made 10 reports in the last 24 hours; wait a little");
    // Stored: ten open reports, none of the refused ones.
    const std::string out = modAdmin(server, "reports");
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 10) << out;
}

TEST(Moderation, ModeratorsReadReportsMuteAndBanOthersAreRefused) {
    ServerProcess server(dbPath("moderators"));
    Player a(server.port()), b(server.port()), m(server.port());
    const std::string g = startGame(a, b);
    ASSERT_EQ(
        m.request(
            {{"type", "register"}, {"username", "okabe"}, {"password", "elpsycongroo"}})["type"],
        "ack");
    EXPECT_EQ(modCode(a, {{"type", "report"},
                          {"player", b.id()},
                          {"game", g},
                          {"reason", "insult"},
                          {"text", "called me names"}}),
              "ack");
    // Not yet a moderator: refused, nothing changes.
    EXPECT_EQ(modCode(m, {{"type", "reports"}}), "forbidden");
    EXPECT_EQ(modCode(m, {{"type", "moderate"}, {"action", "ban"}, {"player", b.id()}}),
              "forbidden");
    EXPECT_EQ(modAdmin(server, "grant okabe moderator --reason trusted"),
              "okabe is now moderator\n");
    m.ws().send(Json{{"type", "reports"}, {"id", "r"}});
    Json reports = m.take([](const Json& j) { return j["type"] == "reports"; });
    ASSERT_EQ(reports["reports"].size(), 1u) << reports;
    const Json report = reports["reports"][0];
    EXPECT_EQ(report["reporter"]["id"], a.id());
    EXPECT_EQ(report["target"]["id"], b.id());
    EXPECT_EQ(report["game"], g);
    EXPECT_EQ(report["text"], "called me names");
    // A mute: b's chat is refused, with until when.
    EXPECT_EQ(modCode(m, {{"type", "moderate"}, {"action", "mute"}, {"player", b.id()}}),
              "bad_message");  // no minutes
    EXPECT_EQ(modCode(m, {{"type", "moderate"},
                          {"action", "mute"},
                          {"player", b.id()},
                          {"minutes", 15},
                          {"text", "insults"}}),
              "ack");
    Json muted = b.request({{"type", "chat"}, {"game", g}, {"text", "still here"}});
    EXPECT_EQ(muted["code"], "muted") << muted;
    EXPECT_EQ(muted["message"].get<std::string>().rfind("you are muted until ", 0), 0u) << muted;
    EXPECT_TRUE(modLinesHeard(a, g).empty());
    EXPECT_EQ(modCode(m, {{"type", "moderate"}, {"action", "unmute"}, {"player", b.id()}}), "ack");
    EXPECT_EQ(modCode(b, {{"type", "chat"}, {"game", g}, {"text", "sorry"}}), "ack");
    // The report closed once.
    const Json close{{"type", "moderate"}, {"action", "close_report"}, {"report", report["id"]}};
    EXPECT_EQ(modCode(m, close), "ack");
    EXPECT_EQ(modCode(m, close), "bad_message");
    // Every action in the log, newest first, with who did it.
    const std::string log = modAdmin(server, "log");
    for (const char* line : {"okabe close_report", "okabe unmute", "okabe mute",
                             "operator grant moderator okabe: trusted"})
        EXPECT_NE(log.find(line), std::string::npos) << line << "\n" << log;
    EXPECT_LT(log.find("okabe close_report"), log.find("okabe mute"));
}

TEST(Moderation, ABannedAccountCannotLogIn) {
    ServerProcess server(dbPath("ban"));
    {
        Player b(server.port());
        ASSERT_EQ(
            b.request(
                {{"type", "register"}, {"username", "mayuri"}, {"password", "tuturu123"}})["type"],
            "ack");
    }
    EXPECT_EQ(modAdmin(server, "ban mayuri --reason abuse"), "mayuri is banned\n");
    WsClient ws(server.port());
    Json refused = loginFirst(ws, "mayuri", "tuturu123");
    EXPECT_EQ(refused["code"], "banned") << refused;
    EXPECT_EQ(refused["message"], "this account is banned");
    // A wrong password says no more than for anyone.
    WsClient other(server.port());
    EXPECT_EQ(loginFirst(other, "mayuri", "wrong password")["code"], "bad_credentials");
    EXPECT_EQ(modAdmin(server, "unban mayuri"), "mayuri is no longer banned\n");
    WsClient again(server.port());
    EXPECT_EQ(loginFirst(again, "mayuri", "tuturu123")["type"], "welcome");
}

TEST(Moderation, TheWordFilterAndSpectatorChatOffRefuseLines) {
    const std::string words = dbPath("words") + ".txt";
    std::ofstream(words) << "# the operator's list\nbaka\ndamn it\n";
    ServerProcess server(dbPath("filter"), {"--chat-filter", words, "--spectator-chat", "off"});
    Player a(server.port()), b(server.port()), s(server.port());
    const std::string g = startGame(a, b);
    snapshotOf(s, g);
    Json r = a.request({{"type", "chat"}, {"game", g}, {"text", "you BAKA!"}});
    EXPECT_EQ(r["code"], "chat_refused");
    EXPECT_EQ(r["message"], "this line holds a word the server does not allow; it was not sent");
    EXPECT_EQ(modCode(a, {{"type", "chat"}, {"game", g}, {"text", "Damn  it"}}), "ack")
        << "a phrase matches as written";
    EXPECT_EQ(modCode(a, {{"type", "chat"}, {"game", g}, {"text", "damn it"}}), "chat_refused");
    EXPECT_EQ(modCode(a, {{"type", "chat"}, {"game", g}, {"text", "bakari is a name"}}), "ack");
    r = s.request({{"type", "chat"}, {"game", g}, {"text", "hello"}});
    EXPECT_EQ(r["code"], "chat_refused");
    EXPECT_EQ(r["message"], "spectator chat is off on this server");
    EXPECT_EQ(modLinesHeard(b, g), (std::vector<std::string>{"Damn  it", "bakari is a name"}));
    std::remove(words.c_str());
}

}  // namespace
}  // namespace rainet::test
