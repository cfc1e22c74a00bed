// Rendering for the terminal: the board from a view string (own side at the bottom, `?` for
// identities the recipient may not see), seats, clocks, stacks, terminal cards, and the end.
#include <gtest/gtest.h>

#include "client/play_render.h"
#include "core/view.h"

namespace rainet::client::play {
namespace {

constexpr const char* kSide2Start = "lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0";

GameState playing(const std::string& you, const std::string& view) {
    GameState s;
    s.game = "g1";
    s.v = 4;
    s.you = you;
    s.status = "playing";
    s.view = view;
    s.seats[0] = Seat{"p1", "alice", true, false, std::nullopt};
    s.seats[1] = Seat{"p2", "bob", false, false, std::nullopt};
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

TEST(PlayRender, RatingsInSeatLinesAndRatedInTheHeader) {
    GameState s = playing("2", kSide2Start);
    s.rated = true;
    s.seats[0]->rating = 1500;
    s.seats[1]->rating = 1612;
    std::string text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("game g1  standard  rated  you are side 2  playing"), std::string::npos)
        << text;
    EXPECT_NE(text.find("side 1  alice (1500)  stack"), std::string::npos) << text;
    EXPECT_NE(text.find("side 2  bob (1612) (you)  stack"), std::string::npos) << text;
    s.rated = false;
    s.seats[0]->rating.reset();  // the computer has none
    text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("game g1  standard  casual  you are side 2"), std::string::npos) << text;
    EXPECT_NE(text.find("side 1  alice  stack"), std::string::npos) << text;
}

// A bot account (rated, flagged bot) is marked "(bot)", and "(away)" still shows when it has no
// connection; the server's computer (flagged bot, no rating) is never marked away.
TEST(PlayRender, BotAccountsAreMarkedAndTheComputerIsNot) {
    GameState s = playing("2", kSide2Start);
    s.seats[0]->rating = 1500;
    s.seats[0]->bot = true;
    std::string text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("side 1  alice (1500) (bot)  stack"), std::string::npos) << text;
    s.seats[0]->connected = false;
    text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("side 1  alice (1500) (bot) (away)  stack"), std::string::npos) << text;
    s.seats[0]->rating.reset();
    s.seats[0]->name = "computer (level 2)";
    text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("side 1  computer (level 2)  stack"), std::string::npos) << text;
}

TEST(PlayRender, RatingChangeAtTheEndOfARatedGame) {
    GameState s = playing("1", "xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0");
    s.status = "finished";
    s.rated = true;
    Ending e;
    e.result = "1-0";
    e.winner = "1";
    e.reason = "four_links";
    e.ratings[0] = Ending::RatingChange{1500, 1662};
    e.ratings[1] = Ending::RatingChange{1612, 1540};
    s.ending = e;
    const std::string text = renderGame(s, RenderOptions{});
    EXPECT_NE(text.find("ratings: side 1 alice (you) 1500 -> 1662 (+162), side 2 bob 1612 -> "
                        "1540 (-72)\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(ratingDelta(1500, 1500), "±0");
    s.ending->ratings[0].reset();  // a casual or aborted game has none
    s.ending->ratings[1].reset();
    EXPECT_EQ(renderGame(s, RenderOptions{}).find("ratings:"), std::string::npos);
}

TEST(PlayRender, ChatLines) {
    ChatLine c;
    c.channel = "players";
    c.fromName = "alice";
    c.side = "1";
    c.text = "good luck, have fun";
    EXPECT_EQ(renderChat(c), "[players] alice: good luck, have fun");
    c.channel = "spectators";
    c.fromName = "bob";
    c.text = "nice";
    EXPECT_EQ(renderChat(c), "[spectators] bob: nice");
    c.fromName.clear();
    c.fromId = "p7";
    EXPECT_EQ(renderChat(c), "[spectators] p7: nice");
}

TEST(PlayRender, LobbyListsGamesThenSeeks) {
    const Json lobby = Json::parse(R"({"type":"lobby","games":[
      {"game":"gK3P9QX2","preset":"standard","clock":{"initial":30000,"increment":200},
       "creator":{"id":"p4XQ2","name":"alice","rating":1500},"side":"random","rated":true},
      {"game":"g7","preset":"official","clock":null,
       "creator":{"id":"p9","name":"bob"},"side":"2","rated":false}],
      "seeks":[{"preset":"standard","clock":null,"rated":true,"players":1},
               {"preset":"official","clock":{"initial":18000,"increment":200},"rated":false,
                "players":2}]})");
    EXPECT_EQ(renderLobby(lobby),
              "open games (join GAME):\n"
              "  gK3P9QX2  standard, clock 5:00+2s, rated  by alice (1500)  creator's side random\n"
              "  g7  official, no clock, casual  by bob  creator's side 2\n"
              "seeks waiting (seek the same to be paired):\n"
              "  standard, no clock, rated  1 player\n"
              "  official, clock 3:00+2s, casual  2 players\n");
    EXPECT_EQ(renderLobby(Json::parse(R"({"type":"lobby","games":[],"seeks":[]})")),
              "no open games (new open creates one)\n");
    // A server before seeks sends none: only the games.
    EXPECT_EQ(renderLobby(Json::parse(R"({"type":"lobby","games":[]})")),
              "no open games (new open creates one)\n");
}

}  // namespace
}  // namespace rainet::client::play
