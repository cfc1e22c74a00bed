// Rendering for the terminal: the board from a view string (own side at the bottom, `?` for
// identities the recipient may not see), seats, clocks, stacks, terminal cards, and the end.
#include <gtest/gtest.h>

#include "cli/play_render.h"
#include "core/view.h"

namespace rainet::cli::play {
namespace {

constexpr const char* kSide2Start = "lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0";

GameState playing(const std::string& you, const std::string& view) {
    GameState s;
    s.game = "g1";
    s.v = 4;
    s.you = you;
    s.status = "playing";
    s.view = view;
    s.seats[0] = Seat{"p1", "alice", true, false};
    s.seats[1] = Seat{"p2", "bob", false, false};
    return s;
}

TEST(PlayRender, Side2SeesItsHomeAtTheBottomAndOpponentCardsHidden) {
    auto v = View::parse(kSide2Start, Viewer::Side2);
    ASSERT_TRUE(v.ok()) << v.error().message;
    EXPECT_EQ(renderBoard(v->fields(), Side::Two, false),
              "   h    g    f    e    d    c    b    a\n"
              "1  1?   1?   1?   []   []   1?   1?   1?   1\n"
              "2  .    .    .    1?   1?   .    .    .    2\n"
              "3  .    .    .    .    .    .    .    .    3\n"
              "4  .    .    .    .    .    .    .    .    4\n"
              "5  .    .    .    .    .    .    .    .    5\n"
              "6  .    .    .    .    .    .    .    .    6\n"
              "7  .    .    .    2V   2L   .    .    .    7\n"
              "8  2V   2V   2V   []   []   2L   2L   2L   8\n"
              "   h    g    f    e    d    c    b    a\n");
}

TEST(PlayRender, Side1AndSpectatorsSeeSide1AtTheBottom) {
    auto p = Position::parse("lll2vvv/3l4/4v3/8/8/3L+4/4VF2/LLL2VVV 2 CNcn -/- 3 3");
    ASSERT_TRUE(p.ok()) << p.error().message;
    const std::string board =
        renderBoard(View::of(*p, Viewer::Spectator).fields(), Side::One, false);
    EXPECT_EQ(board,
              "   a    b    c    d    e    f    g    h\n"
              "8  2?   2?   2?   []   []   2?   2?   2?   8\n"
              "7  .    .    .    2?   .    .    .    .    7\n"
              "6  .    .    .    .    2?   .    .    .    6\n"
              "5  .    .    .    .    .    .    .    .    5\n"
              "4  .    .    .    .    .    .    .    .    4\n"
              "3  .    .    .    1?+  .    .    .    .    3\n"
              "2  .    .    .    .    1?   F1   .    .    2\n"
              "1  1?   1?   1?   []   []   1?   1?   1?   1\n"
              "   a    b    c    d    e    f    g    h\n");
    // The spectator's board names no identity at all.
    EXPECT_EQ(board.find('L'), std::string::npos);
    EXPECT_EQ(board.find('V'), std::string::npos);
}

TEST(PlayRender, GameShowsSeatsStacksCardsAndTheMover) {
    GameState s = playing("2", kSide2Start);
    s.history.push_back({0, "1", "d2-d3", ""});
    const std::string text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("game g1  standard  you are side 2  playing  ply 0  no progress 0\n"),
              std::string::npos)
        << text;
    // Side 1 (the opponent) above the board, side 2 (you) below it.
    const auto top = text.find(
        "side 1  alice  stack 0 links 0 viruses  LB in hand, FW in hand, "
        "VC unused, NF unused");
    const auto bottom = text.find("side 2  bob (you)  stack 0 links 0 viruses");
    const auto board = text.find("   h    g");
    ASSERT_NE(top, std::string::npos) << text;
    ASSERT_NE(bottom, std::string::npos) << text;
    EXPECT_LT(top, board);
    EXPECT_LT(board, bottom);
    EXPECT_NE(text.find("last: side 1 played d2-d3\n"), std::string::npos);
    EXPECT_NE(text.find("side 1 to move\n"), std::string::npos);
    EXPECT_EQ(text.find("your move"), std::string::npos);
    EXPECT_EQ(text.find("\x1b["), std::string::npos);  // no colour unless asked
}

TEST(PlayRender, OpponentAwayClocksOffersAndYourMove) {
    GameState s = playing("1", "xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0");
    s.legal = {"d2-d3", "e2-e3"};
    s.initialCs = 30000;
    s.incrementCs = 200;
    Clocks c;
    c.cs[0] = 29850;
    c.cs[1] = 950;
    c.running = "1";
    s.clocks = c;
    s.drawOffer = std::string(1, '2');
    RenderOptions o;
    o.now = c.received + std::chrono::milliseconds(1500);  // 1.5 s of side 1's turn
    const std::string text = renderGame(s, o);
    EXPECT_NE(text.find("clock 5:00+2s"), std::string::npos) << text;
    EXPECT_NE(text.find("side 1  alice (you)  clock 4:57 *"), std::string::npos) << text;
    EXPECT_NE(text.find("side 2  bob (away)  clock 0:09.5  stack"), std::string::npos) << text;
    EXPECT_NE(text.find("your move: 2 legal actions"), std::string::npos);
    EXPECT_NE(text.find("draw offered by side 2: accept or decline"), std::string::npos);
    EXPECT_EQ(renderLegal(s), "legal (2): d2-d3 e2-e3\n");
    EXPECT_NE(renderGame(s, RenderOptions{true, o.now}).find("\x1b["), std::string::npos);
}

TEST(PlayRender, StacksAndTerminalCardsInUse) {
    // Side 1 captured a link of side 2 (after its VC showed it), has LB on d3 and FW on f2.
    auto p = Position::parse("ll3vvv/3l4/4v3/8/8/3L+4/4VF2/LLL2VVV 1 Ncn l/- 0 8");
    ASSERT_TRUE(p.ok()) << p.error().message;
    GameState s = playing("2", View::of(*p, Viewer::Side2).toString());
    const std::string text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("side 1  alice  stack 1 link 0 viruses  LB on d3, FW on f2, VC used, "
                        "NF unused"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("side 2  bob (you)  stack 0 links 0 viruses  LB in hand, FW in hand, "
                        "VC unused, NF unused"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("3  .    .    .    .    1?+  .    .    .    3"), std::string::npos);
}

TEST(PlayRender, EndRevealsEveryIdentity) {
    GameState s = playing("spectator", "xxx2xxx/3xx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0");
    s.status = "finished";
    Ending e;
    e.result = "0-1";
    e.winner = "2";
    e.reason = "resign";
    e.position = "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0";
    e.setups[0] = {"a1", "b1", "c1", "d2"};
    e.setups[1] = {"a8", "b8", "c8", "d7"};
    s.ending = e;
    const std::string text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("8  2L   2L   2L   []   []   2V   2V   2V   8"), std::string::npos) << text;
    EXPECT_NE(text.find("1  1L   1L   1L   []   []   1V   1V   1V   1"), std::string::npos);
    EXPECT_EQ(text.find('?'), std::string::npos);
    EXPECT_NE(text.find("game over: 0-1, side 2 wins by resignation\n"), std::string::npos);
    EXPECT_NE(text.find("side 1's links were on a1 b1 c1 d2\n"), std::string::npos);
}

TEST(PlayRender, ClockFormat) {
    EXPECT_EQ(formatClock(30000), "5:00");
    EXPECT_EQ(formatClock(6150), "1:01");
    EXPECT_EQ(formatClock(999), "0:09.9");
    EXPECT_EQ(formatClock(-5), "0:00.0");
}

}  // namespace
}  // namespace rainet::cli::play
