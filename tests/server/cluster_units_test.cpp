// Unit tests of a cluster node's lease keeper (server/cluster_leases.h) on a SQLite store, with
// an injected clock: two keepers stand for two nodes sharing the database.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "protocol/schema.h"
#include "server/cluster_leases.h"
#include "server/cluster_lobby.h"
#include "server/cluster_seeks.h"
#include "support/redis_test_server.h"
#include "support/sqlite_test_db.h"

namespace rainet::server {
namespace {

using Outcome = LeaseKeeper::Outcome;
constexpr std::int64_t kTtl = 3000;

class Keepers : public ::testing::Test {
  protected:
    void SetUp() override {
        path_ = test::freshDbPath("keeper");
        auto s = store::Store::open(path_, "normal", /*faultInjection=*/true);
        ASSERT_TRUE(s) << s.error().message;
        store_ = std::move(*s);
        auto p = store_->createPlayer("pA", "ha", "alice");
        ASSERT_TRUE(p) << p.error().message;
        for (const char* id : {"g1", "g2"}) {
            store::GameRow g;
            g.id = id;
            g.creator = g.player[0] = p->id;
            g.status = GameStatus::Playing;
            ASSERT_FALSE(store_->insertGame(g));
        }
        a_ = std::make_unique<LeaseKeeper>(*store_, "a", kTtl, [this] { return now_; });
        b_ = std::make_unique<LeaseKeeper>(*store_, "b", kTtl, [this] { return now_; });
    }
    void TearDown() override {
        a_.reset();
        b_.reset();
        store_.reset();
        test::removeDb(path_);
    }
    std::string path_;
    std::unique_ptr<store::Store> store_;
    std::int64_t now_ = 1'000'000;
    std::unique_ptr<LeaseKeeper> a_, b_;
};

TEST_F(Keepers, OneNodeHoldsAGameTheOtherIsToldItIsHeldElsewhere) {
    const auto got = a_->acquire("g1");
    EXPECT_EQ(got.outcome, Outcome::Held);
    EXPECT_FALSE(got.takeover);
    EXPECT_EQ(b_->acquire("g1").outcome, Outcome::HeldElsewhere);
    EXPECT_TRUE(a_->live("g1"));
    EXPECT_FALSE(b_->holds("g1"));
    ASSERT_TRUE(a_->fence("g1"));
    EXPECT_EQ(a_->fence("g1")->owner, "a");
    EXPECT_FALSE(b_->fence("g1"));
    EXPECT_EQ(b_->acquire("g2").outcome, Outcome::Held);  // another game: free
}

TEST_F(Keepers, RenewalsKeepALeaseLiveAndItDiesLocallyBeforeItExpires) {
    ASSERT_EQ(a_->acquire("g1").outcome, Outcome::Held);
    for (int i = 0; i < 5; ++i) {  // renewed every ttl/3: always live
        now_ += kTtl / 3;
        const auto r = a_->renewAll();
        EXPECT_TRUE(r.lost.empty());
        EXPECT_TRUE(r.storeOk);
        EXPECT_TRUE(a_->live("g1"));
    }
    // Unrenewed, it is dead for its holder a tenth of the TTL before the others may take it.
    now_ += kTtl - kTtl / 10;
    EXPECT_FALSE(a_->live("g1"));
    EXPECT_FALSE(a_->fence("g1"));
    EXPECT_TRUE(a_->holds("g1"));
    EXPECT_EQ(b_->acquire("g1").outcome, Outcome::HeldElsewhere);
}

// A node cut off from its database (the store failing, as when PostgreSQL is away): its renewals
// fail, the lease is kept while a later round could still renew it in time, and given up (lost:
// the node evicts the room) at the first failed round after which it would be dead locally,
// before it expires for the other nodes. The store back, nothing is held any more; the game is
// an orphan once the lease expired, and b takes it over.
TEST_F(Keepers, ALeaseTheStoreCannotRenewIsLostBeforeItExpiresForTheOthers) {
    ASSERT_EQ(a_->acquire("g1").outcome, Outcome::Held);
    const std::int64_t expires = a_->fence("g1")->expires;
    ASSERT_TRUE(store_->injectFaults(true));
    now_ += kTtl / 3;  // the first failed round: renewable at the next
    auto r = a_->renewAll();
    EXPECT_FALSE(r.storeOk);
    EXPECT_TRUE(r.lost.empty());
    EXPECT_TRUE(a_->live("g1"));
    now_ += kTtl / 3;  // the second: the next round would find it dead
    r = a_->renewAll();
    EXPECT_FALSE(r.storeOk);
    EXPECT_EQ(r.lost, std::vector<std::string>{"g1"});
    EXPECT_FALSE(a_->holds("g1"));
    EXPECT_LT(now_, expires);  // given up before the others may take it
    ASSERT_TRUE(store_->injectFaults(false));
    EXPECT_EQ(b_->acquire("g1").outcome, Outcome::HeldElsewhere);  // not expired yet
    now_ = expires;
    const auto got = b_->acquire("g1");
    EXPECT_EQ(got.outcome, Outcome::Held);
    EXPECT_TRUE(got.takeover);
    EXPECT_TRUE(a_->renewAll().lost.empty());  // a holds nothing: nothing to lose again
}

TEST_F(Keepers, AnExpiredLeaseIsTakenOverAndTheOldHolderLearnsItLostIt) {
    ASSERT_EQ(a_->acquire("g1").outcome, Outcome::Held);
    const std::int64_t epoch = a_->fence("g1")->epoch;
    now_ += kTtl;  // a paused: its lease ran out
    const auto got = b_->acquire("g1");
    EXPECT_EQ(got.outcome, Outcome::Held);
    EXPECT_TRUE(got.takeover);
    EXPECT_GT(b_->fence("g1")->epoch, epoch);
    const auto r = a_->renewAll();
    ASSERT_EQ(r.lost.size(), 1u);
    EXPECT_EQ(r.lost[0], "g1");
    EXPECT_FALSE(a_->holds("g1"));
    // B still holds it after renewing; A asking again is refused.
    EXPECT_TRUE(b_->renewAll().lost.empty());
    EXPECT_EQ(a_->acquire("g1").outcome, Outcome::HeldElsewhere);
}

TEST_F(Keepers, ALeaseTakenOverWhileItsHolderStillThoughtItLiveIsLostAtTheNextRenewal) {
    ASSERT_EQ(a_->acquire("g1").outcome, Outcome::Held);
    // A released lease is taken at once, then A's stale copy fails to renew.
    const auto stale = *a_->fence("g1");
    ASSERT_FALSE(store_->releaseLease(stale));
    EXPECT_TRUE(b_->acquire("g1").takeover);
    EXPECT_EQ(a_->renewAll().lost, std::vector<std::string>{"g1"});
}

TEST_F(Keepers, ReleasingHandsTheGameOverAtOnce) {
    ASSERT_EQ(a_->acquire("g1").outcome, Outcome::Held);
    ASSERT_EQ(a_->acquire("g2").outcome, Outcome::Held);
    a_->release("g1");
    EXPECT_FALSE(a_->holds("g1"));
    EXPECT_EQ(a_->held(), 1u);
    EXPECT_TRUE(b_->acquire("g1").takeover);  // same instant: no wait for the TTL
    a_->releaseAll();
    EXPECT_EQ(a_->held(), 0u);
    EXPECT_EQ(b_->acquire("g2").outcome, Outcome::Held);
    // Orphans: none left, both games are b's and live.
    auto orphans = store_->orphanedGames(now_, 10);
    ASSERT_TRUE(orphans) << orphans.error().message;
    EXPECT_TRUE(orphans->empty());
}

// An open game's entry crosses Redis unchanged (server/cluster_lobby.h): what another node lists
// renders byte for byte as the owner's; garbage is refused, not listed.
TEST(ClusterLobby, AnEntryCrossesRedisUnchanged) {
    for (const auto& e :
         {protocol::LobbyEntry{
              "gK3P9QX2", protocol::Preset::Official,
              protocol::ClockSetting{30000, 200, std::nullopt},
              protocol::Player{"p7", "Rin", protocol::PlayerKind::Account,
                               std::optional<std::int64_t>(1623), std::nullopt, true, std::nullopt},
              protocol::SideWish::Two, true},
          protocol::LobbyEntry{"g2", protocol::Preset::Standard, std::nullopt,
                               protocol::Player{"p8", "guest 8", protocol::PlayerKind::Guest,
                                                std::optional<std::optional<std::int64_t>>(
                                                    std::optional<std::int64_t>()),
                                                std::nullopt, std::nullopt, std::nullopt},
                               protocol::SideWish::Random, false}}) {
        const auto back = ClusterLobby::decode(ClusterLobby::encode(e, 1234));
        ASSERT_TRUE(back);
        EXPECT_EQ(back->second, 1234);
        std::string original, copy;
        protocol::writeValue(original, e);
        protocol::writeValue(copy, back->first);
        EXPECT_EQ(copy, original);
    }
    EXPECT_FALSE(ClusterLobby::decode("not json"));
    EXPECT_FALSE(ClusterLobby::decode(R"({"entry":{"game":1},"created":0})"));
}

// The lobby's resync reads the version first (server/cluster_lobby.h): a round with no change
// reads only the version, a change on another node is seen at the next round, and a full read
// comes every kFullEvery rounds all the same.
TEST(ClusterLobby, ARoundWithNoChangeReadsOnlyTheVersion) {
    if (!test::haveRedisServer()) GTEST_SKIP() << "no /usr/bin/redis-server";
    test::RedisServer redis;
    Lobby mine, theirs;
    ClusterLobby reader(redis.parsed(), 3000, mine);  // rounds called by hand: not started
    ClusterLobby owner(redis.parsed(), 3000, theirs);
    reader.round();
    EXPECT_EQ(reader.fullReads(), 1u);  // the first round reads whole
    for (int i = 0; i < 5; ++i) reader.round();
    EXPECT_EQ(reader.fullReads(), 1u);

    owner.start();  // its thread writes the changes queued by set()
    const protocol::LobbyEntry e{
        "g9",
        protocol::Preset::Standard,
        std::nullopt,
        protocol::Player{"p1", "Ann", protocol::PlayerKind::Guest, std::nullopt, std::nullopt,
                         std::nullopt, std::nullopt},
        protocol::SideWish::Random,
        false};
    owner.set("g9", e, 1);
    bus::RedisLink link(redis.parsed());
    for (int i = 0; i < 200; ++i) {  // the owner's thread wrote it
        auto v = link.command({"GET", ClusterLobby::kVersion});
        if (v && v->kind == bus::Reply::Kind::String) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    owner.stop();
    reader.round();
    EXPECT_EQ(reader.fullReads(), 2u);
    EXPECT_NE(mine.message().find("\"g9\""), std::string::npos) << mine.message();
    reader.round();
    EXPECT_EQ(reader.fullReads(), 2u);
    for (int i = 0; i < FullReadSchedule::kFullEvery; ++i) reader.round();
    EXPECT_EQ(reader.fullReads(), 3u);
}

// A client that takes nothing (a seek's connection in the tests of ClusterSeeks).
struct QuietClient : Client {
    void send(std::shared_ptr<const std::string>) override {}
    void send(std::shared_ptr<const std::string>, std::shared_ptr<const std::string>) override {}
    void closeToReconnect() override {}
};

// The seeks' sweep runs only when something may have changed (server/cluster_seeks.h): a round
// with no change reads the version and the liveness of the nodes with seeks, no seek; another
// node's seek is seen at the next round, and so is that node's death (its seek dropped); the
// periodic sweep comes every kFullEvery rounds all the same.
TEST(ClusterSeeks, ARoundWithNoChangeDoesNotSweep) {
    if (!test::haveRedisServer()) GTEST_SKIP() << "no /usr/bin/redis-server";
    test::RedisServer redis;
    bus::RedisLink link(redis.parsed());
    ASSERT_TRUE(link.command({"SET", "rainet:alive:a", "1"}));
    ASSERT_TRUE(link.command({"SET", "rainet:alive:b", "1"}));
    std::mutex mu;
    std::vector<protocol::SeekEntry> seen;
    auto post = [](std::function<void()> f) { f(); };
    ClusterSeeks a(
        redis.parsed(), "a", 3000,
        [&](std::vector<protocol::SeekEntry> e) {
            std::lock_guard lock(mu);
            seen = std::move(e);
        },
        post);
    ClusterSeeks b(
        redis.parsed(), "b", 3000, [](std::vector<protocol::SeekEntry>) {}, post);
    a.round();  // not started: rounds by hand (the first one purges, which sweeps)
    const std::uint64_t base = a.fullSweeps();
    for (int i = 0; i < 5; ++i) a.round();
    EXPECT_EQ(a.fullSweeps(), base);

    auto client = std::make_shared<QuietClient>();
    SeekQueue::Seek seek{{}, {}, nullptr, "official", 30000, 200, true, 0, {}};
    seek.player.id = 7;
    auto placed = b.place(client, seek);
    ASSERT_TRUE(placed);
    EXPECT_FALSE(*placed);  // waits
    a.round();
    EXPECT_EQ(a.fullSweeps(), base + 1);
    {
        std::lock_guard lock(mu);
        ASSERT_EQ(seen.size(), 1u);
        EXPECT_EQ(seen[0].players, 1);
    }
    a.round();
    EXPECT_EQ(a.fullSweeps(), base + 1);

    ASSERT_TRUE(link.command({"DEL", "rainet:alive:b"}));  // b died: its seek goes
    a.round();
    EXPECT_EQ(a.fullSweeps(), base + 2);
    {
        std::lock_guard lock(mu);
        EXPECT_TRUE(seen.empty());
    }
    a.round();
    EXPECT_EQ(a.fullSweeps(), base + 2);
    for (int i = 0; i < FullReadSchedule::kFullEvery; ++i) a.round();
    EXPECT_EQ(a.fullSweeps(), base + 3);
}

// Two seeks pair only within one kind (server/cluster_seeks.h): preset, clock and rated.
TEST(ClusterSeeks, KindsSeparateWhatMustNotPair) {
    SeekQueue::Seek s{{}, {}, nullptr, "official", 30000, 200, true, 0, {}};
    const std::string k = ClusterSeeks::kindOf(s);
    auto other = s;
    other.rated = false;
    EXPECT_NE(ClusterSeeks::kindOf(other), k);
    other = s;
    other.clockIncrement = 0;
    EXPECT_NE(ClusterSeeks::kindOf(other), k);
    other = s;
    other.preset = "standard";
    EXPECT_NE(ClusterSeeks::kindOf(other), k);
    other = s;
    other.player.id = 99;  // the player aside
    EXPECT_EQ(ClusterSeeks::kindOf(other), k);
}

}  // namespace
}  // namespace rainet::server
