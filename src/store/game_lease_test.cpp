// Game leases and fenced writes, on both backends.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "store/store.h"
#include "support/postgres_test_db.h"
#include "support/sqlite_test_db.h"

namespace rainet::store {
namespace {

class GameLeaseTest : public ::testing::TestWithParam<Dialect> {
  protected:
    void SetUp() override {
        std::string target;
        if (GetParam() == Dialect::Postgres) {
            if (!test::postgresTestUri()) GTEST_SKIP() << "RAINET_TEST_PG is not set";
            pg_ = std::make_unique<test::PostgresTestDb>(
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
            ASSERT_TRUE(pg_->error().empty()) << pg_->error();
            target = pg_->uri();
        } else {
            path_ = test::freshDbPath("lease");
            target = path_;
        }
        auto s = Store::open(target);
        ASSERT_TRUE(s) << s.error().message;
        store_ = std::move(*s);
    }
    void TearDown() override {
        store_.reset();
        if (!path_.empty()) test::removeDb(path_);
    }
    // A stored game in that status.
    GameRow game(const std::string& id, GameStatus status = GameStatus::Playing) {
        if (!player_) {
            auto p = store_->createPlayer("pA", "ha", "alice");
            EXPECT_TRUE(p) << p.error().message;
            player_ = p ? p->id : 0;
        }
        GameRow g;
        g.id = id;
        g.creator = g.player[0] = player_;
        g.status = status;
        EXPECT_FALSE(store_->insertGame(g));
        return g;
    }
    GameLease acquired(const std::string& g, const std::string& node, std::int64_t now,
                       std::int64_t ttl = 5000) {
        auto l = store_->acquireLease(g, node, now, ttl);
        EXPECT_TRUE(l) << l.error().message;
        EXPECT_TRUE(l && *l) << node << " did not get the lease of " << g;
        return l && *l ? **l : GameLease{};
    }
    size_t actionsOf(const std::string& g) {
        auto d = store_->loadGame(g);
        EXPECT_TRUE(d && *d);
        return d && *d ? (*d)->actions.size() : 0;
    }
    static ActionRow action(int ply) {
        ActionRow a;
        a.ply = ply;
        a.action = ply % 2 ? "a8-a7" : "a1-a2";
        a.version = ply + 5;
        return a;
    }

    std::unique_ptr<test::PostgresTestDb> pg_;
    std::string path_;
    std::unique_ptr<Store> store_;
    std::int64_t player_ = 0;
};

TEST_P(GameLeaseTest, OneOwnerAtATimeAndTheEpochRisesWithEveryChangeOfHands) {
    game("g1");
    GameLease a = acquired("g1", "node-a", 1000);
    EXPECT_EQ(a.owner, "node-a");
    EXPECT_EQ(a.epoch, 1);
    EXPECT_EQ(a.expires, 6000);
    // Another node waits while A's lease is live.
    auto b = store_->acquireLease("g1", "node-b", 5999, 5000);
    ASSERT_TRUE(b);
    EXPECT_FALSE(*b);
    // A extends its own: same epoch.
    GameLease again = acquired("g1", "node-a", 3000);
    EXPECT_EQ(again.epoch, 1);
    EXPECT_EQ(again.expires, 8000);
    auto renewed = store_->renewLease(a, 4000, 5000);
    ASSERT_TRUE(renewed && *renewed);
    EXPECT_EQ((*renewed)->expires, 9000);
    // Expired: B takes over with a higher epoch, and A can no longer renew.
    GameLease taken = acquired("g1", "node-b", 9000);
    EXPECT_EQ(taken.epoch, 2);
    auto lost = store_->renewLease(a, 9001, 5000);
    ASSERT_TRUE(lost);
    EXPECT_FALSE(*lost);
    // Released: the next owner may take it at once, still with a higher epoch.
    EXPECT_FALSE(store_->releaseLease(taken));
    EXPECT_EQ(acquired("g1", "node-a", 9002).epoch, 3);
}

TEST_P(GameLeaseTest, AFencedOutOwnerWritesNothing) {
    GameRow g = game("g1");
    GameLease a = acquired("g1", "node-a", 1000);
    EXPECT_FALSE(store_->saveAction(g, action(0), a));
    GameLease b = acquired("g1", "node-b", 7000);  // A paused past its lease
    auto e = store_->saveAction(g, action(1), a);
    ASSERT_TRUE(e) << "the old owner's write went through";
    EXPECT_NE(e->message.find("no longer this node's"), std::string::npos) << e->message;
    EXPECT_EQ(actionsOf("g1"), 1u);
    EXPECT_FALSE(store_->saveAction(g, action(1), b));
    EXPECT_EQ(actionsOf("g1"), 2u);
    // A lease of another game is no fence for this one.
    game("g2");
    GameLease other = acquired("g2", "node-a", 7000);
    other.game = "g1";
    EXPECT_TRUE(store_->saveAction(g, action(2), other));
    EXPECT_EQ(actionsOf("g1"), 2u);
}

TEST_P(GameLeaseTest, AFencedOutOwnersOtherWritesChangeNothing) {
    GameRow g = game("g1", GameStatus::Open);
    GameLease a = acquired("g1", "node-a", 1000);
    // While A holds the lease its writes go through: a join.
    GameRow joined = g;
    joined.status = GameStatus::Setup;
    joined.version = 1;
    EXPECT_FALSE(store_->updateGame(joined, a));
    acquired("g1", "node-b", 7000);  // A paused past its lease
    // A's setup, chat line, row update and end all fail and change nothing.
    GameRow later = joined;
    later.version = 2;
    later.status = GameStatus::Playing;
    const auto refused = [](const std::optional<Error>& e) {
        return e && e->message.find("no longer this node's") != std::string::npos;
    };
    EXPECT_TRUE(refused(store_->saveSetup(later, 1, 15, a)));
    EXPECT_TRUE(refused(store_->saveChat("g1", ChatRow{1, 0, R"({"text":"hi"})"}, a)));
    EXPECT_TRUE(refused(store_->updateGame(later, a)));
    GameRow ended = later;
    ended.status = GameStatus::Finished;
    ended.ended = 7001;
    auto finished = store_->finishGame(ended, a);
    ASSERT_FALSE(finished) << "the end was stored by a fenced-out node";
    EXPECT_NE(finished.error().message.find("no longer this node's"), std::string::npos);
    auto d = store_->loadGame("g1");
    ASSERT_TRUE(d && *d);
    EXPECT_EQ((*d)->game.status, GameStatus::Setup);
    EXPECT_EQ((*d)->game.version, 1);
    EXPECT_EQ((*d)->setup[0], -1);
    EXPECT_TRUE((*d)->chat.empty());
    // Without a fence (a single node) the same writes go through.
    EXPECT_FALSE(store_->saveChat("g1", ChatRow{1, 0, R"({"text":"hi"})"}));
    EXPECT_EQ((*store_->loadGame("g1"))->chat.size(), 1u);
}

TEST_P(GameLeaseTest, InOneBatchOnlyTheFencedOutWriteFails) {
    GameRow g1 = game("g1"), g2 = game("g2");
    GameLease a1 = acquired("g1", "node-a", 1000);
    GameLease a2 = acquired("g2", "node-a", 1000);
    acquired("g1", "node-b", 7000);  // g1 changed hands; A still holds g2 (renewed below)
    ASSERT_TRUE(store_->renewLease(a2, 6999, 5000).value());
    std::mutex mu;
    std::condition_variable cv;
    std::optional<std::optional<Error>> r1, r2;
    // Queued back to back, so they commit in one batch (or the stale one alone after it fails it).
    store_->saveActionBatched(
        g1, action(0),
        [&](std::optional<Error> e) {
            std::lock_guard l(mu);
            r1 = e;
            cv.notify_all();
        },
        a1);
    store_->saveActionBatched(
        g2, action(0),
        [&](std::optional<Error> e) {
            std::lock_guard l(mu);
            r2 = e;
            cv.notify_all();
        },
        a2);
    std::unique_lock l(mu);
    ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(10), [&] { return r1 && r2; }));
    EXPECT_TRUE(*r1) << "g1's stale write was committed";
    EXPECT_FALSE(*r2) << (*r2)->message;
    l.unlock();
    EXPECT_EQ(actionsOf("g1"), 0u);
    EXPECT_EQ(actionsOf("g2"), 1u);
}

TEST_P(GameLeaseTest, ABatchRenewsTheHeldLeasesAndLeavesOutATakenOverOne) {
    for (const char* id : {"g1", "g2", "g3"}) game(id);
    GameLease a1 = acquired("g1", "node-a", 1000);
    GameLease a2 = acquired("g2", "node-a", 1000, 10000);
    GameLease a3 = acquired("g3", "node-a", 1000, 10000);
    GameLease b1 = acquired("g1", "node-b", 7000);  // g1 expired and changed hands
    auto r = store_->renewLeases({a1, a2, a3}, 8000, 5000);
    ASSERT_TRUE(r) << r.error().message;
    std::vector<std::string> renewed;
    for (const auto& l : *r) {
        renewed.push_back(l.game);
        EXPECT_EQ(l.owner, "node-a");
        EXPECT_EQ(l.epoch, 1);
        EXPECT_EQ(l.expires, 13000);
    }
    std::sort(renewed.begin(), renewed.end());
    EXPECT_EQ(renewed, (std::vector<std::string>{"g2", "g3"})) << "g1 is node-b's now";
    // B's lease was not touched by A's batch; B still renews it, A's stale one does not.
    auto stale = store_->renewLease(a1, 8001, 5000);
    ASSERT_TRUE(stale);
    EXPECT_FALSE(*stale);
    auto mine = store_->renewLeases({b1}, 8001, 5000);
    ASSERT_TRUE(mine) << mine.error().message;
    ASSERT_EQ(mine->size(), 1u);
    EXPECT_EQ((*mine)[0].epoch, b1.epoch);
    EXPECT_EQ((*mine)[0].expires, 13001);
    // Nothing held: nothing asked.
    auto none = store_->renewLeases({}, 8002, 5000);
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

// A node's renewal round and its batches of actions lock the same lease rows: both in game order,
// or PostgreSQL finds a deadlock, aborts one of them after a second (deadlock_timeout), and a
// renewal lost that way let a loaded node's leases expire (found by a cluster latency run).
// The batches here come in the reverse order of the games, the renewals run all the while.
TEST_P(GameLeaseTest, RenewalsAndBatchesOverManyGamesNeverDeadlock) {
    constexpr int kGames = 40, kRounds = 30;
    std::vector<GameRow> games;
    std::vector<GameLease> leases;
    for (int i = 0; i < kGames; ++i) {
        char id[8];
        std::snprintf(id, sizeof id, "g%02d", i);
        games.push_back(game(id));
        leases.push_back(acquired(id, "node-a", 1000, 1'000'000));
    }
    std::atomic<bool> done{false};
    std::atomic<int> renewals{0}, renewErrors{0};
    std::string firstError;
    std::thread renewer([&] {
        for (std::int64_t now = 2000; !done; ++now) {
            auto r = store_->renewLeases(leases, now, 1'000'000);
            if (r && r->size() == leases.size()) {
                ++renewals;
            } else if (renewErrors++ == 0) {
                firstError = r ? "renewed " + std::to_string(r->size()) : r.error().message;
            }
        }
    });
    std::mutex mu;
    std::condition_variable cv;
    int pending = 0, failed = 0;
    for (int round = 0; round < kRounds; ++round) {
        {
            std::lock_guard l(mu);
            pending = kGames;
        }
        for (int i = kGames - 1; i >= 0; --i)
            store_->saveActionBatched(
                games[static_cast<std::size_t>(i)], action(round),
                [&](std::optional<Error> e) {
                    std::lock_guard l(mu);
                    if (e) ++failed;
                    --pending;
                    cv.notify_all();
                },
                leases[static_cast<std::size_t>(i)]);
        std::unique_lock l(mu);
        ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(60), [&] { return pending == 0; }));
    }
    done = true;
    renewer.join();
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(renewErrors, 0) << firstError;
    EXPECT_GT(renewals, 0);
    for (const auto& g : games) EXPECT_EQ(actionsOf(g.id), static_cast<std::size_t>(kRounds));
    if (pg_) {
        // A batch aborted by a deadlock is retried write by write and succeeds: PostgreSQL's
        // own count tells (its statistics reach the view within half a second).
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        EXPECT_EQ(pg_->query("SELECT deadlocks FROM pg_stat_database WHERE datname = "
                             "current_database()"),
                  "0");
    }
}

TEST_P(GameLeaseTest, NodesAskingAtOnceGetOneOwner) {
    game("g1");
    constexpr int kNodes = 6;
    std::barrier start(kNodes);
    std::atomic<int> owners{0}, errors{0};
    std::vector<std::thread> nodes;
    for (int i = 0; i < kNodes; ++i)
        nodes.emplace_back([&, i] {
            start.arrive_and_wait();
            auto l = store_->acquireLease("g1", "node-" + std::to_string(i), 1000, 5000);
            if (!l)
                ++errors;
            else if (*l)
                ++owners;
        });
    for (auto& t : nodes) t.join();
    EXPECT_EQ(errors, 0);
    EXPECT_EQ(owners, 1);
}

TEST_P(GameLeaseTest, OrphanedGamesAreTheLiveOnesWithoutALiveLease) {
    game("g1");                        // never leased
    game("g2");                        // leased, live
    game("g3");                        // leased, expired
    game("g4", GameStatus::Finished);  // over: nobody's concern
    game("g5", GameStatus::Setup);     // released
    acquired("g2", "node-a", 1000, 10000);
    acquired("g3", "node-a", 1000, 1000);
    GameLease l5 = acquired("g5", "node-a", 1000, 10000);
    EXPECT_FALSE(store_->releaseLease(l5));
    auto o = store_->orphanedGames(5000, 10);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(*o, (std::vector<std::string>{"g1", "g3", "g5"}));
    auto two = store_->orphanedGames(5000, 2);
    ASSERT_TRUE(two);
    EXPECT_EQ(two->size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Backends, GameLeaseTest,
                         ::testing::Values(Dialect::Sqlite, Dialect::Postgres), [](const auto& p) {
                             return p.param == Dialect::Sqlite ? "Sqlite" : "Postgres";
                         });

}  // namespace
}  // namespace rainet::store
