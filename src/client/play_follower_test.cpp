// Following a game from server messages: a snapshot replaces the state, events apply in version
// order, repeated versions are ignored, and a gap asks for one resume.
#include <gtest/gtest.h>

#include "client/play_follower.h"

namespace rainet::client::play {
namespace {

using O = GameFollower::Outcome;

Json snapshot() {
    return Json::parse(R"({"type":"snapshot","game":"g1","v":4,"you":"2","status":"playing",
      "preset":"standard","opponent":"open","level":null,
      "clock":{"initial":30000,"increment":200},"clocks":{"1":29850,"2":30000,"running":"1"},
      "players":{"1":{"id":"p1","name":"alice","connected":true,"bot":false},
                 "2":{"id":"p2","name":"bob","connected":true,"bot":false}},
      "setup":{"1":true,"2":true},"links":["a8","b8","c8","d7"],
      "view":"lll2xxx/3lx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0",
      "history":[],"legal":[],"draw_offer":null,"grace":6000,"result":null})");
}

Json action(long v, int ply, const std::string& side, const std::string& act,
            bool withLegal = false) {
    Json j{{"type", "event"},
           {"game", "g1"},
           {"v", v},
           {"kind", "action"},
           {"ply", ply},
           {"side", side},
           {"action", act},
           {"view", std::string("V").append(std::to_string(v))},
           {"clocks", nullptr},
           {"draw_offer", nullptr}};
    if (withLegal) j["legal"] = {"a8-a7", "b8-b7"};
    return j;
}

TEST(PlayFollower, SnapshotGivesTheWholeState) {
    GameFollower f("g1");
    EXPECT_EQ(f.take(snapshot()), O::Applied);
    const GameState& s = f.state();
    EXPECT_EQ(s.v, 4);
    EXPECT_EQ(s.you, "2");
    EXPECT_EQ(s.status, "playing");
    EXPECT_EQ(s.initialCs, 30000);
    ASSERT_TRUE(s.clocks);
    EXPECT_EQ(s.clocks->cs[0], 29850);
    EXPECT_EQ(s.clocks->running, "1");
    ASSERT_TRUE(s.seats[1]);
    EXPECT_EQ(s.seats[1]->name, "bob");
    EXPECT_EQ(s.links.size(), 4u);
    EXPECT_FALSE(s.myTurn());
    EXPECT_EQ(s.graceCs, 6000);
    EXPECT_FALSE(s.ending);
}

TEST(PlayFollower, EventsApplyInOrderAndDuplicatesAreIgnored) {
    GameFollower f("g1");
    f.take(snapshot());
    EXPECT_EQ(f.take(action(5, 0, "1", "d2-d3", true)), O::Applied);
    EXPECT_EQ(f.state().v, 5);
    EXPECT_EQ(f.state().view, "V5");
    EXPECT_TRUE(f.state().myTurn());
    ASSERT_EQ(f.state().history.size(), 1u);
    EXPECT_EQ(f.state().history[0].action, "d2-d3");
    // The same version again (a replay after reconnecting) changes nothing.
    EXPECT_EQ(f.take(action(5, 0, "1", "d2-d3", true)), O::Ignored);
    EXPECT_EQ(f.state().history.size(), 1u);
    EXPECT_EQ(f.take(action(3, 0, "1", "x")), O::Ignored);
    // An event with nothing for this role only advances the version.
    EXPECT_EQ(f.take(Json{{"type", "event"}, {"game", "g1"}, {"v", 6}}), O::Applied);
    EXPECT_EQ(f.state().v, 6);
    EXPECT_EQ(f.state().history.size(), 1u);
    // Another game's messages are not this game's.
    EXPECT_EQ(f.take(Json{{"type", "event"}, {"game", "g2"}, {"v", 7}}), O::Ignored);
}

TEST(PlayFollower, GapAsksForOneResumeThenSnapshotResets) {
    GameFollower f("g1");
    f.take(snapshot());
    EXPECT_EQ(f.take(action(7, 2, "1", "a1-a2")), O::Gap);
    EXPECT_EQ(f.state().v, 4);                                  // nothing applied
    EXPECT_EQ(f.take(action(8, 3, "2", "a8-a7")), O::Ignored);  // the resume is on its way
    // The replayed events close the gap.
    EXPECT_EQ(f.take(action(5, 0, "1", "d2-d3")), O::Applied);
    EXPECT_EQ(f.take(action(6, 1, "2", "d7-d6")), O::Applied);
    EXPECT_EQ(f.state().v, 6);
    // A later gap asks again; a snapshot answers it and replaces everything.
    EXPECT_EQ(f.take(action(9, 4, "1", "a1-a2")), O::Gap);
    Json snap = snapshot();
    snap["v"] = 9;
    EXPECT_EQ(f.take(snap), O::Applied);
    EXPECT_EQ(f.state().v, 9);
    EXPECT_TRUE(f.state().history.empty());
    EXPECT_EQ(f.take(action(10, 4, "1", "a1-a2")), O::Applied);
}

TEST(PlayFollower, EventsBeforeTheFirstSnapshotAreIgnored) {
    GameFollower f("g1");
    EXPECT_EQ(f.take(action(5, 0, "1", "d2-d3")), O::Ignored);
    EXPECT_EQ(f.state().v, -1);
}

TEST(PlayFollower, LifecycleFromOpenToRematch) {
    GameFollower f("g1");
    Json snap = Json::parse(R"({"type":"snapshot","game":"g1","v":0,"you":"1","status":"open",
      "preset":"official","opponent":"open","clock":null,"clocks":null,
      "players":{"1":{"id":"p1","name":"alice","connected":true,"bot":false},"2":null},
      "setup":{"1":false,"2":false},"view":null,"history":[],"draw_offer":null,"grace":6000,
      "result":null})");
    f.take(snap);
    EXPECT_EQ(f.state().status, "open");
    EXPECT_FALSE(f.state().seats[1]);
    EXPECT_FALSE(f.state().clocks);
    auto ev = [](long v, const std::string& kind, Json extra = Json::object()) {
        extra["type"] = "event";
        extra["game"] = "g1";
        extra["v"] = v;
        extra["kind"] = kind;
        return extra;
    };
    Json joined = ev(1, "joined", {{"side", "2"}, {"player", {{"id", "p2"}, {"name", "bob"}}}});
    EXPECT_EQ(f.take(joined), O::Applied);
    EXPECT_EQ(f.state().status, "setup");
    EXPECT_EQ(f.state().seats[1]->name, "bob");
    EXPECT_EQ(describeEvent(joined, f.state()), "bob joined as side 2");
    f.take(ev(2, "setup", {{"side", "1"}, {"links", {"a1", "b1", "c1", "d2"}}}));
    EXPECT_TRUE(f.state().setupDone[0]);
    EXPECT_EQ(f.state().links.size(), 4u);
    f.take(ev(3, "setup", {{"side", "2"}}));
    f.take(ev(4, "start", {{"view", "S"}, {"legal", {"d2-d3"}}, {"clocks", nullptr}}));
    EXPECT_TRUE(f.state().myTurn());
    Json offer = ev(5, "draw_offer", {{"side", "2"}});
    f.take(offer);
    EXPECT_EQ(f.state().drawOffer, "2");
    EXPECT_EQ(describeEvent(offer, f.state()), "side 2 (bob) offers a draw: accept or decline");
    f.take(ev(6, "draw_decline", {{"side", "1"}}));
    EXPECT_EQ(f.state().drawOffer, "");
    Json end = ev(7, "end",
                  {{"result", "0-1"},
                   {"winner", "2"},
                   {"reason", "resign"},
                   {"position", "P"},
                   {"setups", {{"1", {"a1"}}, {"2", Json::array()}}},
                   {"clocks", nullptr}});
    f.take(end);
    EXPECT_EQ(f.state().status, "finished");
    EXPECT_TRUE(f.state().legal.empty());
    ASSERT_TRUE(f.state().ending);
    EXPECT_EQ(f.state().ending->winner, "2");
    EXPECT_EQ(f.state().ending->setups[0].size(), 1u);
    f.take(ev(8, "rematch_offer", {{"side", "2"}}));
    EXPECT_EQ(f.state().rematchOffer, "2");
    f.take(ev(9, "rematch", {{"next_game", "g2"}}));
    EXPECT_EQ(f.state().nextGame, "g2");
    EXPECT_EQ(f.state().rematchOffer, "");
    // Presence is not versioned.
    EXPECT_EQ(
        f.take(Json{{"type", "presence"}, {"game", "g1"}, {"side", "2"}, {"connected", false}}),
        O::Applied);
    EXPECT_FALSE(f.state().seats[1]->connected);
    EXPECT_EQ(f.state().v, 9);
}

TEST(PlayFollower, AbortedEndIsAborted) {
    GameFollower f("g1");
    f.take(snapshot());
    f.take(Json{{"type", "event"},
                {"game", "g1"},
                {"v", 5},
                {"kind", "end"},
                {"result", nullptr},
                {"winner", nullptr},
                {"reason", "aborted"},
                {"setups", Json::object()},
                {"clocks", nullptr}});
    EXPECT_EQ(f.state().status, "aborted");
    EXPECT_TRUE(f.state().isOver());
}

TEST(PlayFollower, RatingsRatedFlagAndChatHistoryFromTheSnapshot) {
    GameFollower f("g1");
    Json snap = snapshot();
    snap["rated"] = true;
    snap["players"]["1"]["rating"] = 1500;
    snap["players"]["2"]["rating"] = 1612;
    snap["chat"] = Json::parse(R"([
      {"channel":"players","from":{"id":"p1","name":"alice"},"side":"1","text":"hi","at":1},
      {"channel":"players","from":{"id":"p2","name":"bob"},"side":"2","text":"gl","at":2}])");
    f.take(snap);
    const GameState& s = f.state();
    EXPECT_EQ(s.rated, true);
    EXPECT_EQ(s.seats[0]->rating, 1500);
    EXPECT_EQ(s.seats[1]->rating, 1612);
    ASSERT_EQ(s.chat.size(), 2u);
    EXPECT_EQ(s.chat[1].fromName, "bob");
    EXPECT_EQ(s.chat[1].side, "2");
    EXPECT_EQ(s.chat[1].text, "gl");
    EXPECT_EQ(s.chat[1].at, 2);
    // The end of a rated game carries the rating change; the seats show the new ratings.
    f.take(Json::parse(R"({"type":"event","game":"g1","v":5,"kind":"end","result":"0-1",
      "winner":"2","reason":"resign","setups":{"1":[],"2":[]},"clocks":null,
      "ratings":{"1":{"before":1500,"after":1420},"2":{"before":1612,"after":1650}}})"));
    ASSERT_TRUE(s.ending && s.ending->ratings[0] && s.ending->ratings[1]);
    EXPECT_EQ(s.ending->ratings[0]->before, 1500);
    EXPECT_EQ(s.ending->ratings[1]->after, 1650);
    EXPECT_EQ(s.seats[0]->rating, 1420);
    // A player who joins carries a rating too.
    GameFollower g("g1");
    Json open = snapshot();
    open["status"] = "open";
    open["players"]["2"] = nullptr;
    g.take(open);
    g.take(Json::parse(R"({"type":"event","game":"g1","v":5,"kind":"joined","side":"2",
      "player":{"id":"p9","name":"carol","rating":1580}})"));
    EXPECT_EQ(g.state().seats[1]->rating, 1580);
}

TEST(PlayFollower, UnseenChatIsWhatFollowsTheLastLineShown) {
    auto line = [](const std::string& text, long long at) {
        ChatLine c;
        c.channel = "players";
        c.fromName = "alice";
        c.text = text;
        c.at = at;
        return c;
    };
    std::vector<ChatLine> h;
    for (int i = 0; i < 8; ++i) h.push_back(line(std::string("l").append(std::to_string(i)), i));
    // First shown: the last few only.
    auto u = unseenChat(h, std::nullopt, 5);
    ASSERT_EQ(u.size(), 5u);
    EXPECT_EQ(u.front().text, "l3");
    // Later (a snapshot after reconnecting): only what came after the last line shown.
    u = unseenChat(h, h[6], 5);
    ASSERT_EQ(u.size(), 1u);
    EXPECT_EQ(u[0].text, "l7");
    EXPECT_TRUE(unseenChat(h, h[7], 5).empty());
    // A line no longer held (or of another room): the last few again.
    EXPECT_EQ(unseenChat(h, line("gone", 99), 3).size(), 3u);
    EXPECT_TRUE(unseenChat({}, std::nullopt, 5).empty());
    // A chat message reads like a history entry.
    const ChatLine c = chatLineOf(Json::parse(
        R"({"type":"chat","game":"g1","channel":"spectators","from":{"id":"p3","name":"carol"},
            "side":null,"text":"wow","at":1764669600000})"));
    EXPECT_EQ(c.channel, "spectators");
    EXPECT_EQ(c.fromId, "p3");
    EXPECT_EQ(c.side, "");
    EXPECT_EQ(c.at, 1764669600000LL);
}

}  // namespace
}  // namespace rainet::client::play
