// The cluster-wide connection counts and throttles per address (server/shared_limits.h) against a
// throwaway redis-server: two SharedCounters stand for two nodes, their sync rounds driven by the
// test.
#include "server/shared_limits.h"

#include <gtest/gtest.h>

#include "support/redis_test_server.h"

namespace rainet::test {
namespace {

using server::SharedCounters;
using server::SharedThrottle;

TEST(SharedLimits, AdmissionsUseTheCachedViewOfEveryNodeAndAreCorrectedByTheNextRound) {
    if (!haveRedisServer()) GTEST_SKIP() << "no /usr/bin/redis-server";
    RedisServer redis;
    SharedCounters a(redis.parsed(), "a", 60000, false), b(redis.parsed(), "b", 60000, false);
    // Two connections of x on a; b learns them at its next round, not before.
    EXPECT_TRUE(a.admitConnection("x", 3));
    EXPECT_TRUE(a.admitConnection("x", 3));
    ASSERT_TRUE(a.sync());
    ASSERT_TRUE(b.sync());                   // b tracks nothing of x yet: nothing learned
    EXPECT_TRUE(b.admitConnection("x", 3));  // 0 + 1: the overshoot window (docs/scaling.md)
    ASSERT_TRUE(b.sync());
    EXPECT_EQ(b.view("x"), (std::pair<std::int64_t, std::int64_t>{1, 2}));
    EXPECT_FALSE(b.admitConnection("x", 3)) << "2 on a + 1 on b: at the cap";
    ASSERT_TRUE(a.sync());
    EXPECT_FALSE(a.admitConnection("x", 3));
    EXPECT_TRUE(a.admitConnection("y", 3)) << "another address is free";

    // A release lost while Redis was away: a's field is wrong in Redis (as if the old
    // decrement never arrived); a's next round writes its true count back.
    bus::RedisLink link(redis.parsed());
    ASSERT_TRUE(link.command({"HSET", "rainet:conn:x", a.instance(), "7"}));
    a.releaseConnection("x");  // a holds 1 now
    ASSERT_TRUE(b.sync());
    EXPECT_EQ(b.view("x").second, 7) << "the stale field, before a's round";
    ASSERT_TRUE(a.sync());
    ASSERT_TRUE(b.sync());
    EXPECT_EQ(b.view("x").second, 1);
    EXPECT_TRUE(b.admitConnection("x", 3));

    // Redis restarted empty: the next rounds write every instance's counts back.
    redis.stop();
    EXPECT_FALSE(a.sync());
    EXPECT_FALSE(b.sync());
    EXPECT_EQ(a.view("x").second, 0) << "Redis away: a counts its own only (fail open)";
    redis.start();
    ASSERT_TRUE(b.sync());
    ASSERT_TRUE(a.sync());
    EXPECT_EQ(a.view("x"), (std::pair<std::int64_t, std::int64_t>{1, 2}));
    EXPECT_FALSE(a.admitConnection("x", 3));

    // Every connection gone: the address is forgotten by both and its hash deleted.
    a.releaseConnection("x");
    b.releaseConnection("x");
    b.releaseConnection("x");
    for (int i = 0; i < 2; ++i) {
        ASSERT_TRUE(a.sync());
        ASSERT_TRUE(b.sync());
    }
    EXPECT_EQ(a.view("x"), (std::pair<std::int64_t, std::int64_t>{0, 0}));
    bus::RedisLink fresh(redis.parsed());  // `link`'s connection died with the restart
    const auto exists = fresh.command({"EXISTS", "rainet:conn:x"});
    ASSERT_TRUE(exists);
    EXPECT_EQ(exists->integer, 0);
}

// Failed logins counted in Redis across two nodes; every hit is also counted on the node that saw
// it, so that its network thread can refuse on its own count without asking Redis (localWait).
TEST(SharedLimits, ThrottlesCountAcrossNodesAndEachNodesOwnHitsWithoutRedis) {
    if (!haveRedisServer()) GTEST_SKIP() << "no /usr/bin/redis-server";
    RedisServer redis;
    auto ca = std::make_shared<SharedCounters>(redis.parsed(), "a", 60000, false);
    auto cb = std::make_shared<SharedCounters>(redis.parsed(), "b", 60000, false);
    SharedThrottle a(3, 2000), b(3, 2000);  // 3 hits, then one per 20 s
    a.share(ca, "login");
    b.share(cb, "login");
    const std::vector<std::string> k{"10.0.0.1"};
    a.take(k, 0);
    a.take(k, 0);
    EXPECT_EQ(b.wait(k, 0), 0) << "2 of 3";
    EXPECT_EQ(b.localWait(k, 0), 0);
    b.take(k, 0);
    EXPECT_GT(a.wait(k, 0), 0) << "3 across both nodes";
    EXPECT_GT(b.wait(k, 0), 0);
    EXPECT_EQ(a.localWait(k, 0), 0) << "a saw 2 of them: its own count is under the burst";
    EXPECT_EQ(a.wait({"10.0.0.2"}, 0), 0) << "another address";
    a.take(k, 0);
    EXPECT_GT(a.localWait(k, 0), 0) << "a's own 3";
    // tryTake counts on the node too when the cluster admits.
    SharedThrottle ids(2, 3000);
    ids.share(ca, "ids");
    EXPECT_EQ(ids.tryTake(k, 0), 0);
    EXPECT_EQ(ids.tryTake(k, 0), 0);
    EXPECT_GT(ids.localWait(k, 0), 0);
    EXPECT_GT(ids.tryTake(k, 0), 0);
    // Redis stalled: localWait answers at once from memory (a blocking call would wait for the
    // command timeout, and this thread would hang here until SIGCONT).
    redis.pause();
    EXPECT_GT(a.localWait(k, 0), 0);
    EXPECT_EQ(b.localWait(k, 0), 0);
    redis.resume();
}

}  // namespace
}  // namespace rainet::test
