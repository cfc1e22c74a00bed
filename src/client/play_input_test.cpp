// Reading what is typed at the `rainet play` prompt: every command, and bad input with a clear
// message (nothing is sent for it).
#include <gtest/gtest.h>

#include "client/play_input.h"

namespace rainet::client::play {
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
    in = ok("new invite clock 14d");  // days per move
    EXPECT_EQ(in.game.initialCs, 14 * kDayCs);
    EXPECT_EQ(in.game.incrementCs, kDaysPerMove);
}

TEST(PlayInput, NewRejectsBadOptions) {
    EXPECT_EQ(bad("new computer 9"), "the computer's level is 1 to 5, not 9");
    EXPECT_EQ(bad("new side 3"), "side is 1, 2 or random, not '3'");
    EXPECT_EQ(bad("new side"), "side needs 1, 2 or random");
    EXPECT_EQ(bad("new clock 5"), "'5' is not a clock: write MIN+INC, e.g. 5+3, or Nd, e.g. 3d");
    EXPECT_EQ(bad("new clock 61+0"), "the clock's minutes are more than 0, at most 60");
    EXPECT_EQ(bad("new clock 5+61"), "the clock's increment is 0 to 60 seconds");
    EXPECT_EQ(bad("new clock 4d"), "days per move are 1, 2, 3, 5, 7 or 14");
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

TEST(PlayInput, NewRatedOrCasual) {
    EXPECT_FALSE(ok("new").game.rated);
    EXPECT_EQ(ok("new rated").game.rated, true);
    EXPECT_EQ(ok("new invite casual clock 3+2").game.rated, false);
    EXPECT_NE(bad("new unrated").find("[rated|casual]"), std::string::npos);
}

TEST(PlayInput, AccountCommands) {
    Input in = ok("register Alice_9");
    EXPECT_EQ(in.kind, K::Register);
    EXPECT_EQ(in.username, "Alice_9");
    in = ok("login alice");
    EXPECT_EQ(in.kind, K::Login);
    EXPECT_EQ(in.username, "alice");
    EXPECT_EQ(ok("logout").kind, K::Logout);
    EXPECT_EQ(ok("whoami").kind, K::Whoami);
    // The password is never on the command line: it is the next line.
    EXPECT_EQ(bad("login alice secret"),
              "login needs a username, e.g. login alice (the password is asked for next)");
    EXPECT_EQ(bad("register"),
              "register needs a username, e.g. register alice (the password is asked for next)");
    EXPECT_EQ(bad("register al"), "'al' is not a username: 3 to 24 letters, digits, '_' or '-'");
    EXPECT_EQ(bad("register al.ice"),
              "'al.ice' is not a username: 3 to 24 letters, digits, '_' or '-'");
    EXPECT_EQ(bad(std::string("login ").append(25, 'a')).find("is not a username"), 28u);
    EXPECT_EQ(bad("whoami now"), "whoami takes no arguments");
}

TEST(PlayInput, RenameTakesTheRestOfTheLine) {
    Input in = ok("name  Okabe Rintaro ");
    EXPECT_EQ(in.kind, K::Rename);
    EXPECT_EQ(in.text, "Okabe Rintaro");
    EXPECT_EQ(bad("name"), "name needs the new name, e.g. name Okabe");
}

TEST(PlayInput, SayAndItsShorthand) {
    Input in = ok("say  good luck,  have fun ");
    EXPECT_EQ(in.kind, K::Say);
    EXPECT_EQ(in.text, "good luck,  have fun");  // inner spaces kept, the ends trimmed
    in = ok("  'gg");
    EXPECT_EQ(in.kind, K::Say);
    EXPECT_EQ(in.text, "gg");
    EXPECT_EQ(ok("'  it's a trap").text, "it's a trap");
    EXPECT_EQ(bad("say"), "nothing to say: say TEXT");
    EXPECT_EQ(bad("say    "), "nothing to say: say TEXT");
    EXPECT_EQ(bad("'"), "nothing to say: say TEXT");
    EXPECT_EQ(bad("say a\x01b"), "a chat line cannot hold control characters");
}

TEST(PlayInput, ChatLengthInCodePoints) {
    EXPECT_EQ(ok(std::string("say ").append(300, 'x')).text.size(), 300u);
    EXPECT_EQ(bad(std::string("say ").append(301, 'x')),
              "a chat line is at most 300 characters, not 301; nothing was sent");
    // 300 two-byte characters are 300 characters, not 600.
    std::string e;
    for (int i = 0; i < 300; ++i) e += "\xc3\xa9";
    EXPECT_EQ(ok("say " + e).text, e);
    EXPECT_FALSE(checkChat(e + "\xc3\xa9").ok());
}

TEST(PlayInput, SeekWithDefaultsAndEveryOption) {
    Input in = ok("seek");
    EXPECT_EQ(in.kind, K::Seek);
    EXPECT_EQ(in.seek.preset, "standard");
    EXPECT_FALSE(in.seek.initialCs);
    EXPECT_FALSE(in.seek.rated);
    in = ok("seek Official clock 3+2 casual");
    EXPECT_EQ(in.seek.preset, "official");
    EXPECT_EQ(in.seek.initialCs, 18000);
    EXPECT_EQ(in.seek.incrementCs, 200);
    EXPECT_EQ(in.seek.rated, false);
    EXPECT_EQ(ok("seek rated").seek.rated, true);
    EXPECT_FALSE(ok("seek clock 3+2 clock none").seek.initialCs);
    EXPECT_EQ(ok("unseek").kind, K::Unseek);
    EXPECT_EQ(bad("seek computer"),
              "seek: unexpected 'computer' (seek [standard|official] [clock MIN+INC|none] "
              "[rated|casual])");
    EXPECT_EQ(bad("seek clock"), "clock needs MIN+INC (e.g. 5+3) or none");
    EXPECT_EQ(bad("seek clock 5"), "'5' is not a clock: write MIN+INC, e.g. 5+3, or Nd, e.g. 3d");
    EXPECT_EQ(bad("unseek now"), "unseek takes no arguments");
}

}  // namespace
}  // namespace rainet::client::play
