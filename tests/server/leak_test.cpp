// Hidden information: a scripted game is played with the same public actions but different hidden
// facts (arrangements, NF swap bits). What the opponent and a spectator receive must be
// byte-identical between the runs. The per-viewer logs of the base run are committed as golden
// transcripts (golden/*.jsonl) and compared here; RAINET_UPDATE_GOLDEN=1 rewrites them.
#include <gtest/gtest.h>

#include <unistd.h>
#include <fstream>
#include <sstream>

#include "players.h"

namespace rainet::test {
namespace {

struct Hidden {
    Json links1, links2;
    bool swap1, swap2;
};

struct Logs {
    std::vector<std::string> side1, side2, spectator;
};

Logs runScript(const Hidden& h, const std::string& name) {
    ServerProcess server("/tmp/rainet_leak_" + name + "_" + std::to_string(::getpid()) + ".db");
    Player a(server.port()), b(server.port()), s(server.port());
    std::vector<Player*> all = {&a, &b, &s};
    Json ack = a.request({{"type", "create"},
                          {"opponent", "invite"},
                          {"side", "1"},
                          {"clock", {{"initial", 6000}, {"increment", 100}}}});
    const std::string g = ack["game"];
    a.take([](const Json& j) { return j["type"] == "snapshot"; });
    s.ws().send(Json{{"type", "watch"}, {"game", g}});
    s.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    b.take([](const Json& j) { return j["type"] == "snapshot"; });
    auto sync = [&](Player& actor) {
        const long v = actor.game(g).v;
        for (Player* p : all) p->waitVersion(g, v);
    };
    sync(b);
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"links", h.links1}})["type"], "ack");
    a.waitVersion(g, a.game(g).v + 1);
    sync(a);
    EXPECT_EQ(b.request({{"type", "setup"}, {"game", g}, {"links", h.links2}})["type"], "ack");
    for (Player* p : all)
        p->take([](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    const std::vector<std::string> script = {
        "d2-d3", "e7-e6", h.swap1 ? "NF+b1c1:swap" : "NF+b1c1:keep",
        "VC+a1", "LB+d3", h.swap2 ? "NF+e6d7:swap" : "NF+e6d7:keep",
        "d3-d5", "FW+c5"};
    for (const std::string& action : script) {
        server.advance(100);
        Player& mover = a.game(g).legal.empty() ? b : a;
        const long v = mover.game(g).v;
        Json r = mover.request({{"type", "act"}, {"game", g}, {"action", action}, {"v", v}});
        EXPECT_EQ(r["type"], "ack") << action << ": " << r.dump();
        for (Player* p : all) p->waitVersion(g, v + 1);
    }
    EXPECT_EQ(a.request({{"type", "draw_offer"}, {"game", g}})["type"], "ack");
    for (Player* p : all) p->waitVersion(g, a.game(g).v);
    EXPECT_EQ(b.request({{"type", "draw_decline"}, {"game", g}})["type"], "ack");
    for (Player* p : all) p->waitVersion(g, b.game(g).v);
    // Synced with the room so that nothing it sent is missing; the snapshot answering the sync's
    // `watch` is the test's, not the game's, and stays out of the transcript.
    auto transcript = [&](Player& p) {
        p.sync(g);
        std::vector<std::string> log = p.ws().log();
        for (auto it = log.rbegin(); it != log.rend(); ++it)
            if (Json::parse(*it)["type"] == "snapshot") {
                log.erase(std::next(it).base());
                break;
            }
        return log;
    };
    return {transcript(a), transcript(b), transcript(s)};
}

std::string joinedLines(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

void checkGolden(const std::string& name, const std::vector<std::string>& log) {
    const char* src = std::getenv("RAINET_SOURCE_DIR");
    const std::string path = std::string(src ? src : RAINET_SOURCE_DIR_DEFAULT) +
                             "/tests/server/golden/" + name + ".jsonl";
    if (std::getenv("RAINET_UPDATE_GOLDEN")) {
        std::ofstream(path) << joinedLines(log);
        return;
    }
    std::ifstream in(path);
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(joinedLines(log), expected.str()) << "transcript " << path << " changed";
}

const Hidden kBase{{"a1", "b1", "c1", "d2"}, {"a8", "b8", "c8", "d7"}, true, true};
// Side 1's hidden facts differ (a1 stays a link: VC reveals it in both runs).
const Hidden kOther1{{"a1", "g1", "h1", "e2"}, {"a8", "b8", "c8", "d7"}, false, true};
// Side 2's hidden facts differ.
const Hidden kOther2{{"a1", "b1", "c1", "d2"}, {"f8", "g8", "h8", "e7"}, true, false};

TEST(Leak, OpponentAndSpectatorSeeNothingHidden) {
    const Logs base = runScript(kBase, "base");
    const Logs other1 = runScript(kOther1, "other1");
    const Logs other2 = runScript(kOther2, "other2");
    ASSERT_GT(base.spectator.size(), 15u);
    // What side 1 hides: side 2 and the spectator cannot tell the runs apart.
    EXPECT_EQ(joinedLines(other1.side2), joinedLines(base.side2));
    EXPECT_EQ(joinedLines(other1.spectator), joinedLines(base.spectator));
    // What side 2 hides: side 1 and the spectator cannot tell.
    EXPECT_EQ(joinedLines(other2.side1), joinedLines(base.side1));
    EXPECT_EQ(joinedLines(other2.spectator), joinedLines(base.spectator));
    // The owner does see its own facts (the test would be vacuous otherwise).
    EXPECT_NE(joinedLines(other1.side1), joinedLines(base.side1));
    EXPECT_NE(joinedLines(other2.side2), joinedLines(base.side2));
    checkGolden("side1", base.side1);
    checkGolden("side2", base.side2);
    checkGolden("spectator", base.spectator);
}

}  // namespace
}  // namespace rainet::test
