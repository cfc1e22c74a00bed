#include "bus/redis_address.h"

#include <gtest/gtest.h>

namespace rainet::bus {
namespace {

TEST(RedisAddress, TcpAndUnixForms) {
    auto a = parseRedisAddress("redis://127.0.0.1:6380/2");
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->host, "127.0.0.1");
    EXPECT_EQ(a->port, 6380);
    EXPECT_EQ(a->db, 2);
    EXPECT_FALSE(a->isUnix());
    EXPECT_EQ(a->toString(), "redis://127.0.0.1:6380/2");

    auto d = parseRedisAddress("redis://cache.internal");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->port, 6379);
    EXPECT_EQ(d->db, 0);

    auto v6 = parseRedisAddress("redis://[::1]:7000");
    ASSERT_TRUE(v6) << v6.error().message;
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->port, 7000);
    EXPECT_EQ(v6->toString(), "redis://[::1]:7000");

    for (const char* u : {"unix:/run/redis/redis.sock", "unix:///run/redis/redis.sock"}) {
        auto s = parseRedisAddress(u);
        ASSERT_TRUE(s) << u;
        EXPECT_TRUE(s->isUnix());
        EXPECT_EQ(s->socketPath, "/run/redis/redis.sock");
        EXPECT_EQ(s->toString(), "unix:/run/redis/redis.sock");
    }
}

TEST(RedisAddress, HostileOrBrokenFormsAreClearErrors) {
    for (const char* bad :
         {"", "redis://", "redis://:6379", "http://host:6379", "redis://h:0", "redis://h:65536",
          "redis://h:-1", "redis://h:12x", "redis://h:+5", "redis://h/16", "redis://h/x",
          "redis://[::1", "redis://[::1]x", "redis://user:secret@h:6379", "redis://h :6379",
          "unix:relative.sock", "unix:", "redis://h\n:6379"}) {
        auto a = parseRedisAddress(bad);
        EXPECT_FALSE(a) << "accepted: " << bad;
        if (!a) {
            EXPECT_NE(a.error().message.find("--redis"), std::string::npos) << a.error().message;
        }
    }
    EXPECT_FALSE(parseRedisAddress("unix:/" + std::string(200, 'x')));
    EXPECT_FALSE(parseRedisAddress("redis://" + std::string(2000, 'h')));
    // A password in the URL is refused and never echoed in full (it would reach logs).
    auto p = parseRedisAddress("redis://:hunter2@h");
    ASSERT_FALSE(p);
    EXPECT_NE(p.error().message.find("credentials"), std::string::npos);
    EXPECT_EQ(p.error().message.find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace rainet::bus
