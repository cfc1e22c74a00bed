// `rainet play --local`: the in-process referee (LocalGame) and the hand-over loop (runLocal) read
// from a script. The process-level test through stdin is in tests/play (Play.LocalGame*).
#include "client/play_local.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/view.h"

namespace rainet::client::play {
namespace {

constexpr std::uint8_t kLinks = 0b01000111;  // a1 b1 c1 d2 for side 1 (setup-square order)

LocalGame started() {
    LocalGame g(Rules::standard(), {"Alice", "Bob"});
    EXPECT_FALSE(g.setUp(Side::One, kLinks));
    EXPECT_FALSE(g.setUp(Side::Two, 0b11110000));
    return g;
}

TEST(LocalGame, SetupsComeSideOneThenSideTwoAndBadOnesChangeNothing) {
    LocalGame g(Rules::standard(), {"Alice", "Bob"});
    EXPECT_EQ(g.due(), Side::One);
    EXPECT_TRUE(g.setUp(Side::One, 0b111));  // three links
    EXPECT_EQ(g.due(), Side::One);
    EXPECT_FALSE(g.setUp(Side::One, kLinks));
    EXPECT_TRUE(g.setUp(Side::One, kLinks));  // twice
    EXPECT_EQ(g.due(), Side::Two);
    EXPECT_EQ(g.stateFor(Viewer::Side2).status, "setup");
    EXPECT_TRUE(g.stateFor(Viewer::Side2).links.empty()) << "side 1's links are not side 2's";
    EXPECT_EQ(g.stateFor(Viewer::Side1).links, (std::vector<std::string>{"a1", "b1", "c1", "d2"}));
    EXPECT_TRUE(g.act("a1-a2")) << "no action before both setups";
    EXPECT_FALSE(g.setUp(Side::Two, 0b11110000));
    EXPECT_EQ(g.due(), Side::One);
    EXPECT_EQ(g.stateFor(Viewer::Side1).status, "playing");
    EXPECT_TRUE(g.setUp(Side::Two, 0b11110000)) << "the setup is over";
}

TEST(LocalGame, EachSideSeesItsOwnViewAndOnlyTheSideToMoveHasLegalActions) {
    LocalGame g = started();
    const GameState one = g.stateFor(Viewer::Side1), two = g.stateFor(Viewer::Side2);
    EXPECT_FALSE(one.legal.empty());
    EXPECT_TRUE(two.legal.empty());
    // The views parse for their viewers only: each hides the other side's identities.
    EXPECT_TRUE(View::parse(one.view, Viewer::Side1));
    EXPECT_TRUE(View::parse(two.view, Viewer::Side2));
    EXPECT_FALSE(View::parse(one.view, Viewer::Side2)) << "side 1's view names its identities";
    EXPECT_NE(one.view, two.view);
    EXPECT_EQ(two.view.find('L'), std::string::npos)
        << "side 2 sees no link of side 1: " << two.view;
    EXPECT_TRUE(g.act("h8-h7")) << "not side 1's card";
    EXPECT_TRUE(g.act("nonsense"));
    EXPECT_EQ(g.stateFor(Viewer::Side1).v, 0) << "a refused action changes nothing";
    EXPECT_FALSE(g.act("a1-a2"));
    EXPECT_EQ(g.due(), Side::Two);
    EXPECT_TRUE(g.stateFor(Viewer::Side1).legal.empty());
    EXPECT_FALSE(g.stateFor(Viewer::Side2).legal.empty());
}

TEST(LocalGame, AnOpponentsNotFoundIsShownWithoutItsSwapBit) {
    LocalGame g = started();
    ASSERT_FALSE(g.act("NF+a1b1:swap"));
    EXPECT_EQ(g.stateFor(Viewer::Side1).history.back().action, "NF+a1b1:swap");
    EXPECT_EQ(g.stateFor(Viewer::Side2).history.back().action, "NF+a1b1");
    EXPECT_EQ(g.stateFor(Viewer::Spectator).history.back().action, "NF+a1b1");
}

TEST(LocalGame, RandomGamesEndWithTheResultOfTheRules) {
    std::mt19937 rng(11);
    for (int game = 0; game < 20; ++game) {
        LocalGame g = started();
        Position ref = *Position::fromSetups(kLinks, 0b11110000);
        for (int ply = 0; !g.over(); ++ply) {
            ASSERT_LT(ply, 2000);
            const Side side = *g.due();
            const GameState s = g.stateFor(viewerOf(side));
            ASSERT_FALSE(s.legal.empty());
            const std::string a = s.legal[rng() % s.legal.size()];
            ASSERT_FALSE(g.act(a)) << a;
            ref.doAction(*parseAction(a));
        }
        const GameState end = g.stateFor(Viewer::Spectator);
        ASSERT_TRUE(end.ending);
        const Ending& e = *end.ending;
        EXPECT_EQ(e.position, ref.toString());
        switch (ref.outcome()) {
            case Outcome::Side1Wins:
                EXPECT_EQ(e.result, "1-0");
                EXPECT_EQ(g.resultLine(), "Alice (side 1): won, Bob (side 2): lost");
                break;
            case Outcome::Side2Wins:
                EXPECT_EQ(e.result, "0-1");
                EXPECT_EQ(g.resultLine(), "Alice (side 1): lost, Bob (side 2): won");
                break;
            default:
                EXPECT_EQ(e.result, "1/2-1/2");
                EXPECT_EQ(g.resultLine(), "Alice (side 1): draw, Bob (side 2): draw");
        }
        EXPECT_EQ(e.setups[0], (std::vector<std::string>{"a1", "b1", "c1", "d2"}));
        EXPECT_FALSE(g.due());
    }
}

TEST(LocalGame, ResignationEndsTheGameForTheOtherSide) {
    LocalGame g = started();
    g.resign(Side::One);
    ASSERT_TRUE(g.over());
    EXPECT_EQ(g.stateFor(Viewer::Side2).ending->reason, "resign");
    EXPECT_EQ(g.resultLine(), "Alice (side 1): lost, Bob (side 2): won");
    EXPECT_TRUE(g.act("a1-a2"));
}

// The text of `out` between hand-overs: each part starts right after a screen clear.
std::vector<std::string> screens(const std::string& out) {
    std::vector<std::string> parts;
    const std::string clear = kClearScreen;
    std::size_t at = 0;
    for (auto p = out.find(clear); p != std::string::npos; p = out.find(clear, at)) {
        parts.push_back(out.substr(at, p - at));
        at = p + clear.size();
    }
    parts.push_back(out.substr(at));
    return parts;
}

TEST(RunLocal, EveryHandOverIsAloneOnACleanScreenAndEachBoardIsItsSidesOwn) {
    LocalOptions o;
    o.names = {"Alice", "Bob"};
    o.seed = 3;
    std::istringstream in(
        "\nsetup random\n"       // Alice's setup
        "\nsetup a1 b1 c1 d2\n"  // Bob: side 1's squares, then a good setup
        "setup a8 b8 c8 d7\n"
        "\nlegal\na1-a2\n"  // Alice's first turn (whatever her setup, a1 holds a card)
        "\nh8-h7\n"         // Bob
        "\nresign\n");
    std::ostringstream out;
    EXPECT_EQ(runLocal(in, out, o), 0);
    const std::vector<std::string> parts = screens(out.str());
    int handovers = 0, boards = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        if (p.starts_with("Pass to ")) {
            ++handovers;
            // Nothing but the prompt: the next board is drawn only after the next clear.
            EXPECT_EQ(p.find('\n'), std::string::npos) << p;
            ASSERT_LT(i + 1, parts.size());
            const bool alice = p.starts_with("Pass to Alice (side 1)");
            EXPECT_TRUE(alice || p.starts_with("Pass to Bob (side 2)")) << p;
            EXPECT_TRUE(
                parts[i + 1].starts_with(alice ? "game local  standard  casual  you are side 1"
                                               : "game local  standard  casual  you are side 2"))
                << parts[i + 1];
        } else if (p.starts_with("game local")) {
            ++boards;
            // Side N's board shows the other side's cards as "?" (no cell such as "2L" for side 1).
            const char other = p.find("you are side 1") != std::string::npos ? '2' : '1';
            if (p.find("game over") == std::string::npos) {
                EXPECT_EQ(p.find(std::string(1, other) + "L"), std::string::npos) << p;
                EXPECT_EQ(p.find(std::string(1, other) + "V"), std::string::npos) << p;
            }
        }
    }
    EXPECT_EQ(handovers, 5);  // two setups, three turns
    EXPECT_EQ(boards, 5);
    EXPECT_NE(out.str().find("links go on four different setup squares of side 2"),
              std::string::npos);
    EXPECT_NE(out.str().find("legal ("), std::string::npos);
    EXPECT_NE(out.str().find("game local  standard  casual  pass and play  finished"),
              std::string::npos);
    EXPECT_NE(out.str().find("game over: 0-1, side 2 wins by resignation"), std::string::npos);
    EXPECT_NE(out.str().find("Alice (side 1): lost, Bob (side 2): won"), std::string::npos);
    EXPECT_NE(out.str().find("side 2's links were on a8 b8 c8 d7"), std::string::npos);
}

TEST(RunLocal, InputEndingLeavesTheGameAndSaysSo) {
    LocalOptions o;
    std::istringstream in("\nsetup random\n");
    std::ostringstream out;
    EXPECT_EQ(runLocal(in, out, o), 0);
    EXPECT_NE(out.str().find("Pass to player 2 (side 2) for the setup, press Enter"),
              std::string::npos);
    EXPECT_NE(out.str().find("the local game is left unfinished"), std::string::npos);
}

TEST(RunLocal, CommandsOfAServerGameAreRefused) {
    LocalOptions o;
    std::istringstream in("\nnew computer 1\nquit\n");
    std::ostringstream out;
    EXPECT_EQ(runLocal(in, out, o), 0);
    EXPECT_NE(out.str().find("not in a local game (help lists the commands)"), std::string::npos);
}

}  // namespace
}  // namespace rainet::client::play
