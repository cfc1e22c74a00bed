// The Redis link and subscriber against a real, throwaway redis-server (Debian's redis-server,
// installed by scripts/setup.sh) started by each test on a unix socket in a temporary folder.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "bus/publisher.h"
#include "bus/redis_link.h"
#include "bus/subscriber.h"
#include "support/redis_test_server.h"

namespace rainet::bus {
namespace {

using namespace std::chrono_literals;
using test::RedisServer;

// What a subscriber's handler received, waited on by the test thread.
struct Inbox {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::pair<std::string, std::string>> got;
    int ups = 0, downs = 0;

    Subscriber::Handler handler() {
        return [this](const std::string& ch, const std::string& payload) {
            std::lock_guard lock(mu);
            got.emplace_back(ch, payload);
            cv.notify_all();
        };
    }
    Subscriber::Options options() {
        Subscriber::Options o;
        o.retryMin = 10ms;
        o.retryMax = 100ms;
        o.onState = [this](bool up) {
            std::lock_guard lock(mu);
            ++(up ? ups : downs);
            cv.notify_all();
        };
        return o;
    }
    bool waitFor(size_t n, std::chrono::milliseconds t = 5s) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return got.size() >= n; });
    }
    bool waitDowns(int n, std::chrono::milliseconds t = 5s) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return downs >= n; });
    }
};

// One PUBLISH as a plain command: how many subscribers (over the whole Redis) received it, -1 on
// an error. The server publishes with publishAll, which reports delivery to Redis only; the
// tests of subscriptions need the count.
long long receivers(RedisLink& link, std::string_view channel, std::string_view payload) {
    auto r = link.command({"PUBLISH", channel, payload});
    if (!r) ADD_FAILURE() << r.error().message;
    return r && r->kind == Reply::Kind::Integer ? r->integer : -1;
}

TEST(Redis, PublishedMessagesReachTheSubscribersOfTheirChannelOnly) {
    RedisServer server;
    Inbox inbox;
    Subscriber sub(server.parsed(), inbox.handler(), inbox.options());
    sub.subscribe("game:g1:1");
    ASSERT_TRUE(sub.waitSubscribed(5s));
    RedisLink link(server.parsed());
    EXPECT_EQ(receivers(link, "game:g1:2", "not for us"), 0);
    EXPECT_EQ(receivers(link, "game:g1:1", R"({"type":"event","v":5})"), 1);
    ASSERT_TRUE(inbox.waitFor(1));
    std::lock_guard lock(inbox.mu);
    ASSERT_EQ(inbox.got.size(), 1u);
    EXPECT_EQ(inbox.got[0].first, "game:g1:1");
    EXPECT_EQ(inbox.got[0].second, R"({"type":"event","v":5})");
}

TEST(Redis, PayloadsAreBinarySafeAndLarge) {
    RedisServer server;
    Inbox inbox;
    Subscriber sub(server.parsed(), inbox.handler(), inbox.options());
    const std::string channel("ch\0an nel", 9);
    sub.subscribe(channel);
    ASSERT_TRUE(sub.waitSubscribed(5s));
    std::string payload(1 << 20, 'x');
    payload[10] = '\0';
    payload[20] = '\n';
    RedisLink link(server.parsed());
    ASSERT_EQ(link.publishAll({{channel, payload}}), std::vector<bool>{true});
    ASSERT_TRUE(inbox.waitFor(1));
    std::lock_guard lock(inbox.mu);
    EXPECT_EQ(inbox.got[0].first, channel);
    EXPECT_EQ(inbox.got[0].second, payload);
}

// The publisher's pipeline: many messages in one round trip arrive in order, each reported; with
// Redis gone every one is reported failed at once and the next call reconnects.
TEST(Redis, APipelineOfPublishesArrivesInOrderEachReportedAndFailsWholeWhileRedisIsAway) {
    RedisServer server;
    Inbox inbox;
    Subscriber sub(server.parsed(), inbox.handler(), inbox.options());
    sub.subscribe("p");
    ASSERT_TRUE(sub.waitSubscribed(5s));
    RedisLink link(server.parsed());
    std::vector<std::string> payloads;
    for (int i = 0; i < 300; ++i) payloads.push_back(std::to_string(i) + ":m");
    std::vector<std::pair<std::string_view, std::string_view>> messages;
    for (const auto& m : payloads) messages.emplace_back("p", m);
    messages.insert(messages.begin() + 150, {"nobody", "x"});  // answered 0: published all the same
    const auto ok = link.publishAll(messages);
    ASSERT_EQ(ok.size(), messages.size());
    for (std::size_t i = 0; i < ok.size(); ++i) EXPECT_TRUE(ok[i]) << i;
    ASSERT_TRUE(inbox.waitFor(payloads.size()));
    {
        std::lock_guard lock(inbox.mu);
        ASSERT_EQ(inbox.got.size(), payloads.size());
        for (std::size_t i = 0; i < payloads.size(); ++i)
            EXPECT_EQ(inbox.got[i].second, payloads[i]);
    }
    server.stop();
    const auto failed = link.publishAll(messages);
    ASSERT_EQ(failed.size(), messages.size());
    for (std::size_t i = 0; i < failed.size(); ++i) EXPECT_FALSE(failed[i]) << i;
    server.start();
    const auto again = link.publishAll({{"p", "back"}});
    ASSERT_EQ(again.size(), 1u);
    EXPECT_TRUE(again[0]);
    // Redis restarted while the link idled: its connection is stale, found at the next use and
    // replaced, and that batch is not lost (a node's first messages after a Redis restart).
    server.stop();
    server.start();
    const auto fresh = link.publishAll({{"p", "after"}, {"p", "restart"}});
    ASSERT_EQ(fresh.size(), 2u);
    EXPECT_TRUE(fresh[0]);
    EXPECT_TRUE(fresh[1]);
}

TEST(Redis, ChannelsComeAndGoWhileRunning) {
    RedisServer server;
    Inbox inbox;
    Subscriber sub(server.parsed(), inbox.handler(), inbox.options());
    RedisLink link(server.parsed());
    sub.subscribe("a");
    ASSERT_TRUE(sub.waitSubscribed(5s));
    sub.subscribe("b");
    ASSERT_TRUE(sub.waitSubscribed(5s));
    EXPECT_EQ(receivers(link, "b", "1"), 1);
    sub.unsubscribe("a");
    // Redis counts the receivers of each publish: it reaches 0 once the unsubscribe is applied.
    int late = 0;
    for (auto until = std::chrono::steady_clock::now() + 5s;
         std::chrono::steady_clock::now() < until; ++late)
        if (receivers(link, "a", "late") == 0) break;
    EXPECT_LT(late, 100000) << "the unsubscribe was never applied";
    EXPECT_EQ(receivers(link, "b", "2"), 1);
    // Everything published to "a" while it was still subscribed arrives; nothing after.
    ASSERT_TRUE(inbox.waitFor(2 + static_cast<size_t>(late)));
    std::lock_guard lock(inbox.mu);
    EXPECT_EQ(inbox.got.size(), 2u + static_cast<size_t>(late));
    EXPECT_EQ(inbox.got.back(), (std::pair<std::string, std::string>{"b", "2"}));
}

TEST(Redis, BothSidesComeBackAfterARedisRestart) {
    RedisServer server;
    Inbox inbox;
    Subscriber sub(server.parsed(), inbox.handler(), inbox.options());
    sub.subscribe("game:g7:spectators");
    ASSERT_TRUE(sub.waitSubscribed(5s));
    RedisLink link(server.parsed(), 200ms);
    ASSERT_EQ(link.publishAll({{"game:g7:spectators", "before"}}), std::vector<bool>{true});
    ASSERT_TRUE(inbox.waitFor(1));

    server.stop();
    // While Redis is away a command is an error value, promptly, and the subscriber notices.
    EXPECT_EQ(link.publishAll({{"game:g7:spectators", "lost"}}), std::vector<bool>{false});
    EXPECT_TRUE(inbox.waitDowns(1));
    EXPECT_FALSE(sub.waitSubscribed(50ms));

    server.start();
    ASSERT_TRUE(sub.waitSubscribed(10s)) << "the subscriber did not subscribe again";
    EXPECT_EQ(sub.connects(), 2u);
    // The link reconnects by itself.
    EXPECT_EQ(link.publishAll({{"game:g7:spectators", "after"}}), std::vector<bool>{true});
    ASSERT_TRUE(inbox.waitFor(2));
    std::lock_guard lock(inbox.mu);
    EXPECT_EQ(inbox.got.back().second, "after");
    EXPECT_EQ(inbox.ups, 2);
}

TEST(Redis, NoServerMeansErrorsNotHangs) {
    const auto addr = *parseRedisAddress("unix:/nonexistent/rainet-redis.sock");
    RedisLink link(addr, 100ms);
    auto r = link.command({"PING"});
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("unix:/nonexistent/rainet-redis.sock"), std::string::npos)
        << r.error().message;
    Inbox inbox;
    {
        Subscriber sub(addr, inbox.handler(), inbox.options());
        sub.subscribe("x");
        EXPECT_FALSE(sub.waitSubscribed(100ms));
    }  // and it stops promptly though it never connected
    EXPECT_EQ(inbox.ups, 0);
}

TEST(Redis, ARedisErrorReplyIsAnErrorValue) {
    RedisServer server;
    RedisLink link(server.parsed());
    auto r = link.command({"NOSUCHCOMMAND", "x"});
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("unknown command"), std::string::npos) << r.error().message;
    // The connection is still good for the next command.
    auto ok = link.command({"INCRBY", "k", "5"});
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_EQ(ok->integer, 5);
    EXPECT_EQ(link.connects(), 1u);
}

// publisher.h: a stalled Redis fills the queue, which refuses past its bound (the caller closes
// the connection concerned) except `always` messages; what PUBLISH could not send is counted
// failed; once Redis answers again, delivery resumes in order.
TEST(Redis, APublisherOverItsBoundRefusesAndResumesWhenRedisReturns) {
    RedisServer server;
    Inbox inbox;
    Subscriber sub(server.parsed(), inbox.handler(), inbox.options());
    sub.subscribe("c");
    ASSERT_TRUE(sub.waitSubscribed(5s));
    Publisher pub(server.parsed(), 1000);
    ASSERT_TRUE(pub.publish("c", "first"));
    ASSERT_TRUE(inbox.waitFor(1));

    server.pause();
    int accepted = 0, refused = 0;
    for (int i = 0; i < 40; ++i) (pub.publish("c", std::string(99, 'x')) ? accepted : refused)++;
    EXPECT_GT(refused, 0);
    EXPECT_LE(accepted, 11);  // 1000 bytes of 100-byte messages, one of them already sent
    EXPECT_LE(pub.queuedBytes(), 1000u + 100u);
    EXPECT_TRUE(pub.publish("c", "always", true)) << "past the bound, an `always` passes";
    // The message in flight times out (500 ms): counted failed, dropped.
    for (int i = 0; i < 300 && pub.failed() == 0; ++i) std::this_thread::sleep_for(10ms);
    EXPECT_GE(pub.failed(), 1u);

    server.resume();
    ASSERT_TRUE(pub.publish("c", "after"));
    // Delivery resumes: "after" arrives, last, after whatever of the queue got through.
    bool after = false;
    for (int i = 0; i < 500 && !after; ++i) {
        {
            std::lock_guard lock(inbox.mu);
            after = !inbox.got.empty() && inbox.got.back().second == "after";
        }
        if (!after) std::this_thread::sleep_for(10ms);
    }
    EXPECT_TRUE(after);
    EXPECT_EQ(pub.queuedBytes(), 0u);
}

}  // namespace
}  // namespace rainet::bus
