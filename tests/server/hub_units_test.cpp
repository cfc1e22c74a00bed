// Unit tests of the hub's units, each alone, without a hub or a network: the registry of loaded
// rooms (server/room_registry.h), the lobby (server/lobby.h), the seek queue
// (server/seek_queue.h) and the remembered acks of creates (server/create_acks.h).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "server/create_acks.h"
#include "server/lobby.h"
#include "server/room_registry.h"
#include "server/seek_queue.h"

namespace rainet::server {
namespace {

using protocol::Json;

// A connection that records what it is sent.
struct Recorder : Client {
    std::vector<std::string> sent;
    using Client::send;
    void send(std::shared_ptr<const std::string> message) override { sent.push_back(*message); }
    void closeToReconnect() override {}
    Json last() const { return Json::parse(sent.at(sent.size() - 1)); }
};

struct Room {
    int n = 0;
};
// Ids g0, g1... (or another prefix): appended, not `"g" + std::to_string(i)`, about which g++ 12
// warns wrongly (-Wrestrict).
std::string gameId(std::size_t i, const char* prefix = "g") {
    std::string id = prefix;
    id += std::to_string(i);
    return id;
}
using Registry = BasicRoomRegistry<Room>;

TEST(RoomRegistry, HeldRoomsAreFoundAndListedUntilRetired) {
    Registry reg;
    auto a = std::make_shared<Room>(), b = std::make_shared<Room>();
    reg.hold("a", a);
    reg.hold("b", b);
    EXPECT_EQ(reg.find("a"), a);
    EXPECT_EQ(reg.find("nope"), nullptr);
    EXPECT_EQ(reg.rooms().size(), 2u);
    EXPECT_TRUE(reg.retire("a"));
    EXPECT_FALSE(reg.retire("a"));  // not held any more
    EXPECT_EQ(reg.rooms(), std::vector<std::shared_ptr<Room>>{b});
    // An ended room is still found while someone follows it, and forgotten once nobody does.
    EXPECT_EQ(reg.find("a"), a);
    a.reset();
    EXPECT_EQ(reg.find("a"), nullptr);
}

TEST(RoomRegistry, AdoptKeepsTheRoomAnotherConnectionRegisteredFirst) {
    Registry reg;
    auto first = std::make_shared<Room>(), second = std::make_shared<Room>();
    EXPECT_EQ(reg.adopt("g", first, false), first);
    EXPECT_EQ(reg.adopt("g", second, false), first);
    EXPECT_EQ(reg.rooms().size(), 1u);
    // An ended game's room is shared, not held: it is not among the rooms of games not over.
    auto over = std::make_shared<Room>(), late = std::make_shared<Room>();
    EXPECT_EQ(reg.adopt("h", over, true), over);
    EXPECT_EQ(reg.adopt("h", late, true), over);
    EXPECT_EQ(reg.rooms().size(), 1u);
}

TEST(RoomRegistry, DropForgetsOnlyTheRoomThatFailed) {
    Registry reg;
    auto failed = std::make_shared<Room>(), rebuilt = std::make_shared<Room>();
    reg.hold("g", rebuilt);
    EXPECT_FALSE(reg.drop("g", failed.get()));  // an older room's failure leaves the new one
    EXPECT_EQ(reg.find("g"), rebuilt);
    EXPECT_TRUE(reg.drop("g", rebuilt.get()));
    EXPECT_EQ(reg.find("g"), nullptr);
    // An ended room that fails is forgotten too (not held: nothing to release).
    auto over = std::make_shared<Room>();
    EXPECT_EQ(reg.adopt("h", over, true), over);
    EXPECT_FALSE(reg.drop("h", over.get()));
    EXPECT_EQ(reg.find("h"), nullptr);
}

TEST(RoomRegistry, EndedRoomsNobodyFollowsAreSweptAsTheMapGrows) {
    Registry reg;
    std::vector<std::shared_ptr<Room>> followed;
    for (int i = 0; i < 1000; ++i) {
        auto r = std::make_shared<Room>(Room{i});
        EXPECT_EQ(reg.adopt(gameId(static_cast<std::size_t>(i)), r, true), r);
        if (i % 10 == 0) followed.push_back(r);  // one in ten still followed
    }
    // Bounded by about twice the rooms still followed (and at least 64), not by all 1000.
    EXPECT_LE(reg.finishedKept(), 2 * followed.size() + 64);
    for (const auto& r : followed) EXPECT_EQ(reg.find(gameId(static_cast<std::size_t>(r->n))), r);
}

protocol::LobbyEntry entry(const std::string& game) {
    protocol::LobbyEntry e;
    e.game = game;
    return e;
}

std::vector<std::string> listed(const Json& lobby) {
    std::vector<std::string> out;
    for (const auto& g : lobby.at("games")) out.push_back(g.at("game").get<std::string>());
    return out;
}

TEST(Lobby, SubscribersAreSentTheLobbyNowAndOnEveryChange) {
    Lobby lobby;
    auto c = std::make_shared<Recorder>();
    lobby.subscribe(c);
    ASSERT_EQ(c->sent.size(), 1u);
    EXPECT_EQ(c->last().at("type"), "lobby");
    EXPECT_TRUE(listed(c->last()).empty());
    lobby.set("g1", entry("g1"));
    lobby.set("g2", entry("g2"));
    ASSERT_EQ(c->sent.size(), 3u);
    EXPECT_EQ(listed(c->last()), (std::vector<std::string>{"g1", "g2"}));  // oldest first
    lobby.set("g1", std::nullopt);
    EXPECT_EQ(listed(c->last()), (std::vector<std::string>{"g2"}));
    lobby.set("unknown", std::nullopt);  // nothing changed: nothing sent
    EXPECT_EQ(c->sent.size(), 4u);
    lobby.subscribe(c);  // a second subscribe sends the lobby but does not subscribe twice
    lobby.set("g3", entry("g3"));
    EXPECT_EQ(c->sent.size(), 6u);
    lobby.unsubscribe(c.get());
    lobby.set("g4", entry("g4"));
    EXPECT_EQ(c->sent.size(), 6u);
    EXPECT_EQ(listed(Json::parse(lobby.message())), (std::vector<std::string>{"g2", "g3", "g4"}));
}

TEST(Lobby, SeekSummaryIsSentOnlyWhenItChanges) {
    Lobby lobby;
    auto c = std::make_shared<Recorder>();
    lobby.subscribe(c);
    protocol::SeekEntry kind;
    kind.players = 2;
    lobby.setSeeks({kind});
    ASSERT_EQ(c->sent.size(), 2u);
    EXPECT_EQ(c->last().at("seeks").size(), 1u);
    EXPECT_EQ(c->last().at("seeks")[0].at("players"), 2);
    lobby.setSeeks({kind});
    EXPECT_EQ(c->sent.size(), 2u);
    lobby.setSeeks({});
    EXPECT_EQ(c->sent.size(), 3u);
    EXPECT_TRUE(c->last().at("seeks").empty());
}

TEST(Lobby, ListsTheOldestHundredGames) {
    Lobby lobby;
    for (int i = 0; i < 120; ++i)
        lobby.set(gameId(static_cast<std::size_t>(i)), entry(gameId(static_cast<std::size_t>(i))));
    const auto games = listed(Json::parse(lobby.message()));
    ASSERT_EQ(games.size(), Lobby::kListed);
    EXPECT_EQ(games.front(), "g0");
    EXPECT_EQ(games.back(), "g99");
    lobby.set("g0", std::nullopt);  // the next one moves up into the list
    EXPECT_EQ(listed(Json::parse(lobby.message())).back(), "g100");
}

SeekQueue::Seek seekOf(std::int64_t player, const std::shared_ptr<Client>& c,
                       const std::string& preset = "standard", int initial = 0, bool rated = true) {
    SeekQueue::Seek s;
    s.player.id = player;
    s.client = c;
    s.key = c.get();
    s.preset = preset;
    s.clockInitial = initial;
    s.rated = rated;
    return s;
}

TEST(SeekQueue, PairsWithACompatibleSeekElseWaits) {
    SeekQueue q;
    auto c1 = std::make_shared<Recorder>(), c2 = std::make_shared<Recorder>(),
         c3 = std::make_shared<Recorder>(), c4 = std::make_shared<Recorder>();
    EXPECT_FALSE(q.place(seekOf(1, c1, "standard", 18000)).partner);
    EXPECT_FALSE(q.place(seekOf(2, c2, "official", 18000)).partner);  // another preset
    auto waiting = q.place(seekOf(3, c3, "standard", 6000));          // another clock
    EXPECT_FALSE(waiting.partner);
    ASSERT_EQ(waiting.summary.size(), 3u);  // by kind, in the order each kind first waited
    EXPECT_EQ(waiting.summary[0].preset, protocol::Preset::Standard);
    EXPECT_EQ(waiting.summary[1].preset, protocol::Preset::Official);
    EXPECT_EQ(waiting.summary[0].players, 1);
    // Player 4 is paired with player 1, the compatible seek; the others still wait.
    auto paired = q.place(seekOf(4, c4, "standard", 18000));
    ASSERT_TRUE(paired.partner);
    EXPECT_EQ(paired.partner->player.id, 1);
    ASSERT_EQ(paired.summary.size(), 2u);
    EXPECT_EQ(paired.summary[0].preset, protocol::Preset::Official);
    // The rated flag may not differ either.
    EXPECT_FALSE(q.place(seekOf(5, c1, "standard", 6000, false)).partner);
    EXPECT_EQ(q.summary().size(), 3u);
    EXPECT_TRUE(
        SeekQueue::compatible(seekOf(7, c1, "official", 18000), seekOf(8, c2, "official", 18000)));
}

TEST(SeekQueue, ANewSeekReplacesThePlayersLastOne) {
    SeekQueue q;
    auto c = std::make_shared<Recorder>();
    EXPECT_FALSE(q.place(seekOf(1, c, "standard")).partner);
    // The same player seeking the same again is not paired with itself: one seek waits.
    auto again = q.place(seekOf(1, c, "standard"));
    EXPECT_FALSE(again.partner);
    ASSERT_EQ(again.summary.size(), 1u);
    EXPECT_EQ(again.summary[0].players, 1);
    auto other = q.place(seekOf(1, c, "official"));
    ASSERT_EQ(other.summary.size(), 1u);
    EXPECT_EQ(other.summary[0].preset, protocol::Preset::Official);
}

TEST(SeekQueue, WithdrawByPlayerOrConnectionAndClosedConnectionsDropOut) {
    SeekQueue q;
    auto c1 = std::make_shared<Recorder>(), c2 = std::make_shared<Recorder>();
    EXPECT_FALSE(q.place(seekOf(1, c1, "standard")).partner);
    EXPECT_FALSE(q.place(seekOf(2, c2, "official")).partner);
    EXPECT_FALSE(q.withdraw(nullptr, 3));  // nothing changed
    auto left = q.withdraw(nullptr, 1);
    ASSERT_TRUE(left);
    ASSERT_EQ(left->size(), 1u);
    EXPECT_EQ((*left)[0].preset, protocol::Preset::Official);
    left = q.withdraw(c2.get(), 0);  // the connection closed
    ASSERT_TRUE(left);
    EXPECT_TRUE(left->empty());
    // A seek whose connection is gone is never paired.
    auto gone = std::make_shared<Recorder>();
    EXPECT_FALSE(q.place(seekOf(4, gone, "standard")).partner);
    gone.reset();
    auto fresh = q.place(seekOf(5, c1, "standard"));
    EXPECT_FALSE(fresh.partner);
    ASSERT_EQ(fresh.summary.size(), 1u);
    EXPECT_EQ(fresh.summary[0].players, 1);
}

TEST(SeekQueue, APartnerPutBackKeepsItsPlaceAtTheHead) {
    SeekQueue q;
    auto c1 = std::make_shared<Recorder>(), c2 = std::make_shared<Recorder>(),
         c3 = std::make_shared<Recorder>(), c4 = std::make_shared<Recorder>();
    EXPECT_FALSE(q.place(seekOf(1, c1)).partner);
    EXPECT_TRUE(q.place(seekOf(2, c2)).partner);  // paired with 1
    // The game of 1 and 2 could not start: 1 goes back first, 3 waited after it.
    auto third = q.place(seekOf(3, c3, "official"));
    EXPECT_FALSE(third.partner);
    auto back = q.putBack(seekOf(1, c1));
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].preset, protocol::Preset::Standard);
    auto next = q.place(seekOf(4, c4));
    ASSERT_TRUE(next.partner);
    EXPECT_EQ(next.partner->player.id, 1);
}

TEST(CreateAcks, ARepeatedCreateFindsItsAckBoundedPerPlayerAndInTime) {
    std::atomic<std::int64_t> held{0};
    CreateAcks acks(held);
    acks.remember(1, "k0", "ack0", 0);
    EXPECT_EQ(acks.find(1, "k0"), "ack0");
    EXPECT_FALSE(acks.find(2, "k0"));  // per player
    EXPECT_FALSE(acks.find(1, "k1"));
    for (std::size_t i = 1; i <= CreateAcks::kPerPlayer; ++i)
        acks.remember(1, gameId(i, "k"), "ack", 0);
    EXPECT_FALSE(acks.find(1, "k0"));  // the oldest went beyond kPerPlayer
    EXPECT_TRUE(acks.find(1, "k1"));
    EXPECT_EQ(held, static_cast<std::int64_t>(CreateAcks::kPerPlayer));
    // After kKeptCs, the next create sweeps everyone's old acks.
    acks.remember(2, "k", "ack2", CreateAcks::kKeptCs + 1);
    EXPECT_FALSE(acks.find(1, "k1"));
    EXPECT_EQ(acks.find(2, "k"), "ack2");
    EXPECT_EQ(held, 1);
}

}  // namespace
}  // namespace rainet::server
