// Unit tests of the network edge's parts: the keyed token buckets (throttle.h), the admission caps,
// the client address behind trusted proxies (admission.h) and the latency histogram of /metrics.
#include <gtest/gtest.h>

#include "server/admission.h"
#include "server/latency_histogram.h"
#include "server/throttle.h"

namespace rainet::server {
namespace {

namespace ip = boost::asio::ip;

TEST(Throttle, BurstThenRefill) {
    Throttle t(3, 100);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(t.tryTake({"a"}, 0), 0);
    EXPECT_EQ(t.tryTake({"a"}, 0), 100);
    EXPECT_EQ(t.tryTake({"b"}, 0), 0);  // keys are independent
    EXPECT_EQ(t.tryTake({"a"}, 100), 0);
    EXPECT_EQ(t.wait({"a"}, 150), 50);
}

TEST(Throttle, TryTakeTakesNothingWhenAnyKeyIsEmpty) {
    Throttle t(1, 100);
    EXPECT_EQ(t.tryTake({"x"}, 0), 0);
    EXPECT_EQ(t.tryTake({"y", "x"}, 0), 100);
    EXPECT_EQ(t.tryTake({"y"}, 0), 0);  // y was not taken from
}

TEST(Throttle, BackoffDoublesAndAFullBucketForgets) {
    Throttle t(2, 100, true);
    t.take({"k"}, 0);
    t.take({"k"}, 0);  // emptied once: refill 100
    EXPECT_EQ(t.wait({"k"}, 0), 100);
    t.take({"k"}, 100);  // emptied again before full: 200
    EXPECT_EQ(t.wait({"k"}, 100), 200);
    t.take({"k"}, 300);  // 400
    EXPECT_EQ(t.wait({"k"}, 300), 400);
    // Left alone until full, it starts over.
    t.take({"k"}, 100000);
    t.take({"k"}, 100000);
    EXPECT_EQ(t.wait({"k"}, 100000), 100);
}

TEST(Throttle, BackoffIsCapped) {
    Throttle t(2, 100, true);
    std::int64_t now = 0;
    t.take({"k"}, now);
    for (int i = 0; i < 20; ++i) {
        now += t.wait({"k"}, now);
        t.take({"k"}, now);
    }
    EXPECT_EQ(t.wait({"k"}, now), 100 << 6);
}

TEST(Cidr, ParsesAndMatches) {
    auto a = [](const char* s) { return ip::make_address(s); };
    auto c = Cidr::parse("10.1.0.0/16");
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->contains(a("10.1.200.3")));
    EXPECT_FALSE(c->contains(a("10.2.0.1")));
    EXPECT_TRUE(c->contains(a("::ffff:10.1.0.9")));  // IPv4-mapped
    EXPECT_FALSE(c->contains(a("::1")));
    auto one = Cidr::parse("127.0.0.1");
    ASSERT_TRUE(one);
    EXPECT_TRUE(one->contains(a("127.0.0.1")));
    EXPECT_FALSE(one->contains(a("127.0.0.2")));
    auto v6 = Cidr::parse("2001:db8::/33");
    ASSERT_TRUE(v6);
    EXPECT_TRUE(v6->contains(a("2001:db8:7fff::1")));
    EXPECT_FALSE(v6->contains(a("2001:db8:8000::1")));
    for (const char* bad :
         {"", "10.0.0.0/33", "10.0.0.0/", "10.0.0/8", "x/8", "::/129", "1.2.3.4/8x"})
        EXPECT_FALSE(Cidr::parse(bad)) << bad;
}

TEST(ClientAddress, ForwardedForOnlyFromTrustedPeers) {
    const std::vector<Cidr> trusted = {*Cidr::parse("127.0.0.1"), *Cidr::parse("10.9.0.0/16")};
    auto addr = [&](const char* peer, const char* xff) {
        return clientAddress(ip::make_address(peer), xff, trusted);
    };
    EXPECT_EQ(addr("203.0.113.5", "1.2.3.4"), "203.0.113.5");  // not a proxy: ignored
    EXPECT_EQ(addr("127.0.0.1", ""), "127.0.0.1");
    EXPECT_EQ(addr("127.0.0.1", "1.2.3.4"), "1.2.3.4");
    EXPECT_EQ(addr("127.0.0.1", "6.6.6.6, 1.2.3.4"), "1.2.3.4");  // the client wrote 6.6.6.6
    EXPECT_EQ(addr("127.0.0.1", "6.6.6.6, 1.2.3.4 , 10.9.1.1"), "1.2.3.4");
    EXPECT_EQ(addr("127.0.0.1", "1.2.3.4, garbage"), "127.0.0.1");
    EXPECT_EQ(addr("127.0.0.1", "2001:db8::1"), "2001:db8::1");
    EXPECT_EQ(addr("::ffff:127.0.0.1", "1.2.3.4"), "1.2.3.4");
}

TEST(Admission, CapsTotalAndPerAddress) {
    Admission a(3, 2);
    auto t1 = a.admit("x"), t2 = a.admit("x");
    EXPECT_TRUE(t1 && t2);
    EXPECT_FALSE(a.admit("x"));
    auto t3 = a.admit("y");
    EXPECT_TRUE(t3);
    EXPECT_FALSE(a.admit("z"));  // the total
    t1.reset();
    EXPECT_TRUE(a.admit("x"));
    EXPECT_EQ(a.total(), 2u);  // the one just admitted was dropped again at once
}

TEST(LatencyHistogram, CountsEachSampleInItsBucketCumulativelyWithSumAndCount) {
    LatencyHistogram h;
    using std::chrono::microseconds;
    h.record(microseconds(100));        // <= 0.25 ms
    h.record(microseconds(250));        // on a bound: counted in it
    h.record(microseconds(1500));       // <= 2 ms
    h.record(microseconds(3'000'000));  // past the last bound: +Inf only
    h.record(microseconds(-5));         // a clock step backwards counts as 0
    std::string out;
    h.render("x_seconds", "Help.", out);
    EXPECT_EQ(out,
              "# HELP x_seconds Help.\n# TYPE x_seconds histogram\n"
              "x_seconds_bucket{le=\"0.00025\"} 3\n"
              "x_seconds_bucket{le=\"0.0005\"} 3\n"
              "x_seconds_bucket{le=\"0.001\"} 3\n"
              "x_seconds_bucket{le=\"0.002\"} 4\n"
              "x_seconds_bucket{le=\"0.005\"} 4\n"
              "x_seconds_bucket{le=\"0.01\"} 4\n"
              "x_seconds_bucket{le=\"0.05\"} 4\n"
              "x_seconds_bucket{le=\"0.25\"} 4\n"
              "x_seconds_bucket{le=\"1\"} 4\n"
              "x_seconds_bucket{le=\"+Inf\"} 5\n"
              "x_seconds_sum 3.00185\n"
              "x_seconds_count 5\n");
    EXPECT_EQ(h.count(), 5);
}

}  // namespace
}  // namespace rainet::server
