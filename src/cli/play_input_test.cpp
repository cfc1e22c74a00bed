// Reading what is typed at the `rainet play` prompt: every command, and bad input with a clear
// message (nothing is sent for it).
#include <gtest/gtest.h>

#include "cli/play_input.h"

namespace rainet::cli::play {
namespace {

using K = Input::Kind;

Input ok(const std::string& line) {
    auto r = parseInput(line);
    EXPECT_TRUE(r.ok()) << line << ": " << (r ? "" : r.error().message);
    return r ? *r : Input{};
}

std::string bad(const std::string& line) {
    auto r = parseInput(line);
    EXPECT_FALSE(r.ok()) << line;
    return r ? "" : r.error().message;
}

TEST(PlayInput, SimpleCommands) {
    EXPECT_EQ(ok("").kind, K::Empty);
    EXPECT_EQ(ok("   ").kind, K::Empty);
    EXPECT_EQ(ok("help").kind, K::Help);
    EXPECT_EQ(ok("quit").kind, K::Quit);
    EXPECT_EQ(ok("lobby").kind, K::Lobby);
    EXPECT_EQ(ok("legal").kind, K::Legal);
    EXPECT_EQ(ok("board").kind, K::Board);
    EXPECT_EQ(ok("history").kind, K::History);
    EXPECT_EQ(ok("wait").kind, K::Wait);
    EXPECT_EQ(ok("resign").kind, K::Resign);
    EXPECT_EQ(ok("draw").kind, K::Draw);
    EXPECT_EQ(ok("accept").kind, K::Accept);
    EXPECT_EQ(ok("decline").kind, K::Decline);
    EXPECT_EQ(ok("rematch").kind, K::Rematch);
    EXPECT_EQ(ok("claim").kind, K::Claim);
    EXPECT_EQ(ok("  ABORT ").kind, K::Abort);
    EXPECT_EQ(bad("resign now"), "resign takes no arguments");
}

TEST(PlayInput, NewWithDefaultsAndEveryOption) {
    Input in = ok("new");
    EXPECT_EQ(in.kind, K::New);
    EXPECT_EQ(in.game.opponent, "open");
    EXPECT_EQ(in.game.preset, "standard");
    EXPECT_EQ(in.game.side, "random");
    EXPECT_FALSE(in.game.initialCs);

    in = ok("new computer 3 official side 2 clock 5+3");
    EXPECT_EQ(in.game.opponent, "computer");
    EXPECT_EQ(in.game.level, 3);
    EXPECT_EQ(in.game.preset, "official");
    EXPECT_EQ(in.game.side, "2");
    EXPECT_EQ(in.game.initialCs, 30000);
    EXPECT_EQ(in.game.incrementCs, 300);

    in = ok("new computer invite");  // the last opponent word wins; the level stays 1
    EXPECT_EQ(in.game.opponent, "invite");
    EXPECT_EQ(ok("new computer").game.level, 1);
    EXPECT_EQ(ok("new clock 0.5+0").game.initialCs, 3000);
    EXPECT_FALSE(ok("new clock 5+3 clock none").game.initialCs);
}

TEST(PlayInput, NewRejectsBadOptions) {
    EXPECT_EQ(bad("new computer 9"), "the computer's level is 1 to 5, not 9");
    EXPECT_EQ(bad("new side 3"), "side is 1, 2 or random, not '3'");
    EXPECT_EQ(bad("new side"), "side needs 1, 2 or random");
    EXPECT_EQ(bad("new clock 5"), "'5' is not a clock: write MIN+INC, e.g. 5+3");
    EXPECT_EQ(bad("new clock 61+0"), "the clock's minutes are more than 0, at most 60");
    EXPECT_EQ(bad("new clock 5+61"), "the clock's increment is 0 to 60 seconds");
    EXPECT_NE(bad("new blitz").find("new: unexpected 'blitz'"), std::string::npos);
}

TEST(PlayInput, JoinAndWatchTakeGameIdsOrLinks) {
    Input in = ok("join gK3P9QX2");
    EXPECT_EQ(in.kind, K::Join);
    EXPECT_EQ(in.gameId, "gK3P9QX2");
    EXPECT_EQ(ok("join").gameId, "");  // the game shown
    in = ok("watch http://127.0.0.1:8080/game/g12");
    EXPECT_EQ(in.kind, K::Watch);
    EXPECT_EQ(in.gameId, "g12");
    EXPECT_EQ(bad("watch"), "watch needs one game id, e.g. watch gK3P9QX2");
    EXPECT_EQ(bad("join x-1"), "'x-1' is not a game id (like gK3P9QX2)");
    EXPECT_EQ(bad("join g1 g2"), "join needs one game id, e.g. join gK3P9QX2");
}

TEST(PlayInput, Setup) {
    EXPECT_EQ(ok("setup random").kind, K::SetupRandom);
    Input in = ok("setup A1 b1 c1 d2");
    EXPECT_EQ(in.kind, K::SetupLinks);
    EXPECT_EQ(in.links, (std::vector<std::string>{"a1", "b1", "c1", "d2"}));
    EXPECT_EQ(bad("setup a1 b1 c1"),
              "setup needs 'random' or the four squares of your links, e.g. setup a1 b1 c1 d2");
    EXPECT_EQ(bad("setup a1 b1 c1 z9"), "'z9' is not a square (a1 to h8)");
    EXPECT_EQ(bad("setup a1 b1 c1 a1"), "square a1 is given twice");
}

TEST(PlayInput, ActionsInCanonicalNotation) {
    for (const char* a : {"d2-d3", "d8-srv", "LB+d2", "LB-d3", "FW+e5", "FW-e5", "VC+e7",
                          "NF+d2e2:swap", "NF+d2e2:keep"}) {
        Input in = ok(a);
        EXPECT_EQ(in.kind, K::Act);
        EXPECT_EQ(in.action, a);
    }
}

TEST(PlayInput, BadActionsAndUnknownWords) {
    EXPECT_EQ(bad("fly"), "unknown command 'fly' (type help for the list)");
    EXPECT_EQ(bad("d2 d3"), "unknown command 'd2' (type help for the list)");
    EXPECT_EQ(bad("d2-d9").rfind("'d2-d9' is not an action: ", 0), 0u) << bad("d2-d9");
    EXPECT_EQ(bad("NF+d2e2"), "say whether NF swaps: NF+d2e2:swap or NF+d2e2:keep");
    EXPECT_NE(bad("NF+e2d2:swap").find("ascending order"), std::string::npos);
    EXPECT_EQ(bad("XX+d2").rfind("'XX+d2' is not an action", 0), 0u);
}

TEST(PlayInput, ServerUrls) {
    auto u = parseServerUrl("ws://127.0.0.1:8080/ws");
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->host, "127.0.0.1");
    EXPECT_EQ(u->port, 8080);
    EXPECT_EQ(u->path, "/ws");
    u = parseServerUrl("ws://example.org");
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->port, 80);
    EXPECT_EQ(u->path, "/ws");
    EXPECT_FALSE(parseServerUrl("http://x:1/ws").ok());
    EXPECT_FALSE(parseServerUrl("ws://x:99999/ws").ok());
    EXPECT_FALSE(parseServerUrl("ws://:80/ws").ok());
}

}  // namespace
}  // namespace rainet::cli::play
